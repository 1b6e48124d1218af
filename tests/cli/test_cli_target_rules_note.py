"""``tactica calc --rules 10th``: a target whose stats are not 10th edition's says so, as
the attacker does (a standard target is the unit it names, whose only datasheet is the
11th edition's)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from tactica.cli import commands
from tactica.library import load_library

pytest.importorskip("wh40kdc")


def notes(*args: str) -> list[str]:
    run = CliRunner().invoke(commands.app, ["calc", "--json", *args])
    assert run.exit_code == 0, run.output
    found: list[str] = json.loads(run.stdout)["notes"]
    return found


def test_a_standard_target_under_the_10th_rules_is_noted_with_its_stats() -> None:
    meq = next(p for p in load_library().presets() if p.name == "meq")
    said = " ".join(notes("--attacker", "Neophyte Hybrids", "--target", "meq",
                          "--rules", "10th"))
    assert f"{meq.unit}: the library has no 10th-edition datasheet; its 11th-edition " \
        "stats are used under the 10th rules" in said
    assert "standard target" not in " ".join(notes("--attacker", "Neophyte Hybrids",
                                                   "--target", "meq"))


def test_a_target_unit_without_a_10th_datasheet_is_noted() -> None:
    sheet = load_library().datasheet("Termagants", "10th")
    assert sheet.rules == "11th"  # the library has only its 11th-edition datasheet
    said = " ".join(notes("--attacker", "Neophyte Hybrids", "--target", "Termagants",
                          "--rules", "10th"))
    assert "Termagants: the library has no 10th-edition datasheet" in said
