"""``tactica list``: a list read from standard input (``-``), and a conversion that says
which leader attachments the written format cannot keep."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from tactica.army.formats import export_roster
from tactica.army.roster import Roster, RosterUnit
from tactica.cli import commands

ROSTER = Roster(name="Demo", faction="Genestealer Cults", battle_size="Strike Force",
                detachments=("Host of Ascension",), declared_points=160,
                units=(RosterUnit(id="u1", name="Primus", points=70, warlord=True,
                                  attached_to="u2"),
                       RosterUnit(id="u2", name="Neophyte Hybrids", models=10, points=90)))


def test_a_list_on_standard_input_reads_as_the_same_list_in_a_file(tmp_path: Path) -> None:
    text = export_roster(ROSTER, "gw-text")
    path = tmp_path / "list.txt"
    path.write_text(text, encoding="utf-8")
    runner = CliRunner()
    piped = runner.invoke(commands.app, ["list", "show", "-", "--json"], input=text)
    from_file = runner.invoke(commands.app, ["list", "show", str(path), "--json"])
    assert piped.exit_code == from_file.exit_code == 0, piped.output
    assert piped.stdout.replace("standard input", str(path)) == from_file.stdout


def test_converting_to_a_format_without_attachments_says_what_is_dropped(
        tmp_path: Path) -> None:
    path = tmp_path / "list.txt"
    path.write_text(export_roster(ROSTER, "gw-text"), encoding="utf-8")
    runner = CliRunner()
    wtc = runner.invoke(commands.app, ["list", "convert", str(path), "--to", "wtc"])
    assert wtc.exit_code == 0
    assert "(Primus: with Neophyte Hybrids); the exported list leaves them out" in wtc.stderr
    kept = runner.invoke(commands.app, ["list", "convert", str(path), "--to", "gw-text"])
    assert kept.exit_code == 0 and "warning" not in kept.stderr  # the app text keeps them
