"""Hand-derived worked examples: one per weapon ability and per rules-version difference.

Every expected number is derived by hand in the test's docstring and recomputed in the
test with ``fractions.Fraction`` from that derivation (never copied from the engine).
Rule citations: numbered sections (``24.10``) are 11th edition; unnumbered names
("Benefit of Cover (10th)") are 10th edition; "§" refers to
``shared/spec/reference_facts.md``.

Conventions used in the derivations: "Sv7" means no armour save can succeed (7+ on a D6);
a Torrent weapon always hits exactly once per attack (no hit roll); S8 against T4 wounds
on 2+ (S >= 2T), i.e. with probability 5/6.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Mapping, Sequence
from fractions import Fraction
from math import comb
from pathlib import Path
from typing import Any

import pytest

from tactica import calculate
from tactica.combat import Result

Json = dict[str, Any]
F = Fraction


# --- helpers --------------------------------------------------------------------------


def weapon(
    *,
    A: str = "1",
    skill: int | None = 4,
    S: int = 4,
    AP: int = 0,
    D: str = "1",
    count: int = 1,
    range_: int | str = 24,
    abilities: Sequence[str] = (),
    name: str = "weapon",
) -> Json:
    """One weapon line of the scenario contract."""
    return {"name": name, "count": count, "range": range_, "A": A, "skill": skill,
            "S": S, "AP": AP, "D": D, "abilities": list(abilities)}


def torrent(*, S: int = 8, AP: int = 0, D: str = "1", count: int = 1,
            abilities: Sequence[str] = ()) -> Json:
    """A one-attack Torrent weapon: exactly one automatic hit per copy."""
    return weapon(A="1", skill=None, S=S, AP=AP, D=D, count=count,
                  abilities=("Torrent", *abilities), name="torrent")


def models(
    *,
    count: int = 1,
    T: int = 4,
    Sv: int = 7,
    W: int = 1,
    invuln: int | None = None,
    fnp: int | None = None,
    character: bool = False,
    wounds_lost: int = 0,
    name: str = "model",
) -> Json:
    """One entry (group of identical models) of the target."""
    return {"name": name, "count": count, "T": T, "Sv": Sv, "W": W, "invuln": invuln,
            "fnp": fnp, "character": character, "wounds_lost": wounds_lost}


def run(
    weapons: Sequence[Json],
    target: Sequence[Json],
    *,
    rules: str = "11th",
    phase: str = "shooting",
    context: Json | None = None,
    effects: Sequence[Any] = (),
    attacker_keywords: Sequence[str] = (),
    target_keywords: Sequence[str] = (),
    damage_reduction: int = 0,
    half_damage: bool = False,
) -> Result:
    """Calculate a scenario built from the pieces above through the public API."""
    return calculate({
        "rules": rules,
        "phase": phase,
        "attacker": {"name": "attacker", "keywords": list(attacker_keywords),
                     "weapons": list(weapons)},
        "target": {"name": "target", "keywords": list(target_keywords),
                   "models": list(target), "damage_reduction": damage_reduction,
                   "half_damage": half_damage},
        "context": context or {},
        "effects": list(effects),
    })


def mean_of(pmf: Mapping[int, Fraction]) -> Fraction:
    return sum((F(v) * p for v, p in pmf.items()), F(0))


def assert_pmf(actual: Sequence[float], expected: Mapping[int, Fraction]) -> None:
    """``actual`` (a result pmf) equals the hand-derived ``expected`` to 1e-12."""
    assert sum(expected.values()) == 1, "the derivation itself must sum to 1"
    size = max(len(actual), max(expected) + 1)
    padded = list(actual) + [0.0] * (size - len(actual))
    want = [float(expected.get(i, F(0))) for i in range(size)]
    assert padded == pytest.approx(want, abs=1e-12)


def approx(value: Fraction) -> Any:
    return pytest.approx(float(value), abs=1e-12)


def binomial(n: int, p: Fraction) -> dict[int, Fraction]:
    return {k: comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)}


SIXTH = F(1, 6)


# --- the headline numbers -------------------------------------------------------------


def test_headline_bolt_rifles_into_w2_models() -> None:
    """10 attacks BS3+ S4 AP-1 D1 into 10 models T4 Sv3+ W2: 0.5877 models destroyed.

    Per attack: hit on 3+ = 2/3; S4 = T4 wounds on 4+ = 1/2 (§3 wound table); Sv3+ with
    AP-1 saves on 4+, so it fails 1/2. P(unsaved) = 2/3 · 1/2 · 1/2 = 1/6, independently
    for each attack, so U ~ Bin(10, 1/6). Each unsaved attack does 1 damage; the
    wounded model takes damage first (§4.8), so models destroyed = floor(U / 2), and
    E = Σ_u floor(u/2) · C(10,u) (1/6)^u (5/6)^(10-u) ≈ 0.5877. Damage = U, mean 10/6.
    """
    r = run([weapon(count=10, skill=3, S=4, AP=-1, D="1")],
            [models(count=10, T=4, Sv=3, W=2)])
    unsaved = binomial(10, SIXTH)
    destroyed: dict[int, Fraction] = {}
    for u, p in unsaved.items():
        destroyed[u // 2] = destroyed.get(u // 2, F(0)) + p
    assert r.models_destroyed.mean == approx(mean_of(destroyed))
    assert round(r.models_destroyed.mean, 4) == 0.5877
    assert_pmf(r.models_destroyed.pmf, destroyed)
    assert_pmf(r.unsaved.pmf, unsaved)
    assert_pmf(r.damage.pmf, unsaved)
    assert r.damage.mean == approx(F(10, 6))


def test_headline_lascannon_into_a_tank() -> None:
    """One Lascannon (BS4+ S12 AP-3 D6+1) into T10 Sv3+ W13: expected damage 1.25.

    Hit on 4+: 1/2. S12 > T10: wounds on 3+ = 2/3. Sv3+ with AP-3 needs 6+: fails 5/6.
    D6+1 is 2..7 each 1/6 (mean 4.5), never more than the 13 wounds, so
    E = 1/2 · 2/3 · 5/6 · 9/2 = 5/4 and P(damage = d) = 5/18 · 1/6 for d = 2..7.
    """
    r = run([weapon(A="1", skill=4, S=12, AP=-3, D="D6+1", range_=48)],
            [models(T=10, Sv=3, W=13)], target_keywords=["VEHICLE"])
    p_through = F(1, 2) * F(2, 3) * F(5, 6)
    expected = {0: 1 - p_through} | {d: p_through * SIXTH for d in range(2, 8)}
    assert mean_of(expected) == F(5, 4)
    assert r.damage.mean == approx(F(5, 4))
    assert_pmf(r.damage.pmf, expected)


# --- hit roll abilities ---------------------------------------------------------------


def test_torrent_auto_hits_and_is_never_critical() -> None:
    """Torrent: every attack hits automatically; an automatic hit is never a critical
    hit (01.05.01, §4.3), so Sustained Hits and a lowered critical threshold do nothing.

    A2 Torrent, Sustained Hits 1, critical hits on 2+: hits are exactly 2 (not up to 4).
    S4 vs T4 wounds on 4+, so wounds ~ Bin(2, 1/2); no save (Sv7), D1 into W1 models.
    """
    r = run([weapon(A="2", skill=None, S=4, abilities=["Torrent", "Sustained Hits 1"])],
            [models(count=5, T=4, Sv=7, W=1)], effects=[{"critical_hit_on": 2}])
    assert_pmf(r.hits.pmf, {2: F(1)})
    assert_pmf(r.wounds.pmf, binomial(2, F(1, 2)))
    assert r.damage.mean == approx(F(1))


def test_sustained_hits_1() -> None:
    """Sustained Hits 1 (24.36, §4.4): a critical hit (unmodified 6) scores 1 more hit.

    One attack BS4+: 1-3 miss (1/2), 4-5 one hit (1/3), 6 two hits (1/6). Each hit wounds
    on 4+ (S4 vs T4) = 1/2; no save, D1, five W1 models. Models destroyed:
    P(2) = 1/6 · 1/4 = 1/24; P(1) = 1/3 · 1/2 + 1/6 · 2 · 1/4 = 1/4; P(0) = 17/24.
    """
    r = run([weapon(skill=4, S=4, abilities=["Sustained Hits 1"])],
            [models(count=5, T=4, Sv=7, W=1)])
    assert_pmf(r.hits.pmf, {0: F(1, 2), 1: F(1, 3), 2: F(1, 6)})
    assert r.hits.mean == approx(F(2, 3))
    expected = {0: F(17, 24), 1: F(1, 4), 2: F(1, 24)}
    assert_pmf(r.models_destroyed.pmf, expected)
    assert r.damage.mean == approx(F(1, 3))


def test_sustained_hits_d3() -> None:
    """Sustained Hits D3 (24.36): a critical hit scores D3 more hits (1, 2 or 3, each 1/3).

    One attack BS4+: P(0 hits) = 1/2, P(1) = 1/3 (4-5), and on a 6 (1/6) 1+D3 hits:
    P(2) = P(3) = P(4) = 1/18. Mean = 1/3 + (2+3+4)/18 = 5/6; wounds (4+) mean 5/12.
    """
    r = run([weapon(skill=4, S=4, abilities=["Sustained Hits D3"])],
            [models(count=10, T=4, Sv=7, W=1)])
    expected = {0: F(1, 2), 1: F(1, 3), 2: F(1, 18), 3: F(1, 18), 4: F(1, 18)}
    assert_pmf(r.hits.pmf, expected)
    assert r.hits.mean == approx(F(5, 6))
    assert r.wounds.mean == approx(F(5, 12))


def test_critical_hit_on_5_with_sustained_hits() -> None:
    """An effect lowering the critical-hit threshold to 5+ (§4.1) makes 5s and 6s
    critical, each scoring Sustained Hits 1's extra hit.

    BS4+: 1-3 miss (1/2), 4 one hit (1/6), 5-6 two hits (1/3). Mean = 1/6 + 2/3 = 5/6.
    """
    r = run([weapon(skill=4, abilities=["Sustained Hits 1"])],
            [models(count=10, Sv=7)], effects=[{"critical_hit_on": 5}])
    assert_pmf(r.hits.pmf, {0: F(1, 2), 1: F(1, 6), 2: F(1, 3)})
    assert r.hits.mean == approx(F(5, 6))


@pytest.mark.parametrize("rules", ["10th", "11th"])
def test_lethal_hits_without_devastating_wounds(rules: str) -> None:
    """Lethal Hits: a critical hit wounds automatically. 10th: mandatory ("a Critical Hit
    automatically wounds"); 11th (24.23): optional, and without Devastating Wounds the
    automatic wound is always worth at least a wound roll, so the engine takes it.

    One attack BS4+ S3 vs T6 (S <= T/2: wounds on 6+). P(wound) = P(6 to hit) · 1 +
    P(4-5 to hit) · 1/6 = 1/6 + 1/3 · 1/6 = 2/9 (without Lethal Hits: 1/2 · 1/6 = 1/12).
    No save, D1, W1 models: expected damage 2/9.
    """
    r = run([weapon(skill=4, S=3, abilities=["Lethal Hits"])],
            [models(count=5, T=6, Sv=7)], rules=rules)
    assert r.wounds.mean == approx(F(2, 9))
    assert r.damage.mean == approx(F(2, 9))
    plain = run([weapon(skill=4, S=3)], [models(count=5, T=6, Sv=7)], rules=rules)
    assert plain.damage.mean == approx(F(1, 12))


def test_lethal_hits_declined_with_devastating_wounds_11th() -> None:
    """11th Lethal Hits (24.23) is optional; with Devastating Wounds (24.10) the engine
    rolls to wound instead when that gives more expected damage (§4, 11th bullets).

    Weapon: one attack BS4+ S8 AP0 D3, Lethal Hits + Devastating Wounds, into one T4 Sv2+
    W3 model. S8 vs T4 wounds on 2+: 2-5 wound normally (4/6), 6 is a critical wound
    (1/6) = 3 mortal wounds. A normal wound is saved on 2+: it does 1/6 · 3 = 1/2.
    - value of a critical hit if Lethal is taken: 1/2 (an automatic, non-critical wound);
    - value if it rolls to wound: 4/6 · 1/2 + 1/6 · 3 = 5/6 > 1/2, so it is declined.
    Declined: every hit (4+, 1/2) rolls to wound: E = 1/2 · 5/6 = 5/12.
    (Taken it would be 1/6 · 1/2 + 1/3 · 5/6 = 13/36 < 15/36.)
    """
    r = run([weapon(skill=4, S=8, D="3", abilities=["Lethal Hits", "Devastating Wounds"])],
            [models(T=4, Sv=2, W=3)])
    assert r.damage.mean == approx(F(1, 2) * F(5, 6))
    assert any("Lethal Hits declined" in n for n in r.notes)
    # the 10th-edition Lethal Hits is mandatory: the same attack is worth 13/36 there
    r10 = run([weapon(skill=4, S=8, D="3", abilities=["Lethal Hits", "Devastating Wounds"])],
              [models(T=4, Sv=2, W=3)], rules="10th")
    assert r10.damage.mean == approx(SIXTH * F(1, 2) + F(1, 3) * F(5, 6))


def test_lethal_hits_taken_with_devastating_wounds_against_a_poor_save_11th() -> None:
    """The same weapon as above into a Sv5+ W3 model: the comparison flips.

    A normal wound is saved on 5+ (fails 2/3): it does 2/3 · 3 = 2. Lethal taken: 2;
    rolling: 4/6 · 2 + 1/6 · 3 = 11/6 < 2, so Lethal Hits is taken.
    E = P(6) · 2 + P(4-5) · 11/6 = 1/3 + 11/18 = 17/18 (declined: 1/2 · 11/6 = 11/12).
    """
    r = run([weapon(skill=4, S=8, D="3", abilities=["Lethal Hits", "Devastating Wounds"])],
            [models(T=4, Sv=5, W=3)])
    assert r.damage.mean == approx(SIXTH * 2 + F(1, 3) * F(11, 6))
    assert any("Lethal Hits taken" in n for n in r.notes)



def test_lethal_hits_choice_is_for_the_whole_weapon_11th() -> None:
    """11th Lethal Hits is taken "whichever gives the higher expected damage for that
    weapon against that target" (reference facts §4, 11th; 24.23, 24.10) — the whole
    weapon line, not one attack against the first model.

    Two attacks (count 2) BS4+ with critical hits on 2+ (every hit is a critical hit, a 1
    misses: 5/6), S8 vs T4 (2-5 wound: 4/6, 6 critical: 1/6), AP0, D2, Lethal Hits +
    Devastating Wounds, into two Sv5+ W2 models, the first on 1 wound left, half damage.
    A normal wound is saved on 5+ (fails 2/3) and does 2 halved = 1; a critical wound is
    2 mortal wounds (not halved), after all normal damage, to the wounded model first,
    at most one model each (24.10).

    - Taken: each attack is an automatic wound with 5/6 · 2/3 = 5/9 → 1 damage (the
      first to the wounded model, the second to the other): E = 2 · 5/9 = 10/9.
    - Declined: each attack is N (normal, 1 damage) with a = 5/6 · 4/6 · 2/3 = 40/108,
      M (2 mortal wounds) with b = 5/6 · 1/6 = 15/108, nothing with c = 53/108.
      Damage by (N, M): (1,0) 1; (2,0) 2; (0,1) 1 (the wounded model, 1 lost);
      (1,1) 3 (N destroys the wounded model, M the other); (0,2) 1 + 2 = 3.
      E = 2ac + 2a² + 2bc + 3 · 2ab + 3b² = (4240 + 3200 + 1590 + 3600 + 675) / 108²
      = 13305/11664 ≈ 1.1407 > 10/9 ≈ 1.1111, so it must be declined.
    (With one attack, taken 5/9 beats declined 5/6 · (4/6 · 2/3 + 1/6 · 1) = 55/108: the
    choice depends on the whole weapon, against the unit, not on its first model.)
    """
    a, b, c = F(40, 108), F(15, 108), F(53, 108)
    declined = 2 * a * c + 2 * a * a + 2 * b * c + 3 * 2 * a * b + 3 * b * b
    taken = 2 * F(5, 9)
    assert declined == F(13305, 11664) and declined > taken
    r = run([weapon(count=2, skill=4, S=8, D="2",
                    abilities=["Lethal Hits", "Devastating Wounds"])],
            [models(count=2, T=4, Sv=5, W=2, wounds_lost=1)], half_damage=True,
            effects=[{"critical_hit_on": 2}])
    assert r.damage.mean == approx(max(declined, taken))


# --- wound roll abilities -------------------------------------------------------------


def test_devastating_wounds_11th_damage_at_most_one_model() -> None:
    """24.10: a critical wound ends the attack; the target suffers mortal wounds equal to
    the weapon's D, and they can damage at most one model (the rest are lost).

    One Torrent attack S4 vs T4, D3, Devastating Wounds, into two Sv2+ W2 models:
    - wound roll 6 (1/6): D3 mortal wounds, no save; 1 (1/3) does 1, 2 or 3 (2/3) destroy
      one model — the third mortal wound is lost, it does not reach the second model;
    - wound roll 4-5 (1/3): a normal wound, saved on 2+ (fails 1/6), D3 damage capped by
      the model's 2 wounds.
    P(damage 1) = 1/6 · 1/3 + 1/3 · 1/6 · 1/3 = 2/27; P(damage 2) = 1/6 · 2/3 + 1/18 · 2/3
    = 4/27; damage is never 3 and never two models.
    """
    r = run([torrent(S=4, D="D3", abilities=["Devastating Wounds"])],
            [models(count=2, T=4, Sv=2, W=2)])
    normal = F(1, 3) * SIXTH
    damage = {1: SIXTH * F(1, 3) + normal * F(1, 3), 2: SIXTH * F(2, 3) + normal * F(2, 3)}
    damage[0] = 1 - damage[1] - damage[2]
    assert damage[1] == F(2, 27) and damage[2] == F(4, 27)
    assert_pmf(r.damage.pmf, damage)
    assert_pmf(r.models_destroyed.pmf, {0: 1 - damage[2], 1: damage[2]})
    assert r.unsaved.mean == approx(SIXTH + normal)


def test_devastating_wounds_11th_ignore_halving_and_reduction() -> None:
    """24.10 / §5.5: the mortal wounds equal the weapon's D; halving and damage reduction
    (which change an attack's damage) do not apply to them.

    One Torrent attack S4 vs T4, D2, Devastating Wounds, into one Sv2+ W4 model with
    half damage and -1 damage:
    - 6 (1/6): 2 mortal wounds;
    - 4-5 (1/3), save failed (1/6): D2 halved = 1, -1 = 0, minimum 1 → 1 damage.
    E = 1/6 · 2 + 1/18 · 1 = 7/18. (If the mortal wounds were halved: 4/18.)
    """
    r = run([torrent(S=4, D="2", abilities=["Devastating Wounds"])],
            [models(T=4, Sv=2, W=4)], half_damage=True, damage_reduction=1)
    assert_pmf(r.damage.pmf, {0: 1 - SIXTH - F(1, 18), 1: F(1, 18), 2: SIXTH})
    assert r.damage.mean == approx(F(7, 18))


def test_devastating_wounds_10th_unsaveable_damage_after_modifiers() -> None:
    """Devastating Wounds (10th): a critical wound cannot be saved (no invulnerable save
    either) and inflicts mortal wounds equal to its damage *after* modifiers (§4, 10th).

    One Torrent attack S4 vs T4, D2, into one W4 model with Sv2+ and a 2++ invulnerable
    save, half damage:
    - 6 (1/6): unsaveable; damage 2 halved → 1;
    - 4-5 (1/3): saved on 2+ (fails 1/6); damage 1.
    E = 1/6 + 1/18 = 2/9, damage is never 2 (11th would give 2 mortal wounds: 7/18).
    """
    r = run([torrent(S=4, D="2", abilities=["Devastating Wounds"])],
            [models(T=4, Sv=2, W=4, invuln=2)], rules="10th", half_damage=True)
    assert_pmf(r.damage.pmf, {0: 1 - SIXTH - F(1, 18), 1: SIXTH + F(1, 18)})
    assert r.damage.mean == approx(F(2, 9))
    assert r.unsaved.mean == approx(F(2, 9))


@pytest.mark.parametrize(
    ("keywords", "p_critical"), [(["INFANTRY"], F(1, 2)), (["VEHICLE"], F(1, 6))]
)
def test_anti_infantry(keywords: list[str], p_critical: Fraction) -> None:
    """Anti-X Y+ (24.03, §4.2): against a target with keyword X an unmodified wound roll
    of Y+ is a critical wound; otherwise only a 6 is.

    One Torrent attack S3 vs T6 (needs 6+), Anti-Infantry 4+, Devastating Wounds, D1,
    into Sv2+ W1 models. Every wound is a critical wound here (the roll needs a 6 unless
    it is critical), and a critical wound is a mortal wound: against INFANTRY the
    expected damage is 3/6 = 1/2, against a VEHICLE 1/6 (without Devastating Wounds a
    save on 2+ would cut either to a sixth).
    """
    r = run([torrent(S=3, D="1", abilities=["Anti-Infantry 4+", "Devastating Wounds"])],
            [models(count=3, T=6, Sv=2, W=1)], target_keywords=keywords)
    assert r.wounds.mean == approx(p_critical)
    assert r.damage.mean == approx(p_critical)
    assert r.weapons[0].critical_wounds == approx(p_critical)


@pytest.mark.parametrize(("charged", "p_wound"), [(True, F(2, 3)), (False, F(1, 2))])
def test_lance(charged: bool, p_wound: Fraction) -> None:
    """Lance (§5.7): +1 to the wound roll when the bearer charged, inside the ±1 cap.

    WS3+ (hit 2/3), S4 vs T4 (4+): charged → 3+ (2/3), wounds mean 2/3 · 2/3 = 4/9;
    not charged → 1/2, wounds mean 1/3. A further {"wound": +1} stays capped at +1.
    """
    melee = weapon(skill=3, S=4, range_="Melee", abilities=["Lance"])
    r = run([melee], [models(count=5)], phase="fight", context={"charged": charged},
            effects=[{"wound": 1}] if charged else [])
    assert r.wounds.mean == approx(F(2, 3) * p_wound)


def test_twin_linked_rerolls_failed_wounds() -> None:
    """Twin-linked (10th text; §4.5): the wound roll can be re-rolled, i.e. failures are.

    One Torrent attack S4 vs T4: P(wound) = 1/2 + 1/2 · 1/2 = 3/4.
    """
    r = run([torrent(S=4, abilities=["Twin-linked"])], [models(count=5)])
    assert r.wounds.mean == approx(F(3, 4))


# --- attacks characteristic abilities -------------------------------------------------


@pytest.mark.parametrize(
    ("target", "bonus"),
    [
        ([models(count=11)], 2),
        ([models(count=10)], 2),
        ([models(count=9)], 1),
        ([models(count=4)], 0),
        # §5.9: the CHARACTER counts (9 + 1 = 10 models)
        ([models(count=9), models(W=3, character=True)], 2),
    ],
)
def test_blast(target: list[Json], bonus: int) -> None:
    """Blast (24.05): +1 attack for every five models in the target unit (round down).

    A D3 Blast weapon into 11 models rolls D3 + 2: 3, 4 or 5 attacks, each 1/3.
    """
    r = run([weapon(A="D3", abilities=["Blast"])], target)
    assert_pmf(r.attacks.pmf, {bonus + k: F(1, 3) for k in (1, 2, 3)})


def test_blast_2() -> None:
    """Blast X (24.05): +X per five models. A3 Blast 2 into 12 models: 3 + 2·2 = 7."""
    r = run([weapon(A="3", abilities=["Blast 2"])], [models(count=12)])
    assert_pmf(r.attacks.pmf, {7: F(1)})


@pytest.mark.parametrize(
    ("context", "attacks"),
    [
        ({"distance": 12}, 4),  # 12 <= 24 / 2: half range
        ({"distance": 12.5}, 2),
        ({"distance": 20, "within_half_range": True}, 4),  # the flag wins
        ({}, 2),  # no distance: not within half range
    ],
)
def test_rapid_fire(context: Json, attacks: int) -> None:
    """Rapid Fire X (10th text, seed 003): within half range A is increased by X.

    Two Rapid Fire 1 weapons of range 24", A1: 2 attacks, or 4 within 12".
    """
    r = run([weapon(count=2, A="1", range_=24, abilities=["Rapid Fire 1"])],
            [models(count=10)], context=context)
    assert_pmf(r.attacks.pmf, {attacks: F(1)})


@pytest.mark.parametrize(("distance", "bonus"), [(6, 2), (7, 0)])
def test_melta_2(distance: int, bonus: int) -> None:
    """Melta X (§3): within half range the attack's Damage is increased by X.

    One Torrent attack S8 vs T4 (5/6), D6, Melta 2, range 12", no save, into a W20 model:
    at 6" (half range) E = 5/6 · (7/2 + 2) = 55/12; at 7" E = 5/6 · 7/2 = 35/12.
    """
    melta = weapon(A="1", skill=None, S=8, D="D6", range_=12, abilities=["Torrent", "Melta 2"])
    r = run([melta], [models(T=4, W=20)], context={"distance": distance})
    expected = {0: SIXTH} | {d + bonus: F(5, 36) for d in range(1, 7)}
    assert_pmf(r.damage.pmf, expected)
    assert r.damage.mean == approx(F(5, 6) * (F(7, 2) + bonus))


@pytest.mark.parametrize(("rules", "attacks"), [("10th", 2), ("11th", 3)])
def test_extra_attacks(rules: str, attacks: int) -> None:
    """Extra Attacks: 10th "the number of attacks ... cannot be modified by other rules";
    11th 24.11 has no such clause. A2 Extra Attacks weapon with {"attacks": +1}:
    2 attacks in 10th, 3 in 11th.
    """
    r = run([weapon(A="2", skill=3, range_="Melee", abilities=["Extra Attacks"])],
            [models(count=5)], phase="fight", rules=rules, effects=[{"attacks": 1}])
    assert_pmf(r.attacks.pmf, {attacks: F(1)})


# --- modifiers to hit -----------------------------------------------------------------


@pytest.mark.parametrize("rules", ["10th", "11th"])
@pytest.mark.parametrize(
    ("stationary", "effects", "p_hit"),
    [
        (True, [], F(2, 3)),  # BS4+ +1 → 3+
        (False, [], F(1, 2)),
        (True, [{"hit": 1}], F(2, 3)),  # +2 capped to +1 (§4.1)
        (True, [{"hit": -1}], F(1, 2)),  # +1 -1 = 0
    ],
)
def test_heavy(rules: str, stationary: bool, effects: list[Json], p_hit: Fraction) -> None:
    """Heavy (§5.7): +1 to hit when the unit remained stationary, inside the ±1 cap.

    BS4+: stationary → hits on 3+ (2/3); with another +1 still 3+ (net +2 capped +1);
    with a -1 the modifiers cancel (1/2).
    """
    r = run([weapon(skill=4, abilities=["Heavy"])], [models(count=5)], rules=rules,
            context={"remained_stationary": stationary}, effects=effects)
    assert r.hits.mean == approx(p_hit)


@pytest.mark.parametrize(
    "effects",
    [*itertools.permutations([{"hit": 1}, {"hit": 1}, {"hit": -1}]),
     ({"hit": 1}, {"hit": 1}), ({"hit": 3},)],
)
def test_hit_modifier_cap_is_order_independent(effects: tuple[Json, ...]) -> None:
    """§4.1: the net hit modifier is capped at +1 whatever order the effects come in.

    BS4+ with +1 +1 -1 (net +1) or +1 +1 (net +2, capped +1) or +3 (capped +1): 3+ = 2/3.
    """
    r = run([weapon(skill=4)], [models(count=5)], effects=list(effects))
    assert r.hits.mean == approx(F(2, 3))


def test_hit_modifier_cap_negative() -> None:
    """§4.1: -2 to hit is capped at -1. BS3+ with -1 -1: hits on 4+ (1/2), not 5+."""
    r = run([weapon(skill=3)], [models(count=5)], effects=[{"hit": -1}, {"hit": -1}])
    assert r.hits.mean == approx(F(1, 2))


def test_psychic_ignores_hit_modifiers_and_cover_11th() -> None:
    """Psychic (11th, §3): the attack ignores modifiers to the hit roll and to BS, so
    neither a -1 to hit nor cover's BS penalty (13.08) applies.

    BS4+ Psychic with cover and -1 to hit: hits on 4+ (1/2). Without Psychic: BS5+ with -1,
    only an unmodified 6 hits (1/6). 10th has no such rule: cover there is a save bonus,
    -1 to hit applies: 5+ (1/3).
    """
    def hits(abilities: list[str], rules: str) -> float:
        r = run([weapon(skill=4, abilities=abilities)], [models(count=5)], rules=rules,
                context={"cover": True}, effects=[{"hit": -1}])
        return r.hits.mean

    assert hits(["Psychic"], "11th") == approx(F(1, 2))
    assert hits([], "11th") == approx(SIXTH)
    assert hits(["Psychic"], "10th") == approx(F(1, 3))


@pytest.mark.parametrize(
    ("context", "abilities", "effects", "phase", "p_hit"),
    [
        ({}, [], [], "shooting", F(2, 3)),
        ({"cover": True}, [], [], "shooting", F(1, 2)),  # BS3+ → BS4+
        ({"stealth": True}, [], [], "shooting", F(1, 2)),  # Stealth = cover (24.33)
        ({"cover": True, "stealth": True}, [], [], "shooting", F(1, 2)),  # not cumulative
        ({"cover": True, "stealth": True}, ["Ignores Cover"], [], "shooting", F(2, 3)),
        # a characteristic change, outside the ±1 cap: BS4+ and -1 → 5+
        ({"cover": True}, [], [{"hit": -1}], "shooting", F(1, 3)),
        # a characteristic change, not cancelled by +1 either: BS4+ with +1 → 3+
        ({"cover": True}, [], [{"hit": 1}], "shooting", F(2, 3)),
        ({"cover": True}, [], [], "fight", F(2, 3)),  # melee: no cover (§5.11)
    ],
)
def test_cover_and_stealth_11th(
    context: Json, abilities: list[str], effects: list[Json], phase: str, p_hit: Fraction
) -> None:
    """Benefit of Cover (13.08): worsen the BS of a ranged attack by 1; Stealth (24.33)
    gives the benefit of cover, not cumulatively; Ignores Cover (24.18) removes both;
    the penalty is a characteristic change outside the ±1 modifier cap (§4, 11th).

    A BS3+ weapon hits 2/3; with cover (or Stealth, or both) BS4+: 1/2; cover and -1 to
    hit: 5+ = 1/3 (if it were a -1 modifier the net -2 would cap at -1: 1/2).
    """
    w = weapon(skill=3, abilities=abilities, range_="Melee" if phase == "fight" else 24)
    r = run([w], [models(count=5)], phase=phase, context=context, effects=effects)
    assert r.hits.mean == approx(p_hit)


@pytest.mark.parametrize(
    ("context", "abilities", "effects", "p_hit"),
    [
        ({"cover": True}, [], [], F(2, 3)),  # cover is a save bonus in 10th
        ({"stealth": True}, [], [], F(1, 2)),  # -1 to hit: 4+
        ({"stealth": True}, ["Ignores Cover"], [], F(1, 2)),  # not removed by it
        ({"stealth": True}, [], [{"hit": -1}], F(1, 2)),  # -2 capped -1
        ({"stealth": True}, [], [{"hit": 1}], F(2, 3)),  # -1 +1 = 0
    ],
)
def test_stealth_10th(
    context: Json, abilities: list[str], effects: list[Json], p_hit: Fraction
) -> None:
    """Stealth (10th): subtract 1 from the hit roll of ranged attacks (inside the ±1 cap,
    not removed by Ignores Cover). BS3+: 2/3; -1 → 4+ = 1/2."""
    r = run([weapon(skill=3, abilities=abilities)], [models(count=5)], rules="10th",
            context=context, effects=effects)
    assert r.hits.mean == approx(p_hit)


@pytest.mark.parametrize(
    ("Sv", "AP", "context", "abilities", "effects", "p_fail"),
    [
        (4, 0, {}, [], [], F(1, 2)),
        (4, 0, {"cover": True}, [], [], F(1, 3)),  # 4+ → 3+
        (3, 0, {"cover": True}, [], [], F(1, 3)),  # Sv3+ vs AP0: no bonus (not 2+)
        (3, -1, {"cover": True}, [], [], F(1, 3)),  # 4+ → 3+
        (4, 0, {"cover": True}, [], [{"save": 1}], F(1, 3)),  # cover counts in the +1 cap
        (4, 0, {"cover": True}, ["Ignores Cover"], [], F(1, 2)),
        (4, 0, {"cover": True, "stealth": True}, [], [], F(1, 3)),
    ],
)
def test_cover_10th_armour_save(
    Sv: int, AP: int, context: Json, abilities: list[str], effects: list[Json],
    p_fail: Fraction,
) -> None:
    """Benefit of Cover (10th): +1 to armour saves against ranged attacks, except for
    Sv3+ or better against AP0; it counts toward the +1 save-improvement cap (§4, 10th).

    One Torrent attack S8 vs T4 (5/6) into a W1 model: unsaved mean = 5/6 · P(save fails).
    Sv4+ AP0: 1/2, in cover 3+: 1/3. Sv3+ AP0 in cover stays 3+ (1/3, not 1/6).
    """
    r = run([torrent(S=8, AP=AP, abilities=abilities)], [models(count=5, Sv=Sv)],
            rules="10th", context=context, effects=effects)
    assert r.unsaved.mean == approx(F(5, 6) * p_fail)


def test_cover_11th_does_not_change_saves() -> None:
    """13.08: in 11th cover only worsens BS; a Torrent attack has no BS, so cover does
    nothing to it. Torrent S8 vs T4 into Sv4+: unsaved mean 5/6 · 1/2 = 5/12."""
    r = run([torrent(S=8)], [models(count=5, Sv=4)], context={"cover": True})
    assert r.unsaved.mean == approx(F(5, 12))


@pytest.mark.parametrize(
    ("rules", "p_six"), [("11th", SIXTH), ("10th", SIXTH + F(5, 6) * SIXTH)]
)
def test_snap_shooting(rules: str, p_six: Fraction) -> None:
    """Snap shooting (15.09 / 10th Fire Overwatch): only unmodified 6s hit; a lowered
    critical-hit threshold never lets a 5 hit (§5.12). Hit re-rolls are not allowed in
    11th; in 10th they are.

    BS3+ Sustained Hits 1, +1 to hit, critical hits on 5+, re-roll failed hits:
    11th: P(6) = 1/6; 10th: P(6 after re-rolling a failure) = 1/6 + 5/6 · 1/6 = 11/36.
    A 6 is still a critical hit (2 hits with Sustained Hits 1): hits pmf {0: 1-p, 2: p}.
    """
    effects = [{"snap_shooting": True}, {"reroll": "hit", "which": "failed"},
               {"critical_hit_on": 5}, {"hit": 1}]
    r = run([weapon(skill=3, abilities=["Sustained Hits 1"])], [models(count=10)],
            rules=rules, effects=effects)
    assert_pmf(r.hits.pmf, {0: 1 - p_six, 2: p_six})


@pytest.mark.parametrize(
    ("which", "p_hit"),
    [("ones", F(4, 6) + SIXTH * F(4, 6)), ("failed", F(4, 6) + F(2, 6) * F(4, 6))],
)
def test_reroll_hits_ones_vs_failed(which: str, p_hit: Fraction) -> None:
    """Re-rolls (§4.5): ``ones`` re-rolls unmodified 1s, ``failed`` every failure.

    BS3+ (4/6): ones → 4/6 + 1/6 · 4/6 = 7/9; failed → 4/6 + 2/6 · 4/6 = 8/9.
    """
    r = run([weapon(skill=3)], [models(count=5)],
            effects=[{"reroll": "hit", "which": which}])
    assert r.hits.mean == approx(p_hit)
    assert p_hit == (F(7, 9) if which == "ones" else F(8, 9))


@pytest.mark.parametrize(
    ("which", "p_wound"),
    [("ones", F(1, 2) + SIXTH * F(1, 2)), ("failed", F(1, 2) + F(1, 2) * F(1, 2))],
)
def test_reroll_wounds_ones_vs_failed(which: str, p_wound: Fraction) -> None:
    """Re-rolls (§4.5) of the wound roll. Torrent S4 vs T4 (1/2): ones → 7/12,
    failed → 3/4."""
    r = run([torrent(S=4)], [models(count=5)], effects=[{"reroll": "wound", "which": which}])
    assert r.wounds.mean == approx(p_wound)


# --- saves and damage -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("Sv", "AP", "effects", "p_fail"),
    [
        (4, 0, [{"save": 1}, {"save": 1}], F(1, 3)),  # +2 capped +1: 3+
        (4, -2, [{"save": 2}], F(2, 3)),  # 4+ AP-2 = 6+, +1 capped → 5+
        (4, 0, [{"save": -2}], F(5, 6)),  # worsening is not capped: 6+
    ],
)
def test_save_modifier_cap(Sv: int, AP: int, effects: list[Json], p_fail: Fraction) -> None:
    """Saving Throw (10th, §4.6): an improvement is capped at +1, a worsening is not.

    Torrent S8 vs T4 (5/6): unsaved mean = 5/6 · P(save fails).
    """
    r = run([torrent(S=8, AP=AP)], [models(count=5, Sv=Sv)], effects=effects, rules="10th")
    assert r.unsaved.mean == approx(F(5, 6) * p_fail)


@pytest.mark.parametrize(
    ("Sv", "AP", "effects", "p_fail"),
    [
        (4, 0, [{"save": 1}, {"save": 1}], F(1, 6)),  # +2 uncapped: 2+, only a 1 fails
        (4, -2, [{"save": 2}], F(1, 2)),  # 4+ AP-2 = 6+, +2 → 4+
        (3, 0, [{"save": 3}], F(1, 6)),  # 0+ → never better than 2+: a 1 still fails
    ],
)
def test_save_modifier_uncapped_11th(Sv: int, AP: int, effects: list[Json],
                                     p_fail: Fraction) -> None:
    """02.02.01 (11th, §6.1): only hit and wound rolls are capped at +1/-1, so save-roll
    modifiers add up; Sv "cannot be 1+ or better" and an unmodified 1 fails.

    Torrent S8 vs T4 (5/6): unsaved mean = 5/6 · P(save fails).
    """
    r = run([torrent(S=8, AP=AP)], [models(count=5, Sv=Sv)], effects=effects)
    assert r.unsaved.mean == approx(F(5, 6) * p_fail)


def test_invulnerable_save_ignores_ap() -> None:
    """§4.6: the defender uses the better of the armour save (modified by AP) and the
    invulnerable save (not modified). Sv3+ 4++ against AP-3: armour 6+, invulnerable 4+:
    fails 1/2; Torrent S8 vs T4: unsaved mean 5/6 · 1/2 = 5/12."""
    r = run([torrent(S=8, AP=-3)], [models(count=5, Sv=3, invuln=4)])
    assert r.unsaved.mean == approx(F(5, 12))


@pytest.mark.parametrize(("model_fnp", "effect_fnp"), [(5, None), (6, 5), (None, 5)])
def test_feel_no_pain_per_wound(model_fnp: int | None, effect_fnp: int | None) -> None:
    """Feel No Pain (§4.7, §5.10): rolled for each wound that would be lost; the better of
    the model's own and an effect's.

    One Torrent attack S8 vs T4 (5/6), D3, no save, into a W10 model with FNP 5+: each of
    the 3 wounds is ignored on 5+ (1/3), so the loss is Bin(3, 2/3) given a wound:
    P(0) = 1/6 + 5/6 · 1/27, P(k) = 5/6 · C(3,k) (2/3)^k (1/3)^(3-k); E = 5/6 · 2 = 5/3.
    """
    effects = [{"fnp": effect_fnp}] if effect_fnp else []
    r = run([torrent(S=8, D="3")], [models(T=4, W=10, fnp=model_fnp)], effects=effects)
    expected = {k: F(5, 6) * p for k, p in binomial(3, F(2, 3)).items()}
    expected[0] += SIXTH
    assert_pmf(r.damage.pmf, expected)
    assert r.damage.mean == approx(F(5, 3))


def test_half_damage_before_damage_reduction() -> None:
    """§4.7: additions, then halving (round up), then reductions, minimum 1.

    D6 with half damage and -1 damage: 1..6 → halved 1,1,2,2,3,3 → -1 (min 1)
    1,1,1,1,2,2: P(1) = 2/3, P(2) = 1/3, mean 4/3. (Reducing first would give
    1,1,2,3,4,5 → 1,1,1,2,2,3.) One Torrent attack S8 vs T4 (5/6), no save, W10:
    E = 5/6 · 4/3 = 10/9.
    """
    r = run([torrent(S=8, D="D6")], [models(T=4, W=10)], half_damage=True,
            damage_reduction=1)
    assert_pmf(r.damage.pmf, {0: SIXTH, 1: F(5, 6) * F(2, 3), 2: F(5, 6) * F(1, 3)})
    assert r.damage.mean == approx(F(10, 9))


def test_damage_reduction_minimum_one() -> None:
    """Damage reduction N (scenario contract): each attack's damage -N, minimum 1.

    D3 with -2 damage: 1, 2, 3 → 1, 1, 1. Two Torrent attacks S8 vs T4, no save, into a
    W10 model: damage ~ Bin(2, 5/6), mean 5/3 (unreduced: 5/6 · 2 · 2 = 10/3).
    """
    r = run([torrent(S=8, D="D3", count=2)], [models(T=4, W=10)], damage_reduction=2)
    assert_pmf(r.damage.pmf, binomial(2, F(5, 6)))


# --- allocation -----------------------------------------------------------------------


def test_wounded_model_takes_damage_first() -> None:
    """§4.8 / §5.1: within a group the wounded model takes damage first.

    Three W2 models, the one listed last has lost 1 wound. One Torrent attack S8 vs T4
    (5/6), D1, no save: it destroys the wounded model with probability 5/6 (if it went to
    an unwounded model nothing would be destroyed).
    """
    r = run([torrent(S=8)], [models(count=2, W=2), models(W=2, wounds_lost=1)])
    assert_pmf(r.models_destroyed.pmf, {0: SIXTH, 1: F(5, 6), 2: F(0), 3: F(0)})
    assert len(r.models_destroyed.pmf) == 4


def test_character_models_are_allocated_last() -> None:
    """§4.8: CHARACTER groups come after the other groups, even a wounded CHARACTER listed
    first. A wounded CHARACTER (W2, 1 lost, Sv2+) listed before two Sv7 W1 bodyguards:
    one Torrent attack S8 vs T4 (5/6), AP0, D1 goes to a bodyguard, which cannot save:
    unsaved mean 5/6 (if it went to the CHARACTER: 5/6 · 1/6 = 5/36).
    """
    r = run([torrent(S=8)], [models(T=4, Sv=2, W=2, wounds_lost=1, character=True),
                             models(count=2, T=4, Sv=7, W=1)])
    assert r.unsaved.mean == approx(F(5, 6))
    assert r.models_destroyed.mean == approx(F(5, 6))


def test_precision_allocates_to_the_character_first() -> None:
    """Precision (24.28, §5.2): the CHARACTER group becomes the current allocation group.

    Two Torrent attacks S8 vs T4 (each 5/6), D1, into 5 W1 bodyguards and a W2 CHARACTER,
    no saves. With Precision both wounds go to the CHARACTER: it is destroyed iff both
    wound (25/36), so models destroyed is {0: 11/36, 1: 25/36}. Without Precision each
    wound destroys a bodyguard: Bin(2, 5/6) = {0: 1/36, 1: 10/36, 2: 25/36}.
    """
    target = [models(count=5, T=4, W=1), models(T=4, W=2, character=True)]
    r = run([torrent(S=8, count=2, abilities=["Precision"])], target)
    assert_pmf(r.models_destroyed.pmf, {0: F(11, 36), 1: F(25, 36)})
    plain = run([torrent(S=8, count=2)], target)
    assert_pmf(plain.models_destroyed.pmf, binomial(2, F(5, 6)))


def test_multiple_toughness_attached_character_ignored() -> None:
    """05.02.01 / §4.9: an attached unit uses the highest T among its bodyguard models.

    T4 bodyguards with a T6 CHARACTER: an S4 Torrent attack wounds on 4+ (1/2), not 5+.
    The CHARACTER alone is T6: 5+ (1/3). A unit of T4 and T5 models (no CHARACTER) uses
    T5: 5+ (1/3).
    """
    attached = run([torrent(S=4)], [models(count=3, T=4), models(T=6, W=4, character=True)])
    assert attached.wounds.mean == approx(F(1, 2))
    alone = run([torrent(S=4)], [models(T=6, W=4, character=True)])
    assert alone.wounds.mean == approx(F(1, 3))
    mixed = run([torrent(S=4)], [models(count=3, T=4), models(T=5, W=3)])
    assert mixed.wounds.mean == approx(F(1, 3))


def test_damage_carries_over_between_weapons() -> None:
    """Each weapon's damage stays on the target for the next weapon (the target is one
    state carried from weapon to weapon, §5.1).

    Two different weapon lines, each one Torrent attack S8 vs T4 (5/6), D1, into one W2
    model without a save: it is destroyed iff both wound: 25/36; damage ~ Bin(2, 5/6).
    """
    first = torrent(S=8) | {"name": "first"}
    second = torrent(S=8) | {"name": "second"}
    r = run([first, second], [models(T=4, W=2)])
    assert_pmf(r.models_destroyed.pmf, {0: F(11, 36), 1: F(25, 36)})
    assert_pmf(r.damage.pmf, binomial(2, F(5, 6)))
    assert r.p_unit_destroyed == approx(F(25, 36))


def test_destroyed_unit_takes_no_further_attacks() -> None:
    """§5.4: once every model is destroyed, further attacks do nothing: no save, not
    counted as unsaved nor as damage.

    Two Torrent attacks S8 vs T4 (5/6), D1, into one W1 model without a save: the first
    wound destroys it; a second wound is not counted. unsaved = damage = {0: 1/36,
    1: 35/36} (not Bin(2, 5/6)).
    """
    r = run([torrent(S=8, count=2)], [models(T=4, W=1)])
    expected = {0: F(1, 36), 1: F(35, 36)}
    assert_pmf(r.unsaved.pmf, expected)
    assert_pmf(r.damage.pmf, expected)


# --- the attacker's own unit ----------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "keywords", "expected"),
    [
        # 11th (24.15, 06.03): fails on 1-2 (1/3), 1 mortal wound each
        ("11th", ["INFANTRY"], {0: F(4, 9), 1: F(4, 9), 2: F(1, 9)}),
        # ... 3 mortal wounds for a MONSTER or VEHICLE unit (§5.8)
        ("11th", ["VEHICLE"], {0: F(4, 9), 3: F(4, 9), 6: F(1, 9)}),
        ("11th", ["MONSTER"], {0: F(4, 9), 3: F(4, 9), 6: F(1, 9)}),
        # 10th Hazardous: fails on a 1 (1/6), 3 mortal wounds
        ("10th", ["INFANTRY"], {0: F(25, 36), 3: F(10, 36), 6: F(1, 36)}),
    ],
)
def test_hazardous(rules: str, keywords: list[str], expected: dict[int, Fraction]) -> None:
    """Hazardous: one hazard roll per Hazardous weapon that attacked (two here).

    11th: each fails with 1/3 → failures ~ Bin(2, 1/3) = 4/9, 4/9, 1/9, times 1 mortal
    wound (3 for MONSTER/VEHICLE). 10th: Bin(2, 1/6) = 25/36, 10/36, 1/36, times 3.
    """
    r = run([weapon(count=2, abilities=["Hazardous"])], [models(count=5)], rules=rules,
            attacker_keywords=keywords)
    assert_pmf(r.attacker_mortal_wounds.pmf, expected)
    assert r.attacker_mortal_wounds.mean == approx(mean_of(expected))


# --- interactions and plain effects ---------------------------------------------------


@pytest.mark.parametrize("rules", ["10th", "11th"])
def test_sustained_and_lethal_hits_only_the_critical_auto_wounds(rules: str) -> None:
    """Sustained Hits + Lethal Hits (24.36, 24.23, §4.4): the critical hit wounds
    automatically, its extra hit is not critical and rolls to wound.

    One attack BS4+ S3 vs T6 (6+ to wound = 1/6): a 6 (1/6) gives 1 automatic wound plus
    a hit wounding 1/6; a 4-5 (1/3) gives a hit wounding 1/6. P(2 wounds) = 1/36;
    P(1) = 1/6 · 5/6 + 1/3 · 1/6 = 7/36; mean = 7/36 + 2/36 = 1/4.
    """
    r = run([weapon(skill=4, S=3, abilities=["Sustained Hits 1", "Lethal Hits"])],
            [models(count=5, T=6)], rules=rules)
    assert_pmf(r.wounds.pmf, {0: F(28, 36), 1: F(7, 36), 2: F(1, 36)})
    assert r.wounds.mean == approx(F(1, 4))


def test_devastating_wounds_resolved_after_normal_damage_10th() -> None:
    """10th: Devastating Wounds are resolved after all normal damage of the attacking
    unit, even from weapons listed later ("allocated only after all other attacks";
    §4.10, §5.5).

    Target: two INFANTRY models T4 W3, no save. First weapon: one Torrent attack S4,
    Anti-Infantry 2+, Devastating Wounds, D3 (fixed): critical on 2+ (5/6) → an
    unsaveable attack of 3 damage. Second weapon: one Torrent attack S8 (5/6), D2.
    - both (25/36): the D2 attack leaves the first model on 1 wound, the critical attack
      then goes to that wounded model: 1 damage, 2 lost → damage 3, 1 model destroyed.
      (Resolved in the order listed it would be 3 + 2 = 5.)
    - only the critical (5/36): 3 → one model destroyed; only the D2 (5/36): 2.
    Damage {0: 1/36, 2: 5/36, 3: 30/36}; models destroyed {0: 6/36, 1: 30/36}.
    """
    dw = torrent(S=4, D="3", abilities=["Anti-Infantry 2+", "Devastating Wounds"])
    r = run([dw, torrent(S=8, D="2")], [models(count=2, T=4, W=3)], rules="10th",
            target_keywords=["INFANTRY"])
    assert_pmf(r.damage.pmf, {0: F(1, 36), 2: F(5, 36), 3: F(30, 36)})
    assert_pmf(r.models_destroyed.pmf, {0: F(6, 36), 1: F(30, 36)})


def test_devastating_wounds_after_the_weapon_line_11th() -> None:
    """24.10 (11th): the mortal wounds "are inflicted after resolving any normal damage
    inflicted by those attacks": after that weapon line, before the next (reference facts
    §6.3), not after the whole unit.

    The scenario of the 10th test above: the first weapon's critical (5/6) inflicts its 3
    mortal wounds at once and destroys the first model (W3); the second weapon's D2
    attack (5/6) then goes to the second model.
    - both (25/36): 3 + 2 = 5 damage, 1 model destroyed;
    - only the critical (5/36): 3, 1 destroyed; only the D2 (5/36): 2; neither (1/36): 0.
    Damage {0: 1/36, 2: 5/36, 3: 5/36, 5: 25/36}; models destroyed {0: 6/36, 1: 30/36}.
    """
    dw = torrent(S=4, D="3", abilities=["Anti-Infantry 2+", "Devastating Wounds"])
    r = run([dw, torrent(S=8, D="2")], [models(count=2, T=4, W=3)], rules="11th",
            target_keywords=["INFANTRY"])
    assert_pmf(r.damage.pmf, {0: F(1, 36), 2: F(5, 36), 3: F(5, 36), 5: F(25, 36)})
    assert_pmf(r.models_destroyed.pmf, {0: F(6, 36), 1: F(30, 36)})


@pytest.mark.parametrize(
    ("rules", "destroyed"),
    [("11th", {0: SIXTH, 1: F(5, 6)}), ("10th", {0: F(1)})],
)
def test_devastating_wounds_and_precision(rules: str, destroyed: dict[int, Fraction]) -> None:
    """§5.5: 11th Devastating-Wounds mortal wounds ignore Precision (they follow the
    mortal-wound order, 06.02: non-CHARACTER models first); 10th Devastating Wounds are
    attacks, and a Precision weapon's go to the CHARACTER.

    One Torrent attack S4, Anti-Infantry 2+ (critical on 2+: 5/6), Devastating Wounds,
    Precision, D1 into a W1 bodyguard and a W2 CHARACTER (INFANTRY, no saves).
    11th: the mortal wound destroys the bodyguard: {0: 1/6, 1: 5/6}. 10th: the CHARACTER
    loses 1 wound of 2: nothing is destroyed; damage 5/6 in both.
    """
    r = run([torrent(S=4, abilities=["Anti-Infantry 2+", "Devastating Wounds", "Precision"])],
            [models(T=4, W=1), models(T=4, W=2, character=True)], rules=rules,
            target_keywords=["INFANTRY"])
    assert_pmf(r.models_destroyed.pmf, destroyed | {1: destroyed.get(1, F(0)), 2: F(0)})
    assert r.damage.mean == approx(F(5, 6))


@pytest.mark.parametrize("rules", ["10th", "11th"])
def test_feel_no_pain_against_mortal_wounds(rules: str) -> None:
    """§4.7: Feel No Pain is rolled for each wound that would be lost, mortal wounds
    (and 10th unsaveable Devastating Wounds) included.

    One Torrent attack S4, Anti-Infantry 2+ (5/6 critical), Devastating Wounds, D3 (fixed)
    into an INFANTRY W10 model with FNP 5+: loss ~ Bin(3, 2/3) after a critical;
    E = 5/6 · 2 = 5/3.
    """
    r = run([torrent(S=4, D="3", abilities=["Anti-Infantry 2+", "Devastating Wounds"])],
            [models(T=4, Sv=2, W=10, fnp=5)], rules=rules, target_keywords=["INFANTRY"])
    expected = {k: F(5, 6) * p for k, p in binomial(3, F(2, 3)).items()}
    expected[0] += SIXTH
    assert_pmf(r.damage.pmf, expected)


@pytest.mark.parametrize(("rules", "per_critical"), [("11th", 3), ("10th", 2)])
def test_devastating_wounds_with_melta_and_half_damage(rules: str, per_critical: int) -> None:
    """§5.5: the 11th mortal-wound packet is D plus additions (Melta), not halved; in
    10th it is the damage after every modifier, halving included (3 → 2, rounding up).

    One Torrent attack S4, Anti-Infantry 2+ (5/6 critical), Devastating Wounds, Melta 2
    within half range, D1, into an INFANTRY W5 model (Sv2+) with half damage:
    11th E = 5/6 · 3 = 5/2; 10th E = 5/6 · 2 = 5/3.
    """
    w = weapon(A="1", skill=None, S=4, D="1", range_=12,
               abilities=["Torrent", "Anti-Infantry 2+", "Devastating Wounds", "Melta 2"])
    r = run([w], [models(T=4, Sv=2, W=5)], rules=rules, context={"distance": 6},
            half_damage=True, target_keywords=["INFANTRY"])
    assert_pmf(r.damage.pmf, {0: SIXTH, per_critical: F(5, 6)})


def test_plain_effects_skill_strength_ap() -> None:
    """§5.6: plain effects add to the number they name.

    BS4+ S4 AP0 into T4 Sv3+: 1/2 · 1/2 · 1/3 = 1/12 unsaved. With {"skill": -1} (BS3+,
    2/3), {"strength": 1} (S5 vs T4: 3+, 2/3) and {"ap": -1} (Sv3+ AP-1: 4+, fails 1/2):
    2/3 · 2/3 · 1/2 = 2/9.
    """
    target = [models(count=5, T=4, Sv=3, W=1)]
    plain = run([weapon(skill=4, S=4)], target)
    assert plain.unsaved.mean == approx(F(1, 12))
    r = run([weapon(skill=4, S=4)], target,
            effects=[{"skill": -1}, {"strength": 1}, {"ap": -1}])
    assert r.unsaved.mean == approx(F(2, 9))


@pytest.mark.parametrize(
    ("effect", "damage"),
    [
        # D6+1 = 2..7, halved rounding up: 1, 2, 2, 3, 3, 4
        (1, {1: F(1, 6), 2: F(2, 6), 3: F(2, 6), 4: F(1, 6)}),
        # D6 halved 1, 1, 2, 2, 3, 3, then -1 (minimum 1): 1, 1, 1, 1, 2, 2
        (-1, {1: F(4, 6), 2: F(2, 6)}),
    ],
)
def test_plain_damage_effects_and_halving(effect: int, damage: dict[int, Fraction]) -> None:
    """§5.6 / §4.7: a positive ``damage`` effect is added before halving; a negative one
    is a reduction after halving, minimum 1.

    One Torrent attack S8 vs T4 (5/6), D6, no save, into a W10 model with half damage.
    (+1 added after halving would give 2, 2, 3, 3, 4, 4.)
    """
    r = run([torrent(S=8, D="D6")], [models(T=4, W=10)], half_damage=True,
            effects=[{"damage": effect}])
    expected = {d: F(5, 6) * p for d, p in damage.items()} | {0: SIXTH}
    assert_pmf(r.damage.pmf, expected)


@pytest.mark.parametrize(
    ("effect", "attacks"),
    [(1, {2: F(1, 3), 3: F(1, 3), 4: F(1, 3)}), (-2, {1: F(1)})],
)
def test_plain_attacks_effect(effect: int, attacks: dict[int, Fraction]) -> None:
    """§5.6: {"attacks": n} adds n attacks per weapon, A never below 1.
    A D3 weapon with +1: 2, 3, 4 (each 1/3); with -2: 1 - 2, 2 - 2, 3 - 2 → all 1."""
    r = run([weapon(A="D3")], [models(count=5)], effects=[{"attacks": effect}])
    assert_pmf(r.attacks.pmf, attacks)


def test_group_holding_a_wounded_model_goes_first() -> None:
    """§4.8: the allocation order starts with the non-CHARACTER groups holding a wounded
    model, then the other groups in the order given.

    Group 1 (listed first): two Sv2+ W2 models. Group 2: two Sv7 W2 models, one of them
    wounded (1 lost). One Torrent attack S8 vs T4 (5/6), D1 goes to the wounded Sv7
    model: unsaved 5/6 and it is destroyed (into group 1 it would be 5/6 · 1/6, and
    nothing destroyed).
    """
    r = run([torrent(S=8)], [models(count=2, Sv=2, W=2),
                             models(count=2, Sv=7, W=2, wounds_lost=1)])
    assert r.unsaved.mean == approx(F(5, 6))
    assert r.models_destroyed.mean == approx(F(5, 6))


def test_reroll_any_fishes_for_sustained_hits() -> None:
    """Re-roll ``any`` (§4.5): the attacker also re-rolls non-critical successes when a
    fresh roll is worth more, and says so in the notes.

    BS2+ Sustained Hits 2: a 6 is worth 3 hits, 2-5 one hit; a fresh roll is worth
    4/6 · 1 + 1/6 · 3 = 7/6 > 1, so 1-5 are re-rolled and only a first 6 is kept.
    P(3 hits) = 1/6 + 5/6 · 1/6 = 11/36; P(1) = 5/6 · 4/6 = 20/36; P(0) = 5/6 · 1/6
    = 5/36; mean 53/36 (re-rolling only failures: 49/36).
    """
    r = run([weapon(skill=2, abilities=["Sustained Hits 2"])], [models(count=10)],
            effects=[{"reroll": "hit", "which": "any"}])
    assert_pmf(r.hits.pmf, {0: F(5, 36), 1: F(20, 36), 3: F(11, 36)})
    assert r.hits.mean == approx(F(53, 36))
    assert any("fish" in n for n in r.notes)


# --- golden cases as data (tests/golden/scenarios/<rules>_<name>.json) -----------------

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "scenarios"
GOLDEN_FILES = sorted(GOLDEN.glob("*.json"))


def test_golden_cases_exist_for_both_rule_sets() -> None:
    assert {f.name.split("_", 1)[0] for f in GOLDEN_FILES} == {"10th", "11th"}


@pytest.mark.parametrize("path", GOLDEN_FILES, ids=[f.stem for f in GOLDEN_FILES])
def test_golden_case(path: Path) -> None:
    """Each file holds a scenario, its hand derivation and the expected numbers:
    ``"stage.mean"`` or ``"stage.pmf"`` (``{"value": "p"}``). A value written as a
    fraction (``"5/4"``) is compared to 1e-12; a decimal (``"0.5877"``) to its places."""
    case = json.loads(path.read_text(encoding="utf-8"))
    assert case["derivation"] and case["cite"]
    assert case["scenario"]["rules"] == path.name.split("_", 1)[0]
    result = calculate(case["scenario"])
    for key, want in case["expect"].items():
        stage, what = key.split(".")
        dist = getattr(result, stage)
        if what == "pmf":
            assert_pmf(dist.pmf, {int(v): F(p) for v, p in want.items()})
        elif "." in want:
            places = len(want.split(".")[1])
            assert round(dist.mean, places) == float(want), key
        else:
            assert dist.mean == approx(F(want)), key
