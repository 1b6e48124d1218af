"""Look-ups every shell answers the same way: a rule by name with whether the calculator
models it, and the library's units by faction and keyword.

``rule_entries`` is what ``tactica rule`` shows: every stratagem, enhancement,
detachment rule, army rule, core rule and datasheet ability of that name
(``Library.find_rules``), each with its record as data, and the calculator's status: a
faction rule of the bundled dataset says ``modelled`` with its terms or why not
(``tactica.effects.dataset``), a core ability the engine computes says which edition's
text it follows (``tactica.rules.notes``), a weapon ability that it is computed from the
weapon's profile (``tactica.model.abilities``), a seed-page rule that is a named effect
says ``modelled``.

>>> from tactica.library import load_seed_library
>>> [e.kind for e in rule_entries("Primed and Readied", library=load_seed_library())]
['stratagem']
>>> rule_entries("Primed and Readied", library=load_seed_library())[0].cp
2
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from .library import Library, UnitAbility, load_library
from .model.common import RulesVersion
from .model.datasheet import Datasheet
from .names import UnknownNameError, name_key, suggest

__all__ = ["RuleEntry", "find_units", "own_ability_status", "rule_entries"]


class RuleEntry(BaseModel):
    """One rule found by name: its kind, edition, cost and phases where it has them, its
    full record (the text as published) and how the calculator treats it."""

    model_config = ConfigDict(frozen=True)

    name: str
    kind: str = Field(description="stratagem, enhancement, detachment_rule, army_rule, "
                      "detachment, core_rule, ability, faq or errata")
    rules: RulesVersion
    cp: int | None = Field(default=None, description="command points (stratagems)")
    points: int | None = Field(default=None, description="points (enhancements, detachments)")
    phases: tuple[str, ...] = ()
    where: str | None = Field(default=None, description="its detachment, faction or unit")
    calculator: str = Field(description="how the calculator treats it: modelled (and what "
                            "it does), not modelled (and why), or not a named effect")
    record: dict[str, Any] = Field(description="the record as the library holds it, text "
                                   "included")


def _name(item: Any) -> str:
    for attr in ("name", "title", "topic", "question", "target"):
        value = getattr(item, attr, None)
        if isinstance(value, str) and value:
            return value
    return "rule"


def _where(item: Any) -> str | None:
    if isinstance(item, UnitAbility):
        return item.datasheet
    for attr in ("detachment", "faction"):
        value = getattr(item, attr, None)
        if isinstance(value, str) and value:
            return value
    factions = getattr(item, "factions", ())
    return ", ".join(factions) or None


def _calculator(item: Any, name: str, rules: str) -> str:
    """The calculator's status of one record (module text)."""
    from .effects import dataset_effects, find_effect
    from .rules.notes import rule_note

    if isinstance(item, UnitAbility) and item.ability.effect:
        status = own_ability_status(item)
        if status is not None:
            return status
    if getattr(item, "key", None) is not None:
        data = dataset_effects()
        entry = None if data is None else data.of_record(item)
        if entry is not None:
            what = entry.effect.terms if entry.status == "modelled" else entry.reason
            return f"{entry.status} ({what})"
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


def own_ability_status(item: UnitAbility) -> str | None:
    """The status of a datasheet ability the dataset encodes (``effects.unit_abilities``:
    applied by itself whenever its conditions hold, in part, or why not)."""
    from .effects.unit_abilities import unit_ability

    own = unit_ability(item.ability)
    if own is None:
        return None
    terms = "; ".join(dict.fromkeys(
        p.terms + (f", {p.attack} attacks" if p.attack else "") + (
            f" (if {' and '.join(c.description for c in p.conditions)})"
            if p.conditions else "") for p in own.compiled.parts))
    cls = own.coverage_class
    if cls == "applied":
        return f"modelled (applied whenever its conditions hold: {terms})"
    if cls == "partly":
        left = [w for p in own.compiled.parts if (w := own.why_not_automatic(p))]
        return (f"modelled in part (applied whenever its conditions hold: {terms}; not "
                f"calculated: {'; '.join(dict.fromkeys([*left, *own.missing]))})")
    if cls == "non-combat":
        return f"non-combat: {own.reason}"
    return f"not modelled: {own.reason}"


