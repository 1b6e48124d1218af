"""``tactica matchup`` and ``tactica plan`` on the command line: the table, JSON, CSV, the
picture, and refusals in one line."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tactica.cli import commands

from .helpers import ROSTERS

pytest.importorskip("wh40kdc")

runner = CliRunner()
WIDE = {"COLUMNS": "200"}
MINE, ENEMY = "Intercessor Squad:10, Rhino", "Gretchin:10, Boyz:10"


def test_matchup_json_has_every_cell_of_both_sides() -> None:
    res = runner.invoke(commands.app, ["matchup", MINE, ENEMY, "--json"], env=WIDE)
    assert res.exit_code == 0, res.stderr
    doc = json.loads(res.stdout)
    assert [u["label"] for u in doc["mine"]["units"]] == ["Intercessor Squad", "Rhino"]
    assert len(doc["cells"]) == 2 * 2 * 2 * 2  # 2 x 2 units, 2 phases, 2 sides
    rhino_fights = [c for c in doc["cells"] if c["attacker"] == "Rhino"
                    and c["phase"] == "fight"]
    assert all(c["status"] in ("ok", "cannot attack") for c in rhino_fights)
    for c in doc["cells"]:
        if c["status"] == "ok":
            assert c["per_100_points"] == pytest.approx(
                100 * c["points_destroyed"] / c["attacker_points"])


def test_matchup_csv_and_table_and_picture(tmp_path: Path) -> None:
    res = runner.invoke(commands.app, ["matchup", MINE, ENEMY, "--csv", "--side", "mine",
                                       "--phase", "shooting"], env=WIDE)
    assert res.exit_code == 0, res.stderr
    rows = list(csv.DictReader(io.StringIO(res.stdout)))
    assert len(rows) == 4 and {r["side"] for r in rows} == {"mine"}
    picture = tmp_path / "m.svg"
    res = runner.invoke(commands.app, ["matchup", MINE, ENEMY, "--value", "per100",
                                       "--plot", str(picture)], env=WIDE)
    assert res.exit_code == 0, res.stderr
    assert "My units, shooting" in res.stdout and "T2 Boyz" in res.stdout
    assert picture.read_text(encoding="utf-8").lstrip().startswith("<?xml")


def test_plan_shows_the_plan_beside_the_naive_plan() -> None:
    res = runner.invoke(commands.app, ["plan", "Intercessor Squad:10, Intercessor Squad:10",
                                       ENEMY], env=WIDE)
    assert res.exit_code == 0, res.stderr
    assert "The plan:" in res.stdout and "The naive plan" in res.stdout
    assert "exhaustive search" in res.stdout
    doc = json.loads(runner.invoke(commands.app, [
        "plan", "Intercessor Squad:10, Intercessor Squad:10", ENEMY, "--json"],
        env=WIDE).stdout)
    assert doc["optimal"] and doc["plan"]["points_destroyed"] > doc["naive"]["points_destroyed"]


@pytest.mark.parametrize("args,needle", [
    (["matchup", "Intercessor Squad:10", "Gretchn:10"], "did you mean"),
    (["matchup", MINE, ENEMY, "--value", "kills"], "--value kills"),
    (["matchup", MINE, ENEMY, "--plot", "m.gif"], ".png or .svg"),
    (["matchup", MINE, ENEMY, "--stratagem", "Nobody=Command Re-roll: hit"], "Nobody"),
    (["plan", MINE, ENEMY, "--forbid", "Rhino"], "MY UNIT>ENEMY UNIT"),
    (["plan", MINE, ENEMY, "--destroy", "Ghazghkull"], "Ghazghkull"),
    (["plan", MINE, "no/such/list.txt"], "no such file"),
    (["matchup", MINE, ENEMY, "--stratagem", "Rhino=Fire Overwatchh"], "Fire Overwatch"),
    (["plan", MINE, ENEMY, "--objective", "fun"], "--objective fun"),
])
def test_refusals_are_one_line(args: list[str], needle: str) -> None:
    res = runner.invoke(commands.app, args, env=WIDE)
    assert res.exit_code == 2
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0]


def test_an_illegal_list_is_answered_with_a_warning_naming_its_line(tmp_path: Path) -> None:
    """Issue 48: a list that does not validate is answered, its problem a warning above
    the matrix; ``--strict`` refuses it in one line naming its line."""
    text = (ROSTERS / "official_9.txt").read_text(encoding="utf-8")
    bad = tmp_path / "bad.txt"
    bad.write_text(text.replace("Avatar of Khaine", "Asurmen", 1), encoding="utf-8")
    answered = runner.invoke(commands.app, ["matchup", str(bad), MINE, "--phase", "shooting",
                                            "--side", "mine"], env=WIDE)
    assert answered.exit_code == 0, answered.output
    first = answered.stdout.splitlines()[0]
    assert first.startswith(f"warning: {bad}:") and "does not validate" in first
    res = runner.invoke(commands.app, ["matchup", str(bad), MINE, "--strict"], env=WIDE)
    assert res.exit_code == 2
    line = res.stderr.strip()
    assert line.startswith(f"error: my list: {bad}:") and "does not validate" in line
    number = int(line.split(f"{bad}:")[1].split(":")[0])
    assert "Asurmen" in text.replace("Avatar of Khaine", "Asurmen", 1).splitlines()[number - 1]
