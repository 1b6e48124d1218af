"""A rule found by name (``RuleEntry``) and how the calculator treats it, computed from a
library (``entries_of``).

The calculator's status of one record: a faction rule of the bundled dataset says
``modelled`` with what it does or why not (``tactica.effects.dataset``), a datasheet
ability the dataset encodes whether it is applied (and when) or why not
(``own_ability_status``, ``tactica.effects.unit_abilities``), a core ability
the engine computes says which edition's text it follows (``tactica.rules.notes``), a
weapon ability that it is computed from the weapon's profile (``tactica.model.abilities``),
a seed-page rule that is a named effect says ``modelled``.

This module imports nothing heavy at the top: ``RuleEntry`` is what a look-up in the
on-disk index (``tactica.lookup.rule_index``) returns, without the library or pydantic.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from ..effects.compiled import Part
    from ..effects.dataset import DatasetEffects
    from ..index import Library, UnitAbility

__all__ = ["GENERATED", "RuleEntry", "Statuses", "entries_of", "entry_from_json",
           "own_ability_status"]

#: How every door marks a text generated from the dataset's effect code (issue 41).
GENERATED = "generated from the dataset's effect code, not the published text"

#: ``tactica.model.common.RulesVersion``, written here so that a look-up in the index
#: does not load the data models.
Rules = Literal["10th", "11th"]


@dataclass(frozen=True)
class RuleEntry:
    """One rule found by name.

    ``kind``: stratagem, enhancement, detachment_rule, army_rule, detachment, core_rule,
    ability, faq or errata; ``cp``: command points (stratagems); ``points``: points
    (enhancements, detachments); ``where``: its detachment, faction or unit;
    ``calculator``: how the calculator treats it, modelled (and what it does), not
    modelled (and why), or not a named effect; ``effect``: for a dataset record the
    calculator builds a named effect from, that effect's status and what it does (else
    ``None``); ``record``: the record as the library holds it, text included;
    ``source``: where its text was read (file and line, or the dataset and its version);
    ``published``: ``False`` when no text of the rule was found and the entry is the
    calculator's note alone; ``generated``: for a record of the bundled dataset with no
    published text, its effect code in plain English (``tactica.effects.rule_text``),
    ``generated_from``: then ``GENERATED``, the mark every door shows with it, and
    ``notes``: the dataset's notes on the record.
    """

    name: str
    kind: str
    rules: Rules
    calculator: str
    record: dict[str, Any]
    cp: int | None = None
    points: int | None = None
    phases: tuple[str, ...] = ()
    where: str | None = None
    source: str | None = None
    effect: str | None = None
    published: bool = True
    generated: str | None = None
    generated_from: str | None = None
    notes: str | None = None

    def as_json(self) -> dict[str, Any]:
        """The entry as a JSON object (what the assistant's ``lookup_rule`` returns). Its
        ``record`` is the entry's own (JSON data already: not copied, as ``asdict`` would
        copy it, a third of the time the index of rules takes to build)."""
        out = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        out["phases"] = list(self.phases)
        return out


def entry_from_json(data: dict[str, Any]) -> RuleEntry:
    """The entry ``RuleEntry.as_json`` wrote."""
    return RuleEntry(**{**data, "phases": tuple(data.get("phases", ()))})


def _name(item: Any) -> str:
    for attr in ("name", "title", "topic", "question", "target"):
        value = getattr(item, attr, None)
        if isinstance(value, str) and value:
            return value
    return "rule"


def _where(item: Any) -> str | None:
    datasheet = getattr(item, "datasheet", None)
    if isinstance(datasheet, str):  # a unit's ability
        return datasheet
    for attr in ("detachment", "faction"):
        value = getattr(item, attr, None)
        if isinstance(value, str) and value:
            return value
    factions = getattr(item, "factions", ())
    return ", ".join(factions) or None


def _source(item: Any) -> str | None:
    """Where the text was read, as ``file:line`` with the file's base name (seed pages
    are read from the installed package, whose folder says nothing)."""
    ability = getattr(item, "ability", None)
    source = getattr(ability if ability is not None else item, "source", None)
    if source is None:
        return None
    name = PurePath(source.file).name or source.file
    return f"{name}:{source.line}" if source.line is not None else name


@dataclass
class Statuses:
    """The calculator's status of records (module text), the dataset's named effects
    loaded once and the status of a name that is not a dataset record computed once."""

    dataset: DatasetEffects | None = None
    loaded: bool = False
    by_name: dict[tuple[str, str], str] = field(default_factory=dict)

    def effect(self, item: Any) -> str | None:
        """The status of the named effect built from this dataset record, or of a
        datasheet ability the dataset encodes (``own_ability_status``), or None."""
        ability = getattr(item, "ability", None)
        if ability is not None and getattr(ability, "effect", None):
            return own_ability_status(item)
        if getattr(item, "key", None) is None:
            return None
        if not self.loaded:
            from ..effects import dataset_effects

            self.dataset, self.loaded = dataset_effects(), True
        entry = None if self.dataset is None else self.dataset.of_record(item)
        return None if entry is None else f"{entry.status} ({entry.described()})"

    def of(self, item: Any, name: str, rules: str) -> tuple[str, str | None]:
        """The calculator's status of one record and its dataset effect's (or None)."""
        effect = self.effect(item)
        if effect is not None:
            return effect, effect
        if (name, rules) not in self.by_name:
            self.by_name[(name, rules)] = _by_name(name, rules)
        return self.by_name[(name, rules)], None


def own_ability_status(item: UnitAbility) -> str | None:
    """The status of a datasheet ability the dataset encodes (``effects.unit_abilities``:
    applied by itself whenever its conditions hold, in part, or why not)."""
    from ..effects.unit_abilities import unit_ability

    own = unit_ability(item.ability)
    if own is None:
        return None
    def when(p: Part) -> str:
        said = [c.description for c in p.conditions] + (
            ["Strength greater than Toughness"] if p.strength_over_toughness else [])
        return f" (if {' and '.join(said)})" if said else ""

    terms = "; ".join(dict.fromkeys(
        p.terms + (f", {p.attack} attacks" if p.attack else "") + when(p)
        for p in own.compiled.parts))
    cls = own.coverage_class
    if cls == "applied":
        return f"modelled (applied whenever its conditions hold: {terms})"
    if cls == "partly":
        left = [w for p in own.compiled.parts if (w := own.why_not_automatic(p))]
        return (f"modelled in part (applied whenever its conditions hold: {terms}; not "
                f"calculated: {'; '.join(dict.fromkeys([*left, *own.missing]))})")
    if cls == "non-combat":
        return f"non-combat: {own.reason}"
    return f"{'not applied' if own.mark else 'not modelled'}: {own.reason}"


def _by_name(name: str, rules: str) -> str:
    """The status of a rule that is not a dataset record, from its name."""
    from ..effects import find_effect
    from ..rules.notes import rule_note

    note = rule_note(name, rules)  # type: ignore[arg-type]
    if note is not None:
        return f"modelled: {note}"
    weapon = _weapon_ability(name)
    if weapon is not None:
        return weapon
    try:
        effect, _ = find_effect(name, rules, hints=False, dataset=False)
    except LookupError as exc:  # not a named effect; a non-combat rule says why
        reason = " ".join(str(exc).split())
        if "not a combat rule" in reason:
            return f"non-combat: {reason}"
        return "not modelled: the calculator does not apply it by name"
    return f"modelled ({effect.terms}; {effect.cp} CP)" if effect.cp else \
        f"modelled ({effect.terms})"


def _weapon_ability(name: str) -> str | None:
    """The status of a weapon ability (``model.abilities``), or ``None`` if ``name`` is
    not one; a parameterised ability is recognised by its name alone ("Sustained
    Hits")."""
    from ..model.abilities import NamedWeaponRule, UnknownAbilityError, parse_weapon_ability

    for text in (name, f"{name} 1"):
        try:
            found = parse_weapon_ability(text)
        except (UnknownAbilityError, ValueError):
            continue
        if isinstance(found, NamedWeaponRule):
            return "not modelled: a weapon rule written out on its datasheet"
        return "modelled: a weapon ability, computed from each weapon's profile"
    return None


def entries_of(library: Library, name: str, rules: Rules | None = None,
               statuses: Statuses | None = None) -> list[RuleEntry]:
    """The entries of the records and abilities ``library.find_rules`` finds for
    ``name`` (``UnknownNameError`` when none); ``statuses`` shares the work of the
    calculator's statuses between calls."""
    from ..effects.rule_text import generated_text

    known = Statuses() if statuses is None else statuses
    out = []
    for item in library.find_rules(name, rules):
        title = _name(item)
        calculator, effect = known.of(item, title, item.rules)
        text = generated_text(item)
        out.append(RuleEntry(
            name=title, kind=str(getattr(item, "record", "rule")), rules=item.rules,
            cp=getattr(item, "cp", None), points=getattr(item, "points", None),
            phases=tuple(getattr(item, "phases", ())), where=_where(item),
            calculator=calculator, effect=effect, source=_source(item),
            record=item.model_dump(mode="json", exclude={"source"}),
            generated=None if text is None else text.text,
            generated_from=None if text is None else _mark(text.borrowed),
            notes=None if text is None else text.notes))
    return out


def _mark(borrowed: str | None) -> str:
    """The mark of a generated text: ``GENERATED``, or whose effect code it was written
    from when the record has none of its own."""
    if borrowed is None:
        return GENERATED
    return (f"generated from the dataset's effect code of {borrowed} (this record has "
            "none), not the published text")
