"""End to end: the app served by uvicorn, driven in a real headless Chromium (Debian's
``/usr/bin/chromium``) with Playwright.

Each test uses the pages as a player would (type a unit name, pick a target, press
Calculate, copy the link, paste a list) and reads the numbers back from the page: the
value tables under the charts and the exact values the chart's bars and points carry
(``data-p``). They are compared with the API's answer and with ``tactica.calculate`` on
the scenario built by the command line's own functions. Screenshots go to
``test-artifacts/``, at desktop and at phone width (390 px).
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest

from tactica import calculate
from tactica.calculator import prepare
from tactica.combat.contract.result import Distribution, Result
from tactica.combat.contract.scenario import Context, Scenario
from tactica.library import load_seed_library
from tactica.units import ScenarioDocument, UnitRef, resolve_attacker
from tactica.web.wording import player_text

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


class Tab:
    """A browser page that remembers what went wrong on it (script errors, console
    errors such as a blocked resource) and which hosts it asked for."""

    def __init__(self, browser: Any, server: Any, size: dict[str, int], shots: Path) -> None:
        self.server = server
        self.shots = shots
        self.page = browser.new_page()
        self.page.set_viewport_size(size)
        self.errors: list[str] = []
        #: console reports a test expects (a refused request's status), ignored at the end
        self.expected: tuple[str, ...] = ()
        self.hosts: set[str] = set()
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error"
                     else None)
        self.page.on("request", lambda r: self.hosts.add(urlsplit(r.url).netloc))

    def goto(self, path: str) -> None:
        # the first page of a server loads its library (minutes on a loaded machine)
        self.page.goto(self.server.url + path, timeout=300_000)

    def shot(self, name: str) -> None:
        self.page.screenshot(path=str(self.shots / f"{name}.png"), full_page=True)

    def value(self, selector: str) -> str:
        return str(self.page.input_value(selector))


@pytest.fixture
def tab(browser: Any, live_server: Any, artifacts: Path) -> Iterator[Tab]:
    t = Tab(browser, live_server, DESKTOP, artifacts)
    yield t
    t.page.close()
    assert [e for e in t.errors if not any(x in e for x in t.expected)] == []
    assert t.hosts == {urlsplit(live_server.url).netloc}  # nothing from elsewhere


# --- helpers ---------------------------------------------------------------------------------


def pick_attacker(t: Tab, name: str) -> None:
    t.page.fill("#attacker-unit", name)
    t.page.press("#attacker-unit", "Tab")
    t.page.wait_for_function(
        "name => document.getElementById('attacker-name').value === name", arg=name)


def pick_target(t: Tab, name: str, unit: str) -> None:
    t.page.fill("#target-unit", name)
    t.page.press("#target-unit", "Tab")
    t.page.wait_for_function(
        "unit => document.getElementById('target-name').value === unit", arg=unit)


def press_calculate(t: Tab) -> None:
    t.page.click("#calculate")
    # the first calculation waits for the calculator's workers to load (a loaded machine)
    t.page.wait_for_selector("#result[data-state=done]", timeout=90_000)


def chart(t: Tab, box: str, shape: str) -> list[tuple[int, int, float]]:
    """(series, x, exact value) of every bar or point of a chart."""
    found = t.page.eval_on_selector_all(
        f"#{box} {shape}",
        "els => els.map(e => [Number(e.dataset.series), Number(e.dataset.x), e.dataset.p])")
    return [(int(s), int(x), float(p)) for s, x, p in found]


def table(t: Tab, box: str) -> list[tuple[int, str]]:
    """The value table under a chart: (x, the percentage shown) per row."""
    rows = t.page.eval_on_selector_all(
        f"#{box} .values-table tbody tr",
        "rows => rows.map(r => [Number(r.dataset.x), r.cells[1].textContent])")
    return [(int(x), str(text)) for x, text in rows]


def shown(p: float) -> str:
    """How the page writes a probability (charts.js ``pct``: toFixed(1), ties up)."""
    if 0 < p < 0.0005:
        return "<0.1%"
    if 0.9995 < p < 1:
        return ">99.9%"
    return f"{Decimal(100 * p).quantize(Decimal('0.1'), rounding=ROUND_HALF_UP)}%"


def scenario_in_url(t: Tab) -> dict[str, Any]:
    fragment = urlsplit(t.page.url).fragment
    encoded = dict(part.split("=", 1) for part in fragment.split("&"))["s"]
    doc: dict[str, Any] = json.loads(base64.urlsafe_b64decode(encoded + "=" * (-len(encoded) % 4)))
    return doc


def api_result(server: Any, scenario: dict[str, Any]) -> Result:
    response = httpx.post(server.url + "/api/calc", json=scenario, timeout=30)
    assert response.status_code == 200, response.text
    return Result.model_validate(response.json())


def at_least(d: Distribution, upto: int) -> list[float]:
    return [d.at_least(n) for n in range(upto + 1)]


def assert_page_shows(t: Tab, result: Result, models: int) -> None:
    """Every number of the result's charts and tables, as the page shows them."""
    damage = result.damage.pmf
    bars = chart(t, "chart-damage", "rect.bar")
    assert [p for _, _, p in bars] == list(damage[: len(bars)])
    assert all(p < 0.0005 for p in damage[len(bars):])
    assert table(t, "chart-damage") == [(x, shown(p)) for x, p in enumerate(damage[:len(bars)])]
    destroyed = chart(t, "chart-destroyed", "rect.bar")
    pmf = list(result.models_destroyed.pmf) + [0.0] * (models + 1)
    assert [p for _, _, p in destroyed] == pmf[: len(destroyed)]
    curve = chart(t, "chart-atleast", "circle.dot")
    expected = at_least(result.models_destroyed, models)[1:]
    # the page adds each tail left to right (charts.js ``atLeast``), Python's sum() with a
    # compensation from 3.12 on: the same sums, within 1e-12
    assert [x for _, x, _ in curve] == list(range(1, len(expected) + 1))
    assert all(abs(p - want) <= 1e-12 for (_, _, p), want in zip(curve, expected, strict=True))
    assert table(t, "chart-atleast") == [(n, shown(p)) for n, p in enumerate(expected, 1)]
    cards = dict(t.page.eval_on_selector_all(
        "#summary .card", "cs => cs.map(c => [c.dataset.key, Number(c.dataset.value)])"))
    assert cards["damage"] == result.damage.mean
    assert cards["models_destroyed"] == result.models_destroyed.mean
    assert cards["p_unit_destroyed"] == result.p_unit_destroyed
    stages = t.page.eval_on_selector_all(
        "#stages tbody tr", "rows => rows.map(r => [...r.cells].map(c => c.textContent))")
    assert stages == [[s.weapon, s.stage, player_text(s.detail)] for s in result.stages]
    not_calculated = t.page.eval_on_selector_all("#not-calculated li",
                                                 "li => li.map(x => x.textContent)")
    assert not_calculated == [player_text(n) for n in result.not_calculated]


