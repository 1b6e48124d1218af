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


def test_a_list_piped_in_another_encoding_is_read_as_a_file_is() -> None:
    """Bytes that are not UTF-8 on standard input: the encoding found, as for a file,
    with a note (no ``'utf-8' codec can't decode byte``; issue 47, 5)."""
    text = export_roster(ROSTER.model_copy(update={"name": "Démo"}), "newrecruit-json")
    result = CliRunner().invoke(commands.app, ["list", "show", "-", "--json"],
                                input=text.encode("cp1252"))
    assert result.exit_code == 0, result.output
    assert '"name": "Démo"' in result.stdout
    assert "standard input: read as Windows-1252" in result.stdout
    assert "codec" not in result.output


ROSTERIZER = Path(__file__).resolve().parents[1] / "fixtures" / "rosters" / \
    "sm-dual-detachment" / "input.rosterizer.json"


def test_a_rosterizer_figure_out_of_range_is_one_line_naming_the_file_and_unit(
        tmp_path: Path) -> None:
    """1e9 points stated for the roster or a unit: one line naming the file and where,
    not pydantic's report (issue 47, 5)."""
    import json

    doc = json.loads(ROSTERIZER.read_text(encoding="utf-8"))
    roster_total = json.loads(json.dumps(doc))
    roster_total["snapshot"]["stats"]["Points"]["value"] = 1e9
    unit_points = json.loads(json.dumps(doc))
    unit_points["snapshot"]["assets"]["included"][4]["stats"]["Points"]["value"] = 1e9
    for changed, place in [(roster_total, "(the roster): declared_points"),
                           (unit_points, "(unit 1, 'Gladiator Lancer'): points")]:
        path = tmp_path / "army.json"
        path.write_text(json.dumps(changed), encoding="utf-8")
        result = CliRunner().invoke(commands.app, ["list", "show", str(path)])
        assert result.exit_code == 2
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"error: {path} {place}: "), lines
        assert "100000" in lines[0] and "pydantic" not in lines[0]
