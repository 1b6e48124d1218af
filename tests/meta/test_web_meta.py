"""The ``/meta`` page in-process (httpx's ASGI transport) over a table the seed library
makes: its rows are the table's, sorted and filtered as pandas sorts and filters the same
table read back (``tactica.meta.load``); a page of rows at a time; a value no row has, or
a column that is not one, is named; the page follows the app's rules (the CSP header, no
inline script or style, the fields and links in the classes that give them 16 px text
and 44 px targets)."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterator
from html import unescape
from pathlib import Path

import httpx
import pandas as pd
import pytest
from fastapi import FastAPI

from tactica.library import Library
from tactica.meta import Selection, load, run
from tactica.version import __version__
from tactica.web import create_app
from tactica.web.meta import PAGE_ROWS


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory, seed_selection: Selection,
          seed_lib: Library) -> Path:
    folder = tmp_path_factory.mktemp("meta-web")
    run(seed_selection, folder, lib=seed_lib)
    return folder


@pytest.fixture(scope="module")
def app(table: Path, seed_lib: Library) -> Iterator[FastAPI]:
    application = create_app(library=lambda: seed_lib, meta=table)
    yield application
    application.state.calc_pool.close()


@pytest.fixture
async def client(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://tactica.test") as c:
        yield c


def _rows(page: str) -> list[list[str]]:
    body = page.split('class="table meta-table', 1)[1].split("</table>", 1)[0]
    return [[unescape(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", tr)]
            for tr in re.findall(r"<tr>(.*?)</tr>", body, flags=re.S) if "<td" in tr]


def _count(page: str) -> int:
    found = re.search(r'id="meta-count">([\d,]+) matchups', page)
    assert found, page
    return int(found.group(1).replace(",", ""))


def _expected(df: pd.DataFrame, column: str, ascending: bool) -> list[tuple[str, str, str]]:
    """The order the page promises, made by pandas: the column, missing values last, ties
    by attacker, target, phase and edition."""
    ordered = df.sort_values([column, "attacker", "target", "phase", "edition"],
                             ascending=[ascending, True, True, True, True],
                             na_position="last", kind="stable")
    return list(zip(ordered.attacker, ordered.target, ordered.phase, strict=True))


@pytest.mark.anyio
async def test_the_default_view_is_the_table_by_points_per_100(
        client: httpx.AsyncClient, table: Path) -> None:
    res = await client.get("/meta")
    assert res.status_code == 200, res.text
    df = load(table)
    computed = df[df.status == "computed"]
    assert _count(res.text) == len(computed)
    shown = [(r[0], r[3], r[4]) for r in _rows(res.text)]
    assert len(shown) == min(PAGE_ROWS, len(computed))
    assert shown == _expected(computed, "points_per_100", ascending=False)[:len(shown)]
    assert "content-security-policy" in res.headers
    # no script of its own: the only one is every page's shell (the phone's menu, the
    # offline page), and the page works without it (its cells carry their headings)
    assert re.findall(r"<script[^>]*>", res.text) == [
        '<script src="/static/site.js?v=0.1.0">'.replace("0.1.0", __version__)]
    assert "style=" not in res.text
    assert 'data-label="Expected damage"' in res.text
    # every field and link in the classes that size them (16 px text, 44 px targets)
    assert res.text.count('<a class="sort"') == 11


@pytest.mark.anyio
async def test_filters_and_a_sort_give_pandas_rows(client: httpx.AsyncClient,
                                                  table: Path) -> None:
    df = load(table)
    want = df[(df.target == "meq") & (df.phase == "fight") & (df.status == "computed")]
    res = await client.get("/meta", params={"target": "meq", "phase": "fight",
                                            "sort": "expected_damage", "order": "asc"})
    assert res.status_code == 200, res.text
    assert _count(res.text) == len(want) > 0
    rows = _rows(res.text)
    assert [(r[0], r[3], r[4]) for r in rows] == _expected(want, "expected_damage", True)
    for r, (_, row) in zip(rows, want.sort_values(
            ["expected_damage", "attacker"], kind="stable").iterrows(), strict=True):
        assert r[6] == f"{row.expected_damage:.2f}"  # the figure as the table holds it
    # the heading of the sorted column turns the order round
    link = unescape(re.search(r'aria-sort="ascending"><a class="sort" href="([^"]+)"',
                              res.text).group(1))  # type: ignore[union-attr]
    again = await client.get(link)
    assert [(r[0], r[3], r[4]) for r in _rows(again.text)] == \
        _expected(want, "expected_damage", False)


@pytest.mark.anyio
async def test_a_unit_name_part_and_the_refused_rows(client: httpx.AsyncClient,
                                                    table: Path) -> None:
    df = load(table)
    res = await client.get("/meta", params={"unit": "PRIM", "refused": "1"})
    want = df[df.attacker.str.lower().str.contains("prim")]
    assert _count(res.text) == len(want) > 0
    assert {r[0] for r in _rows(res.text)} == set(want.attacker)


@pytest.mark.anyio
async def test_pages_of_rows(client: httpx.AsyncClient, table: Path) -> None:
    df = load(table)
    every = _expected(df[df.status == "computed"], "points_per_100", ascending=False)
    assert len(every) > PAGE_ROWS  # the seed table has more than a page
    first = await client.get("/meta")
    link = unescape(re.search(r'id="meta-next" href="([^"]+)"',
                              first.text).group(1))  # type: ignore[union-attr]
    second = await client.get(link)
    shown = [(r[0], r[3], r[4]) for r in _rows(second.text)]
    assert shown == every[PAGE_ROWS:2 * PAGE_ROWS]
    assert 'id="meta-prev"' in second.text


@pytest.mark.anyio
@pytest.mark.parametrize(("params", "said"), [
    ({"target": "nowhere"}, "Target: no rows for &#39;nowhere&#39;"),
    ({"sort": "note; DROP TABLE meta"}, "sort: pick a column heading"),
    ({"page": "two"}, "page: a whole number"),
])
async def test_what_cannot_be_read_is_named(client: httpx.AsyncClient,
                                            params: dict[str, str], said: str) -> None:
    res = await client.get("/meta", params=params)
    assert res.status_code == 422
    assert said in res.text
    assert _count(res.text) > 0  # the rest of the view still shown


@pytest.mark.anyio
async def test_without_a_table_the_page_says_how_to_make_one(seed_lib: Library) -> None:
    application = create_app(library=lambda: seed_lib)
    transport = httpx.ASGITransport(app=application)
    async with httpx.AsyncClient(transport=transport, base_url="http://tactica.test") as c:
        res = await c.get("/meta")
    application.state.calc_pool.close()
    assert res.status_code == 200
    # the two commands, with a folder named in both
    assert 'tactica meta --faction "Genestealer Cults" -o meta-table' in unescape(res.text)
    assert "tactica serve --meta meta-table" in res.text


@pytest.mark.anyio
async def test_a_table_of_detachment_rules_shows_the_detachment(tmp_path: Path) -> None:
    """A ``--detachment-rules`` table: each row names its detachment (– for the row
    without), so the rows of one matchup can be told apart; the column is not a sort."""
    from tactica.library import load_library

    lib = load_library()
    sel = Selection(attackers=("Beastboss",), targets=("tank",), editions=("11th",),
                    phases=("shooting",), detachment_rules=True)
    run(sel, tmp_path, lib=lib)
    application = create_app(library=lambda: lib, meta=tmp_path)
    try:
        transport = httpx.ASGITransport(app=application)
        async with httpx.AsyncClient(transport=transport, base_url="http://t.test") as c:
            res = await c.get("/meta")
    finally:
        application.state.calc_pool.close()
    assert res.status_code == 200, res.text
    assert "<th>Detachment</th>" in res.text
    assert res.text.count('<a class="sort"') == 11
    detachments = [r[-1] for r in _rows(res.text)]
    df = load(tmp_path)
    assert sorted(detachments) == sorted(d if isinstance(d, str) else "–"
                                         for d in df.detachment)
    assert "Da Big Hunt" in detachments and "–" in detachments
