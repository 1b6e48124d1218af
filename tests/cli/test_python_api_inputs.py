"""The Python API as a player scripts it (``tactica.calculate_many``): ``targets`` and
``attackers`` are lists of units; one unit given bare (a dict, a name, a number) is
refused with tactica's ``ScenarioError`` in one line, never iterated letter by letter or
key by key, never a ``TypeError``. The numbers checked against a hand calculation."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

import tactica

BASE = {"attacker": {"weapons": [{"name": "Bolt rifle", "count": 10, "A": "1", "skill": 3,
                                  "S": 4, "AP": -1, "D": "1"}]},
        "target": {"models": [{"count": 5, "T": 4, "Sv": 3, "W": 2}]}}


@pytest.mark.parametrize("bad", ["geq", {"unit": "geq"}, 5, b"geq"],
                         ids=["a name", "one dict", "a number", "bytes"])
@pytest.mark.parametrize("side", ["targets", "attackers"])
def test_one_unit_given_bare_is_refused_in_one_line(side: str, bad: Any) -> None:
    with pytest.raises(tactica.ScenarioError) as info:
        tactica.calculate_many(BASE, **{side: bad})
    message = str(info.value)
    assert message.startswith(f"{side}: ") and "\n" not in message
    assert "list" in message


def test_a_list_of_targets_gives_the_hand_calculation() -> None:
    """10 shots BS3+ S4 AP-1 D1: unsaved per shot 2/3 * wound * save. T4 Sv3+: 1/2 * 1/2
    -> 10/6; T3 Sv5+ (AP-1: 6+): 2/3 * 5/6 -> 100/27."""
    geq = {"models": [{"count": 10, "T": 3, "Sv": 5, "W": 1}]}
    meq, gq = tactica.calculate_many(BASE, targets=[BASE["target"], geq])
    assert isinstance(meq, tactica.Result) and isinstance(gq, tactica.Result)
    assert meq.unsaved.mean == pytest.approx(float(Fraction(10, 6)), abs=1e-12)
    assert gq.unsaved.mean == pytest.approx(float(Fraction(10 * 2 * 2 * 5, 3 * 3 * 6)),
                                            abs=1e-12)


EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "neophytes_vs_intercessors.json"


@pytest.mark.parametrize("given", [str(EXAMPLE), EXAMPLE], ids=["str", "Path"])
def test_a_file_name_given_for_the_document_says_so(given: Any) -> None:
    with pytest.raises(ValueError) as one:
        tactica.calculate(given)
    with pytest.raises(tactica.ScenarioError) as many:
        tactica.calculate_many(given, targets=[{"unit": "geq"}])
    for info in (one, many):
        message = str(info.value)
        assert f"{str(EXAMPLE)!r} is a file name" in message and "read_text" in message
    assert type(one.value).__name__ == "DocumentError"
    doc = json.loads(EXAMPLE.read_text(encoding="utf-8"))  # the text itself is read
    assert tactica.calculate(EXAMPLE.read_text(encoding="utf-8")) == tactica.calculate(doc)
