"""The list formats come from one registry (``tactica.army.formats.registry``, issue 46
item 5): every door lists exactly the registry's formats — the CLI's help, the web page's
format choices and its API schema, the assistant's tool arguments — and a format
registered in a fresh interpreter appears in all of them.

The doors' listings are read back from what each door shows (help text, HTML, JSON
schema), never from the registry itself.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tactica.army.formats import (
    EXPORT_FORMATS,
    FORMATS,
    IMPORT_FORMATS,
    _sample,
    detect_format,
    export_roster,
    parse_roster,
)
from tactica.army.formats.registry import ListFormat, Sample

from .helpers import ROSTERS

#: "key (name)" as the help and argument descriptions list a format.
_LABEL = re.compile(r"([a-z0-9]+(?:-[a-z0-9]+)*) \(([^()]+)\)")


def _labels(text: str, start: str, end: str) -> list[str]:
    """The format keys listed in ``text`` between ``start`` and ``end``."""
    segment = (text.split(start, 1)[1] if start else text).split(end, 1)[0]
    return [m.group(1) for m in _LABEL.finditer(segment)]


def _cli_help(*args: str) -> str:
    from tactica.cli import commands

    result = CliRunner().invoke(commands.app, [*args, "--help"], env={"COLUMNS": "3000"})
    assert result.exit_code == 0, result.output
    return " ".join(result.output.split())


def _cli_listed() -> dict[str, list[str]]:
    text = _cli_help("list", "convert")
    return {"read": _labels(text, "input format: ", "(default: detected)"),
            "write": _labels(text, "output format: ", "[required]")}


def _web_listed() -> dict[str, list[str]]:
    from fastapi.testclient import TestClient

    from tactica.library import load_seed_library
    from tactica.web import create_app

    client = TestClient(create_app(library=load_seed_library()))  # no lifespan: no pool
    page = client.get("/list").text
    schema = client.get("/openapi.json").json()
    select = page.split('id="list-format"', 1)[1].split("</select>", 1)[0]
    options = [v for v in re.findall(r'<option value="([^"]*)"', select) if v]
    described = schema["components"]["schemas"]["ListRequest"]["properties"]["format"]
    return {"page": options,
            "api": _labels(described["description"], "", "; detected when omitted")}


def _assistant_listed() -> list[str]:
    import anyio
    from mcp import Client

    from tactica.assistant import create_server

    async def tools() -> Any:
        async with Client(create_server(), mode="legacy") as client:
            return (await client.list_tools()).tools

    listed = {t.name: t for t in anyio.run(tools)}
    fmt = listed["validate_list"].input_schema["properties"]["format"]
    described = next(v["description"] for v in fmt.get("anyOf", [fmt]) if "description" in v) \
        if "description" not in fmt else fmt["description"]
    return _labels(described, "", "(detected when omitted)")


def test_every_door_lists_the_registrys_formats() -> None:
    """The CLI help (read and write), the web page's choices and its API schema and the
    assistant's ``validate_list`` argument list the same formats, in the registry's order;
    the web page offers Rosterizer, which it lacked."""
    pytest.importorskip("fastapi")
    pytest.importorskip("mcp")
    read = list(IMPORT_FORMATS)
    assert "rosterizer" in read and "rosterizer" not in EXPORT_FORMATS
    assert _cli_listed() == {"read": read, "write": list(EXPORT_FORMATS)}
    assert _web_listed() == {"page": read, "api": read}
    assert _assistant_listed() == read


_DUMMY = """
import json, re, sys
from tactica.army.formats import register, ListFormat, parse_roster, export_roster
from tactica.army.formats import detect_format
from tactica.army.roster import Roster, RosterUnit
roster = Roster(name="D", faction="Genestealer Cults", battle_size="Strike Force",
                units=(RosterUnit(id="u1", name="Primus", points=70),))
