"""A generator of bad calls (issue 44, "Done when"): each tool's valid arguments, one part
of them broken (a value of another type or out of bounds, an empty or misspelt name, an
argument missing or unknown, a nested field replaced), sent through the SDK's client.
Every call is answered or refused in one line, the command line's way: no traceback, no
pydantic report, no "failed unexpectedly" (a bug), and the server lives on. Twenty
examples in the default run, the full count in the slow suite (``tests/volume.py``)."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import mcp_types as types
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp.server.lowlevel import Server

from volume import sampled

from .helpers import answer, call_many

ROSTERS = Path(__file__).resolve().parents[1] / "fixtures" / "rosters" / "gw-app-11e"
#: Each tool's valid arguments, small enough to compute at once.
VALID: dict[str, dict[str, Any]] = {
    "simulate_combat": {"attacker": {"unit": "Intercessor Squad", "models": 5},
                        "defender": {"unit": "Termagants"}, "context": {"distance": 12},
                        "effects": ["Oath of Moment"]},
    "calculate": {"document": {"attacker": {"weapons": [
        {"name": "Bolt rifle", "count": 5, "A": "2", "skill": 3, "S": 4, "AP": -1,
         "D": "1"}]}, "target": {"models": [{"count": 10, "T": 3, "Sv": 5, "W": 1}]},
        "context": {"cover": True}}},
    "find_units": {"query": "Intercessors", "limit": 3},
    "lookup_unit": {"name": "Termagants"},
    "lookup_rule": {"name": "Oath of Moment"},
    "list_units": {"faction": "Orks", "keyword": "Infantry", "limit": 3},
    "validate_list": {"text": (ROSTERS / "official_9.txt").read_text(encoding="utf-8")},
    "matchup": {"mine": "Intercessor Squad:5", "enemy": "Gretchin:10",
                "phases": ["shooting"], "sides": "mine", "top": 2},
    "plan": {"mine": "Intercessor Squad:5", "enemy": "Gretchin:10, Boyz:10",
             "forbid": [["Intercessor Squad", "Boyz"]]},
}

#: What a refusal never shows.
RAW = ("Traceback", "validation error", "errors.pydantic.dev", "[type=",
       "For further information", "failed unexpectedly", "Exception", "valid tuple", "\n")

JUNK = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-10**12, max_value=10**12),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
    st.text(max_size=12), st.sampled_from(["", " ", "Intercesor Squad", "meq", "geq",
                                           "shooting", "11th", "Primus", "x" * 300]),
    st.lists(st.integers(min_value=-5, max_value=5), max_size=3),
    st.dictionaries(st.sampled_from(["unit", "models", "hit", "x"]),
                    st.integers(min_value=-3, max_value=300), max_size=2))


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in ``value`` a part can be replaced."""
    out = [prefix] if prefix else []
    if isinstance(value, dict):
        for key, sub in value.items():
            out += _paths(sub, (*prefix, key))
    elif isinstance(value, list):
        for i, sub in enumerate(value):
            out += _paths(sub, (*prefix, i))
    return out


@st.composite
def bad_calls(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    tool = draw(st.sampled_from(sorted(VALID)))
    args = copy.deepcopy(VALID[tool])
    how = draw(st.sampled_from(["replace", "replace", "drop", "unknown", "unknown nested"]))
    paths = _paths(args)
    path = draw(st.sampled_from(paths))
    *parent_path, last = path
    parent: Any = args
    for step in parent_path:
        parent = parent[step]
    if how == "replace":
        parent[last] = draw(JUNK)
    elif how == "drop" and isinstance(parent, dict):
        del parent[last]
    elif how == "unknown":
        args[draw(st.sampled_from(["atacker", "full", "models", "limit_", "x"]))] = 1
    elif isinstance(parent, dict):
        parent[draw(st.sampled_from(["contxt", "unit_", "AP_", "q"]))] = draw(JUNK)
    return tool, args


def _one_line(result: types.CallToolResult) -> None:
    text = result.content[0]
    assert isinstance(text, types.TextContent)
    if not result.is_error:
        answer(result)
        return
    assert text.text.startswith("error: "), text.text
    for word in RAW:
        assert word not in text.text, text.text
    assert len(text.text) < 1000, text.text


@settings(max_examples=200, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture,
                                 HealthCheck.too_slow])
@given(calls=st.lists(bad_calls(), min_size=1, max_size=4))
def test_a_bad_call_is_answered_or_refused_in_one_line(
        server: Server[Any], calls: list[tuple[str, dict[str, Any]]]) -> None:
    results = call_many(server, [*calls, ("lookup_unit", {"name": "Primus"})])
    for result in results[:-1]:
        _one_line(result)
    answer(results[-1])  # the server lives on


test_a_bad_call_is_answered_or_refused_in_one_line, \
    test_a_bad_call_is_answered_or_refused_in_one_line_at_volume = \
    sampled(test_a_bad_call_is_answered_or_refused_in_one_line, 20)
