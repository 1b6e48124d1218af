"""Rows whose points are an artefact of the data (issue 43: Kill Teams fielded as 3
models but priced as the whole team at 195 topped the points-per-100 ranking) carry
``points_artefact``; every row says its weapon order."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from tactica.library import load_library
from tactica.meta import Selection, load, run
from tactica.meta.compute import WEAPON_ORDER, points_artefact, points_of
from tactica.model.datasheet import EscalatingPoints
from tactica.units import field_unit

pytest.importorskip("wh40kdc")


def _sizes(sheet: object) -> list[int]:
    brackets = sheet.points  # type: ignore[attr-defined]
    if isinstance(brackets, EscalatingPoints):
        brackets = brackets.brackets_for_unit(1)
    return sorted(b.models for b in brackets)


def test_a_size_priced_as_another_is_flagged_and_no_other() -> None:
    """Checked against the price of the largest size, read with ``points_of``: a flagged
    unit at its default size costs what its largest size costs; an unflagged one with
    several sizes pays more for the largest."""
    lib = load_library()
    kill_team = lib.datasheet("Fortis Kill Team", "11th")
    why = points_artefact(kill_team, 3)
    assert why is not None and "195 points" in why and "from 3 to 24" in why
    assert points_artefact(lib.datasheet("Intercessor Squad", "11th"), 5) is None
    flagged = plain = 0
    for name in lib.names():
        for sheet in lib.datasheet_versions(name):
            sizes = _sizes(sheet)
            try:
                size = field_unit(sheet).size
            except Exception:  # a unit the fielding refuses has no row
                continue
            if not sizes or size >= sizes[-1]:
                assert points_artefact(sheet, size) is None
                continue
            same = points_of(sheet, size) == points_of(sheet, sizes[-1])
            assert (points_artefact(sheet, size) is not None) == same, sheet.name
            flagged += same
            plain += not same
    assert flagged > 0 and plain > 100


def test_the_rows_carry_the_flag_and_the_order(tmp_path: Path) -> None:
    sel = Selection(attackers=("Fortis Kill Team", "Intercessor Squad"), targets=("meq",),
                    editions=("11th",), phases=("shooting",))
    run(sel, tmp_path, lib=load_library())
    df = load(tmp_path).set_index("attacker")
    assert "Fortis Kill Team: 195 points" in df.loc["Fortis Kill Team", "points_artefact"]
    assert df.loc["Fortis Kill Team", "points_artefact"].startswith("attacker: ")
    assert pd.isna(df.loc["Intercessor Squad", "points_artefact"])
    assert set(df["weapon_order"]) == {WEAPON_ORDER} == {"datasheet"}
