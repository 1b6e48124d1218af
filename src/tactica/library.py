"""The packaged unit library: one index over the seed datasheets, their rule records, the
reference facts and the standard target presets.

``load_library()`` reads every packaged seed page (``tactica/data/seeds/*.txt``) the first
time it is called, fills in what the pages lack from ``data/reference_facts.yaml``
(reference_facts.md §1; a seed value always wins) and adds the target presets of
``data/target_presets.yaml`` (reference_facts.md §2).

Look-ups are case-, accent- and punctuation-insensitive (``tactica.names``); a name that
matches nothing raises ``UnknownNameError`` with close names:

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

import functools
import importlib.resources
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Generic, Literal, TypeVar

import yaml
from pydantic import Field

from .combat.scenario import ModelGroup, Target
from .model.common import Frozen, RulesVersion, Source
from .model.datasheet import Ability, CompositionLine, DamagedProfile, Datasheet, ModelProfile
from .model.rules import CoreRule, DetachmentRule, Enhancement, RuleRecord, Stratagem
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

#: Packaged data files (relative to the ``tactica`` package).
FACTS_FILE = "data/reference_facts.yaml"
PRESETS_FILE = "data/target_presets.yaml"

#: Which version a look-up without ``rules`` returns first: the engine defaults to 11th.
RULES_PREFERENCE: tuple[RulesVersion, ...] = ("11th", "10th")

_STATS = ("M", "T", "Sv", "InSv", "W", "Ld", "OC")
T = TypeVar("T")


# --- reference facts (reference_facts.md §1) ---------------------------------------------


class ModelFacts(Frozen):
    """One model type's stat line (numbers before the ``+``; ``None`` = none)."""

    name: str
    M: int | None = None
    T: int | None = None
    Sv: int | None = None
    InSv: int | None = None
    W: int | None = None
    Ld: int | None = None
    OC: int | None = None
    source: str


class Fact(Frozen, Generic[T]):
    """One fact of the reference file and where it comes from."""

    value: T
    source: str


class DamagedFact(Frozen):
    """The damaged threshold of §1 ("Damaged at 1-8 wounds left"); modifiers stay on the page."""

    min_wounds: int = Field(ge=1)
    max_wounds: int = Field(ge=1)
    text: str


class KeywordsFact(Frozen):
    """Keywords for a page that lost them (003: inferred, rules_inventory.md §A4)."""

    faction_keywords: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()


class UnitFacts(Frozen):
    """The facts of one unit: which seed page they complete and what they add."""

    name: str
    seed: str
    untitled: bool = False
    models: tuple[ModelFacts, ...] = ()
    leader_of: Fact[tuple[str, ...]] | None = None
    composition: Fact[tuple[CompositionLine, ...]] | None = None
    damaged: Fact[DamagedFact] | None = None
    keywords: Fact[KeywordsFact] | None = None


class ReferenceFacts(Frozen):
    """The contents of ``data/reference_facts.yaml``."""

    sources: tuple[str, ...] = ()
    units: tuple[UnitFacts, ...]

    def for_seed(self, seed_file: str) -> UnitFacts | None:
        """The facts that complete the seed page named ``seed_file`` (a file name)."""
        return next((u for u in self.units if u.seed == seed_file), None)

    def for_unit(self, name: str) -> UnitFacts | None:
        key = name_key(name)
        return next((u for u in self.units if name_key(u.name) == key), None)


def _read_yaml(relative: str) -> Any:
    text = importlib.resources.files("tactica").joinpath(relative).read_text(encoding="utf-8")
    return yaml.safe_load(text)


@functools.cache
def load_reference_facts() -> ReferenceFacts:
    """The packaged reference facts (reference_facts.md §1), validated."""
    return ReferenceFacts.model_validate(_read_yaml(FACTS_FILE))


def _facts_source(citation: str) -> Source:
    return Source(file=f"tactica/{FACTS_FILE}", note=citation)


def _singular_key(name: str) -> str:
    """Model names compared without a plural "s" ("Death Riders" ~ "Death Rider")."""
    key = name_key(name)
    return key[:-1] if key.endswith("s") else key


def _merge_models(
    seed: tuple[ModelProfile, ...], facts: tuple[ModelFacts, ...]
) -> tuple[tuple[ModelProfile, ...], list[str]]:
    """Fill the seed's model profiles from the facts (seed values win); add model types
    the seed lacks. Returns the profiles and notes naming what came from where."""
    notes: list[str] = []
    used: set[int] = set()
    merged: list[ModelProfile] = []
    for profile in seed:
        key = _singular_key(profile.name)
        matches = [i for i, f in enumerate(facts) if i not in used and _singular_key(f.name) == key]
        index = matches[0] if matches else None
        if index is None and len(seed) == 1 and len(facts) == 1:
            index = 0  # one model type on each side: the same model under another name
        if index is None:
            merged.append(profile)
            continue
        used.add(index)
        fact = facts[index]
        update: dict[str, int] = {}
        for stat in _STATS:
            ours, theirs = getattr(profile, stat), getattr(fact, stat)
            if ours is None and theirs is not None:
                update[stat] = theirs
            elif ours is not None and theirs is not None and ours != theirs:
                notes.append(f"{profile.name}: seed {stat} {ours} kept (reference file: {theirs})")
        if update:
            notes.append(f"{profile.name}: {', '.join(update)} from {fact.source}")
            profile = ModelProfile.model_validate({**profile.model_dump(), **update})
        merged.append(profile)
    for i, fact in enumerate(facts):
        if i in used:
            continue
        values = {stat: getattr(fact, stat) for stat in _STATS}
        merged.append(ModelProfile(name=fact.name, source=_facts_source(fact.source), **values))
        filled = [s for s in _STATS if values[s] is not None]
        notes.append(f"{fact.name}: {', '.join(filled)} from {fact.source}")
    return tuple(merged), notes