register(ListFormat("dummy-fmt", "Dummy Maker's text",
                    lambda t, f, lib: roster.model_copy(update={"name": t.split()[1]}),
                    lambda r: "DUMMY " + r.name + "\\n",
                    lambda s: s.first.startswith("DUMMY ")))
sys.path.insert(0, sys.argv[1])
from tests.army.test_format_registry import _cli_listed, _web_listed, _assistant_listed
print(json.dumps({"cli": _cli_listed(), "web": _web_listed(),
                  "assistant": _assistant_listed(),
                  "detected": detect_format("DUMMY Name"),
                  "read": parse_roster("DUMMY Name").name,
                  "written": export_roster(roster, "dummy-fmt")}))
"""


def test_a_registered_format_appears_in_every_door() -> None:
    """A dummy format registered in a fresh interpreter (a copy of the package's state,
    not this one) is listed by every door, detected, read and written."""
    pytest.importorskip("fastapi")
    pytest.importorskip("mcp")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(Path(__file__).resolve().parents[2] / "src"), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-c", _DUMMY, str(Path(__file__).parents[2])],
                          capture_output=True, text=True, env=env, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    got = json.loads(done.stdout.strip().splitlines()[-1])
    read = [*IMPORT_FORMATS, "dummy-fmt"]
    assert got["cli"] == {"read": read, "write": [*EXPORT_FORMATS, "dummy-fmt"]}
    assert got["web"] == {"page": read, "api": read}
    assert got["assistant"] == read
    assert (got["detected"], got["read"], got["written"]) == ("dummy-fmt", "Name",
                                                              "DUMMY D\n")
    assert "dummy-fmt" not in IMPORT_FORMATS  # this interpreter's registry is untouched


def _fixture_texts() -> list[Path]:
    return sorted(p for p in ROSTERS.rglob("*") if p.is_file()
                  and p.suffix in (".txt", ".json"))


def test_each_fixture_is_recognised_by_one_format_at_most() -> None:
    """The detections are exclusive (so the registry's order cannot change an answer):
    over every list fixture, at most one format recognises the text, and it is the one
    ``detect_format`` names."""
    seen: set[str] = set()
    for path in _fixture_texts():
        text = path.read_text(encoding="utf-8", errors="replace").lstrip("\ufeff").strip()
        if not text:
            continue
        try:
            sample = _sample(text)
        except ValueError:
            continue
        hits = [f.key for f in FORMATS if f.detect is not None and f.detect(sample)]
        assert len(hits) <= 1, (path.name, hits)
        if hits:
            assert detect_format(text) == hits[0]
            seen.add(hits[0])
    assert {"gw-text", "newrecruit-text", "wtc", "newrecruit-json", "listforge-json",
            "listforge-text", "rosterizer"} <= seen


def test_a_format_of_the_registry_reads_what_it_writes() -> None:
    """Each writer's text is read back by its own entry, found by detection or by key."""
    from tactica.army.roster import Roster, RosterUnit

    roster = Roster(name="Demo", faction="Genestealer Cults", battle_size="Strike Force",
                    detachments=("Host of Ascension",), declared_points=70,
                    units=(RosterUnit(id="u1", name="Primus", points=70, warlord=True),))
    for f in FORMATS:
        if f.write is None:
            continue
        text = export_roster(roster, f.key)
        again = parse_roster(text, f.key)
        assert [u.name for u in again.units] == ["Primus"], f.key


def test_a_format_without_a_writer_is_refused_by_name() -> None:
    from tactica.army.formats import UnsupportedFormatError
    from tactica.army.roster import Roster

    with pytest.raises(UnsupportedFormatError, match="cannot export 'rosterizer'"):
        export_roster(Roster(name="D", faction="Orks", battle_size="Incursion"),
                      "rosterizer")
    with pytest.raises(UnsupportedFormatError, match="unknown format 'nope'; known: gw-text"):
        parse_roster("x", "nope")
    assert isinstance(FORMATS[0], ListFormat) and Sample(None, ("a",)).first == "a"
