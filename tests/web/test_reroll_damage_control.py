"""The page's "Re-roll damage" control: every choice it offers is an effect of the
scenario contract (the page's ``form.js`` turns ``below:N`` into ``{"reroll": "damage",
"which": "below", "below": N}``), and the API answers it as ``tactica.calculate`` does."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from tactica import calculate
from tactica.combat.contract.scenario import Effect

pytestmark = pytest.mark.anyio

PAGE = Path(__file__).resolve().parents[2] / "src" / "tactica" / "web" / "templates" / "calc.html"


def _choices() -> list[str]:
    text = PAGE.read_text(encoding="utf-8")
    select = re.search(r'<select id="mod-reroll-damage"[^>]*>(.*?)</select>', text, re.S)
    assert select is not None
    return [v for v in re.findall(r'<option value="([^"]*)"', select.group(1)) if v]


def _effect(value: str) -> dict[str, Any]:
    """What ``form.js`` (plainEffects) sends for a choice."""
    if value.startswith("below:"):
        return {"reroll": "damage", "which": "below", "below": int(value[6:])}
    return {"reroll": "damage", "which": value}


SCENARIO: dict[str, Any] = {
    "attacker": {"weapons": [{"name": "Lascannon", "range": 48, "A": "2", "skill": 3,
                              "S": 12, "AP": -3, "D": "D6+1"}]},
    "target": {"models": [{"count": 1, "T": 10, "Sv": 3, "W": 30}]},
}


def test_the_control_offers_thresholds_and_each_is_an_effect() -> None:
    choices = _choices()
    assert {"ones", "below:3", "below:4"} <= set(choices)
    for value in choices:
        Effect.model_validate(_effect(value))


async def test_the_api_answers_each_choice_as_the_calculator(
        client: httpx.AsyncClient) -> None:
    means = []
    for value in ("below:3", "below:5"):
        doc = {**SCENARIO, "effects": [_effect(value)]}
        response = await client.post("/api/calc", json=doc)
        assert response.status_code == 200
        assert response.json() == json.loads(calculate(doc).model_dump_json())
        means.append(response.json()["damage"]["mean"])
    plain = calculate(SCENARIO).damage.mean
    # D6+1: below 3 re-rolls only a 2 (the roll of 1), below 5 re-rolls 2-4
    assert plain < means[0] < means[1]
