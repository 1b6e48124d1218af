"""Fuzzing (hypothesis, fixed seeds, bounded examples): generated scenarios, mutated list
files and mutated seed pages give a result or the project's own error with its place,
never another exception; every distribution sums to 1 and holds no NaN.

``derandomize=True`` makes every run draw the same examples (no flaky CI); no example
has a deadline, and nothing here measures time.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from tactica.army.formats import RosterParseError, UnsupportedFormatError, parse_roster
from tactica.combat import calculate
from tactica.combat.scenario import ScenarioError
from tactica.library import load_seed_library
from tactica.loaders.errors import LoadError
from tactica.loaders.seed_page import load_seed_page

FUZZ = settings(derandomize=True, max_examples=60, deadline=None,
                suppress_health_check=[HealthCheck.too_slow])

DICE = st.sampled_from(["1", "2", "3", "D3", "D6", "D6+1", "2D6", "D3+3", "0", "D7", "x",
                        "D６", "-1"])
ABILITIES = st.lists(st.sampled_from([
    "Lethal Hits", "Sustained Hits 1", "Sustained Hits D3", "Devastating Wounds", "Twin-linked",
    "Torrent", "Melta 2", "Melta 0", "Rapid Fire 1", "Blast", "Anti-Infantry 4+", "Precision",
    "Ignores Cover", "Heavy", "Hazardous", "[/x]", "Lance"]), max_size=3, unique=True)
WEAPON = st.fixed_dictionaries({
    "name": st.text(max_size=8), "count": st.integers(-1, 6), "A": DICE,
    "skill": st.integers(1, 7), "S": st.integers(0, 14), "AP": st.integers(-4, 1),
    "D": DICE, "abilities": ABILITIES})
MODELS = st.fixed_dictionaries({
    "count": st.integers(0, 6), "T": st.integers(1, 12), "Sv": st.integers(2, 7),
    "W": st.integers(1, 12)}, optional={"invuln": st.integers(2, 6), "fnp": st.integers(2, 7)})
SCENARIO = st.fixed_dictionaries({
    "attacker": st.fixed_dictionaries({"weapons": st.lists(WEAPON, min_size=1, max_size=2)}),
    "target": st.fixed_dictionaries({"models": st.lists(MODELS, min_size=1, max_size=2)}),
}, optional={"rules": st.sampled_from(["10th", "11th", "9th"]),
             "phase": st.sampled_from(["shooting", "fight", "melee"])})


def _sound(pmf: tuple[float, ...]) -> None:
    assert not any(math.isnan(p) for p in pmf)
    assert math.isclose(sum(pmf), 1.0, abs_tol=1e-9)


@FUZZ
@given(SCENARIO)
def test_a_generated_scenario_gives_a_sound_result_or_a_located_refusal(doc: dict) -> None:
    try:
        result = calculate(doc)
    except ValidationError as exc:
        assert all(e["loc"] for e in exc.errors())  # each refusal names its field
        return
    except ScenarioError as exc:
        assert str(exc)
        return
    for dist in (result.attacks, result.hits, result.wounds, result.unsaved, result.damage,
                 result.models_destroyed):
        _sound(dist.pmf)
        assert not math.isnan(dist.mean)
    assert 0.0 <= result.p_unit_destroyed <= 1.0 + 1e-12


LIST = (Path(__file__).resolve().parent / "army" / "fixtures" / "host_of_ascension.txt")
LIST_LINES = LIST.read_text(encoding="utf-8").splitlines()
EDIT = st.tuples(st.sampled_from(["delete", "duplicate", "replace", "indent"]),
                 st.integers(0, len(LIST_LINES) - 1),
                 st.sampled_from(["", "• 1x [/x]", "• 10000000000000000000000x Gun",
                                  "Primus (85 points)", "• Enhancement: ", "+++", "•",
                                  "• Attached as: Bodyguard", "\ud800", "Attached Unit 9"]))
_SEEDS = load_seed_library()


def _edit(lines: list[str], edit: tuple[str, int, str]) -> list[str]:
    kind, i, text = edit
    i %= max(1, len(lines))
    if not lines:
        return lines
    if kind == "delete":
        return lines[:i] + lines[i + 1:]
    if kind == "duplicate":
        return lines[:i + 1] + lines[i:]
    if kind == "indent":
        return [*lines[:i], "    " + lines[i], *lines[i + 1:]]
    return [*lines[:i], text, *lines[i + 1:]]


@FUZZ
@given(st.lists(EDIT, min_size=1, max_size=4))
def test_a_mutated_list_is_read_or_refused_at_a_line(edits: list[tuple[str, int, str]]) -> None:
    lines = list(LIST_LINES)
    for edit in edits:
        lines = _edit(lines, edit)
    try:
        roster = parse_roster("\n".join(lines), file="l.txt", library=_SEEDS)
    except RosterParseError as exc:
        assert exc.line is not None or exc.where is not None
        return
    except UnsupportedFormatError:
        return
    assert all(u.name for u in roster.units)


SEEDS = sorted((Path(__file__).resolve().parents[1] / "src" / "tactica" / "data" / "seeds")
               .glob("*.txt"))


@FUZZ
@given(st.sampled_from(SEEDS), st.lists(EDIT, min_size=1, max_size=3))
def test_a_mutated_seed_page_is_read_or_refused_at_a_line(
        path: Path, edits: list[tuple[str, int, str]]) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    for edit in edits:
        lines = _edit(lines, edit)
    try:
        load_seed_page(path.name, "\n".join(lines))
    except LoadError as exc:
        assert exc.source == path.name
        assert exc.line is not None or exc.text


def test_the_fuzzed_inputs_reach_both_outcomes() -> None:
    """The strategies are not hollow: the bolt rifles read, a malformed one is refused."""
    ok = calculate({"attacker": {"weapons": [{"A": "1", "skill": 3, "S": 4, "D": "1"}]},
                    "target": {"models": [{"T": 4, "Sv": 3, "W": 1}]}})
    _sound(ok.damage.pmf)
    with pytest.raises(ValidationError):
        calculate({"attacker": {"weapons": [{"A": "D６", "skill": 3, "S": 4, "D": "1"}]},
                   "target": {"models": [{"T": 4, "Sv": 3, "W": 1}]}})
