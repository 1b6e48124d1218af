"""Cutting the meta table into tasks: which units attack, which targets they face, in
which phases and editions, and the partitions the work is cut into.

A ``Selection`` is the question (plain data, the same on every machine: it travels to the
Dask workers and into the Parquet metadata); ``plan`` answers it against a library with
the ``Partition`` list. A partition is one edition, one attacker faction and at most
``partition_size`` attacker units (in name order), every one against every target in
both phases: each is computed and written as one Parquet file, so a rerun skips the done
ones.

>>> from tactica.library import load_seed_library
>>> sel = Selection(attackers=("Primus", "Neophyte Hybrids"), targets=("meq", "geq"))
>>> [(p.id, p.attackers) for p in plan(sel, load_seed_library())]  # seed page 003 is 10th
[('10th-genestealer-cults-000', ('Neophyte Hybrids',)), ('11th-genestealer-cults-000', ('Primus',))]
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Literal

from pydantic import Field

from tactica.cache_registry import lasting_cache

from ..combat.contract.scenario import Phase
from ..library import Library, load_library
from ..loaders.bulk import loaded_for_good
from ..model.common import Frozen, RulesVersion
from ..model.datasheet import Datasheet
from ..names import UnknownNameError, name_key, suggest

__all__ = [
    "MIN_TASK",
    "PHASES",
    "TASKS",
    "Partition",
    "Selection",
    "TargetKind",
    "library_of",
    "matchups",
    "plan",
    "select_units",
    "target_kind",
    "targets_in",
    "task_budget",
    "unit_faction",
]

PHASES: tuple[Phase, ...] = ("shooting", "fight")
TargetKind = Literal["preset", "unit"]


class Selection(Frozen):
    """What the table holds. ``attackers`` and ``targets`` are names (the targets may be
    preset names such as ``meq``); ``editions`` empty means each unit's own editions;
    ``effects`` are named rules applied to every matchup (``tactica effects``). The
    sources are the library's (``load_library(data_paths, dataset=dataset)``)."""

    attackers: tuple[str, ...] = Field(min_length=1)
    targets: tuple[str, ...] = Field(min_length=1)
    phases: tuple[Phase, ...] = PHASES
    editions: tuple[RulesVersion, ...] = ()
    effects: tuple[str, ...] = ()
    data_paths: tuple[str, ...] = ()
    dataset: bool = True
    partition_size: int = Field(default=16, ge=1)
    #: one row set per detachment of the attacker's faction, its detachment rules applied
    #: where they hold (``tactica.meta.detachments``), beside the rows without them
    detachment_rules: bool = False
    #: inches between attacker and target in the shooting rows (a ranged weapon beyond
    #: its range makes no attacks, 04.02); ``None``: every target within range
    distance: float | None = Field(default=None, ge=0, le=200)

    def _plain(self) -> dict[str, object]:
        """The selection as JSON data; an option left off is not written, so a table
        made before the option existed keeps its bytes."""
        data = self.model_dump(mode="json")
        if not self.detachment_rules:
            del data["detachment_rules"]
        if self.distance is None:
            del data["distance"]
        return data

    def fingerprint(self) -> str:
        """A short hash of the selection: a table folder holds one selection."""
        return hashlib.sha256(json.dumps(self._plain(), separators=(",", ":")).encode()
                              ).hexdigest()[:16]

    def to_json(self) -> str:
        """The selection as JSON text (every Parquet file's metadata: made once)."""
        return _json(self)


@lasting_cache(maxsize=16)
def _json(selection: Selection) -> str:
    return json.dumps(selection._plain(), sort_keys=True)


class Partition(Frozen):
    """One task and one Parquet file: an edition, a faction and its attacker units."""

    id: str
    edition: RulesVersion
    faction: str
    attackers: tuple[str, ...]


def library_of(selection: Selection) -> Library:
    """The library the selection names (cached per process by ``load_library``)."""
    return load_library(list(selection.data_paths), dataset=selection.dataset)


def _slug(text: str) -> str:
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]+", "-", plain).strip("-") or "none"


@lasting_cache(maxsize=4, kind="data")
def _factions(lib: Library) -> Mapping[str, str]:
    """Each unit name's faction: the first faction a source files it under (the library's
    faction order), else its first faction keyword (read-only: cached)."""
    out: dict[str, str] = {}
    factions = getattr(lib, "factions", None)
    names_of = getattr(lib, "faction_names", None)
    if callable(factions) and callable(names_of):
        for faction in factions():
            for name in names_of(faction):
                out.setdefault(name_key(name), str(faction))
    for sheet in lib.datasheets():
        if sheet.faction_keywords:
            out.setdefault(name_key(sheet.name), sheet.faction_keywords[0].title())
    return MappingProxyType(out)


def unit_faction(lib: Library, name: str) -> str:
    """The faction a unit is listed under in the table (``"Unaligned"`` for none)."""
    return _factions(lib).get(name_key(name), "Unaligned")


def target_kind(lib: Library, name: str) -> TargetKind:
    """``preset`` for a standard target's name (``meq``), else ``unit``."""
    return "preset" if any(name_key(p.name) == name_key(name) for p in lib.presets()) \
        else "unit"


