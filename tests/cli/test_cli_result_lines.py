"""What a result says, said once: a unit's rule whose two parts give the same reason
(the Wraithknight's Point-blank Devastation, on its heavy wraithcannon and its suncannon)
is one line under "not calculated", in the Python API and on the command line."""

from __future__ import annotations

from collections import Counter

import pytest
from typer.testing import CliRunner

import tactica
from tactica.cli import commands

pytest.importorskip("wh40kdc")


def test_no_line_of_a_result_is_said_twice() -> None:
    for attacker, target in (("Wraithknight", "knight"), ("Boyz", "meq"),
                             ("Intercessor Squad", "Termagants")):
        r = tactica.calculate({"attacker": {"unit": attacker}, "target": {"unit": target}})
        twice = [k for k, n in Counter((*r.notes, *r.not_calculated)).items() if n > 1]
        assert not twice, (attacker, twice)


def test_the_wraithknights_point_blank_devastation_is_listed_once() -> None:
    result = CliRunner().invoke(commands.app, ["calc", "--attacker", "Wraithknight",
                                               "--target", "knight"], env={"COLUMNS": "400"})
    assert result.exit_code == 0, result.output
    lines = [ln for ln in result.stdout.splitlines()
             if ln.startswith("not calculated: Point") and "re-roll" in ln]
    assert len(lines) == 1, lines
