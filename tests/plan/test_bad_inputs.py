"""Generated inputs for ``tactica matchup`` and ``tactica plan`` (issue 47): two armies as
unit names (good, misspelt, empty, with counts that are no counts, markup, a lone
surrogate, a NUL) or as list files (the real fixtures, mutated line by line, a folder, a
binary file, a file that is not there), and options of every kind and value. Each run is
an answer or a refusal of one line naming the place (``answered``), never a traceback.

The default run checks a sample; the ``_at_volume`` twins (``-m slow``) the full count.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from hypothesis.control import currently_in_test_context
from typer.testing import CliRunner

from answered import answered
from tactica.cli import commands
from volume import sampled

ROSTERS = Path(__file__).resolve().parents[1] / "fixtures" / "rosters"
LISTS = sorted((ROSTERS / "gw-app-11e").glob("*.txt"))
FIXTURES = sorted(p for p in ROSTERS.rglob("input.*") if p.is_file())

GOOD = ["Intercessor Squad", "Gretchin", "Boyz", "Rhino", "Primus", "Neophyte Hybrids",
        "Lieutenant", "Kelermorph", "Gladiator Lancer", "Hellblaster Squad"]
BAD = ["", " ", "Intercesor Squad", "[/x]", "[bold]x", "\ud800", "x\x00y", "Boyz" * 100,
       "Ｂｏｙｚ", "meq", "Acolyte Hybrids", "/tmp", "army.txt"]
COUNTS = ["", "", ":10", ":5", ":1", ":0", ":-1", ":1e9", ":999999", ":１０", ":", "::",
          ":10:3", ":x", ": 5"]
LEADERS = ["", "", "", "+Lieutenant", "+Primus", "+", "+Nope", "+Boyz"]

UNIT = st.builds(lambda name, count, leader: name + count + leader,
                 st.sampled_from(GOOD + BAD), st.sampled_from(COUNTS),
                 st.sampled_from(LEADERS))
NAMES = st.builds(lambda units, sep: sep.join(units), st.lists(UNIT, max_size=3),
                  st.sampled_from([", ", ", ", ";", ",,", " , ", "\n"]))
#: A line edit of a list file: (kind, line, text)
EDIT = st.tuples(st.sampled_from(["delete", "duplicate", "insert", "cut", "nines"]),
                 st.integers(0, 400),
                 st.sampled_from([b"", b"\xff\xfe", b"Boyz (99999999 points)", b"+++", b"{",
                                  b"  \xe2\x80\xa2 1x [/x]", b"\x00", b"\xed\xa0\x80"]))
FILE = st.tuples(st.sampled_from(LISTS + FIXTURES), st.lists(EDIT, max_size=3))
ODD = st.sampled_from(["/nonexistent/list.txt", "FOLDER", "BINARY"])
#: a small army that reads: a few units named, at a size they take or their least
GOOD_NAMES = st.lists(st.builds(lambda name, count: name + count, st.sampled_from(GOOD),
                                st.sampled_from(["", "", ":10", ":5"])),
                      min_size=1, max_size=2).map(", ".join)
#: an army: unit names (good, or any), a list file as it is, mutated, or no list at all
ARMY = st.one_of(GOOD_NAMES, GOOD_NAMES, NAMES, st.sampled_from(LISTS), FILE, ODD)

WORDS = ["shooting", "fight", "melee", "", "x", "\ud800", "both", "mine", "enemy",
         "points", "per100", "models", "destroy", "damage", "threat"]
STRATAGEMS = ["A=B", "=", "x", "Intercessor Squad=Fire Overwatch", "Boyz=\ud800",
              "Gretchin=Oath of Moment"]
MATCHUP_OPTION = st.one_of(
    st.tuples(st.sampled_from(["--phase", "--side", "--value"]), st.sampled_from(WORDS)),
    st.tuples(st.just("--charge"), st.sampled_from(["-1", "49", "nan", "x", "7", "1e400"])),
    st.tuples(st.just("--stratagem"), st.sampled_from(STRATAGEMS)),
    st.tuples(st.just("--rules"), st.sampled_from(["9th", "10th", "11th", ""])),
    st.tuples(st.sampled_from(["--json", "--csv", "--stationary", "--cover", "--half-range"])),
    st.tuples(st.just("--plot"), st.sampled_from(["PICTURE.svg", "PICTURE.jpg",
                                                   "/nonexistent/x.svg", "FOLDER"])))
PLAN_OPTION = st.one_of(
    st.tuples(st.just("--forbid"), st.sampled_from(["A>B", ">", "Intercessor Squad>Boyz", "x",
                                                     "Rhino>\ud800"])),
    st.tuples(st.just("--destroy"), st.sampled_from(GOOD + BAD)),
    st.tuples(st.just("--objective"), st.sampled_from(WORDS)),
    st.tuples(st.just("--stratagem"), st.sampled_from(STRATAGEMS)),
    st.tuples(st.just("--rules"), st.sampled_from(["9th", "10th"])),
    st.tuples(st.sampled_from(["--json", "--stationary", "--cover", "--half-range"])))

GENERATED = settings(derandomize=True, max_examples=150, deadline=None,
                     suppress_health_check=[HealthCheck.too_slow])
runner = CliRunner()


def _edited(path: Path, edits: list[tuple[str, int, bytes]]) -> bytes:
    lines = path.read_bytes().split(b"\n")
    for kind, i, text in edits:
        i %= max(1, len(lines))
        if kind == "delete" and lines:
            del lines[i]
        elif kind == "duplicate" and lines:
            lines.insert(i, lines[i])
        elif kind == "insert":
            lines.insert(i, text)
        elif kind == "cut" and lines:
            lines[i] = lines[i][: len(lines[i]) // 2]
        elif kind == "nines" and lines:
            lines[i] = lines[i].replace(b"1", b"9999999")
    return b"\n".join(lines)


def _argument(army: object, folder: Path, n: int) -> str:
    """The command-line argument of ``army``, writing the files it needs in ``folder``."""
    if isinstance(army, Path):
        return str(army)
    if isinstance(army, tuple):
        source, edits = army
        path = folder / f"army{n}{source.suffix}"
        path.write_bytes(_edited(source, edits))
        return str(path)
    if army == "FOLDER":
        return str(folder)
    if army == "BINARY":
        path = folder / f"binary{n}.txt"
        path.write_bytes(bytes(range(256)) * 4)
        return str(path)
    assert isinstance(army, str)
    return army


def _options(chosen: list[tuple[str, ...]], folder: Path) -> list[str]:
    out: list[str] = []
    for option in chosen:
        out += [str(folder / a) if a in ("PICTURE.svg", "PICTURE.jpg") else
                str(folder) if a == "FOLDER" else a for a in option]
    return out


def _run(command: str, mine: object, enemy: object,
         options: list[tuple[str, ...]]) -> str:
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        args = [command, _argument(mine, folder, 1), _argument(enemy, folder, 2),
                *_options(options, folder)]
        outcome = answered(runner.invoke(commands.app, args, env={"COLUMNS": "200"}))
        if currently_in_test_context():  # --hypothesis-show-statistics counts them
            event(f"{command}: {outcome}")
        return outcome


@GENERATED
@given(ARMY, ARMY, st.lists(MATCHUP_OPTION, max_size=2))
def test_matchup_answers_or_refuses_in_one_line(mine: object, enemy: object,
                                                 options: list[tuple[str, ...]]) -> None:
    _run("matchup", mine, enemy, options)


@GENERATED
@given(ARMY, ARMY, st.lists(PLAN_OPTION, max_size=2))
def test_plan_answers_or_refuses_in_one_line(mine: object, enemy: object,
                                              options: list[tuple[str, ...]]) -> None:
    _run("plan", mine, enemy, options)


def test_the_generated_inputs_reach_both_outcomes() -> None:
    """The strategies are not hollow: small armies are answered, odd ones refused."""
    assert _run("matchup", "Intercessor Squad:5", "Gretchin:10", [("--phase", "shooting")]) \
        == "answer"
    assert _run("plan", "Intercessor Squad:5, Rhino", "Boyz:10", []) == "answer"
    assert _run("matchup", "Boyz:0", "Gretchin", []) == "refusal"
    assert _run("plan", "FOLDER", "Gretchin", []) == "refusal"


#: Refusals the generators met, kept (issue 47): each names the army as given.
KEPT = [
    (["plan", "Boyz" * 100, "Boyz"], "my list: unit 1 ("),
    (["plan", "/tmp", "Boyz"], "my list: /tmp: is a folder, not a file"),
    (["matchup", "Boyz:0", "Gretchin"], "my list: unit 1 ('Boyz:0'): Boyz has 10-20 "
     "models; 0 asked for"),
    (["matchup", "Boyz", "Gretchin:25"], "enemy list: unit 1 ('Gretchin:25'): Gretchin has "
     "10-20 models; 25 asked for"),
    (["plan", "Boyz", "/nonexistent/list.txt"], "enemy list: /nonexistent/list.txt: no "
     "such file"),
    (["plan", ", ".join(["Intercessor Squad:5"] * 40 + ["Gretchen"]), "Boyz"],
     "my list: unit 41 ('Gretchen'): no unit named 'Gretchen'"),
    (["matchup", "Boyz", ""], "enemy list: no unit names"),
    (["matchup", "Boyz", "Boyz:1\nGretchin"], "enemy list: unrecognised first line"),
]


def test_the_kept_cases_are_one_line_naming_the_army() -> None:
    for args, start in KEPT:
        result = runner.invoke(commands.app, args)
        assert answered(result) == "refusal"
        assert result.stderr.strip().startswith(f"error: {start}"), result.stderr


def test_a_list_file_in_another_encoding_is_read_as_list_reads_it(tmp_path: Path) -> None:
    """A list file in Windows-1252 is read (``textfile``), as ``tactica list`` reads it;
    it was refused with ``cannot be read (UnicodeDecodeError)``."""
    text = LISTS[0].read_text(encoding="utf-8")
    path = tmp_path / "army.txt"
    path.write_bytes(text.encode("cp1252", errors="replace"))
    result = runner.invoke(commands.app, ["matchup", str(path), "Gretchin:10", "--phase",
                                          "shooting", "--side", "mine", "--csv"])
    assert answered(result) in ("answer", "refusal")
    assert "UnicodeDecodeError" not in result.output


# --- the default run's samples (tests/volume.py) ---
(test_matchup_answers_or_refuses_in_one_line,
 test_matchup_answers_or_refuses_in_one_line_at_volume) = sampled(
    test_matchup_answers_or_refuses_in_one_line, 8)
(test_plan_answers_or_refuses_in_one_line,
 test_plan_answers_or_refuses_in_one_line_at_volume) = sampled(
    test_plan_answers_or_refuses_in_one_line, 8)