def _weapon_ability(name: str) -> str | None:
    """The status of a weapon ability (``model.abilities``), or ``None`` if ``name`` is
    not one; a parameterised ability is recognised by its name alone ("Sustained
    Hits")."""
    from .model.abilities import NamedWeaponRule, UnknownAbilityError, parse_weapon_ability

    for text in (name, f"{name} 1"):
        try:
            found = parse_weapon_ability(text)
        except (UnknownAbilityError, ValueError):
            continue
        if isinstance(found, NamedWeaponRule):
            return "not modelled: a weapon rule written out on its datasheet"
        return "modelled: a weapon ability, computed from each weapon's profile"
    return None


def rule_entries(name: str, rules: RulesVersion | None = None,
                 library: Library | None = None) -> list[RuleEntry]:
    """The rules called ``name`` (module text); ``UnknownNameError`` with close names
    when none is. A core ability the calculator computes but the library has no record
    of (an 11th-edition weapon ability) is one ``core_rule`` entry with its note."""
    from .rules.notes import rule_note

    lib = load_library() if library is None else library
    try:
        found = lib.find_rules(name, rules)
    except UnknownNameError:
        versions: tuple[RulesVersion, ...] = (rules,) if rules else ("11th", "10th")
        notes = [(v, n) for v in versions if (n := rule_note(name, v)) is not None]
        if not notes:
            raise
        return [RuleEntry(name=name, kind="core_rule", rules=v, calculator=f"modelled: {n}",
                          record={"text": n}) for v, n in notes]
    out = []
    for item in found:
        record = item.model_dump(mode="json", exclude={"source"})
        title = _name(item)
        out.append(RuleEntry(
            name=title, kind=str(getattr(item, "record", "rule")), rules=item.rules,
            cp=getattr(item, "cp", None), points=getattr(item, "points", None),
            phases=tuple(getattr(item, "phases", ())), where=_where(item),
            calculator=_calculator(item, title, item.rules), record=record))
    return out


def find_units(library: Library | None = None, faction: str | None = None,
               keyword: str | None = None, rules: RulesVersion | None = None
               ) -> tuple[Datasheet, ...]:
    """The library's datasheets, optionally one faction's (the units a source files
    under it, else those with the faction keyword) and only those with ``keyword``
    (a keyword or faction keyword; case and punctuation ignored). ``UnknownNameError``
    for a faction or keyword no unit has.

    >>> from tactica.library import load_seed_library
    >>> [d.name for d in find_units(load_seed_library(), keyword="character")]
    ['Primus']
    """
    lib = load_library() if library is None else library
    sheets = lib.datasheets(rules)
    if faction is not None:
        by_faction = getattr(lib, "faction_datasheets", None)
        key = name_key(faction)
        if callable(by_faction):
            sheets = tuple(d for d in by_faction(faction, rules) if isinstance(d, Datasheet))
        else:
            sheets = tuple(d for d in sheets
                           if any(name_key(k) == key for k in d.faction_keywords))
            if not sheets:
                known = {k.title() for d in lib.datasheets() for k in d.faction_keywords}
                raise UnknownNameError("faction", faction, suggest(faction, sorted(known)))
    if keyword is not None:
        key = name_key(keyword)
        every = {k for d in sheets for k in (*d.keywords, *d.faction_keywords)}
        if key not in {name_key(k) for k in every}:
            raise UnknownNameError("keyword", keyword, suggest(keyword, sorted(every)))
        sheets = tuple(d for d in sheets
                       if key in {name_key(k) for k in (*d.keywords, *d.faction_keywords)})
    return sheets
