"""Answers an assistant can read whole: names found from a player's words
(``find_units``), lists a page at a time, the army tools' summaries (at most 20 KB for two
real 2,000-point lists, whose whole matrix is over 500 KB), and every answer saying what
it left out and how to ask for it (``omitted``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from mcp.server.lowlevel import Server

from tactica.library import load_library
from tactica.lookup import find_units

from .helpers import answer, call, call_many, core

ROSTERS = Path(__file__).resolve().parents[1] / "fixtures" / "rosters" / "gw-app-11e"
MINE = "Intercessor Squad:10, Hellblaster Squad:5, Eradicator Squad:3"
ENEMY = "Gretchin:10, Rhino, Boyz:10, Termagants:20"
#: The bound on a default answer for two 2,000-point lists (issue 44).
MAX_ANSWER = 20 * 1024


def _kb(document: dict[str, Any]) -> int:
    """Bytes of an answer as the server sends it (compact JSON, UTF-8)."""
    return len(json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode())


def test_find_units_gives_the_plain_unit_first_and_pages(server: Server[Any]) -> None:
    first, rest, none = (answer(r) for r in call_many(server, [
        ("find_units", {"query": "Intercessors", "limit": 2}),
        ("find_units", {"query": "Intercessors", "offset": 2, "limit": 50}),
        ("find_units", {"query": "qwertyuiop"})]))
    assert [u["name"] for u in first["units"]] == ["Intercessor Squad",
                                                   "Heavy Intercessor Squad"]
    assert first["units"][0]["matched"] == "name" and first["units"][0]["models"] == [5, 10]
    assert first["total"] == rest["total"] > 4
    assert first["omitted"] == [f"matches 3-{first['total']}: offset 2"]
    assert len(rest["units"]) == rest["total"] - 2 and rest["omitted"] == ["matches 1-2: offset 0"]
    assert none["total"] == 0 and "nothing matched" in none["omitted"][0]


def test_list_units_pages_and_says_how_to_ask_for_the_next(server: Server[Any]) -> None:
    pages = [answer(r) for r in call_many(server, [
        ("list_units", {"keyword": "infantry"}),
        ("list_units", {"keyword": "infantry", "offset": 50, "limit": 80})])]
    want = [d.name for d in find_units(load_library(), keyword="infantry")]
    assert pages[0]["total"] == len(want) > 250
    assert [u["name"] for u in pages[0]["units"]] == want[:50]  # the default page: 50
    assert pages[0]["omitted"] == [f"units 51-{len(want)}: offset 50"]
    assert [u["name"] for u in pages[1]["units"]] == want[50:130]
    assert pages[1]["omitted"] == ["units 1-50: offset 0",
                                   f"units 131-{len(want)}: offset 130"]
    assert _kb(pages[1]) <= MAX_ANSWER


def test_the_matchup_summary_holds_the_best_cells_of_the_whole(server: Server[Any]) -> None:
    summary, whole = (answer(r) for r in call_many(server, [
        ("matchup", {"mine": MINE, "enemy": ENEMY, "top": 3}),
        ("matchup", {"mine": MINE, "enemy": ENEMY, "detail": "all"})]))
    assert summary["detail"] == "summary" and whole["detail"] == "all"
    assert summary["mine"]["units"] == [
        {k: u[k] for k in ("label", "points", "models")} for u in whole["mine"]["units"]]
    for side in ("mine", "enemy"):
        for phase in ("shooting", "fight"):
            cells = [c for c in whole["cells"] if c["side"] == side and c["phase"] == phase
                     and c["status"] == "ok"]
            cells.sort(key=lambda c: -c["points_destroyed"])
            best = summary["best"][side][phase]
            assert len(best) == 3
            assert [(c["attacker"], c["target"], c["points_destroyed"]) for c in best] == \
                [(c["attacker"], c["target"], c["points_destroyed"]) for c in cells[:3]]
    noted = {n for c in whole["cells"] for n in c["notes"]}
    assert {n["note"] for n in summary["notes"]} == noted
    assert len(summary["omitted"]) == 1 and 'detail "all"' in summary["omitted"][0]
    assert f"{len(whole['cells'])} in all" in summary["omitted"][0]
    cannot = {(c["side"], c["phase"], c["attacker"]) for c in whole["cells"]
              if c["status"] != "ok"}
    assert {(c["side"], c["phase"], c["attacker"]) for c in summary["cannot_attack"]} == cannot


def test_the_plan_summary_is_the_plan_without_the_naive_volleys(server: Server[Any]) -> None:
    summary, whole = (answer(r) for r in call_many(server, [
        ("plan", {"mine": MINE, "enemy": ENEMY}),
        ("plan", {"mine": MINE, "enemy": ENEMY, "detail": "all"})]))
    assert core(summary) == {**core(whole), "naive": {
        k: v for k, v in whole["naive"].items() if k != "volleys"}}
    assert summary["omitted"] == ["the naive plan's volleys (each unit at its own best "
                                  "target): detail \"all\""]


#: The plan of two real lists runs scipy's integer programme, which loads scipy's own
#: OpenBLAS after the engine found its BLAS libraries (``combat.exact.threads._blas``,
#: found once): a later test of the BLAS limit (``tests/combat/test_readout.py``) then
#: sees that one at two threads. In the slow suite (its own process) until ``_blas``
#: finds a library loaded later; the default run checks the plan's summary on small
#: armies (``test_the_plan_summary_is_the_plan_without_the_naive_volleys``).
@pytest.mark.parametrize("tool", ["matchup", pytest.param("plan", marks=pytest.mark.slow)])
def test_two_real_2000_point_lists_answer_within_20_kb(server: Server[Any], tool: str) -> None:
    """Two lists of the Warhammer 40,000 app (Aeldari and Orks, 2,000 points each): the
    whole matrix is 624 cells, 484 KB; the default answer is a summary."""
    mine, enemy = (ROSTERS / f"official_{n}.txt" for n in (9, 16))
    got = answer(call(server, tool, {"mine": mine.read_text(encoding="utf-8"),
                                     "enemy": enemy.read_text(encoding="utf-8")}))
    assert _kb(got) <= MAX_ANSWER, _kb(got)
    assert got["detail"] == "summary"
    if tool == "matchup":
        assert got["mine"]["faction"] == "Aeldari" and got["enemy"]["faction"] == "Orks"
        assert all(len(cells) == 10 for phases in got["best"].values()
                   for cells in phases.values())
        assert 'detail "all"' in got["omitted"][0]
    else:
        assert got["plan"]["volleys"]


def test_simulate_combat_says_what_it_left_out(server: Server[Any]) -> None:
    short, whole, turn = (answer(r) for r in call_many(server, [
        ("simulate_combat", {"attacker": "Intercessor Squad", "defender": "meq"}),
        ("simulate_combat", {"attacker": "Intercessor Squad", "defender": "meq",
                             "full_result": True}),
        ("simulate_combat", {"attacker": "Intercessor Squad", "defender": "meq",
                             "phases": ["charge", "fight"], "charge_distance": 8})]))
    assert any("full_result" in line for line in short["omitted"])
    assert not any("full_result" in line for line in whole["omitted"]) and whole["result"]
    assert any("battle-shock" in line for line in short["omitted"])
    # a standard target has no Leadership: say so, and how to give one
    assert turn["battle_shock"] is None
    assert any("leadership" in line for line in turn["omitted"])
