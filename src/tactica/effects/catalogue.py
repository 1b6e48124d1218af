"""Every seed rule with a combat effect, as a named effect; and the seed rules that have
none, listed as such (inventory §C, §E, §F; the meta-test checks nothing is missing).

Texts cited are the seed pages' (file 000 unless said otherwise).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..combat.contract.scenario import Effect, Scenario
from .model import (
    Condition,
    NamedEffect,
    Outcome,
    attacker_has,
    attacker_lacks,
    context_flag,
    dice_pmf,
    distance_at_most,
    led_by,
    mixture,
    mods,
    range_limit,
    successes_pmf,
    target_has,
)

__all__ = ["EFFECTS", "NON_COMBAT"]

GSC = "GENESTEALER CULTS"


Apply = Callable[[Scenario, str | None], Outcome]


def _fixed(*modifiers: Effect, notes: tuple[str, ...] = ()) -> Apply:
    def apply(s: Scenario, param: str | None) -> Outcome:
        return Outcome(modifiers=modifiers, notes=notes)

    return apply


def _grant(*abilities: str, notes: tuple[str, ...] = ()) -> Apply:
    return _fixed(*(Effect.model_validate({"grant": a}) for a in abilities), notes=notes)


# --- stratagems with special outcomes ---------------------------------------------------


def _command_reroll(s: Scenario, param: str | None) -> Outcome:
    """15.02 / Command Re-roll (10th): re-roll one roll; with several dice rolled together
    one die (the engine picks the failed die that gains most)."""
    which = (param or "hit").strip().lower()
    if which not in ("hit", "wound"):
        raise ValueError(
            f"Command Re-roll: the engine re-rolls a hit or wound die, not {param!r}")
    return Outcome(modifiers=(Effect.model_validate({"command_reroll": which}),))


def _hyperferocity(s: Scenario, param: str | None) -> Outcome:
    """Hyperferocity: re-roll a Wound roll of 1; "you can re-roll the Wound roll instead"
    if a friendly TYRANIDS unit is within 6" of the target (reference facts §4.5: a full
    re-roll re-rolls failures)."""
    which = "failed" if s.context.tyranids_nearby else "ones"
    return Outcome(modifiers=(Effect(reroll="wound", which=which),))


def _vengeance(s: Scenario, param: str | None) -> Outcome:
    """Vengeance for the Martyr!: re-roll a Hit roll of 1; the full Hit roll if the
    destroyed model was a MAGUS, PRIMUS or ACOLYTE ICONWARD (name it: "...: Primus")."""
    full = (param or "").strip().upper() in ("MAGUS", "PRIMUS", "ACOLYTE ICONWARD")
    return Outcome(modifiers=(Effect(reroll="hit", which="failed" if full else "ones"),))


def _grenade(s: Scenario, param: str | None) -> Outcome:
    """Grenade (002): roll six D6, each 4+ inflicts 1 mortal wound."""
    return Outcome(mortal_before=(("Grenade", successes_pmf(6, 0.5)),))


def _toughness(s: Scenario, name: str) -> int:
    t = s.context.attacker_toughness
    if t is None:
        raise ValueError(f"{name}: needs the attacking model's Toughness "
                         "(context.attacker_toughness)")
    return t


def _tank_shock(s: Scenario, param: str | None) -> Outcome:
    """Tank Shock (001, 10th): roll D6 equal to the model's T; each 5+ is 1 mortal wound,
    at most 6."""
    t = _toughness(s, "Tank Shock")
    return Outcome(mortal_before=(("Tank Shock", successes_pmf(t, 1 / 3, cap=6)),))


def _crushing_impact(s: Scenario, param: str | None) -> Outcome:
    """15.06 Crushing Impact (004; errata: Tank Shock is the same): D6 equal to T; each 5+:
    1 mortal wound to the enemy, each 1: 1 to your unit; at most 6 per unit."""
    t = _toughness(s, "Crushing Impact")
    return Outcome(
        mortal_before=(("Crushing Impact", successes_pmf(t, 1 / 3, cap=6)),),
        side=(("Crushing Impact: mortal wounds to your unit", successes_pmf(t, 1 / 6, cap=6)),),
    )


def _deadly_snare(s: Scenario, param: str | None) -> Outcome:
    """A Deadly Snare: D6: 2-4 -> D3 mortal wounds, 5+ -> 3, to the charging unit (the
    attacker in this scenario)."""
    pmf = mixture((1 / 6, np.array([1.0])), (3 / 6, dice_pmf("D3")), (2 / 6, dice_pmf("3")))
    return Outcome(side=(("A Deadly Snare: mortal wounds to the charging (attacking) unit",
                          pmf),))


def _saintly(s: Scenario, param: str | None) -> Outcome:
    """Saintly Paroxysm: D6: 2+ -> D3 mortal wounds (2D3 if the model is an ABOMINANT or
    PATRIARCH) to the enemy unit that destroyed the CHARACTER: the engine weighs it by
    the probability that this attack destroys a CHARACTER model of the target."""
    big = (param or "").strip().upper() in ("ABOMINANT", "PATRIARCH")
    pmf = mixture((1 / 6, np.array([1.0])), (5 / 6, dice_pmf("2D3" if big else "D3")))
    return Outcome(side_if_character_destroyed=((
        "Saintly Paroxysm: mortal wounds to the attacking unit (if it destroys the "
        "GENESTEALER CULTS CHARACTER)", pmf),))


def _for_the_brood(s: Scenario, param: str | None) -> Outcome:
    """For the Brood: after shooting, D6 per friendly GSC unit engaged with the target:
    2-4 -> 1 mortal wound, 5+ -> 2."""
    return Outcome(side=(("For the Brood: mortal wounds to each friendly unit engaged "
                          "with the target", np.array([1 / 6, 3 / 6, 2 / 6])),))


def _acceptable_losses(s: Scenario, param: str | None) -> Outcome:
    """Acceptable Losses: after shooting, D6 per friendly unit engaged with the target:
    5+ -> D3+1 mortal wounds."""
    pmf = mixture((4 / 6, np.array([1.0])), (2 / 6, dice_pmf("D3+1")))
    return Outcome(side=(("Acceptable Losses: mortal wounds to each friendly unit engaged "
                          "with the target", pmf),))


def _smokescreen(s: Scenario, param: str | None) -> Outcome:
    """Smokescreen (001): the target has the Benefit of Cover and Stealth. Under 11th,
    Stealth is cover (24.33), so it is one BS -1, not cumulative."""
    return Outcome(context={"cover": True, "stealth": True})


def _lurking(s: Scenario, param: str | None) -> Outcome:
    """Lurking Menace: -1 to Hit if the attacking model is not within 3"."""
    d = s.context.distance
    if d is not None and d <= 3:
        return Outcome(notes=("Lurking Menace: the attacker is within 3\", no effect",))
    return Outcome(modifiers=mods(hit=-1))


