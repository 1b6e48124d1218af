"""End to end, every page on a phone (390×844) and a laptop (1366×900), in Debian's
Chromium driven by Playwright: each page in the state a player leaves it in (a result
calculated, a turn with a charge, a list checked, two armies set against each other), and
on each no element reaches past the screen's edges, so nothing scrolls sideways; after
Calculate the result's key figures are on the screen without scrolling; the header is one
row with a Menu on the phone; Chromium reads the web app manifest without an error, the
service worker registers, and with the network cut a page shows the offline page.
Screenshots go to ``test-artifacts/`` (``fit-*``)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from test_e2e import Tab, pick_attacker, pick_target, press_calculate

from tactica.web import plan as plan_web

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 900}
SIZES = {"phone": PHONE, "laptop": LAPTOP}

#: Every element drawn past the viewport's left or right edge (and the page's own width).
OVERFLOW = """() => {
  const width = document.documentElement.clientWidth;
  const name = (e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') +
    (typeof e.className === 'string' && e.className ? '.' + e.className.split(' ').join('.') : '');
  const out = [];
  for (const e of document.querySelectorAll('body *')) {
    const r = e.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    if (r.right > width + 0.5 || r.left < -0.5) {
      out.push(name(e) + ' ' + Math.round(r.left) + '..' + Math.round(r.right));
    }
  }
  return {width, scroll: document.documentElement.scrollWidth, over: out.slice(0, 12)};
}"""


class Screen(Tab):
    def __init__(self, browser: Any, server: Any, size: str, shots: Path) -> None:
        super().__init__(browser, server, SIZES[size], shots)
        self.size = size

    def fits(self, what: str) -> None:
        """Nothing on the page reaches past the screen's edges."""
        found = self.page.evaluate(OVERFLOW)
        assert found["over"] == [], (what, found)
        assert found["scroll"] <= SIZES[self.size]["width"], (what, found)
        self.shot(f"fit-{what}-{self.size}")


@pytest.fixture(params=list(SIZES))
def screen(request: Any, browser: Any, live_server: Any, artifacts: Path,
           monkeypatch: pytest.MonkeyPatch) -> Iterator[Screen]:
    monkeypatch.setattr(plan_web, "PLAN_TIMEOUT", 600.0)  # a loaded machine is not refused
    t = Screen(browser, live_server, request.param, artifacts)
    yield t
    t.page.close()
    assert [e for e in t.errors if not any(x in e for x in t.expected)] == []
    assert t.hosts == {urlsplit(live_server.url).netloc}


def test_the_calculator_fits_and_shows_its_key_figures_after_calculate(screen: Screen) -> None:
    t = screen
    t.goto("/")
    t.fits("calculator-empty")
    pick_attacker(t, "Neophyte Hybrids")
    pick_target(t, "meq", "Intercessor Squad")
    press_calculate(t)
    t.page.wait_for_timeout(300)  # the scroll to the result on a phone
    height = SIZES[t.size]["height"]
    for card in ("damage", "models_destroyed", "p_unit_destroyed"):
        box = t.page.eval_on_selector(
            f'#summary .card[data-key="{card}"]',
            "c => { const r = c.getBoundingClientRect(); return [r.top, r.bottom]; }")
        assert box[0] >= 0 and box[1] <= height, (card, box)
    # every bar of the damage chart a label fits over is labelled with its chance
    labels = t.page.eval_on_selector_all("#chart-damage text.bar-value", "ts => ts.length")
    bars = t.page.eval_on_selector_all("#chart-damage rect.bar", "bs => bs.length")
    assert labels >= min(bars, 5)
    t.fits("calculator-result")
    # an edited library target is "custom", and pins that differ in a stat say which
    if t.page.is_visible("#edit-form"):
        t.page.click("#edit-form")
    t.page.click("#pin")
    t.page.fill("#target-groups .grow-row:last-child .f-T", "5")
    assert t.page.input_value("#target-name") == "custom"
    press_calculate(t)
    t.page.click("#pin")
    t.page.wait_for_function("() => document.querySelectorAll('#pins li').length === 2")
    labels_ = t.page.eval_on_selector_all(".pin-name", "l => l.map(x => x.value)")
    assert labels_[0] != labels_[1] and "custom" in labels_[1], labels_
    t.fits("calculator-pins")


def test_the_header_is_one_row_with_a_menu_on_a_phone(screen: Screen) -> None:
    t = screen
    t.goto("/units")
    header = t.page.eval_on_selector("header.top", "h => h.getBoundingClientRect().height")
    links = t.page.locator("header nav a")
    if t.size == "phone":
        assert header <= 64  # one row: 8% of the screen
        assert not links.first.is_visible()
        t.page.click(".menu-toggle")
        assert t.page.get_attribute(".menu-toggle", "aria-expanded") == "true"
        assert all(links.nth(i).is_visible() for i in range(links.count()))
        t.fits("menu-open")
        t.page.click("header nav a:has-text('Rules')")
        t.page.wait_for_url("**/rules")
        assert t.page.inner_text("header .here") == "Rules"
    else:
        assert not t.page.is_visible(".menu-toggle")
        assert all(links.nth(i).is_visible() for i in range(links.count()))


def test_the_turn_with_a_charge_fits(screen: Screen) -> None:
    t = screen
    t.goto("/turn")
    t.page.select_option("#turn-rules", "10th")
    for unit, phase in (("Death Riders", "shooting"), ("Death Riders", "charge")):
        t.page.fill("#new-unit", unit)
        t.page.select_option("#new-phase", phase)
        t.page.click("#add-step")
    assert "fights, having charged" in t.page.inner_text("#steps")
    t.page.fill("#turn-target", "Neophyte Hybrids")
    t.page.check("#fights-back")
    with t.page.expect_request("**/api/turn") as sent:
        t.page.click("#turn-calc")
    t.page.wait_for_selector("#turn-result:not([hidden])", timeout=90_000)
    doc = json.loads(sent.value.post_data or "{}")
    assert [s["phase"] for s in doc["steps"]] == ["shooting", "charge", "fight", "fight"]
    assert doc["steps"][2]["context"]["charged"] is True
    assert "fights after its charge" in t.page.inner_text("#turn-table tr[data-step='3']")
    # the shades of the chart are named
    shades = t.page.eval_on_selector_all("#turn-chart .legend li", "l => l.length")
    assert shades >= 2
    t.fits("turn")


def test_a_checked_list_and_two_armies_fit(screen: Screen, army_list: str) -> None:
    t = screen
    t.goto("/list")
    t.page.fill("#list-text", army_list)
    t.page.click("#list-check")
    t.page.wait_for_selector("#list-result[data-state=done]")
    t.fits("list")
    t.goto("/plan")
    t.page.fill("textarea[name=mine]", "Neophyte Hybrids:10, Primus")
    t.page.fill("textarea[name=enemy]", "Death Riders:5, Banehammer")
    t.page.click("details.plan-options > summary")  # the plan's options, as tactica plan's
    t.page.check("input[name=cover]")
    t.page.fill("textarea[name=distances]", "Primus=6")
    t.page.click("button[type=submit]")
    t.page.wait_for_selector("section.matrix", timeout=300_000)
    assert t.page.is_checked("input[name=cover]")  # the options kept, open
    assert t.page.is_visible("textarea[name=distances]")
    t.fits("plan")


PAGES = ["/units", "/units/Neophyte%20Hybrids", "/units/Primus", "/rules",
         "/rules/Rapid%20Fire", "/meta", "/docs", "/about", "/offline", "/no-such-page"]


def test_every_other_page_fits(screen: Screen) -> None:
    t = screen
    t.expected = ("status of 404",)
    for path in PAGES:
        t.goto(path)
        t.fits(path.strip("/").replace("/", "-").replace("%20", "-") or "home")
    # the rules index opened whole, and the meta page says how to build a table
    t.goto("/rules")
    t.page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
    t.fits("rules-open")
    t.goto("/meta")
    assert "tactica meta --faction" in t.page.inner_text("#meta-how")


@pytest.fixture
def phone(browser: Any, live_server: Any, artifacts: Path) -> Iterator[Screen]:
    t = Screen(browser, live_server, "phone", artifacts)
    yield t
    t.page.close()
    assert [e for e in t.errors if not any(x in e for x in t.expected)] == []


def test_the_manifest_is_read_and_the_offline_page_shown(phone: Screen, browser: Any) -> None:
    t = phone
    t.goto("/")
    session = browser.new_cdp_session(t.page)
    found = session.send("Page.getAppManifest")
    assert found["url"].endswith("/manifest.webmanifest")
    assert found["errors"] == []
    manifest = json.loads(found["data"])
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    # the service worker takes the page, then a page asked for without a network is
    # the offline page
    t.page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    t.page.wait_for_function("() => !!navigator.serviceWorker.controller", timeout=30_000)
    t.expected = ("ERR_INTERNET_DISCONNECTED", "Failed to fetch", "net::ERR")
    browser.set_offline(True)
    try:
        t.page.goto(t.server.url + "/units")
        assert "The server can't be reached" in t.page.inner_text("main")
        t.fits("offline")
    finally:
        browser.set_offline(False)
    t.page.evaluate("navigator.serviceWorker.getRegistrations().then(rs => "
                    "Promise.all(rs.map(r => r.unregister())))")
