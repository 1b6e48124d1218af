"""Weapon range (04.02 Select Targets: a weapon can only target a unit within its range).

With ``context.distance`` given, a ranged weapon line whose Range is shorter makes no
attacks and the result names it under ``not_calculated``; a melee line and a scenario
without a distance are as before; a scenario where nothing reaches is a valid result of
0 attacks for certain. Every expected number below is worked out by hand in the test.
"""

from __future__ import annotations

from typing import Any

import pytest

import tactica
from tactica.combat import Result
from tactica.library import Library, load_library
from tactica.rules import get_ruleset

#: A 24" line and a 36" line: 5 x A2 (10 attack dice) and 2 x A3 (6 attack dice).
RIFLES = {"name": "Rifle", "count": 5, "range": 24, "A": "2", "skill": 3, "S": 4,
          "AP": -1, "D": "1"}
CANNONS = {"name": "Cannon", "count": 2, "range": 36, "A": "3", "skill": 4, "S": 5,
           "AP": -1, "D": "2"}
#: Ten models of T4 Sv3+ W2: the cannon's D2 kills one model per unsaved attack.
TEN_MEQ = {"models": [{"count": 10, "T": 4, "Sv": 3, "W": 2}]}


def _plain(*lines: dict[str, Any], distance: float | None = None,
           **more: Any) -> dict[str, Any]:
    doc: dict[str, Any] = {"attacker": {"weapons": list(lines)}, "target": TEN_MEQ, **more}
    if distance is not None:
        doc["context"] = {"distance": distance}
    return doc


def numbers(r: Any) -> tuple[Any, ...]:
    """Every distribution a player reads, and the chance to wipe the unit."""
    return (r.attacks.pmf, r.hits.pmf, r.wounds.pmf, r.unsaved.pmf, r.damage.pmf,
            r.models_destroyed.pmf, r.p_unit_destroyed, r.attacker_mortal_wounds.pmf)


@pytest.fixture(scope="module")
def library() -> Library:
    return load_library()


def test_the_rule_set_says_within_range_up_to_the_range_itself() -> None:
    for rules in ("11th", "10th"):
        rs = get_ruleset(rules)
        assert rs.in_range(24, 24) and rs.in_range(24, 23.5) and not rs.in_range(24, 24.5)
        assert rs.in_range("Melee", 100) and rs.in_range(12, None)


def test_a_24_inch_and_a_36_inch_line_at_30_inches_fire_the_36_inch_line_only() -> None:
    both = tactica.calculate(_plain(RIFLES, CANNONS))
    at_30 = tactica.calculate(_plain(RIFLES, CANNONS, distance=30))
    # by hand: 5 x 2 + 2 x 3 = 16 attack dice without a distance; at 30" the rifles
    # (24") make none, the cannons (36") their 2 x 3 = 6, for certain
    # exact: a fixed number of attack dice: a point mass, its mean is that number
    assert both.attacks.mean == 16.0
    # exact: nothing in range (or nothing can happen): a point mass at 0, no sum
    assert at_30.attacks.pmf == (0.0,) * 6 + (1.0,)
    # the cannons' 6 dice alone, by hand: hits 6 x 1/2 = 3 (BS4+), wounds 3 x 2/3 = 2
    # (S5 vs T4: 3+), unsaved 2 x 1/2 = 1 (AP-1 vs Sv3+: 4+), damage 2 per unsaved
    # attack and one model (W2) each
    assert at_30.hits.mean == pytest.approx(3.0, abs=1e-12)
    assert at_30.wounds.mean == pytest.approx(2.0, abs=1e-12)
    assert at_30.unsaved.mean == pytest.approx(1.0, abs=1e-12)
    assert at_30.damage.mean == pytest.approx(2.0, abs=1e-12)
    assert at_30.models_destroyed.mean == pytest.approx(1.0, abs=1e-12)
    # and exactly what the cannons alone do
    assert numbers(at_30) == numbers(tactica.calculate(_plain(CANNONS)))
    assert 'Rifle: out of range at 30"' in at_30.not_calculated
    assert not any("Cannon" in n for n in at_30.not_calculated)
    # exact: nothing in range (or nothing can happen): a point mass at 0, no sum
    assert [(w.weapon, w.attacks) for w in at_30.weapons] == [("Rifle", 0.0), ("Cannon", 6.0)]


def test_within_range_and_without_a_distance_nothing_changes() -> None:
    plain = numbers(tactica.calculate(_plain(RIFLES, CANNONS)))
    # 24" is within a 24" weapon's range ("within": up to the range itself); half range
    # held fixed so that only the range can differ
    for d in (0, 1, 12.5, 24):
        r = tactica.calculate(_plain(RIFLES, CANNONS, context={
            "distance": d, "within_half_range": False}))
        assert numbers(r) == plain
        assert not any("out of range" in n for n in r.not_calculated)


