"""The mistakes a player makes with ``tactica list``: a file given without its
subcommand, a file that is empty or not a list, a format name that does not exist. Each
is one line on stderr, exit code 2, naming the file or flag as the player gave it and
what to type instead."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli_refusal import one_line
from tactica.cli import commands

runner = CliRunner()
ROSTERS = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "rosters"
LIST = ROSTERS / "gw-app-11e" / "official_9.txt"
SCENARIO = Path(__file__).resolve().parents[2] / "examples" / "neophytes_vs_intercessors.json"


def test_a_list_file_without_its_subcommand_says_what_to_type() -> None:
    assert LIST.is_file()
    line = one_line(["list", str(LIST)])
    assert f"tactica list show {shlex.quote(str(LIST))}" in line
    assert "No such command" not in line
    for other in ("price", "validate", "convert"):
        assert other in line


def test_a_file_without_any_command_says_what_to_type() -> None:
    line = one_line([str(SCENARIO)])
    assert f"tactica calc {shlex.quote(str(SCENARIO))}" in line
    assert f"tactica list show {shlex.quote(str(SCENARIO))}" in line


def test_a_name_that_is_neither_file_nor_command_lists_the_commands() -> None:
    line = one_line(["list", "no-such-army.txt"])
    assert "'no-such-army.txt'" in line
    assert "show, price, validate, convert" in line


@pytest.mark.parametrize(("content", "words"), [
    ("", "empty file"),
    ('{"hello": 1}', "JSON of an unknown kind"),
    ("Dear diary,\ntoday I painted.", "unrecognised first line"),
])
@pytest.mark.parametrize("command", ["show", "price", "validate"])
def test_a_file_that_is_not_a_list_is_named(tmp_path: Path, command: str, content: str,
                                            words: str) -> None:
    path = tmp_path / "army.txt"
    path.write_text(content, encoding="utf-8")
    line = one_line(["list", command, str(path)])
    assert line.startswith(f"error: {path}: ") and words in line


@pytest.mark.parametrize(("args", "flag"), [
    (["list", "show", str(LIST), "--format", "bogus"], "--format"),
    (["list", "convert", str(LIST), "--to", "bogus"], "--to"),
    (["list", "convert", str(LIST), "--to", "rosterizer"], "--to"),
])
def test_an_unknown_format_names_the_flag_and_the_formats(args: list[str], flag: str) -> None:
    line = one_line(args)
    assert line.startswith(f"error: {flag}: ") and "gw-text" in line


@pytest.mark.parametrize("path", [LIST, ROSTERS / "gk-banishers" / "input.json"],
                         ids=["gw-text", "listforge-json"])
def test_an_army_list_given_to_calc_says_how_to_attack_with_its_units(path: Path) -> None:
    line = one_line(["calc", str(path)])
    assert line.startswith(f"error: {path}: an army list")
    assert f"tactica calc --list {shlex.quote(str(path))} --attacker UNIT" in line
    assert "Invalid JSON" not in line and "Field required" not in line


def test_an_empty_scenario_file_is_named(tmp_path: Path) -> None:
    path = tmp_path / "scenario.json"
    path.write_text("\n", encoding="utf-8")
    line = one_line(["calc", str(path)])
    assert line.startswith(f"error: {path}: empty file") and "Invalid JSON" not in line


@pytest.mark.parametrize("where", ["folder", "missing folder"])
def test_convert_out_to_a_place_that_cannot_be_written_isone_line(tmp_path: Path,
                                                                   where: str) -> None:
    """Refused before anything is converted: no export warnings, one line naming --out."""
    out = tmp_path if where == "folder" else tmp_path / "nowhere" / "list.txt"
    line = one_line(["list", "convert", str(LIST), "--to", "wtc", "--out", str(out)])
    assert line.startswith(f"error: --out {out}: ") and "Errno" not in line
    assert ("folder" in line) and not out.with_name("list.txt").exists()


def test_schema_out_that_is_a_file_isone_line(tmp_path: Path) -> None:
    path = tmp_path / "schemas"
    path.write_text("", encoding="utf-8")
    line = one_line(["schema", "scenario", "--out", str(path)])
    assert line.startswith(f"error: --out {path}: ") and "Errno" not in line


def test_a_file_the_system_refuses_is_named_without_errno(tmp_path: Path) -> None:
    """Any command: an OSError is said as the file and the system's reason."""
    pytest.importorskip("matplotlib")
    plot = tmp_path / "nowhere" / "m.png"
    line = one_line(["matchup", "Boyz", "Intercessor Squad", "--plot", str(plot)])
    assert str(plot) in line and "Errno" not in line and "No such file" in line


def test_convert_says_what_is_lost_in_one_sentence_each() -> None:
    """The 11th-edition app list into WTC: its attached leaders, Force Disposition and
    detachment points, each named (the list's own values) with the right pronoun."""
    result = runner.invoke(commands.app, ["list", "convert", str(LIST), "--to", "wtc"])
    assert result.exit_code == 0, result.output
    lines = result.stderr.strip().splitlines()
    assert "warning: wtc cannot carry attached leaders and support units (Asurmen: with Dire " \
        "Avengers; Fuegan: with Fire Dragons; Jain Zar: with Howling Banshees); the " \
        "exported list leaves them out" in lines
    assert "warning: wtc cannot carry the Force Disposition (Priority Assets); the exported list " \
        "leaves it out" in lines
    assert "warning: wtc cannot carry the detachment points (3); the exported list leaves it out" \
        in lines


def test_a_list_file_named_like_a_command_is_still_taken_for_a_file(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch
                                                                  ) -> None:
    """``price.txt`` is close to the command ``price``: being a file, it is said so."""
    monkeypatch.chdir(tmp_path)
    Path("price.txt").write_text(LIST.read_text(encoding="utf-8"), encoding="utf-8")
    line = one_line(["list", "price.txt"])
    assert "tactica list show price.txt" in line and "Did you mean" not in line
