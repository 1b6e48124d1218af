"""Army lists over the web: ``POST /api/list/validate`` reads a pasted or uploaded list
with ``tactica.army`` (``parse_roster``, then ``validate``: the prices and every
violation) and answers with one document, ``ListReport``.

``tactica.army`` is imported when a list arrives; an installation without it answers 503
"army lists not available" rather than failing to start.
"""

from __future__ import annotations

import asyncio
import importlib
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any
from urllib.parse import quote

from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from ..library import Library

__all__ = ["LIST_TIMEOUT", "ListReport", "ListRequest", "ListUnit", "ListViolation",
           "report", "validate"]

#: Seconds a list may take to read and check.
LIST_TIMEOUT = 5.0

#: List checks run on their own two threads, so that lists never take every thread of
#: the server; with the size bounds (256 KB, ``tactica.army.formats.MAX_LINES`` lines,
#: 500 units) one check takes well under a second, and a request that waits past
#: ``LIST_TIMEOUT`` is refused.
_CHECKERS = ThreadPoolExecutor(max_workers=2, thread_name_prefix="tactica-list")

UNAVAILABLE = "army lists not available"


class ListRequest(BaseModel):
    """A list's text (an upload is sent as its text) and, optionally, its format."""

    model_config = ConfigDict(extra="forbid")

    text: str = Field(min_length=1, max_length=256 * 1024,
                      description="the list as exported by the app, New Recruit, List Forge")
    format: str | None = Field(default=None, max_length=40,
                               description="gw-text, newrecruit-json, newrecruit-text, wtc, "
                                           "listforge-text, listforge-json, tactica-json; "
                                           "detected when omitted")
    file: str | None = Field(default=None, max_length=200,
                             description="the uploaded file's name, for messages")


class ListEnhancement(BaseModel):
    name: str
    points: int
    source: str
    known: bool


class ListUnit(BaseModel):
    """One line of the priced breakdown."""

    unit_id: str
    name: str
    datasheet: str | None
    page: str | None = Field(description="the datasheet's web page, when the library has it")
    models: int
    base: int | None
    enhancements: list[ListEnhancement]
    total: int
    stated: int | None
    notes: list[str]


class ListViolation(BaseModel):
    code: str
    severity: str
    unit_id: str | None
    unit: str | None
    message: str
    rule: str


class ListReport(BaseModel):
    """The list as read, priced, and every rule it breaks (``legal`` when no error)."""

    format: str
    name: str
    faction: str | None
    detachments: list[str]
    battle_size: str | None
    rules: str
    limit: int | None
    declared: int | None
    total: int
    legal: bool
    units: list[ListUnit]
    violations: list[ListViolation]
    detachment_points: int | None
    detachment_budget: int | None
    notes: list[str]


def _army() -> Any | None:
    try:
        army = importlib.import_module("tactica.army")
    except ImportError:
        return None
    needed = ("parse_roster", "validate", "detect_format", "IMPORT_FORMATS")
    return army if all(hasattr(army, n) for n in needed) else None


def report(roster: Any, checked: Any, fmt: str) -> ListReport:
    """The web document for a parsed roster and its ``ValidationReport``."""
    units = []
    for line in checked.prices.units:
        page = (f"/units/{quote(line.datasheet, safe='')}?rules={roster.rules}"
                if line.datasheet else None)
        units.append(ListUnit(
            unit_id=line.unit_id, name=line.name, datasheet=line.datasheet, page=page,
            models=line.models, base=line.base,
            enhancements=[ListEnhancement(name=e.name, points=e.points, source=e.source,
                                          known=e.known) for e in line.enhancements],
            total=line.total, stated=line.stated, notes=list(line.notes)))
    violations = [ListViolation(code=v.code, severity=v.severity, unit_id=v.unit_id,
                                unit=v.unit, message=v.message, rule=v.rule)
                  for v in checked.violations]
    return ListReport(
        format=fmt, name=roster.name, faction=roster.faction,
        detachments=list(roster.detachments), battle_size=roster.size, rules=roster.rules,
        limit=roster.limit, declared=roster.declared_points, total=checked.prices.total,
        legal=checked.legal, units=units, violations=violations,
        detachment_points=checked.detachment_points,
        detachment_budget=checked.detachment_budget, notes=list(roster.notes))


def _refusal(field: str, msg: str, kind: str) -> JSONResponse:
    return JSONResponse({"detail": [{"loc": ["body", field], "msg": msg, "type": kind}]},
                        status_code=422)


def _check(army: Any, body: ListRequest, library: Library) -> ListReport | JSONResponse:
    if body.format is not None and body.format not in army.IMPORT_FORMATS:
        return _refusal("format", f"unknown format {body.format!r}; known: "
                        f"{', '.join(army.IMPORT_FORMATS)}", "unknown_format")
    try:
        fmt = body.format or army.detect_format(body.text)
        roster = army.parse_roster(body.text, fmt, file=body.file, library=library)
    except ValueError as exc:  # RosterParseError (with the line), UnsupportedFormatError
        line = getattr(exc, "line", None)
        msg = str(exc) if line is None else f"line {line}: {getattr(exc, 'reason', exc)}"
        return _refusal("text", msg, "list_error")
    return report(roster, army.validate(roster, library), fmt)


async def validate(body: ListRequest, library: Callable[[], Library]) -> ListReport | JSONResponse:
    """Read, price and check a list; 503 when ``tactica.army`` is not installed."""
    army = _army()
    if army is None:
        return JSONResponse({"detail": UNAVAILABLE}, status_code=503)
    lib = library()
    work = asyncio.get_running_loop().run_in_executor(_CHECKERS,
                                                      partial(_check, army, body, lib))
    try:
        return await asyncio.wait_for(work, LIST_TIMEOUT)
    except TimeoutError:
        return _refusal("text", f"the list took more than {LIST_TIMEOUT:g} s to check",
                        "too_slow")
