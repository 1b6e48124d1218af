"""The web API, in-process through an ASGI client: the scenario contract, the limits
(field-named 422s), the calculation timeout, look-ups, list checking and the pages.

The answers are compared with what the public functions the CLI calls return for the
same input (``tactica.calculate``, ``load_seed_library()`` look-ups, ``tactica.units``,
``tactica.army.validate``), so the API adds nothing of its own to the numbers.
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

import tactica.web.lists as web_lists
from tactica import calculate
from tactica.library import load_seed_library
from tactica.units import UnitRef, resolve_attacker
from tactica.web import MAX_BODY, create_app
from tactica.web.api import TOO_SLOW
from tactica.web.compute import CalcPool

pytestmark = pytest.mark.anyio

BOLT_RIFLES: dict[str, Any] = {
    "attacker": {"name": "Bolt rifles", "weapons": [{
        "name": "Bolt rifle", "count": 10, "range": 24, "A": "1", "skill": 3, "S": 4,
        "AP": -1, "D": "1"}]},
    "target": {"name": "MEQ", "models": [{"count": 10, "T": 4, "Sv": 3, "W": 2}]},
}
_HEAVY_LINE = {"name": "w", "count": 50, "A": "D6", "skill": 3, "S": 6, "AP": -1, "D": "D6",
               "abilities": ["Sustained Hits 2", "Devastating Wounds"]}
#: Two lines of 50 models with D6 attacks and Devastating Wounds of different damage
#: (D6, D3) into 20 models W3 (11th: the mortal wounds after each line): accepted by the
#: exact engine's size check, and about half a second of work, far past a 0.1 s timeout.
#: (Under the 10th rules the criticals of both lines are carried jointly: refused at
#: once as too large, ``tests/combat/test_size_refusals.py``.)
HEAVY: dict[str, Any] = {
    "rules": "11th",
    "attacker": {"weapons": [_HEAVY_LINE, {**_HEAVY_LINE, "name": "v", "D": "D3"}]},
    "target": {"models": [{"count": 20, "T": 5, "Sv": 3, "W": 3, "fnp": 5}]},
}


def _detail(response: httpx.Response) -> list[dict[str, Any]]:
    body = response.json()
    assert isinstance(body["detail"], list), body
    return list(body["detail"])


def _lines(n: int) -> dict[str, Any]:
    line = {**BOLT_RIFLES["attacker"]["weapons"][0], "count": 1}
    return {**BOLT_RIFLES, "attacker": {"weapons": [line] * n}}


# --- POST /api/calc ------------------------------------------------------------------------


async def test_calc_returns_the_result_of_tactica_calculate(client: httpx.AsyncClient) -> None:
    response = await client.post("/api/calc", json=BOLT_RIFLES)
    assert response.status_code == 200
    assert response.json() == json.loads(calculate(BOLT_RIFLES).model_dump_json())
    assert round(response.json()["models_destroyed"]["mean"], 4) == 0.5877


async def test_calc_runs_the_examples_of_the_repository(client: httpx.AsyncClient) -> None:
    example = Path(__file__).resolve().parents[2] / "examples" / "neophytes_vs_intercessors.json"
    text = example.read_text(encoding="utf-8")
    response = await client.post("/api/calc", content=text,
                                 headers={"content-type": "application/json"})
    assert response.status_code == 200
    assert response.json() == json.loads(calculate(text).model_dump_json())


async def test_a_thousand_weapon_lines_are_refused_naming_the_field(
        client: httpx.AsyncClient) -> None:
    response = await client.post("/api/calc", json=_lines(1000))
    assert response.status_code == 422
    [error] = _detail(response)
    assert error["loc"] == ["body", "attacker", "weapons"]
    assert error["msg"] == "1000 weapon lines; at most 100"
    assert len(response.content) < 300  # the input is not echoed back


async def test_a_hundred_weapon_lines_are_accepted(client: httpx.AsyncClient) -> None:
    response = await client.post("/api/calc", json=_lines(100))
    assert response.status_code == 200
    assert response.json()["attacks"]["mean"] == 100


@pytest.mark.parametrize(("change", "loc", "words"), [
    ({"target": {"models": [{"count": 150, "T": 4, "Sv": 3, "W": 2}] * 2}},
     ["body", "target"], "300 models; at most 200"),
    ({"target": {"models": [{"count": 201, "T": 4, "Sv": 3, "W": 2}]}},
     ["body", "target", "models", 0, "count"], "less than or equal to 200"),
    ({"attacker": {"weapons": [{"A": "11D6", "skill": 3, "S": 4, "D": "1"}]}},
     ["body", "attacker", "weapons", 0, "A"], "at most 10"),
    ({"attacker": {"weapons": [{"A": "1", "skill": 3, "S": 4, "AP": 1, "D": "1"}]}},
     ["body", "attacker", "weapons", 0, "AP"], "less than or equal to 0"),
    ({"attacker": {"weapons": [{"A": "1", "skill": 3, "S": 4, "D": "1",
                                "abilities": ["__import__('os')"]}]}},
     ["body", "attacker", "weapons", 0, "abilities"], "unknown weapon ability"),
])
async def test_out_of_range_scenarios_get_422_naming_the_field(
        client: httpx.AsyncClient, change: dict[str, Any], loc: list[Any], words: str) -> None:
    response = await client.post("/api/calc", json={**BOLT_RIFLES, **change})
    assert response.status_code == 422
    errors = _detail(response)
    assert [e["loc"] for e in errors] == [loc]
    assert words in errors[0]["msg"]


async def test_engine_refusals_name_the_weapon_line(client: httpx.AsyncClient) -> None:
    melee = {**BOLT_RIFLES, "attacker": {"weapons": [
        {"name": "Chainsword", "range": "Melee", "A": "2", "skill": 4, "S": 4, "D": "1"}]}}
    response = await client.post("/api/calc", json=melee)
    assert response.status_code == 422
    [error] = _detail(response)
    assert error["loc"] == ["body", "attacker", "weapons", 0]
    assert "'Chainsword' is a melee weapon but the phase is 'shooting'" in error["msg"]


async def test_named_effects_whose_conditions_fail_are_refused_one_by_one(
        client: httpx.AsyncClient) -> None:
    response = await client.post("/api/calc", json={
        **BOLT_RIFLES, "effects": ["Coordinated Trap", "Primed and Readied"]})
    assert response.status_code == 422
    errors = _detail(response)
    assert [e["loc"] for e in errors] == [["body", "effects", 0], ["body", "effects", 1]]
    assert errors[0]["msg"] == ("Coordinated Trap: the attacker is not a GENESTEALER CULTS "
                                "unit")


async def test_malformed_json_is_a_422(client: httpx.AsyncClient) -> None:
    response = await client.post("/api/calc", content=b"{\"attacker\": ",
                                 headers={"content-type": "application/json"})
    assert response.status_code == 422
    assert _detail(response)[0]["loc"][0] == "body"


async def test_bodies_over_256_kb_are_refused_naming_the_body(
        client: httpx.AsyncClient) -> None:
    blob = b" " * (MAX_BODY + 1)
    response = await client.post("/api/calc", content=blob,
                                 headers={"content-type": "application/json"})
    assert response.status_code == 422
    [error] = _detail(response)
    assert error["loc"] == ["body"]
    assert error["msg"] == (f"the request body is {MAX_BODY + 1} bytes; at most {MAX_BODY} "
                            "bytes (256 KB)")


async def test_bodies_without_a_length_are_cut_at_256_kb(client: httpx.AsyncClient) -> None:
    async def chunks() -> AsyncIterator[bytes]:
        for _ in range(40):
            yield b" " * 10_000

    response = await client.post("/api/calc", content=chunks(),
                                 headers={"content-type": "application/json"})
    assert "content-length" not in response.request.headers
    assert response.status_code == 422
    [error] = _detail(response)
    assert error["loc"] == ["body"]
    assert "at most 262144 bytes" in error["msg"]


async def test_a_body_just_under_the_limit_is_read(client: httpx.AsyncClient) -> None:
    text = json.dumps(BOLT_RIFLES)
    padded = text + " " * (MAX_BODY - len(text))
    response = await client.post("/api/calc", content=padded,
                                 headers={"content-type": "application/json"})
    assert response.status_code == 200


#: ``HEAVY`` under the 10th rules: both lines' criticals held back until the whole unit
#: has attacked, jointly: refused by the size model (``TooLargeError``) before any work.
HELD_BACK: dict[str, Any] = {**HEAVY, "rules": "10th"}


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


@contextmanager
def bounded(pool: CalcPool, *, timeout: float | None = None,
            wait: float | None = None) -> Iterator[CalcPool]:
    """The run's shared pool with a tighter ``timeout`` or ``wait`` for one test, put back
    after it (a pool of its own would start another worker process: seconds of CPU)."""
    before = pool.timeout, pool.wait
    pool.timeout = before[0] if timeout is None else timeout
    pool.wait = before[1] if wait is None else wait
    try:
        yield pool
    finally:
        pool.timeout, pool.wait = before


async def test_a_calculation_past_the_timeout_is_stopped_and_refused(
        calc_pool: CalcPool) -> None:
    """A worker past the timeout is stopped (the request refused) and replaced. The
    replacement joins the pool only once it has loaded: meanwhile a request waits ``wait``
    seconds and is refused as busy (its bound is wait + timeout, never wait + a start-up +
    timeout; Python cannot start and import tactica in the 0.01 s this request waits).
    Both checks stop the one worker once: each replacement loads every faction's rules."""
    app = create_app(library=load_seed_library, calc_pool=calc_pool)
    transport = httpx.ASGITransport(app=app)
    with bounded(calc_pool, timeout=0.1, wait=5) as pool:
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
            slow = await client.post("/api/calc", json=HEAVY)
            assert slow.status_code == 422
            assert _detail(slow) == [{"loc": ["body"], "msg": TOO_SLOW, "type": "too_slow"}]
            pool.wait = 0.01  # the replacement is still loading: busy, within the bound
            busy = await client.post("/api/calc", json=BOLT_RIFLES)
            assert busy.status_code == 503
            pool.wait = 600  # for the replacement to load, however long
            sampled = await client.post("/api/calc", json={
                **HEAVY, "method": "monte-carlo", "trials": 1_000_000})
            assert sampled.status_code == 422
            assert _detail(sampled)[0]["loc"] == ["body", "trials"]
            # the stopped worker was replaced: the next calculation is answered. The
            # replacement must start Python first, which takes longer than 0.1 s on a
            # loaded machine: give it all the time it needs (no timing in this check)
            pool.timeout = 600
            after = await client.post("/api/calc", json=BOLT_RIFLES)
            assert after.status_code == 200
    assert calc_pool.workers == 1 and len(calc_pool._idle) == 1  # one, idle again


