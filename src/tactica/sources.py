"""One library over several sources: seed pages, the user's catalogues, the bundled dataset.

Issue 6: "``tactica units --faction "Genestealer Cults"`` and ``tactica sheet Magus`` work
across sources; each datasheet says where it came from and which rules version; when two
sources disagree (points, a characteristic) the library shows which it used and why".

Precedence (``PRECEDENCE``), per unit and rules version:

1. the seed page, for its own rules version (a 10th-edition page is not compared with
   11th-edition data; it stays the unit's 10th datasheet);
2. the catalogues the user gave (``tactica --data PATH``), in the order given;
3. the bundled dataset (``wh40kdc``, ``tactica[data]``).

The first source that has the unit in that version gives the datasheet. What it lacks
(no stat line, no points, no leader list) is filled from the next source that has it, and
every value on which the sources differ is listed as a ``Decision``: which source's value
was used, the other values, and why. Both go into the datasheet's ``notes`` (and
``SourcedLibrary.decisions``), so ``tactica sheet`` shows them.

Loading is lazy: building the library indexes the names of every source; a datasheet is
converted and merged the first time it is asked for. Listing every unit converts all.
The differences between two sources' datasheets are ``datasheet_diff.compare``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal, Protocol

from .combat.contract.scenario import Target
from .datasheet_diff import Difference, compare
from .facts import TargetPreset
from .index import Library, UnitAbility
from .loaders.bulk import collector_paused
from .loaders.report import LoadReport, UnitReport
from .model.common import Frozen, RulesVersion
from .model.datasheet import Datasheet
from .names import UnknownNameError, name_key, suggest
from .units.resolve import preset_target, sheet_target

if TYPE_CHECKING:
    from .model.rules import RuleRecord

__all__ = [
    "PRECEDENCE",
    "REASONS",
    "Decision",
    "Difference",
    "RejectedUnitError",
    "SeedSource",
    "SourceKind",
    "SourcedLibrary",
    "UnitSource",
    "build_library",
    "compare",
]

SourceKind = Literal["seed", "catalogue", "dataset"]

#: Which source wins, first to last.
PRECEDENCE: tuple[SourceKind, ...] = ("seed", "catalogue", "dataset")

#: Why the winning source's value was used, by its kind.
REASONS: dict[SourceKind, str] = {
    "seed": "seed page for its own rules version first",
    "catalogue": "the catalogue given with --data before the bundled dataset",
    "dataset": "only the bundled dataset has it",
}


class UnitSource(Protocol):
    """What the library asks of a source (``BSDataSource``, ``Wh40kdcDataset``,
    ``SeedSource``)."""

    @property
    def kind(self) -> SourceKind: ...

    @property
    def label(self) -> str: ...

    def names(self) -> tuple[str, ...]: ...

    def aliases(self) -> dict[str, str]: ...

    def __contains__(self, name: object) -> bool: ...

    def datasheet(self, name: str) -> Datasheet | None: ...

    def factions_of(self, name: str) -> tuple[str, ...]: ...

    def factions(self) -> tuple[str, ...]: ...

    def report(self) -> LoadReport: ...


class SeedSource:
    """The packaged seed library as a source (its datasheets are already loaded)."""

    kind: Literal["seed"] = "seed"

    def __init__(self, library: Library, label: str = "seed pages") -> None:
        self.library = library
        self.label = label

    def names(self) -> tuple[str, ...]:
        return self.library.names()

    def aliases(self) -> dict[str, str]:
        return {}

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self.library.has(name)

    def versions(self, name: str) -> tuple[Datasheet, ...]:
        return self.library.datasheet_versions(name)

    def datasheet(self, name: str) -> Datasheet | None:
        return self.versions(name)[0]

    def factions_of(self, name: str) -> tuple[str, ...]:
        return tuple(
            dict.fromkeys(k.title() for d in self.versions(name) for k in d.faction_keywords)
        )

    def factions(self) -> tuple[str, ...]:
        return tuple(
            dict.fromkeys(k.title() for d in self.library.datasheets() for k in d.faction_keywords)
        )

    def report(self) -> LoadReport:
        return LoadReport(
            source=self.label,
            units=tuple(
                UnitReport(unit=d.name, faction=", ".join(d.faction_keywords) or None,
                           status="loaded")
                for d in self.library.datasheets()
            ),
        )


class RejectedUnitError(UnknownNameError):
    """Every source that has the unit rejected it; the message gives their reasons."""

    def __init__(self, name: str, rejections: Sequence[tuple[str, str]]) -> None:
        self.kind = "unit"
        self.name = name
        self.suggestions = ()
        self.rejections = tuple(rejections)
        why = "; ".join(f"{label} rejected it ({reason})" for label, reason in rejections)
        LookupError.__init__(self, f"no datasheet for {name!r}: {why or 'no source loads it'}")


class Decision(Frozen):
    """How the library chose one value of a unit: the source used and why, and what the
    other sources say."""

    unit: str
    rules: RulesVersion
    field: str
    used: str
    value: str
    others: tuple[tuple[str, str], ...]
    reason: str

    def __str__(self) -> str:
        rest = "; ".join(f"{label}: {value}" for label, value in self.others)
        return f"{self.field}: {self.value} from {self.used} ({self.reason}); {rest}"


# --- the library ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Candidate:
    source: UnitSource
    sheet: Datasheet


_FILLED = ("models", "weapons", "abilities", "composition", "points", "leader_of",
           "model_types", "wargear", "wargear_budgets",
           "keywords", "faction_keywords")


class SourcedLibrary(Library):
    """A ``Library`` whose datasheets come from several sources (see the module text).

    ``seeds`` is the packaged seed library (its rule records and aliases are kept),
    ``catalogues`` the user's BSData sources in the order given, ``dataset`` the bundled
    dataset; ``presets`` the target presets (by default the seed library's, the packaged
    ones). ``missing`` holds messages for sources that were asked for but are not
    available (the dataset without ``tactica[data]``).
    """

    def __init__(
        self,
        seeds: Library | None = None,
        catalogues: Sequence[UnitSource] = (),
        dataset: UnitSource | None = None,
        presets: Sequence[TargetPreset] | None = None,
        missing: Sequence[str] = (),
        rule_records: Sequence[RuleRecord] | Callable[[], Sequence[RuleRecord]] = (),
    ) -> None:
        def every_record() -> tuple[RuleRecord, ...]:
            own = seeds.records() if seeds is not None else ()
            more = rule_records() if callable(rule_records) else rule_records
            return (*own, *more)

        if presets is None and seeds is not None:  # the seed library's (read once)
            presets = seeds.presets()
        super().__init__((), every_record, presets)
        self.seeds = seeds
        ordered: list[UnitSource] = []
        if seeds is not None:
            ordered.append(SeedSource(seeds))
        ordered += list(catalogues)
        if dataset is not None:
            ordered.append(dataset)
        self.sources: tuple[UnitSource, ...] = tuple(ordered)
        self.missing = tuple(missing)
        self._display: dict[str, str] = {}
        self._key_alias: dict[str, str] = {}
        for src in self.sources:
            keyed = getattr(src, "keyed_names", None)  # keys stored with the names
            names, alias_keys = keyed() if callable(keyed) else (
                [(name_key(n), n) for n in src.names()],
                {name_key(a): name_key(t) for a, t in src.aliases().items()})
            for key, name in names:
                self._display.setdefault(key, name)
            for alias_key, target_key in alias_keys.items():
                self._key_alias.setdefault(alias_key, target_key)
        self._merged: dict[str, tuple[Datasheet, ...]] = {}
        self._decisions: dict[tuple[str, RulesVersion], tuple[Decision, ...]] = {}
        self._all_loaded = False

    # -- names --
    def _key(self, name: str) -> str | None:
        key = name_key(name)
        if key in self._display:
            return key
        alias = self._key_alias.get(key)
        if alias is not None and alias in self._display:
            return alias
        if self.seeds is not None:
            try:
                return name_key(self.seeds.datasheet_versions(name)[0].name)
            except UnknownNameError:
                return None
        return None

    def names(self) -> tuple[str, ...]:
        """Every unit name, seed pages first, then the catalogues, then the dataset."""
        return tuple(self._display.values())

    def has(self, name: str) -> bool:
        return self._key(name) is not None

    # -- merging --
    def _candidates(self, key: str) -> list[_Candidate]:
        name = self._display[key]
        out: list[_Candidate] = []
        for src in self.sources:
            if isinstance(src, SeedSource):
                if name in src:
                    out += [_Candidate(src, d) for d in src.versions(name)]
            elif name in src:
                sheet = src.datasheet(name)
                if sheet is not None:
                    out.append(_Candidate(src, sheet))
        return out

    def _merge_key(self, key: str) -> tuple[Datasheet, ...]:
        if key not in self._merged:
            candidates = self._candidates(key)
            versions: dict[RulesVersion, list[_Candidate]] = {}
            for c in candidates:
                versions.setdefault(c.sheet.rules, []).append(c)
            merged = []
            for rules, group in versions.items():
                other_versions = [c for c in candidates if c.sheet.rules != rules
                                  and c.source.kind == "seed"]
                merged.append(self._merge(rules, group, other_versions))
            self._merged[key] = tuple(merged)
        return self._merged[key]

    def _merge(self, rules: RulesVersion, group: list[_Candidate],
               other_seed: list[_Candidate]) -> Datasheet:
        winner, rest = group[0], group[1:]
        sheet = winner.sheet
        notes = list(sheet.notes)
        update: dict[str, object] = {}
        decisions: list[Decision] = []
        labels = ", ".join(f"{c.source.label}" for c in rest)
        notes.append(
            f"{rules} datasheet from {winner.source.label}"
            + (f"; also in {labels}" if labels else "")
        )
        for label, reason in self._rejections(sheet.name):
            notes.append(f"not from {label}: {reason}")
        for c in other_seed:
            notes.append(
                f"the {c.sheet.rules} seed page ({c.sheet.source}) is that version's datasheet; "
                "not compared"
            )
        for field in _FILLED:
            if getattr(sheet, field):
                continue
            donor = next((c for c in rest if getattr(c.sheet, field)), None)
            if donor is not None:
                update[field] = getattr(donor.sheet, field)
                notes.append(f"{field.replace('_', ' ')}: from {donor.source.label} "
                             f"({winner.source.label} has none)")
        for c in rest:
            for diff in compare(sheet, c.sheet):
                existing = next((d for d in decisions if d.field == diff.field), None)
                if existing is None:
                    decisions.append(Decision(
                        unit=sheet.name, rules=rules, field=diff.field,
                        used=winner.source.label, value=diff.first,
                        others=((c.source.label, diff.second),),
                        reason=REASONS[winner.source.kind],
                    ))
                else:
                    decisions[decisions.index(existing)] = existing.model_copy(
                        update={"others": (*existing.others, (c.source.label, diff.second))}
                    )
        notes += [f"sources differ: {d}" for d in decisions]
        self._decisions[(name_key(sheet.name), rules)] = tuple(decisions)
        update["notes"] = tuple(notes)
        # validated again from its dump, not copied: the sources' nested models (a
        # converted ability) may not hold their discriminator as set, and a document
        # dumped with ``exclude_unset`` would lose it (``tests/combat/test_batch.py``
        # with the cache off)
        return Datasheet.model_validate({**sheet.model_dump(), **update})

    def _rejections(self, name: str) -> list[tuple[str, str]]:
        """Sources that have the unit but rejected it, with their reasons."""
        out: list[tuple[str, str]] = []
        for src in self.sources:
            unit_report = getattr(src, "unit_report", None)
            # asked first: a source without the unit would compute "did you mean"
            # suggestions over all its names for an error nobody reads
            has_report = getattr(src, "has_report", src.__contains__)
            if not callable(unit_report) or not has_report(name):
                continue
            try:
                entry = unit_report(name)
            except UnknownNameError:
                continue
            reasons = getattr(entry, "reasons", ())
            if getattr(entry, "status", None) == "rejected":
                out.append((src.label, "; ".join(reasons) or "rejected"))
        return out

    def decisions(self, name: str, rules: RulesVersion | None = None) -> tuple[Decision, ...]:
        """The values on which the sources disagree for this unit, and which was used."""
        sheet = self.datasheet(name, rules)
        return self._decisions.get((name_key(sheet.name), sheet.rules), ())

    # -- Library look-ups over the merged sources --
    def datasheet_versions(self, name: str) -> tuple[Datasheet, ...]:
        key = self._key(name)
        if key is None:
            raise UnknownNameError("unit", name, suggest(name, self.names()))
        versions = self._merge_key(key)
        if not versions:
            raise RejectedUnitError(name, self._rejections(self._display[key]))
        order = {"11th": 0, "10th": 1}
        return tuple(sorted(versions, key=lambda d: order.get(d.rules, 2)))

    def datasheets(self, rules: RulesVersion | None = None) -> tuple[Datasheet, ...]:
        """Every merged datasheet (this converts every source's units)."""
        out = []
        with collector_paused():
            for key in self._display:
                out += [d for d in self._merge_key(key) if rules is None or d.rules == rules]
        return tuple(out)

    def target(
        self, name: str, models: int | None = None, rules: RulesVersion | None = None
    ) -> Target:
        key = name_key(name)
        presets = {name_key(p.name): p for p in self.presets()}
        if key in presets:
            return preset_target(presets[key], self, models, rules)
        if self.has(name):
            return sheet_target(self.datasheet(name, rules), models)
        candidates = [p.name for p in self.presets()] + list(self.names())
        raise UnknownNameError("target", name, suggest(name, candidates))

    def _load_all(self) -> None:
        """Rule and ability look-ups search every datasheet: convert them all once."""
        if not self._all_loaded:
            self._order = list(self.datasheets())
            self._all_loaded = True

    def _ability_matches(self, name: str) -> list[UnitAbility]:
        self._load_all()
        return super()._ability_matches(name)

    def _rule_names(self) -> list[str]:
        self._load_all()
        return super()._rule_names()

    def rule_keys(self) -> tuple[str, ...]:
        self._load_all()
        return super().rule_keys()

    # -- factions and reports --
    def factions(self) -> tuple[str, ...]:
        """Every faction a source files units under."""
        found: dict[str, str] = {}
        for src in self.sources:
            for f in src.factions():
                found.setdefault(name_key(f), f)
        return tuple(found.values())

    def faction(self, name: str) -> str:
        """A faction's name as the sources spell it; ``UnknownNameError`` otherwise."""
        found = self.faction_spellings().get(name_key(name))
        if found is None:  # close names as players name them too ("Space Marines")
            from .loaders.wh40kdc_factions import player_faction

            named = [player_faction(f).name for f in self.factions()]
            raise UnknownNameError("faction", name, suggest(name, list(dict.fromkeys(
                [*named, *self.factions()]))))
        return found

    def faction_spellings(self) -> dict[str, str]:
        """Every name ``faction`` reads, by its look-up key (``name_key``), with the
        sources' spelling: the factions' own names (the first source's spelling), then
        the other names a source knows them by (the dataset's aliases, a source's
        ``faction_aliases``), so that a look-up kept on disk reads faction names as the
        library does (``tactica.lookup.unit_index``)."""
        found: dict[str, str] = {}
        for f in self.factions():
            found.setdefault(name_key(f), f)
        for src in self.sources:
            aliases = getattr(src, "faction_aliases", None)
            for key, spelled in (aliases() if callable(aliases) else {}).items():
                found.setdefault(key, spelled)
        return found

    def faction_names(self, faction: str) -> tuple[str, ...]:
        """Names of the units some source files under ``faction`` (no conversion)."""
        key = name_key(self.faction(faction))
        out: list[str] = []
        for name in self._display.values():
            if any(
                name in src and any(name_key(f) == key for f in src.factions_of(name))
                for src in self.sources
            ):
                out.append(name)
        return tuple(out)

    def faction_datasheets(
        self, faction: str, rules: RulesVersion | None = None
    ) -> tuple[Datasheet, ...]:
        """The merged datasheets of one faction's units."""
        out: list[Datasheet] = []
        for name in self.faction_names(faction):
            versions = self._merge_key(name_key(name))  # () when every source rejected it
            out += [d for d in versions if rules is None or d.rules == rules]
        return tuple(out)

    def reports(self) -> tuple[LoadReport, ...]:
        """Each source's load report (converts every unit of every source)."""
        return tuple(src.report() for src in self.sources)


def build_library(
    data_paths: Sequence[str | Path] = (),
    *,
    dataset: bool = True,
    seeds: Library | None = None,
    skip_bad: bool = False,
) -> SourcedLibrary:
    """A library over ``seeds``, the BSData catalogues at ``data_paths`` (each path its own
    source, in order) and, with ``dataset``, the bundled dataset when it is installed
    (``bundled_dataset``: from the on-disk cache when there is one; otherwise ``missing``
    says how to install it). A folder with an unreadable catalogue is refused
    (``FolderRefusedError``) unless ``skip_bad``."""
    from .loaders.wh40kdc import DatasetMissingError
    from .loaders.wh40kdc_cache import bundled_dataset

    catalogues: list[UnitSource] = []
    if data_paths:
        from .loaders.bsdata import load_bsdata

        catalogues = [load_bsdata([p], skip_bad=skip_bad) for p in data_paths]
    bundled: UnitSource | None = None
    missing: list[str] = []
    if dataset:
        try:
            bundled = bundled_dataset()
        except DatasetMissingError as exc:
            missing.append(str(exc))
    return SourcedLibrary(seeds, catalogues, bundled, missing=missing,
                          rule_records=_dataset_rule_records(seeds) if bundled else ())


def _dataset_rule_records(seeds: Library | None) -> Callable[[], Sequence[RuleRecord]]:
    """Every faction's detachments, stratagems, enhancements and army rules (issue 16),
    read when the library is first asked for a rule, not when it is built."""
    def read() -> Sequence[RuleRecord]:
        from .loaders.wh40kdc_rules import dataset_rules, without_seed_duplicates

        seed_records = seeds.records() if seeds is not None else ()
        return without_seed_duplicates(dataset_rules().records(), seed_records)

    return read
