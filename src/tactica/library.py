"""The packaged unit library: one index over the seed datasheets, their rule records, the
reference facts and the standard target presets.

``load_library()`` reads every packaged seed page (``tactica/data/seeds/*.txt``) the first
time it is called, fills in what the pages lack from ``data/reference_facts.yaml``
(reference_facts.md §1; a seed value always wins) and adds the target presets of
``data/target_presets.yaml`` (reference_facts.md §2).

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
"""

from __future__ import annotations

import contextlib
import functools
import importlib.resources
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cached_property
from pathlib import Path
from typing import Any, Literal

from .combat.scenario import Target
from .facts import (
    FACTS_FILE,
    PRESETS_FILE,
    DamagedFact,
    Fact,
    KeywordsFact,
    ModelFacts,
    ReferenceFacts,
    TargetPreset,
    UnitFacts,
    apply_facts,
    load_presets,
    load_reference_facts,
    target_from_datasheet,
)
from .model.common import Frozen, RulesVersion
from .model.datasheet import Ability, Datasheet
from .model.rules import (
    ArmyRule,
    CoreRule,
    Detachment,
    DetachmentRule,
    Enhancement,
    RuleRecord,
    Stratagem,
)
from .names import UnknownNameError, name_key, suggest

__all__ = [
    "FACTS_FILE",
    "PRESETS_FILE",
    "RULES_PREFERENCE",
    "DamagedFact",
    "Fact",
    "KeywordsFact",
    "Library",
    "ModelFacts",
    "ReferenceFacts",
    "TargetPreset",
    "UnitAbility",
    "UnitFacts",
    "apply_facts",
    "configured_sources",
    "load_library",
    "load_presets",
    "load_reference_facts",
    "load_seed_library",
    "record_name",
    "target_from_datasheet",
    "use_sources",
]

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
        key = None if detachment is None else name_key(detachment)
        return tuple(
            r
            for r in self._records
            if isinstance(r, Enhancement) and (key is None or name_key(r.detachment) == key)
        )

    def _rule_matches(self, name: str) -> list[RuleRecord]:
        found: list[RuleRecord] = []
        seen: set[str] = set()
        for record in self._rule_index.get(name_key(name), []):
            fingerprint = record.model_dump_json(exclude={"source"})
            if fingerprint not in seen:  # the same text on several pages: keep the first
                seen.add(fingerprint)
                found.append(record)
        return _by_preference(found)

    def _ability_matches(self, name: str) -> list[UnitAbility]:
        key = name_key(name)
        return [
            UnitAbility(ability=a, datasheet=d.name, rules=d.rules)
            for d in self._order
            for a in d.abilities
            if name_key(a.name) == key
        ]

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
        a tie). ``models`` sets the number of models (see ``target_from_datasheet``)."""
        key = name_key(name)
        if key in self._presets:
            return self._presets[key].to_target(models)
        if self._aliases.get(key, key) in self._sheets:
            return target_from_datasheet(self.datasheet(name, rules), models)
        candidates = [p.name for p in self._presets.values()] + list(self.names())
        raise UnknownNameError("target", name, suggest(name, candidates))


# --- the packaged library ------------------------------------------------------------


def _seed_pages() -> list[importlib.resources.abc.Traversable]:
    folder = importlib.resources.files("tactica").joinpath("data", "seeds")
    return sorted((p for p in folder.iterdir() if p.name.endswith(".txt")), key=lambda p: p.name)


class SeedSnapshot(Frozen):
    """What ``load_seed_library`` builds from the seed pages, as kept in tactica's cache
    (``tactica.cache``: the pages are parsed once, not in every command)."""

    datasheets: tuple[Datasheet, ...]
    records: tuple[RuleRecord, ...]
    aliases: dict[str, str]

    def library(self) -> Library:
        return Library(self.datasheets, self.records, aliases=self.aliases)


@functools.cache
def load_seed_library() -> Library:
    """The packaged library, built on first use and cached: every seed page loaded with
    ``load_seed_page``, its datasheet completed from the reference facts (§1), plus the
    target presets (§2). Load errors propagate (``LoadError`` names page and line).

    The parsed pages are kept in tactica's on-disk cache (``tactica.cache``, keyed by the
    pages, the facts and the loaders' code; ``TACTICA_CACHE=0`` turns it off)."""
    from .cache import cache_dir, cache_enabled, cache_key, write_atomically

    if not cache_enabled():
        return _parse_seed_pages().library()
    path = cache_dir() / f"seeds-{cache_key('seed pages')}.json"
    try:
        return SeedSnapshot.model_validate_json(path.read_bytes()).library()
    except (OSError, ValueError):  # absent or unreadable: parse the pages
        pass
    snapshot = _parse_seed_pages()
    with contextlib.suppress(OSError):
        write_atomically(path, lambda t: t.write_text(snapshot.model_dump_json(),
                                                      encoding="utf-8"),
                         stale="seeds-*.json")
    return snapshot.library()


