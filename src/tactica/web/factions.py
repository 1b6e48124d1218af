"""Factions for the calculator page: a faction-first unit browser (``/api/factions``) and
a faction's rules from the dataset (``/api/factions/{name}/rules``): its army rules and,
detachment by detachment, the detachment rule, stratagems and enhancements, each with its
status in the calculator (modelled, non-combat, not modelled and why).

Factions are named as players name them ("Space Marines"), the faction keyword beside
("ADEPTUS ASTARTES"): ``tactica.loaders.wh40kdc_factions.player_faction``, which the
other doors use too. Thin like the rest of the API: the units come from the library, the
rules and their statuses from ``tactica.effects.dataset_effects`` (what ``tactica rule``
reports).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Path, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from ..service import Library, name_key, player_faction, suggest

__all__ = ["FactionRules", "FactionUnits", "RuleChoice", "router"]

router = APIRouter()


class _Doc(BaseModel):
    model_config = ConfigDict(frozen=True)


class FactionUnits(_Doc):
    """One faction keyword and the library's units that carry it."""

    faction: str = Field(description="the faction keyword (ADEPTUS ASTARTES)")
    name: str = Field(description="the faction as players name it (Space Marines)")
    part_of: str | None = Field(None, description="the players' name of the faction it "
                                "belongs to (Space Marines for Blood Angels)")
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
    name: str = Field(description="the faction as players name it")
    army_rules: list[RuleChoice]
    detachments: list[DetachmentRules]


def _library(request: Request) -> Library:
    getter: Callable[[], Library] = request.app.state.library
    return getter()


def faction_units(lib: Library) -> list[FactionUnits]:
    """Every faction keyword with its units, sorted by the players' name of the faction,
    each faction followed by those that belong to it (Space Marines, then Black
    Templars, Blood Angels...); the units sorted by name."""
    groups: dict[str, set[str]] = {}
    for sheet in lib.datasheets():
        for f in sheet.faction_keywords:
            groups.setdefault(f, set()).add(sheet.name)
    found = [FactionUnits(faction=f, name=(p := player_faction(f)).name, part_of=p.part_of,
                          units=sorted(groups[f])) for f in groups]
    names = {f.name for f in found}

    def order(f: FactionUnits) -> tuple[str, int, str]:
        top = f.part_of if f.part_of in names else f.name
        return (str(top).casefold(), f.name != top, f.name.casefold())

    return sorted(found, key=order)


def _choice(entry: Any) -> RuleChoice:
    e = entry.effect
    what = e.terms if entry.status == "modelled" else entry.reason
    return RuleChoice(name=entry.record.name, kind=e.kind, cp=e.cp, status=entry.status,
                      reason=what, parameter=e.parameter)


def faction_rules(faction: str) -> FactionRules | None:
    """The dataset's records for ``faction`` (a faction keyword, the dataset's name or
    the players' name: ASURYANI, Aeldari); ``None`` when it has none (or no dataset)."""
    from ..service import dataset_effects

    data = dataset_effects()
    named = player_faction(faction)
    entries = [] if data is None else data.listing(faction=named.dataset or faction)
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
        faction=named.keyword, name=named.name, army_rules=list(army.values()),
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
    status in the calculator. ``name`` is a faction keyword (ADEPTUS ASTARTES) or the
    faction's name (Space Marines)."""
    found = faction_rules(name)
    if found is None:
        listed = faction_units(_library(request))
        known = [f.faction for f in listed]
        if any(name_key(k) == name_key(name) for f in listed for k in (f.faction, f.name)):
            named = player_faction(name)  # a faction without records
            return FactionRules(faction=named.keyword, name=named.name, army_rules=[],
                                detachments=[])
        return JSONResponse({"detail": [{
            "loc": ["path", "name"], "type": "unknown_name",
            "msg": f"no rules of a faction named {name!r} in the dataset",
            "suggestions": list(suggest(name, known))}]}, status_code=404)
    return found
