"""The global ``--data PATH`` / ``--no-dataset`` / ``--skip-bad`` options: ``configure``,
called by the root callback, points ``load_library()`` at the seed pages, the catalogues
given with ``--data`` and (unless ``--no-dataset``) the bundled dataset for the length of
one command, and restores the previous setting when the command ends, so nothing leaks
into the next invocation (or the next test). It loads no library (``tactica.source_choice``),
so a command that needs none starts quickly.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import typer
from rich.console import Console

from ..service import configured_sources, skip_bad_files, use_sources
from .errors import EXIT_BAD_INPUT

__all__ = ["configure"]


def configure(ctx: typer.Context, data: Sequence[Path] | None, dataset: bool,
              skip_bad: bool = False) -> None:
    """Use these sources for the command being run (see the module text). A ``--data``
    path that does not exist, or a file that is not BattleScribe JSON, is a usage error;
    a folder with a file that cannot be read is refused with one line per such file
    (exit 2), or, with ``--skip-bad``, loaded without them and a warning per file."""
    for path in data or ():
        _check(path, skip_bad)
    previous, previous_skip = configured_sources(), skip_bad_files()
    use_sources(tuple(data or ()), dataset=dataset, skip_bad=skip_bad)
    ctx.call_on_close(lambda: use_sources(previous[0], dataset=previous[1],
                                          skip_bad=previous_skip))


def _check(path: Path, skip_bad: bool) -> None:
    """Refuse a ``--data`` path that cannot be read (``configure``)."""
    from ..service import LoadError, read_file, read_folder

    err = Console(stderr=True, highlight=False, soft_wrap=True)
    if not path.exists():
        raise typer.BadParameter(f"no such file or folder: {path}", param_hint="--data")
    if path.is_file():
        try:
            read_file(path)
        except LoadError as exc:
            raise typer.BadParameter(str(exc), param_hint="--data") from None
    elif path.is_dir():
        refused = read_folder(path)[1]
        for bad in refused:
            word = "warning: skipped" if skip_bad else "error: --data"
            err.print(f"{word} {bad.source}: {bad.problem}", markup=False)
        if refused and not skip_bad:
            err.print(f"error: --data {path}: {len(refused)} file(s) cannot be read; fix "
                      "or remove them, or pass --skip-bad to load the rest", markup=False)
            raise typer.Exit(EXIT_BAD_INPUT)
