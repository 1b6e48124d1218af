"""The app as a phone installs it and as whoever runs it watches it
(``tactica.web.app_shell``): ``/healthz``, the web app manifest and its icons, the service
worker and its offline page. In-process (an ASGI client); the browser suite checks that
Chromium reads the manifest and registers the worker (``test_e2e_fit.py``)."""

from __future__ import annotations

import struct

import httpx
import pytest
from fastapi import FastAPI

from tactica.library import load_seed_library
from tactica.version import __version__
from tactica.web import create_app
from tactica.web.compute import CalcPool

pytestmark = pytest.mark.anyio


async def test_healthz_says_the_server_can_calculate(client: httpx.AsyncClient,
                                                     calc_pool: CalcPool) -> None:
    await calc_pool.started()
    response = await client.get("/healthz")
    assert response.status_code == 200
    doc = response.json()
    assert doc["status"] == "ok" and doc["version"] == __version__
    assert doc["workers"]["configured"] == calc_pool.workers
    assert doc["workers"]["running"] >= 1
    assert response.headers["cache-control"] == "no-store"


async def test_healthz_answers_a_probe_by_address_and_pages_do_not(calc_pool: CalcPool) -> None:
    """A probe asks by the container's address; the Host allow-list still guards the rest."""
    app = create_app(library=load_seed_library, calc_pool=calc_pool, allowed_hosts=["localhost"])
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://10.1.2.3:8000") as c:
        assert (await c.get("/healthz")).status_code == 200
        assert (await c.get("/")).status_code == 400
        assert (await c.get("/healthz/../")).status_code == 400


async def test_healthz_is_503_once_no_worker_is_left(client: httpx.AsyncClient,
                                                     app: FastAPI) -> None:
    class Gone:
        workers = 2

        def status(self) -> object:
            from tactica.web.compute import PoolStatus

            return PoolStatus(workers=2, live=0, idle=0, queued=0, starting=0, closed=False)

    real = app.state.calc_pool
    app.state.calc_pool = Gone()
    try:
        response = await client.get("/healthz")
    finally:
        app.state.calc_pool = real
    assert response.status_code == 503
    assert response.json()["status"] == "unavailable"


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


async def test_the_manifest_is_valid_and_its_icons_are_served_at_their_sizes(
        client: httpx.AsyncClient) -> None:
    response = await client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/manifest+json")
    m = response.json()
    # what a browser needs to offer "add to home screen" (the W3C manifest's members)
    assert m["name"] and m["short_name"] == "tactica"
    assert m["start_url"] == "/" and m["scope"] == "/" and m["display"] == "standalone"
    assert m["theme_color"].startswith("#") and m["background_color"].startswith("#")
    sizes = set()
    for icon in m["icons"]:
        got = await client.get(icon["src"])
        assert got.status_code == 200, icon["src"]
        assert got.headers["content-type"].startswith(icon["type"])
        if icon["type"] == "image/png":
            w, h = png_size(got.content)
            assert f"{w}x{h}" == icon["sizes"]
            sizes.add(icon["sizes"])
    assert {"192x192", "512x512"} <= sizes
    assert any(i["purpose"] == "maskable" for i in m["icons"])
    page = (await client.get("/")).text
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page


async def test_the_service_worker_keeps_the_offline_page_of_this_version(
        client: httpx.AsyncClient) -> None:
    response = await client.get("/sw.js")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/javascript")
    assert response.headers["service-worker-allowed"] == "/"
    text = response.text
    assert f'const VERSION = "{__version__}"' in text and "__VERSION__" not in text
    offline = await client.get("/offline")
    assert offline.status_code == 200
    assert "The server can't be reached" in offline.text
    # what the worker keeps is served, at the address the offline page asks for
    assert f"/static/style.css?v={__version__}" in offline.text
    for kept in ("/static/style.css", "/static/site.js", "/static/icon.svg"):
        assert (await client.get(kept)).status_code == 200
