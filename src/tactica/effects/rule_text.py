"""The generated text of a library record that has no published text (issue 41): a
datasheet ability whose dataset effect record the loader kept (``Ability.effect``), or
a stratagem, enhancement, detachment rule or army rule of the bundled dataset, written
from its effect code by ``effects.wording``, with the dataset's notes on the record.

A record of the dataset with no effect code of its own (Armour of Contempt in most Space
Marine detachments) takes the words of the same-named records of the same kind when they
all say the same, and says whose they are (``GeneratedText.borrowed``); else it has none.

``tactica.lookup`` puts it on each ``RuleEntry`` (and so in the index of rules by name);
the doors show it marked as generated.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from tactica.cache_registry import lasting_cache

from ..loaders.wh40kdc_effects import granted_ids
from ..model.datasheet import Ability
from ..model.rules import ArmyRule, DetachmentRule, Enhancement, Stratagem
from ..names import normalise
from .wording import describe_record

if TYPE_CHECKING:
    from ..loaders.wh40kdc_rules import DatasetRules

__all__ = ["GeneratedText", "ability_text", "generated_text"]


@dataclass(frozen=True)
class GeneratedText:
    """A record's effect in words (``text``), the dataset's notes on it (``notes``: its
    curation notes, and why the record is disputed when it is), the effect kinds the text
    could not put in words, and ``borrowed``: for a record with no effect code of its
    own, where the words come from (the same-named record of another detachment, when
    every such record says the same)."""

    text: str
    notes: str | None = None
    undescribed: tuple[str, ...] = ()
    borrowed: str | None = None


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
    return _of_effect_json(ability.effect)


@lasting_cache(maxsize=4096)
def _of_effect_json(text: str) -> GeneratedText | None:
    """The generated text of an ability's effect record (kept by its JSON text: the many
    datasheets that share an ability share its text)."""
    try:
        record = json.loads(text)
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
        dataset_rules()
    except DatasetMissingError:
        return None
    return _of_record(item)


@lasting_cache(maxsize=8192)
def _of_record(item: Stratagem | Enhancement | DetachmentRule | ArmyRule) -> GeneratedText | None:
    """The generated text of a record of the dataset (kept by the record's value: a
    record is found under several look-up keys)."""
    from ..loaders.wh40kdc_rules import dataset_rules

    rules = dataset_rules()
    raw = rules.effect_of(item)
    if raw is not None and raw.get("effect"):
        return _from_raw(rules, raw)
    return _same_named(item.record, normalise(item.name))


def _from_raw(rules: DatasetRules, raw: Mapping[str, Any],
              borrowed: str | None = None) -> GeneratedText:
    names = {aid: str(found["name"]) for aid in granted_ids(raw.get("effect"))
             if (found := rules.ability(aid)) is not None and found.get("name")}
    said = describe_record(raw, names)
    notes = None if borrowed else _notes(raw.get("community_notes"), raw.get("dispute_notes"))
    return GeneratedText(said.text, notes, said.undescribed, borrowed)


def _same_named(kind: str, name: str) -> GeneratedText | None:
    """For a record with no effect code: the text of the records of the same kind and
    name that have one (Armour of Contempt in another detachment), when they all say the
    same; ``None`` otherwise."""
    said = _with_effect_code().get((kind, name), {})
    return next(iter(said.values())) if len(said) == 1 else None


@lasting_cache(maxsize=None, kind="data")
def _with_effect_code() -> Mapping[tuple[str, str], Mapping[str, GeneratedText]]:
    """The texts of the dataset's records that have effect code, by kind and name (each
    text once), built on the first record without effect code."""
    from ..loaders.wh40kdc_rules import dataset_rules

    rules = dataset_rules()
    out: dict[tuple[str, str], dict[str, GeneratedText]] = {}
    for other in rules.records():
        if not isinstance(other, Stratagem | Enhancement | DetachmentRule | ArmyRule):
            continue
        raw = rules.effect_of(other)
        if raw is None or not raw.get("effect"):
            continue
        where = getattr(other, "detachment", None) or ", ".join(rules.factions_for(other))
        text = _from_raw(rules, raw, f"the same-named {other.record.replace('_', ' ')} of "
                                     f"{where}")
        out.setdefault((other.record, normalise(other.name)), {}).setdefault(text.text, text)
    return MappingProxyType({k: MappingProxyType(v) for k, v in out.items()})  # cached
