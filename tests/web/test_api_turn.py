"""``POST /api/turn``: the sequence contract over HTTP, the same numbers as
``tactica.combat.calculate`` (the API adds nothing of its own)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tactica.combat import calculate

pytestmark = pytest.mark.anyio

SEQUENCE: dict[str, Any] = {
    "rules": "10th", "target_leadership": 7,
    "target": {"name": "Grots", "models": [{"count": 2, "T": 3, "Sv": 7, "W": 1}]},
    "steps": [{"phase": "charge", "unit": "Hero", "distance": 7},
              {"phase": "fight", "attacker": {"name": "Hero", "weapons": [
                  {"name": "Sword", "range": "Melee", "A": "1", "skill": 2, "S": 3,
                   "D": "1"}]}}]}


async def test_turn_returns_the_sequence_result(client: httpx.AsyncClient) -> None:
    response = await client.post("/api/turn", json=SEQUENCE)
    assert response.status_code == 200, response.text
    body = response.json()
    want = calculate(SEQUENCE)
    assert body["models_destroyed"]["pmf"] == list(want.models_destroyed.pmf)
    assert [s["phase"] for s in body["steps"]] == ["charge", "fight"]


async def test_a_bad_step_names_its_field(client: httpx.AsyncClient) -> None:
    bad = {**SEQUENCE, "steps": [{"phase": "charge", "unit": "Hero"}]}
    response = await client.post("/api/turn", json=bad)
    assert response.status_code == 422
    assert any("distance" in d["msg"] for d in response.json()["detail"])