async def test_a_request_that_finds_every_worker_busy_gets_503(calc_pool: CalcPool) -> None:
    """The only worker is held (taken from the pool's idle queue, as a running calculation
    takes it) for as long as the test needs, so the refusal does not depend on how fast a
    slow calculation reaches its worker on a loaded machine."""
    app = create_app(library=load_seed_library, calc_pool=calc_pool)
    transport = httpx.ASGITransport(app=app)
    with bounded(calc_pool, wait=0.2) as pool:
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
            assert (await client.post("/api/calc", json=BOLT_RIFLES)).status_code == 200
            held = await pool.acquire()  # the worker is busy elsewhere
            try:
                busy = await client.post("/api/calc", json=BOLT_RIFLES)
            finally:
                pool.release(held)  # free again: the next request is answered
            assert busy.status_code == 503
            assert busy.headers["retry-after"] == "2"
            assert (await client.post("/api/calc", json=BOLT_RIFLES)).status_code == 200


# --- effects ------------------------------------------------------------------------------


async def test_effects_check_says_which_rules_a_scenario_can_use(
        client: httpx.AsyncClient) -> None:
    gsc = {**BOLT_RIFLES, "attacker": {**BOLT_RIFLES["attacker"],
                                       "keywords": ["GENESTEALER CULTS", "INFANTRY"]}}
    response = await client.post("/api/effects/check", json=gsc)
    assert response.status_code == 200
    by_name = {e["name"]: e for e in response.json()}
    assert by_name["Coordinated Trap"]["holds"] is True
    assert by_name["Coordinated Trap"]["failures"] == []
    # another faction's rules are not on offer at all (issue 46): an ASTRA MILITARUM
    # stratagem, the Banehammer's Damaged profile for another unit
    damaged = "Damaged: 1-8 wounds remaining"
    assert "Acceptable Losses" not in by_name and damaged not in by_name
    fight_only = by_name["Hyperferocity"]
    assert fight_only["holds"] is False
    assert "not the shooting phase" in fight_only["failures"][0]
    # the Banehammer's Damaged profile: its own unit, with 1-8 wounds left
    banehammer = {**BOLT_RIFLES, "attacker": {**BOLT_RIFLES["attacker"], "name": "Banehammer",
                                              "keywords": ["VEHICLE", "BANEHAMMER",
                                                           "GENESTEALER CULTS"]}}
    checked = {e["name"]: e for e in
               (await client.post("/api/effects/check", json=banehammer)).json()}
    assert checked[damaged]["failures"] == [
        f"{damaged}: needs context.attacker_wounds_left between 1 and 8"]
    wounded = {**banehammer, "context": {"attacker_wounds_left": 5}}
    checked = (await client.post("/api/effects/check", json=wounded)).json()
    assert next(e for e in checked if e["name"] == damaged)["holds"] is True


