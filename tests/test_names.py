"""Name normalisation and suggestions (``tactica.names``)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tactica.library import load_library
from tactica.names import (
    Query,
    UnknownNameError,
    _normalise_any,
    name_key,
    normalise,
    rank,
    stem,
    suggest,
)

UNITS = ["Primus", "Banehammer", "Death Riders", "Tyrannocyte", "Neophyte Hybrids"]


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("Primus", "primus"),
        ("PRIMUS", "primus"),
        ("Prímus", "primus"),
        ("Pri\u0301mus", "primus"),  # combining accent, not precomposed
        ("death-riders", "death riders"),
        ("Death–Riders", "death riders"),  # en dash
        ("Death—Riders", "death riders"),  # em dash
        ("  Death   Riders  ", "death riders"),
        ("VENGEANCE FOR THE MARTYR!", "vengeance for the martyr"),
        ("Steed's savage claws", "steeds savage claws"),
        ("Steed’s savage claws", "steeds savage claws"),  # curly apostrophe
        ("“Primed and Readied”", "primed and readied"),  # curly quotes
        ("Grenade launcher – frag", "grenade launcher frag"),
        ("Gene-sire's Reliquant", "gene sires reliquant"),
        ("Twin-linked", "twin linked"),
        ("ÉLAN", "elan"),
        ("", ""),
        ("!!!", ""),
    ],
)
def test_normalise(raw: str, expected: str) -> None:
    assert normalise(raw) == expected


def test_normalise_is_idempotent() -> None:
    for raw in ("Death–Riders", "“Prímus”", "C'tan Shard"):
        assert normalise(normalise(raw)) == normalise(raw)


def test_name_key_ignores_spaces_too() -> None:
    assert name_key("Death Riders") == name_key("deathriders") == name_key("DEATH-RIDERS")
    assert name_key("Primus") != name_key("Primsu")


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("Primsu", ("Primus",)),
        ("bane hammer", ("Banehammer",)),
        ("Tyranocyte", ("Tyrannocyte",)),
        ("neophyte", ("Neophyte Hybrids",)),
        ("death", ("Death Riders",)),
        ("qwertyuiop", ()),
        ("", ()),
    ],
)
def test_suggest(typed: str, expected: tuple[str, ...]) -> None:
    assert suggest(typed, UNITS) == expected


def test_suggest_limits_and_orders() -> None:
    names = ["Command Re-roll", "Command Re-roll 15.02", "Counteroffensive", "Crushing Impact"]
    assert suggest("command", names, n=1) == ("Command Re-roll",)
    assert suggest("command", names) == ("Command Re-roll", "Command Re-roll 15.02")
    assert suggest("command", names, n=0) == ()


def test_suggest_returns_candidates_in_their_own_spelling_once() -> None:
    assert suggest("primed", ["PRIMED AND READIED", "Primed and Readied"]) == (
        "PRIMED AND READIED",
    )


#: Names as the library has them, in the library's order (the plain unit is not first).
MARINES = ["Assault Intercessors with Jump Packs", "Interceptor Squad", "Heavy Intercessor Squad",
           "Assault Intercessor Squad", "Intercessor Squad", "Blood Angels Captain",
           "Captain in Gravis Armour", "Captain", "Plague Marines", "Carnifexes"]


@pytest.mark.parametrize(("typed", "first"), [
    ("Intercessors", "Intercessor Squad"),  # the plural, and the plain unit first
    ("intercessor", "Intercessor Squad"),
    ("Intercesor Squad", "Intercessor Squad"),  # misspelt
    ("Space Marine Captain", "Captain"),  # words the name lacks: the plain name first
    ("captain", "Captain"),
    ("Carnifex", "Carnifexes"),
    ("Interceptors", "Interceptor Squad"),
])
def test_the_plain_name_comes_first(typed: str, first: str) -> None:
    assert suggest(typed, MARINES)[0] == first


def test_rank_orders_by_the_words_found_then_the_words_besides() -> None:
    """Every name with the typed word (as a plural too) before a close misspelling; among
    them the name that starts with it, then fewer other words."""
    assert rank("Intercessors", MARINES) == [
        "Intercessor Squad", "Heavy Intercessor Squad", "Assault Intercessor Squad",
        "Assault Intercessors with Jump Packs", "Interceptor Squad"]


def test_words_that_name_nothing_do_not_match() -> None:
    assert "Shield of the Emperor" not in rank("Oath of Moment", ["Shield of the Emperor"])


def test_stems_and_coverage() -> None:
    assert stem("termagants") == stem("termagant") == "termagant"
    # exact: one word of two, a single division
    assert Query("Tactical Marines").coverage(["tactical", "squad"]) == 0.5
    assert Query("").score("Primus") is None


def test_the_librarys_own_names_rank_the_plain_unit_first() -> None:
    """The issue's case (D4): "Intercessors" suggested Assault Intercessors with Jump Packs
    first, which gives 3.7 Termagants destroyed instead of 9.8."""
    names = load_library().names()
    assert suggest("Intercessors", names)[0] == "Intercessor Squad"
    assert suggest("Termagaunts", names)[0] == "Termagants"
    assert suggest("Space Marine Captain", names)[0] == "Captain"
    assert suggest("Hellblasters", names)[0] == "Hellblaster Squad"


def test_unknown_name_error_message() -> None:
    err = UnknownNameError("unit", "Primsu", ["Primus"])
    assert isinstance(err, LookupError)
    assert str(err) == "no unit named 'Primsu'; did you mean: Primus?"
    assert (err.kind, err.name, err.suggestions) == ("unit", "Primsu", ("Primus",))
    several = UnknownNameError("rule", "x", ["A", "B"])
    assert str(several) == "no rule named 'x'; did you mean: A, B?"
    assert str(UnknownNameError("unit", "zzz")) == "no unit named 'zzz'"


def test_the_ascii_table_is_the_general_path_for_every_ascii_character() -> None:
    """``normalise`` reads an ASCII name by one table: each of the 128 characters, alone
    and between letters, comes out as the character-by-character path makes it."""
    for c in map(chr, range(128)):
        for text in (c, f"a{c}b", f"{c}{c}x{c}"):
            assert normalise(text) == _normalise_any(text), repr(text)


@given(st.text(alphabet=st.characters(max_codepoint=127), max_size=30))
def test_an_ascii_name_normalises_as_any_text(text: str) -> None:
    assert normalise(text) == _normalise_any(text)


def test_library_names_normalise_as_any_text() -> None:
    """Every name of the library (units, weapons, abilities, factions) that is ASCII."""
    lib = load_library()
    names = {n for s in lib.datasheets() for n in (
        s.name, *(w.name for w in s.weapons), *(a.name for a in s.abilities),
        *s.keywords, *s.faction_keywords)}
    ascii_names = [n for n in names if n.isascii()]
    # names with what the table turns into spaces or drops: a hyphen, an apostrophe
    assert any("-" in n for n in ascii_names) and any("'" in n for n in ascii_names)
    for n in ascii_names:
        assert normalise(n) == _normalise_any(n), n
