"""A rule by name through every door that shows one: ``tactica rule NAME`` (the index of
rules by name on disk), the web API and the web page, over the configured sources (the
index, as the CLI) and over an app's own library (the same look-up in that library).
The sources are the seed pages alone (``--no-dataset``): a small library, quick to index.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from tactica.cli.app import app as cli_app
from tactica.library import load_seed_library
from tactica.source_choice import configured_sources, use_sources
from tactica.web import create_app
from tactica.web.compute import CalcPool

pytestmark = pytest.mark.anyio

#: (command line after ``rule``): a stratagem, a datasheet ability, a core rule with two
#: versions, one version asked for, a weapon ability the calculator computes.
CASES = [
    ["Primed and Readied"],
    ["Cult Demagogue"],
    ["Rapid Fire"],
    ["deep strike", "--rules", "10th"],
    ["Lethal Hits"],
]


@pytest.fixture(autouse=True)
def seeds_only() -> Iterator[None]:
    before = configured_sources()
    use_sources((), dataset=False)
    yield None
    use_sources(before[0], dataset=before[1])


async def _web(application: Any, name: str, rules: str | None) -> tuple[list[Any], str]:
    transport = httpx.ASGITransport(app=application)
    params = {} if rules is None else {"rules": rules}
    async with httpx.AsyncClient(transport=transport, base_url="http://tactica.test") as c:
        api = await c.get(f"/api/rules/{name}", params=params)
        page = await c.get(f"/rules/{name}", params=params)
    assert api.status_code == page.status_code == 200
    return api.json(), page.text


def _cli(argv: list[str]) -> str:
    done = CliRunner().invoke(cli_app, ["--no-dataset", "rule", *argv],
                              env={"COLUMNS": "200"})
    assert done.exit_code == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("argv", CASES)
async def test_the_cli_and_the_web_give_the_same_entries(argv: list[str],
                                                         calc_pool: CalcPool) -> None:
    name, rules = argv[0], (argv[2] if len(argv) > 2 else None)
    indexed, page = await _web(create_app(calc_pool=calc_pool), name, rules)
    own, own_page = await _web(create_app(library=load_seed_library, calc_pool=calc_pool),
                               name, rules)
    assert indexed == own  # the index on disk and the app's own library agree
    assert page == own_page
    out = _cli(argv)
    published = [e for e in indexed if e["published"]]
    # the CLI prints one panel per published entry: its title line names the rule, its
    # bottom line the rules version
    tops = [line for line in out.splitlines() if line.startswith("╭")]
    bottoms = [line for line in out.splitlines() if line.startswith("╰")]
    assert len(tops) == len(bottoms) == len(published)
    for entry, top, bottom in zip(published, tops, bottoms, strict=True):
        assert entry["name"].casefold() in top.casefold()
        assert f"{entry['rules']} rules" in bottom
    # the page: one card per entry, each named, the calculator's notes as the CLI's
    assert page.count('class="panel rule-card"') == len(indexed)
    text = html.unescape(page)
    for entry in indexed:
        assert entry["name"] in text
    cli_notes = [line for line in out.splitlines() if line.startswith("calculator: ")]
    assert len(re.findall(r"Calculator: ", text)) == len(cli_notes)
    kinds = {e["kind"] for e in indexed}
    if name == "Primed and Readied":
        assert kinds == {"stratagem"}
    if name == "Cult Demagogue":
        assert kinds == {"ability"}


async def test_an_unknown_rule_is_refused_alike(calc_pool: CalcPool) -> None:
    transport = httpx.ASGITransport(app=create_app(calc_pool=calc_pool))
    async with httpx.AsyncClient(transport=transport, base_url="http://tactica.test") as c:
        api = await c.get("/api/rules/Primed and Reddied")
        page = await c.get("/rules/Primed and Reddied")
    done = CliRunner().invoke(cli_app, ["--no-dataset", "rule", "Primed and Reddied"])
    assert (api.status_code, page.status_code, done.exit_code) == (404, 404, 2)
    assert "Primed and Readied" in done.stderr and "Primed and Readied" in page.text
