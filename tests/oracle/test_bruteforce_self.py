"""The oracle checked against hand-worked cases (each derivation in the docstring) and a
closed form, so the engine is compared with a witness that is itself checked.

Notation: p(hit), p(wound), p(fail) are per die; "S4 vs T4: 4+" is the wound table (§3).
"""

from __future__ import annotations

from fractions import Fraction as F
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tactica.combat.contract.scenario import Scenario
from tactica.dice import DiceExpr

from .bruteforce import (
    PMF_KEYS,
    OracleResult,
    brute_force,
    lethal_alternatives,
    mean,
    optional_lethal_lines,
    wound_target,
)
from .strategies import MAX_ATTACK_DICE, attack_dice_bound, scenario_dicts, scenarios


def make(
    weapons: list[dict[str, Any]],
    models: list[dict[str, Any]],
    rules: str = "11th",
    **extra: Any,
) -> Scenario:
    """A scenario from weapon lines and model entries, 11th edition unless told."""
    return Scenario.model_validate(
        {
            "rules": rules,
            "attacker": {"name": "attacker", "weapons": weapons},
            "target": {"name": "target", "models": models, **extra.pop("target", {})},
            **extra,
        }
    )


def weapon(**fields: Any) -> dict[str, Any]:
    return {"A": "1", "skill": 3, "S": 4, "AP": 0, "D": "1", **fields}


def torrent(**fields: Any) -> dict[str, Any]:
    """One automatic hit (Torrent): the cases below start at the wound roll."""
    abilities = ["Torrent", *fields.pop("abilities", [])]
    return weapon(skill=None, abilities=abilities, **fields)


def model(**fields: Any) -> dict[str, Any]:
    return {"T": 4, "Sv": 7, "W": 1, **fields}


# --- the two cases of the brief -----------------------------------------------------------


def test_one_attack_one_model() -> None:
    """1 attack, BS3+, S4 AP0 D1 into T4 Sv3+ W1: p(hit) = 4/6 = 2/3, S4 vs T4: 4+ so
    p(wound) = 1/2, a 3+ save fails on 1-2 so p(fail) = 1/3: the model dies with
    probability 2/3 × 1/2 × 1/3 = 1/9."""
    r = brute_force(make([weapon()], [model(Sv=3)]))
    assert r["models_destroyed"] == {0: F(8, 9), 1: F(1, 9)}
    assert r["p_unit_destroyed"] == F(1, 9)
    assert r["attacks"] == {1: 1}
    assert r["hits"] == {0: F(1, 3), 1: F(2, 3)}
    assert r["wounds"] == {0: F(2, 3), 1: F(1, 3)}
    assert r["unsaved"] == r["damage"] == {0: F(8, 9), 1: F(1, 9)}
    assert r["attacker_mortal_wounds"] == {0: 1}


def test_lascannon_into_a_tank() -> None:
    """Lascannon BS4+, S12 AP-3 D6+1 into T10 Sv3+ W13: p(hit) = 1/2; S12 > T10 (but not
    double): 3+, p(wound) = 2/3; 3+ with AP-3 needs a 6, p(fail) = 5/6; E[D6+1] = 9/2, and
    W13 can't be exceeded. E[damage] = 1/2 × 2/3 × 5/6 × 9/2 = 5/4; every value 2..7
    has probability 5/18 × 1/6 = 5/108."""
    r = brute_force(make([weapon(skill=4, S=12, AP=-3, D="D6+1")], [model(T=10, Sv=3, W=13)]))
    assert mean(r["damage"]) == F(5, 4)
    assert r["damage"] == {0: F(13, 18), **{d: F(5, 108) for d in range(2, 8)}}
    assert r["models_destroyed"] == {0: 1}


# --- one ability at a time ---------------------------------------------------------------


def test_sustained_hits_1() -> None:
    """1 attack BS4+ with Sustained Hits 1: 1-3 miss (1/2), 4-5 one hit (1/3), a 6 is a
    critical hit plus one extra hit (1/6). S4 vs T4 (4+) for each hit:
    P(0 wounds) = 1/2 + 1/3 × 1/2 + 1/6 × 1/4 = 17/24; P(2) = 1/6 × 1/4 = 1/24."""
    r = brute_force(make([weapon(skill=4, abilities=["Sustained Hits 1"])], [model(W=3)]))
    assert r["hits"] == {0: F(1, 2), 1: F(1, 3), 2: F(1, 6)}
    assert r["wounds"] == {0: F(17, 24), 1: F(1, 4), 2: F(1, 24)}


