"""Every faction's rules through the web API (real data: needs ``wh40kdc``): a detachment
stratagem of three factions named in a scenario, and a dataset record from the rules
endpoint. The expected ratios are worked in ``tests/effects/test_dataset_effects.py``;
here the attackers are plain scenario profiles: 10 x (A1, BS4+, S4, AP-1, D1) into 10
models T4 Sv3+ W1, so hits 5, wounds 2.5, unsaved 2.5 x 1/2 = 1.25.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

pytest.importorskip("wh40kdc")
pytestmark = pytest.mark.anyio


def scenario(keywords: list[str], effect: str | None,
             target_keywords: list[str] | None = None) -> dict[str, Any]:
    return {
        "attacker": {"name": "a", "keywords": keywords, "weapons": [
            {"name": "gun", "count": 10, "A": "1", "skill": 4, "S": 4, "AP": -1, "D": "1"}]},
        "target": {"name": "t", "keywords": target_keywords or [],
                   "models": [{"count": 10, "T": 4, "Sv": 3, "W": 1}]},
        "effects": [effect] if effect else [],
    }


@pytest.mark.parametrize("keywords,effect,target_keywords,stage,expected", [
    (["ASTRA MILITARUM"], "Accuracy Under Pressure", None, "hits", 7.5),  # 10 x 3/4
    (["T’AU EMPIRE"], "A Tempting Trap", None, "wounds", 5 * 4 / 6),  # 4+ -> 3+
    ([], "Armour of Contempt", ["BLOOD ANGELS"], "unsaved", 2.5 / 3),  # AP0: 3+ save
])
async def test_detachment_stratagems_of_three_factions(
        client: httpx.AsyncClient, keywords: list[str], effect: str,
        target_keywords: list[str] | None, stage: str, expected: float) -> None:
    response = await client.post("/api/calc", json=scenario(keywords, effect, target_keywords))
    assert response.status_code == 200, response.text
    doc = response.json()
    assert doc[stage]["mean"] == pytest.approx(expected)
    assert doc["effects_applied"] == [effect]


async def test_a_condition_that_fails_is_refused_with_the_field(
        client: httpx.AsyncClient) -> None:
    response = await client.post("/api/calc", json=scenario(["ORKS"], "A Tempting Trap"))
    assert response.status_code == 422
    assert "not a T’AU EMPIRE unit" in response.text


async def test_the_unit_browser_lists_each_faction_with_its_units(
        client: httpx.AsyncClient) -> None:
    from tactica.library import load_seed_library

    response = await client.get("/api/factions")
    assert response.status_code == 200
    listed = {f["faction"]: f["units"] for f in response.json()}
    for sheet in load_seed_library().datasheets():  # every unit under each of its factions
        for faction in sheet.faction_keywords:
            assert sheet.name in listed[faction]


async def test_a_factions_rules_are_the_datasets_records_grouped_by_detachment(
        client: httpx.AsyncClient) -> None:
    from tactica.effects import dataset_effects

    response = await client.get("/api/factions/GENESTEALER CULTS/rules")
    assert response.status_code == 200
    doc = response.json()
    data = dataset_effects()
    assert data is not None
    records = {(getattr(e.record, "detachment", None) or None, e.record.name)
               for e in data.listing(faction="GENESTEALER CULTS")}
    shown = {(None, r["name"]) for r in doc["army_rules"]} | {
        (d["name"], r["name"]) for d in doc["detachments"] for r in d["rules"]}
    assert shown == records
    statuses = {r["status"] for d in doc["detachments"] for r in d["rules"]}
    assert statuses <= {"modelled", "non-combat", "not modelled"}
    assert "modelled" in statuses


async def test_an_unknown_faction_is_a_404_with_close_names(client: httpx.AsyncClient) -> None:
    response = await client.get("/api/factions/GENESTEALER CULT/rules")
    assert response.status_code == 404
    assert "GENESTEALER CULTS" in response.json()["detail"][0]["suggestions"]


async def test_factions_are_named_as_players_name_them(client: httpx.AsyncClient) -> None:
    from tactica.loaders.wh40kdc_factions import player_faction

    listed = (await client.get("/api/factions")).json()
    assert listed and all(f["name"] == player_faction(f["faction"]).name for f in listed)
    # sorted by the players' names, a faction's own sub-factions right after it
    tops = [f["name"] for f in listed if f["part_of"] is None]
    assert tops == sorted(tops, key=str.casefold)


@pytest.mark.parametrize("asked", ["ASURYANI", "Aeldari"])
async def test_a_keyword_unlike_its_factions_name_finds_its_rules(
        client: httpx.AsyncClient, asked: str) -> None:
    """ASURYANI units' rules are filed under the dataset's "Aeldari": the keyword finds
    them (it found none before the players' names)."""
    from tactica.effects import dataset_effects

    response = await client.get(f"/api/factions/{asked}/rules")
    assert response.status_code == 200
    doc = response.json()
    assert (doc["faction"], doc["name"]) == ("ASURYANI", "Aeldari")
    data = dataset_effects()
    assert data is not None
    shown = {r["name"] for r in doc["army_rules"]} | {
        r["name"] for d in doc["detachments"] for r in d["rules"]}
    assert shown == {e.record.name for e in data.listing(faction="Aeldari")}
