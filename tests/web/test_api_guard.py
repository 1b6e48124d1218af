"""The web app's request checks (``tactica.web.guard``) and refusals that are 422s, not
500s: the Host allow-list, header count, Content-Length with chunked, a lone surrogate,
deep JSON, malformed list JSON, Unicode digits and Melta 0."""

from __future__ import annotations

import asyncio
import json
import logging
import socket
import threading
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager

import httpx
import pytest
import uvicorn
from fastapi import FastAPI

from tactica.library import load_seed_library
from tactica.web import create_app
from tactica.web.compute import CalcPool
from tactica.web.serve import Limits, server_options

BOLT = {"attacker": {"weapons": [{"name": "Bolt rifle", "count": 10, "A": "1", "skill": 3,
                                  "S": 4, "AP": -1, "D": "1"}]},
        "target": {"models": [{"count": 10, "T": 4, "Sv": 3, "W": 2}]}}


def _weapon(**change: object) -> str:
    return json.dumps({**BOLT, "attacker": {"weapons": [{**BOLT["attacker"]["weapons"][0],
                                                         **change}]}})




@pytest.fixture(scope="module")
def guarded(calc_pool: CalcPool) -> FastAPI:
    """The app with a Host allow-list, calculating (and checking lists) on the run's
    shared worker (``calc_pool``): a worker of its own would load every faction's rules
    again, seconds of CPU, for the one list these checks send."""
    return create_app(library=load_seed_library, calc_pool=calc_pool,
                      allowed_hosts=["localhost"])


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
    # a rule given twice (a stratagem given twice: the engine's refusal, once per phase)
    ("/api/calc", json.dumps({**BOLT, "effects": ["Oath of Moment", "oath of moment"]}),
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


class _Served:
    """The app served by uvicorn with the connection guard (``limits``) in a thread."""

    def __init__(self, application: FastAPI, limits: Limits) -> None:
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        self.server = uvicorn.Server(uvicorn.Config(
            application, log_level="warning", lifespan="off", **server_options(limits)))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [sock]},
                                       daemon=True)
        self.thread.start()
        for _ in range(600):
            if self.server.started:
                break
            threading.Event().wait(0.05)

    def connect(self) -> socket.socket:
        return socket.create_connection(("127.0.0.1", self.port), timeout=60)

    def get(self) -> int:
        return httpx.get(f"http://127.0.0.1:{self.port}/api/targets", timeout=60).status_code

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


@pytest.fixture(scope="module")
def plain_app() -> Iterator[FastAPI]:
    application = create_app(library=load_seed_library, workers=1)
    yield application
    application.state.calc_pool.close()


@contextmanager
def _served(application: FastAPI, **limits: float) -> Iterator[_Served]:
    served = _Served(application, Limits(**limits))  # type: ignore[arg-type]
    try:
        yield served
    finally:
        served.stop()


