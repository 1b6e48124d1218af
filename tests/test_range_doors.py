"""Weapon range through every door: the same matchup at a distance asked through
``tactica.calculate``, ``tactica.calculate_many``, ``tactica calc --json --distance``, a
one-step turn (the sequence contract, and ``tactica turn --distance``) and ``POST
/api/calc`` gives the same numbers and the same word on the
lines out of range (04.02). The doors build their own requests (as
``tests/test_every_door.py`` does); the reference is ``tactica.calculate``.
"""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

import tactica
from tactica.cli import commands
from tactica.combat import Result
from tactica.combat.contract.sequence import SequenceResult
from tactica.library import Library

pytest.importorskip("wh40kdc")

#: (attacker, target, distance): nothing in range; part of the unit in range (the arc
#: blasters out, the casters' 30" profile fires instead of their 15" one); all in range.
CASES = [
    ("Intercessor Squad", "meq", 30.0),
    ("Hastarii Exterminators", "meq", 20.0),
    ("Intercessor Squad", "geq", 24.0),
]


def numbers(r: Any) -> tuple[Any, ...]:
    return (r.attacks.pmf, r.hits.pmf, r.wounds.pmf, r.damage.pmf, r.models_destroyed.pmf,
            r.p_unit_destroyed)


def _beyond(r: Any) -> list[str]:
    return [n for n in r.not_calculated if "out of range" in n]


@pytest.mark.parametrize(("attacker", "target", "distance"), CASES)
def test_every_door_gives_the_same_numbers_at_a_distance(
        attacker: str, target: str, distance: float, library: Library,
        web: TestClient) -> None:
    doc = {"attacker": {"unit": attacker}, "target": {"unit": target},
           "context": {"distance": distance}}
    reference = tactica.calculate(doc, library)
    expected, beyond = numbers(reference), _beyond(reference)
    # exact: an input distance echoed back, not a sum
    if distance == 30.0:
        # exact: nothing in range (or nothing can happen): a point mass at 0, no sum
        assert reference.attacks.pmf == (1.0,) and beyond
    # exact: an input distance echoed back, not a sum
    elif distance == 20.0:
        assert reference.attacks.mean > 0 and beyond
    else:
        assert not beyond

    many = tactica.calculate_many(doc, targets=[{"unit": "teq"}, {"unit": target}],
                                  library=library)
    assert isinstance(many[1], Result)
    assert numbers(many[1]) == expected and _beyond(many[1]) == beyond, "calculate_many"

    run = CliRunner().invoke(commands.app, [
        "calc", "--json", "--attacker", attacker, "--target", target,
        "--distance", f"{distance:g}"])
    assert run.exit_code == 0, run.output
    cli = Result.model_validate_json(run.stdout)
    assert numbers(cli) == expected and _beyond(cli) == beyond, "tactica calc"

    turn = tactica.calculate({"target": {"unit": target}, "steps": [
        {"phase": "shooting", "attacker": {"unit": attacker},
         "context": {"distance": distance}}]}, library)
    step = turn.steps[0]  # type: ignore[attr-defined]
    assert numbers(step) == expected and _beyond(step) == beyond, "turn step"

    run = CliRunner().invoke(commands.app, [
        "turn", "--json", "--step", f"{attacker}:shooting", "--target", target,
        "--distance", f"{distance:g}"])
    assert run.exit_code == 0, run.output
    step = SequenceResult.model_validate_json(run.stdout).steps[0]
    assert numbers(step) == expected and _beyond(step) == beyond, "tactica turn"

    response = web.post("/api/calc", json=doc)
    assert response.status_code == 200, response.text
    api = Result.model_validate(response.json())
    assert numbers(api) == expected and _beyond(api) == beyond, "POST /api/calc"
