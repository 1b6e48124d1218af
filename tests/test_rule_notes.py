"""Which edition's text each computed rule follows: ``tactica rule`` and the README."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from tactica.cli import commands
from tactica.model.common import RulesVersion
from tactica.rules.notes import RULE_NOTES, RuleNote, rule_note

README = Path(__file__).resolve().parents[1] / "README.md"


@pytest.mark.parametrize("note", RULE_NOTES, ids=lambda n: n.name)
def test_readme_rules_notes_name_every_rule(note: RuleNote) -> None:
    text = README.read_text(encoding="utf-8")
    section = text.split("### Rules notes", 1)[1].split("\n## ", 1)[0]
    assert f"**{note.name}**" in section


def test_each_note_says_its_edition() -> None:
    for note in RULE_NOTES:
        versions: tuple[RulesVersion, ...] = ("11th", "10th")
        for rules in versions:
            text = rule_note(note.name, rules)
            assert text is not None and ("11th" in text or "10th" in text
                                         or "own text" in text), text
    assert rule_note("Pistol", "11th") == rule_note("Close-quarters", "11th")


def test_tactica_rule_prints_how_the_calculator_applies_it() -> None:
    """A rule of the seeds (Heavy's record) and one the seeds lack (Cleave): both show
    the calculator's edition note; an unknown name is still refused."""
    runner = CliRunner()
    for name in ("Heavy", "Cleave"):
        result = runner.invoke(commands.app, ["rule", name, "--rules", "11th"],
                               env={"COLUMNS": "200"})
        assert result.exit_code == 0, result.stderr
        assert f"calculator: {name} (11th text)" in result.stdout
    assert runner.invoke(commands.app, ["rule", "Frobnicate"]).exit_code != 0