def apply_facts(sheet: Datasheet, facts: UnitFacts) -> Datasheet:
    """Complete ``sheet`` with ``facts`` (reference_facts.md §1). A value the seed page
    gives always wins; every fact taken from the reference file is named in ``notes``.

    A 10th-layout page completed with §1's 11th-edition stat lines gets the note "page
    layout is 10th; stat line from 11th data" (the datasheet keeps ``rules="10th"``).
    """
    notes = list(sheet.notes)
    update: dict[str, Any] = {}
    if facts.untitled and name_key(sheet.name) != name_key(facts.name):
        update["name"] = facts.name
        was = f" (loaded as {sheet.name!r})" if sheet.name.strip() else ""
        notes.append(f"name from reference_facts.md §1: the page has no title{was}")
    models, model_notes = _merge_models(sheet.models, facts.models)
    if model_notes:
        update["models"] = models
        notes.extend(model_notes)
        if sheet.rules == "10th":
            notes.append("page layout is 10th; stat line from 11th data (reference_facts.md §1)")
    if facts.leader_of and not sheet.leader_of:
        update["leader_of"] = facts.leader_of.value
        notes.append(f"leader of: from {facts.leader_of.source}")
    if facts.composition and not sheet.composition:
        update["composition"] = facts.composition.value
        notes.append(f"composition: from {facts.composition.source}")
    if facts.damaged and sheet.damaged is None:
        d = facts.damaged.value
        update["damaged"] = DamagedProfile(
            min_wounds=d.min_wounds,
            max_wounds=d.max_wounds,
            text=d.text,
            source=_facts_source(facts.damaged.source),
        )
        notes.append(f"damaged threshold: from {facts.damaged.source}")
    if facts.keywords:
        kw = facts.keywords.value
        if kw.keywords and not sheet.keywords:
            update["keywords"] = kw.keywords
            notes.append(f"keywords: from {facts.keywords.source}")
        if kw.faction_keywords and not sheet.faction_keywords:
            update["faction_keywords"] = kw.faction_keywords
            notes.append(f"faction keywords: from {facts.keywords.source}")
    if not update:
        return sheet
    update["notes"] = tuple(notes)
    # validate again: keyword upper-casing and the composition checks apply to the facts too
    return Datasheet.model_validate({**sheet.model_dump(), **update})


# --- target presets (reference_facts.md §2) ---------------------------------------------


class TargetPreset(Frozen):
    """A standard target such as ``meq`` (reference_facts.md §2): the unit it stands for,
    its model count and one stat line; ``fnp`` and ``damage_reduction`` where §2 gives them
    (the ``monster`` preset: Feel No Pain 5+, -1 damage)."""

    name: str
    unit: str
    models: int = Field(ge=1)
    T: int = Field(ge=1, le=20)
    Sv: int = Field(ge=2, le=7)
    InSv: int | None = Field(default=None, ge=2, le=6)
    W: int = Field(ge=1, le=60)
    keywords: tuple[str, ...] = ()
    fnp: int | None = Field(default=None, ge=2, le=6)
    damage_reduction: int = Field(default=0, ge=0, le=6)
    source: str

    def to_target(self, models: int | None = None) -> Target:
        """The scenario's ``Target``; ``models`` overrides the preset's model count. A
        CHARACTER keyword makes the model a CHARACTER model.

        >>> load_presets()[1].to_target(models=10).model_count
        10
        """
        return Target(
            name=self.unit,
            keywords=self.keywords,
            models=(
                ModelGroup(
                    name=self.unit,
                    count=self.models if models is None else models,
                    T=self.T,
                    Sv=self.Sv,
                    invuln=self.InSv,
                    W=self.W,
                    fnp=self.fnp,
                    character="CHARACTER" in self.keywords,
                ),
            ),
            damage_reduction=self.damage_reduction,
        )


@functools.cache
def load_presets() -> tuple[TargetPreset, ...]:
    """The packaged target presets, in the order of reference_facts.md §2."""
    data = _read_yaml(PRESETS_FILE)
    return tuple(
        TargetPreset.model_validate({"name": name, **fields})
        for name, fields in data["presets"].items()
    )


