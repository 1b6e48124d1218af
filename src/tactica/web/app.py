"""The web application: ``create_app()`` builds the FastAPI app that ``tactica serve`` runs.

The JSON API lives under ``/api`` (``tactica.web.api``), the pages at ``/``, ``/turn``,
``/units``, ``/rules``, ``/list``, ``/plan``, ``/meta``, ``/docs`` and ``/about``
(``tactica.web.pages``, ``plan``, ``meta``), the scripts and styles under ``/static``; the
web app manifest, the service worker, the offline page and ``/healthz`` come from
``tactica.web.app_shell``. Everything is served by the app itself (no CDN), so it works
without the internet.

Limits (the issue's "sane sizes"): a request body over ``MAX_BODY`` bytes is refused with
a 422 naming the body before it is read; the scenario contract refuses more than 100
weapon lines, 200 models or 10 dice with the field named; a calculation that runs past
``calc_timeout`` seconds is stopped (``tactica.web.compute``). Header count and size,
Content-Length with chunked, a slow body and the Host allow-list are checked in front of
the app (``tactica.web.guard``), slow and greedy connections by the server's protocol
(``tactica.web.connections``, as ``tactica serve`` runs it); a lone surrogate or JSON
nested too deeply is a 422, never a 500. User text is only ever parsed (JSON, pydantic,
the list parsers), never evaluated.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import Depends, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic_core import PydanticSerializationError
from starlette.concurrency import run_in_threadpool
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..service import (
    Library,
    __version__,
    error_words,
    field_parts,
    load_library,
    needs_extra,
)
from . import api, app_shell, factions, heap, pages, pickers
from . import meta as meta_page
from . import plan as plan_page
from .compute import CalcPool
from .guard import RequestGuard
from .lists import library_recipe

__all__ = ["MAX_BODY", "BodyLimit", "SecurityHeaders", "create_app"]

#: The largest request body accepted (256 KB).
MAX_BODY = 256 * 1024

#: Pages load scripts, styles and data from the app only.
CSP = ("default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
       "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")


def _too_large(size: int | None, limit: int) -> bytes:
    said = f"{size} bytes" if size is not None else "over the limit"
    msg = f"the request body is {said}; at most {limit} bytes ({limit // 1024} KB)"
    return json.dumps({"detail": [{"loc": ["body"], "msg": msg, "type": "too_large"}]}).encode()


def _too_large_page(size: int | None, limit: int, path: str) -> bytes:
    """The page refusing a form too large to read: one line, and the way back."""
    from html import escape

    said = f"{size:,} bytes" if size is not None else "over the limit"
    return (f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Refused · '
            f'tactica</title><link rel="stylesheet" href="/static/style.css"></head><body>'
            f'<main><p class="status" data-kind="error" role="alert">the form is {said}; '
            f'at most {limit // 1024} KB (a list is 64 KB at most)</p><p><a href="'
            f'{escape(path, quote=True)}">Back</a></p></main></body></html>').encode()


class BodyLimit:
    """Refuse request bodies over ``limit`` bytes with a 422 naming the body. A declared
    ``Content-Length`` is checked before anything is read; a body without one is read up
    to the limit and refused as soon as it passes it."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def _refuse(self, scope: Scope, send: Send, size: int | None) -> None:
        """The refusal: JSON for the API, a page for a page's form (``/plan``: a
        browser shows it, where it would show the JSON as text)."""
        body, kind = _too_large(size, self.limit), b"application/json"
        path = str(scope.get("path", ""))
        if not path.startswith("/api"):
            body, kind = _too_large_page(size, self.limit, path), b"text/html; charset=utf-8"
        await send({"type": "http.response.start", "status": 422,
                    "headers": [(b"content-type", kind),
                                (b"content-length", str(len(body)).encode()),
                                (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": body})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None:
            size = int(declared) if declared.isdigit() else self.limit + 1
            if size > self.limit:
                await self._refuse(scope, send, size)
                return
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        total = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            total += len(chunk)
            if total > self.limit:
                await self._refuse(scope, send, None)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": b"".join(chunks), "more_body": False}

        await self.app(scope, replay, send)


class SecurityHeaders:
    """A content security policy that allows the app's own files only, and no sniffing."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += [(b"content-security-policy", CSP.encode()),
                            (b"x-content-type-options", b"nosniff"),
                            (b"referrer-policy", b"no-referrer")]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, with_headers)


async def _validation_error(request: Request, exc: Exception) -> JSONResponse:
    """Pydantic's refusals without the echoed input (a 1,000-line scenario is not sent
    back): each names the field (``loc``) and says what is wrong."""
    assert isinstance(exc, RequestValidationError)
    detail: list[dict[str, Any]] = []
    errors = exc.errors()
    failed = [tuple(e.get("loc", ())) for e in errors]
    for error in errors:
        loc = tuple(error.get("loc", ()))
        if error.get("type") == "too_short" and any(
                f[: len(loc)] == loc and len(f) > len(loc) for f in failed):
            continue  # a list whose items were refused: those refusals say it
        detail.append({"loc": field_parts(error.get("loc", ())), "msg": error_words(error),
                       "type": error.get("type", "value_error")})
    return JSONResponse({"detail": detail}, status_code=422)


async def _unreadable(request: Request, exc: Exception) -> JSONResponse:
    """Input that passes the schema but cannot be handled as text or data: a lone
    surrogate ("\\ud800") in a string, JSON nested too deeply. A 422, not a 500."""
    if isinstance(exc, RecursionError):
        msg, kind = "the JSON is nested too deeply", "too_deep"
    else:
        msg, kind = ("a string holds a lone surrogate (such as \\ud800): not valid Unicode "
                     "text", "unicode")
    return JSONResponse({"detail": [{"loc": ["body"], "msg": msg, "type": kind}]},
                        status_code=422)


def _meta_folder(meta: str | Path | None) -> Path | None:
    """The meta table's folder; the /meta page reads it with the meta extra's DuckDB,
    pyarrow and pandas (refused at start when they are missing)."""
    if meta is None:
        return None
    with needs_extra("meta", "tactica serve --meta", ("duckdb", "pyarrow", "pandas")):
        return Path(meta)


def create_app(
    *,
    library: Callable[[], Library] | None = None,
    workers: int = 2,
    calc_timeout: float = 4.0,
    calc_wait: float = 2.0,
    max_body: int = MAX_BODY,
    allowed_hosts: Sequence[str] | None = None,
    body_timeout: float = 10.0,
    meta: str | Path | None = None,
    calc_pool: CalcPool | None = None,
) -> FastAPI:
    """The tactica web app.

    ``library`` returns the unit library (default: ``load_library``, i.e. the sources
    the command line configured); ``workers`` calculation processes each stop a
    calculation after ``calc_timeout`` seconds; a request waits at most ``calc_wait``
    seconds for a free one. ``allowed_hosts`` are the Host names served (starlette's
    ``TrustedHostMiddleware``; ``None``: any, for use inside a program; ``tactica
    serve`` passes localhost); ``body_timeout`` bounds the wait for the whole body, from
    the app's first read (``tactica.web.guard``: a 408 past it). ``meta``: the folder of
    a meta table (``tactica meta``) the ``/meta`` page shows. ``calc_pool``: a pool the
    caller owns, to share one set of workers between several apps in one process (the
    tests do); ``workers``, ``calc_timeout`` and ``calc_wait`` are then the pool's own,
    and the app does not close it.

    >>> app = create_app()
    >>> sorted(p for p in app.openapi()["paths"] if p.startswith("/api/units/{name}/"))
    ['/api/units/{name}/attacker', '/api/units/{name}/leaders', '/api/units/{name}/wargear']
    """
    owned = calc_pool is None
    pool = (CalcPool(workers=workers, timeout=calc_timeout, wait=calc_wait,
                     library=library_recipe(library or load_library))
            if calc_pool is None else calc_pool)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # the server accepts connections once the workers and the library are loaded,
        # so that no request's bound includes a start-up
        await asyncio.gather(pool.started(), run_in_threadpool(app.state.library))
        if getattr(app.state, "freeze_heap", False):  # tactica.web.serve.run: our process
            heap.freeze_loaded()
        yield
        if owned:
            pool.close()

    app = FastAPI(
        title="tactica",
        version=__version__,
        summary="Exact Warhammer 40,000 combat odds, datasheets and army lists.",
        description="The scenario and result documents are those of `tactica schema "
        "scenario|result`. Refusals are 422s whose `detail` names the field (`loc`).",
        docs_url=None,
        redoc_url=None,
        openapi_url="/openapi.json",
        # one schema per model: a DiceExpr reads and writes the same text ("D6+1")
        separate_input_output_schemas=False,
        lifespan=lifespan,
    )
    app.state.calc_pool = pool
    app.state.library = library or load_library
    # the configured sources' rules are looked up in the index on disk, as by the CLI
    app.state.rules_from_index = library is None
    app.state.meta_folder = _meta_folder(meta)
    app.add_exception_handler(RequestValidationError, _validation_error)
    for error in (UnicodeError, PydanticSerializationError, RecursionError):
        app.add_exception_handler(error, _unreadable)
    app.add_middleware(BodyLimit, limit=max_body)
    app.add_middleware(SecurityHeaders)
    if allowed_hosts is not None:
        app.add_middleware(app_shell.HostCheck, allowed_hosts=list(allowed_hosts))
    app.add_middleware(RequestGuard, body_timeout=body_timeout)
    _routes(app)
    return app


async def _known_query(request: Request) -> None:
    """Refuse a query parameter the API route does not take, as a body's unknown field is
    refused (``/api/units?faction=Orks`` answered every unit, the filter ignored): a 422
    naming it and the parameters the route takes."""
    known: list[str] = []
    pending = [getattr(request.scope.get("route"), "dependant", None)]
    while pending:  # the route's parameters and those of its dependencies
        dependant = pending.pop()
        if dependant is not None:
            known += [p.alias for p in dependant.query_params]
            pending += dependant.dependencies
    for key in request.query_params:
        if key not in known:
            takes = f"it takes {', '.join(known)}" if known else "it takes none"
            raise RequestValidationError([{
                "loc": ("query", key), "type": "unknown_parameter",
                "msg": f"unknown parameter (check its spelling); {takes}"}])


def _routes(app: FastAPI) -> None:
    """The API under /api (a query parameter a route does not take refused), the pages,
    the static files."""
    for router in (api.router, pickers.router, factions.router):
        app.include_router(router, prefix="/api", tags=["api"],
                           dependencies=[Depends(_known_query)])
    for router in (pages.router, plan_page.router, meta_page.router, app_shell.router):
        app.include_router(router, include_in_schema=False)
    app.mount("/static", StaticFiles(packages=[("tactica.web", "static")]), name="static")
    pages.install(app)
