"""A seeded random sample of 30 modelled records over at least 12 factions (issue 24),
each checked by hand against its effect code and notes, with the expected value computed
by ``record_oracle`` from the modifiers read off the record (written in ``CHECKS``).

The sample: the modelled records of the installed dataset (wh40kdc 1.4.5) with an effect,
sorted by (kind, key), ``random.Random(24).sample(..., 30)`` (the pool of issue 24: the
Feel No Pain against mortal wounds only, modelled since, is checked record by record in
``test_record_limits``). A new dataset version gives
another sample: the test is then skipped (``pinned_dataset``).

Baseline: 10 models x A1, BS/WS4+, S4 AP0 D1 against 20 models T4 Sv7 W1 (20 models:
no overkill), unless the check says otherwise. Conditions a scenario cannot state (an
objective, the battle round, a model being the leader) are applied with a note, as the
calculator does; those it can state (a charge, "below half strength":
``context.below_strength``) are given.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

import pytest

from tactica import calculate

from . import approx, scenario, target, weapon
from .record_oracle import Attack

pytest.importorskip("wh40kdc")

from tactica.effects.dataset import dataset_effects
from tactica.loaders.wh40kdc_rules import dataset_rules

pytestmark = pytest.mark.usefixtures("pinned_dataset")


@dataclass(frozen=True)
class Check:
    """One record checked by hand: what is named, on which units, and the expected
    attack (``expected``) with the modifiers read off the record's effect code."""

    name: str
    keywords: tuple[str, ...]
    expected: Attack
    defender: tuple[str, ...] = ()
    phase: str = "shooting"
    line: dict[str, Any] = field(default_factory=dict)
    tgt: dict[str, Any] = field(default_factory=dict)
    context: dict[str, Any] = field(default_factory=dict)
    #: mean damage per unsaved wound (a D2 weapon, W3 models...)
    per_wound: int = 1


AA = ("ADEPTUS ASTARTES",)
BA = ("BLOOD ANGELS", "ADEPTUS ASTARTES", "JUMP PACK")
BASE = Attack(10, 4, 4, 0, 4, 7)


def base(**changes: Any) -> Attack:
    return Attack(**{**BASE.__dict__, **changes})


