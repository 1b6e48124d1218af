"""Every bad input on the command line is one line on stderr, exit code 2, naming the flag
or the field and what is allowed; user text is printed as it is, never as markup."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tactica.cli import commands

runner = CliRunner()
BASE = ["calc", "--attacker", "Neophyte Hybrids", "--target", "meq"]

#: (arguments, words the one line must contain)
BAD = [
    ([*BASE, "--models", "0"], ["--models", "1"]),
    ([*BASE, "--models", "50"], ["--models", "Neophyte Hybrids has 10-20 models; 50 asked for"]),
    (["calc", "--attacker", "Primus", "--target", "meq", "--models", "2"],
     ["--models", "Primus has 1 model"]),
    ([*BASE, "--monte-carlo", "0"], ["--monte-carlo", "1"]),
    ([*BASE, "--charged", "yes"], ["take no value", "'yes'"]),
    ([*BASE, "--effect", "hit=5"], ["--effect", "hit", "less than or equal"]),
    ([*BASE, "--phase", "melee"], ["--phase", "'shooting', 'fight'"]),
    ([*BASE, "--rules", "9th"], ["--rules", "'11th', '10th'"]),
    ([*BASE, "--distance", "-3"], ["--distance", "0"]),
    ([*BASE, "--weapon", "Autopistol:Saturation"], ["--weapon", "whole number from 1 to"]),
    ([*BASE, "--led-by", "Death Riders"], ["--led-by", "has no Leader ability"]),
    ([*BASE, "--effect", "Primed and Readied", "--effect", "primed and readied"],
     ["--effect 'primed and readied': already used in this phase (--effect 'Primed and "
      "Readied')"]),  # the engine's refusal of a stratagem used twice (15.01)
    (["calc", "--attacker", "Intercessor Squad", "--target", "meq", "--effect",
      "Oath of Moment", "--effect", "oath of moment"],
     ["--effect 'oath of moment' is given twice"]),  # the core's (calculator.effect_twice)
    (["effects", "--detachment", "Host of Acension"], ["--detachment", "Host of Ascension"]),
    ([*BASE, "--weapon", "[/x]"], ["--weapon", "'[/x]'"]),
    ([*BASE, "--effect", "[/x]"], ["'[/x]'"]),
]


@pytest.mark.parametrize(("args", "words"), BAD, ids=[" ".join(a[4:] or a) for a, _ in BAD])
def test_bad_input_is_one_line_naming_the_flag(args: list[str], words: list[str]) -> None:
    result = runner.invoke(commands.app, args)
    assert result.exit_code == 2, result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    for word in words:
        assert word in lines[0]
    assert "http" not in lines[0] and "Traceback" not in result.output


def test_a_scenario_file_and_attacker_flags_are_contradictory(tmp_path: Path) -> None:
    example = Path(__file__).resolve().parents[2] / "examples" / "neophytes_vs_intercessors.json"
    result = runner.invoke(commands.app, ["calc", str(example), "--attacker", "Primus"])
    assert result.exit_code == 2
    assert "not both" in result.stderr


def test_a_misspelled_scenario_field_is_one_line_with_its_path(tmp_path: Path) -> None:
    doc = {"attacker": {"weapons": [{"name": "Bolt rifle", "count": 10, "A": "1", "skill": 3,
                                     "S": 4, "AP": -1, "D": "1", "abilitys": []}]},
           "target": {"models": [{"count": 10, "T": 4, "Sv": 3, "W": 2}]}}
    path = tmp_path / "s.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    result = runner.invoke(commands.app, ["calc", str(path)])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "attacker.weapons[0].abilitys" in lines[0]


def test_a_weapon_named_like_markup_prints_literally(tmp_path: Path) -> None:
    doc = {"attacker": {"weapons": [{"name": "[/x] gun [bold]", "count": 2, "A": "1",
                                     "skill": 3, "S": 4, "AP": -1, "D": "1"}]},
           "target": {"models": [{"count": 2, "T": 4, "Sv": 3, "W": 1}]}}
    path = tmp_path / "s.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    result = runner.invoke(commands.app, ["calc", str(path)])
    assert result.exit_code == 0, result.output
    assert "[/x] gun [bold]" in result.stdout


def test_another_editions_datasheet_says_which_stats_it_uses() -> None:
    """The first library unit that exists in the 11th edition only, asked under the 10th
    rules: the report and the result's notes say whose stats are used."""
    from tactica.library import load_library

    lib = load_library()
    only_11th = next((s.name for s in lib.datasheets("11th") if s.weapons
                      and all(v.rules == "11th" for v in lib.datasheet_versions(s.name))), None)
    if only_11th is None:
        pytest.skip("no unit of the library is in the 11th edition only")
    args = ["calc", "--attacker", only_11th, "--target", "meq", "--rules", "10th"]
    human = runner.invoke(commands.app, args)
    assert "no 10th-edition datasheet; its 11th-edition stats" in human.stdout
    doc = json.loads(runner.invoke(commands.app, [*args, "--json"]).stdout)
    assert any("11th-edition stats are used under the 10th rules" in n for n in doc["notes"])