# --- the calculator ------------------------------------------------------------------------


def test_a_unit_against_a_preset_shows_the_numbers_of_the_api(
        tab: Tab, live_server: Any) -> None:
    tab.goto("/")
    pick_attacker(tab, "Neophyte Hybrids")
    pick_target(tab, "geq", "Cadian Shock Troops")
    press_calculate(tab)
    tab.shot("calculator-desktop")

    # the page sends the units themselves: the calculator fields them as every door does
    lib = load_seed_library()
    sent = ScenarioDocument.model_validate(scenario_in_url(tab))
    assert sent.attacker == UnitRef(unit="Neophyte Hybrids", models=10)
    assert sent.target == UnitRef(unit="geq", models=10)
    result = api_result(live_server, scenario_in_url(tab))
    assert result == calculate(scenario_in_url(tab), lib)
    # and the numbers are those of the scenario the command line's functions build
    sheet = lib.datasheet("Neophyte Hybrids")
    attacker, _ = resolve_attacker(UnitRef(unit=sheet.name, models=10), lib, sheet.rules,
                                   "shooting")
    plain = calculate(Scenario(attacker=attacker, target=lib.target("geq"),
                               context=Context(attacker_toughness=3)))
    assert result.damage == plain.damage
    assert result.models_destroyed == plain.models_destroyed
    assert_page_shows(tab, result, models=10)


