"""The words the rule text generator writes with (issue 41): the dataset's identifiers
(``"after-this-unit-shoots"``, ``"legiones-daemonica"``) as plain words or keywords,
numbers and dice, the units a leaf's ``target`` names, the rolls and characteristics,
phases, turns, timings and events (``effect.schema.json`` and ``condition.schema.json``,
1.4.5).

Text only: nothing here reads a rule's meaning beyond the words a player expects.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["ROLLS", "STATS", "Subject", "article", "count_of", "dice_text", "event_text", "inches",
           "join", "kw", "kw_all", "kw_list", "lower_first", "phase_text", "subject", "timing_text",
           "turn_text", "upper_first", "weapon_name", "words"]

_SLUG = re.compile(r"[_-]+")


def words(value: Any) -> str:
    """An identifier of the dataset as words: ``"after-this-unit-shoots"`` -> "after this
    unit shoots"; a list joined with "and"; a number as written.

    >>> words("start-of-fight-phase"), words(["normal", "advance", "fall-back"])
    ('start of fight phase', 'normal, advance and fall back')
    """
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list | tuple):
        return join([words(v) for v in value if v is not None])
    if isinstance(value, Mapping):
        return ", ".join(f"{words(k)} {words(v)}" for k, v in value.items() if v is not None)
    text = _SLUG.sub(" ", str(value)).strip()
    return re.sub(r"\s+", " ", text)


def weapon_name(value: Any) -> str:
    """A weapon as printed: ``"jindarii-tox-cycler"`` -> "Jindarii Tox Cycler"; a name
    already in capitals stays as written."""
    text = words(value)
    return text.title() if text.islower() else text


def article(word: str) -> str:
    """"a melee attack", "an Arcane Fire attack"."""
    return f"{'an' if word[:1].casefold() in 'aeiou' else 'a'} {word}"


def join(items: list[str], last: str = "and") -> str:
    """``["a", "b", "c"]`` -> "a, b and c"."""
    items = [i for i in items if i]
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


def kw(value: Any) -> str:
    """A keyword as printed: capitals, the dataset's hyphens as spaces (``"legiones-
    daemonica"`` -> "LEGIONES DAEMONICA"); a word with an apostrophe keeps it."""
    return words(value).upper()


def kw_list(values: Any, last: str = "and") -> str:
    """Keywords joined: ``["MONSTER", "VEHICLE"]`` -> "MONSTER or VEHICLE" (``last``)."""
    if isinstance(values, str):
        return kw(values)
    return join([kw(v) for v in values or ()], last)


def kw_all(values: Any) -> str:
    """Keywords a unit must all have, as the rules write them: ``["KHORNE", "LEGIONES
    DAEMONICA"]`` -> "KHORNE LEGIONES DAEMONICA"."""
    if isinstance(values, str):
        return kw(values)
    return " ".join(kw(v) for v in values or ())


def upper_first(text: str) -> str:
    return text[:1].upper() + text[1:]


def lower_first(text: str) -> str:
    """The first letter lowered unless the first word is a keyword in capitals."""
    first = text.split(" ", 1)[0]
    if len(first) > 1 and first.isupper():
        return text
    return text[:1].lower() + text[1:]


def dice_text(value: Any) -> str:
    """A number or dice expression as printed: ``"d3"`` -> "D3", ``"1D3"`` -> "D3"."""
    text = str(value).strip()
    text = re.sub(r"(?<![0-9A-Za-z])1?[dD](\d)", r"D\1", text)
    return re.sub(r"(\d)d(\d)", r"\1D\2", text)


def count_of(value: Any, noun: str) -> str:
    """"1 mortal wound", "D3 mortal wounds", "3 mortal wounds"."""
    text = dice_text(value)
    return f"{text} {noun}" if text == "1" else f"{text} {noun}s"


