"""A query parameter an API route does not take is refused (422 naming it and the
parameters the route takes), as an unknown field of a JSON body is: ``GET
/api/units?faction=Orks`` once answered every unit, the filter silently ignored. Checked
route by route against the app's own OpenAPI document (the parameters each route
declares), and the page's own requests still answered."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tactica.library import load_seed_library
from tactica.web import create_app

#: A value each path parameter may take (a seed unit, a faction of the seed library).
PATHS = {"name": "Neophyte Hybrids"}


@pytest.fixture(scope="module")
def web(calc_pool: Any) -> Iterator[TestClient]:
    library = load_seed_library()
    with TestClient(create_app(library=lambda: library, calc_pool=calc_pool)) as client:
        yield client


def _get_routes(web: TestClient) -> list[tuple[str, list[str]]]:
    spec = web.get("/openapi.json").json()
    out = []
    for path, ops in spec["paths"].items():
        if "get" in ops and path.startswith("/api/"):
            params = [p["name"] for p in ops["get"].get("parameters", ())
                      if p["in"] == "query"]
            out.append((path.replace("{name}", PATHS["name"]), params))
    return out


def test_every_api_route_refuses_a_parameter_it_does_not_take(web: TestClient) -> None:
    routes = _get_routes(web)
    assert len(routes) >= 8
    for path, params in routes:
        response = web.get(path, params={"faction": "Orks"} if "faction" not in params
                           else {"colour": "red"})
        assert response.status_code == 422, (path, response.text)
        detail = response.json()["detail"]
        assert len(detail) == 1 and detail[0]["loc"][0] == "query", detail
        assert detail[0]["msg"].startswith("unknown parameter"), detail
        assert all(p in detail[0]["msg"] for p in params), (path, detail)


def test_the_parameters_a_route_takes_are_still_read(web: TestClient) -> None:
    assert web.get("/api/units", params={"rules": "11th"}).status_code == 200
    ok = web.get("/api/units/Neophyte Hybrids/attacker",
                 params={"rules": "11th", "phase": "shooting", "models": 10,
                         "target": "meq"})
    assert ok.status_code == 200, ok.text
    assert ok.json()["models"] == 10
    assert web.get("/api/units/Neophyte Hybrids/wargear",
                   params={"rules": "11th", "models": 10}).status_code == 200
    assert web.get("/api/effects", params={"unit": "Neophyte Hybrids"}).status_code == 200


def test_a_target_the_picker_cannot_field_is_said_not_ignored(web: TestClient) -> None:
    """``target`` names what the default profiles are picked against; one that names no
    unit or standard target (which the calculator itself refuses) was ignored silently."""
    import tactica
    from tactica.library import load_seed_library

    with pytest.raises(ValueError, match="Nope"):
        tactica.calculate({"attacker": {"unit": "Neophyte Hybrids"},
                           "target": {"unit": "Nope"}}, load_seed_library())
    path = "/api/units/Neophyte Hybrids/attacker"
    said = web.get(path, params={"target": "Nope"}).json()["notes"]
    assert said == ["each weapon's profile is not picked against 'Nope': no unit or "
                    "standard target of that name can be fielded"]
    assert web.get(path, params={"target": "meq"}).json()["notes"] == []
