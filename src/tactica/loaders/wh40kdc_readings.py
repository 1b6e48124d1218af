"""Ability records read against their published rules: marks on an enemy, a lost condition.

**Marks.** Some abilities the dataset encodes as the unit's own defence mark an enemy
instead.

The bundled dataset encodes some datasheet abilities as "in the Shooting phase, subtract
1 from the Hit roll of the attacker" (a ``passive`` record: a ``phase-is`` condition over
a ``roll-modifier`` on the ``attacker``'s hit roll), which the effect compiler reads as
"-1 to hit for attacks on this unit in the Shooting phase". The published rules of most
of them say something else: after the unit has shot, it **suppresses** (or blinds) one
enemy unit it hit, and until the start of its next turn *that* enemy subtracts 1 from
the Hit roll of all its attacks. Harassment Fire (Vyper), as published (10th edition
datasheet; the text is in the BSData ``wh40k-10e`` catalogues):

    In your Shooting phase, after this unit has shot, select one enemy unit hit by one
    or more of those attacks. Until the start of your next turn, that enemy unit is
    suppressed. While a unit is suppressed, each time a model in that unit makes an
    attack, subtract 1 from the Hit roll.

Read as a defence it would wrongly make every attack on the Vyper in the Shooting phase
less accurate. The records carry no rule text to tell the two apart, so the shape decides,
checked name by name against the published texts (2026-12-02):

* a passive Shooting-phase -1 to hit on the attacker is a mark on an enemy (Harassment
  Fire, Storm of Bolts, Blazing Salvoes, Rivetin' Dakka, Saturation Volleys, Scanner
  Uplinks, Blind Barrage, Atavistic Instigation), a debuff on one enemy unit selected at
  the start of the opponent's Shooting phase after a test or a roll (Mind in the Machine,
  Mischief and Confusion), or a rule for shots at enemy units engaged with a
  Fortification (Fortification) -- unless its published text is a defence
  (``DEFENCES``: Lightning-fast Manoeuvres, "each time a ranged attack targets this
  model, subtract 1 from the Hit roll");
* a Fight-phase one is a defence ("each time a melee attack targets this unit"), except
  the names in ``MARKS`` (Hammer Blow: after fighting, suppresses an enemy Monster or
  Vehicle it hit).

``mark_reason`` gives the player-facing reason such a record is listed instead of
applied; the loader stores it beside the effect (``effect_record``'s ``mark``).

**Other defences read wrongly, by name** (``MARKS``, checked against the published texts
one by one): "cannot have the Benefit of Cover" marks read as the unit's own cover
(Purge and Cleanse: "after this model has shot, select one enemy unit hit ... that enemy
unit cannot have the Benefit of Cover"), a Feel No Pain only against Psychic Attacks or
mortal wounds read as against every attack (Psychic Hood), a defence of some models
only read as the whole unit's (Ogryn Bodyguard: "those OFFICER models have the Feel No
Pain 4+ ability"), a defence that needs a circumstance a calculation does not state
(Unbreakable Duty: "within range of an objective marker"), cover a Fortification or a
vehicle gives the models it hides read as its own (Ceramite Cover: "if that model is not
fully visible to every model in the attacking unit because of this Fortification, that
model has the Benefit of Cover"). Each is listed with the reason, never applied.

**The unit's own attacks** (``wh40kdc_attack_readings``): a bonus whose published rule
needs a kind of target, one weapon, a picked enemy unit, a charge or a circumstance gets
that condition back (``MENDS``); one that is not the unit's own (a mark for other units'
later attacks, a bonus for another unit) is listed with the reason (``ATTACK_MARKS``),
which ``mark_reason`` gives like a defence's.

**A lost condition.** Wave Serpent Shield, as published: "Each time a ranged attack
targets this model, if the Strength characteristic of that attack is greater than the
Toughness characteristic of this model, subtract 1 from the Wound roll." The record keeps
the -1 to wound in the Shooting phase but not the Strength condition, so it would reach
every ranged attack. ``mended_effect`` adds the condition in the dataset's own words
(``applies_when: attacker-strength-greater-than-target-toughness``, as Hulking Brutes
writes it), which the effect compiler reads; so for Legendary Tenacity and Advanced
Quantum Shielding ("if the Strength characteristic of that attack is greater than this
model's Toughness characteristic, subtract 1 from the Wound roll").

**Whose keyword.** In a unit's aura for friendly units (``friendly-within-aura``), the
records write the recipients' keyword test as ``target-has-keyword`` (Daemon Lord of
Nurgle: "while a friendly PLAGUE LEGIONS unit is within 6" of this model, add 1 to the
Toughness characteristic of models in that unit"), which the compiler reads as the
attack's target. Every unit ability of that shape in the dataset (9, 1.4.5) means the
friendly unit, so ``mended_effect`` writes it as ``unit-has-keyword``. (Detachment
records of the same shape mean the attack's target; they do not come through here.)
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from .wh40kdc_attack_readings import (
    ATTACK_MARKS,
    KEYWORD_A,
    MENDS,
    mend_attacks,
    mend_leaves,
    wrapped,
)

__all__ = ["DEFENCES", "MARKS", "STRENGTH_OVER_TOUGHNESS", "mark_reason", "marks_every_part",
           "mended_effect"]

_SUPPRESSED = ("its -1 to hit falls on an enemy unit this unit hit in its own {phase} "
               "phase (until its next turn), not on attacks against this unit")
_SELECTED = ("its -1 to hit falls on one enemy unit it selects at the start of the "
             "opponent's Shooting phase, after a test or a roll")
#: Published texts that are a mark, by name, with the reason (only where the phase's
#: default below would read them as a defence, or where the reason is more precise).
_NO_COVER = ("the enemy unit it hits cannot have the Benefit of Cover for a while; it gives "
             "this unit no cover")
_ONLY_PSYCHIC = ("its protection is only against Psychic Attacks or mortal wounds, which "
                 "a calculation does not tell apart")
_HIDES = ("it gives the Benefit of Cover to other models it hides from the attacker, "
          "not to itself")
MARKS: dict[str, str] = {
    **dict.fromkeys(("Purge and Cleanse", "Hammerstrike", "Target Acquisition",
                     "Flush Them Out", "Eldritch Flames (Psychic)", "Searing Flames",
                     "Barrage of Filth", "Breaching Fire", "Targeting Relay",
                     "Burning Spray", "Flame-wreathed"), _NO_COVER),
    **dict.fromkeys(("Psychic Hood", "Hood of Hellfire", "Recitation of Faith",
                     "Malign Wardings (Psychic)", "Swallow Energy (Psychic)",
                     "Gloom Prism (Aura)", "Malefic Wardings (Psychic)",
                     "P’tarix’s Sorcerous Syphon (Aura)", "Sanctic Hood",
                     "Rituale Nullificatus", "Null Rod", "The Spiritshield Helm",
                     "Daughter of the Abyss", "Daughters of the Abyss", "Abomination",
                     "Alchemyk Counteragents", "Brass Collar of Bloody Vengeance",
                     "Collar of Khorne", "Nullstone Field Generator (Aura)",
                     "Advanced Armour"), _ONLY_PSYCHIC),
    **dict.fromkeys(("Watcher in the Dark", "The Lion Helm"),
                    "once per battle, after a mortal wound, for the rest of the phase"),
    **dict.fromkeys(("Cover", "Ceramite Cover", "Reinforced Cover", "Diseased Cover",
                     "Malign Cover", "Ancient Cover", "Tidewall Cover", "Defence Line",
                     "Selfless Protector", "Rolling Fortress"), _HIDES),
    "Ogryn Bodyguard": "only the Officer models in its unit have the Feel No Pain",
    "Mutated Bodyguard": "only the Character models in its unit have the Feel No Pain",
    "Bound Creation": "only the Tech-Priest leading the unit has the Feel No Pain",
    **dict.fromkeys(("Guardian Organism", "Silent Bodyguard"),
                    "only the Character leading the unit has the Feel No Pain"),
    "Bodyguard": "only the other Character models attached to the unit have the Feel No "
                 "Pain",
    "Lifewards": "only Celestine has the Feel No Pain, while a Geminae Superia is with her",
    "Omnissiah’s Blessing": "it protects a friendly vehicle the model selects, not itself",
    "Unbreakable Duty": "needs the model on an objective or near the centre of the "
                        "battlefield (a calculation does not state it)",
    "Urban Warfare": "only while the model has the Benefit of Cover (give it as a "
                     "circumstance; the -1 Damage is not added by itself)",
    "Icon of Obstinacy": "only against attacks whose Strength is at least the unit's "
                         "Toughness, which the calculator cannot test",
    "Misfortune (Psychic)": "its -1 to wound falls on one enemy unit it selects at the end "
                            "of its Movement phase, not on attacks against this unit",
    "Hammer Blow": ("its -1 to hit falls on an enemy Monster or Vehicle this unit hit "
                    "in the Fight phase (until the end of the next turn), not on attacks "
                    "against this unit"),
    "Mind in the Machine": _SELECTED,
    "Mischief and Confusion": _SELECTED,
    "Fortification": ("its -1 to hit is for ranged attacks at enemy units engaged with "
                      "the Fortification, not at the Fortification"),
}
#: Shooting-phase records whose published text is the unit's own defence.
DEFENCES = frozenset({"Lightning-fast Manoeuvres"})


def _phase_hit_penalty(effect: Any) -> str | None:
    """The phase of a ``conditional`` effect whose only condition is ``phase-is`` and
    whose effect is a penalty to the attacker's Hit roll, else ``None``."""
    if not isinstance(effect, Mapping) or effect.get("type") != "conditional":
        return None
    cond, inner = effect.get("condition"), effect.get("effect")
    if not isinstance(cond, Mapping) or cond.get("type") != "phase-is" \
            or not isinstance(inner, Mapping):
        return None
    mod = inner.get("modifier")
    if inner.get("type") != "roll-modifier" or inner.get("target") != "attacker" \
            or not isinstance(mod, Mapping) or mod.get("roll") != "hit" \
            or mod.get("operation") != "subtract":
        return None
    params = cond.get("parameters")
    phase = params.get("phase") if isinstance(params, Mapping) else None
    return str(phase) if phase else None