def select_units(lib: Library, *, factions: Sequence[str] = (),
                 keywords: Sequence[str] = (), names: Sequence[str] = ()) -> tuple[str, ...]:
    """The unit names matching every filter given (a faction, a keyword, or one of the
    names), in name order; no filter: every unit. A name or faction no source knows
    raises ``UnknownNameError`` (with close names)."""
    members = [_faction_members(lib, f) for f in factions]  # raises for an unknown one
    picked = [lib.datasheet(n).name for n in names]  # raises for an unknown name
    pool = picked or list(lib.names())
    wanted_k = {k.strip().upper() for k in keywords}

    def keep(name: str) -> bool:
        if members and not any(name_key(name) in m for m in members):
            return False
        sheets = lib.datasheet_versions(name)
        return not wanted_k or any(all(s.has_keyword(k) for k in wanted_k) for s in sheets)

    # reading each unit may convert it from its source (the whole library, for a table
    # of every unit), kept for the process's life: not walked by the collector
    with loaded_for_good():
        return tuple(sorted({n for n in pool if keep(n)}, key=name_key))


def _faction_members(lib: Library, faction: str) -> set[str]:
    """The name keys of the units filed under ``faction`` (any source's spelling: "Space
    Marines" finds the Adeptus Astartes units)."""
    names_of = getattr(lib, "faction_names", None)
    if callable(names_of):
        return {name_key(n) for n in names_of(faction)}
    found = {name_key(n) for n in lib.names() if name_key(unit_faction(lib, n)) ==
             name_key(faction)}
    if not found:
        known = sorted({unit_faction(lib, n) for n in lib.names()})
        raise UnknownNameError("faction", faction, suggest(faction, known))
    return found


def _editions(lib: Library, name: str, wanted: Sequence[RulesVersion]) -> list[Datasheet]:
    return [s for s in lib.datasheet_versions(name) if not wanted or s.rules in wanted]


#: The tasks a big table is cut into at least: four for each of 64 workers.
TASKS = 4 * 64
#: The fewest matchups worth a task of their own (about 0.2 s of CPU; a task's own cost,
#: its Dask round trip and its Parquet file, is a few milliseconds).
MIN_TASK = 2_000


def task_budget(total: int) -> int:
    """The most matchups a partition should hold in a table of ``total``: ``1/TASKS`` of
    it (under 2%), but no less than ``MIN_TASK``."""
    return max(MIN_TASK, -(-total // TASKS))


def targets_in(selection: Selection, lib: Library, edition: RulesVersion) -> list[str]:
    """The selection's targets that exist in ``edition`` (a unit target is fielded from
    that edition's datasheet; presets are in every edition)."""
    return [name for name in selection.targets if target_kind(lib, name) == "preset" or any(
        s.rules == edition for s in lib.datasheet_versions(name))]


def matchups(selection: Selection, lib: Library, edition: RulesVersion,
             faction: str) -> int:
    """The rows one attacker of ``faction`` makes in ``edition``: each target there in
    each phase, once more per detachment of its faction with ``detachment_rules``."""
    per = len(targets_in(selection, lib, edition)) * len(selection.phases)
    if selection.detachment_rules:
        from .detachments import faction_detachments

        per *= 1 + len(faction_detachments(faction))
    return per


def _cut(names: list[str], size: int, per: int, budget: int) -> list[list[str]]:
    """``names`` in as few equal consecutive runs as keep each within ``size`` names and
    ``budget`` matchups (``per`` each; one name alone may be over)."""
    n = len(names)
    most = max(1, min(size, budget // max(per, 1)))  # names a run may hold
    chunks = -(-n // most)
    base, extra = divmod(n, chunks)
    out, at = [], 0
    for i in range(chunks):
        step = base + (i < extra)
        out.append(names[at:at + step])
        at += step
    return out


def plan(selection: Selection, lib: Library) -> list[Partition]:
    """The partitions of ``selection``: per edition and faction, its attackers in equal
    runs of at most ``partition_size`` units and ``task_budget`` matchups (module text),
    in a fixed order (edition, faction, unit name)."""
    groups: dict[tuple[RulesVersion, str], list[str]] = {}
    for name in selection.attackers:
        for sheet in _editions(lib, name, selection.editions):
            groups.setdefault((sheet.rules, unit_faction(lib, name)), []).append(sheet.name)
    ordered = {key: sorted(dict.fromkeys(names), key=name_key) for key, names in sorted(
        groups.items(), key=lambda kv: (kv[0][0], name_key(kv[0][1])))}
    per = {key: matchups(selection, lib, *key) for key in ordered}
    budget = task_budget(sum(per[key] * len(names) for key, names in ordered.items()))
    out = []
    for (edition, faction), names in ordered.items():
        runs = _cut(names, selection.partition_size, per[edition, faction], budget)
        out += [Partition(id=f"{edition}-{_slug(faction)}-{i:03d}", edition=edition,
                          faction=faction, attackers=tuple(run)) for i, run in enumerate(runs)]
    return out