def test_nothing_in_range_is_zero_attacks_for_certain_not_an_error() -> None:
    r = tactica.calculate(_plain(RIFLES, CANNONS, distance=40))
    assert isinstance(r, Result)
    for d in (r.attacks, r.hits, r.wounds, r.unsaved, r.damage):
        # exact: nothing in range (or nothing can happen): a point mass at 0, no sum
        assert d.pmf == (1.0,) and d.mean == 0.0
    # exact: nothing in range (or nothing can happen): a point mass at 0, no sum
    assert r.models_destroyed.pmf[0] == 1.0 and not any(r.models_destroyed.pmf[1:])
    # exact: nothing in range (or nothing can happen): a point mass at 0, no sum
    assert r.p_unit_destroyed == 0.0
    assert r.not_calculated[:2] == ('Rifle: out of range at 40"', 'Cannon: out of range at 40"')
    # the Monte Carlo twin agrees: no trial gathers a die
    mc = tactica.calculate(_plain(RIFLES, CANNONS, distance=40, method="monte-carlo",
                                  trials=1000, seed=1))
    # exact: nothing in range (or nothing can happen): a point mass at 0, no sum
    assert mc.attacks.pmf == (1.0,) and mc.damage.pmf == (1.0,)


def test_an_out_of_range_hazardous_weapon_makes_no_hazard_roll() -> None:
    hazardous = {**CANNONS, "count": 1, "abilities": ["Hazardous"]}
    near = tactica.calculate(_plain(RIFLES, hazardous, distance=12))
    far = tactica.calculate(_plain(RIFLES, hazardous, distance=40))
    # 11th 06.03: one hazard roll, failing on 1-2, 1 mortal wound: P(0) = 4/6
    assert near.attacker_mortal_wounds.pmf == pytest.approx((4 / 6, 2 / 6), abs=1e-12)
    # exact: nothing in range (or nothing can happen): a point mass at 0, no sum
    assert far.attacker_mortal_wounds.pmf == (1.0,)


def test_the_monte_carlo_twin_fires_the_36_inch_line_only() -> None:
    r = tactica.calculate(_plain(RIFLES, CANNONS, distance=30, method="monte-carlo",
                                 trials=2000, seed=3))
    # exact: nothing in range (or nothing can happen): a point mass at 0, no sum
    assert r.attacks.pmf == (0.0,) * 6 + (1.0,)  # 6 dice in every trial
    assert 'Rifle: out of range at 30"' in r.not_calculated
    assert r.hits.mean == pytest.approx(3.0, abs=0.15)  # 6 x 1/2, within ~4 sd


def test_melee_lines_are_not_affected_by_the_distance() -> None:
    sword = {"name": "Sword", "count": 5, "range": "Melee", "A": "3", "skill": 3, "S": 4,
             "AP": -1, "D": "1"}
    plain = tactica.calculate(_plain(sword, phase="fight"))
    far = tactica.calculate(_plain(sword, phase="fight", distance=100))
    assert numbers(far) == numbers(plain)
    # exact: a fixed number of attack dice: a point mass, its mean is that number
    assert plain.attacks.mean == 15.0  # 5 x A3
    assert not any("out of range" in n for n in far.not_calculated)


def test_a_library_unit_fights_alike_at_any_distance(library: Library) -> None:
    doc = {"attacker": {"unit": "Intercessor Squad"}, "target": {"unit": "meq"},
           "phase": "fight"}
    plain = tactica.calculate(doc, library)
    far = tactica.calculate({**doc, "context": {"distance": 30}}, library)
    assert numbers(far) == numbers(plain) and plain.attacks.mean > 0


def test_intercessors_at_30_inches_make_no_attacks_and_at_24_fire(library: Library) -> None:
    doc: dict[str, Any] = {"attacker": {"unit": "Intercessor Squad"},
                           "target": {"unit": "meq"}}
    at_30 = tactica.calculate({**doc, "context": {"distance": 30}}, library)
    at_24 = tactica.calculate({**doc, "context": {"distance": 24}}, library)
    assert at_30.resolved is not None
    lines = at_30.resolved.attacker
    # the default loadout: 5 bolt rifles and the sergeant's grenade launcher, all 24"
    rifles = [w for w in lines if w.name.startswith("Bolt Rifle")]
    assert sum(w.count for w in rifles) == 5 and {w.range for w in lines} == {24}
    # exact: a fixed number of attack dice: a point mass, its mean is that number
    assert at_30.attacks.pmf == (1.0,) and at_30.models_destroyed.mean == 0.0
    for w in lines:
        assert f'{w.name}: out of range at 30"' in at_30.not_calculated
    # at 24" they fire: 5 bolt rifles x A1 and the grenade launcher's A1 (its krak
    # profile against MEQ): 6 dice, hits 6 x 2/3 = 4 (BS3+)
    # exact: nothing in range (or nothing can happen): a point mass at 0, no sum
    assert at_24.attacks.pmf == (0.0,) * 6 + (1.0,)
    assert at_24.hits.mean == pytest.approx(4.0, abs=1e-12)
    assert numbers(at_24) == numbers(tactica.calculate(doc, library))
    assert not any("out of range" in n for n in at_24.not_calculated)
    # out of range, the lines named are those the unit fires within range (no profile
    # reaches 30": the choice made within range stands)
    assert at_24.resolved is not None
    assert [w.name for w in lines] == [w.name for w in at_24.resolved.attacker]


