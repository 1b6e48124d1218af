"""Rules by name with the calculator's status, and units by faction and keyword
(``tactica.lookup``), on the seed pages alone."""

from __future__ import annotations

import pytest

from tactica.library import load_seed_library
from tactica.lookup import find_units, rule_entries
from tactica.names import UnknownNameError


def test_a_seed_stratagem_has_its_printed_cost_and_is_modelled() -> None:
    # seed page 003: "PRIMED AND READIED 2CP", Host of Ascension
    (entry,) = rule_entries("primed and readied", library=load_seed_library())
    assert (entry.kind, entry.cp, entry.where) == ("stratagem", 2, "Host of Ascension")
    assert entry.calculator.startswith("modelled")
    assert entry.record["name"] == "Primed and Readied"


def test_an_ability_names_its_unit() -> None:
    entries = rule_entries("Cult Demagogue", library=load_seed_library())
    assert (entries[0].kind, entries[0].where) == ("ability", "Primus")


def test_a_weapon_ability_is_computed_from_the_profile() -> None:
    entries = rule_entries("Sustained Hits", "11th", library=load_seed_library())
    assert entries and all(e.calculator.startswith("modelled: a weapon ability")
                           for e in entries)


def test_a_core_rule_outside_the_attack_is_not_applied_by_name() -> None:
    entries = rule_entries("Deep Strike", library=load_seed_library())
    assert entries and all(e.calculator.startswith(("not modelled", "non-combat"))
                           for e in entries)


def test_an_unknown_rule_has_close_names() -> None:
    with pytest.raises(UnknownNameError, match="Primed and Readied"):
        rule_entries("Primed and Redied", library=load_seed_library())


def test_units_by_keyword_and_faction() -> None:
    lib = load_seed_library()
    characters = find_units(lib, keyword="Character")
    assert [d.name for d in characters] == [d.name for d in lib.datasheets()
                                            if "CHARACTER" in d.keywords]
    cult = find_units(lib, faction="genestealer cults")
    assert {d.name for d in cult} >= {"Primus", "Neophyte Hybrids"}
    with pytest.raises(UnknownNameError, match="Genestealer Cults"):
        find_units(lib, faction="Genestealer Cultz")
    with pytest.raises(UnknownNameError, match="no keyword named"):
        find_units(lib, keyword="Charakter")
