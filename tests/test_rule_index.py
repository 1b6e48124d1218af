"""The index of rules by name on disk (``tactica.lookup.rule_index``): a look-up through
it gives what the library itself gives, and a changed source gives another index.

Each test uses its own cache folder and the seed pages alone (``--no-dataset``), so the
index is built from a small library in the test."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tactica.cache import CACHE_DIR_ENV, CACHE_ENV
from tactica.library import load_seed_library
from tactica.lookup import rule_entries, rule_notes
from tactica.lookup.rule_index import configured_index, index_path
from tactica.names import UnknownNameError
from tactica.rules.notes import RULE_NOTES
from tactica.source_choice import configured_sources, use_sources


@pytest.fixture
def seeds_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv(CACHE_DIR_ENV, str(tmp_path / "cache"))
    monkeypatch.delenv(CACHE_ENV, raising=False)
    before = configured_sources()
    use_sources((), dataset=False)
    yield
    use_sources(before[0], dataset=before[1])


def _names() -> list[str]:
    """Every name a look-up can be asked for in the seed library, spelled as published,
    the calculator's notes and a name nothing has."""
    lib = load_seed_library()
    names = [r.name for r in lib.records() if hasattr(r, "name")]
    names += [r.title for r in lib.records() if hasattr(r, "title")]
    names += [a.name for d in lib.datasheets() for a in d.abilities]
    names += [n.name for n in RULE_NOTES] + ["pistol", "Frobnicate"]
    return list(dict.fromkeys(names))


@pytest.mark.usefixtures("seeds_only")
def test_a_look_up_through_the_index_equals_the_library_s_own() -> None:
    assert configured_index() is not None  # built here, from the seed pages
    lib = load_seed_library()
    checked = 0
    for name in _names():
        for rules in (None, "10th", "11th"):
            try:
                direct = rule_entries(name, rules, library=lib)  # type: ignore[arg-type]
            except UnknownNameError as exc:
                with pytest.raises(UnknownNameError) as indexed:
                    rule_entries(name, rules)  # type: ignore[arg-type]
                assert str(indexed.value) == str(exc)
                continue
            assert rule_entries(name, rules) == direct  # type: ignore[arg-type]
            assert rule_notes(name, rules) == rule_notes(name, rules, library=lib)  # type: ignore[arg-type]
            checked += 1
    assert checked > 50


@pytest.mark.usefixtures("seeds_only")
def test_entries_keep_the_record_and_its_source() -> None:
    (entry,) = rule_entries("Primed and Readied")
    record = next(r for r in load_seed_library().records()
                  if getattr(r, "name", "") == "Primed and Readied")
    assert entry.record == record.model_dump(mode="json", exclude={"source"})
    assert record.source is not None
    assert entry.source == f"{Path(record.source.file).name}:{record.source.line}"


def test_a_changed_catalogue_or_another_source_gives_another_index(tmp_path: Path) -> None:
    catalogue = tmp_path / "Some Faction.json"
    catalogue.write_text("{}", encoding="utf-8")
    first = index_path((str(tmp_path),), False, False)
    assert index_path((str(tmp_path),), False, False) == first
    stat = catalogue.stat()
    os.utime(catalogue, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    assert index_path((str(tmp_path),), False, False) != first
    assert index_path((str(tmp_path),), True, False) != index_path((str(tmp_path),), False,
                                                                  False)
    assert index_path((), False, True) != index_path((), False, False)


@pytest.mark.usefixtures("seeds_only")
def test_without_the_cache_there_is_no_index_and_the_look_up_still_answers(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CACHE_ENV, "0")
    assert configured_index() is None
    assert [e.kind for e in rule_entries("Primed and Readied")] == ["stratagem"]


def test_the_newest_few_other_indexes_are_kept(tmp_path: Path) -> None:
    from tactica.lookup.index_files import KEPT as _KEPT
    from tactica.lookup.rule_index import build_index

    folder = tmp_path / "cache"
    folder.mkdir()
    others = [folder / f"rules-other{i}.sqlite" for i in range(_KEPT + 2)]
    for i, other in enumerate(others):
        other.write_bytes(b"")
        os.utime(other, (1_000_000 + i, 1_000_000 + i))
    path = folder / "rules-new.sqlite"
    build_index(load_seed_library(), path)
    kept = sorted(p.name for p in folder.glob("rules-*.sqlite"))
    assert kept == sorted([path.name, *(p.name for p in others[-(_KEPT - 1):])])