def test_sustained_hits_d3_extra_hits_are_rolled_per_critical() -> None:
    """BS4+ Sustained Hits D3: a 6 (1/6) scores 1 + D3 hits, each 1/18: hits
    {0: 1/2, 1: 1/3, 2: 1/18, 3: 1/18, 4: 1/18}."""
    r = brute_force(make([weapon(skill=4, abilities=["Sustained Hits D3"])], [model(W=3)]))
    assert r["hits"] == {0: F(1, 2), 1: F(1, 3), 2: F(1, 18), 3: F(1, 18), 4: F(1, 18)}


def test_feel_no_pain_per_wound_point() -> None:
    """Torrent S8 vs T4 (2+: 5/6), no save (Sv7), D3 into W3 with FNP 5+: each wound
    point is ignored with 1/3. Given D = d, the wounds lost are Binomial(d, 2/3):
    P(k) = 5/6 × 1/3 × Σ_d C(d,k)(2/3)^k(1/3)^(d-k) (+ 1/6 for k = 0), i.e.
    {0: 73/243, 1: 10/27, 2: 20/81, 3: 20/243}, mean 5/6 × 2 × 2/3 = 10/9."""
    r = brute_force(make([torrent(S=8, D="D3")], [model(W=3, fnp=5)]))
    assert r["damage"] == {0: F(73, 243), 1: F(10, 27), 2: F(20, 81), 3: F(20, 243)}
    assert mean(r["damage"]) == F(10, 9)
    assert r["unsaved"] == {0: F(1, 6), 1: F(5, 6)}
    assert r["models_destroyed"] == {0: F(223, 243), 1: F(20, 243)}


def test_the_better_feel_no_pain_is_used() -> None:
    """A 6+ FNP model with a 4+ FNP effect: 4+ (1/2 ignored). Torrent S8 (5/6) D1, Sv7:
    the model dies with 5/6 × 1/2 = 5/12."""
    r = brute_force(make([torrent(S=8)], [model(fnp=6)], effects=[{"fnp": 4}]))
    assert r["p_unit_destroyed"] == F(5, 12)


def test_wounded_model_takes_damage_first() -> None:
    """Two W2 models in one group (same W, Sv, invuln), the second listed has lost 1
    wound. Torrent S8 vs T4 (5/6), Sv7, D1: the first wound goes to the wounded model
    and destroys it, so P(1 destroyed) = 5/6 (it would be 0 if the unwounded one came
    first)."""
    models = [model(W=2), model(W=2, wounds_lost=1)]
    r = brute_force(make([torrent(S=8)], models))
    assert r["models_destroyed"] == {0: F(1, 6), 1: F(5, 6)}


def test_excess_damage_is_lost_and_the_next_wound_goes_to_the_next_model() -> None:
    """As above with 2 attacks of D2: the first wound kills the wounded model (1 wound
    lost, 1 wasted), the second kills the other (2 lost). Each attack wounds with 5/6:
    damage {0: 1/36, 1: 10/36, 3: 25/36} and never 2 or 4."""
    models = [model(W=2), model(W=2, wounds_lost=1)]
    r = brute_force(make([torrent(S=8, A="2", D="2")], models))
    assert r["damage"] == {0: F(1, 36), 1: F(10, 36), 3: F(25, 36)}
    assert r["models_destroyed"] == {0: F(1, 36), 1: F(10, 36), 2: F(25, 36)}


def test_a_wounded_group_is_allocated_first_and_saves_with_its_own_sv() -> None:
    """Groups: A (W1 Sv2+) then B (W2 Sv7, wounded). B holds a wounded model, so it is
    first: Torrent S8 (5/6) D1 goes to B with no save, P(B dies) = 5/6. (Against A it
    would have been 5/6 × 1/6.)"""
    models = [model(W=1, Sv=2), model(W=2, wounds_lost=1)]
    r = brute_force(make([torrent(S=8)], models))
    assert r["models_destroyed"] == {0: F(1, 6), 1: F(5, 6)}
    assert r["damage"] == {0: F(1, 6), 1: F(5, 6)}


