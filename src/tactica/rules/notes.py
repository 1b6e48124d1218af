"""Which edition's text the calculator follows for each rule it computes, in the
player's words (``tactica rule NAME`` and the README's rules notes show them).

>>> print(rule_note("psychic", "10th"))
Psychic (10th text): no change to the attack's numbers.
>>> rule_note("Frobnicate", "11th") is None
True
"""

from __future__ import annotations

from dataclasses import dataclass

from ..model.common import RulesVersion
from ..names import name_key

__all__ = ["RULE_NOTES", "RuleNote", "rule_note", "rule_note_keys"]


@dataclass(frozen=True)
class RuleNote:
    """How the calculator applies one rule under each rules version."""

    name: str
    eleventh: str
    tenth: str

    def text(self, rules: RulesVersion) -> str:
        return self.eleventh if rules == "11th" else self.tenth


_SAME = "same as the 11th text"
_CONVERSION = ("the conversion beam weapons' own text (the 11th text is not in the data): "
               "beyond 12\" an unmodified hit roll of 4+ is a critical hit.")

RULE_NOTES: tuple[RuleNote, ...] = (
    RuleNote("Characteristic bounds",
             "11th text: BS and WS stay between 2+ and 6+ after all modifiers (cover, "
             "Plunging Fire and BS changes included); saves never better than 2+; A, S and "
             "D at least 1; AP never worse than 0; hit and wound rolls modified by at most "
             "+1/-1, save rolls without a cap.",
             "10th text: hit and wound rolls modified by at most +1/-1, a save improved by "
             "at most +1; BS and WS are not bounded (an unmodified 1 still fails)."),
    RuleNote("Heavy",
             "11th text: +1 to hit in your Shooting phase if the unit is unengaged, was not "
             "set up this turn and no model moved more than 3\" (remained stationary).",
             "10th text: +1 to hit if the unit remained stationary; never after arriving "
             "from reserves."),
    RuleNote("Psychic",
             "11th text: the attack ignores the modifiers that lower its chance to hit (a "
             "worse BS/WS, cover, -1 to hit) and keeps those that raise it.",
             "10th text: no change to the attack's numbers."),
    RuleNote("Cleave",
             "11th text: X more attack dice for every five models in the target unit.",
             "the 11th text (10th has no Cleave)."),
    RuleNote("Indirect Fire",
             "11th text (indirect shooting): at a target it cannot see, the target has the "
             "benefit of cover, hit rolls cannot be re-rolled and an unmodified 1-5 fails "
             "(1-3 when a friendly observer sees the target and the unit stood still).",
             "10th text: -1 to hit and the target has the benefit of cover."),
    RuleNote("Plunging Fire",
             "11th text: the attack's BS is improved by 1 (within 2+..6+).",
             "10th: no text in the data; not applied and listed as not calculated."),
    RuleNote("Close-quarters",
             "11th text (close-quarters shooting): an engaged MONSTER/VEHICLE unit's ranged "
             "attacks are -1 to hit unless made with a [CLOSE-QUARTERS] (or [PISTOL]) weapon "
             "at the unit it is engaged with; ranged attacks at an engaged MONSTER/VEHICLE "
             "unit are -1 to hit.",
             "10th text (Big Guns Never Tire): " + _SAME + "."),
    RuleNote("Conversion", _CONVERSION, _CONVERSION),
    RuleNote("Deadly Demise",
             "11th text: each model destroyed rolls a D6; on a 6 the attacking unit, if "
             "within 6\" (fighting, or a distance of 6\" or less), suffers X mortal wounds.",
             "10th text: " + _SAME + "."),
    RuleNote("Firing Deck",
             "11th text: up to X embarked models each add one ranged weapon (not [ONE SHOT]) "
             "to the transport's attack, with their own BS.", "10th text: " + _SAME + "."),
    RuleNote("Devastating Wounds",
             "11th text: a critical wound ends the attack and inflicts mortal wounds equal "
             "to D (not halved or reduced) after the normal damage, at most one model each.",
             "10th text: a critical wound cannot be saved (no invulnerable save either); "
             "its damage is inflicted after the unit's other attacks as mortal wounds."),
    RuleNote("Lethal Hits",
             "11th text: a critical hit may wound automatically (the calculator chooses "
             "whichever gives more expected damage).",
             "10th text: a critical hit wounds automatically."),
    RuleNote("Benefit of Cover",
             "11th text: the attack's BS is worsened by 1 (ranged attacks; Stealth gives it, "
             "Ignores Cover removes it; not cumulative).",
             "10th text: +1 to the armour save against ranged attacks (not for a 3+ or better "
             "save against AP 0); Stealth is -1 to hit."),
    RuleNote("Hazardous",
             "11th text: after the attacks, a hazard roll per Hazardous weapon fails on 1-2: "
             "1 mortal wound (3 for a MONSTER/VEHICLE unit).",
             "10th text: a test per Hazardous weapon fails on a 1: 3 mortal wounds."),
)

_BY_NAME = {name_key(n.name): n for n in RULE_NOTES}
_ALIASES = {"pistol": "close-quarters", "stealth": "benefit of cover",
            "cover": "benefit of cover"}


def rule_note(name: str, rules: RulesVersion) -> str | None:
    """"Heavy (11th text): ..." for a rule the calculator computes, else None."""
    key = name_key(name)
    key = name_key(_ALIASES.get(key, key))
    note = _BY_NAME.get(key)
    if note is None:
        return None
    text = note.text(rules)
    head, _, rest = text.partition(": ")
    if rest and ("text" in head or head in ("10th", "11th")):
        return f"{note.name} ({head}): {rest}"
    return f"{note.name}: {text}"


def rule_note_keys() -> tuple[str, ...]:
    """Every look-up key ``rule_note`` answers: ``tactica.names.name_key`` of each rule's
    name and of each other name it goes by ("pistol", "cover")."""
    return (*_BY_NAME, *(name_key(a) for a in _ALIASES))