CHECKS: dict[str, Check] = {
    # roll-modifier wound +1 on the unit
    "crucible-of-battle-firestorm-assault-force": Check(
        "Crucible of Battle", (*AA, "INFANTRY"), base(wound_mod=1)),
    # choice of bare keyword grants, ranged: the Lethal Hits option
    "vindictive-artillerists-madcap-meks": Check(
        "Vindictive Artillerists: Lethal Hits", ("ORKS",), base(lethal=True)),
    # [PRECISION] only: allocation, no change to the odds against one-profile models
    "contempt-for-rivals-kabalite-agonysts": Check(
        "Contempt for Rivals", ("DRUKHARI",), base()),
    # Stealth on the bearer's unit (11th 24.33: Stealth is cover, BS worsened by 1)
    "ghostweave-cloak-vanguard-spearhead": Check(
        "Ghostweave Cloak", ("ORKS",), base(skill=5), defender=AA),
    # melee: +1 S, AP "add -1" (improved by 1), [PRECISION]; target Sv3+
    "blade-of-saint-ellynor-army-of-faith": Check(
        "Blade of Saint Ellynor", ("ADEPTA SORORITAS",),
        base(Sv=3, S_mod=1, AP_mod=-1), phase="fight", tgt={"Sv": 3}),
    # ability-grant of the Stealth ability (its effect: -1 to hit attacks on the unit)
    "electromiasmic-brazier-luminen-auto-choir": Check(
        "Electromiasmic Brazier", ("ORKS",), base(hit_mod=-1),
        defender=("ADEPTUS MECHANICUS", "TECH-PRIEST")),
    # W +2 on the bearer: D3 attacks then take 3 wounds from a W3 model, not 1 of 1
    "blasphemous-engine-infernal-lance": Check(
        "Blasphemous Engine", ("ORKS",), base(), defender=("CHAOS KNIGHTS",),
        line={"D": "3"}, per_wound=3),
    # [ASSAULT] (no change) and [LETHAL HITS] for a GUIDED unit
    "montka/killing-blow": Check(
        "Killing Blow", ("T'AU EMPIRE", "GUIDED"), base(lethal=True)),
    # [LANCE] and [ANTI-CHAOS 5+] (anti_keyword/anti_threshold) on melee weapons, T8 CHAOS
    "archangels-shard-the-angelic-host": Check(
        "Archangel's Shard", BA, base(T=8, crit_wound=5), defender=("CHAOS",),
        phase="fight", tgt={"T": 8}),
    # +1 D melee: D2 against W2 models
    "shadow-of-abomination-encarmine-speartip": Check(
        "Shadow of Abomination", BA, base(), phase="fight", tgt={"W": 2}, per_wound=2),
    # melee +1 S, +1 A (the 5+ invulnerable save is the Orks unit's own, as target)
    "waaagh": Check("Waaagh!", ("ORKS",), base(S_mod=1, A_mod=1), phase="fight"),
    # T +1 on the unit: S4 into T5 wounds on 5+
    "hardened-resolve-tharanatoi-hammerblow": Check(
        "Hardened Resolve", ("ORKS",), base(T=5), defender=("ADEPTUS CUSTODES", "TERMINATOR")),
    # ranged +1 to wound against a unit that is neither MONSTER nor VEHICLE
    "kustom-dakka-shoota-boyz": Check("Kustom Dakka", ("ORKS",), base(wound_mod=1)),
    # [ASSAULT] for ORKS INFANTRY: no change to the odds
    "shoota-boyz/dakka-dakka-dakka-shoota-boyz": Check(
        "Dakka! Dakka! Dakka! (Shoota Boyz)", ("ORKS", "INFANTRY"), base()),
    # Feel No Pain 3+ (the unit is not Riled Up), fight phase
    "brute-bosses/ard-as-nails-brute-bosses": Check(
        "'Ard As Nails", ("ADEPTUS ASTARTES",), base(fnp=3), defender=("ORKS",),
        phase="fight"),
    # melee re-roll of failed hits; failed wounds when below half strength (stated)
    "righteous-vengeance-hallowed-martyrs": Check(
        "Righteous Vengeance", ("ADEPTA SORORITAS",),
        base(reroll_hit="failed", reroll_wound="failed"), phase="fight",
        context={"below_strength": "half"}),
    # melee AP "add -1": improved by 1, target Sv3+
    "blades-of-valour-bastion-task-force": Check(
        "Blades of Valour", AA, base(Sv=3, AP_mod=-1), phase="fight", tgt={"Sv": 3}),
    # re-roll any Hit roll against the designated unit (a failed one is re-rolled)
    "pinpoint-counter-offensive-montka": Check(
        "Pinpoint Counter-offensive", ("T'AU EMPIRE",), base(reroll_hit="failed")),
    # +1 to hit; +1 to wound when below half strength (stated)
    "heroes-of-the-chapter-1st-company-task-force": Check(
        "Heroes of the Chapter", (*AA, "TERMINATOR"), base(hit_mod=1, wound_mod=1),
        context={"below_strength": "half"}),
    # [LETHAL HITS] for an ADEPTUS ASTARTES VEHICLE near the Techmarine bearer
    "target-augury-web-ironstorm-spearhead": Check(
        "Target Augury Web", (*AA, "VEHICLE"), base(lethal=True)),
    # against a CHARACTER: re-roll hit and wound rolls of 1
    "prioritised-victim-kabalite-agonysts": Check(
        "Prioritised Victim", ("DRUKHARI",), base(reroll_hit="ones", reroll_wound="ones"),
        defender=("CHARACTER",)),
    # charged: melee re-roll failed hits, wound rolls of 1
    "legion-of-excess/seductive-gambit": Check(
        "Seductive Gambit", ("LEGIONES DAEMONICA",),
        base(reroll_hit="failed", reroll_wound="ones"), phase="fight",
        context={"charged": True}),
    # [ASSAULT] (and +3" Move): no change to the odds; the bearer leads the unit
    "nomadic-hunter-kroot-hunting-pack": Check(
        "Nomadic Hunter", ("T'AU EMPIRE", "KROOT"), base(),
        context={"led_by": ["Kroot Trail Shaper"]}),
    # Feel No Pain 5+ on the bearer
    "augury-uplink-solar-spearhead": Check(
        "Augury Uplink", ("ORKS",), base(fnp=5), defender=("ADEPTUS CUSTODES",)),
    # ranged +1 to wound
    "a-tempting-trap-kauyon": Check("A Tempting Trap", ("T'AU EMPIRE",), base(wound_mod=1)),
    # Feel No Pain 4+ on the bearer
    "the-flesh-is-weak-ironstorm-spearhead": Check(
        "The Flesh Is Weak", ("ORKS",), base(fnp=4), defender=AA),
    # stance "Huron's Elite": +1 to hit
    "hurons-marauders/tyrannical-motivation": Check(
        "Tyrannical Motivation: Huron's Elite", ("HERETIC ASTARTES", "INFANTRY"),
        base(hit_mod=1)),
    # Stealth and the Benefit of Cover on the unit: one BS -1 under 11th (24.33)
    "storm-of-darkness-traitoris-lance": Check(
        "Storm of Darkness", ("ORKS",), base(skill=5), defender=("CHAOS KNIGHTS",)),
    # charged: melee +1 A
    "call-to-murder-lords-of-the-warp": Check(
        "Call to Murder", ("LEGIONES DAEMONICA", "CHARACTER", "KHORNE"), base(A_mod=1),
        phase="fight", context={"charged": True}),
    # REGIMENT, ranged, not against MONSTER/VEHICLE: [LETHAL HITS]
    "combined-arms/born-soldiers": Check(
        "Born Soldiers", ("ASTRA MILITARUM", "REGIMENT"), base(lethal=True)),
}


