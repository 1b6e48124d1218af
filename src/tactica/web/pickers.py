"""Look-ups for the calculator's pickers: which library units can lead a unit
(``/api/units/{name}/leaders``), for the "Leader attached" fields of both sides, and a
unit's size range, loadout and wargear options (``/api/units/{name}/wargear``), fielded
by the units core (``tactica.units``) so a broken constraint comes in the core's words.

The datasheets say it the other way round (a leader's Leader list names the units it can
be attached to); the library's leaders are listed once per library, on first use.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from ..service import (
    Datasheet,
    Library,
    Loadout,
    RulesVersion,
    UnknownNameError,
    WargearError,
    WargearOption,
    equipment_text,
    field_unit,
    sizes,
)

__all__ = ["WargearPicker", "leaders_index", "router"]

router = APIRouter()


def _unknown(exc: UnknownNameError) -> JSONResponse:
    """As every look-up of the API answers an unknown name."""
    return JSONResponse({"detail": [{"loc": ["path", "name"], "msg": str(exc),
                                     "type": "unknown_name",
                                     "suggestions": list(exc.suggestions)}]}, status_code=404)


def leaders_index(lib: Library, sheet: Datasheet) -> tuple[str, ...]:
    """The names of the units that can lead ``sheet``, in library order (the library's
    own answer, ``Library.leaders_of``)."""
    return lib.leaders_of(sheet)


@router.get("/units/{name}/leaders", response_model=list[str],
            summary="The units that can lead a unit (Leader)")
def leaders(request: Request,
            name: Annotated[str, Path(description="a unit's name", max_length=200)]) -> Any:
    getter: Callable[[], Library] = request.app.state.library
    lib = getter()
    try:
        sheet = lib.datasheet(name)
    except UnknownNameError as exc:
        return _unknown(exc)
    return list(leaders_index(lib, sheet))


class WargearChoice(BaseModel):
    """One wargear option of a datasheet, as the calculator offers it."""

    text: str = Field(description="the option in the datasheet's words")
    choices: list[str] = Field(description="what a model may take: 'NAME' or 'NAME + NAME'")
    most: int = Field(description="how many models may take it at this unit size")


class WargearPicker(BaseModel):
    """A unit's size range, its loadout as fielded and its wargear options."""

    unit: str
    rules: str
    min_models: int
    max_models: int
    models: int
    loadout: list[str] = Field(description="the models and what they carry")
    defaults: list[str] = Field(description="which parts are the datasheet's defaults")
    options: list[WargearChoice]
    error: str | None = Field(None, description="the broken constraint, in the core's words")


def _fielded(sheet: Datasheet, models: int | None,
             wargear: list[str]) -> tuple[Loadout, str | None]:
    try:
        return field_unit(sheet, models, wargear), None
    except WargearError as exc:
        try:  # the unit as the datasheet fields it, beside the refusal
            return field_unit(sheet, models), str(exc)
        except WargearError:
            return field_unit(sheet), str(exc)


def _option_words(option: WargearOption) -> str:
    offered = " or ".join(" + ".join(c) for c in option.choices)
    who = f"{option.model}: " if option.model else ""
    if not option.replaces:
        return f"{who}may take {offered}"
    return f"{who}{equipment_text(option.replaces)} can be replaced with {offered}"


@router.get("/units/{name}/wargear", response_model=WargearPicker,
            summary="A unit's size range, loadout and wargear options (units as fielded)")
def wargear(
    request: Request,
    name: Annotated[str, Path(description="a unit's name", max_length=200)],
    rules: Annotated[RulesVersion | None, Query()] = None,
    models: Annotated[int | None, Query(ge=1, le=200)] = None,
    choice: Annotated[list[str] | None, Query(
        max_length=40, description="wargear taken, as a unit reference writes it")] = None,
) -> Any:
    getter: Callable[[], Library] = request.app.state.library
    try:
        sheet = getter().datasheet(name, rules)
    except UnknownNameError as exc:
        return _unknown(exc)
    spans = sizes(sheet)
    loadout, error = _fielded(sheet, models, choice or [])
    options = [WargearChoice(text=o.text or _option_words(o),
                             choices=[" + ".join(c) for c in o.choices],
                             most=o.cap(loadout.size, loadout.size))
               for o in sheet.wargear]
    return WargearPicker(
        unit=sheet.name, rules=sheet.rules,
        min_models=spans[0][0], max_models=spans[-1][1], models=loadout.size,
        loadout=[f"{m.count} {m.model}: {equipment_text(m.equipment) or 'nothing'}"
                 for m in loadout.models],
        defaults=list(loadout.defaults), options=options, error=error)
