"""Data mends (issue 23): an option whose ``replaces`` names a weapon no model of its type
carries proves the data's default equipment lacks it; the loader adds it and says so, and
the fielded unit's notes and defaults say so too (never "the datasheet's default loadout"
alone)."""

from __future__ import annotations

from collections import Counter

import pytest

from tactica.library import Library, load_library
from tactica.names import name_key
from tactica.units import ScenarioDocument, field_unit, resolve


@pytest.fixture(scope="module")
def lib() -> Library:
    return load_library(dataset=True)


def test_every_option_replaces_what_its_models_carry(lib: Library) -> None:
    bad = []
    for sheet in lib.datasheets():
        for option in sheet.wargear:
            need = Counter(name_key(i) for i in option.replaces)
            scoped = [t for t in sheet.model_types
                      if option.model is None or t.name == option.model]
            if need and scoped and not any(
                    not need - Counter(name_key(e) for e in t.equipment) for t in scoped):
                bad.append((sheet.name, option.replaces))
    assert bad == []


def test_terminator_squad_shoots_with_a_mended_storm_bolter(lib: Library) -> None:
    doc = ScenarioDocument.model_validate({"attacker": {"unit": "Terminator Squad"},
                                          "target": {"unit": "meq"}})
    scenario, resolved, notes = resolve(doc, lib)
    # the record: Terminators' defaults are a power fist; option "storm-bolter-terminator-
    # squad can be replaced" (model Terminator): 4 Terminators in a unit of 5
    assert [(w.name, w.count) for w in scenario.attacker.weapons] == [("Storm Bolter", 4)]
    assert any("lacks Storm Bolter" in n for n in notes)
    assert any("mended" in d for d in resolved.defaults)
    assert not any(d.startswith("Terminator Squad") and d.endswith(
        "the datasheet's default loadout") for d in resolved.defaults)


def test_breachers_armsman_carries_what_its_options_replace(lib: Library) -> None:
    # the Armsman row has no recorded defaults; its options replace the las-volley, the
    # shotgun is the Sergeant-at-Arms's (his recorded defaults, his option)
    lo = field_unit(lib.datasheet("Imperial Navy Breachers"))
    armsman = next(m for m in lo.models if m.model == "Navis Armsman")
    assert armsman.equipment == ("Navis las-volley",)


def test_one_weapon_one_stat_line(lib: Library) -> None:
    # the option offers 'astartes-grenade-launcher' (a pre-launch provisional record,
    # Krak S9); the unit's own record 'astartes-grenade-launcher-intercessor-squad' (launch,
    # Krak S10) is the same weapon: every launcher fires that one stat line
    doc = ScenarioDocument.model_validate({
        "attacker": {"unit": "Intercessor Squad", "models": 10,
                     "wargear": ["Astartes grenade launcher:2"]},
        "target": {"unit": "meq"}})
    scenario, _, _ = resolve(doc, lib)
    launchers = [w for w in scenario.attacker.weapons if "launcher" in w.name.lower()]
    assert len({(w.S, str(w.A)) for w in launchers}) == 1 and launchers[0].S == 10


@pytest.mark.parametrize("phase", ["shooting", "fight"])
def test_nazdreg_s_kustom_blasta_attacks_once_per_phase(lib: Library, phase: str) -> None:
    # two records named Kustom Blasta X (ranged, melee): one weapon, used once per phase
    doc = ScenarioDocument.model_validate({"phase": phase, "attacker": {"unit": "Nazdreg"},
                                          "target": {"unit": "meq"}})
    scenario, _, _ = resolve(doc, lib)
    blasta = [w for w in scenario.attacker.weapons if w.name.startswith("Kustom Blasta X")]
    assert [w.count for w in blasta] == [1]
