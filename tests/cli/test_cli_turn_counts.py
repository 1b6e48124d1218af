"""``tactica turn`` and the Python API agree on a Blast unit shooting after another unit:
both count the models the first unit left (24.05, ``combat.exact.select_targets``)."""

from __future__ import annotations

import json

from typer.testing import CliRunner

import tactica
from tactica.cli import commands

runner = CliRunner()
WIDE = {"COLUMNS": "200"}


def test_turn_and_the_api_count_the_models_left() -> None:
    """Boyz, then a Mek Gun (Smasha Gun: D3+1 [BLAST]) at twenty Cadian Shock Troops."""
    res = runner.invoke(commands.app, [
        "turn", "--step", "Boyz:shooting", "--step", "Mek Gunz:shooting",
        "--target", "Cadian Shock Troops", "--target-models", "20", "--json"], env=WIDE)
    assert res.exit_code == 0, res.stderr
    cli = json.loads(res.stdout)
    api = tactica.calculate({"rules": "11th", "target": {
        "unit": "Cadian Shock Troops", "models": 20}, "steps": [
        {"phase": "shooting", "attacker": {"unit": "Boyz"}},
        {"phase": "shooting", "attacker": {"unit": "Mek Gunz"}}]})
    for i, step in enumerate(api.steps):
        for name in ("attacks", "hits", "wounds", "models_destroyed"):
            got, want = cli["steps"][i][name]["pmf"], getattr(step, name).pmf
            assert len(got) == len(want), (i, name)
            assert max(abs(a - b) for a, b in zip(got, want, strict=True)) <= 1e-12, (i, name)
    assert abs(sum(cli["models_destroyed"]["pmf"]) - 1) <= 1e-12
    # the Smasha Gun alone at the twenty gathers D3+1 and 4 (mean 7); after the Boyz
    # fewer, as both doors say
    alone = tactica.calculate({"rules": "11th", "target": {
        "unit": "Cadian Shock Troops", "models": 20}, "attacker": {"unit": "Mek Gunz"}})
    # exact: a fixed number of attack dice: a point mass, its mean is that number
    assert alone.attacks.mean == 7.0
    assert cli["steps"][1]["attacks"]["mean"] < 6.0
    assert any("selects its targets" in n for n in cli["notes"])
