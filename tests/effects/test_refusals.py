"""Refusals: a named effect whose condition fails is refused, naming ``effects.N`` and why.

One case per named effect at least (the last test checks that every ``NamedEffect`` has
one); each case breaks one condition of a scenario in which the effect is otherwise
usable, and expects the exact sentence (``NamedEffect.check`` or the effect's own
``ValueError``) after ``effects.N: ``. Rule texts: ``shared/spec/rules_inventory.md``.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from effects import GSC, Json, scenario, target, weapon
from tactica import ScenarioError, calculate
from tactica.combat.exact.effects import NamedEffectError
from tactica.effects import EFFECTS

NOT_GSC = ["ASTRA MILITARUM", "INFANTRY"]
TYRANIDS = ["TYRANIDS", "MONSTER"]


def case(effect: str, expected: str, /, effects: list[Any] | None = None,
         **kwargs: Any) -> Any:
    """A refusal case: ``scenario(**kwargs)`` naming ``effects`` (default ``[effect]``)
    must be refused with ``expected``. The id is the effect name plus the reason."""
    return pytest.param(effect, effects or [effect], kwargs, expected,
                        id=f"{effect}: {expected.split(': ', 2)[-1][:40]}")


#: (effect, effects list, scenario keyword arguments, the refusal message)
CASES = [
    # --- core stratagems
    case("Command Re-roll", "effects.0: Command Re-roll: the engine re-rolls a hit or wound "
         "die, not 'save'", effects=["Command Re-roll: save"]),
    case("Fire Overwatch", "effects.0: Fire Overwatch: the attacker is a TITANIC unit",
         keywords=["VEHICLE", "TITANIC"]),
    case("Fire Overwatch", "effects.0: Fire Overwatch: used in the shooting phase, not the "
         "fight phase", phase="fight"),
    case("Epic Challenge", "effects.0: Epic Challenge: the attacker is not a CHARACTER unit",
         phase="fight"),
    case("Epic Challenge", "effects.0: Epic Challenge: the attacker is not a CHARACTER unit",
         phase="fight", rules="10th"),
    case("Crushing Impact", "effects.0: Crushing Impact: needs context.charged (ended a "
         "charge move)", phase="fight", keywords=["MONSTER"], attacker_toughness=9),
    case("Crushing Impact", "effects.0: Crushing Impact: needs the attacking model's "
         "Toughness (context.attacker_toughness)", phase="fight", keywords=["MONSTER"],
         charged=True),
    case("Crushing Impact", "effects.0: Crushing Impact: the attacker is not a MONSTER or "
         "VEHICLE unit", phase="fight", charged=True, attacker_toughness=9),
    case("Tank Shock", "effects.0: Tank Shock: needs context.charged (ended a charge move)",
         rules="10th", phase="fight", keywords=["VEHICLE"], attacker_toughness=9),
    case("Tank Shock", "effects.0: Tank Shock: the attacker is not a VEHICLE unit",
         rules="10th", phase="fight", keywords=["MONSTER"], charged=True,
         attacker_toughness=9),
    case("Grenade", "effects.0: Grenade: the attacker is not a GRENADES unit"),
    case("Smokescreen", "effects.0: Smokescreen: the target is not a SMOKE unit",
         tgt=target(keywords=["VEHICLE"])),
    case("Counter-offensive", "effects.0: Counter-offensive: used in the fight phase, not "
         "the shooting phase"),
    # --- Host of Ascension
    case("Primed and Readied", "effects.0: Primed and Readied: the attacker is not a "
         "GENESTEALER CULTS unit", keywords=NOT_GSC),
    case("Coordinated Trap", "effects.0: Coordinated Trap: the attacker is not a GENESTEALER "
         "CULTS unit", keywords=NOT_GSC),
    case("A Deadly Snare", "effects.0: A Deadly Snare: needs context.charged (the attacker "
         "declared a charge)", phase="fight", tgt=target(keywords=[GSC, "INFANTRY"])),
    case("A Deadly Snare", "effects.0: A Deadly Snare: the target is not an INFANTRY unit",
         phase="fight", charged=True, tgt=target(keywords=[GSC, "MOUNTED"])),
    case("A Perfect Ambush", "effects.0: A Perfect Ambush: needs "
         "context.arrived_from_reserves (set up on the battlefield as Reinforcements this "
         "turn or last)"),
    case("Assassination Edict", "effects.0: Assassination Edict: the target is not a "
         "CHARACTER unit"),
    case("A Chink in Their Armour", "effects.0: A Chink in Their Armour: needs "
         "context.arrived_from_reserves (set up on the battlefield as Reinforcements this "
         "turn or last)"),
    case("A Chink in Their Armour", "effects.0: A Chink in Their Armour: used in the "
         "shooting phase, not the fight phase", phase="fight", arrived_from_reserves=True),
    # --- Xenocreed Congregation
    case("Vengeance for the Martyr!", "effects.0: Vengeance for the Martyr!: the attacker "
         "is not an ACOLYTE HYBRIDS or Hybrid Metamorphs or Neophyte Hybrids unit",
         name="Primus", keywords=[GSC, "INFANTRY", "CHARACTER", "PRIMUS"]),
    case("Denunciator of Tyrants", "effects.0: Denunciator of Tyrants: the target is not a "
         "CHARACTER unit"),
    # --- Biosanctic Broodsurge
    case("Saintly Paroxysm", "effects.0: Saintly Paroxysm: the target is not a CHARACTER "
         "unit", phase="fight", keywords=["INFANTRY"], tgt=target(keywords=[GSC])),
    # --- Brood Brother Auxilia
    case("Symbiotic Destruction", "effects.0: Symbiotic Destruction: the attacker is not an "
         "ASTRA MILITARUM or GENESTEALER CULTS unit", keywords=TYRANIDS),
    case("Acceptable Losses", "effects.0: Acceptable Losses: the attacker is not an ASTRA "
         "MILITARUM unit"),
    case("Integrated Tactics", "effects.0: Integrated Tactics: used in the shooting phase, "
         "not the fight phase", phase="fight"),
    case("Firepoint Commander", "effects.0: Firepoint Commander: only while the unit "
         "resolves Fire Overwatch (name Fire Overwatch too)"),
    case("Firepoint Commander", "effects.1: Firepoint Commander: the attacker is not a "
         "GENESTEALER CULTS INFANTRY unit", effects=["Fire Overwatch", "Firepoint Commander"],
         keywords=[GSC, "MOUNTED"]),
    case("Martial Espionage", "effects.0: Martial Espionage: the attacker is not an INFANTRY "
         "or MOUNTED unit", keywords=["ASTRA MILITARUM", "VEHICLE"]),
    # --- Cult Unveiled, Boarding Actions
    case("For the Brood", "effects.0: For the Brood: the attacker is not a GENESTEALER CULTS "
         "unit", keywords=NOT_GSC, game_mode="boarding actions"),
    case("Lurking Menace", "effects.0: Lurking Menace: the target is not a GENESTEALER CULTS "
         "unit", keywords=NOT_GSC, game_mode="boarding actions"),
    case("Battlefield Command", "effects.0: Battlefield Command: the attacker is not a "
         "GENESTEALER CULTS unit", keywords=NOT_GSC, game_mode="boarding actions"),
    case("For the Brood", "effects.0: For the Brood: a boarding actions stratagem; "
         "context.game_mode is standard"),
    # --- 15.01: once per phase; WHEN against Fire Overwatch
    case("Coordinated Trap", "effects.1: Coordinated Trap: already used in this phase "
         "(effects.0); the same stratagem can be used once per phase",
         effects=["Coordinated Trap", "Coordinated Trap"]),
    case("Coordinated Trap", "effects.1: Coordinated Trap: used in the shooting/fight phase, "
         "not during Fire Overwatch (the opponent's Movement or Charge phase)",
         effects=["Fire Overwatch", "Coordinated Trap"]),
    # --- Final Day
    case("Hyperferocity", "effects.0: Hyperferocity: used in the fight phase, not the "
         "shooting phase"),
    case("Psionic Parasitism", "effects.0: Psionic Parasitism: the attacker is not a "
         "TYRANIDS unit"),
    case("Catalyst", "effects.0: Catalyst: needs context.tyranids_nearby (the target is "
         "within 6\" of a friendly TYRANIDS unit)"),
    case("Inhuman Integration", "effects.0: Inhuman Integration: needs "
         "context.tyranids_nearby (the target is within 6\" of a friendly TYRANIDS unit)"),
    # --- Outlander Claw
    case("Close-Range Shoot-out", "effects.0: Close-Range Shoot-out: needs context.distance "
         "of at most 18\" (the target is within 18\")", keywords=["MOUNTED"]),
    case("Close-Range Shoot-out", "effects.0: Close-Range Shoot-out: needs context.distance "
         "of at most 18\" (the target is within 18\")", keywords=["MOUNTED"], distance=18.5),
    case("Close-Range Shoot-out", "effects.0: Close-Range Shoot-out: the attacker is not a "
         "MOUNTED or VEHICLE unit", distance=6.0),
    case("Cartographic Data-leech", "effects.0: Cartographic Data-leech: the attacker is not "
         "a TRANSPORT unit"),
    case("Assault Commando", "effects.0: Assault Commando: needs context.disembarked "
         "(disembarked this turn)"),
    # --- unit abilities
    case("Cult Demagogue", "effects.0: Cult Demagogue: the attacking unit is not led by a "
         "Primus (context.led_by)"),
    case("Cult Demagogue", "effects.0: Cult Demagogue: the attacking unit is not led by a "
         "Primus (context.led_by)", led_by=["Magus"]),
    case("Synapse", "effects.0: Synapse: only if your Army Faction is TYRANIDS "
         "(context.army_faction is GENESTEALER CULTS)", phase="fight", keywords=TYRANIDS,
         army_faction="GENESTEALER CULTS"),
    case("Synapse", "effects.0: Synapse: used in the fight phase, not the shooting phase",
         keywords=TYRANIDS),
    case("Damaged: 1-8 wounds remaining", "effects.0: Damaged: 1-8 wounds remaining: needs "
         "context.attacker_wounds_left between 1 and 8", attacker_wounds_left=9,
         keywords=["VEHICLE", "BANEHAMMER"]),
    case("Damaged: 1-8 wounds remaining", "effects.0: Damaged: 1-8 wounds remaining: needs "
         "context.attacker_wounds_left between 1 and 8", effects=["Damaged"],
         keywords=["VEHICLE", "BANEHAMMER"]),
    case("Damaged: 1-8 wounds remaining", "effects.0: Damaged: 1-8 wounds remaining: the "
         "attacker is not a BANEHAMMER unit", attacker_wounds_left=5),
]


@pytest.mark.parametrize(("name", "effects", "kwargs", "expected"), CASES)
def test_refused(name: str, effects: list[Any], kwargs: Json, expected: str) -> None:
    with pytest.raises(NamedEffectError) as info:
        calculate(scenario(weapon(count=3), effects=effects, **kwargs))
    assert str(info.value) == expected


def test_every_named_effect_has_a_refusal_case() -> None:
    covered = {p.values[0] for p in CASES}
    assert {e.name for e in EFFECTS} - covered == set()


def test_every_failure_is_reported_at_once() -> None:
    """Coordinated Trap and Hyperferocity for a non-GSC unit in the shooting phase: three
    failed conditions over two effects, all in one message, each naming its entry."""
    with pytest.raises(NamedEffectError) as info:
        calculate(scenario(weapon(), keywords=NOT_GSC,
                           effects=["Coordinated Trap", "Hyperferocity"]))
    assert str(info.value).split("; ") == [
        "effects.0: Coordinated Trap: the attacker is not a GENESTEALER CULTS unit",
        "effects.1: Hyperferocity: used in the fight phase, not the shooting phase",
        "effects.1: Hyperferocity: the attacker is not a GENESTEALER CULTS unit",
    ]


def test_effect_index_counts_plain_effects() -> None:
    """``effects.N`` is the entry's index in ``effects``, plain modifiers included."""
    with pytest.raises(NamedEffectError, match=re.escape("effects.2: Catalyst: needs")):
        calculate(scenario(weapon(), effects=[{"hit": 1}, "Integrated Tactics", "Catalyst"]))