def test_bodyguard_toughness_and_character_last() -> None:
    """Bodyguard T3 W1 and a CHARACTER T5 W2: the unit's T is the bodyguard's, 3. S5 vs
    T3 is 3+ (2/3), not 4+. Torrent, Sv7, D2: the bodyguard is allocated first (the
    CHARACTER group is last), so the damage is 1 (excess lost) with 2/3."""
    models = [model(T=3), model(T=5, W=2, character=True)]
    r = brute_force(make([torrent(S=5, D="2")], models))
    assert r["wounds"] == {0: F(1, 3), 1: F(2, 3)}
    assert r["damage"] == {0: F(1, 3), 1: F(2, 3)}


def test_precision_goes_to_the_character() -> None:
    """As above with Precision: the CHARACTER group is current, D2 kills it (2 wounds
    lost) with 2/3."""
    models = [model(T=3), model(T=5, W=2, character=True)]
    r = brute_force(make([torrent(S=5, D="2", abilities=["Precision"])], models))
    assert r["damage"] == {0: F(1, 3), 2: F(2, 3)}
    assert r["models_destroyed"] == {0: F(1, 3), 1: F(2, 3)}


@pytest.mark.parametrize(
    ("rules", "damage"),
    [
        # 11th: a 6 to wound (1/6) is 3 mortal wounds, not halved; a 4-5 (1/3) is saved
        # on 2+ and otherwise does ceil(3/2) = 2: 1/3 × 1/6 = 1/18.
        ("11th", {0: F(7, 9), 2: F(1, 18), 3: F(1, 6)}),
        # 10th: the critical wound is unsaveable but its damage is halved too: 2.
        ("10th", {0: F(7, 9), 2: F(2, 9)}),
    ],
)
def test_devastating_wounds_and_half_damage(rules: str, damage: dict[int, F]) -> None:
    """Torrent S4 vs T4 (4+), D3, Devastating Wounds, into one W3 Sv2+ model with half
    damage. See the parameters for each rule set."""
    r = brute_force(
        make(
            [torrent(D="3", abilities=["Devastating Wounds"])],
            [model(W=3, Sv=2)],
            rules=rules,
            target={"half_damage": True},
        )
    )
    assert r["damage"] == damage
    assert r["unsaved"] == {0: F(7, 9), 1: F(2, 9)}
    assert r["wounds"] == {0: F(1, 2), 1: F(1, 2)}


@pytest.mark.parametrize("rules", ["10th", "11th"])
def test_devastating_wounds_destroy_at_most_one_model(rules: str) -> None:
    """Torrent S4 vs T4, D3, Devastating Wounds into two W1 models without a save: a
    normal wound (1/3) or a critical one (1/6) each destroy one model; the rest of the
    damage is lost, so two models never die: {0: 1/2, 1: 1/2}."""
    r = brute_force(
        make([torrent(D="3", abilities=["Devastating Wounds"])], [model(count=2)], rules=rules)
    )
    assert r["models_destroyed"] == {0: F(1, 2), 1: F(1, 2)}


@pytest.mark.parametrize("rules", ["10th", "11th"])
def test_mortal_wounds_after_normal_damage_and_nothing_after_the_unit_is_gone(
    rules: str,
) -> None:
    """One W1 model without a save. Weapon 1: Torrent S4 D1 Devastating Wounds (a 4-5
    kills at once, a 6 queues a packet); weapon 2: Torrent S8 D1 (wounds on 2+, 5/6).
    The packet is resolved after weapon 2 and does nothing if the model is already
    dead, so at most one attack is ever counted as unsaved:
    - weapon 1 wounds normally (1/3): unsaved 1;
    - weapon 1 fails (1/2): unsaved 1 with 5/6, else 0 (1/12 overall);
    - weapon 1 scores a critical (1/6): weapon 2 or else the packet kills: unsaved 1.
    Wounds count regardless: P(2 wounds) = 1/2 × 5/6 = 5/12."""
    r = brute_force(
        make(
            [torrent(abilities=["Devastating Wounds"]), torrent(S=8)],
            [model()],
            rules=rules,
        )
    )
    assert r["unsaved"] == {0: F(1, 12), 1: F(11, 12)}
    assert r["wounds"] == {0: F(1, 12), 1: F(1, 2), 2: F(5, 12)}
    assert r["p_unit_destroyed"] == F(11, 12)