@pytest.mark.parametrize(("keywords", "own", "army_rule"), [
    (["INFANTRY", "IMPERIUM", "ADEPTUS ASTARTES"], "Gladius Task Force", "Oath of Moment"),
    (["INFANTRY", "ORKS"], "War Horde", "Waaagh!"),
])
async def test_the_rules_on_offer_are_the_attackers_own_armys(
        client: httpx.AsyncClient, keywords: list[str], own: str, army_rule: str) -> None:
    scenario = {**BOLT_RIFLES, "attacker": {**BOLT_RIFLES["attacker"], "keywords": keywords}}
    offered = (await client.post("/api/effects/check", json=scenario)).json()
    sources = {e["source"] for e in offered}
    assert army_rule in {e["name"] for e in offered}
    assert own in sources and "Core" in sources
    assert not sources & {"Host of Ascension", "Final Day", "Brood Brother Auxilia",
                          "Cult Unveiled", "Xenocreed Congregation", "Outlander Claw"}


async def test_effects_lists_those_a_unit_can_use(client: httpx.AsyncClient) -> None:
    response = await client.get("/api/effects", params={"unit": "Neophyte Hybrids"})
    names = {e["name"] for e in response.json()}
    assert "Coordinated Trap" in names
    assert "Acceptable Losses" not in names
    missing = await client.get("/api/effects", params={"unit": "Neophites"})
    assert missing.status_code == 404


