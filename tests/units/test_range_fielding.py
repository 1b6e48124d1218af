"""Weapon range in the fielding core (04.02 Select Targets): the default choice of a
weapon's profile (and of a model's Pistols or other guns) is made among those that reach
the target, and over the library a unit's shooting depends on the distance only through
its weapons' ranges.

The sweep is metamorphic: for each unit, beyond every ranged weapon's Range the shooting
result has no attacks at all, and at 1" (within every range) it is the result without a
distance, number for number. Half range is held fixed (``within_half_range: false``) so
that the distance reaches the numbers through the range only. The default run checks
every ``_STEP``-th datasheet; ``test_every_unit_...`` (marked slow) checks them all.
"""

from __future__ import annotations

from typing import Any

import pytest

import tactica
from tactica.combat import ScenarioError
from tactica.library import Library, load_library
from tactica.model import WeaponProfile
from tactica.model.datasheet import Datasheet
from tactica.units import UnitError
from tactica.units.firing import Aim, expected_damage

#: The default run's sample: every n-th datasheet of the library.
_STEP = 37
#: The contract's farthest distance (``Context.distance``).
_FARTHEST = 200


@pytest.fixture(scope="module")
def library() -> Library:
    return load_library()


def numbers(r: Any) -> tuple[Any, ...]:
    return (r.attacks.pmf, r.hits.pmf, r.wounds.pmf, r.unsaved.pmf, r.damage.pmf,
            r.models_destroyed.pmf, r.p_unit_destroyed, r.attacker_mortal_wounds.pmf,
            tuple((w.weapon, w.attacks, w.hits, w.wounds) for w in r.weapons))


def test_a_profile_beyond_its_range_is_worth_nothing_to_the_choice() -> None:
    p = WeaponProfile(name="Bolt rifle", range=24, A="2", skill=3, S=4, AP=-1, D="1")
    near = expected_damage(p, Aim(distance=24))
    assert near == expected_damage(p, Aim()) == pytest.approx(1 / 3)  # 2 x 2/3 x 1/2 x 1/2
    # exact: nothing in range (or nothing can happen): a point mass at 0, no sum
    assert expected_damage(p, Aim(distance=24.5)) == 0.0


@pytest.mark.parametrize(("unit", "distance", "fired", "short"), [
    # Eradication beamer: Focused 18", Dissipated 36"; Searsong: Beam 12", Lance 18"
    ("Onager Dunecrawler", 20, "Eradication beamer – Dissipated", "Eradication beamer – Focused"),
    ("Fuegan", 14, "Searsong – Lance", "Searsong – Beam"),
])
def test_a_weapon_fires_the_profile_that_reaches(library: Library, unit: str,
                                                 distance: float, fired: str,
                                                 short: str) -> None:
    doc: dict[str, Any] = {"attacker": {"unit": unit}, "target": {"unit": "meq"}}
    plain = tactica.calculate(doc, library)
    at = tactica.calculate({**doc, "context": {"distance": distance}}, library)
    assert plain.resolved is not None and at.resolved is not None
    # without a distance the shorter profile does more against MEQ ...
    assert [w.name for w in plain.resolved.attacker] == [short]
    # ... beyond its range the other one fires, and does something
    assert [w.name for w in at.resolved.attacker] == [fired]
    assert at.attacks.mean > 0 and at.damage.mean > 0
    assert not any("out of range" in n for n in at.not_calculated)


def _longest(sheet: Datasheet) -> int:
    """The longest Range of the datasheet's ranged weapons (every profile)."""
    return max((p.range for w in sheet.weapons for p in w.profiles
                if isinstance(p.range, int)), default=0)


def _shooting(lib: Library, sheet: Datasheet, context: dict[str, Any]) -> Any:
    return tactica.calculate({"rules": sheet.rules, "attacker": {"unit": sheet.name},
                              "target": {"unit": "meq"}, "context": context}, lib)


def _sweep(lib: Library, sheets: list[Datasheet]) -> dict[str, int]:
    """The metamorphic checks over ``sheets``; how many units each case met."""
    met = {"checked": 0, "no ranged weapon": 0, "range beyond the contract": 0}
    fixed = {"within_half_range": False}
    for sheet in sheets:
        try:
            plain = _shooting(lib, sheet, fixed)
        except (UnitError, ScenarioError) as exc:  # only for want of a ranged weapon
            assert "no ranged weapons" in str(exc), (sheet.name, str(exc))
            met["no ranged weapon"] += 1
            continue
        at_1 = _shooting(lib, sheet, {**fixed, "distance": 1})
        assert numbers(at_1) == numbers(plain), sheet.name
        longest = _longest(sheet)
        if longest >= _FARTHEST:  # a 240" weapon is within range at any distance
            met["range beyond the contract"] += 1
            continue
        far = _shooting(lib, sheet, {**fixed, "distance": longest + 1})
        # exact: nothing in range (or nothing can happen): a point mass at 0, no sum
        assert far.attacks.pmf == (1.0,), sheet.name
        # exact: nothing in range (or nothing can happen): a point mass at 0, no sum
        assert far.damage.pmf == (1.0,) and far.p_unit_destroyed == 0.0, sheet.name
        assert far.resolved is not None
        for w in far.resolved.attacker:
            assert f'{w.name}: out of range at {longest + 1}"' in far.not_calculated
        met["checked"] += 1
    return met


def test_shooting_depends_on_the_distance_only_through_range(library: Library) -> None:
    met = _sweep(library, list(library.datasheets())[::_STEP])
    assert met["checked"] and met["no ranged weapon"], met  # both kinds of unit met


@pytest.mark.slow
def test_every_unit_shoots_by_range_alone(library: Library) -> None:
    met = _sweep(library, list(library.datasheets()))
    assert all(met.values()), met  # each case met: a weapon of 240" among them