@pytest.mark.parametrize(("text", "hint"), [
    ("Primed and Readyed", "did you mean: Primed and Readied?"),
    ("Coordinated Trapp", "did you mean: Coordinated Trap?"),
])
def test_unknown_name_refused_with_did_you_mean(text: str, hint: str) -> None:
    with pytest.raises(NamedEffectError) as info:
        calculate(scenario(weapon(), effects=[text]))
    message = str(info.value)
    assert message.startswith(f"effects.0: unknown effect {text!r}")
    assert message.endswith(hint)


def test_unknown_name_without_close_match() -> None:
    with pytest.raises(NamedEffectError) as info:
        calculate(scenario(weapon(), effects=["Zzyzx"]))
    assert str(info.value) == "effects.0: unknown effect 'Zzyzx'"


def test_command_reroll_only_once() -> None:
    """15.02: one Command Re-roll per roll; naming it twice is refused."""
    with pytest.raises(ScenarioError, match="Command Re-roll can be used once per roll"):
        calculate(scenario(weapon(), effects=["Command Re-roll", "Command Re-roll: wound"]))


# --- range conditions the rules texts state ---------------------------------------------


@pytest.mark.parametrize("rules", ["11th", "10th"])
def test_grenade_refused_beyond_8_inches(rules: str) -> None:
    """Grenade (E.2 #15): "one enemy unit ... within 8" and visible". With the target at
    12" (``context.distance``) the stratagem cannot be used, as Close-Range Shoot-out is
    refused beyond 18"."""
    with pytest.raises(NamedEffectError) as info:
        calculate(scenario(weapon(), rules=rules, keywords=[GSC, "GRENADES"], distance=12.0,
                           effects=["Grenade"]))
    assert str(info.value) == ('effects.0: Grenade: the target is 12" away, beyond 8" '
                               '(the enemy unit is within 8")')