def test_devastating_wounds_11th_ignore_precision_10th_do_not() -> None:
    """Bodyguard W2 T4 and a CHARACTER W1; Torrent S4 D1 Precision Devastating Wounds,
    one attack, no saves. A 4-5 (1/3) is a normal wound: Precision sends it to the
    CHARACTER, which dies. A 6 (1/6): 11th mortal wounds ignore Precision and go to the
    bodyguard, which survives; 10th allocates the attack like any other, so to the
    CHARACTER: P(a model dies) is 1/3 (11th) and 1/2 (10th)."""
    models = [model(W=2), model(character=True)]
    line = torrent(abilities=["Precision", "Devastating Wounds"])
    eleventh = brute_force(make([line], models))
    tenth = brute_force(make([line], models, rules="10th"))
    assert eleventh["models_destroyed"] == {0: F(2, 3), 1: F(1, 3)}
    assert eleventh["damage"] == {0: F(1, 2), 1: F(1, 2)}
    assert tenth["models_destroyed"] == {0: F(1, 2), 1: F(1, 2)}


@pytest.mark.parametrize("rules", ["10th", "11th"])
def test_lethal_hits(rules: str) -> None:
    """BS4+, S1 vs T8 (6+), Lethal Hits: a 6 to hit (1/6) wounds automatically, a 4-5
    (1/3) wounds on a 6: P(wound) = 1/6 + 1/3 × 1/6 = 2/9 under both rule sets (11th:
    without Devastating Wounds taking it is always better)."""
    r = brute_force(
        make([weapon(skill=4, S=1, abilities=["Lethal Hits"])], [model(T=8)], rules=rules)
    )
    assert r["wounds"] == {0: F(7, 9), 1: F(2, 9)}


def test_11th_lethal_hits_with_devastating_wounds_is_a_choice() -> None:
    """BS4+, S1 vs T8 (6+), D1, Lethal Hits and Devastating Wounds into a W1 Sv2+ model
    with a save re-roll (a failed save is re-rolled: p(fail) = 1/6 × 1/6 = 1/36).
    A critical hit (1/6), taking Lethal Hits: an automatic wound, then the save: 1/36.
    Rolling instead: a 6 to wound (1/6) is a mortal wound. A 4-5 hit (1/3) adds
    c = 1/3 × 1/6 either way (its 6 to wound is critical, a mortal wound).
    E[damage] = 1/6 × 1/36 + c (take it) < 1/6 × 1/6 + c (roll): the oracle rolls, and
    ``lethal_choice`` forces the other option."""
    s = make(
        [weapon(skill=4, S=1, abilities=["Lethal Hits", "Devastating Wounds"])],
        [model(T=8, Sv=2)],
        effects=[{"reroll": "save", "which": "failed"}],
    )
    common = F(1, 3) * F(1, 6)
    assert optional_lethal_lines(s) == (0,)
    assert mean(brute_force(s)["damage"]) == F(1, 36) + common
    assert mean(brute_force(s, {0: True})["damage"]) == F(1, 6) * F(1, 36) + common
    options = {tuple(choice.items()): mean(r["damage"]) for choice, r in lethal_alternatives(s)}
    assert options == {((0, True),): F(1, 216) + common, ((0, False),): F(1, 36) + common}
    assert optional_lethal_lines(s.model_copy(update={"rules": "10th"})) == ()


@pytest.mark.parametrize(
    ("rules", "keywords", "pmf"),
    [
        # 11th: fails on 1-2 (1/3), 1 mortal wound, 3 for a MONSTER or VEHICLE unit
        ("11th", [], {0: F(4, 9), 1: F(4, 9), 2: F(1, 9)}),
        ("11th", ["VEHICLE"], {0: F(4, 9), 3: F(4, 9), 6: F(1, 9)}),
        # 10th: fails on 1 (1/6), 3 mortal wounds
        ("10th", [], {0: F(25, 36), 3: F(10, 36), 6: F(1, 36)}),
    ],
)
def test_hazardous(rules: str, keywords: list[str], pmf: dict[int, F]) -> None:
    """Two Hazardous weapons: one hazard roll each."""
    s = Scenario.model_validate(
        {
            "rules": rules,
            "attacker": {
                "keywords": keywords,
                "weapons": [weapon(count=2, abilities=["Hazardous"])],
            },
            "target": {"models": [model()]},
        }
    )
    assert brute_force(s)["attacker_mortal_wounds"] == pmf


