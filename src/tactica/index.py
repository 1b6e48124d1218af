"""One index over loaded datasheets and rule records: look-up by name in any source,
suggestions for a name that matches nothing, and the standard target presets.

Look-ups are case-, accent- and punctuation-insensitive (``tactica.names``); a name that
matches nothing raises ``UnknownNameError`` with close names:

>>> from tactica.model import Source
>>> lib = Library([Datasheet(name="Primus", rules="11th", source=Source(file="000.txt"))])
>>> lib.datasheet("PRÍMUS").name
'Primus'
>>> lib.datasheet("Primsu")
Traceback (most recent call last):
...
UnknownNameError: no unit named 'Primsu'; did you mean: Primus?
>>> lib.target("meq").model_count, lib.target("meq").models[0].T
(5, 5)

Rules versions (a decision, see ``Library.datasheet``): seed pages 000 (Primus) and 004
(Tyrannocyte) are 11th-edition layout; 001 (Banehammer), 002 (Death Riders) and 003
(Neophyte Hybrids) are 10th-edition layout. Each datasheet keeps the version of its page.
Without an explicit version the library prefers 11th and otherwise returns the version it
has; the stat lines of §1 are 11th-edition data, and a 10th-layout page completed from
them says so in its ``notes``.

The index knows nothing of where its datasheets came from: ``tactica.library`` builds the
packaged one and ``tactica.sources`` merges several sources into one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Any, Literal

from .combat.contract.scenario import Target
from .facts import (
    TargetPreset,
    load_presets,
)
from .model.common import Frozen, RulesVersion
from .model.datasheet import Ability, Datasheet
from .names import UnknownNameError, name_key, suggest
from .units.leaders import leaders_of, leads_anything
from .units.resolve import preset_target, sheet_target

if TYPE_CHECKING:
    from .model.rules import Enhancement, RuleRecord

__all__ = ["RULES_PREFERENCE", "Library", "UnitAbility", "record_name"]


#: Which version a look-up without ``rules`` returns first: the engine defaults to 11th.
RULES_PREFERENCE: tuple[RulesVersion, ...] = ("11th", "10th")



# --- rule records and unit abilities ------------------------------------------------------


class UnitAbility(Frozen):
    """A datasheet ability found by ``Library.abilities``: the ability and its unit."""

    record: Literal["ability"] = "ability"
    ability: Ability
    datasheet: str
    rules: RulesVersion

    @property
    def name(self) -> str:
        return self.ability.name


def record_name(record: RuleRecord) -> str | None:
    """The name a rule record is looked up by (``None`` for FAQs and errata)."""
    from .model.rules import ArmyRule, CoreRule, Detachment, DetachmentRule, Enhancement, Stratagem

    if isinstance(record, Stratagem | DetachmentRule | Enhancement):
        return record.name
    if isinstance(record, CoreRule):
        return record.title
    if isinstance(record, Detachment | ArmyRule):
        return record.name
    return None


def _record_keys(record: RuleRecord) -> list[str]:
    name = record_name(record)
    if name is None:
        return []
    keys = [name_key(name)]
    section = getattr(record, "section", None)
    if isinstance(section, str) and section.strip():
        keys += [name_key(section), name_key(f"{name} {section}")]
    detachment = getattr(record, "detachment", None)
    if isinstance(detachment, str) and detachment:  # "Armour of Contempt (Gladius ...)"
        keys.append(name_key(f"{name} ({detachment})"))
    return keys


def _by_preference(items: Iterable[Any]) -> list[Any]:
    order = {v: i for i, v in enumerate(RULES_PREFERENCE)}
    return sorted(items, key=lambda item: order.get(item.rules, len(order)))


# --- the library ----------------------------------------------------------------------


class Library:
    """Datasheets (per name, one per rules version), rule records and target presets.

    ``aliases`` maps other names to a datasheet's name (the 003 page's loader name).
    Two datasheets with the same name and rules version are an error.
    """

    def __init__(
        self,
        datasheets: Iterable[Datasheet] = (),
        records: Iterable[RuleRecord] | Callable[[], Iterable[RuleRecord]] = (),
        presets: Sequence[TargetPreset] | None = None,
        aliases: Mapping[str, str] | None = None,
    ) -> None:
        self._sheets: dict[str, dict[RulesVersion, Datasheet]] = {}
        self._order: list[Datasheet] = []
        for sheet in datasheets:
            versions = self._sheets.setdefault(name_key(sheet.name), {})
            if sheet.rules in versions:
                raise ValueError(
                    f"two {sheet.rules} datasheets named {sheet.name!r}: "
                    f"{versions[sheet.rules].source} and {sheet.source}"
                )
            versions[sheet.rules] = sheet
            self._order.append(sheet)
        self._aliases = {name_key(k): name_key(v) for k, v in (aliases or {}).items()}
        self._records_from = records
        chosen = load_presets() if presets is None else presets
        self._presets = {name_key(p.name): p for p in chosen}

    @cached_property
    def _records(self) -> tuple[RuleRecord, ...]:
        """The rules records, read on first use (``records`` may be a callable, so that
        a command that asks for no rule never loads every faction's rules)."""
        src = self._records_from
        return tuple(src() if callable(src) else src)

    @cached_property
    def _rule_index(self) -> dict[str, list[RuleRecord]]:
        index: dict[str, list[RuleRecord]] = {}
        for record in self._records:
            for key in dict.fromkeys(_record_keys(record)):
                index.setdefault(key, []).append(record)
        return index

    # -- datasheets --
    def datasheets(self, rules: RulesVersion | None = None) -> tuple[Datasheet, ...]:
        """Every datasheet in load order, or only those of one rules version."""
        return tuple(d for d in self._order if rules is None or d.rules == rules)

    @cached_property
    def _leading(self) -> tuple[Datasheet, ...]:
        """The datasheets with a Leader list (24.22), found once per library."""
        return tuple(s for s in self.datasheets() if leads_anything(s))

    def leaders_of(self, sheet: Datasheet) -> tuple[str, ...]:
        """The names of the library's units that may lead ``sheet`` (Leader, 24.22), in
        library order (``units.leaders.leaders_of``)."""
        return leaders_of(sheet, self._leading)

    def names(self) -> tuple[str, ...]:
        """The unit names, each once, in load order."""
        return tuple(dict.fromkeys(d.name for d in self._order))

    def has(self, name: str) -> bool:
        """Whether a unit answers to ``name`` (no suggestions computed)."""
        key = name_key(name)
        return self._aliases.get(key, key) in self._sheets

    def datasheet_versions(self, name: str) -> tuple[Datasheet, ...]:
        """Every version of the named unit, preferred version (11th) first."""
        key = name_key(name)
        key = self._aliases.get(key, key)
        if key not in self._sheets:
            raise UnknownNameError("unit", name, suggest(name, self.names()))
        return tuple(_by_preference(self._sheets[key].values()))

    def datasheet(self, name: str, rules: RulesVersion | None = None) -> Datasheet:
        """The named unit's datasheet.

        ``rules=None`` (the default) prefers the 11th-edition datasheet and otherwise
        returns the version there is: the engine defaults to 11th, and the 10th-layout seed
        pages already carry 11th stat lines (reference_facts.md §1, noted on the sheet).
        An explicit ``rules`` picks that version; when the unit exists only in the other
        version it is returned with a note saying so, rather than failing.
        """
        versions = self.datasheet_versions(name)
        if rules is None:
            return versions[0]
        exact = [d for d in versions if d.rules == rules]
        if exact:
            return exact[0]
        other = versions[0]
        note = f"no {rules} datasheet for {other.name}; this is the {other.rules} page"
        return other.model_copy(update={"notes": (*other.notes, note)})

    # -- rules --
    def records(self, rules: RulesVersion | None = None) -> tuple[RuleRecord, ...]:
        """Every rule record (stratagems, detachment rules, enhancements, core rules, FAQs,
        errata) as loaded, duplicates from several pages included."""
        return tuple(r for r in self._records if rules is None or r.rules == rules)

    def enhancements(self, detachment: str | None = None) -> tuple[Enhancement, ...]:
        """Enhancements (rules_inventory.md §F.2: names and points matched to their texts
        and detachments by the loader), optionally of one detachment."""
        return self._enhancement_index.get(None if detachment is None else name_key(detachment),
                                           ())

    @cached_property
    def _enhancement_index(self) -> dict[str | None, tuple[Enhancement, ...]]:
        """The enhancements (``None``) and those of each detachment (by name key), in load
        order: built once, as the records never change."""
        from .model.rules import Enhancement

        every = tuple(r for r in self._records if isinstance(r, Enhancement))
        index: dict[str | None, list[Enhancement]] = {}
        for e in every:
            index.setdefault(name_key(e.detachment), []).append(e)
        return {None: every, **{k: tuple(v) for k, v in index.items()}}

    def _rule_matches(self, name: str) -> list[RuleRecord]:
        found: list[RuleRecord] = []
        seen: set[str] = set()
        for record in self._rule_index.get(name_key(name), []):
            fingerprint = record.model_dump_json(exclude={"source"})
            if fingerprint not in seen:  # the same text on several pages: keep the first
                seen.add(fingerprint)
                found.append(record)
        return _by_preference(found)

    @cached_property
    def _ability_index(self) -> dict[str, list[tuple[Ability, Datasheet]]]:
        index: dict[str, list[tuple[Ability, Datasheet]]] = {}
        for d in self._order:
            for a in d.abilities:
                index.setdefault(name_key(a.name), []).append((a, d))
        return index

    def _ability_matches(self, name: str) -> list[UnitAbility]:
        return [UnitAbility(ability=a, datasheet=d.name, rules=d.rules)
                for a, d in self._ability_index.get(name_key(name), [])]

    def rule_keys(self) -> tuple[str, ...]:
        """Every look-up key ``find_rules`` answers (``tactica.names.name_key`` of a rule
        record's name, section or "name (detachment)", or of a datasheet ability's
        name): what an index of the rules by name is built over."""
        return tuple(dict.fromkeys([*self._rule_index, *self._ability_index]))

    def rule_names(self) -> tuple[str, ...]:
        """The names a look-up of a rule suggests from (records first, then abilities),
        each spelling once."""
        return tuple(dict.fromkeys(self._rule_names()))

    def _rule_names(self) -> list[str]:
        names = [n for r in self._records if (n := record_name(r)) is not None]
        names += [a.name for d in self._order for a in d.abilities]
        return names

    @staticmethod
    def _pick_version(items: list[Any], rules: RulesVersion | None) -> list[Any]:
        if rules is None:
            return items
        exact = [i for i in items if i.rules == rules]
        return exact or items

    def rule(self, name: str, rules: RulesVersion | None = None) -> list[RuleRecord]:
        """The stratagems, enhancements, detachment rules and core rules with this name
        (or 11th-edition section number such as "15.02"), each text once, 11th first.
        ``rules`` keeps one version when it exists, else returns the others (check
        ``.rules``)."""
        found = self._rule_matches(name)
        if not found:
            raise UnknownNameError("rule", name, suggest(name, self._rule_names()))
        return self._pick_version(found, rules)

    def abilities(self, name: str, rules: RulesVersion | None = None) -> list[UnitAbility]:
        """Datasheet abilities with this name, with the unit that has each."""
        found = _by_preference(self._ability_matches(name))
        if not found:
            raise UnknownNameError("ability", name, suggest(name, self._rule_names()))
        return self._pick_version(found, rules)

    def find_rules(
        self, name: str, rules: RulesVersion | None = None
    ) -> list[RuleRecord | UnitAbility]:
        """Rule records and datasheet abilities with this name (what ``tactica rule``
        shows). Abilities without text are left out when a rule record has the text."""
        records: list[RuleRecord | UnitAbility] = list(self._rule_matches(name))
        abilities = self._ability_matches(name)
        with_text = [a for a in abilities if a.ability.text]
        found = records + (with_text if records else with_text or abilities)
        if not found:
            raise UnknownNameError("rule", name, suggest(name, self._rule_names()))
        return self._pick_version(_by_preference(found), rules)

    # -- targets --
    def presets(self) -> tuple[TargetPreset, ...]:
        return tuple(self._presets.values())

    def preset(self, name: str) -> TargetPreset:
        """A standard target of reference_facts.md §2 ("meq", "MEQ", "light vehicle")."""
        try:
            return self._presets[name_key(name)]
        except KeyError:
            names = [p.name for p in self._presets.values()]
            raise UnknownNameError("target preset", name, suggest(name, names)) from None

    def target(
        self, name: str, models: int | None = None, rules: RulesVersion | None = None
    ) -> Target:
        """A combat ``Target`` from a preset name or a library unit name (the preset wins
        a tie). ``models`` sets the number of models (see ``tactica.units.sheet_target``)."""
        key = name_key(name)
        if key in self._presets:
            return preset_target(self._presets[key], self, models, rules)
        if self._aliases.get(key, key) in self._sheets:
            return sheet_target(self.datasheet(name, rules), models)
        candidates = [p.name for p in self._presets.values()] + list(self.names())
        raise UnknownNameError("target", name, suggest(name, candidates))