def _mortal_only(e: Any) -> bool:
    """A record whose Feel No Pain has the ``scope`` mortal (or psychic-and-mortal) and
    is all it does: not modelled before issue 41 (``Effect.fnp_mortal``), each checked in
    ``test_record_limits``; left out of this pool, which is issue 24's."""
    raw = json.dumps(dataset_rules().effect_of(e.record))
    mods = [m for p in e.compiled.parts for m in p.modifiers]
    return ('"scope": "mortal"' in raw or '"scope": "psychic-and-mortal"' in raw) \
        and len(mods) == len(e.compiled.parts) and all(m.fnp_mortal for m in mods)


def sample() -> list[Any]:
    data = dataset_effects()
    assert data is not None
    pool = sorted((e for e in data.entries if e.status == "modelled" and e.has_effect
                   and not _mortal_only(e)), key=lambda e: (e.record.record, e.record.key))
    return random.Random(24).sample(pool, 30)


def test_the_sample_is_the_one_checked_by_hand() -> None:
    picked = sample()
    assert sorted(e.record.key for e in picked) == sorted(CHECKS)
    assert len({e.factions[0] for e in picked}) >= 12


@pytest.mark.parametrize("key", sorted(CHECKS))
def test_sampled_record(key: str) -> None:
    c = CHECKS[key]
    tgt = target(**c.tgt)
    tgt["keywords"] = list(c.defender)
    s = scenario(weapon(count=10, **c.line), effects=[c.name], keywords=list(c.keywords),
                 phase=c.phase, tgt=tgt, **c.context)
    got = calculate(s)
    assert float(got.damage.mean) == approx(c.expected.unsaved() * c.per_wound)