def test_a_sheet_under_another_editions_rules_says_so() -> None:
    from tactica.library import load_library

    lib = load_library()
    only_11th = next((s.name for s in lib.datasheets("11th")
                      if all(v.rules == "11th" for v in lib.datasheet_versions(s.name))), None)
    if only_11th is None:
        pytest.skip("no unit of the library is in the 11th edition only")
    shown = runner.invoke(commands.app, ["sheet", only_11th, "--rules", "10th"])
    assert shown.exit_code == 0
    assert "no 10th-edition datasheet" in shown.stdout
    assert "this is the 11th-edition one" in shown.stdout


def test_a_scenario_too_large_for_the_exact_engine_is_one_line_pointing_to_monte_carlo(
        tmp_path: Path) -> None:
    """Under the 10th rules two lines of 50 D6 attacks with Devastating Wounds of
    different damage hold their criticals back jointly: refused at once (``size``); with
    ``--monte-carlo`` the same file is sampled."""
    line = {"name": "w", "count": 50, "A": "D6", "skill": 3, "S": 6, "AP": -1, "D": "D6",
            "abilities": ["Sustained Hits 2", "Devastating Wounds"]}
    doc = {"rules": "10th", "attacker": {"weapons": [line, {**line, "name": "v", "D": "D3"}]},
           "target": {"models": [{"count": 20, "T": 5, "Sv": 3, "W": 3, "fnp": 5}]}}
    path = tmp_path / "s.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    result = runner.invoke(commands.app, ["calc", str(path)])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "monte-carlo" in lines[0] and "attacker.weapons" in lines[0]
    sampled = runner.invoke(commands.app, ["calc", str(path), "--json", "--monte-carlo",
                                           "500"])
    assert sampled.exit_code == 0, sampled.output
    assert json.loads(sampled.stdout)["method"] == "monte-carlo"


def test_how_a_file_was_read_is_said_after_the_answer_never_before_a_refusal(
        tmp_path: Path) -> None:
    """A scenario file in Windows-1252: its note follows the result; refused, the file
    gives the one error line alone (issue 47, 4)."""
    doc = {"attacker": {"weapons": [{"name": "Fusil bolter é", "count": 10, "A": "1",
                                     "skill": 3, "S": 4, "AP": -1, "D": "1"}]},
           "target": {"models": [{"count": 10, "T": 4, "Sv": 3, "W": 2}]}}
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_bytes(json.dumps(doc, ensure_ascii=False).encode("cp1252"))
    doc["attacker"]["weapons"][0]["D"] = "X"
    bad.write_bytes(json.dumps(doc, ensure_ascii=False).encode("cp1252"))
    refused = runner.invoke(commands.app, ["calc", str(bad)])
    assert refused.exit_code == 2
    lines = refused.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: invalid scenario: "), lines
    answered = runner.invoke(commands.app, ["calc", str(good)])
    assert answered.exit_code == 0, answered.output
    assert "Fusil bolter é" in answered.stdout
    assert answered.stderr.strip().startswith(f"note: {good}: read as Windows-1252")
    piped = runner.invoke(commands.app, ["calc", "-"], input=bad.read_bytes())
    assert piped.exit_code == 2 and len(piped.stderr.strip().splitlines()) == 1
    assert "codec" not in piped.stderr
