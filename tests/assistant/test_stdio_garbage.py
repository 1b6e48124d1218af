"""Generated lines for ``tactica mcp`` over stdio (issue 47): tool calls whose arguments
are of every kind and value (names good and misspelt, a lone surrogate, a NUL, numbers
out of range, nesting, lists of lists, a document that is no scenario) and lines that
are no JSON-RPC message at all (garbage, cut messages, JSON too deep, ``NaN``, a batch).

One server, spoken to over its pipes as an assistant would, answers each line: a call
with its id (a result, or a tool error of one line ``error: ...``), anything else with a
protocol error of one line; a ``ping`` sent after each line is answered too (the server
lives on), and nothing is written to its stderr.

The default run checks a sample; the ``_at_volume`` twin (``-m slow``) the full count.
"""

from __future__ import annotations

import itertools
import json
import os
import select
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from volume import sampled

from .test_stdio import INITIALIZE, SRC

#: Seconds a line may wait for its answer: the server's own bounds (``--timeout`` 5 s,
#: ``--army-timeout`` 60 s) and its first call loading the library are well within it.
ANSWER_WITHIN = 180.0

TOOLS = ["simulate_combat", "calculate", "lookup_unit", "lookup_rule", "list_units",
         "validate_list", "matchup", "plan"]
KEYS = ["attacker", "defender", "phases", "context", "effects", "rules", "method", "trials",
        "seed", "document", "name", "faction", "keyword", "limit", "offset", "text",
        "format", "mine", "enemy", "charge", "forbid", "destroy", "objective", "x"]
TEXTS = ["Primus", "Neophyte Hybrids", "meq", "Intercessor Squad", "Primsu", "", " ",
         "\ud800", "a\x00b", "[/x]", "Boyz" * 60, "11th", "10th", "9th", "monte-carlo",
         "exact", "shooting", "fight", "Cult Demagogue", "Genestealer Cults", "army.txt",
         "Neophyte Hybrids:10, Primus", "Gretchin:0"]
SCALARS = st.one_of(st.sampled_from(TEXTS), st.integers(-10, 10),
                    st.sampled_from([0, -1, 10**6, 10**7, 2**70, 1e308, -0.0, True, None]))
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(KEYS), inner, max_size=3)),
    max_leaves=8)
ARGUMENTS = st.dictionaries(st.sampled_from(KEYS), VALUES, max_size=4)
#: a text for a field of its own kind: a good name as often as any other
TEXT = st.one_of(st.sampled_from(["Primus", "Neophyte Hybrids", "Intercessor Squad", "meq",
                                  "Cult Demagogue", "Neophyte Hybrids:10, Primus"]),
                 st.sampled_from(TEXTS))
BOLTERS = {"attacker": {"weapons": [{"name": "Bolt rifle", "count": 10, "A": "1",
                                     "skill": 3, "S": 4, "AP": -1, "D": "1"}]},
           "target": {"models": [{"count": 10, "T": 4, "Sv": 3, "W": 2}]}}
#: Calls of the right shape, their values good and bad
SHAPED = st.one_of(
    st.tuples(st.sampled_from(["lookup_unit", "lookup_rule"]),
              st.fixed_dictionaries({"name": TEXT}, optional={"rules": TEXT})),
    st.tuples(st.just("list_units"), st.fixed_dictionaries(
        {}, optional={"faction": TEXT, "keyword": TEXT, "limit": SCALARS})),
    st.tuples(st.just("simulate_combat"), st.fixed_dictionaries(
        {"attacker": TEXT, "defender": TEXT},
        optional={"method": st.sampled_from(["exact", "monte-carlo"]), "trials": SCALARS,
                  "seed": SCALARS, "phases": st.lists(TEXT, max_size=2)})),
    st.tuples(st.just("calculate"), st.fixed_dictionaries({"document": st.one_of(
        st.just(BOLTERS), VALUES,
        st.fixed_dictionaries({"method": st.just("monte-carlo"), "trials": SCALARS,
                               "seed": SCALARS}).map(lambda d: {**BOLTERS, **d}))})),
    st.tuples(st.just("validate_list"), st.fixed_dictionaries({"text": TEXT},
                                                              optional={"format": TEXT})),
    st.tuples(st.sampled_from(["matchup", "plan"]),
              st.fixed_dictionaries({"mine": TEXT, "enemy": TEXT})))
CALL = st.one_of(SHAPED, SHAPED, st.tuples(
    st.sampled_from([*TOOLS, "no_such_tool", "\ud800"]), ARGUMENTS))
GARBAGE = st.one_of(
    st.sampled_from([b"garbage", b"{", b"[]", b"[1, 2]", b"null", b"{}", b'"x"',
                     b'{"jsonrpc": "2.0", "id": 1}', b'{"jsonrpc": "1.0", "id": 7, "method": "x"}',
                     b'{"jsonrpc": "2.0", "id": 3, "method": "ping", "params": NaN}',
                     b"[" * 5000 + b"]" * 5000, b"\xff\xfe\x00", b'{"a": "\\ud800"']),
    st.binary(min_size=1, max_size=40).filter(
        lambda b: b"\n" not in b and b.strip(b" \t\r")))  # a blank line is no message

