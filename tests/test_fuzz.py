"""Fuzzing (hypothesis, fixed seeds, bounded examples): generated scenarios, mutated list
files, mutated seed pages and mutated BSData catalogues (the repository's own small
fixtures) give a result or the project's own error with its place,
never another exception; every distribution sums to 1 and holds no NaN.

``derandomize=True`` makes every run draw the same examples (no flaky CI); no example
has a deadline, and nothing here measures time.
"""

from __future__ import annotations

import copy
import json
import math
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

import tactica
from tactica.army.formats import RosterParseError, UnsupportedFormatError, parse_roster
from tactica.combat import calculate
from tactica.combat.contract.scenario import ScenarioError
from tactica.errors import DocumentError
from tactica.library import load_seed_library
from tactica.loaders.bsdata import load_bsdata
from tactica.loaders.errors import LoadError
from tactica.loaders.seed_page import load_seed_page
from volume import sampled

FUZZ = settings(derandomize=True, max_examples=60, deadline=None,
                suppress_health_check=[HealthCheck.too_slow])

GOOD_DICE = ["1", "2", "3", "D3", "D6", "D6+1", "2D6", "D3+3"]
BAD_DICE = ["0", "D7", "x", "D６", "-1"]
GOOD_ABILITIES = ["Lethal Hits", "Sustained Hits 1", "Sustained Hits D3", "Devastating Wounds",
                  "Twin-linked", "Torrent", "Melta 2", "Rapid Fire 1", "Blast",
                  "Anti-Infantry 4+", "Precision", "Ignores Cover", "Heavy", "Hazardous",
                  "Lance"]
BAD_ABILITIES = ["Melta 0", "[/x]", "Sustained Hits -1"]


def _scenario(dice: list[str], abilities: list[str], counts: tuple[int, int],
              skills: tuple[int, int], rules: list[str], phases: list[str]) -> st.SearchStrategy:
    weapon = st.fixed_dictionaries({
        "name": st.text(max_size=8), "count": st.integers(*counts),
        "A": st.sampled_from(dice), "skill": st.integers(*skills), "S": st.integers(1, 14),
        "AP": st.integers(-4, 0), "D": st.sampled_from(dice),
        "abilities": st.lists(st.sampled_from(abilities), max_size=3, unique=True)})
    models = st.fixed_dictionaries({
        "count": st.integers(*counts), "T": st.integers(1, 12), "Sv": st.integers(2, 6),
        "W": st.integers(1, 12)},
        optional={"invuln": st.integers(2, 6), "fnp": st.integers(2, 6)})
    return st.fixed_dictionaries({
        "attacker": st.fixed_dictionaries({"weapons": st.lists(weapon, min_size=1,
                                                                max_size=2)}),
        "target": st.fixed_dictionaries({"models": st.lists(models, min_size=1, max_size=2)}),
    }, optional={"rules": st.sampled_from(rules), "phase": st.sampled_from(phases)})


#: Mostly valid scenarios (so that results are checked), and some with bad values.
SCENARIO = st.one_of(
    _scenario(GOOD_DICE, GOOD_ABILITIES, (1, 5), (2, 6), ["10th", "11th"],
              ["shooting", "fight"]),
    _scenario(GOOD_DICE, GOOD_ABILITIES, (1, 5), (2, 6), ["10th", "11th"],
              ["shooting", "fight"]),
    _scenario(GOOD_DICE + BAD_DICE, GOOD_ABILITIES + BAD_ABILITIES, (-1, 5), (1, 7),
              ["10th", "11th", "9th"], ["shooting", "fight", "melee"]))


def _sound(pmf: tuple[float, ...]) -> None:
    assert not any(math.isnan(p) for p in pmf)
    assert math.isclose(sum(pmf), 1.0, abs_tol=1e-9)


@pytest.mark.slow
@FUZZ
@given(SCENARIO)
def test_a_generated_scenario_gives_a_sound_result_or_a_located_refusal(doc: dict) -> None:
    try:
        result = tactica.calculate(doc)
    except DocumentError as exc:  # tactica's own, never pydantic's report (issue 46)
        assert not isinstance(exc, ValidationError)
        assert exc.loc and str(exc).startswith(exc.loc) and "\n" not in str(exc)
        return
    except ScenarioError as exc:
        assert str(exc) and "\n" not in str(exc)
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
    with pytest.raises(ValidationError):  # the engine's own contract
        calculate({"attacker": {"weapons": [{"A": "D６", "skill": 3, "S": 4, "D": "1"}]},
                   "target": {"models": [{"T": 4, "Sv": 3, "W": 1}]}})
    with pytest.raises(DocumentError, match=r"^attacker\.weapons\[0\]\.A: "):  # the API's
        tactica.calculate({"attacker": {"weapons": [{"A": "D６", "skill": 3, "S": 4,
                                                     "D": "1"}]},
                           "target": {"models": [{"T": 4, "Sv": 3, "W": 1}]}})


CATALOGUES = Path(__file__).resolve().parent / "fixtures" / "bsdata"
CATALOGUE = json.loads((CATALOGUES / "Xenos - Testers.json").read_text(encoding="utf-8"))


def _paths(node: object, path: tuple[str | int, ...] = ()) -> list[tuple[str | int, ...]]:
    out = [path] if path else []
    if isinstance(node, dict):
        for key, value in node.items():
            out += _paths(value, (*path, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            out += _paths(value, (*path, i))
    return out


CATALOGUE_PATHS = _paths(CATALOGUE)
BAD_VALUES = st.sampled_from([False, None, "x", -5, [], {}, 10**30, "\ud800", [1], {"id": 1}])


@FUZZ
@given(st.lists(st.tuples(st.sampled_from(CATALOGUE_PATHS), BAD_VALUES), min_size=1,
                max_size=3))
def test_a_mutated_catalogue_loads_or_is_refused_naming_the_file(
        changes: list[tuple[tuple[str | int, ...], object]]) -> None:
    doc = copy.deepcopy(CATALOGUE)
    for path, value in changes:
        node: Any = doc
        try:
            for key in path[:-1]:
                node = node[key]
            node[path[-1]] = value
        except (KeyError, IndexError, TypeError):
            continue  # an earlier change removed this path
    with tempfile.TemporaryDirectory() as folder:
        for other in CATALOGUES.glob("*.json"):
            if other.name != "Xenos - Testers.json":
                shutil.copy(other, Path(folder) / other.name)
        target = Path(folder) / "Xenos - Testers.json"
        target.write_text(json.dumps(doc), encoding="utf-8")
        try:
            source = load_bsdata([target])
            for sheet in source.datasheets():
                assert sheet.name
        except LoadError as exc:
            assert exc.source  # the file is named


# --- the default run's samples (tests/volume.py): each property below runs a few
# dozen examples by default and its full count as its ``_at_volume`` twin (slow) ---
(test_a_mutated_list_is_read_or_refused_at_a_line,
 test_a_mutated_list_is_read_or_refused_at_a_line_at_volume) = sampled(
    test_a_mutated_list_is_read_or_refused_at_a_line, 20)
(test_a_mutated_seed_page_is_read_or_refused_at_a_line,
 test_a_mutated_seed_page_is_read_or_refused_at_a_line_at_volume) = sampled(
    test_a_mutated_seed_page_is_read_or_refused_at_a_line, 20)
(test_a_mutated_catalogue_loads_or_is_refused_naming_the_file,
 test_a_mutated_catalogue_loads_or_is_refused_naming_the_file_at_volume) = sampled(
    test_a_mutated_catalogue_loads_or_is_refused_naming_the_file, 20)
