"""End to end, at the table: the calculator as a player uses it on a phone (390×844) and
at a desk (1280×900), in Debian's Chromium driven by Playwright.

Each flow of issue 14 is played through and the numbers on the page are read back and
compared with the API's answer (and ``tactica.calculate``): a failed look-up, a stale
result, a phase and a rules switch keeping the choices, a leader, re-rolls and granted
abilities, compare labels, the share link carrying every control; and the page is
measured: 16 px text in every field, 44 px tap targets, the result on one screen after
Calculate. Screenshots go to ``test-artifacts/`` (``table-*``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from test_e2e import (
    DESKTOP,
    PHONE,
    Tab,
    api_result,
    assert_page_shows,
    pick_attacker,
    pick_target,
    press_calculate,
    scenario_in_url,
)

from conftest import LiveServer
from tactica import calculate
from tactica.calculator import prepare
from tactica.combat.contract.scenario import Scenario
from tactica.library import Library, load_library, load_seed_library
from tactica.web import create_app

SIZES = {"phone": PHONE, "desktop": DESKTOP}


class Screen(Tab):
    """A tab at one of the two sizes (``size``: "phone" or "desktop")."""

    def __init__(self, browser: Any, server: Any, size: str, shots: Path) -> None:
        super().__init__(browser, server, SIZES[size], shots)
        self.size = size


@pytest.fixture(params=list(SIZES))
def screen(request: Any, browser: Any, live_server: Any, artifacts: Path) -> Iterator[Screen]:
    """A tab at phone or desktop size; no script errors and nothing asked of elsewhere."""
    t = Screen(browser, live_server, request.param, artifacts)
    yield t
    t.page.close()
    assert [e for e in t.errors if not any(x in e for x in t.expected)] == []
    assert t.hosts == {urlsplit(live_server.url).netloc}


def shot(t: Screen, name: str) -> None:
    t.shot(f"table-{name}-{t.size}")


def edit(t: Tab) -> None:
    """Open the form again where Calculate folded it to a summary (a phone)."""
    if t.page.is_visible("#edit-form"):
        t.page.click("#edit-form")


def open_rolls(t: Tab) -> None:
    """The Rolls section starts folded on a phone."""
    if not t.page.eval_on_selector("#rolls-box", "d => d.open"):
        t.page.click("#rolls-box > summary")


def weapon_rows(t: Tab) -> list[tuple[str, bool, str]]:
    """(name, ticked, count) of every weapon row."""
    rows = t.page.eval_on_selector_all(
        "#weapons .wrow", "rs => rs.map(r => [r.querySelector('.f-name').value, "
        "r.querySelector('.f-use').checked, r.querySelector('.f-count').value])")
    return [(str(n), bool(u), str(c)) for n, u, c in rows]


def by_hand(t: Tab) -> None:
    """Edit a library unit's weapon rows by hand (the page sends them, not the unit)."""
    if t.page.eval_on_selector("#weapons", "w => w.inert"):
        t.page.click("#hand-weapons")
        t.page.wait_for_function("() => !document.getElementById('weapons').inert")


def set_weapon(t: Tab, name: str, count: int, ticked: bool = True) -> None:
    by_hand(t)
    names = [n for n, _, _ in weapon_rows(t)]
    row = t.page.locator("#weapons .wrow").nth(names.index(name))
    if ticked:
        row.locator(".f-use").check()
    else:
        row.locator(".f-use").uncheck()
    row.locator(".f-count").fill(str(count))


def wait_rows(t: Tab, name: str) -> None:
    t.page.wait_for_function(
        "n => [...document.querySelectorAll('#weapons .f-name')].some(i => i.value === n)",
        arg=name)


def notes(t: Tab, box: str) -> str:
    return str(t.page.text_content(box) or "")


def expect_refused_request(t: Tab, status: int) -> None:
    """The browser logs a refused request (404, 422) as a console error: expected here,
    for the rest of the test (Chromium may report it late, after the page has drawn the
    refusal, and more than once), so the teardown ignores those reports and no others."""
    t.expected = (*t.expected, f"status of {status}")


def check_result(t: Tab, server: Any, models: int,
                 library: Callable[[], Library] = load_seed_library) -> Scenario:
    """The page's numbers are the API's and the engine's for the scenario it sent (a unit
    reference fielded over ``library``, the server's)."""
    sent = scenario_in_url(t)
    result = api_result(server, sent)
    if "unit" in sent["attacker"] or "unit" in sent["target"]:
        scenario = prepare(sent, library())[0]
        assert result == calculate(sent, library())
    else:
        scenario = Scenario.model_validate(sent)
        assert result == calculate(scenario)
    assert_page_shows(t, result, models=models)
    return scenario


# --- state that cannot lie -----------------------------------------------------------------