def mark_reason(raw: Mapping[str, Any]) -> str | None:
    """Why the ability record ``raw`` is not the unit's own defence, or ``None``.

    >>> vyper = {"name": "Harassment Fire", "behavior": "passive", "effect": {
    ...     "type": "conditional", "condition": {"type": "phase-is",
    ...     "parameters": {"phase": "shooting"}}, "effect": {"type": "roll-modifier",
    ...     "target": "attacker", "modifier": {"roll": "hit", "operation": "subtract",
    ...     "value": 1}}}}
    >>> mark_reason(vyper).split(" (")[0]
    'its -1 to hit falls on an enemy unit this unit hit in its own Shooting phase'
    >>> mark_reason({**vyper, "name": "Lightning-fast Manoeuvres"}) is None
    True
    """
    name = str(raw.get("name") or "")
    if name in MARKS:
        return MARKS[name]
    if name in ATTACK_MARKS:
        return ATTACK_MARKS[name]
    if raw.get("behavior") != "passive" or name in DEFENCES:
        return None
    phase = _phase_hit_penalty(raw.get("effect"))
    if phase is None:
        return None
    return _SUPPRESSED.format(phase="Shooting") if phase == "shooting" else None


def marks_every_part(raw: Mapping[str, Any]) -> bool:
    """Whether ``mark_reason`` lists every part of the record (``ATTACK_MARKS``: a bonus
    that is not the unit's own), not only the parts read as its defence (``MARKS``: a
    record of the same name encoded as what it is, Leagues of Votann's Breaching Fire
    designating the enemy unit it hit, keeps its own parts)."""
    return str(raw.get("name") or "") in ATTACK_MARKS


