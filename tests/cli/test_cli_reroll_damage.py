"""``tactica calc --reroll-damage ones|N``: the contract's damage re-roll
(``{"reroll": "damage", "which": "below", "below": N}``), the same numbers as the Python
API with that effect, and a bad value refused in one line."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

import tactica
from tactica.cli.app import app
from tactica.library import load_seed_library

runner = CliRunner()
BASE = ["--no-dataset", "calc", "--attacker", "Primus", "--target", "knight", "--phase", "fight",
        "--json"]


def _calc(*flags: str) -> dict[str, object]:
    result = runner.invoke(app, [*BASE, *flags])
    assert result.exit_code == 0, result.stderr
    return dict(json.loads(result.stdout))


def test_the_flag_is_the_contract_s_effect() -> None:
    doc = {"phase": "fight", "attacker": {"unit": "Primus"}, "target": {"unit": "knight"},
           "effects": [{"reroll": "damage", "which": "below", "below": 3}]}
    expected = tactica.calculate(doc, library=load_seed_library())
    found = _calc("--reroll-damage", "3")
    assert found["damage"] == expected.damage.model_dump(mode="json")
    plain = _calc()
    assert found["damage"]["mean"] > plain["damage"]["mean"]  # type: ignore[index]
    ones = _calc("--reroll-damage", "ones")
    assert plain["damage"]["mean"] < ones["damage"]["mean"]  # type: ignore[index]
    # D3 re-rolling 1s or re-rolling 1s and 2s: the same mean (21/9), another spread
    assert ones["damage"]["mean"] == pytest.approx(found["damage"]["mean"])  # type: ignore[index]
    assert ones["damage"]["pmf"] != found["damage"]["pmf"]  # type: ignore[index]


def test_a_bad_value_is_one_line() -> None:
    result = runner.invoke(app, [*BASE, "--reroll-damage", "sixes"])
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and "--reroll-damage" in result.stderr
