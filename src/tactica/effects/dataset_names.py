"""The names of every faction's rules records, without loading them (issue 11, fast start).

Deciding why a unit's own ability is not in the numbers ("Oath of Moment (Intercessor
Squad): an army rule, name it as an effect to apply it") needs only to know whether the
bundled dataset has a record of that name and of which kind. Compiling every faction's
rules (``effects.dataset``) takes about a second, so the names and kinds are kept in
tactica's on-disk cache (``tactica.cache``: keyed by the dataset version and the code
that reads the records) and read from there by every later command.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType

from tactica.cache_registry import lasting_cache

from ..cache import cache_dir, cache_enabled, cache_key, write_atomically
from ..names import normalise

__all__ = ["dataset_record_kind"]

_PREFIX = "dataset-rule-names-"


def _build() -> dict[str, str]:
    from . import dataset_effects

    data = dataset_effects()
    if data is None:
        return {}
    return {normalise(e.record.name): e.effect.kind for e in data.entries}


@lasting_cache(maxsize=None, kind="data")
def _names() -> Mapping[str, str]:
    """The dataset's record names and their kinds (read-only: cached)."""
    return MappingProxyType(_names_built())


def _names_built() -> dict[str, str]:
    from ..loaders.wh40kdc import installed_version

    version = installed_version()
    if version is None:
        return {}
    if not cache_enabled():
        return _build()
    path = cache_dir() / f"{_PREFIX}{version}-{cache_key(f'rule names {version}')}.json"
    with contextlib.suppress(OSError, ValueError):
        loaded = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(loaded, dict):
            return {str(k): str(v) for k, v in loaded.items()}
    names = _build()

    def write(tmp: Path) -> None:
        tmp.write_text(json.dumps(names), encoding="utf-8")

    with contextlib.suppress(OSError):
        write_atomically(path, write, f"{_PREFIX}{version}-*.json")
    return names


def dataset_record_kind(name: str) -> str | None:
    """The kind of the bundled dataset's record named ``name`` ("army rule",
    "stratagem", ...), or ``None`` when it has none (or the dataset is not installed)."""
    return _names().get(normalise(name))
