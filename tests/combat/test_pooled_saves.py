"""Pooled saves (11th, 05.04; reference facts §6.2), hand-derived.

"For each group of attack dice" (one weapon line) the defender makes all the save rolls
together, re-rolls them before sorting, and "the attacks are resolved one at a time, from
lowest save rolls to highest", each die against the current allocation group at that
moment. 10th saves one attack at a time. Every expected number is derived in the
docstring and recomputed with ``fractions.Fraction`` from that derivation.

Conventions: a Torrent weapon hits exactly once per attack; S8 against T4 wounds on 2+
(5/6), so the number of save dice of two attacks is n ~ Binomial(2, 5/6): P(n = 0, 1, 2)
= 1/36, 10/36, 25/36. "Sv7" is no save.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb
from typing import Any

import pytest

from tactica import calculate
from tactica.combat import Result
from tactica.rules import get_ruleset

F = Fraction
N_DICE = {0: F(1, 36), 1: F(10, 36), 2: F(25, 36)}


def torrent(count: int = 2, *abilities: str) -> dict[str, Any]:
    return {"name": "flamer", "count": count, "range": 12, "A": "1", "skill": None, "S": 8,
            "AP": 0, "D": "1", "abilities": ["Torrent", *abilities]}


def bodyguard_and_leader(bodyguard_sv: int = 7, leader_sv: int = 4) -> list[dict[str, Any]]:
    return [{"name": "bodyguard", "count": 1, "T": 4, "Sv": bodyguard_sv, "W": 1},
            {"name": "leader", "count": 1, "T": 4, "Sv": leader_sv, "W": 1,
             "character": True}]


def run(rules: str, weapons: list[dict[str, Any]], models: list[dict[str, Any]],
        **extra: Any) -> Result:
    return calculate({"rules": rules, "attacker": {"weapons": weapons},
                      "target": {"models": models}, **extra})


def assert_pmf(actual: tuple[float, ...], expected: dict[int, Fraction]) -> None:
    assert sum(expected.values()) == 1, "the derivation itself must sum to 1"
    size = max(len(actual), max(expected) + 1)
    padded = list(actual) + [0.0] * (size - len(actual))
    assert padded == pytest.approx([float(expected.get(i, 0)) for i in range(size)],
                                   abs=1e-12)


def test_the_rule_sets_say_which_saves_they_make() -> None:
    assert get_ruleset("11th").pooled_saves and get_ruleset("11th").devastating_wounds_per_line
    assert not get_ruleset("10th").pooled_saves
    assert not get_ruleset("10th").devastating_wounds_per_line


@pytest.mark.parametrize("rules", ["10th", "11th"])
def test_the_character_last_faces_the_highest_die(rules: str) -> None:
    """Bodyguard W1 without a save, a CHARACTER W1 Sv4+ last in the order; two save dice
    (n = 2, 25/36) or one (10/36, the bodyguard dies: damage 1).

    11th: the lower die goes to the bodyguard and kills it, the higher to the leader,
    which saves on 4+: P(higher of two D6 >= 4) = 1 - (1/2)^2 = 3/4, so P(damage 2 | n=2)
    = 1/4. 10th: the second attack is saved on its own, 1/2.
    Damage 2: 25/36 x 1/4 = 25/144 (11th), 25/36 x 1/2 = 25/72 (10th).
    """
    p_both = F(1, 4) if rules == "11th" else F(1, 2)
    r = run(rules, [torrent()], bodyguard_and_leader())
    assert_pmf(r.damage.pmf, {0: N_DICE[0], 1: N_DICE[1] + N_DICE[2] * (1 - p_both),
                              2: N_DICE[2] * p_both})


def test_precision_gives_the_character_the_lowest_dice() -> None:
    """Precision (24.28) makes the CHARACTER (Sv3+) current: it takes the lowest dice until
    destroyed, then the bodyguard (Sv6+) takes the rest.
    - n = 1 (10/36): the leader fails on 1-2: damage 1 with 1/3.
    - n = 2 (25/36): the lower die fails iff it is 1-2 (P(min <= 2) = 1 - (4/6)^2 =
      20/36); then the higher goes to the bodyguard and fails on 1-5: P(min <= 2 and max
      <= 5) = P(both <= 5) - P(both in 3-5) = 25/36 - 9/36 = 16/36 (damage 2); the leader
      dead but the bodyguard saving: 4/36 (damage 1); the leader saving the lower die
      saves the higher one too (it stays current): 16/36 (damage 0).
    """
    r = run("11th", [torrent(2, "Precision")], bodyguard_and_leader(6, 3))
    n0, n1, n2 = N_DICE[0], N_DICE[1], N_DICE[2]
    assert_pmf(r.damage.pmf, {0: n0 + n1 * F(2, 3) + n2 * F(16, 36),
                              1: n1 * F(1, 3) + n2 * F(4, 36), 2: n2 * F(16, 36)})


def test_failed_saves_are_rerolled_against_the_current_group_before_sorting() -> None:
    """Re-rolling failed saves: the rolls are re-rolled before sorting, against the group
    current while they are rolled (the bodyguard, Sv6+): faces 1-5 are rolled again, so
    P(face f) = 5/36 for f = 1..5 and 11/36 for a 6. Bodyguard Sv6+ W1, leader Sv3+ W1.
    - n = 1: the bodyguard saves on a 6 (11/36), else damage 1 (25/36).
    - n = 2: both 6 ((11/36)^2 = 121/1296): both saved; otherwise the lower die kills the
      bodyguard and the higher goes to the leader, failing only if both dice are 1-2
      ((10/36)^2 = 100/1296): damage 2; damage 1 with the rest, 1075/1296.
    """
    r = run("11th", [torrent()], bodyguard_and_leader(6, 3),
            effects=[{"reroll": "save", "which": "failed"}])
    n0, n1, n2 = N_DICE[0], N_DICE[1], N_DICE[2]
    assert_pmf(r.damage.pmf, {0: n0 + n1 * F(11, 36) + n2 * F(121, 1296),
                              1: n1 * F(25, 36) + n2 * F(1075, 1296),
                              2: n2 * F(100, 1296)})


def _binomial(n: int, k: int, p: Fraction) -> Fraction:
    return comb(n, k) * p**k * (1 - p) ** (n - k)


@pytest.mark.parametrize("rules", ["10th", "11th"])
def test_primus_leading_neophyte_hybrids(rules: str) -> None:
    """The issue's example: 12 shots BS3+ S4 AP-2 D1 into 5 Neophyte Hybrids (T3 Sv5+ W1)
    led by a Primus (Sv5+ 5++ W4). Each shot hits (2/3) and wounds T3 on 3+ (2/3): n save
    dice ~ Binomial(12, 4/9). Against AP-2 the Neophytes need 7+ (every die fails), the
    Primus his 5++ (fails on 1-4, 2/3).

    11th: the lowest min(n, 5) dice kill the Neophytes; the Primus gets the n - 5 highest.
    With F ~ Binomial(n, 2/3) dice showing 1-4, the highest n - 5 hold max(0, F - 5) of
    them: damage = min(n, 5) + min(4, max(0, F - 5)); wiped iff F >= 9.
    10th: each of the n - 5 remaining attacks fails on its own (2/3): damage = min(n, 5) +
    min(4, G), G ~ Binomial(max(0, n - 5), 2/3); wiped iff G >= 4.
    (11th: 4.641 expected damage, 0.153% wiped; 10th: 5.049 and 0.852%.)
    """
    expected = F(0)
    wiped = F(0)
    for n in range(13):
        p_n = _binomial(12, n, F(4, 9))
        if rules == "11th":
            for f in range(n + 1):
                p = p_n * _binomial(n, f, F(2, 3))
                expected += p * (min(n, 5) + min(4, max(0, f - 5)))
                wiped += p if f >= 9 else 0
        else:
            rest = max(0, n - 5)
            for g in range(rest + 1):
                p = p_n * _binomial(rest, g, F(2, 3))
                expected += p * (min(n, 5) + min(4, g))
                wiped += p if g >= 4 else 0
    r = run(rules, [{"name": "gun", "count": 12, "range": 24, "A": "1", "skill": 3, "S": 4,
                     "AP": -2, "D": "1"}],
            [{"name": "Neophyte Hybrid", "count": 5, "T": 3, "Sv": 5, "W": 1},
             {"name": "Primus", "count": 1, "T": 3, "Sv": 5, "invuln": 5, "W": 4,
              "character": True}])
    assert r.damage.mean == pytest.approx(float(expected), abs=1e-12)
    assert r.p_unit_destroyed == pytest.approx(float(wiped), abs=1e-12)


def test_one_save_for_every_group_is_the_same_as_one_at_a_time() -> None:
    """With one save characteristic for every group the order of the dice changes
    nothing: two groups (W1 and W2) both Sv4+, two attacks. Per attack: saved 1/2.
    - n = 1 (10/36): the W1 model takes damage 1 with 1/2;
    - n = 2 (25/36): failures K ~ Binomial(2, 1/2): K = 1 kills the W1 model, K = 2 also
      wounds the W2 model: damage = K.
    """
    r = run("11th", [torrent()],
            [{"name": "a", "count": 1, "T": 4, "Sv": 4, "W": 1},
             {"name": "b", "count": 1, "T": 4, "Sv": 4, "W": 2}])
    n0, n1, n2 = N_DICE[0], N_DICE[1], N_DICE[2]
    assert_pmf(r.damage.pmf, {0: n0 + n1 / 2 + n2 / 4, 1: n1 / 2 + n2 / 2, 2: n2 / 4})
