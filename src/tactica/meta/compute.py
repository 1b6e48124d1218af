"""One partition of the meta table computed: every attacker unit of the partition against
every target, in each phase, through the batch engine (``tactica.combat.batch.figures_each``).

Each matchup is the scenario ``tactica.calculate`` builds from the row's document
(``scenario_of``), by the same code (``tactica.units.scenario_against``: the scenario
of ``resolve_against``, what ``tactica.calculate`` runs once the target is fielded,
without the texts a result document shows): the attacker named from the
library and fielded by default (its default loadout and size, weapons picked against the
target, its abilities that the calculator models), the target a preset or a library unit
fielded the same way (its defensive abilities included). So every figure is the one
``tactica.calculate(scenario_of(row))`` gives.

Work shared across matchups:

* each target is fielded once per edition and phase, not once per attacker; each
  attacker is fielded once per phase (and per keywords some weapon of it may or may
  not target), its profiles chosen again for each target only when it has a choice (a
  weapon of several profiles, Pistols or its other weapons, one melee weapon of
  several), its weapon lines built once per distinct choice (``units.resolve``);
* every matchup goes through one batch memo (``tactica.combat.batch.figures_each``,
  ``_memo``, kept between the partitions a process computes): a weapon line's stages
  are resolved once per what they read, its hit and wound totals once per target
  Toughness and keywords for every attacker that carries it, the target's states once
  per kind of attack reaching it, and a matchup's figures once per what the engine
  reads once the lines are resolved (``combat.exact.figures.FiguresInputs``: not the
  units' or weapons' names, the rules' texts, or a keyword no rule of the attack
  reads). So matchups that differ only in what no figure depends on are computed once:
  the same unit filed under several factions, and against the ~1,100 library units the
  many targets that share a profile. Only the figures are read off (no result
  document).

A matchup the calculator refuses (no weapons for the phase, a target it cannot attack, a
state space too large) is a row with ``status`` "refused" and the reason in ``note``:
nothing is dropped silently.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..army.pricing import bracket_price
from ..cache_registry import LastingMemo, lasting_cache
from ..combat import Scenario, ScenarioError
from ..combat.batch import Figures, figures_each
from ..combat.contract.scenario import Phase, Target
from ..errors import one_line
from ..library import Library
from ..loaders.bulk import rare_collections
from ..model.common import RulesVersion
from ..model.datasheet import Datasheet, EscalatingPoints
from ..model.trusted import made
from ..names import UnknownNameError
from ..units import (
    FieldedTarget,
    ScenarioDocument,
    UnitError,
    UnitRef,
    WargearError,
    field_unit,
    resolve_target,
    scenario_against,
)
from .detachments import Detachment, applied_rules, faction_detachments
from .tasks import (
    Partition,
    Selection,
    library_of,
    plan,
    target_kind,
    targets_in,
    unit_faction,
)

__all__ = ["PREPARING", "WEAPON_ORDER", "Row", "compute_partition", "field_targets", "forget",
           "points_artefact", "points_of", "scenario_of"]

#: Held while a Dask worker prepares (``workers.prepare_worker``): a partition waits
#: for it rather than fielding the same targets beside it.
PREPARING = threading.Lock()

#: The order a row's weapon lines are resolved in: the datasheet's (its wargear's order),
#: not the order that does most. Where damage carries from one line to the next (a model
#: destroyed by one line's excess is not hit by the next's, 05.04) the order can change
#: the figures a little: the attacker may choose it, the table does not.
WEAPON_ORDER = "datasheet"

#: The errors a matchup may be refused with (each a player-facing one-line message).
_REFUSALS = (ScenarioError, UnitError, WargearError, UnknownNameError, ValueError,
             LookupError)


@dataclass(frozen=True)
class Row:
    """One matchup's row (the columns of ``tactica.meta.table.SCHEMA``)."""

    edition: str
    phase: str
    attacker: str
    attacker_faction: str
    attacker_models: int | None
    attacker_points: int | None
    target: str
    target_kind: str
    target_faction: str | None
    target_models: int | None
    target_points: int | None
    effects: tuple[str, ...]
    expected_damage: float | None
    models_destroyed: float | None
    p_destroyed: float | None
    points_destroyed: float | None
    points_per_100: float | None
    status: str
    note: str | None
    #: with ``Selection.detachment_rules``: the detachment whose rules the row applies
    #: (``None``: the row without them) and those of its rules not in the figures, why
    detachment: str | None = None
    detachment_not_applied: tuple[str, ...] = ()
    #: with ``Selection.distance``: the inches to the target of a shooting row (``None``
    #: in the fight)
    distance: float | None = None
    #: why a side's points are an artefact of the data (``points_artefact``), or ``None``
    points_artefact: str | None = None
    #: the order the attacker's weapon lines are resolved in (``WEAPON_ORDER``)
    weapon_order: str = "datasheet"