def _parse_seed_pages() -> SeedSnapshot:
    from .loaders.seed_page import load_seed_page

    facts = load_reference_facts()
    sheets: list[Datasheet] = []
    records: list[RuleRecord] = []
    aliases: dict[str, str] = {}
    for page_file in _seed_pages():
        with importlib.resources.as_file(page_file) as path:
            page = load_seed_page(path)
        records.extend(page.records)
        if page.datasheet is None:
            continue
        sheet = page.datasheet
        unit_facts = facts.for_seed(page_file.name)
        if unit_facts is not None:
            completed = apply_facts(sheet, unit_facts)
            if completed.name != sheet.name and sheet.name.strip():
                aliases[sheet.name] = completed.name
            sheet = completed
        sheets.append(sheet)
    return SeedSnapshot(datasheets=tuple(sheets), records=tuple(records), aliases=aliases)


# --- several sources (issue 6): seed pages + --data catalogues + bundled dataset ---------
# ``load_library()`` with no arguments is what the command line uses without options: the
# seed pages and the bundled dataset (a ``tactica.sources.SourcedLibrary``; issue 11: the
# Python API resolves the same unit names as ``tactica calc``). ``use_sources`` (which
# the command line calls for ``tactica --data PATH`` / ``--no-dataset``) changes that
# default; ``dataset=False`` with no paths is the seed library above. Each is cached per
# set of sources.

_configured: tuple[tuple[str, ...], bool] = ((), True)


def use_sources(data_paths: Sequence[str | Path] = (), *, dataset: bool = False) -> None:
    """Make ``load_library()`` (no arguments) use these sources from now on: the BSData
    catalogues at ``data_paths`` and, with ``dataset``, the bundled dataset."""
    global _configured
    _configured = (tuple(str(p) for p in data_paths), dataset)


def configured_sources() -> tuple[tuple[str, ...], bool]:
    """The ``(data_paths, dataset)`` that ``load_library()`` uses by default."""
    return _configured


def load_library(
    data_paths: Sequence[str | Path] | None = None, *, dataset: bool | None = None
) -> Library:
    """The unit library. Without arguments: the configured sources (``use_sources``), by
    default the seed pages and the bundled dataset, as the command line has them. With
    ``data_paths`` or ``dataset``: seed pages, those catalogues and (with ``dataset``) the
    bundled dataset merged (``tactica.sources.build_library``), cached per set of sources;
    no paths and ``dataset=False`` is the seed library alone (``load_seed_library``)."""
    paths = _configured[0] if data_paths is None else tuple(str(p) for p in data_paths)
    use_dataset = _configured[1] if dataset is None else dataset
    if not paths and not use_dataset:
        return load_seed_library()
    return _load_sourced_library(paths, use_dataset)


@functools.cache
def _load_sourced_library(paths: tuple[str, ...], dataset: bool) -> Library:
    from .sources import build_library

    return build_library(paths, dataset=dataset, seeds=load_seed_library())
