"""The allocation order is the rule set's (``RuleSet.allocation_tier``, ``allocation_order``,
``model_order``: 05.03 Allocation Order, 24.28 Precision, 06.02 Mortal Wounds; reference
facts §4.8, §5.1, §5.2), and every engine follows it: the exact engine, the Monte Carlo
twin, the size model and the turn's survivors."""

from __future__ import annotations

import math
from typing import Any

import pytest

from tactica.combat.contract.scenario import ModelGroup, Scenario
from tactica.combat.exact.allocation import Group
from tactica.combat.exact.engine import calculate_exact
from tactica.combat.exact.size import predicted_states
from tactica.combat.sampled.engine import simulate
from tactica.combat.turn.survivors import alive_per_entry
from tactica.rules import RULESETS, get_ruleset
from tactica.rules.eleventh import Eleventh

#: A unit as listed: (name, CHARACTER, holds a wounded model). Worked by hand from 05.03:
#: "a non-CHARACTER group containing a wounded model must be first", "no CHARACTER group
#: before any non-CHARACTER group", "wounded CHARACTER groups come before unwounded
#: CHARACTER groups"; ties in the order listed (reference facts §5.1).
MIX = [("Captain", True, False), ("Sergeant", False, False), ("Marines", False, True),
       ("Lieutenant", True, True), ("Heavy", False, False)]
#: Without Precision: Marines (wounded), Sergeant, Heavy (listed order), Lieutenant
#: (wounded CHARACTER), Captain.
PLAIN = ["Marines", "Sergeant", "Heavy", "Lieutenant", "Captain"]
#: With Precision (24.28, §5.2: the CHARACTER groups first, wounded first), then the rest
#: of the 05.03 order.
PRECISE = ["Lieutenant", "Captain", "Marines", "Sergeant", "Heavy"]


@pytest.mark.parametrize("rules", ["11th", "10th"])
def test_the_order_on_a_hand_made_mix(rules: str) -> None:
    r = get_ruleset(rules)
    flags = [(c, w) for _, c, w in MIX]
    assert [MIX[i][0] for i in r.allocation_order(flags)] == PLAIN
    assert [MIX[i][0] for i in r.allocation_order(flags, precision=True)] == PRECISE
    # 06.02 picks models for mortal wounds in the same order (no Precision)
    assert [r.allocation_tier(character=c, wounded=w) for _, c, w in MIX] == [3, 1, 0, 2, 1]
    # within a group: a wounded model first, then the models in the order listed
    assert r.model_order([False, False, True]) == (2, 0, 1)
    assert r.model_order([False, False]) == (0, 1)


#: 4 Marines and a Captain: 6 attacks of D1, AP -4 (no save), hitting and wounding on 2+.
_TARGET = {"models": [{"name": "Marine", "count": 4, "T": 4, "Sv": 3, "W": 2},
                      {"name": "Captain", "count": 1, "T": 4, "Sv": 3, "W": 5,
                       "character": True}]}


def _scenario(precision: bool, **extra: Any) -> Scenario:
    weapon = {"name": "Rifle", "count": 1, "A": "6", "skill": 2, "S": 10, "AP": -4, "D": "1",
              "abilities": ["Precision"] if precision else []}
    return Scenario.model_validate({"attacker": {"weapons": [weapon]}, "target": _TARGET,
                                    **extra})


def _within(sim: float, exact: list[float], mean: float, n: int) -> bool:
    """A sample mean against the exact law: within 6 standard errors (the exact pmf's
    variance; a false alarm has probability below 1e-8)."""
    var = sum(p * (i - mean) ** 2 for i, p in enumerate(exact))
    return abs(sim - mean) <= 6 * math.sqrt(var / n) + 1e-9


@pytest.mark.parametrize("precision", [False, True])
def test_exact_and_monte_carlo_follow_the_order(precision: bool) -> None:
    """Both engines send the damage where the order says: without Precision the Marines
    die first (at most 3 of them from 6 damage, the Captain unharmed); with Precision the
    Captain (5 wounds) goes first. Monte Carlo within 6 standard errors of the exact mean."""
    exact = calculate_exact(_scenario(precision))
    n = 40_000
    sim = simulate(_scenario(precision, method="monte-carlo", trials=n, seed=3))
    for key in ("damage", "models_destroyed"):
        e, s = getattr(exact, key), getattr(sim, key)
        assert _within(s.mean, e.pmf, e.mean, n), (key, s.mean, e.mean)
    killed = exact.models_destroyed.pmf
    if precision:  # 5+ damage of 6 kills the Captain first: one model, never more
        assert not any(killed[2:]) and killed[1] > 0.4
    else:  # 2 damage per Marine: at most 3 of them
        assert not any(killed[4:]) and killed[3] > 0.1


class _CharactersFirst(Eleventh):
    """A made-up rule set whose order puts CHARACTER models first: the engines must
    follow it (they ask the rule set, they do not know the order themselves)."""

    def allocation_band(self, *, character: bool, precision: bool = False) -> int:
        return int(not character)


def test_engines_ask_the_rule_set(monkeypatch: pytest.MonkeyPatch) -> None:
    """Under a rule set that orders CHARACTER models first, a weapon without Precision
    does what a Precision weapon does under the published order, in the exact engine
    and the Monte Carlo twin."""
    precise = calculate_exact(_scenario(True))
    n = 40_000
    monkeypatch.setitem(RULESETS, "11th", _CharactersFirst())
    plain = calculate_exact(_scenario(False))
    assert plain.models_destroyed.pmf == pytest.approx(precise.models_destroyed.pmf,
                                                       abs=1e-12)
    sim = simulate(_scenario(False, method="monte-carlo", trials=n, seed=5))
    e = precise.models_destroyed
    assert _within(sim.models_destroyed.mean, e.pmf, e.mean, n)


class _NoPrecision(Eleventh):
    """A made-up rule set in which Precision changes nothing in the order."""

    def allocation_band(self, *, character: bool, precision: bool = False) -> int:
        return int(character)


def test_the_size_model_asks_the_rule_set() -> None:
    """``predicted_states`` reads the Precision groups off the rule set: where Precision
    moves no group forward the estimate is the plain one (the published order: 66
    states with Precision against 16 without, its doctest)."""
    marine = Group("Marine", 5, 2, 3, None, None, False, 2, 0)
    captain = Group("Captain", 1, 5, 3, 4, None, True, 5, 1)
    plain = predicted_states((marine, captain), False)
    assert predicted_states((marine, captain), True) > plain
    assert predicted_states((marine, captain), True, rules=_NoPrecision()) == plain


class _LastListedFirst(Eleventh):
    """A made-up rule set that takes the last-listed model of a group first."""

    def model_order(self, wounded: Any) -> tuple[int, ...]:
        return tuple(reversed(range(len(wounded))))


def test_survivors_ask_the_rule_set() -> None:
    entries = (ModelGroup(name="Sgt", count=1, T=4, Sv=3, W=2),
               ModelGroup(name="Marine", count=3, T=4, Sv=3, W=2))
    # one of four removed: the Sergeant (listed first) by the published order ...
    assert alive_per_entry(entries, (3, 2, -1, -1)) == [0, 3]
    # ... a Marine under a rule set that removes the last listed first
    assert alive_per_entry(entries, (3, 2, -1, -1), _LastListedFirst()) == [1, 2]
    # a wounded Marine goes before the Sergeant (05.03: the wounded model first)
    hurt = (entries[0], entries[1].model_copy(update={"wounds_lost": 1}))
    assert alive_per_entry(hurt, (3, 1, -1, -1)) == [1, 2]
