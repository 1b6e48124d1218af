"""Finding a unit from what a player types (``tactica.lookup.search``): by name, misspelt
or plural, the plain unit first; by keywords and faction; narrowed by faction and keyword
as ``find_units`` narrows, with the same refusals. Checked against the library's own
records, read independently here."""

from __future__ import annotations

import pytest

from tactica.library import Library, load_library
from tactica.lookup.search import search_units
from tactica.names import UnknownNameError, name_key, normalise


@pytest.fixture(scope="module")
def lib() -> Library:
    return load_library()


@pytest.mark.parametrize(("typed", "first"), [
    ("Intercessors", "Intercessor Squad"),  # D4: not Assault Intercessors with Jump Packs
    ("intercesor squad", "Intercessor Squad"),
    ("Termagaunts", "Termagants"),
    ("hellblasters", "Hellblaster Squad"),
    ("Space Marine Captain", "Captain"),
    ("bane hammer", "Banehammer"),
])
def test_a_name_finds_the_plain_unit_first(lib: Library, typed: str, first: str) -> None:
    found = search_units(typed, lib)
    assert found[0].sheet.name == first and found[0].matched == "name"


def test_every_unit_whose_name_holds_the_word_is_found(lib: Library) -> None:
    found = [f.sheet.name for f in search_units("Intercessors", lib)]
    every = {d.name for d in lib.datasheets() if "intercessor" in normalise(d.name)}
    assert every <= set(found)
    assert len(found) == len(set(found))  # each name once, whatever its editions


def test_keywords_find_the_units_that_have_them_all(lib: Library) -> None:
    found = search_units("tyranids monster", lib)
    by_keywords = [f.sheet for f in found if f.matched == "keywords"]
    assert by_keywords
    for sheet in by_keywords:
        words = {w for k in (*sheet.keywords, *sheet.faction_keywords)
                 for w in normalise(k).split()}
        assert {"tyranids", "monster"} <= words
    expected = {name_key(d.name) for d in lib.datasheets("11th")
                if "MONSTER" in d.keywords and "TYRANIDS" in d.faction_keywords}
    assert expected <= {name_key(f.sheet.name) for f in found}


def test_faction_and_keyword_narrow_the_search(lib: Library) -> None:
    found = search_units("character", lib, faction="Genestealer Cults")
    assert found and all("CHARACTER" in f.sheet.keywords for f in found)
    assert "Primus" in {f.sheet.name for f in found}
    with pytest.raises(UnknownNameError, match="Genestealer Cults"):
        search_units("primus", lib, faction="Genestealer Cultz")


def test_nothing_matches_nothing(lib: Library) -> None:
    assert search_units("qwertyuiop", lib) == ()
