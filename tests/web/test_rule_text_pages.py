"""Rule text generated from the dataset's effect code on the web (issue 41, item 7): the
rule page and the API's rule answer carry it marked as generated with the dataset's
notes, and a datasheet's page shows it for an ability without published text.

The app is given a small library of a few records of the full one (the army rule Oath of
Moment, a stratagem with no effect code, the Bullgryn Squad datasheet), looked up as
``tactica rule`` does.
"""

from __future__ import annotations

import html

import httpx
import pytest
from fastapi import FastAPI

pytest.importorskip("wh40kdc")

from tactica.index import Library
from tactica.library import load_library
from tactica.lookup import GENERATED
from tactica.web import create_app
from tactica.web.compute import CalcPool

pytestmark = [pytest.mark.anyio, pytest.mark.usefixtures("pinned_dataset")]

#: checked by hand against the record's effect code (``tests/effects/test_wording.py``)
OATH = ("At the start of your Command phase, select one enemy unit. Re-roll failed Hit "
        "rolls for attacks that target the designated enemy unit, until your next Command "
        "phase.")
WALL = ("Each time an attack is allocated to a model in the unit, subtract 1 from the "
        "Damage characteristic of that attack.")


@pytest.fixture(scope="module")
def small_app(calc_pool: CalcPool) -> FastAPI:
    full = load_library(dataset=True)
    picked = [r for r in full.records() if getattr(r, "name", None) == "Oath of Moment"
              or getattr(r, "key", None) == "know-no-fear-vengeful-hosts"]
    small = Library(datasheets=[full.datasheet("Bullgryn Squad", "11th")], records=picked)
    return create_app(library=lambda: small, calc_pool=calc_pool)


async def _get(application: FastAPI, path: str) -> httpx.Response:
    transport = httpx.ASGITransport(app=application)
    async with httpx.AsyncClient(transport=transport, base_url="http://tactica.test") as c:
        response = await c.get(path)
    assert response.status_code == 200, response.text
    return response


def _text(page: str) -> str:
    return " ".join(html.unescape(page).split())


async def test_the_rule_page_shows_the_generated_text_marked_with_the_notes(
        small_app: FastAPI) -> None:
    page = _text((await _get(small_app, "/rules/Oath of Moment")).text)
    assert OATH in page
    assert f"{GENERATED[:1].upper()}{GENERATED[1:]}." in page
    assert "Dataset notes: Additionally add 1 to the Wound roll" in page
    wall = _text((await _get(small_app, "/rules/Wall of Muscle")).text)
    assert WALL in wall and "The datasheet gives no text for it." not in wall


async def test_a_record_with_neither_text_nor_effect_code_says_so(small_app: FastAPI) -> None:
    page = _text((await _get(small_app, "/rules/Know No Fear")).text)
    assert "No text: the dataset has neither the published text nor effect code for it." \
        in page


async def test_the_api_answers_with_the_generated_text_marked(small_app: FastAPI) -> None:
    (entry,) = (await _get(small_app, "/api/rules/Oath of Moment")).json()
    assert entry["generated"] == OATH and entry["generated_from"] == GENERATED
    assert entry["notes"].startswith("Additionally add 1 to the Wound roll")


async def test_the_datasheet_page_shows_an_ability_s_generated_text(small_app: FastAPI) -> None:
    page = _text((await _get(small_app, "/units/Bullgryn Squad")).text)
    assert WALL in page
    assert f"{GENERATED[:1].upper()}{GENERATED[1:]}." in page
