"""Hand-picked ``weapons`` on a unit reference are checked against what the models carry
(``docs/scenario.md``: "every model ... that has it"), one profile of a weapon at a time,
24.11 / 24.27 choices; unknown ``profiles`` names are refused; ``resolved`` echoes the
picks."""

from __future__ import annotations

import pytest

from tactica.library import Library, load_library
from tactica.units import ScenarioDocument, UnitError, resolve


@pytest.fixture(scope="module")
def lib() -> Library:
    return load_library(dataset=True)


def _run(lib: Library, attacker: dict[str, object]
         ) -> tuple[list[tuple[str, int]], tuple[str, ...]]:
    doc = ScenarioDocument.model_validate({"attacker": attacker, "target": {"unit": "meq"}})
    scenario, resolved, _ = resolve(doc, lib)
    return [(w.name, w.count) for w in scenario.attacker.weapons], resolved.attacker_models


@pytest.mark.parametrize(("attacker", "why"), [
    # the default Devastator Squad carries no lascannon (its record's default equipment)
    ({"unit": "Devastator Squad", "weapons": ["Lascannon:10"]}, "no model carries Lascannon"),
    # one launcher: frag or krak, not both
    ({"unit": "Intercessor Squad", "wargear": ["Astartes grenade launcher"],
      "weapons": ["Astartes grenade launcher – frag", "Astartes grenade launcher – krak"]},
     "one profile of a weapon attacks at a time"),
    # 5 models: each shoots its pistol or its rifle
    ({"unit": "Intercessor Squad", "weapons": ["Bolt pistol", "Bolt rifle"]},
     "Pistols or its other ranged weapons"),
    ({"unit": "Hellblaster Squad", "profiles": ["Plasma incinerator – overcharged"]},
     "no weapon the models carry has a profile"),
])
def test_refused(lib: Library, attacker: dict[str, object], why: str) -> None:
    with pytest.raises(UnitError, match=why):
        _run(lib, attacker)


def test_picks_within_the_loadout(lib: Library) -> None:
    lines, echoed = _run(lib, {"unit": "Devastator Squad", "wargear": ["Lascannon:2"],
                               "weapons": ["Lascannon"]})
    assert lines == [("Lascannon", 2)]  # both carriers, and only they
    assert echoed == ("2 x Lascannon (picked by hand)",)
    lines, _ = _run(lib, {"unit": "Intercessor Squad", "weapons": ["Bolt rifle:3",
                                                                    "Bolt pistol:2"]})
    assert [n for _, n in lines] == [3, 2]  # 3 rifles + 2 pistols = 5 models


def test_hazardous_weighs_the_attacker_s_losses(lib: Library) -> None:
    # Hellblasters against Boyz (T5, Sv5+, W1): Standard (S7 AP-2 D1) and Supercharge
    # (S8 AP-3 D2, Hazardous) both wound on 3+, both leave no save (5+ -> 7+), and both
    # kill one W1 Boy per unsaved wound: the same damage, but Supercharge costs 1/3 mortal
    # wound per shot (11th 06.03): Standard is the pick
    doc = ScenarioDocument.model_validate({"attacker": {"unit": "Hellblaster Squad"},
                                          "target": {"unit": "Boyz"}})
    scenario, _, _ = resolve(doc, lib)
    assert [w.name for w in scenario.attacker.weapons] == ["Plasma Incinerator – Standard"]