#: Records whose published text limits their modifier to attacks with a Strength greater
#: than the unit's Toughness, a condition the record leaves out.
STRENGTH_OVER_TOUGHNESS = frozenset({"Wave Serpent Shield", "Legendary Tenacity",
                                     "Advanced Quantum Shielding"})
_S_OVER_T = (("roll-modifier",
              {"applies_when": "attacker-strength-greater-than-target-toughness"}),)


def mended_effect(raw: Mapping[str, Any]) -> Any:
    """The record ``raw``'s effect tree, with the condition its published rule has and the
    record lost added to its modifiers (``STRENGTH_OVER_TOUGHNESS``); otherwise as given.

    >>> shield = {"name": "Wave Serpent Shield", "effect": {"type": "conditional",
    ...     "condition": {"type": "phase-is", "parameters": {"phase": "shooting"}},
    ...     "effect": {"type": "roll-modifier", "target": "attacker", "modifier": {
    ...     "roll": "wound", "operation": "subtract", "value": 1}}}}
    >>> mended_effect(shield)["effect"]["modifier"]["applies_when"]
    'attacker-strength-greater-than-target-toughness'
    >>> "applies_when" in shield["effect"]["effect"]["modifier"]
    False
    """
    effect = raw.get("effect")
    if isinstance(effect, dict) and _for_friendly_units(effect):
        effect = copy.deepcopy(effect)
        _recipients_keywords(effect.get("condition"))
    name = str(raw.get("name"))
    if name in MENDS or name in KEYWORD_A or name in STRENGTH_OVER_TOUGHNESS:
        effect = copy.deepcopy(effect)
        mend_attacks(name, effect)
        if name in STRENGTH_OVER_TOUGHNESS:
            mend_leaves(effect, _S_OVER_T)
    return wrapped(name, effect)


def _for_friendly_units(effect: Any) -> bool:
    """A conditional whose effect goes to friendly units (a unit's aura): its keyword
    tests are the recipients'."""
    if not isinstance(effect, Mapping) or effect.get("type") != "conditional":
        return False
    inner = effect.get("effect")
    return isinstance(inner, Mapping) \
        and inner.get("target") in ("friendly-within-aura", "all-friendly")


def _recipients_keywords(cond: Any) -> None:
    """Rewrite, in place, ``target-has-keyword`` tests as ``unit-has-keyword``.

    >>> c = {"operator": "and", "operands": [{"type": "target-has-keyword",
    ...      "parameters": {"keyword": "nurgle"}}]}
    >>> _recipients_keywords(c); c["operands"][0]["type"]
    'unit-has-keyword'
    """
    if isinstance(cond, dict):
        if cond.get("type") == "target-has-keyword":
            cond["type"] = "unit-has-keyword"
        for v in cond.values():
            _recipients_keywords(v)
    elif isinstance(cond, list):
        for v in cond:
            _recipients_keywords(v)