def _fire_overwatch(s: Scenario, param: str | None) -> Outcome:
    """15.08 Fire Overwatch: the unit shoots using snap shooting (15.09); 10th: hits only
    on an unmodified 6. Hit re-rolls follow the rule set."""
    return Outcome(modifiers=(Effect(snap_shooting=True),))


def _firepoint(s: Scenario, param: str | None) -> Outcome:
    """Firepoint Commander: while resolving Fire Overwatch, hits on unmodified 5+
    (overrides snap shooting's 6, inventory H.47)."""
    if not any(isinstance(e, str) and "overwatch" in e.casefold() for e in s.effects) and \
            not any(isinstance(e, Effect) and e.snap_shooting for e in s.effects):
        raise ValueError("Firepoint Commander: only while the unit resolves Fire Overwatch "
                         "(name Fire Overwatch too)")
    return Outcome(modifiers=(Effect(snap_shooting=True), Effect(snap_hit_on=5)))


def _damaged(s: Scenario, param: str | None) -> Outcome:
    """Banehammer DAMAGED: 1-8 WOUNDS REMAINING: subtract 1 from the Hit roll."""
    w = s.context.attacker_wounds_left
    if w is None or not 1 <= w <= 8:
        raise ValueError("Damaged (1-8 wounds remaining): needs context.attacker_wounds_left "
                         f"between 1 and 8 (got {w})")
    return Outcome(modifiers=mods(hit=-1))


def _parasitism(s: Scenario, param: str | None) -> Outcome:
    """Psionic Parasitism (000/004): the TYRANIDS unit gets +1 to Hit; the GENESTEALER
    CULTS unit fed on suffers D3+1 mortal wounds (reported, it is not the target)."""
    return Outcome(modifiers=mods(hit=1), side=(
        ("Psionic Parasitism: mortal wounds to the GENESTEALER CULTS unit fed on",
         dice_pmf("D3+1")),))


