"""The property suite of issue 26: whatever comes in — a scenario (valid but extreme,
type-confused, odd text, deeply nested), a sequence, a unit reference with odd picks, a
list file in each format, command-line arguments, an HTTP request — the answer is a
result whose distributions sum to 1 and serialise to JSON, or the project's own error
(a ``ValueError`` or ``LookupError``) in one line.

Fast by default (``derandomize``: the same few examples every run, no deadline); the
long run, fresh random examples stopping at the first failure and shrinking it:
``TACTICA_FUZZ_EXAMPLES=3000 python -m pytest tests/fuzz -m fuzz``; the same strategies
counted rather than stopped (every outcome tallied, failing inputs written out, one input
kind at a time): ``benchmarks/fuzz_run.py``. Shrunk failures are kept as explicit cases in
``test_regressions.py``. Time is never asserted (the size model's bound is measured by
``benchmarks/bench_bounds.py``).
"""

from __future__ import annotations

import json
import math
import os
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError
from typer.testing import CliRunner

import tactica
from tactica.army.formats import parse_roster
from tactica.errors import one_line
from tactica.library import load_seed_library
from volume import sampled

pytestmark = pytest.mark.fuzz

EXAMPLES = int(os.environ.get("TACTICA_FUZZ_EXAMPLES", "25"))
FUZZ = settings(derandomize=EXAMPLES <= 25, max_examples=EXAMPLES, deadline=None,
                database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

DICE = ["1", "3", "6", "D3", "D6", "2D6", "D6+1", "2D6+6", "3D6", "6D6", "10D3"]
ABILITIES = ["Lethal Hits", "Sustained Hits 1", "Sustained Hits 2", "Sustained Hits D3",
             "Devastating Wounds", "Twin-linked", "Torrent", "Melta 2", "Rapid Fire D6",
             "Rapid Fire 2", "Blast", "Anti-Infantry 4+", "Anti-Monster 3+", "Precision",
             "Ignores Cover", "Heavy", "Hazardous", "Lance", "Conversion", "Indirect Fire"]
#: Text a player (or a fuzzer) may type: accents, emoji, control characters, lone
#: surrogates, markup.
ODD_TEXT = st.text(st.characters(codec=None, categories=None), max_size=12) | st.sampled_from(
    ["[bold]x[/]", "x\ud800", "\x00", "Böyz – café", "💀", "a" * 300, "", " "])
#: Values of the wrong type for any field.
CONFUSED = st.one_of(st.none(), st.booleans(), st.integers(-10**20, 10**20),
                     st.floats(allow_nan=True), ODD_TEXT, st.just([]), st.just({}),
                     st.just([[[[1]]]]))


def _maybe(value: st.SearchStrategy[Any], confused: bool) -> st.SearchStrategy[Any]:
    return st.one_of(value, CONFUSED) if confused else value


def _weapon(confused: bool) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries({
        "name": _maybe(st.sampled_from(["Bolt rifle", "gun", "x"]), confused) | ODD_TEXT,
        "count": _maybe(st.integers(1, 20), confused),
        "A": _maybe(st.sampled_from(DICE), confused),
        "skill": _maybe(st.integers(2, 6), confused),
        "S": _maybe(st.integers(1, 24), confused),
        "AP": _maybe(st.integers(-6, 0), confused),
        "D": _maybe(st.sampled_from(DICE), confused),
        "abilities": st.lists(_maybe(st.sampled_from(ABILITIES), confused), max_size=7,
                              unique_by=str)})


def _models(confused: bool) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries({
        "count": _maybe(st.integers(1, 200), confused),
        "T": _maybe(st.integers(1, 14), confused),
        "Sv": _maybe(st.integers(2, 7), confused),
        "W": _maybe(st.integers(1, 30), confused)},
        optional={"invuln": _maybe(st.integers(2, 6), confused),
                  "fnp": _maybe(st.integers(2, 6), confused),
                  "name": ODD_TEXT, "character": st.booleans()})


def _scenario(confused: bool) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries(
        {"attacker": st.fixed_dictionaries({"weapons": st.lists(_weapon(confused),
                                                                min_size=1, max_size=3)}),
         "target": st.fixed_dictionaries({"models": st.lists(_models(confused), min_size=1,
                                                             max_size=2)})},
        optional={"rules": st.sampled_from(["10th", "11th"]),
                  "phase": st.sampled_from(["shooting", "fight"]),
                  "context": st.sampled_from([{}, {"within_half_range": True},
                                              {"distance": 30}, {"charged": True}]),
                  "effects": st.lists(st.sampled_from(
                      [{"hit": 1}, {"wound": -1}, {"reroll": "hit", "which": "ones"},
                       {"fnp": 5}, {"critical_hit_on": 5}, "Oath\udc00"]), max_size=2)})


UNIT_REF = st.fixed_dictionaries(
    {"unit": st.sampled_from(["Acastus Knight Asterius", "Intercessor Squad", "Primus",
                              "Neophyte Hybrids", "Boyz", "nope"]) | ODD_TEXT},
    optional={"models": st.integers(-1, 300),
              "weapons": st.lists(st.sampled_from(
                  ["TWIN CONVERSION BEAM CANNON", "Titanic feet", "Bolt rifle:3",
                   "Close combat weapon", "x:0", "Bolt rifle:-1"]) | ODD_TEXT, max_size=3),
              "wargear": st.lists(ODD_TEXT, max_size=2),
              "profiles": st.lists(ODD_TEXT, max_size=2)})

SCENARIO = st.one_of(_scenario(False), _scenario(False), _scenario(True),
                     st.fixed_dictionaries({
                         "phase": st.sampled_from(["shooting", "fight"]),
                         "attacker": UNIT_REF,
                         "target": st.one_of(UNIT_REF, st.just({"models": [
                             {"count": 10, "T": 4, "Sv": 3, "W": 2}]}))}))

SEQUENCE = st.fixed_dictionaries({
    "target": st.fixed_dictionaries({"models": st.lists(_models(False), min_size=1,
                                                        max_size=2)}),
    "steps": st.lists(st.fixed_dictionaries(
        {"phase": st.sampled_from(["shooting", "charge", "fight", "melee", 3]),
         "attacker": st.fixed_dictionaries({"weapons": st.lists(_weapon(False), min_size=1,
                                                                max_size=2)})},
        optional={"distance": st.floats(-1, 60), "fights_back": st.booleans()}),
        min_size=1, max_size=3)})


def _nested(depth: int) -> str:
    return '{"attacker": ' + "[" * depth + "]" * depth + "}"


DOCUMENT_TEXT = st.one_of(st.builds(json.dumps, SCENARIO),
                          st.integers(10, 5000).map(_nested),
                          st.text(max_size=40))


def _sound(result: Any) -> None:
    """Every distribution of the result sums to 1, and the result serialises."""
    doc = json.loads(result.model_dump_json())

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("pmf"), list) and node["pmf"]:
                assert not any(math.isnan(p) for p in node["pmf"])
                assert math.isclose(sum(node["pmf"]), 1.0, abs_tol=1e-9), node
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)
    walk(doc)