@pytest.mark.parametrize(("models", "attacks"), [(5, 2), (4, 1), (10, 3)])
def test_blast(models: int, attacks: int) -> None:
    """Blast: +1 attack per five models in the target (A1)."""
    s = make([weapon(abilities=["Blast"])], [model(count=models)])
    assert brute_force(s)["attacks"] == {attacks: 1}


def test_blast_x_rapid_fire_and_attacks_effect() -> None:
    """2 copies of A D3, Blast 2 vs 5 models, Rapid Fire 1 and an ``attacks`` +1
    effect: within half range each copy has D3 + 2 + 1 + 1 attacks, so 2D3 + 8 in all;
    out of half range 2D3 + 6."""
    two_d3 = DiceExpr.parse("2D3").fraction_pmf()
    for half_range, fixed in ((True, 8), (False, 6)):
        s = make(
            [weapon(count=2, A="D3", abilities=["Blast 2", "Rapid Fire 1"])],
            [model(count=5)],
            context={"within_half_range": half_range},
            effects=[{"attacks": 1}],
        )
        assert brute_force(s)["attacks"] == {fixed + v: p for v, p in two_d3.items()}


def test_attacks_never_below_one() -> None:
    """A1 with an ``attacks`` -2 effect still makes one attack."""
    s = make([weapon()], [model()], effects=[{"attacks": -2}])
    assert brute_force(s)["attacks"] == {1: 1}


def test_melta_and_damage_modifiers() -> None:
    """Torrent S8 (5/6), no save, D3 with Melta 2 in half range and a ``damage`` +1
    effect, into a W10 model with half damage and damage reduction 1:
    D3 + 2 + 1 = 4, 5, 6 → halved 2, 3, 3 → minus 1: 1, 2, 2."""
    s = make(
        [torrent(S=8, D="D3", abilities=["Melta 2"])],
        [model(W=10)],
        context={"within_half_range": True},
        effects=[{"damage": 1}],
        target={"half_damage": True, "damage_reduction": 1},
    )
    assert brute_force(s)["damage"] == {0: F(1, 6), 1: F(5, 18), 2: F(5, 9)}


def test_damage_is_at_least_one() -> None:
    """D1 with damage reduction 1 and a ``damage`` -1 effect still does 1."""
    s = make([torrent(S=8)], [model(W=3)], effects=[{"damage": -1}], target={"damage_reduction": 1})
    assert brute_force(s)["damage"] == {0: F(1, 6), 1: F(5, 6)}


@pytest.mark.parametrize(
    ("rules", "context", "p_kill"),
    [
        # BS3+, S4 vs T4 (1/2), AP0 into Sv4+ W1.
        ("11th", {}, F(2, 3) * F(1, 2) * F(1, 2)),
        # 11th cover: BS worsened to 4+
        ("11th", {"cover": True}, F(1, 2) * F(1, 2) * F(1, 2)),
        # 11th Stealth gives the benefit of cover; not cumulative
        ("11th", {"cover": True, "stealth": True}, F(1, 2) * F(1, 2) * F(1, 2)),
        # 10th cover: +1 to the armour save, 3+ (fails on 1-2)
        ("10th", {"cover": True}, F(2, 3) * F(1, 2) * F(1, 3)),
        # 10th Stealth: -1 to hit
        ("10th", {"stealth": True}, F(1, 2) * F(1, 2) * F(1, 2)),
    ],
)
def test_cover_and_stealth(rules: str, context: dict[str, bool], p_kill: F) -> None:
    s = make([weapon()], [model(Sv=4)], rules=rules, context=context)
    assert brute_force(s)["p_unit_destroyed"] == p_kill


@pytest.mark.parametrize("rules", ["10th", "11th"])
def test_ignores_cover_and_the_fight_phase(rules: str) -> None:
    """Ignores Cover, or a fight-phase attack, gets no cover penalty in either rule
    set: 2/3 × 1/2 × 1/2 = 1/6."""
    ignores = make(
        [weapon(abilities=["Ignores Cover"])], [model(Sv=4)], rules=rules, context={"cover": True}
    )
    melee = make(
        [weapon(range="Melee")],
        [model(Sv=4)],
        rules=rules,
        phase="fight",
        context={"cover": True, "stealth": True},
    )
    assert brute_force(ignores)["p_unit_destroyed"] == F(1, 6)
    assert brute_force(melee)["p_unit_destroyed"] == F(1, 6)


