"""The web app's request checks (``tactica.web.guard``) and refusals that are 422s, not
500s: the Host allow-list, header count, Content-Length with chunked, a lone surrogate,
deep JSON, malformed list JSON, Unicode digits and Melta 0."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import AsyncIterator, Iterator

import httpx
import pytest
import uvicorn
from fastapi import FastAPI

from tactica.library import load_seed_library
from tactica.web import create_app
from tactica.web.guard import GuardedH11Protocol

BOLT = {"attacker": {"weapons": [{"name": "Bolt rifle", "count": 10, "A": "1", "skill": 3,
                                  "S": 4, "AP": -1, "D": "1"}]},
        "target": {"models": [{"count": 10, "T": 4, "Sv": 3, "W": 2}]}}


def _weapon(**change: object) -> str:
    return json.dumps({**BOLT, "attacker": {"weapons": [{**BOLT["attacker"]["weapons"][0],
                                                         **change}]}})




@pytest.fixture(scope="module")
def guarded() -> Iterator[FastAPI]:
    application = create_app(library=load_seed_library, workers=1,
                             allowed_hosts=["localhost"])
    yield application
    application.state.calc_pool.close()


@pytest.fixture
async def client(guarded: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=guarded)
    async with httpx.AsyncClient(transport=transport, base_url="http://localhost") as c:
        yield c


@pytest.mark.anyio
async def test_only_allowed_hosts_are_served(client: httpx.AsyncClient) -> None:
    assert (await client.get("/api/targets")).status_code == 200
    assert (await client.get("/api/targets", headers={"host": "rebound.example"})).status_code \
        == 400


@pytest.mark.anyio
async def test_too_many_headers_and_ambiguous_length_are_refused(
        client: httpx.AsyncClient) -> None:
    many = [(f"x-h{i}", "1") for i in range(150)]
    assert (await client.get("/api/targets", headers=many)).status_code == 431
    both = await client.post("/api/calc", content=json.dumps(BOLT), headers={
        "content-type": "application/json", "transfer-encoding": "chunked"})
    assert both.status_code == 400
    assert both.json()["detail"][0]["type"] == "ambiguous_length"


@pytest.mark.parametrize(("url", "body", "loc"), [
    ("/api/calc", json.dumps({**BOLT, "attacker": {**BOLT["attacker"], "name": "\ud800"}}),
     ["body", "attacker", "name"]),  # the field that holds the lone surrogate
    ("/api/calc", _weapon(D="D６"), ["body", "attacker", "weapons", 0, "D"]),
    ("/api/calc", _weapon(abilities=["Melta 0"]), ["body", "attacker", "weapons", 0,
                                                   "abilities", "extra"]),
    ("/api/calc", _weapon(count=10**21), ["body", "attacker", "weapons", 0, "count"]),
    ("/api/calc", _weapon(count="3"), ["body", "attacker", "weapons", 0, "count"]),
    ("/api/calc", json.dumps({**BOLT, "effects": ["Primed and Readied",
                                                  "primed and readied"]}),
     ["body", "effects", 1]),
    ("/api/list/validate", json.dumps({"text": json.dumps(
        {"roster": {"forces": [{"selections": [{"name": 1, "categories": "x"}]}]}})}),
     ["body", "text"]),
    ("/api/list/validate", json.dumps({"text": '{"roster": {"forces": ' + "[" * 1000
                                       + "]" * 1000 + "}}"}), ["body", "text"]),
    ("/api/list/validate", json.dumps({"text": json.dumps({"roster": {
        "costLimits": [{"name": "pts", "value": 10**54}], "forces": []}})}), ["body", "text"]),
], ids=["surrogate", "unicode digit", "melta 0", "count 1e21", "count as text", "effect twice",
        "list types",
        "list depth", "points limit"])
@pytest.mark.anyio
async def test_bad_bodies_are_422s_naming_the_field(client: httpx.AsyncClient, url: str,
                                                    body: str, loc: list[object]) -> None:
    response = await client.post(url, content=body, headers={"content-type":
                                                             "application/json"})
    assert response.status_code == 422, response.text
    assert response.json()["detail"][0]["loc"] == loc


class _QuickHead(GuardedH11Protocol):
    head_timeout = 0.3


def test_a_request_head_sent_too_slowly_is_cut_off() -> None:
    """A slowloris client (half a request head, then nothing) is disconnected; a whole
    request on the same server is answered."""
    application = create_app(library=load_seed_library, workers=1)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(application, log_level="warning", http=_QuickHead,
                                           lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        for _ in range(200):
            if server.started:
                break
            threading.Event().wait(0.05)
        slow = socket.create_connection(("127.0.0.1", port), timeout=30)
        slow.sendall(b"GET /api/targets HTTP/1.1\r\nHost: localhost\r\n")  # no blank line
        assert slow.recv(1024) == b""  # closed by the server, no answer
        slow.close()
        whole = httpx.get(f"http://127.0.0.1:{port}/api/targets", timeout=30)
        assert whole.status_code == 200
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        application.state.calc_pool.close()