def scenario_of(row: Any) -> dict[str, Any]:
    """The ``tactica.calculate`` document that reproduces a row (a mapping or a pandas
    row with the table's columns): its figures are that result's ``damage.mean``,
    ``models_destroyed.mean`` and ``p_unit_destroyed``.

    >>> scenario_of({"attacker": "Primus", "target": "meq", "phase": "fight",
    ...              "edition": "11th", "effects": []})
    {'attacker': {'unit': 'Primus'}, 'target': {'unit': 'meq'}, 'phase': 'fight', 'rules': '11th'}

    A row of a detachment (``Selection.detachment_rules``) names it in the context, and
    a shooting row at a distance (``Selection.distance``) its inches:

    >>> scenario_of({"attacker": "Primus", "target": "meq", "phase": "fight",
    ...              "edition": "11th", "effects": ["Hypermorphic Fury"],
    ...              "detachment": "Biosanctic Broodsurge"})["context"]
    {'detachment': 'Biosanctic Broodsurge'}
    >>> scenario_of({"attacker": "Primus", "target": "meq", "phase": "shooting",
    ...              "edition": "11th", "effects": [], "distance": 18.0})["context"]
    {'distance': 18.0}
    """
    doc: dict[str, Any] = {"attacker": {"unit": row["attacker"]},
                           "target": {"unit": row["target"]},
                           "phase": row["phase"], "rules": row["edition"]}
    effects = [str(e) for e in (row["effects"] if row["effects"] is not None else ())]
    if effects:
        doc["effects"] = effects
    context = _context(row.get("detachment"), row.get("distance"))
    if context:
        doc["context"] = context
    return doc


def _context(detachment: Any, distance: Any) -> dict[str, Any]:
    """A row's context: its detachment, its distance (a number, not a missing value)."""
    out: dict[str, Any] = {}
    if isinstance(detachment, str):
        out["detachment"] = detachment
    if isinstance(distance, int | float) and distance == distance:  # not NaN
        out["distance"] = float(distance)
    return out


def points_of(sheet: Datasheet, models: int) -> int | None:
    """The points of a unit of ``models`` models of ``sheet`` (its first unit of an
    escalating cost; ``None`` when the datasheet has no points)."""
    brackets = sheet.points
    if isinstance(brackets, EscalatingPoints):
        brackets = brackets.brackets_for_unit(1)
    bracket, _ = bracket_price(brackets, models)
    return bracket.points if bracket is not None else None


def points_artefact(sheet: Datasheet, models: int) -> str | None:
    """Why the points of a unit of ``models`` models of ``sheet`` are not that size's
    own price, or ``None``: the dataset gives the same points for several sizes (a Kill
    Team fielded as 3 models, priced as the whole team at 195 for 3 to 24), so its
    points destroyed per 100 points rank it as no army could field it.

    The size's price is compared with the largest size's: a unit priced per size pays
    more for its largest (5 Assault Intercessors 75, 10 of them 150); one that pays the
    same at its default size is priced as the whole of its largest."""
    brackets = sheet.points
    if isinstance(brackets, EscalatingPoints):
        brackets = brackets.brackets_for_unit(1)
    bracket, _ = bracket_price(brackets, models)
    if bracket is None:
        return None
    largest = max(brackets, key=lambda b: b.models)
    if largest.models <= models or largest.points != bracket.points:
        return None
    smallest = min(b.models for b in brackets if b.points == bracket.points)
    return (f"{sheet.name}: {bracket.points} points for any size from {smallest} to "
            f"{largest.models} models (fielded as {models})")


@dataclass(frozen=True)
class _Side:
    """A unit or preset as the table describes it: name, faction, models, points (and
    why they are an artefact of the data, ``points_artefact``)."""

    name: str
    faction: str | None
    models: int | None
    points: int | None
    artefact: str | None = None


#: ``_attacker_side`` and ``_target`` are cached per library (the data loaded, which
#: ``load_library`` makes once per sources: the key stands for its content, and a second
#: load of the same data is another key, never a wrong answer), registered as data with
#: the library itself: a Dask worker fields the targets once, as it joins.
@lasting_cache(maxsize=4096, kind="data")
def _attacker_side(lib: Library, name: str, edition: RulesVersion) -> _Side:
    sheet = lib.datasheet(name, edition)
    try:
        size: int | None = field_unit(sheet).size
    except WargearError:
        size = None
    return _Side(sheet.name, unit_faction(lib, name), size,
                 points_of(sheet, size) if size is not None else None,
                 points_artefact(sheet, size) if size is not None else None)