def test_a_failed_look_up_clears_what_it_replaces_and_says_why(
        screen: Screen, live_server: Any) -> None:
    t = screen
    t.goto("/")
    pick_attacker(t, "Neophyte Hybrids")
    pick_target(t, "geq", "Cadian Shock Troops")
    press_calculate(t)
    edit(t)

    # a target the library does not have: the old rows go, the reason is under the field
    expect_refused_request(t, 404)  # the look-ups below are refused on purpose
    t.page.fill("#target-unit", "Ork Boyz")
    t.page.press("#target-unit", "Tab")
    t.page.wait_for_selector("#target-notes .error-text")
    assert "no target named 'Ork Boyz'" in notes(t, "#target-notes")
    assert t.page.eval_on_selector_all("#target-groups > *", "g => g.length") == 0
    assert t.value("#target-name") == "target"
    assert t.page.get_attribute("#result", "data-stale") == "true"  # the old one is not it
    t.page.click("#calculate")
    t.page.wait_for_selector("#error:not([hidden])")
    assert "No target" in notes(t, "#error")
    assert t.page.get_attribute("#status", "data-kind") == "error"
    assert t.page.get_attribute("#result", "data-state") != "done"
    shot(t, "failed-target")

    # an attacker misspelt: no leftover weapon rows, and the close name offered
    t.page.fill("#attacker-unit", "Neofyte Hybrids")
    t.page.press("#attacker-unit", "Tab")
    t.page.wait_for_selector("#attacker-notes .error-text")
    assert "no unit named 'Neofyte Hybrids'" in notes(t, "#attacker-notes")
    assert weapon_rows(t) == []
    assert t.value("#attacker-name") == "attacker"
    shot(t, "failed-attacker")
    t.page.click("#attacker-notes button:has-text('Neophyte Hybrids')")
    wait_rows(t, "Hybrid firearm")
    assert t.value("#attacker-unit") == "Neophyte Hybrids"
    pick_target(t, "geq", "Cadian Shock Troops")
    press_calculate(t)
    check_result(t, live_server, models=10)


def test_a_result_is_marked_stale_the_moment_an_input_changes(
        screen: Screen, live_server: Any) -> None:
    t = screen
    t.goto("/")
    pick_attacker(t, "Neophyte Hybrids")
    pick_target(t, "meq", "Intercessor Squad")
    press_calculate(t)
    assert t.page.get_attribute("#result", "data-stale") is None
    edit(t)
    t.page.fill("#ctx-distance", "9")
    t.page.wait_for_selector("#result[data-stale=true]")
    assert t.page.get_attribute("#status", "data-kind") == "stale"
    assert "Calculate again" in notes(t, "#status")
    assert t.page.is_visible("#stale-banner")
    assert t.page.is_disabled("#pin")  # a stale result cannot be pinned
    shot(t, "stale")
    press_calculate(t)
    assert t.page.get_attribute("#result", "data-stale") is None
    assert t.page.is_enabled("#pin")
    scenario = check_result(t, live_server, models=5)
    assert scenario.context.distance == 9

    # ticking a rule in play is a change too
    edit(t)
    t.page.check('#effects input[data-effect="Coordinated Trap"]')
    t.page.wait_for_selector("#result[data-stale=true]")


def test_a_phase_and_a_rules_switch_keep_every_choice_still_valid(
        screen: Screen, live_server: Any) -> None:
    t = screen
    t.goto("/")
    pick_attacker(t, "Neophyte Hybrids")
    pick_target(t, "geq", "Cadian Shock Troops")
    set_weapon(t, "Hybrid firearm", 7)
    set_weapon(t, "Mining laser", 1)
    picked = [r for r in weapon_rows(t) if r[1]]
    assert picked == [("Hybrid firearm", True, "7"), ("Mining laser", True, "1")]
    # the 10th-only datasheet under the 11th rules: said so
    assert "has no 11th datasheet: its 10th datasheet is used" in notes(t, "#attacker-notes")

    t.page.select_option("#phase", "fight")
    wait_rows(t, "Chainsword")
    said = notes(t, "#attacker-notes")
    assert "Hybrid firearm ×7, Mining laser ×1 kept for the Shooting phase" in said
    press_calculate(t)
    fight = check_result(t, live_server, models=10)
    assert fight.phase == "fight"
    assert {w.name for w in fight.attacker.weapons} <= {
        "Chainsword", "Power weapon", "Close combat weapon"}
    shot(t, "phase-fight")
    edit(t)

    edit(t)
    t.page.select_option("#phase", "shooting")
    wait_rows(t, "Hybrid firearm")
    assert [r for r in weapon_rows(t) if r[1]] == picked  # back as they were

    t.page.select_option("#rules", "10th")
    t.page.wait_for_function(
        "() => !document.getElementById('attacker-notes').textContent.includes('no 11th')")
    assert [r for r in weapon_rows(t) if r[1]] == picked  # the same datasheet: all kept
    press_calculate(t)
    shooting = check_result(t, live_server, models=10)
    assert shooting.rules == "10th"
    assert [(w.name, w.count) for w in shooting.attacker.weapons] == [
        ("Hybrid firearm", 7), ("Mining laser", 1)]


