"""An enhancement a list writes as wargear (New Recruit's simple text: "Great Unclean One
[295 pts]: The Endless Gift, Warlord, ...") is priced as the enhancement it is, by
``price_roster`` as by ``validate``: ``tactica list price`` and ``tactica list validate``
give one total, and the unit's price is the one the list states (295 pts), with a note
saying how the item was read."""

from __future__ import annotations

import pytest

from tactica.army.formats import load_roster
from tactica.army.pricing import price_roster
from tactica.army.validation import validate
from tactica.library import load_library

from .helpers import ROSTERS

pytest.importorskip("wh40kdc")

CASE = ROSTERS / "cd-daemonic-incursion"


def test_an_enhancement_listed_as_wargear_is_priced_as_validation_reads_it() -> None:
    lib = load_library()
    simple = load_roster(CASE / "expected.newrecruit-simple.txt", library=lib)
    marked = load_roster(CASE / "input.listforge-text.txt", library=lib)  # "Enhancement:"
    prices = price_roster(simple, lib)
    assert prices.total == validate(simple, lib).prices.total
    assert prices.total == price_roster(marked, lib).total
    guo = next(p for p in prices.units if p.name == "Great Unclean One")
    assert guo.stated == 295 and guo.total == 295  # the list's own price for the unit
    assert [e.name for e in guo.enhancements] == ["The Endless Gift"]
    assert any("The Endless Gift" in n and "listed as wargear" in n for n in guo.notes)


def test_the_calculator_reads_it_as_the_enhancement_too() -> None:
    from tactica.army.attack import list_attacker

    lib = load_library()
    simple = load_roster(CASE / "expected.newrecruit-simple.txt", library=lib)
    marked = load_roster(CASE / "input.listforge-text.txt", library=lib)
    built = list_attacker(simple, "Great Unclean One", lib, "shooting")
    same = list_attacker(marked, "Great Unclean One", lib, "shooting")
    assert not any("not a weapon" in n for n in built.notes), built.notes
    assert any("The Endless Gift: listed as wargear" in n for n in built.notes)
    assert built.attacker == same.attacker