def test_10th_cover_not_for_3_plus_against_ap0() -> None:
    """10th: cover gives nothing to a Sv3+ model against AP0, but against AP-1 it
    cancels the AP: p(fail) = 1/3 both ways."""
    ap0 = make([torrent(S=8)], [model(Sv=3)], rules="10th", context={"cover": True})
    ap1 = make([torrent(S=8, AP=-1)], [model(Sv=3)], rules="10th", context={"cover": True})
    assert brute_force(ap0)["unsaved"] == brute_force(ap1)["unsaved"] == {0: F(13, 18), 1: F(5, 18)}


def test_save_improvement_capped_invuln_not_modified() -> None:
    """Sv4+ with two +1 save effects is a 3+ (capped); against AP-3 that is 6+, so the
    4+ invulnerable save is better: p(fail) = 1/2. Torrent S8 (5/6): unsaved 5/12."""
    s = make(
        [torrent(S=8, AP=-3)],
        [model(Sv=4, invuln=4)],
        effects=[{"save": 1}, {"save": 1}],
    )
    assert brute_force(s)["unsaved"] == {0: F(7, 12), 1: F(5, 12)}


def test_heavy_and_hit_modifiers_capped() -> None:
    """BS5+, Heavy after remaining stationary (+1) and a +1 hit effect: capped at +1,
    hits on 4+ (1/2)."""
    s = make(
        [weapon(skill=5, abilities=["Heavy"])],
        [model()],
        context={"remained_stationary": True},
        effects=[{"hit": 1}],
    )
    assert brute_force(s)["hits"] == {0: F(1, 2), 1: F(1, 2)}


def test_skill_effect_and_critical_hits_on_5() -> None:
    """BS6+ improved by a ``skill`` -1 effect to 5+, a -1 hit modifier makes a 5 fail,
    but critical hits on 5+ always hit: hits on 5-6 (1/3)."""
    s = make(
        [weapon(skill=6)],
        [model()],
        effects=[{"skill": -1}, {"hit": -1}, {"critical_hit_on": 5}],
    )
    assert brute_force(s)["hits"] == {0: F(2, 3), 1: F(1, 3)}


@pytest.mark.parametrize(("rules", "p_hit"), [("11th", F(1, 6)), ("10th", F(11, 36))])
def test_snap_shooting(rules: str, p_hit: F) -> None:
    """Snap shooting at BS2+ with +1 to hit and critical hits on 5+: only a 6 hits. 11th
    forbids the hit re-roll (1/6); 10th allows it (1/6 + 5/6 × 1/6 = 11/36)."""
    s = make(
        [weapon(skill=2)],
        [model()],
        rules=rules,
        effects=[
            {"snap_shooting": True},
            {"hit": 1},
            {"critical_hit_on": 5},
            {"reroll": "hit", "which": "failed"},
        ],
    )
    assert brute_force(s)["hits"] == {0: 1 - p_hit, 1: p_hit}


def test_rerolls() -> None:
    """Twin-linked re-rolls failed wounds: S4 vs T4 1/2 + 1/2 × 1/2 = 3/4. Re-rolling
    hit 1s at BS3+: 2/3 + 1/6 × 2/3 = 7/9."""
    s = make([torrent(abilities=["Twin-linked"])], [model()])
    assert brute_force(s)["wounds"] == {0: F(1, 4), 1: F(3, 4)}
    s = make([weapon()], [model()], effects=[{"reroll": "hit", "which": "ones"}])
    assert brute_force(s)["hits"] == {0: F(2, 9), 1: F(7, 9)}


@pytest.mark.parametrize("rules", ["10th", "11th"])
@pytest.mark.parametrize(("keywords", "p_critical"), [(["INFANTRY"], F(1, 2)), ([], F(1, 6))])
def test_anti(rules: str, keywords: list[str], p_critical: F) -> None:
    """Torrent S1 vs T8 (6+) with Anti-Infantry 4+ and Devastating Wounds into a W1
    model with a 2+ invulnerable save: every successful wound roll is critical (4+
    against INFANTRY, else 6), a mortal wound (11th) or an unsaveable attack (10th)."""
    s = make(
        [torrent(S=1, abilities=["Anti-Infantry 4+", "Devastating Wounds"])],
        [model(T=8, Sv=2, invuln=2)],
        rules=rules,
        target={"keywords": keywords},
    )
    assert brute_force(s)["p_unit_destroyed"] == p_critical


