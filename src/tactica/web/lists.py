"""Army lists over the web: ``POST /api/list/validate`` reads a pasted or uploaded list
with ``tactica.army`` (``parse_roster``, then ``validate``: the prices and every
violation) and answers with one document, ``ListReport``.

``tactica.army`` is imported when a list arrives; an installation without it answers 503
"army lists not available" rather than failing to start.

A check costs milliseconds of CPU, so it runs in a calculation worker process
(``tactica.web.compute``), never on the server's interpreter, where it would hold the
lock the event loop needs: the worker builds the same library from ``library_recipe``
(the seed pages, or the configured sources) and answers with ``check_line``. A library
no worker can build (one a program passed to ``create_app``) is checked on the server's
own two list threads (``validate``).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from types import SimpleNamespace
from typing import Any
from urllib.parse import quote

from pydantic import BaseModel, ConfigDict, Field

from ..service import Library, format_names, formats_help

__all__ = ["LIST_TIMEOUT", "ListReport", "ListRequest", "ListUnit", "ListViolation",
           "available", "check", "check_line", "library_recipe", "recipe_library", "report",
           "too_slow", "unavailable", "validate"]

#: Seconds a list may take to read and check.
LIST_TIMEOUT = 5.0

#: List checks over a library no worker can build run on their own two threads, so that
#: lists never take every thread of the server; with the size bounds (256 KB,
#: ``tactica.army.formats.MAX_LINES`` lines, 500 units) one check takes well under a
#: second, and a request that waits past ``LIST_TIMEOUT`` is refused.
_CHECKERS = ThreadPoolExecutor(max_workers=2, thread_name_prefix="tactica-list")

UNAVAILABLE = "army lists not available"


class ListRequest(BaseModel):
    """A list's text (an upload is sent as its text) and, optionally, its format."""

    model_config = ConfigDict(extra="forbid")

    text: str = Field(min_length=1, max_length=256 * 1024,
                      description=f"the list as exported: {format_names()}")
    format: str | None = Field(default=None, max_length=40,
                               description=f"{formats_help()}; detected when omitted")
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
    """The service's list functions (``parse_roster``, ``validate``, ``detect_format``,
    ``IMPORT_FORMATS``), or ``None`` when they cannot be loaded (the page answers 503)."""
    from .. import service

    try:
        return SimpleNamespace(parse_roster=service.parse_roster, validate=service.validate,
                               detect_format=service.detect_format,
                               IMPORT_FORMATS=service.IMPORT_FORMATS)
    except ImportError:
        return None


def available() -> bool:
    """Whether ``tactica.army`` is installed (else lists answer 503)."""
    return _army() is not None


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


def _refusal(field: str, msg: str, kind: str) -> tuple[int, str]:
    return 422, json.dumps({"detail": [{"loc": ["body", field], "msg": msg, "type": kind}]})


def check(army: Any, body: ListRequest, library: Library) -> tuple[int, str]:
    """The answer to a list check: its status and JSON body (200 and a ``ListReport``, or
    422 and the refusal naming the field)."""
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
    return 200, report(roster, army.validate(roster, library), fmt).model_dump_json()


def too_slow() -> tuple[int, str]:
    """The refusal of a list that took more than ``LIST_TIMEOUT`` seconds."""
    return _refusal("text", f"the list took more than {LIST_TIMEOUT:g} s to check",
                    "too_slow")


def unavailable() -> tuple[int, str]:
    """503 when ``tactica.army`` is not installed."""
    return 503, json.dumps({"detail": UNAVAILABLE})


async def validate(body: ListRequest, library: Callable[[], Library]) -> tuple[int, str]:
    """Read, price and check a list on the server's list threads (``check``), for a
    library no worker process can build (``library_recipe``)."""
    army = _army()
    if army is None:
        return unavailable()
    lib = library()
    work = asyncio.get_running_loop().run_in_executor(_CHECKERS,
                                                      partial(check, army, body, lib))
    try:
        return await asyncio.wait_for(work, LIST_TIMEOUT)
    except TimeoutError:
        return too_slow()


# --- in a worker process (``tactica.web.compute``) ---------------------------------------


def library_recipe(library: Callable[[], Library]) -> str | None:
    """How a worker process builds the library ``library`` returns, as one line of JSON:
    the packaged seed library, or ``load_library()``'s configured sources (the seed
    pages, the ``--data`` catalogues, the bundled dataset). ``None`` for any other
    library (one a program built): its lists are checked in the server's threads.

    >>> from tactica.library import load_seed_library
    >>> library_recipe(load_seed_library)
    '{"seed": true}'
    >>> library_recipe(lambda: load_seed_library()) is None
    True
    """
    from ..service import configured_sources, load_library, load_seed_library, skip_bad_files

    if library is load_seed_library:
        return json.dumps({"seed": True})
    if library is load_library:
        paths, dataset = configured_sources()
        if not paths and not dataset:
            return json.dumps({"seed": True})
        return json.dumps({"paths": list(paths), "dataset": dataset,
                           "skip_bad": skip_bad_files()})
    return None


def recipe_library(recipe: str) -> Library:
    """The library a ``library_recipe`` line describes, built (and cached) in this
    process."""
    from ..service import load_library, load_seed_library, use_sources

    spec = json.loads(recipe)
    if spec.get("seed"):
        return load_seed_library()
    use_sources(spec["paths"], dataset=spec["dataset"], skip_bad=spec["skip_bad"])
    return load_library()


def check_line(recipe: str, request_json: str) -> tuple[int, str]:
    """A worker's list check: the request as JSON, over the library of ``recipe``."""
    army = _army()
    if army is None:
        return unavailable()
    body = ListRequest.model_validate_json(request_json)
    return check(army, body, recipe_library(recipe))