def test_a_shared_link_gives_the_same_result_in_a_new_tab(
        tab: Tab, browser: Any, live_server: Any) -> None:
    tab.goto("/")
    pick_attacker(tab, "Neophyte Hybrids")
    pick_target(tab, "meq", "Intercessor Squad")
    tab.page.fill("#ctx-distance", "9")
    tab.page.check("#ctx-cover")
    press_calculate(tab)
    link = tab.page.url
    assert "#s=" in link
    sent = scenario_in_url(tab)
    assert sent["context"]["distance"] == 9 and sent["context"]["cover"] is True

    other = Tab(browser, live_server, DESKTOP, tab.shots)
    try:
        other.page.goto(link)
        other.page.wait_for_selector("#result[data-state=done]")
        assert other.value("#attacker-name") == "Neophyte Hybrids"
        assert other.value("#ctx-distance") == "9"
        assert other.page.is_checked("#ctx-cover")
        assert scenario_in_url(other) == sent
        for box, shape in (("chart-damage", "rect.bar"), ("chart-atleast", "circle.dot")):
            assert chart(other, box, shape) == chart(tab, box, shape)
        assert_page_shows(other, api_result(live_server, sent), models=5)
        other.shot("shared-link-reloaded")
        assert other.errors == []
    finally:
        other.page.close()


@pytest.mark.parametrize(("unit", "army_rule"), [("Intercessor Squad", "Oath of Moment"),
                                               ("Boyz", "Waaagh!")])
def test_the_rules_offered_are_the_attackers_own_armys(
        browser: Any, library_server: Any, artifacts: Path, unit: str,
        army_rule: str) -> None:
    """Issue 46: Oath of Moment to Intercessors, Waaagh! to Boyz, and no Genestealer
    Cults detachment to either (among the rules that hold or those that do not)."""
    tab = Tab(browser, library_server, DESKTOP, artifacts)
    tab.goto("/")
    pick_attacker(tab, unit)
    pick_target(tab, "geq", "Cadian Shock Troops")
    tab.page.wait_for_selector(f'#effects input[data-effect="{army_rule}"]')
    shown = (tab.page.text_content("#effects") or "") + \
        (tab.page.text_content("#effects-other") or "")
    for gsc in ("Host of Ascension", "Primed and Readied", "Coordinated Trap",
                "Brood Brother Auxilia"):
        assert gsc not in shown, gsc
    detachments = tab.page.eval_on_selector_all(
        "#ctx-detachment option", "els => els.map(e => e.value)")
    assert "Host of Ascension" not in detachments
    tab.page.close()
    assert tab.errors == []


def test_the_rules_offered_are_those_whose_conditions_hold(
        tab: Tab, live_server: Any) -> None:
    tab.goto("/")
    pick_attacker(tab, "Neophyte Hybrids")
    pick_target(tab, "geq", "Cadian Shock Troops")
    tab.page.wait_for_selector('#effects input[data-effect="Coordinated Trap"]')
    offered = set(tab.page.eval_on_selector_all(
        "#effects input[data-effect]", "els => els.map(e => e.dataset.effect)"))
    probe = form_scenario(tab)
    checks = httpx.post(live_server.url + "/api/effects/check", json=probe).json()
    assert offered == {e["name"] for e in checks if e["holds"]}
    # an ASTRA MILITARUM stratagem is another army's: not offered at all (issue 46)
    assert "Acceptable Losses" not in offered
    assert "Acceptable Losses" not in (tab.page.text_content("#effects-other") or "")

    tab.page.check('#effects input[data-effect="Coordinated Trap"]')
    press_calculate(tab)
    sent = scenario_in_url(tab)
    assert sent["effects"] == ["Coordinated Trap"]
    result = api_result(live_server, sent)
    assert result.effects_applied == ("Coordinated Trap",)
    assert "Rules applied: Coordinated Trap" in tab.page.text_content("#notes")
    assert_page_shows(tab, result, models=10)