@pytest.fixture(scope="module")
def full_server(calc_pool: Any) -> Iterator[LiveServer]:
    """The app over the default library (the seed pages and the bundled dataset), on the
    run's shared, patient calculation worker (``tests/conftest.py``)."""
    server = LiveServer(create_app(library=load_library, calc_pool=calc_pool))
    server.start()
    yield server
    server.stop()


def test_a_unit_is_offered_in_the_phase_it_has_weapons_for(
        browser: Any, full_server: LiveServer, artifacts: Path) -> None:
    """Aberrants (40kdc-data) carry melee weapons only: picked in the Shooting phase, the
    page switches to the Fight phase and marks Shooting as having no weapons."""
    for size in SIZES:
        t = Screen(browser, full_server, size, artifacts)
        try:
            t.goto("/")
            assert t.value("#phase") == "shooting"
            pick_attacker(t, "Aberrants")
            wait_rows(t, "Aberrant weapons")
            assert t.value("#phase") == "fight"
            assert t.page.text_content("#phase option[value=shooting]") == "Shooting (no weapons)"
            pick_target(t, "meq", "Intercessor Squad")
            press_calculate(t)
            scenario = check_result(t, full_server, models=5, library=load_library)
            assert scenario.phase == "fight"
            shot(t, "phase-offered")

            # asked for the Shooting phase anyway: no rows left over, and the way back
            edit(t)
            t.page.select_option("#phase", "shooting")
            t.page.wait_for_selector("#attacker-notes .error-text")
            assert "Aberrants has no ranged weapons" in notes(t, "#attacker-notes")
            assert weapon_rows(t) == []
            assert t.page.get_attribute("#result", "data-stale") == "true"
            t.page.click("#attacker-notes button:has-text('Use the Fight phase')")
            wait_rows(t, "Aberrant weapons")
            assert t.errors == []
        finally:
            t.page.close()


# --- units as fielded, rules and rolls -----------------------------------------------------


def test_the_model_count_stays_within_the_datasheet_and_wargear_is_shown(
        screen: Screen, live_server: Any) -> None:
    t = screen
    t.goto("/")
    pick_attacker(t, "Banehammer")  # 1 model; its datasheet words two wargear options
    t.page.wait_for_selector("#wargear:not([hidden])")
    assert "Twin heavy bolter" in t.page.inner_text("#wargear-controls")
    t.page.fill("#attacker-models", "3")
    t.page.press("#attacker-models", "Tab")
    t.page.wait_for_selector("#models-note:not([hidden])")
    assert "Banehammer has 1 model: 3 is not allowed, 1 used" in notes(t, "#models-note")
    assert t.value("#attacker-models") == "1"
    pick_attacker(t, "Neophyte Hybrids")
    t.page.wait_for_selector("#wargear", state="hidden")  # no options in its data
    t.page.fill("#attacker-models", "15")
    t.page.press("#attacker-models", "Tab")
    t.page.wait_for_function(
        "() => [...document.querySelectorAll('#weapons .f-count')].some(c => c.value === '15')")
    pick_target(t, "meq", "Intercessor Squad")
    press_calculate(t)
    scenario = check_result(t, live_server, models=5)
    assert [(w.name, w.count) for w in scenario.attacker.weapons] == [("Hybrid firearm", 15)]


def test_a_late_answer_never_writes_over_a_unit_typed_since(
        screen: Screen, live_server: Any) -> None:
    """A new model count asks the server for the unit again; when that answer comes
    after the player has typed another unit's name (and before they leave the field),
    it is dropped: the name typed stays, and leaving the field loads that unit. (It once
    put the old unit back, and leaving the field then changed nothing.)"""
    t = screen
    t.goto("/")
    pick_attacker(t, "Banehammer")
    t.page.wait_for_selector("#wargear:not([hidden])")
    held: list[Any] = []
    pattern = "**/api/units/Banehammer/attacker?*"
    # the answers held back until the name is typed
    t.page.route(pattern, lambda route: held.append(route))
    t.page.fill("#attacker-models", "3")
    t.page.press("#attacker-models", "Tab")
    t.page.wait_for_selector("#models-note:not([hidden])")
    while len(held) < 2:  # both phases asked
        t.page.wait_for_timeout(20)
    t.page.fill("#attacker-unit", "Neophyte Hybrids")
    for route in held:
        route.continue_()
    t.page.wait_for_load_state("networkidle")  # the old answers are in
    t.page.unroute(pattern)
    assert t.value("#attacker-unit") == "Neophyte Hybrids"
    t.page.press("#attacker-unit", "Tab")
    t.page.wait_for_function(
        "() => document.getElementById('attacker-name').value === 'Neophyte Hybrids'",
        polling=100)
    assert t.value("#attacker-unit") == "Neophyte Hybrids"