# --- look-ups -----------------------------------------------------------------------------


async def test_units_and_datasheets_come_from_the_library(client: httpx.AsyncClient) -> None:
    lib = load_seed_library()
    listed = (await client.get("/api/units")).json()
    assert [(u["name"], u["rules"]) for u in listed] == [(d.name, d.rules)
                                                        for d in lib.datasheets()]
    sheet = (await client.get("/api/units/neophyte-hybrids")).json()
    assert sheet == lib.datasheet("Neophyte Hybrids").model_dump(mode="json")
    missing = await client.get("/api/units/Primsu")
    assert missing.status_code == 404
    assert _detail(missing)[0]["suggestions"] == ["Primus"]


async def test_a_unit_as_attacker_is_its_default_loadout(
        client: httpx.AsyncClient) -> None:
    lib = load_seed_library()
    sheet = lib.datasheet("Neophyte Hybrids")
    default, _ = resolve_attacker(UnitRef(unit=sheet.name, models=10), lib, sheet.rules,
                                  "shooting")
    choice = (await client.get("/api/units/Neophyte Hybrids/attacker")).json()
    assert choice["models"] == 10
    assert (choice["min_models"], choice["max_models"]) == (10, 20)
    picked = [w for w in choice["weapons"] if w["selected"]]
    assert [(w["name"], w["count"], w["A"], w["abilities"]) for w in picked] == [
        (w.name, w.count, str(w.A), [str(a) for a in w.abilities]) for w in default.weapons]
    ranged = {w.name for w in sheet.weapons if not w.is_melee}
    assert {w["name"].split(" – ")[0] for w in choice["weapons"]} == ranged
    assert "Grenade launcher – krak" in [w["name"] for w in choice["weapons"]]
    fight = (await client.get("/api/units/Neophyte Hybrids/attacker",
                              params={"phase": "fight", "models": 15})).json()
    assert {w["range"] for w in fight["weapons"]} == {"Melee"}
    assert {w["count"] for w in fight["weapons"]} == {15}
    too_many = await client.get("/api/units/Neophyte Hybrids/attacker", params={"models": 25})
    assert too_many.status_code == 422
    assert _detail(too_many)[0]["loc"] == ["query", "models"]


