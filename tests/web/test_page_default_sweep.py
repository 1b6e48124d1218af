"""The page's default request equals the calculator's own resolution, for every unit and
phase (issue 25: the page's default attack was not the calculator's for 99 of 1,976).

At the request level, without a browser: the page's defaults all come from the API. When
a unit is picked, ``calc.js`` (``loadAttacker``) asks ``/api/units/{name}/attacker`` for
the phase, rules and target, puts its ``models`` in the model count, leaves every wargear
and profile control on "as the datasheet" and no leader ticked, and sends the unit
reference ``attackerRef()`` builds from them: ``{"unit", "models", "wargear": [],
"led_by": [], "profiles": []}``. That request, prepared by the core
(``tactica.calculator.prepare``: the same fielding and profile choice as every door),
must be the very scenario the bare reference ``{"unit": NAME}`` gives, so the page shows
the calculator's numbers. The browser suite checks that the page sends what ``attackerRef``
says (``test_e2e_table.py``); the seed library runs in the default suite, every unit of
the bundled dataset in the slow one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from tactica.calculator import prepare
from tactica.index import Library
from tactica.library import load_library, load_seed_library
from tactica.web import create_app

TARGET = "meq"


def _page_request(choice: dict[str, Any], rules: str, phase: str) -> dict[str, Any]:
    """What ``calc.js`` sends after a unit is picked and nothing else touched."""
    return {"rules": rules, "phase": phase,
            "attacker": {"unit": choice["unit"], "models": choice["models"], "wargear": [],
                         "led_by": [], "profiles": []},
            "target": {"unit": TARGET}}


def _prepared(doc: dict[str, Any], lib: Library) -> tuple[Any, Any] | str:
    """The prepared scenario and what the units resolved into, or the refusal's text."""
    try:
        scenario, resolved, _ = prepare(doc, lib)
    except (ValueError, LookupError) as exc:
        return str(exc)
    return scenario, resolved


def _sweep(client: TestClient, lib: Library, names: list[str]) -> int:
    compared = 0
    for name in names:
        for phase in ("shooting", "fight"):
            response = client.get(f"/api/units/{name}/attacker",
                                        params={"phase": phase, "rules": "11th",
                                                "target": TARGET})
            if response.status_code != 200:  # refused: the page says why, sends nothing
                continue
            choice = response.json()
            if not choice["weapons"]:  # nothing to fire: the page offers the other phase
                continue
            rules = choice["rules"]
            page_side = _prepared(_page_request(choice, rules, phase), lib)
            own_side = _prepared({"rules": rules, "phase": phase, "attacker": {"unit": name},
                                  "target": {"unit": TARGET}}, lib)
            if isinstance(own_side, str) or isinstance(page_side, str):
                # refused (e.g. only wargear weapons for this phase, none in the default
                # loadout): refused alike, with the same reason
                assert page_side == own_side, f"{name} ({phase})"
                continue
            page, page_resolved = page_side
            own, own_resolved = own_side
            assert page == own, f"{name} ({phase}): the page's request fires otherwise"
            assert page_resolved is not None and own_resolved is not None
            # the same units; the page names the model count the bare reference defaults
            assert page_resolved.model_copy(update={"defaults": ()}) == \
                own_resolved.model_copy(update={"defaults": ()}), name
            assert set(page_resolved.defaults) <= set(own_resolved.defaults), name
            compared += 1
    return compared


def _client(library: Callable[[], Library]) -> Iterator[TestClient]:
    """A synchronous client (its own event loop on a portal thread), so the sweep runs
    alike beside the browser suite, whose Playwright session keeps a loop running in the
    test thread."""
    app: FastAPI = create_app(library=library, calc_timeout=600.0)
    try:
        yield TestClient(app, base_url="http://tactica.test")
    finally:
        app.state.calc_pool.close()


def test_every_seed_unit_s_page_default_is_the_calculator_s() -> None:
    lib = load_seed_library()
    for client in _client(load_seed_library):
        assert _sweep(client, lib, list(lib.names())) >= 5


@pytest.mark.slow
def test_every_library_unit_s_page_default_is_the_calculator_s() -> None:
    lib = load_library()
    for client in _client(load_library):
        assert _sweep(client, lib, list(lib.names())) > 1500