def _epic_challenge(s: Scenario, param: str | None) -> Outcome:
    """15.03 Epic Challenge: one CHARACTER model's melee weapons have [PRECISION]. The
    parameter names that model's weapon lines; without it, every line gains it (noted)."""
    if not param:
        return Outcome(modifiers=(Effect.model_validate({"grant": "Precision"}),), notes=(
            "Epic Challenge: [PRECISION] given to every weapon line; name the CHARACTER "
            "model's weapons ('Epic Challenge: <weapon>, <weapon>') to limit it",))
    names = tuple(n.strip() for n in param.split(",") if n.strip())
    known = {w.name.casefold() for w in s.attacker.weapons}
    unknown = [n for n in names if n.casefold() not in known]
    if unknown:
        raise ValueError(f"Epic Challenge: the attacker has no weapon {unknown[0]!r}")
    return Outcome(modifiers=(Effect.model_validate({"grant": "Precision",
                                                     "weapons": names}),))


def _data_leech(s: Scenario, param: str | None) -> Outcome:
    """Cartographic Data-leech (Outlander Claw): while the bearer is embarked, improve by
    1 the BS of the weapons the TRANSPORT has "as a result of the Firing Deck ability":
    only the weapon lines marked ``firing_deck``."""
    deck = tuple(w.name for w in s.attacker.weapons if w.firing_deck)
    if not deck:
        raise ValueError("Cartographic Data-leech: the attack has no Firing Deck weapons "
                         "(the bearer's unit embarked, its weapons marked firing_deck)")
    return Outcome(modifiers=(Effect.model_validate({"skill": -1, "weapons": deck}),))


def _synapse(s: Scenario, param: str | None) -> Outcome:
    """Synapse (004): if the Army Faction is TYRANIDS, a unit in Synapse range has +1
    Strength for melee attacks."""
    if s.context.army_faction is not None and s.context.army_faction.upper() != "TYRANIDS":
        raise ValueError("Synapse: only if your Army Faction is TYRANIDS "
                         f"(context.army_faction is {s.context.army_faction})")
    return Outcome(modifiers=mods(strength=1))


def _not_calculated(text: str) -> Apply:
    def apply(s: Scenario, param: str | None) -> Outcome:
        return Outcome(not_calculated=(text,))

    return apply


ARRIVED = context_flag("arrived_from_reserves",
                       "set up on the battlefield as Reinforcements this turn or last")

