"""``POST /api/turn``: the sequence contract over HTTP, the same numbers as
``tactica.combat.calculate`` (the API adds nothing of its own)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

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


EXAMPLES = Path(__file__).parents[2] / "examples"


@pytest.fixture(scope="module")
def full_app(calc_pool: Any) -> FastAPI:
    """The app over the whole bundled library (``examples/turn_units.json`` names units
    the seed library does not have), on the run's shared calculation worker."""
    from tactica.library import load_library
    from tactica.web import create_app

    return create_app(library=load_library, calc_pool=calc_pool)


@pytest.fixture
async def full(full_app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=full_app)
    async with httpx.AsyncClient(transport=transport, base_url="http://tactica.test") as c:
        yield c


async def test_turn_takes_unit_references_as_tactica_calc_does(
        full: httpx.AsyncClient) -> None:
    """``examples/turn_units.json`` (the target and the steps' units named from the
    library, a fight back without weapon lines) over HTTP: the numbers of ``tactica
    calc`` (``tactica.calculate`` on the same file), step by step, and what the units
    became."""
    from tactica.calculator import calculate as calculate_document

    doc = json.loads((EXAMPLES / "turn_units.json").read_text())
    response = await full.post("/api/turn", json=doc)
    assert response.status_code == 200, response.text
    body = response.json()
    want = calculate_document(doc)
    assert body["models_destroyed"]["pmf"] == list(want.models_destroyed.pmf)
    assert body["p_unit_destroyed"] == want.p_unit_destroyed
    for got, step in zip(body["steps"], want.steps, strict=True):
        assert got["attacks"]["pmf"] == list(step.attacks.pmf)
        assert got["p_happens"] == step.p_happens
        if step.attacker_losses is not None:
            assert got["attacker_losses"]["pmf"] == list(step.attacker_losses.pmf)
    assert body["resolved"]["target"][0]["name"] == "Intercessor Sergeant"
    assert body["cp_expected"] == pytest.approx(want.cp_expected, abs=1e-12)


@pytest.mark.parametrize(("change", "loc", "words"), [
    (lambda d: d["steps"][0]["attacker"].update(models=99), ["body", "steps", 0, "attacker",
                                                                  "models"],
     "99 asked for"),
    (lambda d: d["steps"][1].pop("distance"), ["body", "steps", 1], "needs 'distance'"),
    (lambda d: d["target"].update(modelz=5), ["body", "target", "modelz"],
     "unknown field (check its spelling)"),
    (lambda d: d["steps"][0]["attacker"].update(unit="Nobody Atall"),
     ["body", "steps", 0, "attacker", "unit"], "Nobody Atall"),
])
async def test_a_wrong_field_gets_one_clear_message(full: httpx.AsyncClient, change: Any,
                                                    loc: list[Any], words: str) -> None:
    doc = json.loads((EXAMPLES / "turn_units.json").read_text())
    change(doc)
    response = await full.post("/api/turn", json=doc)
    assert response.status_code == 422, response.text
    detail = response.json()["detail"]
    assert len(detail) == 1, detail
    assert detail[0]["loc"] == loc and words in detail[0]["msg"], detail


async def test_the_turn_page_has_the_circumstances_of_tactica_turn(
        client: httpx.AsyncClient) -> None:
    """The page builds the sequence document from these (``static/turn.js``): shooting
    distance, stationary, the charge's re-rolls, effects per step, and a share link; a
    link ``/turn#doc=<document>`` sends that document to ``/api/turn`` as it is (so
    ``/turn#doc=`` + ``examples/turn_units.json`` shows the numbers checked above)."""
    page = (await client.get("/turn")).text
    for field in ("new-range", "new-stationary", "new-reroll", "new-command", "new-effects",
                  "turn-share", "fights-back"):
        assert f'id="{field}"' in page, field
    script = (await client.get("/static/turn.js")).text
    for key in ("remained_stationary", "reroll_charge", "command_reroll", "effects",
                "fights_back", "#turn=", "#doc="):
        assert key in script, key
