"""End to end, the Turn page: a turn built step by step on a phone (390×844) and at a
desk (1280×900), in Debian's Chromium driven by Playwright. The numbers the page shows
are read back and compared with the API's answer for the very document the page sent
(and ``tactica.calculate``, units fielded from the same library). Screenshots go to
``test-artifacts/`` (``turn-*``)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from test_e2e import DESKTOP, PHONE, Tab

from tactica.calculator import calculate
from tactica.library import load_seed_library

SIZES = {"phone": PHONE, "desktop": DESKTOP}


@pytest.fixture(params=list(SIZES))
def screen(request: Any, browser: Any, live_server: Any, artifacts: Path) -> Iterator[Tab]:
    t = Tab(browser, live_server, SIZES[request.param], artifacts)
    t.size = request.param  # type: ignore[attr-defined]
    yield t
    t.page.close()
    assert t.errors == []
    assert t.hosts == {urlsplit(live_server.url).netloc}


def add_step(t: Tab, unit: str, phase: str, distance: int | None = None) -> None:
    t.page.fill("#new-unit", unit)
    t.page.select_option("#new-phase", phase)
    if distance is not None:
        t.page.fill("#new-distance", str(distance))
    t.page.click("#add-step")


def assert_shows(text: str, p: float) -> None:
    """The page's percentage (one decimal, "<0.1%" / ">99.9%" at the ends) is ``p``."""
    shown = text.strip().split("%")[0]
    if shown.startswith("<"):
        assert 0 < p < 0.0005, (text, p)
    elif shown.startswith(">"):
        assert 0.9995 < p < 1, (text, p)
    else:
        assert float(shown) / 100 == pytest.approx(p, abs=0.0005 + 1e-12), (text, p)


def test_a_two_unit_turn_with_a_charge_and_fight_back(screen: Tab, live_server: Any) -> None:
    t = screen
    t.goto("/turn")
    t.page.select_option("#turn-rules", "10th")
    add_step(t, "Death Riders", "shooting")
    add_step(t, "Death Riders", "charge", 7)
    # the charge brings its fight (as tactica turn's charge@7): shown under it, and a
    # fight step of the same unit is not a second fight
    assert "then Death Riders fights, having charged" in t.page.inner_text("#steps")
    add_step(t, "Death Riders", "fight")
    assert "charge already brings its fight" in t.page.inner_text("#turn-status")
    assert t.page.locator("#steps li").count() == 2
    t.page.fill("#turn-target", "Neophyte Hybrids")
    t.page.fill("#target-ld", "7")
    t.page.check("#fights-back")
    with t.page.expect_request("**/api/turn") as sent:
        t.page.click("#turn-calc")
    # the first calculation loads the library and starts a worker: a minute on a busy machine
    t.page.wait_for_selector("#turn-result:not([hidden])", timeout=60_000)
    doc = json.loads(sent.value.post_data or "{}")
    assert [s["phase"] for s in doc["steps"]] == ["shooting", "charge", "fight", "fight"]
    answer = httpx.post(live_server.url + "/api/turn", json=doc).json()
    want = calculate(doc, load_seed_library())
    assert answer["p_unit_destroyed"] == pytest.approx(want.p_unit_destroyed, abs=1e-12)

    # P(destroyed by step k), exact in the cell's data, as a percentage in its text
    cells = t.page.locator("#turn-table td.c-destroyed")
    assert cells.count() == len(answer["steps"]) == 4
    for k, step in enumerate(answer["steps"]):
        assert float(cells.nth(k).get_attribute("data-p") or "nan") == step["p_unit_destroyed"]
        assert_shows(cells.nth(k).inner_text(), step["p_unit_destroyed"])
    # the charge chance of the charge step: 2D6 ≥ 7 is 21/36
    charge = t.page.locator("#turn-table tr[data-step='2'] td.c-charge").inner_text()
    assert_shows(charge, answer["steps"][1]["p_charge"])
    # declared while the target is alive (p_happens), made on 7+: 21/36
    assert answer["steps"][1]["p_charge"] == pytest.approx(
        answer["steps"][1]["p_happens"] * 21 / 36, abs=1e-12)
    # the stacked bar of the last step: its segments are the models-left distribution
    total = len(answer["models_destroyed"]["pmf"]) - 1  # the page names the units
    segs = t.page.locator("#turn-chart rect[data-step='4']")
    got = {int(segs.nth(i).get_attribute("data-left") or "-1"):
           float(segs.nth(i).get_attribute("data-p") or "nan") for i in range(segs.count())}
    pmf = answer["steps"][3]["models_destroyed"]["pmf"]
    assert got == {total - d: p for d, p in enumerate(pmf) if p > 0}
    # the attacker's losses when the target fights back, and battle-shock
    losses = t.page.locator("#turn-table tr[data-step='4'] td.c-losses").inner_text()
    lost = answer["steps"][3]["attacker_losses"]["pmf"]
    assert float(losses) == pytest.approx(sum(i * p for i, p in enumerate(lost)), abs=0.006)
    shock = t.page.inner_text("#turn-shock")
    assert_shows(shock, answer["battle_shock"]["p_battle_shocked"])
    # phone first: 16 px text in the fields, 44 px tap targets
    for sel in ("#new-unit", "#new-phase", "#turn-target", "#add-step", "#turn-calc"):
        box = t.page.locator(sel).bounding_box()
        assert box is not None and box["height"] >= 44, sel
    size = t.page.eval_on_selector("#new-unit", "e => getComputedStyle(e).fontSize")
    assert float(size.removesuffix("px")) >= 16
    t.shot(f"turn-{t.size}")  # type: ignore[attr-defined]
    # the link reopens the same turn and sends the same document
    link = t.page.get_attribute("#turn-share", "href") or ""
    assert link.startswith("/turn#turn=")
    with t.page.expect_request("**/api/turn") as again:
        t.goto(link)
    assert json.loads(again.value.post_data or "{}") == doc