def test_a_link_made_elsewhere_opens_with_its_rules_ticked(tab: Tab) -> None:
    """A link written by another program (base64url of the scenario's JSON in ``#s=``):
    the page fills the form from it, ticks its named effects and shows its numbers."""
    lib = load_seed_library()
    attacker, _ = resolve_attacker(UnitRef(unit="Banehammer"), lib, "11th", "shooting")
    scenario = Scenario(attacker=attacker, target=lib.target("knight"),
                        context=Context(attacker_wounds_left=6),
                        effects=("Damaged: 1-8 wounds remaining", "Command Re-roll: wound"))
    doc = json.loads(scenario.model_dump_json())  # abilities written as pydantic does
    doc["attacker"]["weapons"][0].pop("count")  # and a default left out
    text = json.dumps(doc)
    link = base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")
    tab.goto("/#s=" + link)
    tab.page.wait_for_selector("#result[data-state=done]")
    tab.page.wait_for_selector('#effects input[data-effect="Command Re-roll"]')
    assert tab.page.is_checked('#effects input[data-effect="Damaged: 1-8 wounds remaining"]')
    assert tab.page.is_checked('#effects input[data-effect="Command Re-roll"]')
    assert tab.page.input_value('#effects select[aria-label="Command Re-roll option"]') == "wound"
    assert tab.value("#ctx-attacker_wounds_left") == "6"
    result = calculate(scenario)
    assert result.cp_spent == 1
    assert_page_shows(tab, result, models=1)
    tab.shot("calculator-from-link")


def test_a_link_keeps_the_units_rules_and_the_new_circumstances(tab: Tab) -> None:
    """A link whose target carries its rules (Deadly Demise, Firing Deck) and whose
    context sets indirect shooting and Plunging Fire: the page keeps them (the select and
    the boxes) and shows the API's numbers, its side outcome and not-calculated list."""
    lib = load_seed_library()
    attacker, _ = resolve_attacker(UnitRef(unit="Neophyte Hybrids", models=10), lib, "11th",
                                   "shooting")
    scenario = Scenario(attacker=attacker, target=lib.target("Banehammer"),
                        context=Context(indirect="spotted", plunging_fire=True, distance=6))
    link = base64.urlsafe_b64encode(scenario.model_dump_json().encode()).decode().rstrip("=")
    tab.goto("/#s=" + link)
    tab.page.wait_for_selector("#result[data-state=done]")
    assert tab.page.input_value("#ctx-indirect") == "spotted"
    assert tab.page.is_checked("#ctx-plunging_fire")
    result = calculate(scenario)
    assert result.not_calculated
    assert_page_shows(tab, result, models=1)
    doc = scenario_in_url(tab)
    assert doc["target"]["deadly_demise"] == "D6+2"
    assert doc["context"]["indirect"] == "spotted"


def form_scenario(t: Tab) -> dict[str, Any]:
    """The scenario the form holds now, without effects: calculated, then read back from
    the link (the page's own reader)."""
    press_calculate(t)
    plain, _, _ = prepare(scenario_in_url(t), load_seed_library())  # units as fielded
    doc: dict[str, Any] = json.loads(plain.model_dump_json())
    doc["effects"] = []
    return doc


