"""The rules by name on disk, so that ``tactica rule NAME`` reads one row instead of
loading the library (issue 25: a look-up in well under a second; loading every faction's
datasheets and rules costs several).

``configured_index()`` is the index of the sources the command line is set to
(``tactica.source_choice``: the seed pages, ``--data`` catalogues, the bundled dataset):
one SQLite file (the standard library's ``sqlite3``) in tactica's cache folder
(``tactica.cache``), one row per look-up key (``tactica.names.name_key`` of every rule
record's name, section and "name (detachment)", every datasheet ability's name and every
rule the calculator has a note for), holding what ``rule_entries`` returns for it (every
version; the caller keeps the one asked for) and the calculator's notes per rules version,
plus every rule name for the "did you mean" suggestions.

The file is named for the stamps of the code that builds it and of its sources
(``tactica.lookup.index_files``): a changed source gives another file, so a stale index is
never read. The first look-up after a change builds it (the library loaded once, every key
computed: some seconds) and writes it whole, renamed into place; of the other index files
(other sources, other code) the newest few are kept.
With the cache off (``TACTICA_CACHE=0``), or a folder that cannot be written, there is no
index and the look-up loads the library.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from tactica.cache_registry import lasting_cache

from ..cache import cache_dir, cache_enabled, write_atomically
from ..source_choice import configured_sources, skip_bad_files
from .entries import RuleEntry, Statuses, entries_of, entry_from_json
from .index_files import keep_newest, sources_digest

if TYPE_CHECKING:
    from ..index import Library

__all__ = ["RuleIndex", "build_index", "configured_index", "index_path"]

_PREFIX = "rules-"
_VERSIONS = ("11th", "10th")


def index_path(paths: tuple[str, ...], dataset: bool, skip_bad: bool) -> Path:
    """Where the index of these sources is kept (module text)."""
    digest = sources_digest("rules index 1", paths, dataset, skip_bad)
    return cache_dir() / f"{_PREFIX}{digest}.sqlite"


class RuleIndex:
    """An index file opened read-only. Raises ``sqlite3.Error`` or ``ValueError`` for a
    file that is not one."""

    def __init__(self, path: Path) -> None:
        uri = f"{path.resolve().as_uri()}?mode=ro&immutable=1"
        self._db = sqlite3.connect(uri, uri=True, check_same_thread=False)
        try:
            row = self._db.execute("SELECT value FROM meta WHERE key = 'complete'").fetchone()
        except sqlite3.Error:
            self._db.close()
            raise
        if row is None:
            self._db.close()
            raise ValueError(f"{path}: not a complete index")

    def get(self, key: str) -> tuple[list[RuleEntry], dict[str, str]] | None:
        """Every entry of this look-up key and the calculator's notes per rules version
        (``None`` for a key nothing answers to)."""
        row = self._db.execute("SELECT value FROM rules WHERE key = ?", (key,)).fetchone()
        if row is None:
            return None
        data = json.loads(row[0])
        return [entry_from_json(e) for e in data["entries"]], data["notes"]

    def missing(self) -> list[str]:
        """The sources asked for but not available (the dataset not installed)."""
        row = self._db.execute("SELECT value FROM meta WHERE key = 'missing'").fetchone()
        return list(json.loads(row[0])) if row is not None else []

    def names(self) -> list[str]:
        """Every rule name, for the suggestions of a name that matches nothing."""
        row = self._db.execute("SELECT value FROM meta WHERE key = 'names'").fetchone()
        return list(json.loads(row[0])) if row is not None else []


def _rows(library: Library) -> Iterator[tuple[str, str]]:
    from ..names import UnknownNameError
    from ..rules.notes import rule_note, rule_note_keys

    statuses = Statuses()
    known = library.rule_keys()  # the keys ``find_rules`` answers: no other key is
    every = set(known)  # asked (its refusal would compute suggestions over every name)
    for key in dict.fromkeys([*known, *rule_note_keys()]):
        try:
            entries = entries_of(library, key, None, statuses) if key in every else []
        except UnknownNameError:
            entries = []
        notes = {v: n for v in _VERSIONS if (n := rule_note(key, v)) is not None}  # type: ignore[arg-type]
        if entries or notes:
            yield key, json.dumps({"entries": [e.as_json() for e in entries],
                                   "notes": notes})


def build_index(library: Library, path: Path) -> None:
    """Compute every key of ``library`` and write the index to ``path`` (atomically; of
    the other index files in that folder the newest few are kept). Raises ``OSError`` or
    ``sqlite3.Error`` when the folder cannot be written."""
    rows = list(_rows(library))
    meta = [("names", json.dumps(list(library.rule_names()))),
            ("missing", json.dumps(list(getattr(library, "missing", ())))),
            ("complete", "1")]

    def write(temporary: Path) -> None:
        db = sqlite3.connect(temporary)
        try:
            db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
            db.execute("CREATE TABLE rules (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
            db.executemany("INSERT INTO rules VALUES (?, ?)", rows)
            db.executemany("INSERT INTO meta VALUES (?, ?)", meta)
            db.commit()
        finally:
            db.close()

    write_atomically(path, write, stale=path.name)
    keep_newest(path, f"{_PREFIX}*.sqlite")


def configured_index() -> RuleIndex | None:
    """The index of the sources the command line is set to, built on first use; ``None``
    with the cache off or when it can be neither read nor written."""
    if not cache_enabled():
        return None
    paths, dataset = configured_sources()
    return _index(index_path(paths, dataset, skip_bad_files()), paths, dataset)


@lasting_cache(maxsize=None, kind="data")
def _index(path: Path, paths: tuple[str, ...], dataset: bool) -> RuleIndex | None:
    with contextlib.suppress(sqlite3.Error, ValueError, OSError):
        return RuleIndex(path)
    from ..library import load_library

    with contextlib.suppress(sqlite3.Error, OSError):
        library = load_library(paths, dataset=dataset)
        build_index(library, path)
        # every datasheet is merged by now: the unit list's index costs little more
        from .unit_index import keep_unit_index

        keep_unit_index(library, paths, dataset)
        return RuleIndex(path)
    return None