def inches(value: Any) -> str:
    """``6`` -> '6"'; "engagement" -> "Engagement Range"."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return f'{value:g}"'
    text = str(value)
    if text.casefold() in ("engagement", "engagement-range"):
        return "Engagement Range"
    return f'{text}"' if text.replace(".", "").isdigit() else words(text)


# --- the units a leaf names ------------------------------------------------------------------


@dataclass(frozen=True)
class Subject:
    """Who a leaf is about: ``noun`` ("the unit", "friendly units within 6\\""), the
    models in it (``models``), singular or plural (the verb agrees)."""

    noun: str
    models: str
    plural: bool = False
    enemy: bool = False

    def verb(self, singular: str, plural: str) -> str:
        return plural if self.plural else singular

    @property
    def has(self) -> str:
        return self.verb("has", "have")

    @property
    def models_have(self) -> str:
        """The verb after ``models``: "models in the unit have", "the bearer has"."""
        return "have" if self.models.startswith("models") else "has"


def _around(range_text: str | None) -> str:
    return f"within {range_text}" if range_text else "within range"


def subject(target: Any, aura: str | None = None) -> Subject:
    """The unit(s) the dataset's ``target`` names; ``aura``: the aura's range ("6\\"")
    for ``friendly-within-aura`` and ``enemy-within-aura``."""
    around = _around(aura)
    table: dict[Any, Subject] = {
        "self": Subject("this unit", "models in this unit"),
        "unit": Subject("the unit", "models in the unit"),
        "bearer": Subject("the bearer", "the bearer"),
        "attached-unit": Subject("the unit it leads", "models in the unit it leads"),
        "selected-models-unit": Subject("the selected unit", "models in the selected unit"),
        "triggering-unit": Subject("that unit", "models in that unit"),
        "friendly-within-aura": Subject(f"friendly units {around}",
                                        f"models in friendly units {around}", True),
        "all-friendly": Subject("units from your army", "models from your army", True),
        "defender": Subject("the target", "models in the target", enemy=True),
        "target": Subject("the target", "models in the target", enemy=True),
        "attacker": Subject("the attacking unit", "models in the attacking unit",
                            enemy=True),
        "enemy-within-aura": Subject(f"enemy units {around}", f"models in enemy units "
                                     f"{around}", True, True),
        "all-enemy": Subject("enemy units", "models in enemy units", True, True),
        "targets-of-selected-unit-attacks": Subject(
            "the units the selected unit attacks", "models in those units", True, True),
        "destroyed-model": Subject("the destroyed model", "the destroyed model"),
    }
    if target in table:
        return table[target]
    if target is None:
        return table["unit"]
    return Subject(f"the {words(target)}", f"models in the {words(target)}")


# --- rolls, characteristics, phases ----------------------------------------------------------

#: Rolls as the rules name them.
ROLLS = {
    "hit": "Hit roll", "wound": "Wound roll", "damage": "Damage roll", "save": "saving throw",
    "saving-throw": "saving throw", "charge": "Charge roll", "advance": "Advance roll",
    "battle-shock": "Battle-shock test", "leadership": "Leadership test",
    "desperate-escape": "Desperate Escape test", "psychic-test": "Psychic test",
    "hazardous": "Hazardous test", "attacks": "roll for the Attacks characteristic",
    "attacks-characteristic": "roll for the Attacks characteristic",
    "weapon-attacks": "roll for the Attacks characteristic", "any": "roll",
    "all": "roll", "normal-move-distance": "roll for a Normal move's distance",
    "surge": "roll for a surge move's distance",
}

#: Characteristics by the dataset's abbreviation.
STATS = {
    "A": "Attacks", "S": "Strength", "AP": "Armour Penetration", "D": "Damage",
    "Damage": "Damage", "BS": "Ballistic Skill", "WS": "Weapon Skill", "T": "Toughness",
    "Sv": "Save", "InvSv": "invulnerable save", "W": "Wounds", "M": "Move",
    "Ld": "Leadership", "OC": "Objective Control", "Range": "Range", "R": "Range",
    "range": "Range",
}

_PHASES = {"opponent-movement": "your opponent's Movement phase",
           "reserves": "the Reinforcements step"}


def phase_text(phase: Any) -> str:
    """"the Shooting phase"."""
    if phase in _PHASES:
        return _PHASES[str(phase)]
    return f"the {words(phase).title()} phase"


def turn_text(turn: Any) -> str:
    """"your turn", "your opponent's turn", "the first turn"."""
    text = str(turn).casefold()
    if text in ("your", "your-turn", "own", "self"):
        return "your turn"
    if text in ("opponent", "opponent-turn", "opponents"):
        return "your opponent's turn"
    if text.isdigit():
        return f"battle round {text}"
    return words(turn)


_TIMINGS = {
    "before-bearer-removed": "when this model is destroyed, before it is removed",
    "end-of-phase": "at the end of the phase", "start-of-phase": "at the start of the phase",
    "end": "at the end of the phase", "start": "at the start of the phase",
    "selected-to-shoot": "when the unit is selected to shoot",
    "when-selected-to-shoot": "when the unit is selected to shoot",
    "selected-to-fight": "when the unit is selected to fight",
    "selected-to-attack": "when the unit is selected to shoot or fight",
    "after-unit-resolves-attacks": "after the unit has resolved its attacks",
    "on-model-destroyed": "when a model in the unit is destroyed",
    "on-unit-destroyed": "when the unit is destroyed",
    "post-deployment": "after both armies have deployed",
    "after-deployment": "after both armies have deployed",
    "deep-strike-setup": "when the unit is set up using Deep Strike",
    "first-this-battle": "the first time this happens in the battle",
    "unit-set-up": "when the unit is set up on the battlefield",
    "declare-battle-formations": "when you declare your battle formations",
    "reinforcements": "when the unit arrives as Reinforcements",
    "arrives-from-strategic-reserves": "when the unit arrives from Strategic Reserves",
    "battle-start": "at the start of the battle",
    "start-of-command-phase": "at the start of your Command phase",
    "command-phase": "in your Command phase",
    "on-unit-selected": "when the unit is selected",
}


def timing_text(timing: Any) -> str:
    """A moment of the turn: "at the start of the Fight phase", "when the unit is
    selected to shoot"; an identifier the table does not have, as its words ("after
    friendly unit shot"), led by "when" unless it starts with a word of time."""
    key = str(timing)
    if key in _TIMINGS:
        return _TIMINGS[key]
    text = words(key)
    m = re.fullmatch(r"(start|end) of (?:(your|opponent s|the) )?(\w+) (phase|turn|battle round)",
                     text)
    if m:
        whose = {"your": "your ", "opponent s": "your opponent's "}.get(m.group(2) or "", "the ")
        what = m.group(3).title() if m.group(4) == "phase" else m.group(3)
        return f"at the {m.group(1)} of {whose}{what} {m.group(4)}"
    m = re.fullmatch(r"(start|end) of (?:the )?(turn|battle round|battle|move|movement phase)",
                     text)
    if m:
        return f"at the {m.group(1)} of the {m.group(2)}"
    if re.match(r"(after|before|when|while|once|during|at|on|if|each|every|first|until)\b",
                text):
        return text
    for pattern, said in _MOMENTS:
        m = re.fullmatch(pattern, text)
        if m:
            said = said.format(*(g.title() if g else "" for g in m.groups()))
            return re.sub(r"\ba (?=[AEIOU])", "an ", said)
    return f"when: {text}"


#: Moments the dataset writes in its own words, as a sentence says them.
_MOMENTS = (
    (r"(normal|fall back|charge|disembark|advance|pile in|consolidation) move",
     "when the unit makes a {0} move"),
    (r"(?:unit )?selected to (shoot|fight|move|advance|fall back)(?: this phase)?",
     "when the unit is selected to {0}"),
    (r"enemy unit destroyed", "when an enemy unit is destroyed"),
    (r"enemy unit destroyed in melee", "when an enemy unit is destroyed by a melee attack"),
    (r"(shooting|fight|movement|charge|command) phase", "in the {0} phase"),
    (r"starts in strategic reserves", "if the unit starts the battle in Strategic Reserves"),
    (r"moved through tall terrain", "when the unit has moved through tall terrain"),
    (r"unit disembarked this (turn|phase)", "when the unit has disembarked this {0}"),
)


_EVENTS = {
    "enemy-unit-ended-move": "when an enemy unit ends a move",
    "on-unit-selected": "when the unit is selected",
    "start-of-phase": "at the start of the phase", "end-of-phase": "at the end of the phase",
    "after-enemy-unit-fires": "after an enemy unit has shot",
    "on-unit-destroyed": "when the unit is destroyed",
    "end-of-charge-move": "when the unit ends a Charge move",
    "on-model-destroyed": "when a model in the unit is destroyed",
    "selected-to-fight": "when a unit is selected to fight",
    "before-wound-roll": "before the Wound roll is made",
}


def event_text(trigger: Mapping[str, Any]) -> str:
    """A record's ``trigger`` ({event, subject, proximity, move_types, condition}) as
    "when an enemy unit ends a move within 9\\" of this unit"."""
    event = trigger.get("event")
    text = _EVENTS.get(str(event), timing_text(event)) if event else ""
    who = trigger.get("subject")
    if who == "enemy-unit" and text.startswith("when the unit"):
        text = text.replace("when the unit", "when an enemy unit", 1)
    elif who == "enemy-unit" and text.endswith(" of the phase"):
        text = text.replace(" of the phase", " of one of your opponent's phases")
    prox = trigger.get("proximity")
    if isinstance(prox, Mapping) and prox.get("range") is not None:
        text += f" within {inches(prox['range'])} of this unit"
    moves = trigger.get("move_types")
    if moves:
        text += f" ({words(moves)} moves)"
    return text
