"""One request for army against army at every door (issue 48, item 7): every field of
``PlanRequest`` is an option of ``tactica plan``, a control of the ``/plan`` page and an
argument of the assistant's ``plan`` tool; a field added to the model appears in the page
and the tool's schema; and one request gives the same plan through the three doors."""

from __future__ import annotations

import json
from typing import Any

import anyio
import pytest
import typer
from mcp import Client
from pydantic import Field
from typer.testing import CliRunner

from tactica.assistant import create_server
from tactica.assistant.arguments import MatchupArgs, PlanArgs, input_schema
from tactica.cli import commands
from tactica.cli.plan import matchup_command, plan_command
from tactica.library import load_library
from tactica.plan import Conditions
from tactica.plan.request import MatchupRequest, PlanRequest, RequestError
from tactica.web import plan as plan_web
from tactica.web import plan_answer


def _tool(name: str, args: dict[str, Any]) -> dict[str, Any]:
    """The assistant's answer through the SDK's own client, in-process."""
    async def go() -> Any:
        async with Client(create_server(), mode="legacy", read_timeout_seconds=300) as c:
            return await c.call_tool(name, args)

    result = anyio.run(go)
    assert not result.is_error, result.content
    document: dict[str, Any] = json.loads(result.content[0].text)
    return document

pytest.importorskip("wh40kdc")

runner = CliRunner()
MINE = "Intercessor Squad:10, Hellblaster Squad:5, Rhino"
ENEMY = "Gretchin:10, Boyz:10, Intercessor Squad:5"
LISTS = ("mine", "enemy")


def _cli_option(name: str) -> str:
    """A field's flag: its name in dashes; a field holding many (``stratagems``) is a
    repeatable flag in the singular (``--stratagem``)."""
    return "--" + name.replace("_", "-")


def _plan_params(command: Any = None) -> dict[str, set[str]]:
    one = typer.Typer()
    one.command("plan")(command or plan_command)  # the command (the app loads it lazily)
    params = typer.main.get_command(one).params
    return {p.name: set(p.opts) for p in params}


def test_every_field_is_a_cli_option_a_web_control_and_an_assistant_argument() -> None:
    params = _plan_params()
    flags = {o for opts in params.values() for o in opts}
    schema = input_schema(PlanArgs)["properties"]
    web = {c["name"] for c in plan_web.controls(plan_web.Form())}
    for name in PlanRequest.model_fields:
        assert name in schema, name
        if name in LISTS:
            assert name in params  # the two lists: the command's arguments
            continue
        option = _cli_option(name)
        assert option in flags or option.removesuffix("s") in flags, name
        assert name in web, name
    assert web == set(PlanRequest.model_fields) - set(LISTS)
    assert set(MatchupRequest.model_fields) <= set(input_schema(MatchupArgs)["properties"])
    flags = {o for opts in _plan_params(matchup_command).values() for o in opts}
    for name in set(MatchupRequest.model_fields) - set(LISTS):
        option = _cli_option(name)
        assert option in flags or option.removesuffix("s") in flags, name


@pytest.mark.anyio
async def test_the_page_shows_a_control_for_every_field() -> None:
    import httpx

    from tactica.web import create_app

    app = create_app(library=load_library)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://t.test") as c:
        page = (await c.get("/plan")).text
    for name in plan_web.OPTIONS:
        assert f'name="{name}"' in page, name


def test_a_field_added_to_the_model_appears_in_the_page_and_the_schema() -> None:
    class Wider(PlanRequest):
        ambush: bool = Field(default=False, description="a new circumstance")
        depth: float | None = Field(default=None, ge=0, le=9, description="inches")

    class WiderArgs(Wider):
        detail: str = "summary"

    names = {c["name"]: c for c in plan_web.controls(plan_web.Form(), Wider)}
    assert names["ambush"]["kind"] == "flag" and names["depth"]["kind"] == "number"
    assert names["depth"]["max"] == 9
    schema = input_schema(WiderArgs)["properties"]
    assert schema["ambush"]["type"] == "boolean" and "depth" in schema


