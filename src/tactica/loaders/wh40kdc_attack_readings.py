"""Attacking-side ability records read against their published rules (the unit's own
attacks): a condition the record lost, added back; a bonus that is not the unit's own,
listed.

The bundled dataset (wh40kdc 1.4.5) encodes many datasheet abilities as a bonus to the
unit's attacks with no condition, where the published rule (10th-edition datasheets, the
BSData ``wh40k-10e`` catalogues; checked name by name, every text of the name, on
2026-12-02) limits it:

* **to a kind of target** -- Righteous Paragons: "each time a model in this unit makes
  an attack that targets a MONSTER or VEHICLE unit, add 1 to the Hit roll and add 1 to
  the Wound roll" (the record: +1 to hit and wound against anything);
* **to one weapon** -- Tank-killer: "each time this model makes a ranged attack with its
  vanquisher battle cannon that targets a MONSTER or VEHICLE unit, you can re-roll the
  Wound roll";
* **to the enemy unit the player picked** (a quarry, an Oath of Moment target, a unit a
  psychic power or an order selected) -- Focused Hunters: "at the start of the battle,
  select one unit from your opponent's army. Until the end of the battle, each time a
  model in this unit makes an attack that targets that unit, you can re-roll the Hit
  roll";
* **to a turn it charged or remained stationary** -- Vanguard Assault: "each time this
  unit ends a Charge move, until the end of the turn, melee weapons equipped by models in
  this unit have the [LETHAL HITS] ability"; Signum: "each time this unit Remains
  Stationary ... ranged weapons ... have the [IGNORES COVER] ability";
* **to a circumstance a calculation does not state** (the closest eligible target, an
  objective marker, a Battle-shocked target...) -- Close-quarters Firepower: "each time a
  model in this unit makes a ranged attack that targets the closest eligible target,
  improve the Armour Penetration characteristic of that attack by 1".

``MENDS`` adds the condition back to the record's modifiers, in the keys the effect
compiler reads (``vs_keywords``, ``excluded_target_keywords``, ``weapon_name``, a
``condition`` node: ``target-has-keyword`` "<rule> target" for a picked unit,
``charged-this-turn``, ``remained-stationary``, ``opponent-unit-within-range``; a
``condition`` in words for a circumstance, which the compiler lists as an assumption).
Each mend names the leaves it concerns (``_tags``) so a record of another faction under
the same name, which does something else, is left as it is.

Some records test the keyword "A", which no unit has, where the published rule tests
FLY, a distance or a picked keyword (Interceptor: "each time this model makes a ranged
attack that targets a unit that can FLY, add 1 to the Hit roll"): ``KEYWORD_A`` gives
the published test, so the bonus applies when it holds instead of never. An aura for
friendly units with a keyword (Taskmaster: "while a friendly WAR DOG model is within
9" of this model, each time that WAR DOG model makes a ranged attack, re-roll a Hit
roll of 1") reaches the bearer's own unit only when that unit has the keyword; so for a
few defences (Reanimation Nodes: "while a friendly NECRONS INFANTRY unit is within 6" of
this FORTIFICATION, models in that unit have the Feel No Pain 6+ ability"; Sanctuary:
"while this model is leading a unit, each time an attack targets that unit, subtract 1
from the Hit roll").

``ATTACK_MARKS`` lists, with the reason in the player's words, abilities whose bonus is
not the unit's own attacks at all: a mark for *other* friendly units' later attacks on
an enemy unit it hit (Thunderstrike: "each time this model has shot, select one enemy
MONSTER or VEHICLE unit that was hit ... each time a friendly ADEPTUS ASTARTES unit
makes a ranged attack that targets that enemy unit, add 1 to the Wound roll"), a bonus
for another friendly unit the model selects (Blessing of the Omnissiah: "select one
friendly ADEPTUS ASTARTES VEHICLE model within 3" of this model"; a Knight's Bondsman
ability, "while a model is affected by this ability", for an Armiger it selects), a
bonus won by
destroying a model (Silent Fury), a choice or a roll the player makes each phase (Master
of Magicks), or a rule that is not the unit's bonus (Treacherous Illusion: "melee
weapons equipped by enemy models have the [Hazardous] ability while targeting this
model's unit").
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

__all__ = ["ATTACK_MARKS", "KEYWORD_A", "MENDS", "WRAPS", "mend_attacks", "mend_leaves",
           "wrapped"]

_MV = ("Monster", "Vehicle")
_LEAVES = frozenset({"roll-modifier", "re-roll", "stat-modifier", "bs-modifier",
                     "keyword-grant", "ability-grant", "feel-no-pain", "invulnerable-save",
                     "damage-reduction"})


def _picked(rule: str) -> dict[str, Any]:
    """The target is the enemy unit ``rule`` picked (``context.designated`` names it)."""
    return {"condition": {"type": "target-has-keyword",
                          "parameters": {"keyword": f"{rule} target"}}}


def _needs(words: str) -> dict[str, Any]:
    """A circumstance a calculation does not state (listed, with these words)."""
    return {"condition": words}


_CHARGED = {"condition": {"type": "charged-this-turn"}}
_STATIONARY = {"condition": {"type": "remained-stationary"}}
_CLOSEST = _needs("the target to be the closest eligible target")
_OBJECTIVE = _needs("the target to be within range of an objective marker")
_SHOCKED = _needs("the target to be Battle shocked")
_DARK_PACT = _needs("a Dark Pact made this phase")


def _within(inches: int) -> dict[str, Any]:
    return {"condition": {"type": "opponent-unit-within-range",
                          "parameters": {"range_inches": inches}}}


#: name -> ((leaf tag, modifier keys added), ...); "*" tags every combat leaf.
MENDS: dict[str, tuple[tuple[str, Mapping[str, Any]], ...]] = {
    # only against some targets
    **dict.fromkeys(("Righteous Paragons", "Total Obliteration", "Assured Destruction",
                     "Bring it Down!", "Tank Hunters", "Armour Hunter",
                     "Obsessive Ruthlessness"), (("*", {"vs_keywords": _MV}),)),
    "Annihilator": (("damage", {"vs_keywords": _MV}),),
    "Titan Hunter": (("damage", {"vs_keywords": _MV}),),
    "Siege Captain": (("*", {"vs_keywords": (*_MV, "Fortification")}),),
    "Champion Slayer": (("*", {"vs_keywords": ("Character", "Monster")}),),
    "Macro-extinction Protocols": (("hit", {"vs_keywords": _MV}),
                                   ("wound", {"vs_keywords": ("Titanic", "Towering")})),
    # the +2 is against a FORTIFICATION (+1 against a VEHICLE is not in the record)
    "Sunderer of Fortresses": (("*", {"vs_keywords": ("Fortification",)}),),
    "Cold and Calculating": (("Lethal Hits", {"vs_keywords": _MV}),
                             ("Sustained Hits 1", {"excluded_target_keywords": _MV})),
    **dict.fromkeys(("Thin Their Ranks", "Starscythe"),
                    (("*", {"excluded_target_keywords": _MV}),)),
    **dict.fromkeys(("Ground-attack Craft", "Ground Strike Fighter"),
                    (("hit", {"excluded_target_keywords": ("Fly",)}),)),
    "Xenos Hunter": (("hit", {"excluded_target_keywords": ("Imperium", "Chaos")}),),
    # only one weapon
    "Mow Down the Enemy": (("Devastating Wounds", {
        "excluded_target_keywords": _MV, "weapon_name": "Punisher gatling cannon"}),),
    "Titan-killer": (("Devastating Wounds", {"vs_keywords": _MV,
                                             "weapon_name": "Volcano cannon"}),),
    "Tank-killer": (("wound", {"vs_keywords": _MV,
                               "weapon_name": "Vanquisher battle cannon"}),),
    "Advanced Firepower": (("Lethal Hits", {
        "excluded_target_keywords": _MV,
        "weapon_name": "Twin iliastus accelerator cannon"}),),
    "Blistering Salvoes": (("hit", {"weapon_name": "Belleros energy cannon"}),),
    "Achillan Eye": (("wound", {"weapon_name": "Radium jezzail"}),),
    # only against the enemy unit the player picked
    **{name: (("*", _picked("Oath of Moment")),)
       for name in ("Fury of the First", "Sternguard Focus", "Deathwing")},
    **{name: (("*", _picked(name)),) for name in (
        "Virtue of Intolerance", "Headhunters", "Focused Hunters", "Piratical Raiders",
        "Imperial Law", "Bounty Hunters", "Exemplar of the Code", "Methodical Destruction",
        "Psychic Spoor", "Monarch of the Hunt", "Prey of the Blood God", "Doom (Psychic)",
        "Guide (Psychic)", "Herald of Ynnead", "Daring Recon", "Virulent Blessing (Psychic)",
        "Symphony of Pain (Psychic)", "Blood Throne", "Blight Bombardment",
        "Marked by Fate (Psychic)")},
    "The Eternal Dance": (("wound+", _picked("The Eternal Dance")),),
    "Spirit Thief": (("*", {**_picked("Spirit Thief"), "vs_keywords": ("Vehicle",)}),),
    # only on the charge, or after remaining stationary
    **dict.fromkeys(("Vanguard Assault", "Brutal Raider", "Impetuous Glory"),
                    (("*", {**_CHARGED, "attack_type": "melee"}),)),
    "Ferocious Rage": (("*", _CHARGED),),
    # the Agents of the Imperium record (the Grey Knights one, a leader's, is right)
    "Hammerhand (Psychic)": (("*", {**_CHARGED, "attack_type": "melee"}),),
    "Bloodlust": (("Devastating Wounds", {**_CHARGED, "attack_type": "melee"}),),
    "Battle-lust": (("*", {**_CHARGED, "weapon_name": "Frostfang"}),),
    "Skullmaster’s Fury": (("Devastating Wounds", {
        **_CHARGED, "weapon_name": "Juggernaut’s bladed horn"}),),
    **dict.fromkeys(("Signum", "Targeter Optics", "Bastion of Firepower"),
                    (("*", {**_STATIONARY, "attack_type": "ranged"}),)),
    "Overwhelming Obliteration": (("Devastating Wounds", {
        **_STATIONARY, "weapon_name": "Doomsday cannon"}),),
    # only within a distance of the target (refused when context.distance is beyond)
    "Tempered Ferocity": (("re-roll", _within(6)),),
    "Way of the Short Blade": (("wound", _within(9)),),
    # only for a BLOOD CLAWS unit the model leads
    "War Howl": (("wound", {"applies_to_keywords": ("Blood Claws",)}),),
    # a circumstance a calculation does not state
    **dict.fromkeys(("Close-quarters Firepower", "Point-blank Barrage",
                     "Masters of Close Confines", "Heavy Assault Infantry", "Seasoned Noble",
                     "Aggressive Assault", "Decisive Destruction",
                     "Hard-wired for Destruction", "Furious Onslaught", "Bloody Fury",
                     "Close-range Killers (Aura)"), (("*", _CLOSEST),)),
    **dict.fromkeys(("Breach and Clear", "Preymark Crest", "Priority Objective Identified"),
                    (("*", _OBJECTIVE),)),
    "Vanguard Predator": (("wound", _OBJECTIVE),),
    **dict.fromkeys(("Tormentors", "Psychological Saboteur (Aura)"), (("*", _SHOCKED),)),
    "Node Lash (Psychic)": (("wound", _SHOCKED),),
    **dict.fromkeys(("Despoilers", "Daemonforge"), (("*", _DARK_PACT),)),
    "Eradicate the Foe": (("*", _needs("the target to be at its Starting Strength")),),
    "Ensorcelled Annihilation": (("*", _needs(
        "the target to be a MONSTER or VEHICLE hit by a Thousand Sons Psychic attack "
        "this turn")),),
    **dict.fromkeys(("Deadly Stalkers", "Stalker"), (("*", _needs(
        "no other enemy unit within 6 inches of the target")),)),
    "Rearm, Reload, Fire": (("*", _needs("the unit to be affected by an Order")),),
    "Thunderous Charge": (("*", {"weapon_name": "Wolf Guard weapon"}),),
    "Judgement of the Omnissiah": (("*", _needs(
        "the target to be in Engagement Range of a friendly Adeptus Astartes "
        "Vehicle")),),
    "Talonstrike Doctrines": (("*", _needs("the unit to have been set up this turn")),),
    "Storm of Retribution": (("+", _needs(
        "the target to have destroyed an Adepta Sororitas unit this battle")),),
    "Bladestorm": (("*", _needs("the target to be within half range")),),
    "Da Biggest and da Best": (("*", _needs("the Waaagh! to be active")),),
    "Target Uploaded": (("*", _needs("the target to be the unit's Spotted unit")),),
    **dict.fromkeys(("Froth-spattered Frenzy", "Devoted to Destruction", "Thundercharge",
                     "Violent Fury"), (("*", _needs(
                         "the model to carry the two melee weapons its rule names")),)),
    "On Da Hunt": (("*", _needs("models embarked within it (1 Attack each)")),),
    "Sonic Destruction": (("*", _needs(
        "other Vibro Cannon Platforms to have shot at the target this phase")),),
    # an aura for friendly units with a keyword the bearer's own unit does not have
    **dict.fromkeys(("Taskmaster (Aura)", "Frenzied Rampage (Aura)",
                     "Offerings for the Dark Gods (Aura)", "Dark Fervour (Aura)",
                     "Huntmaster (Aura)", "Preysight (Aura)"),
                    (("*", {"applies_to_keywords": ("War Dog",)}),)),
    "Unholy Mechanisms (Aura)": (("*", {"applies_to_keywords": ("Daemon Vehicle",)}),),
    "Mechanical Augmentation (Aura)": (("*", {"applies_to_keywords": ("Battleline",)}),),
    "Brood Progenitor (Aura, Psychic)": (("*", {"applies_to_keywords": ("Termagants",)}),),
    "Wisdom of the Ancients (Aura)": (("*", {"applies_to_keywords": ("Infantry",)}),),
    # defences, the same way: an aura for units with a keyword, a leader's for its unit
    "Reanimation Nodes (Aura)": (("*", {"applies_to_keywords": ("Infantry",)}),),
    "Fabricator Claw Array (Aura)": (("*", {"applies_to_keywords": ("Vehicle",)}),),
    **dict.fromkeys(("Sanctuary (Psychic)", "Kustom Force Field"),
                    (("*", {"condition": {"type": "is-attached"}}),)),
}

#: Names whose mend is for the records that are not a leader's (``is-attached``): the
#: published texts differ by faction (Hammerhand, Agents of the Imperium: "each time
#: this unit makes a Charge move ... melee weapons ... have the [LETHAL HITS] ability";
#: Grey Knights: "while this model is leading a unit, melee weapons ... [LETHAL HITS]").
UNLED_ONLY = frozenset({"Hammerhand (Psychic)"})

#: Records whose whole effect needs a condition the record lost, one a leaf's keys
#: cannot carry (a granted rule: the Benefit of Cover): name -> the condition.
WRAPS: dict[str, Mapping[str, Any]] = {
    "Infernal Aegis (Aura)": {"type": "unit-has-keyword", "parameters": {"keyword": "War Dog"}},
    "Ion Aegis (Aura)": {"type": "unit-has-keyword", "parameters": {"keyword": "Armiger"}},
}

_FLY = {"type": "target-has-keyword", "parameters": {"keyword": "Fly"}}
#: Records whose keyword test names the keyword "A" (no unit has it, so the bonus never
#: applies): name -> the published test (Interceptor: "each time this model makes a
#: ranged attack that targets a unit that can FLY, add 1 to the Hit roll").
KEYWORD_A: dict[str, Mapping[str, Any]] = {
    **dict.fromkeys(("Interceptor", "Skyhunter", "Airborne Predator", "Flak Battery"), _FLY),
    **{name: {"operator": "not", "operands": [_FLY]}
       for name in ("Strafing Run", "Blastajet Attack Run")},
    "Drive-by Dakka": _within(9)["condition"],
    "Fated Hero": _picked("Fated Hero")["condition"],
}

_MARK = ("it marks an enemy unit this unit hit, for other friendly units' later attacks; "
         "not this unit's own attacks")
_OTHER = "it helps another friendly unit the model selects, not its own unit"
_CHOICE = "the player chooses or rolls which bonus applies, each phase"
#: Attacking-side abilities listed, never applied: name -> reason in the player's words.
ATTACK_MARKS: dict[str, str] = {
    **dict.fromkeys((
        "Rites of Castigation", "Legacy of Jerulas", "Hailstrike", "Thunderstrike",
        "Fire Focus", "Fire Support", "Multi-spectrum Array",
        "Guidance of the Ancients (Psychic)", "Crystalline Targeting",
        "Fury of the Void (Psychic)", "Transport Support", "Withering Hail", "Death’s Heads",
        "Hail of Corrosive Disease", "Sorcerous Support", "Murderous Crossfire",
        "Crossfire", "Survey Augur", "Aggressive Deployment", "Advanced Scouting"), _MARK),
    **dict.fromkeys((
        "Blessing of the Omnissiah", "Master of the Forge", "Master of Mechanisms",
        "Prophet of Destruction", "Castigator’s Duty (Bondsman)",
        "Paladin’s Duty (Bondsman)", "Mentor (Bondsman)", "Magaera’s Duty (Bondsman)",
        "Atrapos’ Duty (Bondsman)", "Crusader’s Duty (Bondsman)", "Errant’s Duty (Bondsman)",
        "Warden’s Duty (Bondsman)", "Gallant’s Duty (Bondsman)",
        "Defender’s Duty (Bondsman)"), _OTHER),
    **dict.fromkeys(("Silent Fury", "Soul Eater", "Inspiring Exemplar"),
                    "only after the model has destroyed an enemy model or unit"),
    **dict.fromkeys(("Master of Magicks (Psychic)", "Bladeguard", "Adaptive Instincts",
                     "Battle Protocols", "Spirit of Gork (Psychic)", "Death Hex (Psychic)"),
                    _CHOICE),
    "Grand Master of the Deathwing": "only attacks that score a Critical Hit have "
                                     "[PRECISION], not every attack",
    "Visions of Heresy": "only while resolving a Fire Overwatch or Heroic Intervention",
    "Ascended Daemon": "it re-rolls one Hit roll and one Wound roll each time the model "
                       "shoots or fights, not every roll",
    "Treacherous Illusion (Psychic)": "it gives enemy melee weapons [Hazardous] against "
                                      "this unit, not this unit's weapons",
}


def _tags(node: Mapping[str, Any]) -> set[str]:
    """What a combat leaf is, for a mend to name it: "*", its kind, its roll or stat
    ("hit", "wound+" for a bonus, "+" for any bonus to a roll), its granted keywords."""
    m = node.get("modifier")
    m = m if isinstance(m, Mapping) else {}
    tags = {"*", str(node.get("type"))}
    for key in ("roll", "stat"):
        if m.get(key):
            tags.add(str(m[key]).casefold())
    if node.get("type") == "roll-modifier" and m.get("operation") == "add":
        tags |= {"+", f"{str(m.get('roll')).casefold()}+"}
    words = m.get("keywords") or m.get("keyword") or m.get("ability_id") or ()
    tags |= {str(w) for w in ([words] if isinstance(words, str) else words)}
    return tags


def _leaves(node: Any) -> Iterator[dict[str, Any]]:
    if isinstance(node, dict):
        if node.get("type") in _LEAVES and isinstance(node.get("modifier"), dict):
            yield node
        for v in node.values():
            yield from _leaves(v)
    elif isinstance(node, list):
        for v in node:
            yield from _leaves(v)


def _add(modifier: dict[str, Any], keys: Mapping[str, Any]) -> None:
    for key, value in keys.items():
        old = modifier.get(key)
        if key == "condition" and isinstance(old, Mapping) and isinstance(value, Mapping):
            modifier[key] = {"operator": "and", "operands": [old, value]}
        else:
            modifier[key] = list(value) if isinstance(value, tuple) else value


def _rekey(node: Any, test: Mapping[str, Any]) -> int:
    """Replace, in place, the keyword test on "A" under ``node`` with ``test``."""
    done = 0
    items = node.values() if isinstance(node, dict) else node if isinstance(node, list) \
        else ()
    for child in items:
        if isinstance(child, dict) and child.get("type") == "target-has-keyword" \
                and (child.get("parameters") or {}).get("keyword") == "A":
            child.clear()
            child.update(copy.deepcopy(dict(test)))
            done += 1
        else:
            done += _rekey(child, test)
    return done


def mend_attacks(name: str, effect: Any) -> int:
    """Add, in place, the conditions ``MENDS`` gives ``name`` to the matching leaves of
    ``effect`` (a copy the caller owns), and the keyword test ``KEYWORD_A`` gives it; the
    number of leaves and tests mended.

    >>> tree = {"type": "roll-modifier", "target": "unit",
    ...         "modifier": {"roll": "hit", "operation": "add", "value": 1}}
    >>> mend_attacks("Righteous Paragons", tree), tree["modifier"]["vs_keywords"]
    (1, ['Monster', 'Vehicle'])
    >>> mend_attacks("Bolter Discipline", tree)
    0
    """
    done = _rekey(effect, KEYWORD_A[name]) if name in KEYWORD_A else 0
    if name in UNLED_ONLY and "is-attached" in repr(effect):
        return done
    return done + mend_leaves(effect, MENDS.get(name, ()))


def mend_leaves(effect: Any, mends: Iterable[tuple[str, Mapping[str, Any]]]) -> int:
    """Add, in place, each mend's keys to the leaves of ``effect`` its tag names (``_tags``:
    "*", the leaf's kind, its roll...); the number of leaves mended."""
    done = 0
    for tag, keys in mends:
        for leaf in _leaves(effect):
            if tag in _tags(leaf):
                _add(leaf["modifier"], keys)
                done += 1
    return done


def wrapped(name: str, effect: Any) -> Any:
    """``effect`` under the condition ``WRAPS`` gives ``name`` (Infernal Aegis: "while a
    friendly WAR DOG model is within 6" of this model, that WAR DOG model has the Benefit
    of Cover"), else ``effect`` itself.

    >>> wrapped("Ion Aegis (Aura)", {"type": "ability-grant"})["condition"]["parameters"]
    {'keyword': 'Armiger'}
    """
    if name not in WRAPS:
        return effect
    return {"type": "conditional", "condition": copy.deepcopy(dict(WRAPS[name])),
            "effect": effect}