EFFECTS: tuple[NamedEffect, ...] = (
    # --- core stratagems ---------------------------------------------------------------
    NamedEffect("Command Re-roll", "stratagem", "Core", 1, section="15.02",
                terms="re-roll one failed hit or wound die (name 'Command Re-roll: wound')",
                apply=_command_reroll, parameter="hit | wound"),
    NamedEffect("Fire Overwatch", "stratagem", "Core", 1, phases=("shooting",),
                section="15.08 / 15.09", conditions=(
                    attacker_lacks("TITANIC"),
                    range_limit(24, "snap shooting targets a unit within 24\"")),
                terms="snap shooting: hits only on unmodified 6s (11th: no hit re-rolls)",
                apply=_fire_overwatch),
    NamedEffect("Epic Challenge", "stratagem", "Core", 1, phases=("fight",),
                rules=("11th", "10th"), section="15.03 / Epic Challenge (10th)",
                conditions=(attacker_has("CHARACTER"),),
                terms="the CHARACTER model's melee weapons gain [PRECISION] (name them: "
                      "'Epic Challenge: Cult bonesword, Toxin injector claw')",
                apply=_epic_challenge, parameter="the CHARACTER model's weapon names"),
    NamedEffect("Crushing Impact", "stratagem", "Core", 1, phases=("fight",), rules=("11th",),
                section="15.06", aliases=("Tank Shock",),
                conditions=(attacker_has("MONSTER", "VEHICLE"),
                            context_flag("charged", "ended a charge move")),
                terms="D6 per Toughness before the fight: 5+ = 1 MW to the target, "
                      "1 = 1 MW to your unit (max 6 each)", apply=_crushing_impact),
    NamedEffect("Tank Shock", "stratagem", "Core", 1, phases=("fight",), rules=("10th",),
                section="Tank Shock (001)", aliases=("Crushing Impact",),
                conditions=(attacker_has("VEHICLE"),
                            context_flag("charged", "ended a charge move")),
                terms="D6 per Toughness before the fight: 5+ = 1 MW (max 6)",
                apply=_tank_shock),
    NamedEffect("Grenade", "stratagem", "Core", 1, phases=("shooting",), rules=("10th", "11th"),
                section="Grenade (002); 11th name Explosives (15.05, text not in the seeds)",
                aliases=("Explosives",), conditions=(
                    attacker_has("GRENADES"), range_limit(8, "the enemy unit is within 8\"")),
                terms="6D6 before the attacks: each 4+ = 1 MW", apply=_grenade),
    NamedEffect("Smokescreen", "stratagem", "Core", 1, phases=("shooting",),
                section="Smokescreen (001)", conditions=(target_has("SMOKE"),),
                terms="target has cover and Stealth (11th: one BS -1)", apply=_smokescreen),
    NamedEffect("Counter-offensive", "stratagem", "Core", 2, phases=("fight",),
                section="15.12 / Counter-offensive", aliases=("Counteroffensive",),
                terms="fight order only (Fights First / fights next)",
                apply=_not_calculated("Counter-offensive: changes who fights next, not the "
                                      "odds of an attack")),
    # --- Host of Ascension ----------------------------------------------------------------
    NamedEffect("Primed and Readied", "stratagem", "Host of Ascension", 2,
                conditions=(attacker_has(GSC),),
                terms="critical hits on unmodified 5+ (not while snap shooting, FAQ)",
                apply=_fixed(Effect(critical_hit_on=5))),
    NamedEffect("Coordinated Trap", "stratagem", "Host of Ascension", 2,
                conditions=(attacker_has(GSC),),
                terms="+1 to the Wound roll (both units target that enemy unit)",
                apply=_fixed(*mods(wound=1))),
    NamedEffect("A Deadly Snare", "stratagem", "Host of Ascension", 1, phases=("fight",),
                conditions=(target_has(GSC), target_has("INFANTRY"),
                            context_flag("charged", "the attacker declared a charge")),
                terms="D6: 2-4 = D3 MW, 5+ = 3 MW to the charging unit",
                apply=_deadly_snare),
    NamedEffect("A Perfect Ambush", "detachment rule", "Host of Ascension",
                aliases=("They Came From Below", "(unnamed detachment rule)"),
                conditions=(attacker_has(GSC), ARRIVED),
                terms="weapons gain [SUSTAINED HITS 1] and [IGNORES COVER]",
                apply=_grant("Sustained Hits 1", "Ignores Cover")),
    NamedEffect("Assassination Edict", "enhancement", "Host of Ascension",
                conditions=(attacker_has(GSC), target_has("CHARACTER", character_models=True)),
                terms="+1 to Hit against a CHARACTER unit", apply=_fixed(*mods(hit=1))),
    NamedEffect("A Chink in Their Armour", "enhancement", "Host of Ascension",
                phases=("shooting",), conditions=(attacker_has(GSC), ARRIVED),
                terms="ranged weapons gain [LETHAL HITS]", apply=_grant("Lethal Hits")),
    # --- Xenocreed Congregation ----------------------------------------------------------
    NamedEffect("Vengeance for the Martyr!", "stratagem", "Xenocreed Congregation", 1,
                conditions=(attacker_has("ACOLYTE HYBRIDS", "Hybrid Metamorphs",
                                         "Neophyte Hybrids"),),
                terms="re-roll Hit rolls of 1 (all failed hits if 'Vengeance for the "
                      "Martyr!: Primus' / Magus / Acolyte Iconward)",
                apply=_vengeance, parameter="Magus | Primus | Acolyte Iconward"),
    NamedEffect("Denunciator of Tyrants", "enhancement", "Xenocreed Congregation",
                conditions=(attacker_has(GSC), target_has("CHARACTER", character_models=True)),
                terms="+1 to Hit and +1 to Wound against a CHARACTER unit",
                apply=_fixed(*mods(hit=1, wound=1))),
    # --- Biosanctic Broodsurge -----------------------------------------------------------
    NamedEffect("Saintly Paroxysm", "stratagem", "Biosanctic Broodsurge", 1, phases=("fight",),
                conditions=(target_has(GSC), target_has("CHARACTER", character_models=True)),
                terms="D6 2+: D3 MW (2D3 for ABOMINANT/PATRIARCH) to the attacker if it "
                      "destroys the GSC CHARACTER", apply=_saintly,
                parameter="Abominant | Patriarch"),
    # --- Brood Brother Auxilia -----------------------------------------------------------
    NamedEffect("Symbiotic Destruction", "stratagem", "Brood Brother Auxilia", 1,
                phases=("shooting",), conditions=(attacker_has("ASTRA MILITARUM", GSC),),
                terms="re-roll Wound rolls of 1",
                apply=_fixed(Effect(reroll="wound", which="ones"))),
    NamedEffect("Acceptable Losses", "stratagem", "Brood Brother Auxilia", 2,
                phases=("shooting",), conditions=(attacker_has("ASTRA MILITARUM"),),
                terms="may shoot an engaged enemy; D6 per friendly engaged unit: 5+ = "
                      "D3+1 MW to it", apply=_acceptable_losses),
    NamedEffect("Integrated Tactics", "detachment rule", "Brood Brother Auxilia",
                phases=("shooting",), conditions=(attacker_has(GSC),),
                terms="+1 to Hit for GSC ranged attacks against the target an ASTRA "
                      "MILITARUM unit picked", apply=_fixed(*mods(hit=1))),
    NamedEffect("Firepoint Commander", "enhancement", "Brood Brother Auxilia",
                phases=("shooting",), conditions=(attacker_has(GSC, also="INFANTRY"),),
                terms="Fire Overwatch hits on unmodified 5+", apply=_firepoint),
    NamedEffect("Martial Espionage", "enhancement", "Brood Brother Auxilia",
                phases=("shooting",),
                conditions=(attacker_has("ASTRA MILITARUM"),
                            attacker_has("INFANTRY", "MOUNTED")),
                terms="improve AP of ranged weapons by 1", apply=_fixed(*mods(ap=-1))),
    # --- Cult Unveiled (Boarding Actions) --------------------------------------------------
    NamedEffect("For the Brood", "stratagem", "Cult Unveiled", 1, phases=("shooting",),
                conditions=(attacker_has(GSC),),
                terms="may shoot an engaged enemy; D6 per friendly engaged unit: 2-4 = 1 MW, "
                      "5+ = 2 MW to it", apply=_for_the_brood),
    NamedEffect("Lurking Menace", "stratagem", "Cult Unveiled", 1, phases=("shooting",),
                conditions=(target_has(GSC),),
                terms="-1 to Hit unless the attacker is within 3\" (context.distance)",
                apply=_lurking),
    NamedEffect("Battlefield Command", "stratagem", "Boarding Actions", 1,
                conditions=(attacker_has(GSC),),
                terms="the unit counts as led for a Leader ability: Cult Demagogue +1 to Hit",
                apply=_fixed(*mods(hit=1), notes=(
                    "Battlefield Command: Cult Demagogue (+1 to Hit) as if led by a Primus",))),
    # --- Final Day -----------------------------------------------------------------------
    NamedEffect("Hyperferocity", "stratagem", "Final Day", 1, phases=("fight",),
                conditions=(attacker_has(GSC),),
                terms="re-roll Wound rolls of 1; all failed wounds if a friendly TYRANIDS unit "
                      "is within 6\" of the target (context.tyranids_nearby)",
                apply=_hyperferocity),
    NamedEffect("Psionic Parasitism", "detachment rule", "Final Day",
                conditions=(attacker_has("TYRANIDS"),),
                terms="+1 to Hit for the TYRANIDS unit that fed; the GSC unit fed on suffers "
                      "D3+1 mortal wounds", apply=_parasitism),
    NamedEffect("Catalyst", "detachment rule", "Final Day", aliases=("Catalyst (Aura)",),
                conditions=(attacker_has(GSC), context_flag(
                    "tyranids_nearby", "the target is within 6\" of a friendly TYRANIDS unit")),
                terms="+1 to Hit for GSC attacks", apply=_fixed(*mods(hit=1))),
    NamedEffect("Inhuman Integration", "enhancement", "Final Day",
                conditions=(attacker_has(GSC), context_flag(
                    "tyranids_nearby", "the target is within 6\" of a friendly TYRANIDS unit")),
                terms="weapons gain [SUSTAINED HITS 1]", apply=_grant("Sustained Hits 1")),
    # --- Outlander Claw ------------------------------------------------------------------
    NamedEffect("Close-Range Shoot-out", "stratagem", "Outlander Claw", 1, phases=("shooting",),
                conditions=(attacker_has("MOUNTED", "VEHICLE"),
                            distance_at_most(18, "the target is within 18\"")),
                terms="ranged weapons gain [LETHAL HITS]", apply=_grant("Lethal Hits")),
    NamedEffect("Cartographic Data-leech", "enhancement", "Outlander Claw",
                phases=("shooting",), conditions=(attacker_has("TRANSPORT"),),
                terms="improve BS of Firing Deck weapons by 1 (the bearer is embarked)",
                apply=_data_leech),
    NamedEffect("Assault Commando", "enhancement", "Outlander Claw", phases=("shooting",),
                conditions=(attacker_has(GSC), context_flag("disembarked",
                                                            "disembarked this turn")),
                terms="re-roll the Hit roll (failed hits)",
                apply=_fixed(Effect(reroll="hit", which="failed"))),
    # --- unit abilities ------------------------------------------------------------------
    NamedEffect("Cult Demagogue", "ability", "Primus",
                conditions=(led_by("Primus"),),
                terms="+1 to Hit while a Primus leads the unit (context.led_by)",
                apply=_fixed(*mods(hit=1))),
    NamedEffect("Synapse", "ability", "Tyrannocyte (faction)", phases=("fight",),
                conditions=(attacker_has("TYRANIDS"),),
                terms="+1 Strength for melee attacks in Synapse range (Army Faction TYRANIDS)",
                apply=_synapse),
    NamedEffect("Damaged: 1-8 wounds remaining", "ability", "Banehammer",
                aliases=("Damaged", "Banehammer damaged"),
                conditions=(attacker_has("BANEHAMMER"), Condition(
                    "1-8 wounds remaining", "needs context.attacker_wounds_left between 1 and 8",
                    lambda s: s.context.attacker_wounds_left is not None
                    and 1 <= s.context.attacker_wounds_left <= 8)),
                terms="-1 to Hit while 1-8 wounds remain (context.attacker_wounds_left)",
                apply=_damaged),
)


