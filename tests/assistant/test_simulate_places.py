"""``simulate_combat`` builds a document (a scenario, or a turn's steps) from its arguments;
a refusal names the argument the user gave, never the document's field the user never
wrote (``steps[2].effects[1]``, ``steps[0].phase``, ``target``). Checked against the tool's
own argument model: the refusal's place starts with one of its arguments."""

from __future__ import annotations

import re
from typing import Any

import pytest
from mcp.server.lowlevel import Server

from tactica.assistant.arguments import SimulateArgs

from .helpers import call, refusal

pytest.importorskip("wh40kdc")

TURN: dict[str, Any] = {"attacker": "Intercessor Squad", "defender": "meq",
                        "phases": ["shooting", "charge", "fight"], "charge_distance": 7}
#: (the arguments, the place the refusal must name)
CASES: list[tuple[dict[str, Any], str]] = [
    ({**TURN, "effects_by_phase": {"fight": ["Oath of Moment", "oath of moment"]}},
     "effects_by_phase.fight[1]"),
    ({**TURN, "effects_by_phase": {"shooting": ["Oath of Moment", "Oath of Moment"]}},
     "effects_by_phase.shooting[1]"),
    ({**TURN, "attacker": "Genestealers"}, "phases"),
    ({"attacker": "Genestealers", "defender": "meq"}, "phases"),
    ({**TURN, "attacker": {"unit": "Intercessor Squad", "models": 11}}, "attacker.models"),
    ({**TURN, "defender": {"unit": "Boyz", "models": 7}}, "defender.models"),
    ({"attacker": "Intercessor Squad", "defender": "meq",
      "effects": ["Oath of Moment", "oath of moment"]}, "effects[1]"),
]


@pytest.mark.parametrize(("args", "place"), CASES, ids=[c[1] + f"-{i}" for i, c in
                                                         enumerate(CASES)])
def test_a_refusal_names_the_argument_given(server: Server[Any], args: dict[str, Any],
                                            place: str) -> None:
    line = refusal(call(server, "simulate_combat", args))
    assert line.startswith(f"error: {place}: "), line
    first = re.split(r"[.\[:]", line.removeprefix("error: "), maxsplit=1)[0]
    assert first in SimulateArgs.model_fields, line
