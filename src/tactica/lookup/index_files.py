"""Where the look-up indexes live in tactica's cache folder (``tactica.cache``): the index
of rules by name (``rule_index``) and the list of units (``unit_index``).

An index file is named for a stamp (``tactica.cache.files_stamp``: names, sizes and
modification times, no file read) of the code that builds it, of tactica's version, of the
bundled dataset's installed files and of every ``--data`` catalogue (``sources_digest``):
a changed source gives another file, so a stale index is never read. Of the other index
files of a kind (other sources, other code) the newest few are kept (``keep_newest``).
This module imports nothing heavy: a look-up finds its file before anything is loaded.
"""

from __future__ import annotations

import hashlib
import importlib.util
from pathlib import Path

from ..cache import code_stamp, files_stamp

__all__ = ["KEPT", "keep_newest", "sources_digest"]

#: The parts of tactica whose code or data decide what an index holds.
_CODE = ("loaders", "model", "data", "effects", "rules", "lookup", "units", "names.py",
         "dice.py", "facts.py", "library.py", "index.py", "sources.py", "datasheet_diff.py",
         "cache.py", "version.py")
#: Index files of one kind kept in the cache folder (about 7 MB each for the rules with
#: the bundled dataset, 0.2 MB for the units).
KEPT = 4


def _dataset_stamp() -> str:
    """The installed dataset package's files (its version is in its folder's name)."""
    spec = importlib.util.find_spec("wh40kdc")
    if spec is None or spec.origin is None:
        return "no dataset"
    package = Path(spec.origin).parent
    infos = sorted(p.name for p in package.parent.glob("wh40kdc-*.dist-info"))
    return f"{infos} {files_stamp([package])}"


def _catalogues_stamp(paths: tuple[str, ...]) -> str:
    """A ``--data`` folder's JSON files; a file's and its folder's (links resolve there)."""
    folders = [p if p.is_dir() else p.parent for p in map(Path, paths)]
    return files_stamp([*map(Path, paths), *folders], (".json",))


def sources_digest(what: str, paths: tuple[str, ...], dataset: bool, skip_bad: bool) -> str:
    """What an index file was built from, as 24 hex digits: ``what`` (the kind of index
    and its layout), the code that builds it, the ``--skip-bad`` choice, the bundled
    dataset (or "off") and the ``--data`` catalogues (module text)."""
    parts = [what, code_stamp(_CODE), f"skip bad {skip_bad}",
             f"dataset {_dataset_stamp() if dataset else 'off'}",
             f"catalogues {list(paths)} {_catalogues_stamp(paths)}"]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:24]


def keep_newest(path: Path, pattern: str) -> None:
    """Of the files matching ``pattern`` in ``path``'s folder (indexes of other sources
    or code: another ``--data`` folder, another checkout) the newest ``KEPT`` are kept,
    ``path`` always."""
    older = sorted(path.parent.glob(pattern), key=_modified, reverse=True)
    for old in older[KEPT:]:
        if old != path:
            old.unlink(missing_ok=True)


def _modified(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0