def test_a_leader_attached_offers_its_rule_and_changes_the_numbers(
        screen: Screen, live_server: Any) -> None:
    t = screen
    t.goto("/")
    pick_attacker(t, "Neophyte Hybrids")
    pick_target(t, "geq", "Cadian Shock Troops")
    t.page.wait_for_selector('#effects input[data-effect="Coordinated Trap"]')
    assert t.page.locator('#effects input[data-effect="Cult Demagogue"]').count() == 0
    assert "Cult Demagogue" in notes(t, "#effects-other")
    t.page.fill("#ctx-led-by", "Primus")
    t.page.wait_for_selector('#effects input[data-effect="Cult Demagogue"]')
    t.page.check('#effects input[data-effect="Cult Demagogue"]')
    press_calculate(t)
    led = check_result(t, live_server, models=10)
    assert led.context.led_by == ("Primus",)
    assert "Cult Demagogue" in led.effects
    assert "Rules applied: Cult Demagogue" in notes(t, "#notes")
    assert "led by Primus" in notes(t, "#choices")
    shot(t, "leader")


def test_the_rules_offered_are_the_chosen_detachments(screen: Screen, live_server: Any) -> None:
    t = screen
    t.goto("/")
    pick_attacker(t, "Neophyte Hybrids")
    pick_target(t, "geq", "Cadian Shock Troops")
    t.page.wait_for_selector('#effects input[data-effect="Integrated Tactics"]')
    t.page.check('#effects input[data-effect="Integrated Tactics"]')  # Brood Brother Auxilia
    t.page.select_option("#ctx-detachment", "Host of Ascension")
    t.page.wait_for_selector("#effects-dropped:not([hidden])")
    assert "Integrated Tactics (Brood Brother Auxilia)" in notes(t, "#effects-dropped")
    offered = t.page.eval_on_selector_all("#effects input[data-effect]",
                                          "els => els.map(e => e.dataset.effect)")
    checks = {e["name"]: e for e in httpx.post(
        live_server.url + "/api/effects/check", json=scenario_without_effects(t)).json()}
    assert offered and all(checks[n]["holds"] for n in offered)
    assert {checks[n]["source"] for n in offered} <= {"Host of Ascension", "Core",
                                                      "Neophyte Hybrids", "Primus"}
    press_calculate(t)
    scenario = check_result(t, live_server, models=10)
    assert scenario.effects == ()  # the rule of the other detachment was unticked


def scenario_without_effects(t: Screen) -> dict[str, Any]:
    press_calculate(t)
    plain, _, _ = prepare(scenario_in_url(t), load_seed_library())  # units as fielded
    doc: dict[str, Any] = json.loads(plain.model_dump_json())
    doc["effects"] = []
    edit(t)
    return doc


def test_a_leader_attached_to_the_target_joins_its_models(
        screen: Screen, live_server: Any) -> None:
    t = screen
    t.goto("/")
    pick_attacker(t, "Neophyte Hybrids")
    t.page.wait_for_selector("#attacker-notes li.leaders")
    assert "Can be led by: Primus" in notes(t, "#attacker-notes")
    assert t.page.eval_on_selector_all("#attacker-leaders option",
                                       "o => o.map(x => x.value)") == ["Primus"]
    pick_target(t, "Neophyte Hybrids", "Neophyte Hybrids")
    t.page.fill("#target-leader", "Primus")
    t.page.press("#target-leader", "Tab")
    t.page.wait_for_function(
        "() => document.getElementById('target-name').value === 'Neophyte Hybrids led by Primus'")
    assert t.page.eval_on_selector_all("#target-groups > *", "g => g.length") == 3
    press_calculate(t)
    scenario = check_result(t, live_server, models=11)
    primus = load_seed_library().target("Primus").models[0]
    assert scenario.target.models[-1] == primus  # a CHARACTER group of its own
    assert [g.name for g in scenario.target.models] == [
        "Neophyte Leader", "Neophyte Hybrid", "Primus"]
    shot(t, "target-leader")

    edit(t)  # detached again: its models go
    t.page.fill("#target-leader", "")
    t.page.press("#target-leader", "Tab")
    t.page.wait_for_function(
        "() => document.getElementById('target-name').value === 'Neophyte Hybrids'")
    assert t.page.eval_on_selector_all("#target-groups > *", "g => g.length") == 2


def test_re_rolls_crits_and_granted_abilities_are_controls(
        screen: Screen, live_server: Any) -> None:
    t = screen
    t.goto("/")
    pick_attacker(t, "Neophyte Hybrids")
    pick_target(t, "meq", "Intercessor Squad")
    set_weapon(t, "Mining laser", 1)
    open_rolls(t)
    t.page.select_option("#mod-reroll-hit", "ones")
    t.page.select_option("#mod-reroll-wound", "failed")
    t.page.select_option("#mod-crit-hit", "5")
    t.page.select_option("#mod-reroll-save", "ones")
    t.page.select_option("#mod-reroll-damage", "any")
    t.page.select_option("#scope-damage", "Mining laser")
    t.page.click("#add-grant")
    t.page.fill("#grants .f-grant", "Lethal Hits")
    t.page.select_option("#grants .f-grant-scope", "Hybrid firearm")
    press_calculate(t)
    scenario = check_result(t, live_server, models=5)
    plain = [e.model_dump(exclude_none=True) for e in scenario.effects if not isinstance(e, str)]
    assert plain == [
        {"critical_hit_on": 5},
        {"reroll": "hit", "which": "ones"},
        {"reroll": "wound", "which": "failed"},
        {"reroll": "save", "which": "ones"},
        {"reroll": "damage", "which": "any", "weapons": ("Mining laser",)},
        {"grant": {"kind": "flag", "name": "Lethal Hits"}, "weapons": ("Hybrid firearm",)},
    ]
    stages = notes(t, "#stages")
    assert "re-roll" in stages
    words = notes(t, "#choices")
    assert "re-roll hits: 1s" in words and "grants Lethal Hits (Hybrid firearm)" in words
    shot(t, "rolls")


