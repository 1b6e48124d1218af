"""The ``/plan`` page in-process (httpx's ASGI transport): two lists posted, the matrix as
coloured tables and the plan, a share link that renders the same page, refusals shown."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from html import unescape

import httpx
import pytest
from fastapi import FastAPI

from tactica.library import load_library
from tactica.web import create_app
from tactica.web import plan as plan_web
from tactica.web.compute import CalcPool

from .helpers import ROSTERS

pytest.importorskip("wh40kdc")

MINE = "Intercessor Squad:10, Intercessor Squad:10"
ENEMY = "Gretchin:10, Boyz:10"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
def app(calc_pool: CalcPool) -> FastAPI:
    """The app over the bundled library, on the run's shared calculation worker."""
    return create_app(library=load_library, calc_pool=calc_pool)


@pytest.fixture
async def client(app: FastAPI, monkeypatch: pytest.MonkeyPatch
                 ) -> AsyncIterator[httpx.AsyncClient]:
    monkeypatch.setattr(plan_web, "PLAN_TIMEOUT", 600.0)  # a loaded machine is not refused
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://tactica.test") as c:
        yield c


@pytest.mark.anyio
async def test_the_empty_page(client: httpx.AsyncClient) -> None:
    res = await client.get("/plan")
    assert res.status_code == 200
    assert 'action="/plan"' in res.text and "Army against army" in res.text


@pytest.mark.anyio
async def test_two_lists_give_the_matrix_the_plan_and_a_share_link(
        client: httpx.AsyncClient) -> None:
    res = await client.post("/plan", data={"mine": MINE, "enemy": ENEMY, "value": "points",
                                           "charge": ""})
    assert res.status_code == 200, res.text
    page = res.text
    assert "The shooting plan:" in page and "The naive plan" in page
    assert page.count('class="table heat') == 4  # 2 sides x 2 phases
    assert re.search(r'class="heat-\d"', page)
    link = unescape(re.search(r'id="share-link" href="([^"]+)"', page).group(1))  # type: ignore[union-attr]
    again = await client.get(link)
    assert again.status_code == 200
    # the same plan from the link
    plan = re.search(r"The shooting plan: ([\d.]+) points", page).group(1)  # type: ignore[union-attr]
    assert f"The shooting plan: {plan} points" in again.text


@pytest.mark.anyio
async def test_a_real_list_against_unit_names(client: httpx.AsyncClient) -> None:
    text = (ROSTERS / "official_10.txt").read_text(encoding="utf-8")
    res = await client.post("/plan", data={"mine": text, "enemy": ENEMY, "value": "per100"})
    assert res.status_code == 200, res.text
    assert "War Dog Brigand #1" in res.text


@pytest.mark.anyio
async def test_lists_uploaded_as_files(client: httpx.AsyncClient) -> None:
    """A file replaces the pasted text of its side."""
    orks = (ROSTERS / "official_16.txt").read_bytes()
    res = await client.post("/plan", data={"mine": MINE, "enemy": "", "value": "points"},
                            files={"enemy_file": ("orks.txt", orks, "text/plain")})
    assert res.status_code == 200, res.text
    assert "Ghazghkull Thraka" in res.text and "The shooting plan:" in res.text


@pytest.mark.anyio
@pytest.mark.parametrize("data,needle", [
    ({"mine": MINE, "enemy": ""}, "enemy list: paste a list"),
    ({"mine": MINE, "enemy": "Gretchn:10"}, "did you mean"),
    ({"mine": MINE, "enemy": ENEMY, "charge": "99"}, "charge: a distance"),
])
async def test_refusals_are_shown(client: httpx.AsyncClient, data: dict[str, str],
                                  needle: str) -> None:
    res = await client.post("/plan", data=data)
    assert res.status_code == 422
    assert needle in unescape(res.text)


@pytest.mark.anyio
async def test_a_broken_share_link(client: httpx.AsyncClient) -> None:
    res = await client.get("/plan", params={"s": "not-a-token"})
    assert res.status_code == 200 and "cannot be read" in res.text
