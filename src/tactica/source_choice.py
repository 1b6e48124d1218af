"""Which sources ``tactica.library.load_library()`` reads when called without arguments:
the seed pages, the BSData catalogues of ``tactica --data PATH`` and (unless
``--no-dataset``) the bundled dataset.

A module of its own, importing nothing, so that a command can set the choice (the root
callback of the command line) and a look-up can read it (the index of rules by name,
``tactica.lookup.rule_index``) without loading the library.

>>> configured_sources()
((), True)
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

__all__ = ["configured_sources", "skip_bad_files", "use_sources"]

_configured: tuple[tuple[str, ...], bool] = ((), True)
_skip_bad = False


def use_sources(data_paths: Sequence[str | Path] = (), *, dataset: bool = False,
                skip_bad: bool = False) -> None:
    """Make ``load_library()`` (no arguments) use these sources from now on: the BSData
    catalogues at ``data_paths`` and, with ``dataset``, the bundled dataset. A folder's
    unreadable files refuse the folder unless ``skip_bad`` (``tactica --skip-bad``)."""
    global _configured, _skip_bad
    _configured = (tuple(str(p) for p in data_paths), dataset)
    _skip_bad = skip_bad


def configured_sources() -> tuple[tuple[str, ...], bool]:
    """The ``(data_paths, dataset)`` that ``load_library()`` uses by default."""
    return _configured


def skip_bad_files() -> bool:
    """Whether a ``--data`` folder's unreadable files are skipped (``--skip-bad``)."""
    return _skip_bad
