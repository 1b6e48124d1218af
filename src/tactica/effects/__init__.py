"""Named effects: stratagems, detachment rules, enhancements and abilities by name.

>>> from tactica.effects import find_effect
>>> e, param = find_effect("PRIMED AND READIED")
>>> e.name, e.cp, e.source
('Primed and Readied', 2, 'Host of Ascension')
>>> find_effect("Command Re-roll: wound")[1]
'wound'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from ..names import normalise, suggest
from .catalogue import EFFECTS, NON_COMBAT
from .model import NamedEffect, Outcome

if TYPE_CHECKING:
    from .dataset import DatasetEffects

__all__ = ["EFFECTS", "NON_COMBAT", "NamedEffect", "Outcome", "detachment_known",
           "find_effect", "list_effects", "rule_owners", "unit_ability_effect"]

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


def _seed_effect(key: str, rules: str | None) -> NamedEffect | None:
    """The seed catalogue's effect under the normalised name ``key`` (the one of rules
    version ``rules`` when a name has one per version), or ``None``."""
    found = _INDEX.get(key)
    if not found:
        return None
    exact = [e for e in found if normalise(e.name) == key]
    for pool in (exact, found):
        fits = [e for e in pool if rules is None or rules in e.rules]
        if fits:
            return fits[0]
    return (exact or found)[0]


def unit_ability_effect(name: str, rules: str | None = None) -> NamedEffect | None:
    """The named effect of a datasheet ability (Cult Demagogue), or ``None``. Unit
    abilities are only in the seed catalogue (the dataset's records are stratagems,
    enhancements, detachment and army rules), so this never loads the dataset's rules
    nor computes suggestions: a unit's abilities are looked up on every calculation.

    >>> unit_ability_effect("Cult Demagogue").kind
    'ability'
    >>> unit_ability_effect("Deep Strike") is None
    True
    """
    found = _seed_effect(normalise(name), rules)
    return found if found is not None and found.kind == "ability" else None


def find_effect(text: str, rules: str | None = None, detachment: str | None = None,
                hints: bool = True, dataset: bool = True) -> tuple[NamedEffect, str | None]:
    """The named effect for ``"Name"`` or ``"Name: parameter"`` (case-, accent- and
    punctuation-insensitive), the one of rules version ``rules`` when a name has one per
    version (Tank Shock, 10th / Crushing Impact, 11th). Raises ``UnknownEffectError``
    with suggestions (unless ``hints`` is false), or with a plain statement when the rule
    exists but changes no odds (``non_combat_reason``). ``dataset=False`` looks only in
    the seed catalogue (every faction's rules are then not loaded)."""
    name, param = _split(text)
    key = normalise(name)
    seed = _seed_effect(key, rules)
    if seed is not None:
        return seed, param
    if key in _NON_COMBAT:
        raise UnknownEffectError(f"{_NON_COMBAT[key]} is not a combat rule "
                                 f"({NON_COMBAT[_NON_COMBAT[key]]})")
    found_in_data = _from_dataset(text, detachment) if dataset else None
    if found_in_data is not None:
        return found_in_data
    if not hints:  # a lookup whose failure nobody reads (a unit's own abilities)
        raise UnknownEffectError(f"unknown effect {text!r}")
    names = [e.name for e in EFFECTS] + list(NON_COMBAT)
    data = dataset_effects()
    # one ranking over the seed catalogue's names and every faction's (names.rank): a
    # seed rule sharing a word must not hide the dataset's close name
    hint = suggest(name, [*names, *(data.names() if data is not None else ())])
    raise UnknownEffectError(f"unknown effect {text!r}"
                             + (f"; did you mean: {', '.join(hint)}?" if hint else ""))


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
            from ..combat.contract.scenario import Scenario

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


def rule_owners(kind: Literal["faction", "detachment"]) -> tuple[str, ...]:
    """The factions (the dataset's names and the players', "Space Marines") or the
    detachments whose rules are known, sorted: what a mistyped ``--faction`` or
    ``--detachment`` is matched against. Empty without the dataset."""
    data = dataset_effects()
    if data is None:
        return ()
    if kind == "faction":
        from ..loaders.wh40kdc_factions import player_faction

        known = {f for e in data.entries for f in e.factions}
        known |= {player_faction(f).name for f in known}
    else:
        known = {str(d) for e in data.entries
                 if (d := getattr(e.record, "detachment", None)) is not None}
    return tuple(sorted(known))


def detachment_known(detachment: str) -> bool:
    """Whether a seed rule or a dataset record belongs to ``detachment``."""
    if any(normalise(e.source) == normalise(detachment) for e in EFFECTS):
        return True
    return normalise(detachment) in {normalise(d) for d in rule_owners("detachment")}
