"""Hand-checked examples: every named effect, in every rules version it exists in.

Each test builds a small scenario (``tests/effects/__init__.py``: a GENESTEALER CULTS
INFANTRY attacker, 20 T4 W1 models with no save unless said otherwise) and compares the
result with a number derived in the docstring and recomputed here with ``Fraction``.
Rules texts are those of ``shared/spec/rules_inventory.md`` §C, §E, §F; "§4.5" etc. refer
to ``shared/spec/reference_facts.md``.

Recurring per-die facts (one D6):

* BS/WS X+ hits on faces X..6: BS4+ -> 3/6, BS3+ -> 4/6, BS2+ -> 5/6; +1 to Hit lowers
  the face needed by one (an unmodified 1 always fails).
* Re-rolling 1s: p + p/6. Re-rolling failures: p + (1 - p) p.
* Sustained Hits 1: a critical hit counts as 2 hits. Lethal Hits: a critical hit wounds
  automatically (no wound roll).
* Wound roll: S = T -> 4+ (1/2); S < T -> 5+ (1/3); 2S <= T -> 6+ (1/6).

``COVERED`` records which rules versions each effect's examples run in; the last test
checks that it includes every version of every named effect (``NamedEffect.rules``).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any, TypeVar

import pytest

from effects import (
    GSC,
    approx,
    binomial_pmf,
    capped,
    mean_of,
    run,
    scenario,
    target,
    weapon,
)
from tactica import Scenario, calculate
from tactica.effects import EFFECTS

F = Fraction
BOTH = ("11th", "10th")
COVERED: dict[str, set[str]] = {}
Fn = TypeVar("Fn", bound=Callable[..., Any])


def covers(name: str, *versions: str) -> Callable[[Fn], Fn]:
    """Record that the decorated test checks ``name`` under ``versions``."""

    def mark(fn: Fn) -> Fn:
        COVERED.setdefault(name, set()).update(versions)
        return fn

    return mark


def pmf_approx(values: list[Fraction]) -> Any:
    return pytest.approx([float(v) for v in values], abs=1e-12)


# --- Host of Ascension ----------------------------------------------------------------


@covers("Primed and Readied", *BOTH)
@pytest.mark.parametrize("rules", BOTH)
def test_primed_and_readied_with_sustained_hits(rules: str) -> None:
    """Primed and Readied (E.4 #40): critical hits on an unmodified 5+.

    6 attacks BS4+ [SUSTAINED HITS 1]: faces 5, 6 are critical (2 hits each), face 4 is a
    plain hit. E[hits] = 6 (1/6 * 1 + 2/6 * 2) = 6 (1/2 + 2/6 * 1) = 5; without the
    stratagem 6 (2/6 + 1/6 * 2) = 4. 2CP.
    """
    w = weapon(A="1", count=6, abilities=["Sustained Hits 1"])
    base = run(w, rules=rules)
    r = run(w, rules=rules, effects=["Primed and Readied"])
    assert base.hits.mean == approx(6 * (F(2, 6) + F(1, 6) * 2))
    assert r.hits.mean == approx(6 * (F(1, 6) * 1 + F(2, 6) * 2))
    assert r.hits.mean == approx(5)
    assert r.effects_applied == ("Primed and Readied",)
    assert r.cp_spent == 2


@pytest.mark.parametrize("rules", BOTH)
def test_primed_and_readied_with_lethal_hits(rules: str) -> None:
    """Primed and Readied + [LETHAL HITS]: S3 against T6 wounds only on a 6.

    Per attack (BS4+): critical hit (5, 6: 2/6) wounds automatically; plain hit (4: 1/6)
    wounds on 6+ (1/6). 6 attacks: E[wounds] = 6 (2/6 + 1/6 * 1/6) = 13/6. (11th: Lethal
    Hits is optional, and an automatic wound beats a 1/6 wound roll, so it is taken.)
    """
    r = run(weapon(count=6, S=3, abilities=["Lethal Hits"]), rules=rules,
            tgt=target(T=6), effects=["Primed and Readied"])
    assert r.wounds.mean == approx(6 * (F(2, 6) + F(1, 6) * F(1, 6)))


@covers("Coordinated Trap", *BOTH)
@pytest.mark.parametrize("rules", BOTH)
@pytest.mark.parametrize("phase", ["shooting", "fight"])
def test_coordinated_trap(rules: str, phase: str) -> None:
    """Coordinated Trap (E.4 #39): +1 to the Wound roll (shooting or fight), 2CP.

    6 attacks BS/WS3+ S4 against T5: hits 6 * 4/6 = 4; wounds on 5+, with +1 on 4+ (1/2):
    E[wounds] = 4 * 1/2 = 2 (without: 4 * 1/3 = 4/3).
    """
    w = weapon(count=6, skill=3)
    r = run(w, rules=rules, phase=phase, tgt=target(T=5), effects=["Coordinated Trap"])
    assert r.hits.mean == approx(6 * F(4, 6))
    assert r.wounds.mean == approx(6 * F(4, 6) * F(1, 2))
    assert run(w, rules=rules, phase=phase, tgt=target(T=5)).wounds.mean == approx(
        6 * F(4, 6) * F(1, 3))
    assert r.cp_spent == 2


@covers("A Deadly Snare", *BOTH)
@pytest.mark.parametrize("rules", BOTH)
def test_a_deadly_snare_side_distribution(rules: str) -> None:
    """A Deadly Snare (E.4 #41): the charged GSC INFANTRY unit rolls a D6: 1 nothing,
    2-4 D3 mortal wounds, 5+ 3 mortal wounds, to the charging unit (the attacker here).

    P(0) = 1/6; P(1) = P(2) = 3/6 * 1/3 = 1/6; P(3) = 3/6 * 1/3 + 2/6 = 1/2.
    Mean = 3/6 * 2 + 2/6 * 3 = 2. The attack itself is unchanged. 1CP.
    """
    kw = dict(rules=rules, phase="fight", charged=True,
              tgt=target(keywords=[GSC, "INFANTRY"]), keywords=["INFANTRY"])
    w = weapon(count=6)
    r = run(w, effects=["A Deadly Snare"], **kw)
    (side,) = r.other_mortal_wounds
    assert "A Deadly Snare" in side.label
    assert list(side.distribution.pmf) == pmf_approx([F(1, 6), F(1, 6), F(1, 6), F(1, 2)])
    assert side.distribution.mean == approx(F(3, 6) * 2 + F(2, 6) * 3)
    assert r.damage.pmf == run(w, **kw).damage.pmf
    assert r.cp_spent == 1


@covers("A Perfect Ambush", *BOTH)
@pytest.mark.parametrize("rules", BOTH)
def test_a_perfect_ambush(rules: str) -> None:
    """A Perfect Ambush (F.1): arrived as Reinforcements -> [SUSTAINED HITS 1] and
    [IGNORES COVER].

    6 attacks BS4+ S4 AP0 against T4 Sv5+ models in cover. Ignores Cover removes cover in
    both versions (11th: no BS penalty; 10th: no +1 save), so hits 6 (2/6 * 1 + 1/6 * 2)
    = 4, wounds 4 * 1/2 = 2, unsaved 2 * 4/6 = 4/3.
    Without it: 11th BS5+ -> hits 6 * 2/6 = 2, unsaved 2 * 1/2 * 4/6 = 2/3; 10th hits 3,
    cover makes the save 4+ -> unsaved 3 * 1/2 * 1/2 = 3/4.
    """
    kw = dict(rules=rules, tgt=target(Sv=5), cover=True)
    w = weapon(count=6)
    r = run(w, effects=["A Perfect Ambush"], arrived_from_reserves=True, **kw)
    assert r.hits.mean == approx(6 * (F(2, 6) + F(1, 6) * 2))
    assert r.unsaved.mean == approx(2 * F(4, 6))
    base = run(w, **kw).unsaved.mean
    assert base == approx(F(2, 3) if rules == "11th" else F(3, 4))
    assert r.cp_spent == 0


@covers("Assassination Edict", *BOTH)
@pytest.mark.parametrize("rules", BOTH)
@pytest.mark.parametrize("how", ["character model", "CHARACTER keyword"])
def test_assassination_edict(rules: str, how: str) -> None:
    """Assassination Edict (F.2 #1): +1 to Hit against a CHARACTER unit (a unit with an
    attached CHARACTER model counts). 6 attacks BS4+: 6 * 4/6 = 4 hits."""
    tgt = (target(extra_models=[{"name": "leader", "T": 4, "Sv": 7, "W": 3,
                                 "character": True}])
           if how == "character model" else target(keywords=["CHARACTER"]))
    r = run(weapon(count=6), rules=rules, tgt=tgt, effects=["Assassination Edict"])
    assert r.hits.mean == approx(6 * F(4, 6))


@covers("A Chink in Their Armour", *BOTH)
@pytest.mark.parametrize("rules", BOTH)
def test_a_chink_in_their_armour(rules: str) -> None:
    """A Chink in Their Armour (F.2 #3): after arriving as Reinforcements, ranged weapons
    have [LETHAL HITS]. 6 attacks BS4+ S3 against T6 (wounds on 6+):
    E[wounds] = 6 (1/6 + 2/6 * 1/6) = 4/3 (without: 6 * 1/2 * 1/6 = 1/2)."""
    w = weapon(count=6, S=3)
    r = run(w, rules=rules, tgt=target(T=6), arrived_from_reserves=True,
            effects=["A Chink in Their Armour"])
    assert r.wounds.mean == approx(6 * (F(1, 6) + F(2, 6) * F(1, 6)))
    assert run(w, rules=rules, tgt=target(T=6)).wounds.mean == approx(F(1, 2))


# --- Xenocreed Congregation -------------------------------------------------------------


@covers("Vengeance for the Martyr!", *BOTH)
@pytest.mark.parametrize("rules", BOTH)
def test_vengeance_for_the_martyr_rerolls_ones(rules: str) -> None:
    """Vengeance for the Martyr! (E.4 #46): Neophyte Hybrids re-roll Hit rolls of 1.
    6 attacks BS4+: 6 (1/2 + 1/6 * 1/2) = 7/2 hits. 1CP."""
    r = run(weapon(count=6), rules=rules, name="Neophyte Hybrids",
            effects=["Vengeance for the Martyr!"])
    assert r.hits.mean == approx(6 * (F(1, 2) + F(1, 6) * F(1, 2)))
    assert r.cp_spent == 1


@pytest.mark.parametrize("rules", BOTH)
@pytest.mark.parametrize("martyr", ["Primus", "Magus", "Acolyte Iconward", "primus"])
def test_vengeance_for_the_martyr_full_reroll(rules: str, martyr: str) -> None:
    """If the destroyed model was a MAGUS, PRIMUS or ACOLYTE ICONWARD the whole Hit roll
    is re-rolled ("Vengeance for the Martyr!: Primus"); an ACOLYTE HYBRIDS unit is
    eligible by keyword. 6 attacks BS4+: 6 (1/2 + 1/2 * 1/2) = 9/2 hits."""
    r = run(weapon(count=6), rules=rules, keywords=[GSC, "INFANTRY", "ACOLYTE HYBRIDS"],
            effects=[f"Vengeance for the Martyr!: {martyr}"])
    assert r.hits.mean == approx(6 * (F(1, 2) + F(1, 2) * F(1, 2)))
    assert r.effects_applied == (f"Vengeance for the Martyr! ({martyr})",)


@covers("Denunciator of Tyrants", *BOTH)
@pytest.mark.parametrize("rules", BOTH)
def test_denunciator_of_tyrants(rules: str) -> None:
    """Denunciator of Tyrants (F.2 #7): +1 to Hit and +1 to Wound against a CHARACTER.
    6 attacks BS4+ S4 against T4: hits on 3+ (4/6), wounds on 3+ (4/6):
    E[wounds] = 6 * 4/6 * 4/6 = 8/3."""
    r = run(weapon(count=6), rules=rules, tgt=target(keywords=["CHARACTER"]),
            effects=["Denunciator of Tyrants"])
    assert r.hits.mean == approx(6 * F(4, 6))
    assert r.wounds.mean == approx(6 * F(4, 6) * F(4, 6))


# --- Biosanctic Broodsurge --------------------------------------------------------------


@covers("Saintly Paroxysm", *BOTH)
@pytest.mark.parametrize("rules", BOTH)
def test_saintly_paroxysm(rules: str) -> None:
    """Saintly Paroxysm (E.4 #24): D6, on 2+ the attacking unit suffers D3 mortal wounds,
    if it destroyed the GENESTEALER CULTS CHARACTER. Given that: P(0) = 1/6, P(1) = P(2) =
    P(3) = 5/18, mean 5/3. The target is a CHARACTER unit (every model is a CHARACTER);
    2 attacks BS4+ S4 vs T4, no save: each destroys a model with 1/2 * 1/2 = 1/4, so a
    CHARACTER is destroyed with 1 - (3/4)^2 = 7/16: P(0) = 9/16 + 7/16 * 1/6, P(k) =
    7/16 * 5/18, mean 7/16 * 5/3 = 35/48. 1CP."""
    tgt = target(keywords=[GSC, "INFANTRY", "CHARACTER"])
    r = run(weapon(count=2), rules=rules, phase="fight", keywords=["INFANTRY"], tgt=tgt,
            effects=["Saintly Paroxysm"])
    (side,) = r.other_mortal_wounds
    p = F(7, 16)
    assert list(side.distribution.pmf) == pmf_approx(
        [1 - p + p * F(1, 6)] + [p * F(5, 18)] * 3)
    assert side.distribution.mean == approx(p * F(5, 3))
    assert r.cp_spent == 1


@pytest.mark.parametrize("rules", BOTH)
def test_saintly_paroxysm_patriarch(rules: str) -> None:
    """"Saintly Paroxysm: Patriarch": 2D3 instead of D3. 2D3 takes 2..6 with weights
    1, 2, 3, 2, 1 (/9), so given the CHARACTER destroyed P(0) = 1/6 and P(k) = 5/6 *
    w_k / 9, mean 5/6 * 4 = 10/3; weighted by P(destroyed) = 7/16 as above."""
    tgt = target(keywords=[GSC, "CHARACTER"])
    r = run(weapon(count=2), rules=rules, phase="fight", keywords=["INFANTRY"], tgt=tgt,
            effects=["Saintly Paroxysm: Patriarch"])
    (side,) = r.other_mortal_wounds
    p = F(7, 16)
    expected = [1 - p + p * F(1, 6), F(0)] + [p * F(5, 6) * F(w, 9) for w in (1, 2, 3, 2, 1)]
    assert list(side.distribution.pmf) == pmf_approx(expected)
    assert side.distribution.mean == approx(p * F(10, 3))


# --- Brood Brother Auxilia --------------------------------------------------------------


@covers("Symbiotic Destruction", *BOTH)
@pytest.mark.parametrize("rules", BOTH)
@pytest.mark.parametrize("keywords", [[GSC, "INFANTRY"], ["ASTRA MILITARUM", "INFANTRY"]])
def test_symbiotic_destruction(rules: str, keywords: list[str]) -> None:
    """Symbiotic Destruction (E.4 #26): the ASTRA MILITARUM and the GSC unit re-roll Wound
    rolls of 1. 6 attacks BS4+ S4 against T4: hits 3, wound 1/2 + 1/6 * 1/2 = 7/12:
    E[wounds] = 3 * 7/12 = 7/4."""
    r = run(weapon(count=6), rules=rules, keywords=keywords,
            effects=["Symbiotic Destruction"])
    assert r.wounds.mean == approx(6 * F(1, 2) * F(7, 12))
    assert r.cp_spent == 1


@covers("Acceptable Losses", *BOTH)
@pytest.mark.parametrize("rules", BOTH)
def test_acceptable_losses(rules: str) -> None:
    """Acceptable Losses (E.4 #28): per friendly unit engaged with the target, D6: on 5+
    it suffers D3+1 mortal wounds. P(0) = 4/6; P(2) = P(3) = P(4) = 2/6 * 1/3 = 1/9;
    mean 2/6 * 3 = 1. 2CP."""
    r = run(weapon(count=6), rules=rules, keywords=["ASTRA MILITARUM", "INFANTRY"],
            effects=["Acceptable Losses"])
    (side,) = r.other_mortal_wounds
    assert "Acceptable Losses" in side.label
    assert list(side.distribution.pmf) == pmf_approx([F(4, 6), F(0), F(1, 9), F(1, 9),
                                                      F(1, 9)])
    assert side.distribution.mean == approx(1)
    assert r.cp_spent == 2


@covers("Integrated Tactics", *BOTH)
@pytest.mark.parametrize("rules", BOTH)
def test_integrated_tactics(rules: str) -> None:
    """Integrated Tactics (F.1): GSC ranged attacks against the marked target +1 to Hit.
    6 attacks BS4+: 6 * 4/6 = 4 hits. A detachment rule: 0CP."""
    r = run(weapon(count=6), rules=rules, effects=["Integrated Tactics"])
    assert r.hits.mean == approx(4)
    assert r.cp_spent == 0


@covers("Firepoint Commander", *BOTH)
@pytest.mark.parametrize("rules", BOTH)
def test_firepoint_commander(rules: str) -> None:
    """Firepoint Commander (F.2 #11): Fire Overwatch hits on an unmodified 5+.
    Criticals stay on the 6: 6 attacks [SUSTAINED HITS 1]: face 5 is 1 hit, face 6 is 2:
    E[hits] = 6 (1/6 + 2/6) = 3. CP: Fire Overwatch 1 + the enhancement 0."""
    r = run(weapon(count=6, skill=3, abilities=["Sustained Hits 1"]), rules=rules,
            effects=["Fire Overwatch", "Firepoint Commander"])
    assert r.hits.mean == approx(6 * (F(1, 6) * 1 + F(1, 6) * 2))
    assert r.cp_spent == 1


@covers("Martial Espionage", *BOTH)
@pytest.mark.parametrize("rules", BOTH)
def test_martial_espionage(rules: str) -> None:
    """Martial Espionage (F.2 #14): AP of an AM INFANTRY unit's ranged weapons improved by
    1. 6 attacks BS4+ S4 AP0 against T4 Sv4+: wounds 3/2; save 4+ -> 5+ with AP-1:
    unsaved 3/2 * 4/6 = 1 (without: 3/2 * 1/2 = 3/4)."""
    kw = dict(rules=rules, keywords=["ASTRA MILITARUM", "INFANTRY"], tgt=target(Sv=4))
    r = run(weapon(count=6), effects=["Martial Espionage"], **kw)
    assert r.unsaved.mean == approx(F(3, 2) * F(4, 6))
    assert run(weapon(count=6), **kw).unsaved.mean == approx(F(3, 4))


# --- Cult Unveiled and Boarding Actions -------------------------------------------------


@covers("For the Brood", *BOTH)
@pytest.mark.parametrize("rules", BOTH)
def test_for_the_brood(rules: str) -> None:
    """For the Brood (E.4 #30): per friendly GSC unit engaged with the target, D6: 2-4 ->
    1 mortal wound, 5+ -> 2. pmf (1/6, 3/6, 2/6); mean 3/6 + 2 * 2/6 = 7/6. 1CP."""
    r = run(weapon(count=6), rules=rules, game_mode="boarding actions",
            effects=["For the Brood"])
    (side,) = r.other_mortal_wounds
    assert "For the Brood" in side.label
    assert list(side.distribution.pmf) == pmf_approx([F(1, 6), F(3, 6), F(2, 6)])
    assert side.distribution.mean == approx(F(7, 6))
    assert r.hits.mean == approx(3)  # the attack itself is unchanged


@covers("Lurking Menace", *BOTH)
@pytest.mark.parametrize("rules", BOTH)
@pytest.mark.parametrize(("distance", "hits"), [(12.0, F(3)), (None, F(3)), (3.0, F(4)),
                                                (2.0, F(4))])
def test_lurking_menace(rules: str, distance: float | None, hits: Fraction) -> None:
    """Lurking Menace (E.4 #32): -1 to Hit against the GSC unit unless the attacking model
    is within 3". 6 attacks BS3+: with -1 faces 4-6 hit: 6 * 3/6 = 3; within 3" (3" or
    less) no change: 6 * 4/6 = 4. An unknown distance counts as not within 3"."""
    r = run(weapon(count=6, skill=3), rules=rules, keywords=["INFANTRY"],
            tgt=target(keywords=[GSC, "INFANTRY"]), distance=distance,
            game_mode="boarding actions", effects=["Lurking Menace"])
    assert r.hits.mean == approx(hits)
    within = any("within 3" in n for n in r.notes)
    assert within == (distance is not None and distance <= 3)
    assert r.cp_spent == 1


@covers("Battlefield Command", *BOTH)
@pytest.mark.parametrize("rules", BOTH)
def test_battlefield_command(rules: str) -> None:
    """Battlefield Command (E.3 #18): the unit counts as led for Cult Demagogue: +1 to
    Hit. 6 attacks BS4+: 4 hits. 1CP; the result says why."""
    r = run(weapon(count=6), rules=rules, game_mode="boarding actions",
            effects=["Battlefield Command"])
    assert r.hits.mean == approx(4)
    assert r.cp_spent == 1
    assert any("Cult Demagogue" in n for n in r.notes)


# --- Final Day ----------------------------------------------------------------------------


@covers("Hyperferocity", *BOTH)
@pytest.mark.parametrize("rules", BOTH)
@pytest.mark.parametrize(("nearby", "p_wound"), [(False, F(7, 12)), (True, F(3, 4))])
def test_hyperferocity(rules: str, nearby: bool, p_wound: Fraction) -> None:
    """Hyperferocity (E.4 #35): re-roll Wound rolls of 1; the whole Wound roll if a
    friendly TYRANIDS unit is within 6" of the target (a full re-roll re-rolls failures,
    §4.5). 6 attacks WS3+ S4 against T4: hits 4; wound 1/2 + 1/6 * 1/2 = 7/12 (ones) or
    1/2 + 1/2 * 1/2 = 3/4 (failed): E[wounds] = 7/3 or 3."""
    r = run(weapon(count=6, skill=3), rules=rules, phase="fight", tyranids_nearby=nearby,
            effects=["Hyperferocity"])
    assert r.wounds.mean == approx(6 * F(4, 6) * p_wound)


@covers("Psionic Parasitism", *BOTH)
@pytest.mark.parametrize("rules", BOTH)
def test_psionic_parasitism(rules: str) -> None:
    """Psionic Parasitism (F.1): the TYRANIDS unit that fed has +1 to Hit.
    6 attacks WS3+ -> 2+: 6 * 5/6 = 5 hits."""
    r = run(weapon(count=6, skill=3), rules=rules, phase="fight",
            keywords=["TYRANIDS", "MONSTER"], effects=["Psionic Parasitism"])
    assert r.hits.mean == approx(5)


@covers("Catalyst", *BOTH)
@pytest.mark.parametrize("rules", BOTH)
@pytest.mark.parametrize("name", ["Catalyst", "Catalyst (Aura)"])
def test_catalyst(rules: str, name: str) -> None:
    """Catalyst (Aura) (C): GSC attacks against an enemy within 6" of a friendly TYRANIDS
    unit +1 to Hit. 6 attacks BS4+: 4 hits."""
    r = run(weapon(count=6), rules=rules, tyranids_nearby=True, effects=[name])
    assert r.hits.mean == approx(4)
    assert r.effects_applied == ("Catalyst",)


@covers("Inhuman Integration", *BOTH)
@pytest.mark.parametrize("rules", BOTH)
def test_inhuman_integration(rules: str) -> None:
    """Inhuman Integration (F.2 #16): [SUSTAINED HITS 1] against an enemy within 6" of a
    friendly TYRANIDS unit. 6 attacks BS4+: 6 (1/6 * 2 + 2/6) = 4 hits."""
    r = run(weapon(count=6), rules=rules, tyranids_nearby=True,
            effects=["Inhuman Integration"])
    assert r.hits.mean == approx(6 * (F(1, 6) * 2 + F(2, 6)))


# --- Outlander Claw -----------------------------------------------------------------------


@covers("Close-Range Shoot-out", *BOTH)
@pytest.mark.parametrize("rules", BOTH)
@pytest.mark.parametrize("distance", [12.0, 18.0])
def test_close_range_shoot_out(rules: str, distance: float) -> None:
    """Close-Range Shoot-out (E.4 #44): a MOUNTED unit's ranged weapons have [LETHAL HITS]
    against a target within 18". 6 attacks BS4+ S3 against T6 (6+ to wound):
    E[wounds] = 6 (1/6 + 2/6 * 1/6) = 4/3."""
    r = run(weapon(count=6, S=3), rules=rules, keywords=["ASTRA MILITARUM", "MOUNTED"],
            tgt=target(T=6), distance=distance, effects=["Close-range shoot-out"])
    assert r.wounds.mean == approx(6 * (F(1, 6) + F(2, 6) * F(1, 6)))
    assert r.effects_applied == ("Close-Range Shoot-out",)


@covers("Cartographic Data-leech", *BOTH)
@pytest.mark.parametrize("rules", BOTH)
def test_cartographic_data_leech(rules: str) -> None:
    """Cartographic Data-leech (F.2 #9): BS +1 for the weapons the TRANSPORT has "as a
    result of the Firing Deck ability" only. Its own gun (6 attacks BS4+: 3 hits) is
    unchanged; 6 passengers' guns BS4+ -> 3+: 6 * 4/6 = 4 hits. Total 7."""
    doc = scenario(weapon(count=6, name="hull gun"), weapon(count=6, name="autogun"),
                   rules=rules, keywords=["VEHICLE", "TRANSPORT"],
                   effects=["Cartographic Data-leech"])
    doc["attacker"]["firing_deck"] = 12
    doc["attacker"]["weapons"][1]["firing_deck"] = True
    r = calculate(doc)
    assert [w.hits for w in r.weapons] == [approx(3), approx(4)]
    assert r.hits.mean == approx(7)


def test_cartographic_data_leech_needs_firing_deck_weapons() -> None:
    """Without Firing Deck weapons the enhancement has nothing to improve: refused with
    the reason."""
    with pytest.raises(ValueError, match="no Firing Deck weapons"):
        run(weapon(count=6), keywords=["VEHICLE", "TRANSPORT"],
            effects=["Cartographic Data-leech"])


@covers("Assault Commando", *BOTH)
@pytest.mark.parametrize("rules", BOTH)
def test_assault_commando(rules: str) -> None:
    """Assault Commando (F.2 #10): disembarked this turn -> re-roll the Hit roll.
    6 attacks BS4+: 6 (1/2 + 1/2 * 1/2) = 9/2 hits."""
    r = run(weapon(count=6), rules=rules, disembarked=True, effects=["Assault Commando"])
    assert r.hits.mean == approx(F(9, 2))


# --- unit abilities -----------------------------------------------------------------------


@covers("Cult Demagogue", *BOTH)
@pytest.mark.parametrize("rules", BOTH)
@pytest.mark.parametrize("leader", ["Primus", "primus"])
def test_cult_demagogue(rules: str, leader: str) -> None:
    """Cult Demagogue (C, Primus): +1 to Hit while a Primus leads the unit.
    6 attacks BS4+: 4 hits."""
    r = run(weapon(count=6), rules=rules, led_by=[leader], effects=["Cult Demagogue"])
    assert r.hits.mean == approx(4)


@covers("Synapse", *BOTH)
@pytest.mark.parametrize("rules", BOTH)
@pytest.mark.parametrize("faction", [None, "TYRANIDS"])
def test_synapse(rules: str, faction: str | None) -> None:
    """Synapse (C, Tyranids army rule): +1 Strength for melee attacks.
    6 attacks WS3+ S4 against T5: hits 4; S5 = T5 wounds on 4+: E[wounds] = 4 * 1/2 = 2
    (S4 would wound on 5+: 4/3)."""
    r = run(weapon(count=6, skill=3), rules=rules, phase="fight",
            keywords=["TYRANIDS", "MONSTER"], tgt=target(T=5), army_faction=faction,
            effects=["Synapse"])
    assert r.wounds.mean == approx(4 * F(1, 2))


@covers("Damaged: 1-8 wounds remaining", *BOTH)
@pytest.mark.parametrize("rules", BOTH)
@pytest.mark.parametrize("wounds_left", [1, 8])
@pytest.mark.parametrize("name", ["Damaged: 1-8 wounds remaining", "Damaged"])
def test_damaged(rules: str, wounds_left: int, name: str) -> None:
    """Banehammer DAMAGED (C): with 1-8 wounds remaining, -1 to Hit.
    6 attacks BS3+: faces 4-6 hit: 6 * 3/6 = 3."""
    r = run(weapon(count=6, skill=3), rules=rules,
            keywords=["VEHICLE", "TITANIC", "BANEHAMMER"],
            attacker_wounds_left=wounds_left, effects=[name])
    assert r.hits.mean == approx(3)
    assert r.effects_applied == ("Damaged: 1-8 wounds remaining",)  # the name, whole


# --- core stratagems --------------------------------------------------------------------


@covers("Command Re-roll", *BOTH)
@pytest.mark.parametrize("rules", BOTH)
def test_command_reroll_one_hit_die(rules: str) -> None:
    """Command Re-roll (E.1 #1, 15.02): with several dice rolled together only one die
    is re-rolled. 3 attacks BS4+: if any die missed (7/8), one miss is re-rolled:
    E[hits] = 3/2 + 7/8 * 1/2 = 31/16. Exact pmf: 0 hits: 1/8 * 1/2 = 1/16; 1: 1/8 * 1/2
    + 3/8 * 1/2 = 4/16; 2: 3/8 * 1/2 + 3/8 * 1/2 = 6/16; 3: 1/8 + 3/8 * 1/2 = 5/16.
    Each hit then wounds T4 on 4+: E[wounds] = 31/32. 1CP."""
    r = run(weapon(count=3), rules=rules, effects=["Command Re-roll"])
    assert r.hits.mean == approx(F(3, 2) + F(7, 8) * F(1, 2))
    assert list(r.hits.pmf) == pmf_approx([F(1, 16), F(4, 16), F(6, 16), F(5, 16)])
    assert r.wounds.mean == approx(F(31, 32))
    assert r.cp_spent == 1


@pytest.mark.parametrize("rules", BOTH)
def test_command_reroll_wound_die(rules: str) -> None:
    """"Command Re-roll: wound": 3 Torrent attacks (3 automatic hits) S4 against T4:
    E[wounds] = 3/2 + P(at least one failure) 1/2 = 3/2 + 7/8 * 1/2 = 31/16."""
    w = weapon(count=3, skill=None, abilities=["Torrent"])
    r = run(w, rules=rules, effects=["Command Re-roll: wound"])
    assert r.hits.mean == approx(3)
    assert r.wounds.mean == approx(F(31, 16))
    assert r.effects_applied == ("Command Re-roll (wound)",)


def test_command_reroll_random_number_of_attacks() -> None:
    """D3 attacks BS4+ with Command Re-roll (hit): for k dice E = k/2 + (1 - 2^-k)/2:
    k = 1: 3/4, k = 2: 11/8, k = 3: 31/16; averaged: (12 + 22 + 31)/16/3 = 65/48."""
    r = run(weapon(A="D3"), effects=["Command Re-roll: hit"])
    expected = sum((F(k, 2) + (1 - F(1, 2**k)) / 2) / 3 for k in (1, 2, 3))
    assert expected == F(65, 48)
    assert r.hits.mean == approx(expected)


@pytest.mark.parametrize(("rules", "expected"), [
    ("11th", F(1)), ("10th", 1 + (1 - F(1, 6) ** 6) * F(1, 6))])
def test_command_reroll_while_snap_shooting(rules: str, expected: Fraction) -> None:
    """Command Re-roll (hit) during Fire Overwatch. 6 attacks, a hit only on a 6 (1/6).
    11th: snap shooting forbids hit re-rolls (15.09): E[hits] = 6/6 = 1. 10th: allowed;
    if any of the 6 dice missed (1 - (1/6)^6), one is re-rolled (hits on 1/6):
    E[hits] = 1 + (1 - (1/6)^6)/6."""
    r = run(weapon(count=6, skill=3), rules=rules,
            effects=["Fire Overwatch", "Command Re-roll"])
    assert r.hits.mean == approx(expected)


def test_command_reroll_goes_to_the_weapon_that_gains_most() -> None:
    """Two weapon lines, one attack each, BS4+ S4 against T4 W6 models, no save: A is D1,
    B is D3. A re-rolled failed hit die is worth a fresh die: 1/2 * 1/2 * 1 = 1/4 for A,
    1/2 * 1/2 * 3 = 3/4 for B. The stratagem is used just after a roll (15.02), the lines
    rolled in order A, B: after A misses, waiting for B is worth P(B misses) * 3/4 = 3/8 >
    1/4, so the attacker keeps it for B. E[damage] = A: 1/4 + B: (1/2 + 1/2 * 1/2) * 1/2
    * 3 = 1/4 + 9/8 = 11/8. 4 damage at most: no overkill."""
    r = run(weapon(name="A"), weapon(name="B", D="3"), tgt=target(count=10, W=6),
            effects=["Command Re-roll"])
    assert r.damage.mean == approx(F(1, 4) + F(3, 4) * F(1, 2) * 3)
    assert any("Command Re-roll" in n and "B" in n for n in r.notes)


def test_command_reroll_roll_by_roll() -> None:
    """The same lines rolled B first: after B misses (1/2), using it on B (worth 3/4)
    beats waiting for A (1/2 * 1/4 = 1/8); if B hits, it is kept for A. E[damage] =
    B: (1/2 + 1/2 * 1/2) * 1/2 * 3 = 9/8; A: 1/4 + P(B hit) * P(A missed) * 1/4 =
    1/4 + 1/2 * 1/2 * 1/4 = 5/16; total 23/16 (better than choosing one line beforehand:
    11/8)."""
    r = run(weapon(name="B", D="3"), weapon(name="A"), tgt=target(count=10, W=6),
            effects=["Command Re-roll"])
    assert r.damage.mean == approx(F(9, 8) + F(5, 16))
    assert r.hits.mean == approx(F(3, 4) + F(1, 2) + F(1, 2) * F(1, 2) * F(1, 2))
    sampled = mc(weapon(name="B", D="3"), weapon(name="A"), tgt=target(count=10, W=6),
                 effects=["Command Re-roll"])  # the Monte Carlo twin follows the same policy
    assert abs(sampled.damage.mean - 23 / 16) < 0.03


@covers("Fire Overwatch", *BOTH)
@pytest.mark.parametrize(("rules", "p_hit"), [("11th", F(1, 6)),
                                              ("10th", F(1, 6) + F(5, 6) * F(1, 6))])
def test_fire_overwatch_snap_shooting(rules: str, p_hit: Fraction) -> None:
    """Fire Overwatch (E.1 #6 / E.2 #11): only an unmodified 6 hits, whatever the BS and
    modifiers (BS3+ and +1 to Hit here). A hit re-roll of failures: not allowed while
    snap shooting in 11th (15.09: 6 attacks -> 6 * 1/6 = 1 hit), allowed in 10th
    (§5.12: 1/6 + 5/6 * 1/6 = 11/36 -> 11/6 hits). 1CP."""
    effects: list[Any] = [{"hit": 1}, {"reroll": "hit", "which": "failed"}, "Fire Overwatch"]
    r = run(weapon(count=6, skill=3), rules=rules, effects=effects)
    assert r.hits.mean == approx(6 * p_hit)
    assert r.cp_spent == 1
    assert any("re-roll" in n for n in r.notes) == (rules == "11th")


@pytest.mark.parametrize("rules", BOTH)
def test_fire_overwatch_with_primed_and_readied(rules: str) -> None:
    """FAQ (E.4 #40): Primed and Readied does not work while snap shooting, so a 5 is
    neither a critical nor a hit. 6 attacks [SUSTAINED HITS 1]: only a 6 (2 hits):
    E[hits] = 6 * 1/6 * 2 = 2. CP 2. (Snap shooting given as a plain modifier: with Fire
    Overwatch itself the stratagem is refused, its WHEN being the Shooting or Fight phase,
    15.01.)"""
    r = run(weapon(count=6, skill=3, abilities=["Sustained Hits 1"]), rules=rules,
            effects=[{"snap_shooting": True}, "Primed and Readied"])
    assert r.hits.mean == approx(2)
    assert r.cp_spent == 2


@covers("Smokescreen", "10th")
def test_smokescreen_10th_cover_and_stealth() -> None:
    """Smokescreen (E.2 #13), 10th: Benefit of Cover (+1 armour save) and Stealth (-1 to
    Hit). 6 attacks BS3+ S4 AP-1 against T4 Sv4+ SMOKE models: hits on 4+ (3/6), wounds
    1/2, save 4+ -1 AP +1 cover = 4+ (1/2): E[unsaved] = 6 * 1/2 * 1/2 * 1/2 = 3/4.
    Without: 6 * 4/6 * 1/2 * 4/6 = 4/3."""
    kw = dict(rules="10th", tgt=target(Sv=4, keywords=["VEHICLE", "SMOKE"]))
    w = weapon(count=6, skill=3, AP=-1)
    r = run(w, effects=["Smokescreen"], **kw)
    assert r.hits.mean == approx(3)
    assert r.unsaved.mean == approx(F(3, 4))
    assert run(w, **kw).unsaved.mean == approx(F(4, 3))


@covers("Smokescreen", "11th")
@pytest.mark.parametrize("already", [{}, {"cover": True}, {"cover": True, "stealth": True}])
def test_smokescreen_11th_one_bs_penalty(already: dict[str, bool]) -> None:
    """Smokescreen, 11th: Stealth is the benefit of cover (24.33), which worsens BS by 1
    (13.08) and does not add to terrain cover. Same attack: BS3+ -> 4+ (1/2), no save
    bonus: E[unsaved] = 6 * 1/2 * 1/2 * 4/6 = 1, whether or not the target was already
    in cover."""
    tgt = target(Sv=4, keywords=["VEHICLE", "SMOKE"])
    r = run(weapon(count=6, skill=3, AP=-1), tgt=tgt, effects=["Smokescreen"], **already)
    assert r.hits.mean == approx(3)
    assert r.unsaved.mean == approx(1)


def test_smokescreen_11th_ignores_cover() -> None:
    """11th: Stealth being cover, [IGNORES COVER] removes Smokescreen entirely:
    6 * 4/6 * 1/2 * 4/6 = 4/3."""
    tgt = target(Sv=4, keywords=["SMOKE"])
    r = run(weapon(count=6, skill=3, AP=-1, abilities=["Ignores Cover"]), tgt=tgt,
            effects=["Smokescreen"])
    assert r.unsaved.mean == approx(F(4, 3))


@covers("Grenade", *BOTH)
@pytest.mark.parametrize(("rules", "name"), [("10th", "Grenade"), ("11th", "Explosives"),
                                             ("11th", "Grenade")])
def test_grenade(rules: str, name: str) -> None:
    """Grenade (E.2 #15; 11th name 15.05 Explosives, either name known in both): six D6,
    each 4+ inflicts 1 mortal wound, before the attacks.
    Against W1 models each mortal wound is one model: MW ~ Binomial(6, 1/2), mean 3.
    Plus one attack BS4+ S4 against T4, no save: 1/4 more. Damage pmf = Binomial(6, 1/2)
    convolved with (3/4, 1/4); mean 13/4; P(0) = 1/64 * 3/4 = 3/256. 1CP."""
    r = run(weapon(), rules=rules, keywords=[GSC, "INFANTRY", "GRENADES"],
            effects=[name])
    assert r.effects_applied == ("Grenade",)
    mw = binomial_pmf(6, F(1, 2))
    expected = [F(0)] * 8
    for k, p in enumerate(mw):
        expected[k] += p * F(3, 4)
        expected[k + 1] += p * F(1, 4)
    assert list(r.damage.pmf) == pmf_approx(expected)
    assert r.damage.mean == approx(F(13, 4))
    assert r.models_destroyed.mean == approx(F(13, 4))
    assert r.cp_spent == 1


def test_grenade_mortal_wounds_spill_over_before_the_attacks() -> None:
    """Mortal wounds are applied one at a time, spilling over (06.02), before the attack.
    10 models W2: k grenade mortal wounds (Binomial(6, 1/2)) destroy floor(k/2) models
    and leave one wounded if k is odd; the attack (1 damage with probability 1/4) then
    goes to the wounded model first. Models destroyed = floor((k + a)/2), a ~
    Bernoulli(1/4); damage = k + a: mean 13/4."""
    r = run(weapon(), keywords=[GSC, "GRENADES"], tgt=target(count=10, W=2),
            effects=["Grenade"])
    mw = binomial_pmf(6, F(1, 2))
    killed = sum(p * (F(3, 4) * (k // 2) + F(1, 4) * ((k + 1) // 2))
                 for k, p in enumerate(mw))
    assert r.damage.mean == approx(F(13, 4))
    assert r.models_destroyed.mean == approx(killed)


def test_grenade_mortal_wounds_and_feel_no_pain() -> None:
    """Feel No Pain is rolled for every wound lost, mortal wounds included (§4.7).
    W1 models with FNP 5+: each grenade die inflicts a lost wound with probability
    1/2 * 4/6 = 1/3 (mean 6/3 = 2); the attack 1/4 * 4/6 = 1/6. E[damage] = 13/6."""
    tgt = target()
    tgt["models"][0]["fnp"] = 5
    r = run(weapon(), keywords=[GSC, "GRENADES"], tgt=tgt, effects=["Grenade"])
    assert r.damage.mean == approx(6 * F(1, 2) * F(4, 6) + F(1, 4) * F(4, 6))


@covers("Crushing Impact", "11th")
def test_crushing_impact() -> None:
    """Crushing Impact (E.1 #4, 15.06): D6 equal to the model's T (7 here): each 5+ = 1
    mortal wound to the target, each 1 = 1 to your unit, at most 6 each.
    Target: min(Binomial(7, 1/3), 6): mean 7/3 - (1/3)^7 (only 7 successes is cut to 6).
    Your unit: min(Binomial(7, 1/6), 6): mean 7/6 - (1/6)^7.
    Plus one attack WS4+ S4 against T4: 1/4. 1CP."""
    r = run(weapon(), phase="fight", keywords=["MONSTER"], charged=True,
            attacker_toughness=7, effects=["Crushing Impact"])
    to_target = capped(binomial_pmf(7, F(1, 3)), 6)
    assert mean_of(to_target) == F(7, 3) - F(1, 3) ** 7
    assert r.damage.mean == approx(mean_of(to_target) + F(1, 4))
    (side,) = r.other_mortal_wounds
    assert "your unit" in side.label
    self_pmf = capped(binomial_pmf(7, F(1, 6)), 6)
    assert list(side.distribution.pmf) == pmf_approx(self_pmf)
    assert side.distribution.mean == approx(F(7, 6) - F(1, 6) ** 7)
    assert r.cp_spent == 1


def test_tank_shock_is_crushing_impact_in_11th() -> None:
    """Errata (004): "The Tank Shock Stratagem is the same as the Crushing Impact
    stratagem" - naming Tank Shock in an 11th scenario applies Crushing Impact. T5:
    target mean 5/3 (no cap reached), plus 1/4 from the attack."""
    r = run(weapon(), phase="fight", keywords=["VEHICLE"], charged=True,
            attacker_toughness=5, effects=["Tank Shock"])
    assert r.effects_applied == ("Crushing Impact",)
    assert r.damage.mean == approx(F(5, 3) + F(1, 4))


@covers("Tank Shock", "10th")
def test_tank_shock_10th() -> None:
    """Tank Shock (E.2 #14, 10th): D6 equal to the VEHICLE model's T (7): each 5+ = 1
    mortal wound, at most 6; no mortal wounds to your own unit (that is 11th Crushing
    Impact). Damage mean 7/3 - (1/3)^7 + 1/4 (one attack WS4+ S4 against T4); nothing in
    ``other_mortal_wounds``; effects_applied ("Tank Shock",); 1CP."""
    r = run(weapon(), rules="10th", phase="fight", keywords=["VEHICLE"], charged=True,
            attacker_toughness=7, effects=["Tank Shock"])
    assert r.effects_applied == ("Tank Shock",)
    assert r.damage.mean == approx(F(7, 3) - F(1, 3) ** 7 + F(1, 4))
    assert r.other_mortal_wounds == ()
    assert r.cp_spent == 1


def test_tank_shock_10th_entry_computes_the_10th_rule() -> None:
    """The catalogue's 10th Tank Shock entry on its own (looked up in ``EFFECTS``, not by
    name): mortal wounds before the attacks = min(Binomial(7, 1/3), 6), nothing to the
    attacker."""
    entry = next(e for e in EFFECTS if e.name == "Tank Shock")
    assert entry.rules == ("10th",)
    s = Scenario.model_validate(scenario(weapon(), rules="10th", phase="fight",
                                         keywords=["VEHICLE"], charged=True,
                                         attacker_toughness=7))
    assert entry.check(s) == []
    assert entry.apply is not None
    out = entry.apply(s, None)
    ((label, pmf),) = out.mortal_before
    assert label == "Tank Shock"
    assert list(pmf) == pmf_approx(capped(binomial_pmf(7, F(1, 3)), 6))
    assert out.side == ()


@covers("Counter-offensive", *BOTH)
@pytest.mark.parametrize("rules", BOTH)
@pytest.mark.parametrize("name", ["Counter-offensive", "Counteroffensive"])
def test_counter_offensive_not_calculated(rules: str, name: str) -> None:
    """Counter-offensive (E.1 #8 / E.2 #17): fight order only. The odds are those of the
    attack without it (6 attacks WS4+: 3 hits); it is listed under ``not_calculated``
    and its 2CP are counted."""
    r = run(weapon(count=6), rules=rules, phase="fight", effects=[name])
    assert r.hits.mean == approx(3)
    assert any(x.startswith("Counter-offensive") for x in r.not_calculated)
    assert r.effects_applied == ("Counter-offensive",)
    assert r.cp_spent == 2


@covers("Epic Challenge", *BOTH)
@pytest.mark.parametrize("rules", BOTH)
def test_epic_challenge_precision(rules: str) -> None:
    """Epic Challenge (E.1 #2, 15.03): the CHARACTER's melee weapons gain [PRECISION].
    Target: 3 bodyguard models W1 and a CHARACTER model W3 (all T4, no save). One attack
    WS2+ S8 D3 (2+ to wound): unsaved with probability 5/6 * 5/6 = 25/36. With Precision
    it goes to the CHARACTER (3 damage); without, to a W1 bodyguard (excess lost):
    E[damage] = 3 * 25/36 = 25/12 versus 25/36."""
    tgt = target(count=3, extra_models=[{"name": "leader", "T": 4, "Sv": 7, "W": 3,
                                         "character": True}])
    kw = dict(phase="fight", keywords=[GSC, "INFANTRY", "CHARACTER"], tgt=tgt, rules=rules)
    w = weapon(skill=2, S=8, D="3")
    r = run(w, effects=["Epic Challenge"], **kw)
    assert r.damage.mean == approx(3 * F(25, 36))
    assert run(w, **kw).damage.mean == approx(F(25, 36))
    assert r.cp_spent == 1


# --- stacking and bookkeeping -----------------------------------------------------------


@pytest.mark.parametrize("rules", BOTH)
def test_hit_bonuses_capped_at_plus_one(rules: str) -> None:
    """Primed and Readied + a plain +1 to Hit + Cult Demagogue (+1): the net +2 is capped
    at +1 (§4.1). 6 attacks BS4+ [SUSTAINED HITS 1]: face 2 misses (2 + 1 < 4), faces 3-4
    hit, 5-6 are critical: E[hits] = 6 (2/6 + 2/6 * 2) = 6 (uncapped it would be 7).
    CP: 2."""
    r = run(weapon(count=6, abilities=["Sustained Hits 1"]), rules=rules, led_by=["Primus"],
            effects=["Primed and Readied", {"hit": 1}, "Cult Demagogue"])
    assert r.hits.mean == approx(6 * (F(2, 6) + F(2, 6) * 2))
    assert r.cp_spent == 2
    assert r.effects_applied == ("Primed and Readied", "Cult Demagogue")


def test_battlefield_command_and_cult_demagogue_capped() -> None:
    """Battlefield Command (+1) and Cult Demagogue (+1): +1 in all. 6 attacks BS4+:
    4 hits, not 5."""
    r = run(weapon(count=6), led_by=["Primus"], game_mode="boarding actions",
            effects=["Battlefield Command", "Cult Demagogue"])
    assert r.hits.mean == approx(4)


def test_two_hit_rerolls_use_the_stronger() -> None:
    """Vengeance for the Martyr! (re-roll 1s) and Assault Commando (re-roll failures):
    a die is re-rolled at most once, under the stronger policy (§4.5). 6 attacks BS4+:
    6 (1/2 + 1/2 * 1/2) = 9/2 (not 7/2, and no second re-roll). CP: 1."""
    r = run(weapon(count=6), name="Neophyte Hybrids", disembarked=True,
            effects=["Vengeance for the Martyr!", "Assault Commando"])
    assert r.hits.mean == approx(F(9, 2))
    assert r.cp_spent == 1


def test_two_wound_rerolls_use_the_stronger() -> None:
    """Symbiotic Destruction (1s) with a [TWIN-LINKED] weapon (failures): failures win.
    6 attacks BS4+ S4 against T4: 3 hits * (1/2 + 1/2 * 1/2) = 9/4 wounds."""
    r = run(weapon(count=6, abilities=["Twin-linked"]), effects=["Symbiotic Destruction"])
    assert r.wounds.mean == approx(F(9, 4))


def test_non_combat_rule_listed_not_calculated() -> None:
    """A seed rule with no combat effect (Insane Bravery: battle-shock) changes nothing,
    costs nothing in the result and is listed under ``not_calculated``."""
    r = run(weapon(count=6), effects=["Insane Bravery"])
    assert r.hits.mean == approx(3)
    assert r.not_calculated == ("Insane Bravery: not a combat rule (battle-shock)",)
    assert r.effects_applied == ()
    assert r.cp_spent == 0


def test_cp_spent_sums_and_effects_listed_in_order() -> None:
    """Primed and Readied (2) + Coordinated Trap (2) + Command Re-roll (1) = 5CP; all three
    listed in the order given, with the parameter. 3 attacks BS4+ S4 against T4:
    critical hits change nothing here (no critical-hit ability); hits 31/16 (one die
    re-rolled, see above); each hit wounds on 3+ (4+ and +1): E[wounds] = 31/16 * 2/3."""
    r = run(weapon(count=3),
            effects=["Primed and Readied", "Coordinated Trap", "Command Re-roll: hit"])
    assert r.cp_spent == 5
    assert r.effects_applied == ("Primed and Readied", "Coordinated Trap",
                                 "Command Re-roll (hit)")
    assert r.hits.mean == approx(F(31, 16))
    assert r.wounds.mean == approx(F(31, 16) * F(2, 3))


def test_named_effects_match_names_loosely() -> None:
    """Names are case- and punctuation-insensitive: "PRIMED AND READIED" and
    "coordinated-trap" are the stratagems. 6 attacks BS4+ S4 against T5: 3 hits, wounds
    on 4+ with the +1: 3/2."""
    r = calculate(scenario(weapon(count=6), tgt=target(T=5),
                           effects=["PRIMED AND READIED", "coordinated-trap"]))
    assert r.effects_applied == ("Primed and Readied", "Coordinated Trap")
    assert r.wounds.mean == approx(3 * F(1, 2))


# --- the Monte Carlo method computes the same effects -------------------------------------
# 200,000 trials: every mean below has a standard deviation per trial under 1.5, so the
# sample mean is within 0.02 of the exact value except with negligible probability
# (0.02 is over 5 standard errors).

MC = {"method": "monte-carlo", "trials": 200_000, "seed": 2024}


def mc(*weapons: Any, **kwargs: Any) -> Any:
    return calculate({**scenario(*weapons, **kwargs), **MC})


def test_monte_carlo_primed_and_readied() -> None:
    """Control: a modifier-type effect. As in the exact example: E[hits] = 5."""
    r = mc(weapon(count=6, abilities=["Sustained Hits 1"]), effects=["Primed and Readied"])
    assert abs(r.hits.mean - 5) < 0.02
    assert r.cp_spent == 2


def test_monte_carlo_grenade_mortal_wounds() -> None:
    """Grenade under Monte Carlo: the 6D6 mortal wounds (mean 3) precede the attack
    (1/4): E[damage] = 13/4, as in the exact example."""
    r = mc(weapon(), keywords=[GSC, "GRENADES"], effects=["Grenade"])
    assert abs(r.damage.mean - 13 / 4) < 0.02


def test_monte_carlo_command_reroll() -> None:
    """Command Re-roll under Monte Carlo: 3 attacks BS4+: E[hits] = 31/16."""
    r = mc(weapon(count=3), effects=["Command Re-roll"])
    assert abs(r.hits.mean - 31 / 16) < 0.02


def test_monte_carlo_crushing_impact() -> None:
    """Crushing Impact under Monte Carlo: damage 7/3 - (1/3)^7 + 1/4, and the mortal
    wounds to your own unit are reported (mean 7/6 - (1/6)^7), as in the exact example."""
    r = mc(weapon(), phase="fight", keywords=["MONSTER"], charged=True,
           attacker_toughness=7, effects=["Crushing Impact"])
    assert abs(r.damage.mean - float(F(7, 3) - F(1, 3) ** 7 + F(1, 4))) < 0.02
    assert len(r.other_mortal_wounds) == 1
    assert abs(r.other_mortal_wounds[0].distribution.mean
               - float(F(7, 6) - F(1, 6) ** 7)) < 0.02


def test_monte_carlo_reports_side_distributions() -> None:
    """For the Brood under Monte Carlo: the side distribution is a fixed pmf (no sampling
    needed): (1/6, 3/6, 2/6)."""
    r = mc(weapon(count=6), game_mode="boarding actions", effects=["For the Brood"])
    (side,) = r.other_mortal_wounds
    assert list(side.distribution.pmf) == pmf_approx([F(1, 6), F(3, 6), F(2, 6)])


def test_every_named_effect_has_an_example_in_each_of_its_versions() -> None:
    """Every NamedEffect is covered above in every rules version it exists in."""
    missing = {e.name: sorted(set(e.rules) - COVERED.get(e.name, set())) for e in EFFECTS}
    assert {k: v for k, v in missing.items() if v} == {}


@pytest.mark.parametrize(("effect", "expected"), [
    ("Epic Challenge: Bonesword", F(25, 72) + F(25, 36)),
    ("Epic Challenge", F(25, 72) + F(47, 72) * F(25, 72) + F(25, 72) * F(25, 36)),
])
def test_epic_challenge_only_the_named_weapons(effect: str, expected: Fraction) -> None:
    """15.03: only the CHARACTER model's weapons gain [PRECISION]. Bonesword and Claws, A1
    WS2+ S6 AP-2 D1 each, into 2 models T3 Sv7 W1 and a CHARACTER T3 Sv2+ W1. Each attack
    hits and wounds with 5/6 * 5/6 = 25/36; the CHARACTER saves on 4+ (2+ with AP-2).
    Named: the Bonesword goes to the CHARACTER (kills 25/72), the Claws to a model (25/36).
    Unnamed: both are Precision; the Claws go to the CHARACTER while it lives (47/72)."""
    scen = scenario(
        {"name": "Bonesword", "count": 1, "A": "1", "skill": 2, "S": 6, "AP": -2, "D": "1",
         "abilities": []},
        {"name": "Claws", "count": 1, "A": "1", "skill": 2, "S": 6, "AP": -2, "D": "1",
         "abilities": []},
        phase="fight", keywords=["CHARACTER", "INFANTRY"],
        tgt={"name": "target", "keywords": [], "models": [
            {"name": "model", "count": 2, "T": 3, "Sv": 7, "W": 1},
            {"name": "Leader", "count": 1, "T": 3, "Sv": 2, "W": 1, "character": True}]},
        effects=[effect])
    assert calculate(scen).models_destroyed.mean == approx(expected)


def test_command_reroll_passes_over_a_line_that_cannot_fail() -> None:
    """A Torrent line never misses (01.05.01), so Command Re-roll (hit) waits for the
    next line. Torrent A2 S4 into T4, no save: 2 hits, 2 * 1/2 = 1 damage; then one
    BS4+ attack: hits 1/2 + 1/2 * 1/2 = 3/4, damage 3/4 * 1/2 = 3/8. Total 11/8."""
    r = run(weapon(name="Flamer", A="2", skill=None, abilities=["Torrent"]),
            weapon(name="Gun"), tgt=target(count=10, W=6),
            effects=["Command Re-roll: hit"])
    assert r.hits.mean == approx(2 + F(3, 4))
    assert r.damage.mean == approx(1 + F(3, 8))


@pytest.mark.parametrize(("rules", "name", "found"), [
    ("10th", "Crushing Impact", "Tank Shock"), ("11th", "Tank Shock", "Crushing Impact"),
    ("11th", "Explosives", "Grenade"), ("10th", "Explosives", "Grenade")])
def test_core_stratagem_names_of_both_editions(rules: str, name: str, found: str) -> None:
    """The 11th core stratagems' names (15.06 Crushing Impact, Explosives) are known
    beside the 10th ones (Tank Shock, Grenade): each finds its edition's rule."""
    from tactica.effects import find_effect

    assert find_effect(name, rules)[0].name == found
