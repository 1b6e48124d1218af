"""The converted dataset on disk, so that a command converts nothing (issue 11: "Fast
start").

Reading the ``wh40kdc`` bundle (10 MB of JSON) and indexing it costs more than the rest of
``tactica sheet X`` together, and converting every unit (what ``tactica units`` and
``tactica data report`` need) more again. ``bundled_dataset`` therefore keeps the converted
dataset in one SQLite file (the standard library's ``sqlite3``: one row per unit, so a
command reads and validates only the units it asks for) in tactica's cache folder
(``tactica.cache``: ``TACTICA_CACHE_DIR``, ``TACTICA_CACHE=0`` turns it off). The file is
named for the installed dataset version and ``cache_key`` (tactica's version and the
converter's sources), written whole and renamed into place, and opened read-only.

The first command after an install or upgrade converts every unit once (about a second)
and writes the file; later commands open it and convert nothing. A cache that cannot be
read or written is not an error: the dataset is then converted in the process.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
from pathlib import Path

from ..cache import cache_dir, cache_enabled, cache_key, write_atomically
from ..model.datasheet import Datasheet
from . import wh40kdc
from .report import UnitReport
from .wh40kdc import DatasetIndex, DatasetMissingError, DatasetSource

__all__ = ["CachedDataset", "bundled_dataset", "cache_path", "write_cache"]

_PREFIX = "wh40kdc-"


def cache_path(dataset_version: str) -> Path:
    """Where the converted ``dataset_version`` is kept."""
    key = cache_key(f"wh40kdc {dataset_version}")
    return cache_dir() / f"{_PREFIX}{dataset_version}-{key}.sqlite"


class CachedDataset(DatasetSource):
    """The dataset as converted earlier, read from a cache file one unit at a time (the
    same answers as the ``Wh40kdcDataset`` that wrote it). Safe to share between threads.
    Raises ``sqlite3.Error`` or ``ValueError`` for a file that is not such a cache."""

    def __init__(self, path: Path) -> None:
        uri = f"{path.resolve().as_uri()}?mode=ro&immutable=1"
        self._db = sqlite3.connect(uri, uri=True, check_same_thread=False)
        self._lock = threading.Lock()
        try:
            row = self._db.execute("SELECT value FROM meta WHERE key = 'index'").fetchone()
            if row is None:
                raise ValueError(f"{path}: no index")
            data = json.loads(row[0])
            index = DatasetIndex(
                version=data["version"], display=tuple(data["display"]),
                unit_factions=tuple(data["unit_factions"]), by_key=data["by_key"],
                aliases=data["aliases"], faction_aliases=data["faction_aliases"],
                notes=tuple(data["notes"]), keys=tuple(data["keys"]),
                alias_keys=data["alias_keys"])
        except (sqlite3.Error, ValueError, KeyError, TypeError):
            self._db.close()
            raise
        super().__init__(index)
        self.path = path

    def _load(self, index: int) -> tuple[Datasheet | None, UnitReport]:
        with self._lock:
            row = self._db.execute("SELECT sheet, report FROM units WHERE idx = ?",
                                   (index,)).fetchone()
        if row is None:
            raise ValueError(f"{self.path}: unit {index} is missing")
        sheet = None if row[0] is None else Datasheet.model_validate_json(row[0])
        return sheet, UnitReport.model_validate_json(row[1])


def write_cache(source: DatasetSource, path: Path) -> None:
    """Convert every unit of ``source`` and write them to ``path`` (atomically; older
    dataset caches in that folder are removed). Raises ``OSError`` or ``sqlite3.Error``
    when the folder cannot be written."""
    index = source.index
    rows = [(i, None if sheet is None else sheet.model_dump_json(), report.model_dump_json())
            for i, (sheet, report) in enumerate(source.converted_units())]
    meta = json.dumps({
        "version": index.version, "display": index.display,
        "unit_factions": index.unit_factions, "by_key": dict(index.by_key),
        "aliases": dict(index.aliases), "faction_aliases": dict(index.faction_aliases),
        "notes": index.notes, "keys": index.keys, "alias_keys": dict(index.alias_keys)})

    def write(temporary: Path) -> None:
        db = sqlite3.connect(temporary)
        try:
            db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
            db.execute("CREATE TABLE units (idx INTEGER PRIMARY KEY, sheet TEXT, "
                       "report TEXT NOT NULL)")
            db.execute("INSERT INTO meta VALUES ('index', ?)", (meta,))
            db.executemany("INSERT INTO units VALUES (?, ?, ?)", rows)
            db.commit()
        finally:
            db.close()

    write_atomically(path, write, stale=f"{_PREFIX}*.sqlite")


def bundled_dataset() -> DatasetSource:
    """The installed dataset as the library uses it: read from the cache when there is
    one for this dataset and tactica, else converted here (and the cache written for the
    next command). Raises ``DatasetMissingError`` when the dataset is not installed."""
    version = wh40kdc.installed_version()
    if version is None:
        raise DatasetMissingError()
    if not cache_enabled():
        return wh40kdc.embedded_dataset()
    return _cached(version)


_opened: dict[Path, DatasetSource] = {}


def _cached(version: str) -> DatasetSource:
    path = cache_path(version)
    if path in _opened:
        return _opened[path]
    try:
        found: DatasetSource = CachedDataset(path)
    except (sqlite3.Error, ValueError, KeyError, TypeError):  # absent or unreadable
        found = wh40kdc.embedded_dataset()
        # a read-only or full disk: convert in every process, as without a cache
        with contextlib.suppress(OSError, sqlite3.Error):
            write_cache(found, path)
    _opened[path] = found
    return found