def _step(distance: float) -> dict[str, Any]:
    return {"phase": "shooting", "attacker": {"weapons": [RIFLES, CANNONS]},
            "context": {"distance": distance, "within_half_range": False}}


def test_a_turn_fires_each_step_at_its_own_distance() -> None:
    turn = tactica.calculate({"target": TEN_MEQ, "steps": [_step(30), _step(12)]})
    first, second = turn.steps  # type: ignore[attr-defined]
    # by hand: at 30" the cannons' 6 dice only; at 12" all 16
    # exact: nothing in range (or nothing can happen): a point mass at 0, no sum
    assert first.attacks.pmf == (0.0,) * 6 + (1.0,)
    # (the second step happens while the target lives: P = 1 up to the float rounding
    # of the first step's chance to wipe it, which is 0)
    assert second.attacks.mean == pytest.approx(16.0, abs=1e-12)
    assert 'Rifle: out of range at 30"' in first.not_calculated
    assert not any("out of range" in n for n in second.not_calculated)
    # the first step is exactly the cannons alone into the fresh target
    alone = tactica.calculate(_plain(CANNONS))
    assert (first.damage.pmf, first.models_destroyed.pmf) == (alone.damage.pmf,
                                                              alone.models_destroyed.pmf)


def test_a_turn_step_out_of_range_leaves_the_target_as_it_was() -> None:
    far = tactica.calculate({"target": TEN_MEQ, "steps": [_step(40), _step(12)]})
    only = tactica.calculate({"target": TEN_MEQ, "steps": [_step(12)]})
    skipped, fired = far.steps  # type: ignore[attr-defined]
    # exact: nothing in range (or nothing can happen): a point mass at 0, no sum
    assert skipped.attacks.pmf == (1.0,) and skipped.damage.pmf == (1.0,)
    assert fired.damage.pmf == only.steps[0].damage.pmf  # type: ignore[attr-defined]
    assert far.models_destroyed.pmf == only.models_destroyed.pmf


def test_a_library_units_turn_at_two_distances(library: Library) -> None:
    steps = [{"phase": "shooting", "attacker": {"unit": "Intercessor Squad"},
              "context": {"distance": d}} for d in (30, 24)]
    turn = tactica.calculate({"target": {"unit": "geq"}, "steps": steps}, library)
    at_30, at_24 = turn.steps  # type: ignore[attr-defined]
    # exact: nothing in range (or nothing can happen): a point mass at 0, no sum
    assert at_30.attacks.pmf == (1.0,)
    assert any(n.endswith('out of range at 30"') for n in at_30.not_calculated)
    one = tactica.calculate({"attacker": {"unit": "Intercessor Squad"},
                             "target": {"unit": "geq"}, "context": {"distance": 24}},
                            library)
    assert at_24.attacks.pmf == one.attacks.pmf and at_24.damage.pmf == one.damage.pmf


def test_a_range_below_one_inch_is_refused_in_one_line() -> None:
    """A Range is inches, 1 or more, or "Melee" (a weapon of no reach would never be
    within range); the refusal names the field."""
    from pydantic import ValidationError

    from tactica.errors import DocumentError
    from tactica.model import WeaponProfile

    for odd in (0, -5):
        with pytest.raises(DocumentError, match=r"^attacker\.weapons\[0\]\.range: "
                           r"range is inches \(1 or more\) or \"Melee\", not "):
            tactica.calculate(_plain({**RIFLES, "range": odd}, distance=0))
        with pytest.raises(ValidationError, match="range is inches"):
            WeaponProfile(name="Odd", range=odd, A="1", skill=3, S=4, AP=0, D="1")
    one = tactica.calculate(_plain({**RIFLES, "range": 1}, distance=1))
    # exact: a fixed number of attack dice: a point mass, its mean is that number
    assert one.attacks.mean == 10.0  # within 1" of a 1" weapon: it fires