async def test_targets_are_presets_or_units(client: httpx.AsyncClient) -> None:
    lib = load_seed_library()
    presets = (await client.get("/api/targets")).json()
    assert [p["name"] for p in presets] == [p.name for p in lib.presets()]
    knight = next(p for p in presets if p["name"] == "knight")
    assert knight["conditional_saves"] == ["5+ invulnerable save against ranged attacks"]
    meq = (await client.get("/api/targets/MEQ", params={"models": 10})).json()
    assert meq == lib.target("meq", models=10).model_dump(mode="json")
    riders = (await client.get("/api/targets/Death Riders", params={"models": 7})).json()
    assert sum(g["count"] for g in riders["models"]) == 7
    bad = await client.get("/api/targets/Death Riders", params={"models": 12})
    assert bad.status_code == 422
    assert "4" in _detail(bad)[0]["msg"] or "5" in _detail(bad)[0]["msg"]


async def test_rules_are_looked_up_like_tactica_rule(client: httpx.AsyncClient) -> None:
    response = await client.get("/api/rules/Rapid Fire")
    assert response.status_code == 200
    found = load_seed_library().find_rules("Rapid Fire")
    entries = response.json()  # the entries ``tactica rule`` shows, each with its record
    assert [e["record"] for e in entries] == [r.model_dump(mode="json", exclude={"source"})
                                             for r in found]
    assert [(e["kind"], e["rules"]) for e in entries] == [(r.record, r.rules) for r in found]
    assert all(e["published"] and e["calculator"] for e in entries)
    assert (await client.get("/api/rules/Rapid Fyre")).status_code == 404


# --- lists --------------------------------------------------------------------------------


async def test_a_list_is_priced_and_checked(client: httpx.AsyncClient, army_list: str) -> None:
    from tactica.army import parse_roster, validate

    text = army_list
    response = await client.post("/api/list/validate", json={"text": text})
    assert response.status_code == 200
    report = response.json()
    lib = load_seed_library()
    expected = validate(parse_roster(text, library=lib), lib)
    assert report["total"] == expected.prices.total == 235
    assert report["format"] == "gw-text"
    assert [u["name"] for u in report["units"]] == ["Primus", "Neophyte Hybrids",
                                                   "Goliath Truck"]
    assert report["units"][1]["page"] == "/units/Neophyte%20Hybrids?rules=11th"
    assert report["units"][2]["page"] is None
    assert [v["code"] for v in report["violations"]] == [v.code for v in expected.violations]
    assert "UNKNOWN_DATASHEET" in [v["code"] for v in report["violations"]]
    assert report["legal"] is False