def _refused_in_one_line(exc: BaseException) -> None:
    assert isinstance(exc, ValueError | LookupError), repr(exc)
    # the project's own error types (and pydantic's), not a bare ValueError or KeyError
    # from somewhere inside
    assert type(exc) not in (ValueError, LookupError, KeyError, IndexError), repr(exc)
    # never pydantic's own report (issue 46): its message is the one line itself
    assert not isinstance(exc, ValidationError), repr(exc)
    line = one_line(exc)
    assert line and "\n" not in line
    line.encode("utf-8")  # printable: no lone surrogate, no control character


def _answer(doc: Any) -> None:
    try:
        result = tactica.calculate(doc, load_seed_library())
    except (ValueError, LookupError) as exc:
        _refused_in_one_line(exc)
    else:
        _sound(result)


@FUZZ
@given(SCENARIO)
def test_a_scenario_gives_a_sound_result_or_one_line(doc: dict[str, Any]) -> None:
    _answer(doc)


@FUZZ
@given(DOCUMENT_TEXT)
def test_a_document_text_gives_a_sound_result_or_one_line(text: str) -> None:
    _answer(text)


@FUZZ
@given(SEQUENCE)
def test_a_sequence_gives_a_sound_result_or_one_line(doc: dict[str, Any]) -> None:
    _answer(doc)


_LIST_LINES = ["++ Army Roster ++", "Boyz (85 points)", "• 10x Boyz", "  ◦ 1x Slugga",
               "Warboss [80 pts]", "Char1: Warboss", "Strike Force (2000 points)",
               "Orks", "War Horde", "+ FACTION KEYWORD: Xenos - Orks", "== x ==",
               "999999999999x Boyz", "Boyz (-5 points)", "\x00", "Böyz", "\ud800"]
