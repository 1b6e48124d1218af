"""End to end in Chromium (the browser suite): the ``/meta`` page over a table the seed
library makes, at phone (390×844) and desktop size: 16 px text in every field, 44 px tap
targets (``test_e2e_table.MEASURE``), nothing drawn past the screen's edges (on a phone
the rows are cards), no script error and nothing asked of another host; a filter and a sort
heading used as a player uses them give the rows the page promises. Screenshots go to
``test-artifacts/`` (``meta-*``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from test_e2e import DESKTOP, PHONE, Tab
from test_e2e_fit import OVERFLOW
from test_e2e_table import MEASURE

from conftest import LiveServer
from tactica.library import load_seed_library
from tactica.meta import Selection, load, run, select_units
from tactica.web import create_app

SIZES = {"phone": PHONE, "desktop": DESKTOP}


@pytest.fixture(scope="module")
def meta_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    lib = load_seed_library()
    units = select_units(lib)
    folder = tmp_path_factory.mktemp("meta-e2e")
    run(Selection(attackers=units, targets=(*(p.name for p in lib.presets()), *units),
                  dataset=False), folder, lib=lib)
    server = LiveServer(create_app(library=load_seed_library, meta=folder))
    server.app.state.test_folder = folder
    server.start()
    yield server
    server.stop()


@pytest.fixture(params=list(SIZES))
def screen(request: Any, browser: Any, meta_server: LiveServer,
           artifacts: Path) -> Iterator[Tab]:
    t = Tab(browser, meta_server, SIZES[request.param], artifacts)
    t.size = request.param  # type: ignore[attr-defined]
    yield t
    t.page.close()
    assert t.errors == []
    assert t.hosts == {urlsplit(meta_server.url).netloc}


def test_the_page_is_measured_and_sorts_and_filters(screen: Tab,
                                                    meta_server: LiveServer) -> None:
    t = screen
    t.goto("/meta")
    t.page.wait_for_selector("#meta-count")
    found = t.page.evaluate(MEASURE)
    assert len(found) > 5
    small_text = [(n, size) for n, tag, size, _, _ in found
                  if tag in ("INPUT", "SELECT", "TEXTAREA") and size < 16]
    assert small_text == []
    small_target = [(n, w, h) for n, _, _, w, h in found if w < 44 or h < 44]
    assert small_target == []
    sorts = t.page.eval_on_selector_all(
        "a.sort, .pager a", "as => as.map(a => a.getBoundingClientRect().height)")
    assert sorts and min(sorts) >= 44
    assert t.page.evaluate("document.documentElement.scrollWidth") <= \
        SIZES[t.size]["width"]  # type: ignore[attr-defined]
    # nor anything drawn past the screen's edge: on a phone the rows are cards
    assert t.page.evaluate(OVERFLOW)["over"] == []
    t.shot(f"meta-{t.size}")  # type: ignore[attr-defined]
    # a player filters to one target and sorts by expected damage, lowest first
    t.page.select_option("select[name=target]", "meq")
    t.page.click("button[type=submit]")
    t.page.wait_for_selector("#meta-count")
    t.page.click("a.sort:has-text('Expected damage')")  # descending first
    t.page.wait_for_selector("th[aria-sort=descending]")
    t.page.click("a.sort:has-text('Expected damage')")  # then ascending
    t.page.wait_for_selector("th[aria-sort=ascending]")
    shown = t.page.eval_on_selector_all(
        "table.meta-table tr", "rs => rs.slice(1).map(r => [...r.cells].map(c => "
        "c.textContent))")
    df = load(meta_server.app.state.test_folder)
    want = df[(df.target == "meq") & (df.status == "computed")].sort_values(
        ["expected_damage", "attacker", "target", "phase", "edition"], kind="stable")
    assert [(r[0], r[4], r[6]) for r in shown] == [
        (a, p, f"{d:.2f}") for a, p, d in zip(want.attacker, want.phase,
                                               want.expected_damage, strict=True)][:50]
