"""Factions for the calculator page: a faction-first unit browser (``/api/factions``) and
a faction's rules from the dataset (``/api/factions/{name}/rules``): its army rules and,
detachment by detachment, the detachment rule, stratagems and enhancements, each with its
status in the calculator (modelled, non-combat, not modelled and why).

Thin like the rest of the API: the units come from the library, the rules and their
statuses from ``tactica.effects.dataset_effects`` (what ``tactica rule`` reports).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Path, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from ..library import Library
from ..names import name_key, suggest

__all__ = ["FactionRules", "FactionUnits", "RuleChoice", "router"]

router = APIRouter()


class _Doc(BaseModel):
    model_config = ConfigDict(frozen=True)


class FactionUnits(_Doc):
    """One faction keyword and the library's units that carry it."""

    faction: str
    units: list[str]


class RuleChoice(_Doc):
    """One dataset record as the calculator offers it."""

    name: str = Field(description="the name to put in a scenario's effects")
    kind: str
    cp: int
    status: str = Field(description="modelled, non-combat or not modelled")
    reason: str = Field(description="what it does in the calculator, or why it is not modelled")
    parameter: str | None = None


class DetachmentRules(_Doc):
    name: str
    rules: list[RuleChoice]


class FactionRules(_Doc):
    """A faction's army rules and its detachments' records."""

    faction: str
    army_rules: list[RuleChoice]
    detachments: list[DetachmentRules]


def _library(request: Request) -> Library:
    getter: Callable[[], Library] = request.app.state.library
    return getter()


def faction_units(lib: Library) -> list[FactionUnits]:
    """Every faction keyword with its units, both sorted by name."""
    groups: dict[str, set[str]] = {}
    for sheet in lib.datasheets():
        for f in sheet.faction_keywords:
            groups.setdefault(f, set()).add(sheet.name)
    return [FactionUnits(faction=f, units=sorted(groups[f])) for f in sorted(groups)]


def _choice(entry: Any) -> RuleChoice:
    e = entry.effect
    what = e.terms if entry.status == "modelled" else entry.reason
    return RuleChoice(name=entry.record.name, kind=e.kind, cp=e.cp, status=entry.status,
                      reason=what, parameter=e.parameter)


def faction_rules(faction: str) -> FactionRules | None:
    """The dataset's records for ``faction``; ``None`` when it has none (or no dataset)."""
    from ..effects import dataset_effects

    data = dataset_effects()
    entries = [] if data is None else data.listing(faction=faction)
    if not entries:
        return None
    army: dict[str, RuleChoice] = {}
    detachments: dict[str, dict[str, RuleChoice]] = {}
    for entry in entries:
        where = getattr(entry.record, "detachment", None)
        box = army if not where else detachments.setdefault(str(where), {})
        box.setdefault(entry.record.name, _choice(entry))
    order = {"detachment rule": 0, "stratagem": 1, "enhancement": 2}
    return FactionRules(
        faction=faction, army_rules=list(army.values()),
        detachments=[DetachmentRules(name=d, rules=sorted(
            rules.values(), key=lambda r: (order.get(r.kind, 3), r.name)))
            for d, rules in sorted(detachments.items())])


@router.get("/factions", response_model=list[FactionUnits],
            summary="The factions and their units (a faction-first unit browser)")
def factions(request: Request) -> list[FactionUnits]:
    return faction_units(_library(request))


@router.get("/factions/{name}/rules", response_model=FactionRules,
            summary="A faction's army rules, detachments, stratagems and enhancements")
def rules_of(request: Request, name: Annotated[str, Path(max_length=200)]) -> Any:
    """Every record of the faction in the dataset, grouped by detachment, each with its
    status in the calculator. ``name`` is a faction keyword (ADEPTUS ASTARTES)."""
    found = faction_rules(name)
    if found is None:
        known = [f.faction for f in faction_units(_library(request))]
        if any(name_key(k) == name_key(name) for k in known):  # a faction without records
            return FactionRules(faction=name, army_rules=[], detachments=[])
        return JSONResponse({"detail": [{
            "loc": ["path", "name"], "type": "unknown_name",
            "msg": f"no rules of a faction named {name!r} in the dataset",
            "suggestions": list(suggest(name, known))}]}, status_code=404)
    return found
