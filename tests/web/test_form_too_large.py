"""A page's form too large to read (the army page's two lists past the 256 KB body bound)
is refused with a page saying so in one line, and the way back: a browser showed the
API's JSON refusal as text. The API keeps its JSON refusal."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tactica.library import load_seed_library
from tactica.web import create_app

BIG = "Neophyte Hybrids (85 points)\n" + "  • 1x Neophyte Hybrids\n" * 12_000


@pytest.fixture(scope="module")
def web(calc_pool: Any) -> Iterator[TestClient]:
    seed = load_seed_library()
    with TestClient(create_app(library=lambda: seed, calc_pool=calc_pool)) as client:
        yield client


@pytest.mark.parametrize("how", ["form", "file"])
def test_a_form_too_large_is_a_page_of_one_line(web: TestClient, how: str) -> None:
    sent = ({"data": {"mine": BIG, "enemy": "Primus"}} if how == "form" else
            {"data": {"enemy": "Primus"}, "files": {"mine_file": ("a.txt", BIG.encode())}})
    page = web.post("/plan", **sent)  # type: ignore[arg-type]
    assert page.status_code == 422
    assert page.headers["content-type"].startswith("text/html")
    said = re.findall(r'role="alert">(.*?)</p>', page.text)
    assert len(said) == 1 and re.fullmatch(
        r"the form is [\d,]+ bytes; at most 256 KB \(a list is 64 KB at most\)", said[0])
    assert '<a href="/plan">Back</a>' in page.text
    assert len(BIG.encode()) > 256 * 1024


def test_the_api_keeps_its_json_refusal(web: TestClient) -> None:
    response = web.post("/api/list/validate", json={"text": BIG})
    assert response.status_code == 422
    assert response.json()["detail"][0]["type"] == "too_large"