@pytest.mark.parametrize("rules", ["11th", "10th"])
def test_fire_overwatch_refused_beyond_24_inches(rules: str) -> None:
    """Fire Overwatch: 15.09 snap shooting targets "one visible enemy unit within 24"";
    10th: "your unit within 24" of that enemy unit". At 30" it cannot be used."""
    with pytest.raises(NamedEffectError) as info:
        calculate(scenario(weapon(), rules=rules, distance=30.0, effects=["Fire Overwatch"]))
    assert str(info.value) == ('effects.0: Fire Overwatch: the target is 30" away, beyond '
                               '24" (snap shooting targets a unit within 24")')


@pytest.mark.parametrize(("effect", "limit", "keywords"), [
    ("Grenade", 8.0, [GSC, "GRENADES"]), ("Fire Overwatch", 24.0, [GSC, "INFANTRY"])])
@pytest.mark.parametrize("at_limit", [True, False])
def test_range_limits_allow_the_limit_and_an_unknown_distance(
        effect: str, limit: float, keywords: list[str], at_limit: bool) -> None:
    """Exactly at the limit, or with no distance given, the effect is used."""
    distance = limit if at_limit else None
    r = calculate(scenario(weapon(), keywords=keywords, distance=distance, effects=[effect]))
    assert r.effects_applied == (effect,)