def test_a_blank_distance_says_rapid_fire_is_not_counted(screen: Screen, live_server: Any) -> None:
    t = screen
    t.goto("/")
    pick_attacker(t, "Neophyte Hybrids")  # Hybrid firearm: Rapid Fire 1
    t.page.wait_for_selector("#distance-note:not([hidden])")
    assert "Rapid Fire" in notes(t, "#distance-note")
    press_calculate(t)
    assert "Distance is blank: Rapid Fire bonuses are not counted" in notes(t, "#notes")
    check_result(t, live_server, models=5)
    edit(t)
    t.page.select_option("#ctx-within_half_range", "yes")
    t.page.wait_for_selector("#distance-note[hidden]", state="attached")
    press_calculate(t)
    near = check_result(t, live_server, models=5)
    assert near.context.within_half_range is True
    assert "Distance is blank" not in notes(t, "#notes")


# --- compare and share ---------------------------------------------------------------------


def test_compare_pins_are_labelled_by_what_differs(screen: Screen, live_server: Any) -> None:
    t = screen
    t.goto("/")
    pick_attacker(t, "Neophyte Hybrids")
    pick_target(t, "meq", "Intercessor Squad")
    for setup in ("", "cover", "distance"):
        edit(t)
        if setup == "cover":
            t.page.check("#ctx-cover")
        elif setup == "distance":
            t.page.uncheck("#ctx-cover")
            t.page.fill("#ctx-distance", "9")
        press_calculate(t)
        t.page.click("#pin")
    t.page.wait_for_function("() => document.querySelectorAll('#pins li').length === 3")
    labels = t.page.eval_on_selector_all(".pin-name", "l => l.map(x => x.value)")
    assert labels == ["A: no distance · not in cover", "B: no distance · target in cover",
                      "C: 9″ away · not in cover"]
    t.page.fill("#pins li:nth-child(3) .pin-name", "rapid fire range")
    t.page.press("#pins li:nth-child(3) .pin-name", "Enter")
    t.page.wait_for_function(
        "() => [...document.querySelectorAll('#chart-compare .legend li')]"
        ".map(l => l.textContent).join('|') === "
        "'A: no distance · not in cover|B: no distance · target in cover|rapid fire range'")
    shot(t, "compare")


#: Every control of the form that a link must bring back.
CONTROLS = """() => [...document.querySelectorAll(
    '#scenario-form input, #scenario-form select, #scenario-form textarea')]
    .filter(e => !e.closest('#weapons'))
    .map(e => [e.id || e.className + ':' + e.getAttribute('aria-label'),
               e.type === 'checkbox' ? String(e.checked) : e.value])"""


def test_a_share_link_brings_back_every_control(screen: Screen, browser: Any,
                                                live_server: Any) -> None:
    t = screen
    t.goto("/")
    pick_attacker(t, "Neophyte Hybrids")
    pick_target(t, "meq", "Intercessor Squad")
    set_weapon(t, "Hybrid firearm", 8)
    set_weapon(t, "Webber", 2)
    t.page.fill("#ctx-led-by", "Primus")
    t.page.fill("#ctx-distance", "12")
    t.page.select_option("#ctx-within_half_range", "no")
    for flag in ("remained_stationary", "cover", "plunging_fire", "target_engaged"):
        t.page.check(f"#ctx-{flag}")
    t.page.select_option("#ctx-indirect", "spotted")
    open_rolls(t)
    for select, value in (("mod-hit", "1"), ("mod-wound", "-1"), ("mod-ap", "-1"),
                          ("mod-save", "-1"), ("mod-damage", "1"), ("mod-strength", "1"),
                          ("mod-attacks", "1"), ("mod-crit-wound", "5"),
                          ("mod-reroll-wound", "ones"), ("scope-wound", "Webber")):
        t.page.select_option("#" + select, value)
    t.page.click("#add-grant")
    t.page.fill("#grants .f-grant", "Sustained Hits 1")
    t.page.wait_for_selector('#effects input[data-effect="Cult Demagogue"]')
    t.page.check('#effects input[data-effect="Cult Demagogue"]')
    t.page.select_option("#ctx-detachment", "Host of Ascension")
    t.page.wait_for_selector('#effects input[data-effect="Integrated Tactics"]', state="detached")
    press_calculate(t)
    sent = scenario_in_url(t)
    assert sent["context"]["detachment"] == "Host of Ascension"
    assert sent["context"]["indirect"] == "spotted" and sent["context"]["plunging_fire"]
    check_result(t, live_server, models=5)
    edit(t)
    before = t.page.evaluate(CONTROLS)

    other = Screen(browser, live_server, t.size, t.shots)
    try:
        other.page.goto(t.page.url)
        other.page.wait_for_selector("#result[data-state=done]")
        other.page.wait_for_selector('#effects input[data-effect="Cult Demagogue"]:checked',
                                    state="attached")
        assert scenario_in_url(other) == sent
        check_result(other, live_server, models=5)
        edit(other)
        after = other.page.evaluate(CONTROLS)
        # the link holds what was calculated: the ticked rows (unticked ones are not sent)
        ticked = [n for n, u, _ in weapon_rows(t) if u]
        assert [n for n, _, _ in weapon_rows(other)] == ticked
        # and every other control as it was (the look-up fields are the units' names)
        skip = ("attacker-unit", "attacker-models", "target-unit")
        def kept(pairs: list[list[str]]) -> list[tuple[str, str]]:
            return [(k, v) for k, v in pairs if k not in skip]
        assert kept(after) == kept(before)
        assert ("f-grant:null", "Sustained Hits 1") in kept(after)
        assert ("scope-wound", "Webber") in kept(after)
        other.shot(f"table-share-reloaded-{t.size}")
        assert other.errors == []
    finally:
        other.page.close()