async def test_lists_that_cannot_be_read_name_the_field(client: httpx.AsyncClient) -> None:
    garbage = await client.post("/api/list/validate", json={"text": "print('hello')"})
    assert garbage.status_code == 422
    assert _detail(garbage)[0]["loc"] == ["body", "text"]
    unknown = await client.post("/api/list/validate", json={"text": "x", "format": "docx"})
    assert unknown.status_code == 422
    assert _detail(unknown)[0]["loc"] == ["body", "format"]
    empty = await client.post("/api/list/validate", json={"text": ""})
    assert _detail(empty)[0]["loc"] == ["body", "text"]


async def test_without_the_army_package_lists_answer_503(
        client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(web_lists, "_army", lambda: None)  # the list functions not loaded
    response = await client.post("/api/list/validate", json={"text": "anything"})
    assert response.status_code == 503
    assert response.json() == {"detail": "army lists not available"}


# --- pages and static files ---------------------------------------------------------------

PAGES = ["/", "/units", "/units/Neophyte%20Hybrids", "/units/Banehammer?rules=10th",
         "/rules", "/rules/Rapid%20Fire", "/rules/Cult%20Demagogue", "/list", "/meta", "/docs",
         "/about"]


@pytest.mark.parametrize("path", PAGES)
async def test_pages_use_nothing_but_the_app(client: httpx.AsyncClient, path: str) -> None:
    response = await client.get(path)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    assert "default-src 'self'" in response.headers["content-security-policy"]
    for url in re.findall(r'src="([^"]*)"', response.text):
        assert url.startswith("/"), url
    # links lead to the app's own pages, but for the dataset credit its licence asks for
    for url in re.findall(r'href="([^"]*)"', response.text):
        assert url.startswith(("/", "#")) or url == "https://40kdc.alpacasoft.dev", url
    credit = re.search(r'Powered by 40kdc-data: <a href="https://40kdc.alpacasoft.dev">',
                       response.text)
    assert credit, "the 40kdc-data credit is missing from the footer"
    for url in re.findall(r'(?:src|href)="(/static/[^"?]*)', response.text):
        assert (await client.get(url)).status_code == 200, url


async def test_static_files_load_nothing_from_elsewhere(client: httpx.AsyncClient) -> None:
    static = Path(__file__).resolve().parents[2] / "src" / "tactica" / "web" / "static"
    files = sorted(static.iterdir())
    assert {f.suffix for f in files} >= {".js", ".css"}
    for f in files:
        response = await client.get(f"/static/{f.name}")
        assert response.status_code == 200
        assert not re.search(r"https?://(?!www\.w3\.org/2000/svg)", response.text), f.name
        assert "eval(" not in response.text and "new Function" not in response.text


async def test_the_datasheet_page_links_its_rules(client: httpx.AsyncClient) -> None:
    page = (await client.get("/units/Neophyte Hybrids")).text
    assert '<a href="/rules/Rapid%20Fire">Rapid Fire 1</a>' in page
    assert "Hybrid firearm" in page and "Seismic cannon" in page
    assert 'href="/?attacker=Neophyte%20Hybrids&amp;rules=' in page
    primus = (await client.get("/units/Primus")).text
    assert '<a href="/rules/Cult%20Demagogue">Cult Demagogue</a>' in primus
    assert '<a href="/units/Neophyte%20Hybrids">Neophyte Hybrids</a>' in primus


async def test_unknown_pages_are_404_pages_with_suggestions(client: httpx.AsyncClient) -> None:
    response = await client.get("/units/Primsu")
    assert response.status_code == 404
    assert '<a href="/units/Primus">Primus</a>' in response.text
    assert (await client.get("/nothing-here")).status_code == 404
    api = await client.get("/api/nothing-here")
    assert api.status_code == 404
    assert api.headers["content-type"] == "application/json"


async def test_the_docs_page_lists_every_endpoint(client: httpx.AsyncClient,
                                                  app: FastAPI) -> None:
    docs = (await client.get("/docs")).text
    spec = (await client.get("/openapi.json")).json()
    assert spec["paths"]
    for path, methods in spec["paths"].items():
        assert f"<code>{path}</code>" in docs
        assert all(m.upper() in docs for m in methods)
    calc = spec["paths"]["/api/calc"]["post"]
    assert calc["requestBody"]["content"]["application/json"]["schema"]["$ref"].endswith(
        "/ScenarioDocument")
    assert app.title == "tactica"


async def test_user_text_is_shown_escaped(client: httpx.AsyncClient) -> None:
    response = await client.get("/units/<img src=x onerror=alert(1)>")
    assert response.status_code == 404
    assert "<img" not in response.text
    assert "no unit named &#39;&lt;img src=x onerror=alert(1)&gt;&#39;" in response.text


# --- tactica serve ---------------------------------------------------------------------------


async def test_tactica_serve_runs_the_app_with_uvicorn(monkeypatch: pytest.MonkeyPatch) -> None:
    import socket

    import uvicorn
    from typer.testing import CliRunner

    from tactica.cli import commands
    from tactica.web import serve

    calls: list[tuple[Any, list[int]]] = []
    taken: list[tuple[str, int]] = []

    def take(host: str, port: int) -> socket.socket:  # the address asked, on a free port
        taken.append((host, port))
        return real_take(host, 0)

    def run(self: Any, sockets: list[socket.socket]) -> None:
        calls.append((self.config.app, [s.getsockname()[1] for s in sockets]))
        for s in sockets:
            s.close()

    real_take = serve.take_address
    monkeypatch.setattr(serve, "take_address", take)
    monkeypatch.setattr(uvicorn.Server, "run", run)
    result = CliRunner().invoke(commands.app, ["--no-dataset", "serve", "--port", "8123",
                                               "--timeout", "2.5"])
    assert result.exit_code == 0, result.output
    [(app, [port])] = calls
    assert f"http://127.0.0.1:{port}/" in result.stdout
    assert isinstance(app, FastAPI)
    assert app.state.freeze_heap  # the process is the server's (tactica.web.heap)
    assert taken == [("127.0.0.1", 8123)]
    assert app.state.calc_pool.timeout == 2.5  # exact: a setting, never computed
    default = CliRunner().invoke(commands.app, ["--no-dataset", "serve"])
    assert default.exit_code == 0
    assert taken[1] == ("127.0.0.1", 8000)


@pytest.mark.parametrize("host", ["busy", "192.0.2.1", "no-such-host.invalid"])
def test_a_busy_port_or_a_foreign_host_is_refused_before_the_address_is_shown(
        monkeypatch: pytest.MonkeyPatch, host: str) -> None:
    """One line, exit code 2, nothing started and no address printed as if serving."""
    import socket

    from typer.testing import CliRunner

    from tactica.cli import commands
    from tactica.web import app as web_app

    monkeypatch.setattr(web_app, "create_app", lambda **kw: pytest.fail("app created"))
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1] if host == "busy" else 0
        args = ["--no-dataset", "serve", "--port", str(port)]
        result = CliRunner().invoke(commands.app, [*args, *(
            [] if host == "busy" else ["--host", host])])
    assert result.exit_code == 2, result.output
    assert "http://" not in result.stdout
    [line] = result.output.strip().splitlines()
    flag = "--port" if host == "busy" else "--host"
    assert line.startswith(f"error: {flag} ")
    assert ("already in use" if host == "busy" else host) in line


