"""The on-disk cache of the converted dataset and of the parsed seed pages
(``tactica.cache``, ``tactica.loaders.wh40kdc_cache``).

Every test works in its own cache folder (``TACTICA_CACHE_DIR`` under ``tmp_path``). The
sweep checks, for every unit of the installed dataset, that what the cache gives back is
what the converter gives.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tactica import cache
from tactica.cache import CACHE_DIR_ENV, CACHE_ENV, cache_key
from tactica.library import SeedCache, load_seed_library
from tactica.loaders import wh40kdc, wh40kdc_cache
from tactica.loaders.wh40kdc import Wh40kdcDataset, embedded_dataset, installed_version
from tactica.loaders.wh40kdc_cache import (
    CachedDataset,
    bundled_dataset,
    cache_path,
    write_cache,
)
from tactica.seed_pages import SeedSnapshot, parse_seed_pages

VERSION = installed_version() or "unknown"


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A cache folder of the test's own; nothing opened earlier is reused."""
    monkeypatch.setenv(CACHE_DIR_ENV, str(tmp_path / "cache"))
    monkeypatch.delenv(CACHE_ENV, raising=False)
    monkeypatch.setattr(wh40kdc_cache, "_opened", {})
    yield tmp_path / "cache"


def _entries(folder: Path) -> list[str]:
    """The folder's entries, the kept hash of tactica's sources left out (``cache``)."""
    return sorted(p.name for p in folder.iterdir() if not p.name.startswith("sources-"))


@pytest.mark.slow
def test_every_unit_from_the_cache_is_the_converted_one(folder: Path) -> None:
    fresh = embedded_dataset()
    path = cache_path(VERSION)
    write_cache(fresh, path)
    cached = CachedDataset(path)
    assert cached.converted == 0  # opening it reads the index only
    assert (cached.names(), cached.aliases(), cached.factions(), cached.label) == (
        fresh.names(), fresh.aliases(), fresh.factions(), fresh.label)
    assert cached.index.keyed_names() == fresh.index.keyed_names()
    for name in fresh.names():
        assert cached.datasheet(name) == fresh.datasheet(name), name
        assert cached.unit_report(name) == fresh.unit_report(name), name
        assert cached.factions_of(name) == fresh.factions_of(name)
    assert cached.report() == fresh.report()
    assert cached.faction("Space Marines") == fresh.faction("Space Marines")


def test_the_first_use_writes_the_cache_and_the_next_reads_one_unit(folder: Path) -> None:
    first = bundled_dataset()
    assert isinstance(first, Wh40kdcDataset)  # nothing cached yet: converted here
    assert _entries(folder) == [cache_path(VERSION).name]
    wh40kdc_cache._opened.clear()  # as in the next process
    second = bundled_dataset()
    assert isinstance(second, CachedDataset) and second.converted == 0
    sheet = second.datasheet("Intercessor Squad")
    assert sheet is not None and second.converted == 1
    assert sheet == first.datasheet("Intercessor Squad")


def test_the_key_follows_the_dataset_version_and_tactica(folder: Path) -> None:
    assert cache_path("1.4.5") != cache_path("1.4.4")
    assert cache_key("wh40kdc 1.4.5") == cache_key("wh40kdc 1.4.5")
    assert cache_key("wh40kdc 1.4.5") != cache_key("wh40kdc 1.4.4")
    assert cache_path(VERSION).parent == folder