def test_lance_and_wound_modifiers_capped() -> None:
    """Lance after charging (+1) and a +1 wound effect: capped +1. S3 vs T4 (5+) becomes
    4+ (1/2)."""
    s = make(
        [weapon(skill=None, S=3, range="Melee", abilities=["Torrent", "Lance"])],
        [model()],
        phase="fight",
        context={"charged": True},
        effects=[{"wound": 1}],
    )
    assert brute_force(s)["wounds"] == {0: F(1, 2), 1: F(1, 2)}


def test_two_weapons_carry_the_target_state() -> None:
    """Weapon 1: Torrent S8 D1 (5/6) into a W2 model (no save); weapon 2 the same: the
    model dies only if both wound, 25/36."""
    s = make([torrent(S=8), torrent(S=8)], [model(W=2)])
    assert brute_force(s)["models_destroyed"] == {0: F(11, 36), 1: F(25, 36)}


@pytest.mark.parametrize(
    ("strength", "toughness", "needed"),
    [
        (8, 4, 2),
        (5, 4, 3),
        (4, 4, 4),
        (3, 4, 5),
        (2, 4, 6),
        (3, 6, 6),
        (3, 7, 6),
        (4, 7, 5),
        (4, 8, 6),
    ],
)
def test_wound_table(strength: int, toughness: int, needed: int) -> None:
    assert wound_target(strength, toughness) == needed


# --- properties ----------------------------------------------------------------------------


def _check_consistent(s: Scenario, r: OracleResult) -> None:
    models = s.target.model_count
    wounds = sum(e.W * e.count - e.wounds_lost for e in s.target.models)
    for key in PMF_KEYS:
        assert sum(r[key].values()) == 1, key
        assert all(p > 0 for p in r[key].values()), key
    assert max(r["models_destroyed"]) <= models
    assert max(r["damage"]) <= wounds
    assert r["p_unit_destroyed"] == r["models_destroyed"].get(models, 0)
    assert mean(r["hits"]) >= 0
    assert max(r["unsaved"]) <= max(r["wounds"])


@pytest.mark.slow
@settings(max_examples=60, deadline=None, derandomize=True)
@given(scenarios())
def test_generated_scenarios_are_small_and_consistent(s: Scenario) -> None:
    assert s.target.model_count <= 5
    assert len(s.attacker.weapons) <= 2
    assert attack_dice_bound(s) <= MAX_ATTACK_DICE
    _check_consistent(s, brute_force(s))


@settings(max_examples=10, deadline=None, derandomize=True)
@given(scenario_dicts())
def test_generated_dicts_validate(d: dict[str, Any]) -> None:
    s = Scenario.model_validate(d)
    assert attack_dice_bound(s) <= MAX_ATTACK_DICE
    assert s.rules == d["rules"]


@pytest.mark.slow
@settings(max_examples=40, deadline=None, derandomize=True)
@given(
    count=st.integers(1, 2),
    attacks=st.sampled_from(["1", "2", "D3"]),
    skill=st.integers(2, 6),
    strength=st.integers(1, 12),
    ap=st.integers(-3, 0),
    damage=st.sampled_from(["1", "2", "D3", "D3+1", "D6"]),
    toughness=st.integers(1, 10),
    save=st.integers(2, 7),
    rules=st.sampled_from(["10th", "11th"]),
)
def test_expected_damage_matches_the_closed_form(
    count: int,
    attacks: str,
    skill: int,
    strength: int,
    ap: int,
    damage: str,
    toughness: int,
    save: int,
    rules: str,
) -> None:
    """With no abilities and a model too big to die, damage is linear: E[damage] =
    E[attacks] × p(hit) × p(wound) × p(fail) × E[D]: an independent closed form."""
    s = make(
        [weapon(count=count, A=attacks, skill=skill, S=strength, AP=ap, D=damage)],
        [model(T=toughness, Sv=save, W=60)],
        rules=rules,
    )
    p_hit = F(7 - skill, 6)
    p_wound = F(7 - wound_target(strength, toughness), 6)
    p_fail = 1 - F(max(0, 7 - max(2, save - ap)), 6)
    expected = count * DiceExpr.parse(attacks).mean * p_hit * p_wound * p_fail
    r = brute_force(s)
    assert mean(r["hits"]) == count * DiceExpr.parse(attacks).mean * p_hit
    assert mean(r["damage"]) == expected * DiceExpr.parse(damage).mean
    assert r["models_destroyed"] == {0: 1}