@lasting_cache(maxsize=8192, kind="data")
def _target(lib: Library, name: str, edition: RulesVersion, phase: Phase
            ) -> tuple[_Side, tuple[Target, FieldedTarget] | str]:
    """The target as fielded (once per edition and phase: ``resolve_target``, as
    ``tactica.calculate`` fields it), or why it cannot be."""
    kind = target_kind(lib, name)
    try:
        target, tside = resolve_target(UnitRef(unit=name), lib, edition, phase)
    except _REFUSALS as exc:
        return _Side(name, None, None, None), one_line(exc)
    fielded = target, tside.done()
    target = fielded[0]
    models = sum(g.count for g in target.models)
    if kind == "preset":
        preset = lib.preset(name)
        stand_in = preset.unit if lib.has(preset.unit) else None
        if stand_in is None:
            return _Side(preset.name, None, models, None), fielded
        unit = lib.datasheet(stand_in, edition)
        return _Side(preset.name, None, models, points_of(unit, models),
                     points_artefact(unit, models)), fielded
    sheet = lib.datasheet(name, edition)
    return _Side(sheet.name, unit_faction(lib, name), models,
                 points_of(sheet, models), points_artefact(sheet, models)), fielded


def field_targets(selection: Selection, lib: Library | None = None) -> int:
    """Field every target of ``selection`` in each of its editions and phases (kept by
    ``_target`` for this process's partitions): what a Dask worker does once, as it
    joins, instead of inside its first partition. Returns how many were fielded."""
    lib = library_of(selection) if lib is None else lib
    editions = dict.fromkeys(p.edition for p in plan(selection, lib))
    n = 0
    for edition in editions:
        for name in targets_in(selection, lib, edition):
            for phase in selection.phases:
                _target(lib, name, edition, phase)
                n += 1
    return n


@dataclass
class _Matchup:
    edition: RulesVersion
    phase: Phase
    attacker: _Side
    target: _Side
    kind: str
    scenario: Scenario | None
    refused: str | None
    effects: tuple[str, ...]
    detachment: str | None = None
    not_applied: tuple[str, ...] = ()
    distance: float | None = None


def _doc(side: _Side, phase: Phase, edition: RulesVersion, effects: Sequence[str],
         detachment: str | None = None, distance: float | None = None
         ) -> ScenarioDocument | str:
    """The attacker's document for one phase (its target set apart: ``scenario_against``),
    ``distance`` inches from its targets when it shoots, or why it is refused."""
    data: dict[str, Any] = {"attacker": {"unit": side.name}, "target": {"unit": side.name},
                            "phase": phase, "rules": edition, "effects": list(effects)}
    context = _context(detachment, distance if phase == "shooting" else None)
    if context:
        data["context"] = context
    try:
        return ScenarioDocument.model_validate(data)
    except ValueError as exc:
        return one_line(exc)


def _resolved(doc: ScenarioDocument | str, lib: Library,
              fielded: tuple[Target, FieldedTarget] | str) -> Scenario | str:
    """The matchup's scenario, as ``tactica.calculate`` resolves it, or why it is
    refused (the target's reason first)."""
    refused = fielded if isinstance(fielded, str) else doc
    if isinstance(refused, str):
        return refused
    assert not isinstance(fielded, str) and not isinstance(doc, str)
    try:
        return scenario_against(doc, lib, *fielded)
    except _REFUSALS as exc:
        return one_line(exc)


def _matchups(selection: Selection, lib: Library, part: Partition) -> Iterator[_Matchup]:
    """Every matchup of the partition: each attacker's document once per phase, each
    target fielded once per edition and phase (``_target``), resolved against each other
    as ``tactica.calculate`` resolves them (``scenario_against``); with
    ``detachment_rules`` each matchup again per detachment of the partition's faction."""
    edition = part.edition
    effects = selection.effects
    detachments = faction_detachments(part.faction) if selection.detachment_rules else ()
    targets = [(t, target_kind(lib, t)) for t in targets_in(selection, lib, edition)]
    for name in part.attackers:
        side = _attacker_side(lib, name, edition)
        for phase in selection.phases:
            distance = selection.distance if phase == "shooting" else None
            doc = _doc(side, phase, edition, effects, distance=distance)
            for t, kind in targets:
                tside, fielded = _target(lib, t, edition, phase)
                got = _resolved(doc, lib, fielded)
                base = _Matchup(edition, phase, side, tside, kind, None, None, effects,
                                distance=distance)
                if isinstance(got, str):
                    base.refused = got
                else:
                    base.scenario = got
                yield base
                for d in detachments:
                    yield _with_detachment(base, d, lib, fielded)