def test_the_hash_of_the_sources_is_kept_under_their_stamp(
        folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``cache_key`` hashes the contents of the code that builds an entry; the hash is kept
    in the folder under the files' stamp, and computed again when the stamp changes or
    the kept one cannot be read."""
    computed: list[str] = []

    def count() -> str:
        computed.append(real())
        return computed[-1]

    real = cache._hash_sources
    monkeypatch.setattr(cache, "_hash_sources", count)
    cache._sources_hash.cache_clear()
    try:
        first = cache._sources_hash()
        cache._sources_hash.cache_clear()  # as in the next process
        assert cache._sources_hash() == first == real() and len(computed) == 1
        (memo,) = folder.glob("sources-*.txt")
        memo.write_text("damaged")
        cache._sources_hash.cache_clear()
        assert cache._sources_hash() == first and len(computed) == 2
        monkeypatch.setattr(cache, "files_stamp", lambda *_: "another")  # a file changed
        cache._sources_hash.cache_clear()
        assert cache._sources_hash() == first and len(computed) == 3
        assert [p.name for p in folder.glob("sources-*")] == ["sources-another.txt"]
    finally:
        cache._sources_hash.cache_clear()
        cache._sources_hash()  # known again before the next test (kept in this folder)


def test_turned_off_it_converts_in_the_process(folder: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CACHE_ENV, "0")
    assert bundled_dataset() is embedded_dataset()
    assert not folder.exists()


def test_a_damaged_file_is_converted_again_and_replaced(folder: Path) -> None:
    path = cache_path(VERSION)
    folder.mkdir(parents=True, exist_ok=True)  # the sources' hash may be kept there
    path.write_bytes(b"not a database")
    found = bundled_dataset()
    assert isinstance(found, Wh40kdcDataset)
    assert CachedDataset(path).names() == found.names()  # rewritten


def test_a_folder_that_cannot_be_written_is_no_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a file"
    blocker.write_text("in the way", encoding="utf-8")
    monkeypatch.setenv(CACHE_DIR_ENV, str(blocker / "cache"))
    monkeypatch.setattr(wh40kdc_cache, "_opened", {})
    assert bundled_dataset() is embedded_dataset()


def test_writers_at_once_leave_one_whole_file(folder: Path) -> None:
    """Several processes filling the cache at once: each writes its own temporary file
    and renames it into place, so the file is always whole and no temporary stays."""
    source = embedded_dataset()
    path = cache_path(VERSION)
    errors: list[BaseException] = []

    def write() -> None:
        try:
            write_cache(source, path)
            CachedDataset(path).datasheet("Primus")
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=write) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert _entries(folder) == [path.name]
    assert len(CachedDataset(path)) == len(source)


def test_an_old_key_is_removed_when_a_new_one_is_written(folder: Path) -> None:
    folder.mkdir(parents=True)
    stale = folder / "wh40kdc-1.4.4-0123456789abcdef01234567.sqlite"
    stale.write_bytes(b"old")
    write_cache(Wh40kdcDataset({}, "1.4.5"), cache_path("1.4.5"))
    assert not stale.exists()


def test_the_seed_snapshot_is_the_parsed_library(folder: Path) -> None:
    parsed = parse_seed_pages()
    again = SeedSnapshot.model_validate_json(parsed.model_dump_json())
    assert again == parsed
    # as kept in the cache: the records as JSON text, read when first asked for
    kept = SeedCache.model_validate_json(SeedCache.of(parsed).model_dump_json())
    library, reread, cached = parsed.library(), again.library(), kept.library()
    assert library.datasheets() == reread.datasheets() == cached.datasheets()
    assert library.records() == reread.records() == cached.records()
    assert library.presets() == cached.presets() and len(cached.presets()) == 10
    assert reread.datasheet("Neophyte Hybrids").name == "Neophyte Hybrids"
    assert load_seed_library().datasheets() == library.datasheets()
    assert load_seed_library().records() == library.records()


def test_a_damaged_records_text_is_read_from_the_pages_again() -> None:
    parsed = parse_seed_pages()
    damaged = SeedCache.of(parsed).model_copy(update={"records_json": "[{"})
    assert damaged.library().records() == parsed.library().records()


def test_the_dataset_missing_is_said_before_any_cache(monkeypatch: pytest.MonkeyPatch,
                                                      folder: Path) -> None:
    monkeypatch.setattr(wh40kdc, "installed_version", lambda: None)
    with pytest.raises(wh40kdc.DatasetMissingError):
        bundled_dataset()