# --- phone first ---------------------------------------------------------------------------

#: Every visible control: its text size and the box a finger taps (a checkbox's label).
MEASURE = """() => [...document.querySelectorAll(
    'input, select, textarea, button, summary, header nav a, .brand')]
  .filter(e => e.type !== 'hidden' && e.offsetParent !== null)
  .map(e => {
    const box = (e.type === 'checkbox' ? e.closest('label') || e : e).getBoundingClientRect();
    return [e.id || e.className || e.textContent.trim(), e.tagName,
            parseFloat(getComputedStyle(e).fontSize), box.width, box.height];
  })"""


def test_fields_are_16px_and_tap_targets_44px(screen: Screen) -> None:
    t = screen
    t.goto("/")
    pick_attacker(t, "Neophyte Hybrids")
    pick_target(t, "meq", "Intercessor Squad")
    t.page.wait_for_selector("#effects input[data-effect]")
    t.page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
    t.page.click("#add-grant")
    found = t.page.evaluate(MEASURE)
    assert len(found) > 60
    small_text = [(n, size) for n, tag, size, _, _ in found
                  if tag in ("INPUT", "SELECT", "TEXTAREA") and size < 16]
    assert small_text == []
    small_target = [(n, w, h) for n, _, _, w, h in found if w < 44 or h < 44]
    assert small_target == []
    assert t.page.evaluate("document.documentElement.scrollWidth") <= SIZES[t.size]["width"]


def test_the_result_is_on_one_screen_after_calculate(screen: Screen, live_server: Any) -> None:
    t = screen
    t.goto("/")
    pick_attacker(t, "Neophyte Hybrids")
    pick_target(t, "geq", "Cadian Shock Troops")
    press_calculate(t)
    t.page.wait_for_timeout(300)  # the scroll into view
    height = SIZES[t.size]["height"]
    for card in ("damage", "models_destroyed", "p_unit_destroyed"):
        box = t.page.eval_on_selector(
            f'#summary .card[data-key="{card}"]',
            "c => { const r = c.getBoundingClientRect(); return [r.top, r.bottom]; }")
        assert box[0] >= 0 and box[1] <= height, (card, box)
    if t.size == "phone":
        assert t.page.is_visible("#form-summary")  # the form folded to one line
        assert "Neophyte Hybrids" in notes(t, "#form-summary-text")
        assert not t.page.is_visible("#weapons")
    # median and the 10-90% band, as Python computes them from the same distribution
    result = api_result(live_server, scenario_in_url(t))
    for key, dist in (("damage", result.damage), ("models_destroyed", result.models_destroyed)):
        shown = t.page.eval_on_selector(
            f'#summary .card[data-key="{key}"]',
            "c => [c.dataset.median, c.dataset.low, c.dataset.high].map(Number)")
        assert shown == [quantile(dist.pmf, q) for q in (0.5, 0.1, 0.9)]
    shot(t, "one-screen")


def quantile(pmf: tuple[float, ...], q: float) -> int:
    """The smallest value whose probability of not being exceeded reaches ``q``."""
    total = 0.0
    for x, p in enumerate(pmf):
        total += p
        if total >= q:
            return x
    return len(pmf) - 1


def test_the_calculator_speaks_as_players_do(screen: Screen) -> None:
    """No file names, spec references or field paths on the page, whatever is picked."""
    t = screen
    t.goto("/")
    pick_attacker(t, "Primus")
    pick_target(t, "Banehammer", "Banehammer")
    t.page.wait_for_selector("#effects input[data-effect]")
    t.page.click("#effects-other-box summary")
    press_calculate(t)
    text = str(t.page.evaluate("document.body.innerText"))
    for internal in (".txt", "reference_facts", "§", "context.", "attacker.", "target."):
        assert internal not in text, internal
    assert "Powered by 40kdc-data" in text