def target_from_datasheet(sheet: Datasheet, models: int | None = None) -> Target:
    """A ``Target`` built from a datasheet's model profiles.

    Without ``models`` the unit has its minimum size (the ``min`` of each composition
    line: Death Riders = 1 Ridemaster + 4 Death Riders); ``models`` is the total size, the
    extra models going to the first line with room. Every model of a CHARACTER unit is a
    CHARACTER model. Raises ``ValueError`` when the size is not allowed or a needed
    characteristic (T, Sv, W) is unknown.
    """
    counts: list[tuple[ModelProfile, int]] = []
    if not sheet.composition:
        if len(sheet.models) != 1:
            raise ValueError(f"{sheet.name}: no unit composition to size the target from")
        counts.append((sheet.models[0], 1 if models is None else models))
    else:
        lines = sheet.composition
        low, high = sum(c.min for c in lines), sum(c.max for c in lines)
        total = low if models is None else models
        if not max(low, 1) <= total <= high:
            raise ValueError(f"{sheet.name} has {low}-{high} models; {total} asked for")
        extra = total - low
        for line in lines:
            add = min(extra, line.max - line.min)
            extra -= add
            if line.min + add:
                counts.append((_profile_for(sheet, line.model), line.min + add))
    character = sheet.has_keyword("CHARACTER")
    fnp_ability = sheet.ability("Feel No Pain")
    fnp = None
    if fnp_ability is not None and fnp_ability.parameter is not None:
        fnp = fnp_ability.parameter.min
    groups = []
    for profile, count in counts:
        missing = [s for s in ("T", "Sv", "W") if getattr(profile, s) is None]
        if missing:
            raise ValueError(f"{sheet.name}: model {profile.name} has no {', '.join(missing)}")
        assert profile.T is not None and profile.Sv is not None and profile.W is not None
        groups.append(
            ModelGroup(
                name=profile.name,
                count=count,
                T=profile.T,
                Sv=profile.Sv,
                invuln=profile.InSv,
                W=profile.W,
                fnp=fnp,
                character=character,
            )
        )
    keywords = tuple(dict.fromkeys((*sheet.keywords, *sheet.faction_keywords)))
    return Target(name=sheet.name, keywords=keywords, models=tuple(groups))


def _profile_for(sheet: Datasheet, model: str) -> ModelProfile:
    key = _singular_key(model)
    found = next((p for p in sheet.models if _singular_key(p.name) == key), None)
    if found is None and len(sheet.models) == 1:
        found = sheet.models[0]
    if found is None:
        raise ValueError(f"{sheet.name}: no model profile for composition line {model!r}")
    return found


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
    return None


def _record_keys(record: RuleRecord) -> list[str]:
    name = record_name(record)
    if name is None:
        return []
    keys = [name_key(name)]
    section = getattr(record, "section", None)
    if isinstance(section, str) and section.strip():
        keys += [name_key(section), name_key(f"{name} {section}")]
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
        records: Iterable[RuleRecord] = (),
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
        self._records: tuple[RuleRecord, ...] = tuple(records)
        self._rule_index: dict[str, list[RuleRecord]] = {}
        for record in self._records:
            for key in dict.fromkeys(_record_keys(record)):
                self._rule_index.setdefault(key, []).append(record)
        chosen = load_presets() if presets is None else presets
        self._presets = {name_key(p.name): p for p in chosen}

    # -- datasheets --
    def datasheets(self, rules: RulesVersion | None = None) -> tuple[Datasheet, ...]:
        """Every datasheet in load order, or only those of one rules version."""
        return tuple(d for d in self._order if rules is None or d.rules == rules)

    def names(self) -> tuple[str, ...]:
        """The unit names, each once, in load order."""
        return tuple(dict.fromkeys(d.name for d in self._order))

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


@functools.cache
def load_seed_library() -> Library:
    """The packaged library, built on first use and cached: every seed page loaded with
    ``load_seed_page``, its datasheet completed from the reference facts (§1), plus the
    target presets (§2). Load errors propagate (``LoadError`` names page and line)."""
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
    return Library(sheets, records, aliases=aliases)


# --- several sources (issue 6): seed pages + --data catalogues + bundled dataset ---------
# ``load_library()`` with no arguments and no configured sources is the seed library
# above; with catalogue paths or the bundled dataset (arguments, or ``use_sources`` which
# the command line calls for ``tactica --data PATH``) it is a ``tactica.sources``
# ``SourcedLibrary`` over all of them. Both are cached per set of sources.

_configured: tuple[tuple[str, ...], bool] = ((), False)


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
    """The unit library. Without arguments: the configured sources (``use_sources``),
    by default the seed library alone (``load_seed_library``). With ``data_paths`` or
    ``dataset=True``: seed pages, those catalogues and the bundled dataset merged
    (``tactica.sources.build_library``), cached per set of sources."""
    paths = _configured[0] if data_paths is None else tuple(str(p) for p in data_paths)
    use_dataset = _configured[1] if dataset is None else dataset
    if not paths and not use_dataset:
        return load_seed_library()
    return _load_sourced_library(paths, use_dataset)


@functools.cache
def _load_sourced_library(paths: tuple[str, ...], dataset: bool) -> Library:
    from .sources import build_library

    return build_library(paths, dataset=dataset, seeds=load_seed_library())