async def test_the_about_page_gives_the_dataset_credit_as_its_licence_asks(
        client: httpx.AsyncClient) -> None:
    page = (await client.get("/about")).text
    assert "<strong>Powered by 40kdc-data</strong>" in page
    assert '<a href="https://40kdc.alpacasoft.dev">https://40kdc.alpacasoft.dev</a>' in page
    assert "CC BY 4.0" in page


@pytest.mark.parametrize("path", ["/units/Primus", "/units/Banehammer?rules=10th",
                                  "/units/Neophyte%20Hybrids", "/rules/Coordinated%20Trap"])
async def test_pages_name_sources_as_players_do(client: httpx.AsyncClient, path: str) -> None:
    """No file names, spec references or field paths: "Primus datasheet (seed page)"."""
    page = (await client.get(path)).text
    assert not re.search(r"\d{3}_[0-9a-f]{16}\.txt|reference_facts|§|context\.\w", page), path
    if path.startswith("/units/Primus"):
        assert "<dd>Primus datasheet (seed page)</dd>" in page
        assert "from 40kdc-data (11th edition launch)" in page


async def test_the_leaders_of_a_unit_are_the_datasheets_that_lead_it(
        client: httpx.AsyncClient) -> None:
    lib = load_seed_library()
    expected = [s.name for s in lib.datasheets() if "Neophyte Hybrids" in s.leader_of]
    assert expected == ["Primus"]
    assert (await client.get("/api/units/neophyte hybrids/leaders")).json() == expected
    assert (await client.get("/api/units/Primus/leaders")).json() == []
    missing = await client.get("/api/units/Primuss/leaders")
    assert missing.status_code == 404
    assert _detail(missing)[0]["suggestions"] == ["Primus"]