def test_words_are_read_as_the_cli_writes_them() -> None:
    request = PlanRequest.from_words({
        "mine": MINE, "enemy": ENEMY, "forbid": "Rhino>Boyz\n", "destroy": ["Boyz"],
        "stratagems": "Hellblaster Squad=Fire Overwatch\nHellblaster Squad=Heroic",
        "distances": "Rhino=12\nIntercessor Squad>Gretchin=18",
        "charge_modifiers": {"Rhino": 1}, "reroll_charges": "Rhino", "cover": True})
    assert request.forbid == (("Rhino", "Boyz"),)
    assert request.stratagems == {"Hellblaster Squad": ("Fire Overwatch", "Heroic")}
    want = Conditions(cover=True, stratagems={"Hellblaster Squad": (
        "Fire Overwatch", "Heroic")}, distances={("Intercessor Squad", "Gretchin"): 18.0},
        unit_distances={"Rhino": 12.0}, charge_modifiers={"Rhino": 1},
        charge_rerolls=("Rhino",))
    assert request.conditions() == want
    for bad, field in (({"charge_modifiers": "Rhino=+9"}, "charge_modifiers"),
                       ({"distances": "Rhino=500"}, "distances"),
                       ({"forbid": "Rhino"}, "forbid"), ({"phase": "melee"}, "phase")):
        with pytest.raises(RequestError, match=field):
            PlanRequest.from_words({"mine": MINE, "enemy": ENEMY, **bad})


#: One request in each door's words: the CLI's flags, the page's fields, the tool's
#: arguments.
CLI = ["--stationary", "--cover", "--distance", "24", "--distance", "Rhino=12",
       "--forbid", "Hellblaster Squad>Gretchin", "--stratagem",
       "Intercessor Squad=Command Re-roll: hit", "--objective", "points"]
WEB = {"stationary": "on", "cover": "on", "distance": "24", "distances": "Rhino=12",
       "forbid": "Hellblaster Squad>Gretchin",
       "stratagems": "Intercessor Squad=Command Re-roll: hit", "objective": "points"}
TOOL = {"stationary": True, "cover": True, "distance": 24, "distances": {"Rhino": 12},
        "forbid": [["Hellblaster Squad", "Gretchin"]],
        "stratagems": {"Intercessor Squad": ["Command Re-roll: hit"]},
        "objective": "points"}


def _assignments(plan: dict[str, Any]) -> dict[str, tuple[str, ...]]:
    return {v["target"]: tuple(v["order"]) for v in plan["plan"]["volleys"]}


@pytest.mark.parametrize("phase", ["shooting", "fight"])
def test_one_request_gives_one_plan_at_every_door(phase: str) -> None:
    res = runner.invoke(commands.app, ["plan", MINE, ENEMY, *CLI, "--phase", phase,
                                       "--json"])
    assert res.exit_code == 0, res.output
    cli = json.loads(res.stdout)
    form = plan_web._form({"mine": MINE, "enemy": ENEMY, **WEB, "phase": phase})
    assert not form.errors and form.request is not None
    answer = plan_answer.compute(form.request, None, "points", load_library())
    web = answer["plan"]  # what the page shows (``plan_answer``: a worker's JSON)
    tool = _tool("plan", {"mine": MINE, "enemy": ENEMY, **TOOL, "phase": phase,
                          "detail": "all"})
    assert cli["plan"]["volleys"] and cli["phase"] == phase, cli
    for doc in (tool,):
        assert _assignments(doc) == _assignments(cli)
        assert abs(doc["plan"]["score"] - cli["plan"]["score"]) <= 1e-9
        assert abs(doc["plan"]["points_destroyed"] - cli["plan"]["points_destroyed"]) <= 1e-9
        assert doc["idle"] == cli["idle"] and doc["phase"] == phase
    assert {v["target"]: tuple(v["order"]) for v in web["volleys"]} == _assignments(cli)
    assert abs(web["points"] - cli["plan"]["points_destroyed"]) <= 1e-9
    assert web["idle"] == cli["idle"] and web["phase"] == phase
    picture = answer["picture"]
    assert picture is None or picture.startswith("data:image/svg+xml;base64,")
