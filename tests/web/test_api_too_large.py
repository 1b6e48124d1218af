"""A scenario the exact engine's size model refuses (``TooLargeError``) reaches the web
API as a 422 naming the field, with the pointer to Monte Carlo; the same document with
``method: monte-carlo`` is computed."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.anyio

_LINE = {"name": "w", "count": 50, "A": "D6", "skill": 3, "S": 6, "AP": -1, "D": "D6",
         "abilities": ["Sustained Hits 2", "Devastating Wounds"]}
#: 10th: both lines' criticals held back until the whole unit has attacked (jointly)
HELD_BACK: dict[str, Any] = {
    "rules": "10th",
    "attacker": {"weapons": [_LINE, {**_LINE, "name": "v", "D": "D3"}]},
    "target": {"models": [{"count": 20, "T": 5, "Sv": 3, "W": 3, "fnp": 5}]},
}


async def test_an_oversize_scenario_is_a_422_naming_the_field_and_monte_carlo(
        client: httpx.AsyncClient) -> None:
    response = await client.post("/api/calc", json=HELD_BACK)
    assert response.status_code == 422
    [error] = response.json()["detail"]
    assert error["loc"] == ["body", "attacker", "weapons"]
    assert "monte-carlo" in error["msg"] and "Devastating Wounds" in error["msg"]
    sampled = await client.post("/api/calc", json={**HELD_BACK, "method": "monte-carlo",
                                                   "trials": 1000})
    assert sampled.status_code == 200 and sampled.json()["method"] == "monte-carlo"
