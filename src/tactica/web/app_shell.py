"""The app as a phone keeps it, and as whoever runs it watches it:

* ``/manifest.webmanifest``: the web app manifest (name, start page, colours, icons), so a
  phone can add tactica to its home screen and open it full screen;
* ``/sw.js``: a service worker at the root (its scope is the whole app) that keeps one
  page, ``/offline``, and shows it when a page cannot be loaded because the server is
  unreachable. It keeps nothing else: every page and every number comes from the server
  (a stale result is never shown as current);
* ``/healthz``: 200 with the version and the calculation workers while the server can
  calculate, 503 when no worker is left. It answers whatever the Host header (a load
  balancer or container probe asks by address), and says nothing a page could misuse.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.types import Receive, Scope, Send

from ..service import __version__
from .compute import CalcPool

__all__ = ["HEALTH_PATH", "HostCheck", "manifest", "router"]

router = APIRouter()

HEALTH_PATH = "/healthz"

#: The colours of the page's header and background (``static/style.css``).
THEME = "#1f2a44"
BACKGROUND = "#f4f6fa"


def manifest() -> dict[str, Any]:
    """The web app manifest (W3C Web Application Manifest).

    >>> m = manifest()
    >>> m["start_url"], m["display"], sorted(i["sizes"] for i in m["icons"])
    ('/', 'standalone', ['180x180', '192x192', '512x512', '512x512', 'any'])
    """
    icons = [
        {"src": "/static/icon-192.png", "sizes": "192x192", "type": "image/png",
         "purpose": "any"},
        {"src": "/static/icon-512.png", "sizes": "512x512", "type": "image/png",
         "purpose": "any"},
        {"src": "/static/icon-512.png", "sizes": "512x512", "type": "image/png",
         "purpose": "maskable"},
        {"src": "/static/apple-touch-icon.png", "sizes": "180x180", "type": "image/png",
         "purpose": "any"},
        {"src": "/static/icon.svg", "sizes": "any", "type": "image/svg+xml",
         "purpose": "any"},
    ]
    return {
        "id": "/", "name": "tactica: exact Warhammer 40,000 odds", "short_name": "tactica",
        "description": "Exact combat odds, datasheets and army lists for Warhammer 40,000.",
        "start_url": "/", "scope": "/", "display": "standalone", "orientation": "any",
        "theme_color": THEME, "background_color": BACKGROUND, "lang": "en",
        "categories": ["games", "utilities"], "icons": icons,
    }


@router.get("/manifest.webmanifest", include_in_schema=False)
def web_manifest() -> Response:
    return Response(json.dumps(manifest(), indent=1), media_type="application/manifest+json",
                    headers={"cache-control": "public, max-age=3600"})


@router.get("/sw.js", include_in_schema=False)
def service_worker() -> Response:
    """The service worker's script, its cache named for this version (a new version
    replaces the page it keeps)."""
    text = resources.files("tactica.web").joinpath("static", "sw.js").read_text("utf-8")
    return Response(text.replace("__VERSION__", __version__),
                    media_type="text/javascript",
                    headers={"cache-control": "no-cache", "service-worker-allowed": "/"})


@router.get("/offline", response_class=HTMLResponse, include_in_schema=False)
def offline(request: Request) -> HTMLResponse:
    """The page the service worker shows when the server cannot be reached."""
    from .pages import _page

    return _page(request, "offline.html", title="Server unreachable")


@router.get(HEALTH_PATH, include_in_schema=False)
def health(request: Request) -> JSONResponse:
    """Whether the server can calculate: its version and its calculation workers."""
    pool: CalcPool = request.app.state.calc_pool
    s = pool.status()
    ok = not s.closed and (s.live > 0 or s.starting > 0)
    return JSONResponse(
        {"status": "ok" if ok else "unavailable", "version": __version__,
         "workers": {"configured": s.workers, "running": s.live, "free": s.idle,
                     "queued": s.queued}},
        status_code=200 if ok else 503, headers={"cache-control": "no-store"})


class HostCheck(TrustedHostMiddleware):
    """starlette's Host allow-list, but for ``/healthz`` (asked by address by probes)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope.get("path") == HEALTH_PATH:
            await self.app(scope, receive, send)
            return
        await super().__call__(scope, receive, send)