def test_a_typed_profile_and_a_refusal_that_names_the_field(
        tab: Tab, live_server: Any) -> None:
    tab.goto("/")  # a bolt rifle profile against the meq preset, to start from
    tab.page.wait_for_function(
        "() => document.getElementById('target-name').value !== 'target'")
    press_calculate(tab)
    result = api_result(live_server, scenario_in_url(tab))
    sent = ScenarioDocument.model_validate(scenario_in_url(tab))
    assert isinstance(sent.target, UnitRef) and sent.target.unit == "meq"
    assert not isinstance(sent.attacker, UnitRef)
    assert [(w.name, w.count, str(w.A), w.S, w.AP) for w in sent.attacker.weapons] == [
        ("Bolt rifle", 10, "2", 4, -1)]
    assert_page_shows(tab, result, models=5)

    tab.page.fill("#weapons .wrow .f-AP", "2")
    tab.page.click("#calculate")
    tab.page.wait_for_selector("#result[data-state=error]")
    assert "Bolt rifle: AP" in tab.page.text_content("#error")  # the field, in the form's words
    assert "invalid" in (tab.page.get_attribute("#weapons .wrow .f-AP", "class") or "")
    tab.shot("calculator-refusal")
    # the browser reports each refused request as a console error, sometimes only after
    # the page has drawn the refusal: those reports are expected, nothing else may appear
    assert all("status of 422" in e for e in tab.errors)
    tab.expected = ("status of 422",)


def test_three_scenarios_compared_on_one_chart(tab: Tab, browser: Any,
                                               live_server: Any) -> None:
    tab.goto("/")
    pick_attacker(tab, "Neophyte Hybrids")
    results = []
    for preset, unit in (("geq", "Cadian Shock Troops"), ("meq", "Intercessor Squad"),
                         ("teq", "Terminator Squad")):
        pick_target(tab, preset, unit)
        press_calculate(tab)
        results.append(api_result(live_server, scenario_in_url(tab)))
        tab.page.click("#pin")
        tab.page.wait_for_function("n => document.querySelectorAll('#pins li').length === n",
                                   arg=len(results))
    tab.page.click("#pin")  # a fourth is refused
    assert "At most 3" in tab.page.text_content("#status")
    assert tab.page.eval_on_selector_all("#pins li", "l => l.length") == 3
    points = chart(tab, "chart-compare", "circle.dot")
    assert {s for s, _, _ in points} == {0, 1, 2}
    upto = 10  # the largest target has 10 models
    for k, result in enumerate(results):
        mine = [(x, p) for s, x, p in points if s == k]
        assert [x for x, _ in mine] == list(range(1, upto + 1))
        # summed by the page and by Python (see ``assert_page_shows``): within 1e-12
        assert all(abs(p - result.models_destroyed.at_least(x)) <= 1e-12 for x, p in mine)
    labels = tab.page.eval_on_selector_all("#chart-compare .legend li",
                                           "l => l.map(x => x.textContent)")
    # labelled by what differs: the target alone
    assert labels == ["A: 10 × geq", "B: 5 × meq", "C: 5 × teq"]
    # a pin renamed keeps its name on the chart and in the link
    tab.page.fill("#pins li:nth-child(2) .pin-name", "vs MEQ in the open")
    tab.page.press("#pins li:nth-child(2) .pin-name", "Enter")
    tab.page.wait_for_function(
        "() => [...document.querySelectorAll('#chart-compare .legend li')]"
        ".some(li => li.textContent === 'vs MEQ in the open')")
    labels[1] = "vs MEQ in the open"
    tab.shot("compare-three")
    # the pins travel with the link: a new tab computes them again
    assert "&p=" in tab.page.url
    other = Tab(browser, live_server, DESKTOP, tab.shots)
    try:
        other.page.goto(tab.page.url)
        other.page.wait_for_function("() => document.querySelectorAll('#pins li').length === 3")
        assert chart(other, "chart-compare", "circle.dot") == points
        assert other.page.eval_on_selector_all(
            "#chart-compare .legend li", "l => l.map(x => x.textContent)") == labels
        assert other.errors == []
    finally:
        other.page.close()


