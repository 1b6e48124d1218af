"""The generated text of a library record that has no published text (issue 41): a
datasheet ability whose dataset effect record the loader kept (``Ability.effect``), or
a stratagem, enhancement, detachment rule or army rule of the bundled dataset, written
from its effect code by ``effects.wording``, with the dataset's notes on the record.

``tactica.lookup`` puts it on each ``RuleEntry`` (and so in the index of rules by name);
the doors show it marked as generated.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ..loaders.wh40kdc_effects import granted_ids
from ..model.datasheet import Ability
from ..model.rules import ArmyRule, DetachmentRule, Enhancement, Stratagem
from .wording import describe_record

__all__ = ["GeneratedText", "ability_text", "generated_text"]


@dataclass(frozen=True)
class GeneratedText:
    """A record's effect in words (``text``), the dataset's notes on it (``notes``: its
    curation notes, and why the record is disputed when it is) and the effect kinds the
    text could not put in words."""

    text: str
    notes: str | None = None
    undescribed: tuple[str, ...] = ()


def _notes(notes: Any, disputed: Any) -> str | None:
    said = [str(notes).strip()] if notes else []
    if disputed:
        said.append(f"Disputed: {str(disputed).strip()}")
    return " ".join(said) or None


def ability_text(ability: Ability) -> GeneratedText | None:
    """A datasheet ability's generated text, from the effect record the loader kept;
    ``None`` for an ability with published text or no effect record."""
    if ability.text or not ability.effect:
        return None
    try:
        record = json.loads(ability.effect)
    except ValueError:
        return None
    if not isinstance(record, dict):
        return None
    said = describe_record(record)
    return GeneratedText(said.text, _notes(record.get("notes"), record.get("disputed")),
                         said.undescribed)


def _has_text(record: object) -> bool:
    return any(getattr(record, k, None) for k in ("text", "when", "target", "effect"))


def generated_text(item: object) -> GeneratedText | None:
    """The generated text of a library item (a rule record, or a datasheet ability found
    by name): ``None`` when it has published text or no effect code, or when the bundled
    dataset is not installed."""
    ability = getattr(item, "ability", None)
    if isinstance(ability, Ability):
        return ability_text(ability)
    if not isinstance(item, Stratagem | Enhancement | DetachmentRule | ArmyRule) or \
            item.key is None or _has_text(item):
        return None
    from ..loaders.wh40kdc import DatasetMissingError
    from ..loaders.wh40kdc_rules import dataset_rules

    try:
        rules = dataset_rules()
    except DatasetMissingError:
        return None
    raw = rules.effect_of(item)
    if raw is None or not raw.get("effect"):
        return None
    names = {aid: str(found["name"]) for aid in granted_ids(raw.get("effect"))
             if (found := rules.ability(aid)) is not None and found.get("name")}
    said = describe_record(raw, names)
    return GeneratedText(said.text, _notes(raw.get("community_notes"), raw.get("dispute_notes")),
                         said.undescribed)
