"""Look-ups for the calculator's pickers (``/api/units/{name}/leaders``): which library
units can lead a unit, for the "Leader attached" fields of both sides.

The datasheets say it the other way round (a leader's ``leader_of`` lists the units it can
be attached to); the index is built once per library, on first use.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Annotated, Any

from fastapi import APIRouter, Path, Request
from fastapi.responses import JSONResponse

from ..library import Library
from ..names import UnknownNameError, name_key

__all__ = ["leaders_index", "router"]

router = APIRouter()


@lru_cache(maxsize=4)
def leaders_index(lib: Library) -> dict[str, tuple[str, ...]]:
    """Unit name key -> the names of the units that can lead it, in library order."""
    index: dict[str, dict[str, None]] = {}
    for sheet in lib.datasheets():
        for led in sheet.leader_of:
            index.setdefault(name_key(led), {})[sheet.name] = None
    return {key: tuple(names) for key, names in index.items()}


@router.get("/units/{name}/leaders", response_model=list[str],
            summary="The units that can lead a unit (Leader)")
def leaders(request: Request,
            name: Annotated[str, Path(description="a unit's name", max_length=200)]) -> Any:
    getter: Callable[[], Library] = request.app.state.library
    lib = getter()
    try:
        sheet = lib.datasheet(name)
    except UnknownNameError as exc:  # as every look-up of the API answers it
        return JSONResponse({"detail": [{"loc": ["path", "name"], "msg": str(exc),
                                         "type": "unknown_name",
                                         "suggestions": list(exc.suggestions)}]},
                            status_code=404)
    return list(leaders_index(lib).get(name_key(sheet.name), ()))