# --- units as fielded: wargear and a leader's models -------------------------------------


def check_fielded(t: Tab, server: Any, models: int) -> tuple[dict[str, Any], Any]:
    """The page sent a unit reference; its numbers are the API's and ``tactica.calculate``'s
    for that reference over the same library."""
    sent = scenario_in_url(t)
    assert "unit" in sent["attacker"] and "weapons" not in sent["attacker"]
    result = api_result(server, sent)
    assert result == calculate(sent, load_library())
    assert result.resolved is not None
    assert_page_shows(t, result, models=models)
    return sent, result


def choose_wargear(t: Tab, option: str, choice: str, count: int = 1) -> None:
    """Take ``choice`` in the wargear control whose words contain ``option``."""
    row = t.page.locator(".wg-option", has_text=option).first
    row.locator(".wg-count").fill(str(count))
    row.locator(".wg-choice").select_option(choice)
    t.page.wait_for_selector("#fielded-note:not([hidden])")


def test_a_wargear_choice_changes_the_numbers_and_the_link_keeps_it(
        browser: Any, full_server: LiveServer, artifacts: Path) -> None:
    for size in SIZES:
        t = Screen(browser, full_server, size, artifacts)
        try:
            t.goto("/")
            pick_attacker(t, "Intercessor Squad")
            t.page.wait_for_selector("#wargear:not([hidden]) .wg-option")
            pick_target(t, "geq", "Cadian Shock Troops")
            press_calculate(t)
            before = api_result(full_server, scenario_in_url(t))
            edit(t)

            # more models than the option allows: the core's words next to the control
            choose_wargear(t, "Astartes grenade launcher", "Astartes grenade launcher", 2)
            t.page.wait_for_selector(".wg-error:not([hidden])")
            error = t.page.locator(".wg-option", has_text="Astartes grenade launcher").first
            assert "at most 1 Astartes grenade launcher in 5 models" in error.inner_text()
            shot(t, "wargear-refused")
            t.page.locator(".wg-option", has_text="Astartes grenade launcher").first \
                .locator(".wg-choice").select_option("")

            choose_wargear(t, "Bolt Rifle can be replaced", "Plasma pistol")
            t.page.wait_for_function(
                "() => document.getElementById('wargear-loadout').textContent.includes('Plasma')")
            assert t.page.get_attribute("#result", "data-stale") == "true"
            press_calculate(t)
            sent, result = check_fielded(t, full_server, models=10)
            assert sent["attacker"]["wargear"] == ["Plasma pistol:1"]
            assert result.damage != before.damage  # the choice changed the numbers
            assert result.resolved is not None  # the sergeant carries it: 4 rifles of 5
            assert any("Plasma pistol" in m for m in result.resolved.attacker_models)
            assert sum(w.count for w in result.resolved.attacker if "Bolt Rifle" in w.name) == 4
            shown = notes(t, "#fielded")
            assert "Plasma pistol" in shown and "Weapons used:" in shown
            shot(t, "wargear-chosen")

            # the share link: the same choice in the control, the same numbers
            url = t.page.url
            again = Screen(browser, full_server, size, artifacts)
            try:
                again.page.goto(url)
                again.page.wait_for_selector("#result[data-state=done]")
                assert scenario_in_url(again) == sent
                row = again.page.locator(".wg-option", has_text="Bolt Rifle can be replaced").first
                assert row.locator(".wg-choice").input_value() == "Plasma pistol"
                assert api_result(full_server, scenario_in_url(again)) == result
                assert_page_shows(again, result, models=10)
                shot(again, "wargear-link")
            finally:
                again.page.close()
            assert again.errors == []
        finally:
            t.page.close()
        assert t.errors == []


def test_a_leader_on_the_attacker_adds_its_models_and_weapons(
        browser: Any, full_server: LiveServer, artifacts: Path) -> None:
    for size in SIZES:
        t = Screen(browser, full_server, size, artifacts)
        try:
            t.goto("/")
            pick_attacker(t, "Intercessor Squad")
            t.page.wait_for_function(
                "() => [...document.querySelectorAll('#attacker-leaders option')]"
                ".some(o => o.value === 'Lieutenant')")
            pick_target(t, "geq", "Cadian Shock Troops")
            press_calculate(t)
            alone = api_result(full_server, scenario_in_url(t))
            edit(t)
            t.page.fill("#ctx-led-by", "Lieutenant")
            t.page.press("#ctx-led-by", "Tab")
            t.page.check("#attacker-leader-fielded")
            t.page.wait_for_selector("#fielded-note:not([hidden])")
            press_calculate(t)
            sent, result = check_fielded(t, full_server, models=10)
            assert sent["attacker"]["led_by"] == ["Lieutenant"]
            assert result.resolved is not None
            assert any("Lieutenant" in m for m in result.resolved.attacker_models)
            assert result.damage.mean > alone.damage.mean  # its weapons joined the unit
            assert "Lieutenant" in notes(t, "#fielded")
            shot(t, "leader-fielded")
            url = t.page.url
            t.page.goto("about:blank")
            t.page.goto(url)  # the link keeps the leader's models
            t.page.wait_for_selector("#result[data-state=done]")
            assert t.page.is_checked("#attacker-leader-fielded")
            assert scenario_in_url(t) == sent
        finally:
            t.page.close()
        assert t.errors == []