LIST_TEXT = st.one_of(
    st.lists(st.sampled_from(_LIST_LINES) | ODD_TEXT, max_size=12).map("\n".join),
    st.builds(lambda units: json.dumps({"roster": {"forces": [{"selections": units}]}}),
              st.lists(st.fixed_dictionaries({"name": ODD_TEXT, "type": st.sampled_from(
                  ["unit", "model", "upgrade", 3]), "number": CONFUSED}), max_size=3)),
    st.integers(10, 3000).map(lambda d: '{"roster": {"forces": ' + "[" * d + "]" * d + "}}"))


@FUZZ
@given(LIST_TEXT)
def test_a_list_file_is_read_or_refused_in_one_line(text: str) -> None:
    try:
        roster = parse_roster(text, file="army.txt")
    except (ValueError, LookupError) as exc:
        _refused_in_one_line(exc)
    else:
        roster.model_dump_json()


ARGS = st.lists(st.sampled_from(
    ["calc", "--attacker", "Primus", "--target", "meq", "--models", "0", "--models", "999",
     "--target-models", "5", "--weapon", "Bolt rifle:0", "--json", "--charged", "yes",
     "--effect", '{"hit": 9}', "--effect", "[[[[", "--rules", "9th", "x\ud800"]),
    min_size=1, max_size=7).map(lambda a: ["calc", *a])


@FUZZ
@given(ARGS)
def test_command_line_arguments_give_an_answer_or_one_line(args: list[str]) -> None:
    from tactica.cli import commands

    run = CliRunner().invoke(commands.app, args, env={"COLUMNS": "40"})
    assert run.exception is None or isinstance(run.exception, SystemExit), repr(
        run.exception)
    if run.exit_code == 2:
        errors = [ln for ln in run.output.splitlines() if ln.startswith("error:")]
        assert len(errors) <= 1
        assert "Traceback" not in run.output


@pytest.fixture(scope="module")
def http(calc_pool: Any) -> Any:
    """The app (on the run's shared calculation worker) and a transport into it."""
    from tactica.web import create_app

    app = create_app(library=load_seed_library, calc_pool=calc_pool)
    return app, httpx.ASGITransport(app=app)


BODIES = st.one_of(st.builds(json.dumps, SCENARIO), st.integers(10, 5000).map(_nested),
                   st.text(max_size=30))


@FUZZ
@given(body=BODIES, path=st.sampled_from(["/api/calc", "/api/turn"]))
def test_an_http_request_gets_a_result_or_one_refusal(http: Any, body: str,
                                                      path: str) -> None:
    import anyio

    _, transport = http

    async def send() -> httpx.Response:
        async with httpx.AsyncClient(transport=transport, base_url="http://tactica.test") as c:
            return await c.post(path, content=body.encode("utf-8", "surrogatepass"),
                                headers={"content-type": "application/json"})

    response = anyio.run(send)
    assert response.status_code in (200, 400, 413, 422, 503), response.text[:300]
    answer = response.json()
    if response.status_code == 200:
        for dist in (answer.get("damage"), answer.get("models_destroyed")):
            if dist:
                assert math.isclose(sum(dist["pmf"]), 1.0, abs_tol=1e-9)
    else:
        assert "detail" in answer and "Traceback" not in response.text


# --- the default run's samples (tests/volume.py): the costliest kinds run 10 examples by
# default and ``EXAMPLES`` (25 unless TACTICA_FUZZ_EXAMPLES says) as their
# ``_at_volume`` twins (slow) ---
(test_a_scenario_gives_a_sound_result_or_one_line,
 test_a_scenario_gives_a_sound_result_or_one_line_at_volume) = sampled(
    test_a_scenario_gives_a_sound_result_or_one_line, 10)
(test_command_line_arguments_give_an_answer_or_one_line,
 test_command_line_arguments_give_an_answer_or_one_line_at_volume) = sampled(
    test_command_line_arguments_give_an_answer_or_one_line, 10)
(test_an_http_request_gets_a_result_or_one_refusal,
 test_an_http_request_gets_a_result_or_one_refusal_at_volume) = sampled(
    test_an_http_request_gets_a_result_or_one_refusal, 10)
