"""The calculator's unit picker over every unit of the library: the attacker look-up in
both phases, the target look-up and the wargear look-up answer each unit the picker
lists, and none with a server error (a unit with no ranged weapons asked for the
Shooting phase once answered 500, which the page showed as "the server did not answer").

The default library (seed pages and the bundled 40kdc-data dataset) is swept always; with
the real data (``TACTICA_REAL_DATA``) the BSData catalogues are swept too.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import quote

import httpx
import pytest

from tactica.library import Library, load_library
from tactica.web import create_app


def sweep(lib: Library) -> Counter[int]:
    """The answers by status (``ask_all``), asked on a thread of its own: the browser
    tests' Playwright keeps an event loop running on this one."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, ask_all(lib)).result()


async def ask_all(lib: Library) -> Counter[int]:
    """Ask the picker's four look-ups of every listed unit; the answers by status."""
    app = create_app(library=lambda: lib)
    seen: Counter[int] = Counter()
    bad: list[str] = []
    try:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
            for name in lib.names():
                unit = quote(name, safe="")
                for url in (f"/api/units/{unit}/attacker?phase=shooting",
                            f"/api/units/{unit}/attacker?phase=fight",
                            f"/api/targets/{unit}", f"/api/units/{unit}/wargear"):
                    response = await client.get(url)
                    seen[response.status_code] += 1
                    if response.status_code >= 500:
                        bad.append(f"{url}: {response.status_code} {response.text[:200]}")
                    elif response.status_code == 200 and url.endswith("/wargear"):
                        w = response.json()  # fielded by the core at its default size
                        assert w["min_models"] <= w["models"] <= w["max_models"], url
                        assert w["loadout"] and w["error"] is None, url
                    elif response.status_code == 200 and "attacker" in url:
                        rows = response.json()["weapons"]
                        if not rows:  # no weapons for the phase: said in the notes
                            assert response.json()["notes"], url
                    elif response.status_code != 200:
                        detail = response.json()["detail"][0]
                        assert detail["loc"] and detail["msg"], url
    finally:
        app.state.calc_pool.close()
    assert bad == []
    return seen


@pytest.mark.slow
def test_every_unit_of_the_default_library_is_answered_without_a_server_error() -> None:
    lib = load_library()
    seen = sweep(lib)
    units = len(list(lib.names()))
    assert units > 1000  # the seed pages and the dataset
    assert sum(seen.values()) == 4 * units
    assert seen[200] > 0.99 * sum(seen.values())


def test_every_unit_with_the_bsdata_catalogues_is_answered_without_a_server_error(
        bsdata: Path) -> None:
    catalogues = sorted(p for p in bsdata.glob("*.json") if p.name != "Warhammer 40,000.json")
    lib = load_library(catalogues, dataset=True)
    seen = sweep(lib)
    assert sum(seen.values()) == 4 * len(list(lib.names()))