# --- one answer from every door: the page sends the units ----------------------------------


def sent_is_calculated(t: Tab, server: Any) -> tuple[dict[str, Any], Any]:
    """The page's request names library units, and its numbers are the calculator's own
    answer for that request (the door adds nothing of its own)."""
    sent = scenario_in_url(t)
    result = api_result(server, sent)
    assert result == calculate(sent, load_library())
    return sent, result


def test_the_page_sends_units_and_the_calculator_picks_their_profiles(
        browser: Any, full_server: LiveServer, artifacts: Path) -> None:
    t = Screen(browser, full_server, "desktop", artifacts)
    try:
        t.goto("/")
        pick_attacker(t, "Intercessor Squad")
        t.page.wait_for_selector("#profiles-box:not([hidden]) select.profile")
        pick_target(t, "Termagants", "Termagants")
        press_calculate(t)
        sent, result = sent_is_calculated(t, full_server)
        assert sent["attacker"] == {"unit": "Intercessor Squad", "models": 5, "wargear": [],
                                    "led_by": [], "profiles": []}
        assert sent["target"]["unit"] == "Termagants"
        # the command line's question gives the same numbers (no profile pre-ticked here)
        cli = calculate({"attacker": {"unit": "Intercessor Squad"},
                         "target": {"unit": "Termagants",
                                    "models": sent["target"]["models"]}}, load_library())
        assert result.damage == cli.damage and result.models_destroyed == cli.models_destroyed
        assert result.resolved is not None
        fired = {w.name for w in result.resolved.attacker}
        rifle = t.page.locator('select.profile[data-weapon="Bolt Rifle"]')
        offered = rifle.locator("option").all_text_contents()[1:]
        (used,) = fired & set(offered)  # one profile of the rifle, the one shown as used
        assert t.page.text_content('.picked[data-weapon="Bolt Rifle"]') == f"used: {used}"
        assert [w[0] for w in weapon_rows(t)] == [w.name for w in result.resolved.attacker]

        # the other profile chosen: that one alone fires (a weapon has one at a time)
        other = next(n for n in offered if n != used)
        rifle.select_option(other)
        assert t.page.get_attribute("#result", "data-stale") == "true"
        press_calculate(t)
        sent, result = sent_is_calculated(t, full_server)
        assert sent["attacker"]["profiles"] == [other]
        assert result.resolved is not None
        names = {w.name for w in result.resolved.attacker}
        assert other in names and used not in names

        # a new model count: the core fields the unit again, nothing left of the old split
        t.page.fill("#attacker-models", "10")
        t.page.press("#attacker-models", "Tab")
        press_calculate(t)
        sent, result = sent_is_calculated(t, full_server)
        assert sent["attacker"]["models"] == 10
        assert result.resolved is not None
        assert sum(int(m.split()[0]) for m in result.resolved.attacker_models) == 10
        carry = sum(int(m.split()[0]) for m in result.resolved.attacker_models
                    if "Bolt Rifle" in m)  # every model that carries one fires it
        assert sum(w.count for w in result.resolved.attacker if "Bolt Rifle" in w.name) == carry

        # a unit typed and Enter pressed at once: never the earlier unit's result
        t.page.fill("#attacker-unit", "Hellblaster Squad")
        assert t.page.get_attribute("#result", "data-stale") == "true"
        t.page.press("#attacker-unit", "Enter")
        t.page.wait_for_function(
            "() => document.getElementById('result').dataset.state === 'done' && "
            "location.hash.length > 3 && document.getElementById('attacker-name').value "
            "=== 'Hellblaster Squad'", timeout=90_000)
        sent, result = sent_is_calculated(t, full_server)
        assert sent["attacker"]["unit"] == "Hellblaster Squad"
        assert t.page.get_attribute("#result", "data-stale") is None

        # the link brings back the library units and their choices
        again = Screen(browser, full_server, "desktop", artifacts)
        try:
            again.goto(t.page.url.removeprefix(full_server.url))
            again.page.wait_for_selector("#result[data-state=done]", timeout=90_000)
            assert scenario_in_url(again) == sent
            assert again.value("#attacker-unit") == "Hellblaster Squad"
            assert again.value("#target-unit") == "Termagants"
            assert api_result(full_server, scenario_in_url(again)) == result
        finally:
            again.page.close()
        assert again.errors == []
    finally:
        t.page.close()
    assert t.errors == []