def _answer(conn: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection."""
    data = b""
    while chunk := conn.recv(4096):
        data += chunk
    return data


def test_a_request_head_sent_too_slowly_is_cut_with_408(plain_app: FastAPI) -> None:
    """A slowloris client (half a request head, then nothing) gets a 408 and is
    disconnected; a connection that sends nothing is closed without an answer; a whole
    request on the same server is answered."""
    with _served(plain_app, head_timeout=0.3) as served:
        slow = served.connect()
        slow.sendall(b"GET /api/targets HTTP/1.1\r\nHost: localhost\r\n")  # no blank line
        assert _answer(slow).startswith(b"HTTP/1.1 408 ")
        silent = served.connect()
        assert _answer(silent) == b""
        assert served.get() == 200


def test_a_slow_body_is_cut_with_408_at_the_requests_deadline(plain_app: FastAPI) -> None:
    """One byte of a 100-byte body, then nothing: at the deadline for the whole request
    (head and body) the server answers 408 and closes, whatever the app is doing."""
    with _served(plain_app, request_timeout=0.5) as served:
        slow = served.connect()
        slow.sendall(b"POST /api/calc HTTP/1.1\r\nHost: localhost\r\n"
                     b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{")
        answer = _answer(slow)
        assert answer.startswith(b"HTTP/1.1 408 ")
        assert b"not sent in time" in answer
        assert served.get() == 200


def test_the_per_client_cap_refuses_the_next_connection(plain_app: FastAPI) -> None:
    """Two connections from 127.0.0.1 are the cap: the third is answered 503 and closed;
    once one of the two is closed, a new one is served."""
    with _served(plain_app, per_client=2) as served:
        first, second = served.connect(), served.connect()
        third = served.connect()
        third.sendall(b"GET /api/targets HTTP/1.1\r\nHost: localhost\r\n\r\n")
        refused = _answer(third)
        assert refused.startswith(b"HTTP/1.1 503 ")
        assert b"too many connections from your address" in refused
        first.close()
        second.sendall(b"GET /api/targets HTTP/1.1\r\nHost: localhost\r\n"
                       b"Connection: close\r\n\r\n")
        assert _answer(second).startswith(b"HTTP/1.1 200 ")


def test_at_the_connection_cap_the_oldest_waiting_connection_makes_room(
        plain_app: FastAPI) -> None:
    """Three connections waiting for a request head fill a cap of three: a fourth takes
    the place of the oldest (closed without an answer: it sent nothing) and is served."""
    with _served(plain_app, max_connections=3) as served:
        waiting = [served.connect() for _ in range(3)]
        waiting[1].sendall(b"GET /api/tar")  # a head begun: the oldest is still the first
        assert served.get() == 200
        assert _answer(waiting[0]) == b""
        waiting[2].sendall(b"GET /api/targets HTTP/1.1\r\nHost: localhost\r\n"
                           b"Connection: close\r\n\r\n")
        assert _answer(waiting[2]).startswith(b"HTTP/1.1 200 ")
        for conn in waiting:
            conn.close()


@pytest.mark.anyio
async def test_a_slow_body_is_cut_with_408_under_any_server() -> None:
    """The app's own guard (any ASGI server): a body whose rest never comes is answered
    408 at ``body_timeout`` after the app began to read it."""
    application = create_app(library=load_seed_library, workers=1, body_timeout=0.2)

    async def stalled() -> AsyncIterator[bytes]:
        yield b'{"attacker": '
        await asyncio.Event().wait()  # never set: the rest never comes

    transport = httpx.ASGITransport(app=application)
    try:
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
            cut = await c.post("/api/calc", content=stalled(),
                               headers={"content-type": "application/json"})
        assert cut.status_code == 408
        assert cut.json()["detail"][0]["type"] == "too_slow"
    finally:
        application.state.calc_pool.close()


class _Records(logging.Handler):
    """The log records of the server's loggers (uvicorn's do not propagate)."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


#: Requests whose framing h11 refuses, each sent in one piece (issue 47, 6): answered 400
#: by the server while the app answers too (a POST to a page: 405 without reading the
#: body), for a HEAD request (whose answer h11 lets have no body), and mid-body.
BROKEN = [
    b"POST / HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n",
    b"HEAD /api/targets HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n"
    b"ZZ\r\n",
    b"POST /api/calc HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
    b"Transfer-Encoding: chunked\r\n\r\n5\r\n{\"att\r\nZZ\r\n",
    b"POST /api/calc HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
    b"Transfer-Encoding: chunked\r\n\r\n2\r\nabcdef\r\n",
]


def test_a_request_with_broken_framing_is_one_log_line_and_a_400(plain_app: FastAPI) -> None:
    """A bad chunk, a chunk longer than it says: the server logs one line, answers 400
    (unless an answer has begun) and closes; no "Exception in ASGI application"
    traceback, however the app's answer and the error meet."""
    handler = _Records()
    loggers = [logging.getLogger(n) for n in ("uvicorn.error", "asyncio")]
    with _served(plain_app) as served:
        for logger in loggers:  # once the server has set its logging up
            logger.addHandler(handler)
        try:
            for _ in range(3):  # the app's answer and the error meet in more than one order
                for raw in BROKEN:
                    conn = served.connect()
                    conn.sendall(raw)
                    assert _answer(conn).startswith(b"HTTP/1.1 400 "), raw
                    conn.close()
            assert served.get() == 200
        finally:
            for logger in loggers:
                logger.removeHandler(handler)
    assert not [r for r in handler.records if r.exc_info or r.levelno >= logging.ERROR], \
        [r.getMessage() for r in handler.records]
    warnings = [r.getMessage() for r in handler.records if r.levelno == logging.WARNING]
    assert len(warnings) == 3 * len(BROKEN)
    assert all("\n" not in w for w in warnings)