GENERATED = settings(derandomize=True, max_examples=300, deadline=None,
                     suppress_health_check=[HealthCheck.too_slow,
                                            HealthCheck.function_scoped_fixture])


class _Server:
    """``tactica --no-dataset mcp`` on pipes, past its initialize handshake."""

    def __init__(self) -> None:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(
            p for p in (str(SRC), os.environ.get("PYTHONPATH")) if p)}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tactica", "--no-dataset", "mcp"], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        self.ids = itertools.count(100)
        self.pending = b""
        self.send(json.dumps(INITIALIZE).encode())
        assert self.replies({0})[0]["id"] == 0
        self.send(b'{"jsonrpc": "2.0", "method": "notifications/initialized"}')

    def send(self, line: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + b"\n")
        self.proc.stdin.flush()

    def replies(self, ids: set[Any]) -> list[dict[str, Any]]:
        """Every reply until one has come for each id of ``ids`` (read from the pipe's
        descriptor, lines kept here: a buffered reader would hide a second line from
        ``select``)."""
        assert self.proc.stdout is not None
        got: list[dict[str, Any]] = []
        while not ids <= {r.get("id") for r in got}:
            if b"\n" not in self.pending:
                ready, _, _ = select.select([self.proc.stdout], [], [], ANSWER_WITHIN)
                assert ready, f"no answer within {ANSWER_WITHIN:g} s; so far {got}"
                data = os.read(self.proc.stdout.fileno(), 1 << 20)
                assert data, f"the server ended: {self.stderr()}"
                self.pending += data
                continue
            line, _, self.pending = self.pending.partition(b"\n")
            got.append(json.loads(line))
        return got

    def stderr(self) -> str:
        self.proc.kill()
        assert self.proc.stderr is not None
        return self.proc.stderr.read().decode(errors="replace")[-3000:]

    def close(self) -> bytes:
        assert self.proc.stdin is not None and self.proc.stderr is not None
        self.proc.stdin.close()
        self.proc.wait(60)
        return self.proc.stderr.read()


@pytest.fixture(scope="module")
def server() -> Iterator[_Server]:
    served = _Server()
    yield served
    assert served.close() == b""  # no traceback, no word on stderr, in all the run


def _one_line(error: dict[str, Any]) -> None:
    assert isinstance(error["code"], int) and "\n" not in error["message"], error


def _exchange(server: _Server, line: bytes, asked: Any) -> str:
    """Send ``line`` (a call with id ``asked``, or None for a line that is no call) and a
    ping after it; check their answers; say what the line was answered with."""
    ping = next(server.ids)
    server.send(line)
    server.send(json.dumps({"jsonrpc": "2.0", "id": ping, "method": "ping"}).encode())
    replies = server.replies({ping} if asked is None else {ping, asked})
    others = [r for r in replies if r.get("id") != ping]
    assert len(others) == 1, replies  # the line's own answer, once
    reply = others[0]
    if "error" in reply:
        _one_line(reply["error"])
        return "protocol error"
    result = reply["result"]
    if result.get("isError"):
        text = result["content"][0]["text"]
        assert "\n" not in text and text.startswith("error: "), text
        assert "Traceback" not in text
        return "tool error"
    return "answer"


@GENERATED
@given(CALL)
def test_a_generated_call_is_answered_in_one_line(server: _Server,
                                                 call: tuple[str, dict[str, Any]]) -> None:
    asked = next(server.ids)
    name, arguments = call
    line = json.dumps({"jsonrpc": "2.0", "id": asked, "method": "tools/call",
                       "params": {"name": name, "arguments": arguments}}).encode()
    event(f"call: {_exchange(server, line, asked)}")


@GENERATED
@given(GARBAGE)
def test_a_line_that_is_no_call_is_answered_with_a_protocol_error(server: _Server,
                                                                 line: bytes) -> None:
    try:  # leniently (NaN): the server answers a refused request with its id if it can
        message = json.loads(line)
    except (ValueError, RecursionError):
        message = None
    asked = message.get("id") if isinstance(message, dict) and "method" in message else None
    outcome = _exchange(server, line, asked)
    assert outcome == "protocol error"
    event(f"garbage: {outcome}")


def test_the_generated_calls_reach_every_outcome(server: _Server) -> None:
    def call(name: str, arguments: dict[str, Any]) -> str:
        asked = next(server.ids)
        return _exchange(server, json.dumps({
            "jsonrpc": "2.0", "id": asked, "method": "tools/call",
            "params": {"name": name, "arguments": arguments}}).encode(), asked)

    assert call("lookup_unit", {"name": "Primus"}) == "answer"
    assert call("lookup_unit", {"name": "\ud800"}) == "tool error"
    assert _exchange(server, b"garbage", None) == "protocol error"


# --- the default run's samples (tests/volume.py) ---
(test_a_generated_call_is_answered_in_one_line,
 test_a_generated_call_is_answered_in_one_line_at_volume) = sampled(
    test_a_generated_call_is_answered_in_one_line, 10)
(test_a_line_that_is_no_call_is_answered_with_a_protocol_error,
 test_a_line_that_is_no_call_is_answered_with_a_protocol_error_at_volume) = sampled(
    test_a_line_that_is_no_call_is_answered_with_a_protocol_error, 10)
