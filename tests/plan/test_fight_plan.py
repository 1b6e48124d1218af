"""The charge plan (``tactica plan --phase fight``): which of my units charge which enemy
units, each fight weighed by the exact chance its charge reaches.

A worked example checked by hand: a charge from 7" needs 7 or more on 2D6, 21 of the 36
rolls (6 + 5 + 4 + 3 + 2 + 1 for a total of 7..12), so P = 21/36 = 7/12; the charge
either reaches (the fight happens, the unit having charged) or not (nothing), so the
expected points destroyed are 7/12 of the fight's. Two units into one target: the
sequence engine (charge steps, then fight steps) gives the same numbers.
"""

from __future__ import annotations

import itertools
import json
import math
from fractions import Fraction

import pytest
from typer.testing import CliRunner

from tactica.combat.contract.scenario import Target
from tactica.combat.turn.charge import charge_probability
from tactica.library import load_library
from tactica.plan import read_side, solve
from tactica.plan.army import Armed
from tactica.plan.cells import Conditions, compute_cell, pair_scenario

from .helpers import points_from_pmf, removal_costs

pytest.importorskip("wh40kdc")


def test_a_charge_from_7_inches_reaches_21_times_in_36() -> None:
    rolls = [a + b for a, b in itertools.product(range(1, 7), repeat=2)]
    p = Fraction(sum(1 for r in rolls if r >= 7), len(rolls))
    assert p == Fraction(21, 36) == Fraction(7, 12)
    assert charge_probability(7) == pytest.approx(float(p), abs=1e-15)
    with_one = Fraction(sum(1 for r in rolls if r + 1 >= 7), len(rolls))  # +1 to charge
    assert charge_probability(7, 1) == pytest.approx(float(with_one), abs=1e-15)


def test_one_unit_charging_from_7_inches_is_worth_7_12_of_its_fight() -> None:
    lib = load_library()
    mine, enemy = read_side("Assault Intercessor Squad:10", lib), read_side("Gretchin:10", lib)
    plan = solve(mine, enemy, Conditions(distance=7), phase="fight")
    (volley,) = plan.volleys
    assert volley.p_charge == pytest.approx((7 / 12,), abs=1e-15)
    fight = compute_cell(mine.units[0], enemy.units[0], "fight", mine.rules, Conditions())
    assert fight.ok and fight.p_charge is None  # the fight after a charge that reached
    assert volley.outcome.points == pytest.approx(7 / 12 * fight.points, rel=1e-12)
    assert volley.outcome.models == pytest.approx(7 / 12 * fight.models_destroyed, rel=1e-12)
    assert plan.optimal and "fight" in plan.objective
    doc = plan.to_json()
    assert doc["phase"] == "fight" and doc["plan"]["volleys"][0]["p_charge"] == [
        pytest.approx(7 / 12)]


def test_two_units_into_one_target_are_the_sequence_engines_charges_and_fights() -> None:
    """Two units charging the Boyz from 6" and 9" (P 26/36 and 10/36), fighting in the
    plan's order: the expected points destroyed are the sequence engine's on the steps
    charge, charge, fight, fight (its worlds: which charges reached)."""
    from tactica.combat import calculate
    from tactica.combat.contract.sequence import Sequence

    lib = load_library()
    mine = read_side("Assault Intercessor Squad:10, Assault Intercessor Squad:5", lib)
    enemy = read_side("Boyz:10", lib)
    conditions = Conditions(distances={("Assault Intercessor Squad #1", "Boyz"): 6.0,
                                       ("Assault Intercessor Squad #2", "Boyz"): 9.0})
    plan = solve(mine, enemy, conditions, phase="fight")
    (volley,) = plan.volleys
    assert len(volley.order) == 2
    assert sorted(volley.p_charge) == pytest.approx(sorted([26 / 36, 10 / 36]))
    target = enemy.units[0].target["fight"]
    assert isinstance(target, Target)
    charges, fights = [], []
    for label in volley.order:
        armed = mine.unit(label).armed("fight", target)
        assert isinstance(armed, Armed)
        s = pair_scenario(armed, target, "fight", mine.rules, conditions, label, "Boyz")[0]
        charges.append({"phase": "charge", "unit": label,
                        "distance": conditions.between(label, "Boyz")})
        fights.append({"phase": "fight", "unit": label, "attacker": s.attacker,
                       "context": s.context, "effects": s.effects})
    seq = Sequence(rules=mine.rules, target=target, steps=tuple(charges + fights))
    r = calculate(seq)
    points = points_from_pmf(r.models_destroyed.pmf,
                             removal_costs(target, enemy.units[0].entry_points))
    assert volley.outcome.points == pytest.approx(points, rel=1e-9)
    assert math.isclose(plan.points, points, rel_tol=1e-9)


def test_the_command_line_plans_the_charges() -> None:
    from tactica.cli import commands

    runner = CliRunner()
    res = runner.invoke(commands.app, [
        "plan", "Assault Intercessor Squad:10, Intercessor Squad:10", "Gretchin:10, Boyz:10",
        "--phase", "fight", "--distance", "Assault Intercessor Squad=7", "--distance", "9",
        "--charge-modifier", "Intercessor Squad=+1", "--json"], env={"COLUMNS": "200"})
    assert res.exit_code == 0, res.stderr
    doc = json.loads(res.stdout)
    assert doc["phase"] == "fight" and doc["optimal"]
    p = {u: c for v in doc["plan"]["volleys"] for u, c in zip(v["order"], v["p_charge"],
                                                              strict=True)}
    assert p["Assault Intercessor Squad"] == pytest.approx(21 / 36)
    assert p["Intercessor Squad"] == pytest.approx(charge_probability(9, 1))
    res = runner.invoke(commands.app, [
        "plan", "Intercessor Squad:10", "Gretchin:10", "--phase", "fight", "--distance",
        "13"], env={"COLUMNS": "200"})
    assert res.exit_code == 0, res.stderr
    assert "does not charge: no target within charge range" in res.stdout
    res = runner.invoke(commands.app, ["plan", "Intercessor Squad:10", "Gretchin:10",
                                       "--phase", "melee"])
    assert res.exit_code == 2 and "--phase melee" in res.stderr