#: Seed rules that do not change the odds of an attack (movement, reserves, objectives,
#: battle-shock, fight order): listed by ``tactica effects`` as such; naming one in a
#: scenario puts it under ``not_calculated``.
NON_COMBAT: dict[str, str] = {
    "Insane Bravery": "battle-shock",
    "Rapid Ingress": "reserves",
    "Heroic Intervention": "charge / movement",
    "Explosive Clearance": "visibility for Blast (Boarding Actions)",
    "Evasive Vanguard": "Cult Ambush markers",
    "A Dark Network": "movement",
    "In the Shadow of Iron": "Cult Ambush markers",
    "Suppress and Overwhelm": "Fire Overwatch and charge re-rolls",
    "Planned Extraction": "shooting eligibility",
    "Divine Imperative": "charge rolls",
    "Resistance Tunnels": "reserves",
    "Psi Surge": "Catalyst range (use Catalyst)",
    "Darting Attacks": "shooting and charge eligibility",
    "Tunnel Crawlers": "deep strike distance",
    "Return to the Shadows": "reserves",
    "Along Shadowed Trails": "Cult Ambush markers",
    "Encircling the Prey": "reserves",
    "Harassing Fire": "movement (Boarding Actions)",
    "Rapid Takeover": "objective control",
    "Prowling Agitant": "movement",
    "Our Time Is Nigh": "charge rolls",
    "Incendiary Inspiration": "charge eligibility",
    "Deeds That Speak to the Masses": "Resurgence points",
    "Gene-sire's Reliquant": "battle-shock",
    "Adaptive Reprisal": "stratagem cost",
    "The Hero Returned": "Leadership and OC",
    "Enraptured Damnation": "Fire Overwatch eligibility",
    "Master Saboteur": "objectives (Boarding Actions)",
    "Primary Detonator": "hatchways (Boarding Actions)",
    "Inspired to Greatness": "no rule text in the seeds",
    "Cult Ambush": "reinforcements",
    "Decoys and Misdirection": "redeployment",
    "Aerial Seeding": "reserves",
    "Screening Line": "movement",
    "Tremor Quake": "battle-shock",
}