# --- datasheets, rules and lists -----------------------------------------------------------


def test_datasheets_link_their_rules_and_the_calculator(tab: Tab) -> None:
    tab.goto("/units")
    tab.page.click("text=Neophyte Hybrids")
    tab.page.wait_for_selector("h1:has-text('Neophyte Hybrids')")
    assert "Hybrid firearm" in tab.page.text_content("table.weapons")
    tab.shot("datasheet-desktop")
    tab.page.click("a:has-text('Rapid Fire 1')")
    tab.page.wait_for_selector("article.rule-card")
    assert "Rapid Fire" in tab.page.text_content("article.rule-card h2")
    assert "RAPID FIRE" in tab.page.text_content("article.rule-card")
    tab.page.go_back()
    tab.page.click("text=Attack with this unit")
    tab.page.wait_for_function(
        "() => document.getElementById('attacker-name').value === 'Neophyte Hybrids'")
    names = tab.page.eval_on_selector_all("#weapons .wrow .f-name", "e => e.map(x => x.value)")
    assert "Hybrid firearm" in names


def test_a_pasted_list_is_priced_and_every_violation_shown(
        tab: Tab, live_server: Any, army_list: str, tmp_path: Any) -> None:
    expected = httpx.post(live_server.url + "/api/list/validate", json={"text": army_list})
    assert expected.status_code == 200
    report = expected.json()
    tab.goto("/list")
    tab.page.fill("#list-text", army_list)
    tab.page.click("#list-check")
    tab.page.wait_for_selector("#list-result[data-state=done]")
    assert tab.page.text_content("#list-total") == str(report["total"])
    codes = tab.page.eval_on_selector_all("#violations li[data-code]",
                                          "l => l.map(x => x.dataset.code)")
    assert codes == [v["code"] for v in report["violations"]]
    assert "UNKNOWN_DATASHEET" in codes
    rows = tab.page.eval_on_selector_all("#breakdown tbody tr",
                                         "r => r.map(x => x.cells[0].firstChild.textContent)")
    assert rows == [u["name"] for u in report["units"]]
    tab.shot("list-desktop")

    upload = tmp_path / "cult_ambush.txt"
    upload.write_text(army_list, encoding="utf-8")
    tab.page.fill("#list-text", "")
    tab.page.set_input_files("#list-file", str(upload))
    tab.page.wait_for_function(
        "() => document.getElementById('list-text').value.length > 100")
    tab.page.click("#list-check")
    tab.page.wait_for_selector("#list-result[data-state=done]")
    assert tab.page.text_content("#list-total") == str(report["total"])


# --- a phone ---------------------------------------------------------------------------------

PAGES = ["/units", "/units/Neophyte%20Hybrids", "/units/Primus", "/rules", "/about",
         "/rules/Rapid%20Fire", "/list", "/docs"]


def test_every_page_fits_a_phone(browser: Any, live_server: Any, army_list: str,
                                 artifacts: Path) -> None:
    t = Tab(browser, live_server, PHONE, artifacts)
    try:
        t.goto("/")
        pick_attacker(t, "Neophyte Hybrids")
        pick_target(t, "geq", "Cadian Shock Troops")
        press_calculate(t)
        width = t.page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"]
        t.shot("phone-calculator")
        assert_page_shows(t, api_result(live_server, scenario_in_url(t)), models=10)
        t.goto("/list")
        t.page.fill("#list-text", army_list)
        t.page.click("#list-check")
        t.page.wait_for_selector("#list-result[data-state=done]")
        t.shot("phone-list-checked")
        for path in PAGES:
            t.goto(path)
            assert t.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], path
            t.shot("phone-" + (path.strip("/").replace("/", "-").replace("%20", "-")))
        assert t.errors == []
    finally:
        t.page.close()
