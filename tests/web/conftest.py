"""Fixtures for the web tests.

* ``app`` / ``client``: the app in-process, spoken to through an ASGI client (httpx's
  ``ASGITransport``); the API tests need no server.
* ``live_server``: the same app served by uvicorn in a background thread on 127.0.0.1, on
  a port the system picks; ``browser``: a Chromium (the ``chromium`` fixture of
  ``tests/conftest.py``: Debian's, which ``.ci/run`` installs) driven by Playwright with a
  fresh profile. Without Chromium the end-to-end tests are skipped, saying so; in CI they
  fail.

Every app here uses the packaged seed library (``load_seed_library``), whatever sources
the machine has, so the numbers are the same everywhere.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from fastapi import FastAPI

from tactica.library import load_seed_library
from tactica.web import create_app
from tactica.web.compute import CalcPool

CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
#: Screenshots of the end-to-end tests (gitignored; kept by CI as artefacts).
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


#: An app-export list (gw-text) over the seed units, with a unit the library lacks.
CULT_AMBUSH = """\
Cult Ambush (235 points)

Genestealer Cults
Incursion (1000 points)
Host of Ascension

CHARACTERS

Primus (70 points)
  • Warlord
  • 1x Cult bonesword
    1x Scoped needle pistol
    1x Toxin injector claw

BATTLELINE

Neophyte Hybrids (90 points)
  • 1x Neophyte Leader
    • 1x Autopistol
      1x Chainsword
  • 9x Neophyte Hybrids
    • 9x Autopistol
      9x Hybrid firearm
      9x Close combat weapon

DEDICATED TRANSPORTS

Goliath Truck (75 points)
  • 1x Heavy stubber
"""


@pytest.fixture
def army_list() -> str:
    """The text of a small list (``CULT_AMBUSH``)."""
    return CULT_AMBUSH


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


#: How long a list check may take here (``tests/conftest.py``: the shared calculation
#: worker is as patient). The bounds themselves are tested with apps of their own
#: (``test_api.py``), never against the clock.
PATIENT = 600.0


@pytest.fixture(autouse=True)
def patient_list_checks(monkeypatch: pytest.MonkeyPatch) -> None:
    """List checks are bounded to ``LIST_TIMEOUT`` seconds; the tests' small lists must
    not be refused because the machine is busy."""
    from tactica.web import lists

    monkeypatch.setattr(lists, "LIST_TIMEOUT", PATIENT)


@pytest.fixture(scope="module")
def app(calc_pool: CalcPool) -> FastAPI:
    """The app over the seed library, calculating on the run's shared worker."""
    return create_app(library=load_seed_library, calc_pool=calc_pool)


@pytest.fixture
async def client(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://tactica.test") as c:
        yield c


class LiveServer:
    """The app served by uvicorn in a thread; ``url`` is its address."""

    def __init__(self, application: FastAPI) -> None:
        self.app = application
        self.socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.socket.bind(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.socket.getsockname()[1]}"
        config = uvicorn.Config(application, log_level="warning", lifespan="on")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run,
                                       kwargs={"sockets": [self.socket]}, daemon=True)

    def start(self) -> None:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the test server did not start")
            time.sleep(0.05)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=15)
        self.socket.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """Where the end-to-end tests save their screenshots."""
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture(scope="session")
def live_server(calc_pool: CalcPool) -> Iterator[LiveServer]:
    server = LiveServer(create_app(library=load_seed_library, calc_pool=calc_pool))
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def library_server(calc_pool: CalcPool) -> Iterator[LiveServer]:
    """A server of the packaged library (every faction), for what the seed pages lack."""
    server = LiveServer(create_app(calc_pool=calc_pool))
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def browser(chromium: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A Chromium browser context with a fresh profile (Playwright's persistent context,
    so the profile directory is ours). Playwright's own browser download is not used."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("chromium-profile")),
            executable_path=str(chromium), headless=True, args=CHROMIUM_ARGS,
            viewport={"width": 1280, "height": 900})
        context.set_default_timeout(15_000)
        yield context
        context.close()
