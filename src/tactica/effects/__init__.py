"""Named effects: stratagems, detachment rules, enhancements and abilities by name.

>>> from tactica.effects import find_effect
>>> e, param = find_effect("PRIMED AND READIED")
>>> e.name, e.cp, e.source
('Primed and Readied', 2, 'Host of Ascension')
>>> find_effect("Command Re-roll: wound")[1]
'wound'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..names import normalise, suggest
from .catalogue import EFFECTS, NON_COMBAT
from .model import NamedEffect, Outcome

if TYPE_CHECKING:
    from .dataset import DatasetEffects

__all__ = ["EFFECTS", "NON_COMBAT", "NamedEffect", "Outcome", "find_effect", "known_effect",
           "list_effects"]

_INDEX: dict[str, list[NamedEffect]] = {}
for _e in EFFECTS:
    for _n in (_e.name, *_e.aliases):
        _INDEX.setdefault(normalise(_n), []).append(_e)
_NON_COMBAT = {normalise(k): k for k in NON_COMBAT}


class UnknownEffectError(LookupError):
    """A name that is neither a named effect nor a known non-combat rule."""


def dataset_effects() -> DatasetEffects | None:
    """Every faction's rules as named effects (``effects.dataset``, imported on first
    use: a scenario without a dataset rule never loads it)."""
    from .dataset import dataset_effects as build

    return build()


def _split(text: str) -> tuple[str, str | None]:
    """"Name: parameter" -> (name, parameter); a whole name with a colon stays whole
    ("Damaged: 1-8 wounds remaining")."""
    if ":" in text and normalise(text) not in _INDEX:
        name, _, param = text.partition(":")
        if normalise(name) in _INDEX:
            return name, param.strip() or None
        data = dataset_effects()
        if data is not None and data.find(text) is None and data.find(name) is not None:
            return name, param.strip() or None
    return text, None


def _from_dataset(text: str, detachment: str | None) -> tuple[NamedEffect, str | None] | None:
    """Every faction's rules (issue 16): a dataset record by name, "Name: option" or
    "Name (Detachment)"; ``None`` when the dataset is not installed or has no such name."""
    data = dataset_effects()
    if data is None:
        return None
    name, param = _split(text)
    found = data.find(name, detachment)
    return None if found is None else (found.effect, param)


def find_effect(text: str, rules: str | None = None,
                detachment: str | None = None) -> tuple[NamedEffect, str | None]:
    """The named effect for ``"Name"`` or ``"Name: parameter"`` (case-, accent- and
    punctuation-insensitive), the one of rules version ``rules`` when a name has one per
    version (Tank Shock, 10th / Crushing Impact, 11th). Raises ``UnknownEffectError``
    with suggestions, or with a plain statement when the rule exists but changes no odds
    (``non_combat_reason``)."""
    found = known_effect(text, rules, detachment)
    if found is not None:
        return found
    name, _ = _split(text)
    names = [e.name for e in EFFECTS] + list(NON_COMBAT)
    data = dataset_effects()
    hint = suggest(name, names) or (suggest(name, data.names()) if data is not None else ())
    raise UnknownEffectError(f"unknown effect {text!r}"
                             + (f"; did you mean: {', '.join(hint)}?" if hint else ""))


def known_effect(text: str, rules: str | None = None,
                 detachment: str | None = None) -> tuple[NamedEffect, str | None] | None:
    """``find_effect`` without the suggestions: None for an unknown name (a result's
    list of rules not calculated asks this of every rule of both units, and the
    suggestions were most of a small calculation's time)."""
    name, param = _split(text)
    key = normalise(name)
    if key in _INDEX:
        found = _INDEX[key]
        exact = [e for e in found if normalise(e.name) == key]
        for pool in (exact, found):
            fits = [e for e in pool if rules is None or rules in e.rules]
            if fits:
                return fits[0], param
        return (exact or found)[0], param
    if key in _NON_COMBAT:
        raise UnknownEffectError(f"{_NON_COMBAT[key]} is not a combat rule "
                                 f"({NON_COMBAT[_NON_COMBAT[key]]})")
    return _from_dataset(text, detachment)


def non_combat_reason(text: str) -> str | None:
    """Why a seed rule has no combat effect, or None if it is not such a rule."""
    key = normalise(_split(text)[0])
    return NON_COMBAT[_NON_COMBAT[key]] if key in _NON_COMBAT else None


def list_effects(detachment: str | None = None, unit: str | None = None,
                 keywords: tuple[str, ...] = ()) -> list[NamedEffect]:
    """Named effects, optionally only a detachment's (plus core ones) or those whose
    attacker keyword conditions a unit with ``keywords`` (named ``unit``) can meet."""
    out = []
    for e in EFFECTS:
        if detachment is not None and normalise(e.source) not in (normalise(detachment),
                                                                   "core"):
            continue
        if unit is not None:
            from ..combat.scenario import Scenario

            probe = Scenario.model_validate({
                "attacker": {"name": unit, "keywords": list(keywords), "weapons": [
                    {"A": "1", "skill": 4, "S": 4, "D": "1"}]},
                "target": {"models": [{"T": 4, "Sv": 3, "W": 1}]},
            })
            failed = [c for c in e.conditions if c.description.startswith("attacker")
                      and not c.test(probe)]
            if failed:
                continue
        out.append(e)
    return out
