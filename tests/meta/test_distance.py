"""The meta table at a distance (``tactica meta --distance INCHES``): the shooting rows
are computed with every attacker that far from its target (04.02: a ranged weapon beyond
its range makes no attacks), a ``distance`` column says so, and each row's document
(``scenario_of``) reproduces its figures; the fight rows and a table without a distance
are as before.

By hand: at 20" the Intercessors' 24" weapons all fire (their rows equal the rows
without a distance), the Hastarii Exterminators' 12" arc blasters do not; at 40" no
weapon of either unit reaches.
"""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from tactica import calculate
from tactica.cli import commands
from tactica.library import Library, load_library
from tactica.meta import Selection, load, run, scenario_of

pytest.importorskip("wh40kdc")

UNITS = ("Intercessor Squad", "Hastarii Exterminators")
TARGETS = ("meq", "geq")


@pytest.fixture(scope="module")
def lib() -> Library:
    return load_library()


def _table(lib: Library, folder: Path, distance: float | None) -> pd.DataFrame:
    run(Selection(attackers=UNITS, targets=TARGETS, distance=distance), folder, lib=lib)
    return load(folder)


@pytest.fixture(scope="module")
def tables(lib: Library, tmp_path_factory: pytest.TempPathFactory
           ) -> dict[float | None, pd.DataFrame]:
    return {d: _table(lib, tmp_path_factory.mktemp("meta"), d) for d in (None, 20.0, 40.0)}


def _by_key(df: pd.DataFrame) -> dict[tuple[str, str, str], pd.Series]:
    return {(r.phase, r.attacker, r.target): r for _, r in df.iterrows()}


def test_the_rows_at_a_distance(tables: dict[float | None, pd.DataFrame],
                                lib: Library) -> None:
    plain, at_20, at_40 = (_by_key(tables[d]) for d in (None, 20.0, 40.0))
    assert "distance" not in tables[None].columns
    assert plain.keys() == at_20.keys() == at_40.keys()
    for key, row in at_20.items():
        phase, attacker, _ = key
        far = at_40[key]
        if phase == "fight":
            assert pd.isna(row["distance"]) and pd.isna(far["distance"])
            assert row["expected_damage"] == far["expected_damage"] == \
                plain[key]["expected_damage"]
            continue
        # exact: an input distance echoed back, not a sum
        assert (row["distance"], far["distance"]) == (20.0, 40.0)
        # exact: nothing in range (or nothing can happen): a point mass at 0, no sum
        assert far["status"] == "computed" and far["expected_damage"] == 0.0
        # exact: nothing in range (or nothing can happen): a point mass at 0, no sum
        assert far["p_destroyed"] == 0.0
        if attacker == "Intercessor Squad":
            assert row["expected_damage"] == plain[key]["expected_damage"] > 0
        else:
            assert 0 < row["expected_damage"] < plain[key]["expected_damage"]
    for df in tables.values():  # every row is its own calculate call
        for _, row in df.iterrows():
            r = calculate(scenario_of(row), library=lib)
            assert math.isclose(row["expected_damage"], r.damage.mean, rel_tol=0,
                                abs_tol=1e-12)
            assert math.isclose(row["p_destroyed"], r.p_unit_destroyed, rel_tol=0,
                                abs_tol=1e-12)


def test_a_selection_without_a_distance_keeps_its_bytes() -> None:
    sel = Selection(attackers=UNITS, targets=TARGETS)
    assert "distance" not in sel.to_json()
    assert sel.fingerprint() != Selection(attackers=UNITS, targets=TARGETS,
                                          distance=20).fingerprint()
    with pytest.raises(ValueError):
        Selection(attackers=UNITS, targets=TARGETS, distance=-1)


def test_the_command_line_takes_a_distance(tmp_path: Path) -> None:
    out = tmp_path / "t"
    result = CliRunner().invoke(commands.app, [
        "meta", "-o", str(out), "--unit", "Intercessor Squad", "--target", "meq",
        "--phase", "shooting", "--distance", "30", "--in-process"])
    assert result.exit_code == 0, result.output
    df = load(out)
    # exact: an input distance echoed back, not a sum
    assert list(df["distance"]) == [30.0] and list(df["expected_damage"]) == [0.0]
    bad = CliRunner().invoke(commands.app, ["meta", "-o", str(out), "--distance", "500"])
    assert bad.exit_code != 0 and "--distance" in bad.output
