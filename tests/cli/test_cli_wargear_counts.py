"""``--wargear NAME:N``: N is a whole number of models, 1 or more; anything else (0, a
superscript digit, a word) is one line naming the flag and the text as typed, never
Python's own words (``invalid literal for int()``)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from tactica.cli import commands

BASE = ["calc", "--attacker", "Neophyte Hybrids", "--target", "meq"]


@pytest.mark.parametrize("spec", ["Mining laser:0", "Mining laser:\u00b2", "Mining laser:x",
                                  "Mining laser:-1"])
def test_a_wargear_count_that_is_not_1_or_more_is_refused(spec: str) -> None:
    result = CliRunner().invoke(commands.app, [*BASE, "--wargear", spec])
    assert result.exit_code == 2, result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert "--wargear" in lines[0] and repr(spec) in lines[0], lines[0]
    assert "1 or more" in lines[0] and "int()" not in lines[0]


def test_a_wargear_count_of_one_fields_one_model() -> None:
    result = CliRunner().invoke(commands.app, [*BASE, "--wargear", "Mining laser:1"],
                                env={"COLUMNS": "300"})
    assert result.exit_code == 0, result.output
    assert "note: fielded: 1 Neophyte Hybrid: Close combat weapon, Autopistol, Mining laser" \
        in result.stdout
