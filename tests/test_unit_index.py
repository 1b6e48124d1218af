"""The library's units on disk (``tactica.lookup.unit_index``): ``tactica units`` through
the index gives the rows and refusals the library itself gives (``find_units``), for every
faction the sources know, each rules version, and names they do not.

Each test uses its own cache folder and small sources (the seed pages, a BSData fixture),
so the index is built in the test; the sweep over the bundled dataset (every faction and
alias) is in the slow suite."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tactica.cache import CACHE_DIR_ENV, CACHE_ENV
from tactica.cli.app import app
from tactica.library import load_library
from tactica.lookup import find_units
from tactica.lookup.unit_index import (
    UnitIndex,
    _index_data,
    configured_unit_index,
    unit_cells,
    unit_rows,
)
from tactica.names import UnknownNameError
from tactica.source_choice import configured_sources, use_sources

FIXTURE_CATALOGUE = Path(__file__).resolve().parent / "fixtures" / "bsdata" / "Xenos - Testers.json"
runner = CliRunner()


@pytest.fixture
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv(CACHE_DIR_ENV, str(tmp_path / "cache"))
    monkeypatch.delenv(CACHE_ENV, raising=False)
    before = configured_sources()
    yield
    use_sources(before[0], dataset=before[1])


def _same_as_the_library(index: UnitIndex, names: list[str]) -> int:
    """Every name (and no faction) in every rules version: the index's rows are the
    library's, and a name it refuses the library refuses in the same words."""
    lib = load_library()
    checked = 0
    for faction in [None, *names]:
        for rules in (None, "10th", "11th"):
            try:
                sheets = lib.datasheets(rules) if faction is None else \
                    find_units(lib, faction=faction, rules=rules)  # type: ignore[arg-type]
            except UnknownNameError as exc:
                with pytest.raises(UnknownNameError) as indexed:
                    index.rows(faction, rules)  # type: ignore[arg-type]
                assert str(indexed.value) == str(exc)
                continue
            assert index.rows(faction, rules) == [unit_cells(s) for s in sheets]  # type: ignore[arg-type]
            checked += bool(sheets)
    return checked


@pytest.mark.usefixtures("own_cache")
def test_the_seed_pages_alone_by_faction_keyword() -> None:
    use_sources((), dataset=False)
    index = configured_unit_index()
    assert index is not None  # built here, from the seed pages
    keywords = {k for d in load_library().datasheets() for k in d.faction_keywords}
    names = [*keywords, *(k.lower().replace(" ", "-") for k in keywords), "Orks", ""]
    assert _same_as_the_library(index, names) > len(keywords)


@pytest.mark.usefixtures("own_cache")
def test_a_catalogue_by_the_factions_it_files_units_under() -> None:
    use_sources((str(FIXTURE_CATALOGUE),), dataset=False)
    index = configured_unit_index()
    assert index is not None
    lib = load_library()
    factions = list(lib.factions())  # type: ignore[attr-defined]
    assert factions
    names = [*factions, *(f.upper() for f in factions), "Tester", "Orks"]
    assert _same_as_the_library(index, names) >= len(factions)


@pytest.mark.usefixtures("own_cache")
def test_the_command_answers_from_the_index_as_from_the_library(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``tactica units --faction F`` prints the same with and without the cache."""
    args = ["--no-dataset", "--data", str(FIXTURE_CATALOGUE), "units", "--faction"]
    faction = load_library([FIXTURE_CATALOGUE], dataset=False).factions()[0]  # type: ignore[attr-defined]
    indexed = runner.invoke(app, [*args, faction], env={"COLUMNS": "200"})
    wrong = runner.invoke(app, [*args, faction[:-1]], env={"COLUMNS": "200"})
    assert list((tmp_path / "cache").glob("units-*.json"))  # answered from the index
    monkeypatch.setenv(CACHE_ENV, "0")
    direct = runner.invoke(app, [*args, faction], env={"COLUMNS": "200"})
    assert indexed.exit_code == direct.exit_code == 0
    assert indexed.stdout == direct.stdout
    assert wrong.exit_code == 2 and "did you mean" in wrong.stderr


def test_faction_names_read_as_the_library_reads_them() -> None:
    """``faction_spellings`` (what the index keeps) is ``faction``: every faction and
    alias of the bundled dataset (no datasheet converted)."""
    lib = load_library()
    spellings = lib.faction_spellings()  # type: ignore[attr-defined]
    assert len(spellings) > len(lib.factions())  # type: ignore[attr-defined]
    for key, spelled in spellings.items():
        assert lib.faction(key) == spelled  # type: ignore[attr-defined]
    with pytest.raises(UnknownNameError, match="did you mean"):
        lib.faction("Orkz")  # type: ignore[attr-defined]


@pytest.mark.slow
def test_every_faction_and_alias_of_the_bundled_dataset() -> None:
    lib = load_library()
    index = UnitIndex(_index_data(lib))
    names = [*lib.factions(), *lib.faction_spellings(), "Orkz"]  # type: ignore[attr-defined]
    assert _same_as_the_library(index, names) >= len(lib.factions())  # type: ignore[attr-defined]
    assert unit_rows("Space Marines") == index.rows("Adeptus Astartes")