def _with_detachment(base: _Matchup, d: Detachment, lib: Library,
                     fielded: tuple[Target, FieldedTarget] | str) -> _Matchup:
    """``base`` under detachment ``d``: its rules that apply named as effects in the
    document (so that ``scenario_of`` reproduces the row), the others listed."""
    out = replace(base, detachment=d.name)
    if base.scenario is None:
        return out
    applied, out.not_applied = applied_rules(base.scenario, d)
    out.effects = (*base.effects, *applied)
    doc = _doc(base.attacker, base.phase, base.edition, out.effects, d.name, base.distance)
    got = _resolved(doc, lib, fielded)
    if isinstance(got, str):
        out.scenario, out.refused = None, got
    else:
        out.scenario = got
    return out


#: The batch memo (``figures_each``) kept between the partitions one process computes:
#: the same targets come back in every partition, and the same weapon lines in many
#: factions (a memo per partition costs the presets table 1.25-1.4x its CPU time:
#: benchmarks/README.md, issue 42). Every entry is keyed by value on all it depends on
#: (the stages' input records), so the figures are the same floats whatever was
#: computed before; registered (``cache_registry.clear`` empties it with the rest) and
#: emptied before a partition once it holds more than its limit (about 1 kB each).
_memo: LastingMemo[Any, Any] = LastingMemo(100_000)


def forget() -> None:
    """Drop the work kept between partitions (a benchmark's cold start)."""
    _memo.clear()


def _compute(scenarios: list[Scenario]) -> list[Figures | ScenarioError]:
    """Each scenario's figures, all through the process's batch memo (``figures_each``,
    ``_memo``): the weapon lines' totals shared between targets and between attackers
    with the same lines, the target's operators between attackers whose attacks reach it
    alike, a matchup's figures between matchups whose lines roll alike into targets
    alike (the same scenario twice among them)."""
    if len(_memo) > _memo.limit:
        forget()
    return figures_each(scenarios, _memo)


def _share(points: int | None, models: int | None, destroyed: float) -> float | None:
    return None if points is None or not models else points * destroyed / models


def _row(m: _Matchup, result: Figures | ScenarioError | None) -> Row:
    a, t = m.attacker, m.target
    figures: tuple[float | None, ...] = (None,) * 5
    note = m.refused
    if isinstance(result, Figures):
        pts = _share(t.points, t.models, result.models_destroyed)
        per_100 = None if pts is None or not a.points else 100.0 * pts / a.points
        figures = (*result, pts, per_100)
    elif result is not None:
        note = one_line(result)
    damage, destroyed, p, pts, per_100 = figures
    # every field given: made at once (``model.trusted.made``), one row per matchup
    return made(Row, {
        "edition": m.edition, "phase": m.phase, "attacker": a.name,
        "attacker_faction": a.faction or "Unaligned", "attacker_models": a.models,
        "attacker_points": a.points, "target": t.name, "target_kind": m.kind,
        "target_faction": t.faction, "target_models": t.models, "target_points": t.points,
        "effects": m.effects, "expected_damage": damage, "models_destroyed": destroyed,
        "p_destroyed": p, "points_destroyed": pts, "points_per_100": per_100,
        "status": "computed" if isinstance(result, Figures) else "refused", "note": note,
        "detachment": m.detachment, "detachment_not_applied": m.not_applied,
        "distance": m.distance, "points_artefact": _artefact(a, t),
        "weapon_order": WEAPON_ORDER})


def _artefact(a: _Side, t: _Side) -> str | None:
    """The row's ``points_artefact``: each side's reason, attacker first."""
    said = [f"{side}: {why}" for side, why in (("attacker", a.artefact), ("target", t.artefact))
            if why]
    return "; ".join(said) or None


def compute_partition(selection: Selection, part: Partition,
                      lib: Library | None = None) -> list[Row]:
    """The rows of one partition, in the table's order (``table.sort_key``)."""
    # fielding and the engine make many short-lived containers and almost no cycles:
    # the presets table made about 900 collections at the default threshold, freeing
    # under 1,000 objects in all, a tenth of its CPU time
    with rare_collections():
        rows = _compute_partition(selection, part, lib)
        # what it leaves behind lives on (the work kept for the next partitions: the
        # batch memo, fielding's caches) or is freed by its count (the rows): moved out
        # of the collector's way (``gc.freeze``), it is not walked by the collection
        # the restored threshold would start at once, nor by every later one: 0.17 s,
        # 5% of the presets table, walking it 79 times and freeing nothing
        gc.freeze()
    return rows


def _compute_partition(selection: Selection, part: Partition,
                       lib: Library | None) -> list[Row]:
    lib = library_of(selection) if lib is None else lib
    matchups = list(_matchups(selection, lib, part))
    results = iter(_compute([m.scenario for m in matchups if m.scenario is not None]))
    return [_row(m, None if m.scenario is None else next(results)) for m in matchups]
