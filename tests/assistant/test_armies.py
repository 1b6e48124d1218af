"""``matchup`` and ``plan`` through the SDK's client, in-process: each answer is the
document the core's public API gives (``tactica.plan.matchup`` / ``tactica.plan.plan``,
to 1e-12) and what ``tactica matchup --json`` / ``tactica plan --json`` print; bad
arguments are one line, and a list is never read from the server's files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from mcp.server.lowlevel import Server
from typer.testing import CliRunner

import tactica.plan
from tactica.assistant import Limits, create_server
from tactica.cli import commands
from tactica.library import load_library
from tactica.plan import Conditions

from .helpers import answer, assert_close, call, call_many, core, refusal

pytest.importorskip("wh40kdc")

ROOT = Path(__file__).resolve().parents[2]
ORKS = ROOT / "tests" / "fixtures" / "rosters" / "gw-app-11e" / "official_16.txt"
OVERCAP = ROOT / "tests" / "fixtures" / "rosters" / "sm-detachment-overcap" / \
    "input.newrecruit-json.json"
MINE = "Intercessor Squad:10, Hellblaster Squad:5"
ENEMY = "Gretchin:10, Rhino, Boyz:10"


def test_the_army_tools_are_listed_with_their_schemas(server: Server[Any]) -> None:
    import anyio
    from mcp import Client

    async def tools() -> Any:
        async with Client(server, mode="legacy") as client:
            return {t.name: t for t in (await client.list_tools()).tools}

    listed = anyio.run(tools)
    for name in ("matchup", "plan"):
        tool = listed[name]
        assert tool.annotations is not None and tool.annotations.read_only_hint
        assert tool.input_schema["required"] == ["mine", "enemy"]
        assert tool.input_schema["additionalProperties"] is False
    assert listed["plan"].input_schema["properties"]["objective"]["enum"] == \
        ["points", "threat"]


def test_matchup_is_the_cores_matrix(server: Server[Any]) -> None:
    args = {"mine": MINE, "enemy": ENEMY, "half_range": True, "charge": 7, "detail": "all"}
    got = answer(call(server, "matchup", args))
    want = tactica.plan.matchup(MINE, ENEMY, conditions=Conditions(charge=7, half_range=True),
                                library=load_library())
    assert got["detail"] == "all" and got["omitted"] == []
    assert_close(core(got), want.to_json())
    # 2 x 3 units, both phases, both sides
    assert len(got["cells"]) == 2 * 2 * 3 * 2
    # 2D6 >= 7 is exactly 21/36; the engine sums 21 of the 36 outcomes' chances, so the
    # float may differ from 21 / 36 in the last bit with the summation order (numpy versions)
    charges = [c["p_charge"] for c in got["cells"] if c["phase"] == "fight"]
    assert charges and all(abs(p - 21 / 36) <= 1e-12 for p in charges)


def test_matchup_of_a_real_list_is_what_the_command_line_prints(server: Server[Any]) -> None:
    text = ORKS.read_text(encoding="utf-8")
    args = {"mine": text, "enemy": "Intercessor Squad:10", "phases": ["shooting"],
            "sides": "mine", "stratagems": {"Intercessor Squad": ["Armour of Contempt"]},
            "detail": "all"}
    got = core(answer(call(server, "matchup", args)))
    printed = CliRunner().invoke(commands.app, [
        "matchup", str(ORKS), "Intercessor Squad:10", "--phase", "shooting", "--side",
        "mine", "--stratagem", "Intercessor Squad=Armour of Contempt", "--json"])
    assert printed.exit_code == 0, printed.output
    want = json.loads(printed.stdout)
    want["mine"]["name"] = "my list"  # the command line names the side by its file
    assert_close(got, want)
    assert got["mine"]["faction"] == "Orks" and len(got["mine"]["units"]) > 5


@pytest.mark.parametrize("extra", [{}, {"objective": "threat"},
                                   {"destroy": ["Rhino"], "forbid": [["Hellblaster Squad",
                                                                      "Gretchin"]]}],
                         ids=["points", "threat", "destroy and forbid"])
def test_plan_is_the_cores_plan(server: Server[Any], extra: dict[str, Any]) -> None:
    got = core(answer(call(server, "plan", {"mine": MINE, "enemy": ENEMY, "detail": "all",
                                            **extra})))
    want = tactica.plan.plan(MINE, ENEMY, library=load_library(),
                             objective=extra.get("objective", "points"),
                             destroy=extra.get("destroy", ()),
                             forbidden=[tuple(p) for p in extra.get("forbid", ())])
    assert_close(got, want.to_json())
    assert got["plan"]["points_destroyed"] >= got["naive"]["points_destroyed"] - 1e-9
    if "forbid" in extra:
        assert all(not (v["target"] == "Gretchin" and "Hellblaster Squad" in v["order"])
                   for v in got["plan"]["volleys"])


#: (tool, arguments, words the one line must contain)
BAD: list[tuple[str, dict[str, Any], list[str]]] = [
    ("matchup", {"mine": "/etc/hostname", "enemy": ENEMY},
     ["my list", "reads as a file name", "list's text"]),
    ("plan", {"mine": "army.txt", "enemy": ENEMY}, ["reads as a file name"]),
    ("matchup", {"mine": "Intercesor Squad:10", "enemy": ENEMY},
     ["Intercesor Squad", "Intercessor Squad"]),
    ("matchup", {"mine": ", ".join(["Gretchin:10"] * 41), "enemy": ENEMY},
     ["mine: 41 units; at most 40"]),
    ("matchup", {"mine": MINE, "enemy": ENEMY, "stratagems": {"Termagants": ["Fire "
                                                                             "Overwatch"]}},
     ["stratagems", "no unit named 'Termagants'"]),
    ("matchup", {"mine": MINE, "enemy": ENEMY,
                 "stratagems": {"Intercessor Squad": ["Armour of Contemt"]}},
     ["stratagems", "Armour of Contempt"]),
    ("matchup", {"mine": MINE, "enemy": ENEMY, "phases": ["charge"]}, ["phases"]),
    ("matchup", {"mine": MINE, "enemy": ENEMY, "sides": "ours"}, ["sides"]),
    ("matchup", {"mine": MINE, "enemy": ENEMY, "charge": 60}, ["charge", "48"]),
    ("matchup", {"mine": MINE}, ["enemy", "required"]),
    ("matchup", {"mine_list": MINE, "enemy": ENEMY},
     ["mine_list: unknown argument; matchup takes mine, enemy"]),
    ("plan", {"mine": MINE, "enemy": ENEMY, "forbid": [["Hellblaster Squad", "Gretch"]]},
     ["no unit of enemy list named 'Gretch'", "Gretchin"]),
    ("plan", {"mine": MINE, "enemy": ENEMY, "destroy": ["Boys"]}, ["Boys", "Boyz"]),
    ("plan", {"mine": MINE, "enemy": ENEMY, "forbid": [["Hellblaster Squad"]]}, ["forbid"]),
    ("plan", {"mine": MINE, "enemy": ENEMY, "objective": "kills"}, ["objective"]),
    ("plan", {"mine": OVERCAP.read_text(encoding="utf-8"), "enemy": ENEMY, "strict": True},
     ["my list", "the list does not validate"]),
]


@pytest.mark.parametrize(("tool", "args", "words"), BAD,
                         ids=[f"{t} {json.dumps(a)[:50]}" for t, a, _ in BAD])
def test_a_bad_army_argument_is_one_line(server: Server[Any], tool: str,
                                         args: dict[str, Any], words: list[str]) -> None:
    refused, after = call_many(server, [(tool, args), ("matchup", {
        "mine": "Intercessor Squad:5", "enemy": "Gretchin:10", "phases": ["shooting"],
        "sides": "mine"})])
    line = refusal(refused)
    for word in words:
        assert word in line, line
    answer(after)  # the server lives on


def test_an_army_call_past_its_own_time_bound_is_refused() -> None:
    # the calculations keep their short bound; the armies have their own
    server = create_server(Limits(timeout=60.0, army_timeout=0.0, workers=1))
    late, on_time = call_many(server, [
        ("plan", {"mine": MINE, "enemy": ENEMY}),
        ("lookup_unit", {"name": "Gretchin"})])
    assert "no answer within 0 s; name fewer units" in refusal(late)
    assert answer(on_time)["datasheet"]["name"] == "Gretchin"
