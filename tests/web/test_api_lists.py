"""List checks in the calculation workers (``tactica.web.lists``, ``tactica.web.compute``):
an app over a library a worker can build (the seed pages, the configured sources) checks
lists there; any other library is checked on the server's own threads. Both must give the
same answer, and a worker's check is bounded like a calculation.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

import tactica.web.lists as web_lists
from tactica.army import parse_roster, validate
from tactica.library import load_library, load_seed_library, use_sources
from tactica.source_choice import configured_sources, skip_bad_files
from tactica.web import create_app
from tactica.web.compute import CalcPool

PATIENT = 600.0  # as tests/web/conftest.py: the tests never race the clock

pytestmark = pytest.mark.anyio

FIXTURE = Path(__file__).resolve().parents[1] / "army" / "fixtures" / "host_of_ascension.txt"


async def _client(library: Any, pool: CalcPool) -> AsyncIterator[httpx.AsyncClient]:
    app = create_app(library=library, calc_pool=pool)
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app),
                                 base_url="http://t") as client:
        yield client


@pytest.fixture
async def in_worker(calc_pool: CalcPool) -> AsyncIterator[httpx.AsyncClient]:
    """An app over the seed library: lists go to the worker."""
    async for client in _client(load_seed_library, calc_pool):
        yield client


@pytest.fixture
async def in_server(calc_pool: CalcPool) -> AsyncIterator[httpx.AsyncClient]:
    """An app over a library only this process has (a function of the test's): lists
    are checked on the server's threads."""
    async for client in _client(lambda: load_seed_library(), calc_pool):
        yield client


def test_a_worker_builds_the_library_the_app_names() -> None:
    assert web_lists.library_recipe(lambda: load_seed_library()) is None
    seed = web_lists.library_recipe(load_seed_library)
    assert seed is not None
    assert web_lists.recipe_library(seed) is load_seed_library()
    before = configured_sources(), skip_bad_files()
    try:
        use_sources(["/some/catalogues"], dataset=True, skip_bad=True)
        recipe = web_lists.library_recipe(load_library)
        assert recipe is not None
        assert json.loads(recipe) == {"paths": ["/some/catalogues"], "dataset": True,
                                      "skip_bad": True}
        use_sources((), dataset=False)  # load_library() is then the seed library
        assert web_lists.library_recipe(load_library) == seed
    finally:
        use_sources(before[0][0], dataset=before[0][1], skip_bad=before[1])


@pytest.mark.parametrize("text", ["cult ambush", "fixture", "garbage", "separators"])
async def test_a_list_checked_in_a_worker_is_answered_as_in_the_server(
        in_worker: httpx.AsyncClient, in_server: httpx.AsyncClient, army_list: str,
        text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    body = {"cult ambush": army_list, "fixture": FIXTURE.read_text(encoding="utf-8"),
            "garbage": "print('hello')",
            # line and paragraph separators a list may hold: one request line to the worker
            "separators": army_list.replace("Cult Ambush", "Cult\u2028Amb\x85ush\r")
                                   .replace("Primus", "Pri\u2029mus")}[text]
    served = await in_server.post("/api/list/validate", json={"text": body})

    def not_here(*args: Any) -> Any:
        raise AssertionError("a worker's list was checked in the server")

    monkeypatch.setattr(web_lists, "check", not_here)
    worked = await in_worker.post("/api/list/validate", json={"text": body})
    assert worked.status_code == served.status_code
    assert worked.json() == served.json()
    if text in ("cult ambush", "fixture"):  # and both are the library's own check
        lib = load_seed_library()
        assert worked.json()["total"] == validate(parse_roster(body, library=lib),
                                                  lib).prices.total


async def test_a_list_past_its_timeout_is_refused_and_its_worker_replaced(
        in_worker: httpx.AsyncClient, army_list: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """No list of 200 units is read in a microsecond (the worker takes a tenth of a
    second, and the server cannot miss the bound by as much): the check is stopped (its
    worker with it) and refused; the replacement, given all the time it needs to load,
    answers the next."""
    battleline = army_list.split("BATTLELINE\n")[1].split("DEDICATED")[0]
    long_list = army_list + "\nBATTLELINE\n" + battleline * 200
    monkeypatch.setattr(web_lists, "LIST_TIMEOUT", 1e-6)
    slow = await in_worker.post("/api/list/validate", json={"text": long_list})
    assert slow.status_code == 422
    assert slow.json()["detail"][0]["type"] == "too_slow"
    monkeypatch.setattr(web_lists, "LIST_TIMEOUT", PATIENT)
    again = await in_worker.post("/api/list/validate", json={"text": army_list})
    lib = load_seed_library()
    assert again.status_code == 200
    assert again.json()["total"] == validate(parse_roster(army_list, library=lib),
                                             lib).prices.total
