"""The army page's bound (``PLAN_TIMEOUT``) holds for the next request too. The page once
computed on one server thread that a refusal for time did not stop: the computation ran
on, and every request after it waited behind it and was refused as "took more than 30
s" without being computed. Now a served app computes the page in a calculation worker
process (stopped at the bound, ``CalcPool.plan``), with the same answer as the thread
gives; on the thread (a library no worker can build) a request finding the thread still
busy is refused at once as busy (503)."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tactica.library import load_seed_library
from tactica.web import create_app, plan_answer
from tactica.web import plan as plan_web
from tactica.web.compute import CalcPool

LISTS = {"mine": "Neophyte Hybrids:10, Death Riders", "enemy": "Primus, Neophyte Hybrids:20"}


def _errors(page: str) -> list[str]:
    return re.findall(r'data-kind="error"[^>]*>(.*?)</p>', page)


def _results(page: str) -> str:
    """The page's answer: the plan and the tables (without the form and share link, and
    the picture, whose SVG is stamped with the time it was drawn)."""
    return re.sub(r'src="data:image/svg\+xml;base64,[^"]*"', "",
                  page[page.index('<div class="results">'):])


@pytest.fixture
def worker_app(calc_pool: CalcPool, monkeypatch: pytest.MonkeyPatch
               ) -> Iterator[tuple[TestClient, list[str]]]:
    """An app whose library a worker builds (the seed pages' recipe), its plan requests
    counted."""
    asked: list[str] = []
    real = CalcPool.plan

    async def counted(self: CalcPool, library: str, request_json: str,
                      timeout: float) -> str:
        asked.append(request_json)
        return await real(self, library, request_json, timeout)

    monkeypatch.setattr(CalcPool, "plan", counted)
    monkeypatch.setattr(plan_web, "PLAN_TIMEOUT", 600.0)
    with TestClient(create_app(library=load_seed_library, calc_pool=calc_pool)) as client:
        yield client, asked


def test_a_served_app_computes_the_page_in_a_worker_with_the_threads_answer(
        worker_app: tuple[TestClient, list[str]], calc_pool: CalcPool,
        monkeypatch: pytest.MonkeyPatch) -> None:
    client, asked = worker_app
    answered = client.post("/plan", data={**LISTS, "charge": "7"})
    assert answered.status_code == 200 and not _errors(answered.text), _errors(answered.text)
    assert len(asked) == 1
    seed = load_seed_library()
    with TestClient(create_app(library=lambda: seed, calc_pool=calc_pool)) as threaded:
        same = threaded.post("/plan", data={**LISTS, "charge": "7"})
    assert len(asked) == 1  # the thread's
    assert _results(same.text) == _results(answered.text)
    assert "points destroyed</h2>" in answered.text


def test_a_worker_past_the_bound_is_stopped_and_the_next_request_answered(
        worker_app: tuple[TestClient, list[str]], monkeypatch: pytest.MonkeyPatch) -> None:
    client, asked = worker_app
    monkeypatch.setattr(plan_web, "PLAN_TIMEOUT", 1e-4)
    refused = client.post("/plan", data=LISTS)
    assert refused.status_code == 422
    assert _errors(refused.text) == ["the lists took more than 0.0001 s to compute"]
    monkeypatch.setattr(plan_web, "PLAN_TIMEOUT", 600.0)
    answered = client.post("/plan", data=LISTS)
    assert answered.status_code == 200 and not _errors(answered.text)
    assert len(asked) == 2


def test_the_thread_still_busy_refuses_at_once(calc_pool: CalcPool,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """A computation that outlives its bound (here one held until the test lets it go)
    keeps the thread: the next request is refused as busy, not queued behind it."""
    release = threading.Event()
    real = plan_answer.compute

    def held(*args: Any) -> dict[str, Any]:
        release.wait(600)
        return real(*args)

    seed = load_seed_library()
    monkeypatch.setattr(plan_answer, "compute", held)
    with TestClient(create_app(library=lambda: seed, calc_pool=calc_pool)) as client:
        monkeypatch.setattr(plan_web, "PLAN_TIMEOUT", 0.2)
        first = client.post("/plan", data=LISTS)
        assert _errors(first.text) == ["the lists took more than 0.2 s to compute"]
        monkeypatch.setattr(plan_web, "PLAN_TIMEOUT", 600.0)
        try:
            busy = client.post("/plan", data=LISTS)
            assert busy.status_code == 503, busy.status_code
            assert _errors(busy.text) == ["the army page is still busy with a computation; "
                                          "try again in a moment"]
        finally:
            release.set()
        plan_web._BUSY.acquire(timeout=600)  # the held computation has ended
        plan_web._BUSY.release()
        monkeypatch.setattr(plan_answer, "compute", real)
        again = client.post("/plan", data=LISTS)
        assert again.status_code == 200 and not _errors(again.text), _errors(again.text)