async def test_the_wargear_picker_gives_the_cores_loadout_options_and_refusal(
        client: httpx.AsyncClient) -> None:
    """/api/units/{name}/wargear: the unit's size range, its loadout as the units core
    fields it (``field_unit``), one entry per wargear option, and a broken constraint in
    the core's words, with the unit as the datasheet fields it beside it."""
    from tactica.library import load_seed_library
    from tactica.units import field_unit

    sheet = load_seed_library().datasheet("Banehammer")
    body = (await client.get("/api/units/Banehammer/wargear")).json()
    assert (body["min_models"], body["max_models"], body["models"]) == (1, 1, 1)
    assert len(body["options"]) == len(sheet.wargear) > 0
    assert body["options"][0]["choices"] == [" + ".join(c) for c in sheet.wargear[0].choices]
    assert body["error"] is None
    fielded = field_unit(sheet)
    assert [t.split(":")[0] for t in body["loadout"]] == [f"{m.count} {m.model}"
                                                          for m in fielded.models]
    refused = (await client.get("/api/units/Banehammer/wargear",
                                params={"choice": ["Lascannon:3"]})).json()
    assert refused["error"] and refused["error"].startswith("Banehammer")
    assert refused["loadout"] == body["loadout"]
    assert (await client.get("/api/units/Nobody/wargear")).status_code == 404


async def test_the_page_and_the_command_line_offer_the_same_rules(
        client: httpx.AsyncClient) -> None:
    """Issue 46: one answer (``tactica.effects.offer``) read by the page and the CLI."""
    from typer.testing import CliRunner

    from tactica.calculator import prepare
    from tactica.cli import commands

    printed = CliRunner().invoke(commands.app, ["effects", "--for", "Boyz", "--json"])
    by_cli = {(e["name"], e["holds"]) for e in json.loads(printed.stdout)["effects"]}
    plain, _, _ = prepare({"attacker": {"unit": "Boyz"}, "target": {"unit": "meq"},
                           "context": {"charged": False}})
    answered = (await client.post("/api/effects/check",
                                  json=plain.model_dump(mode="json"))).json()
    assert by_cli == {(e["name"], e["holds"]) for e in answered}
