"""DuckDB over the table: the queries of docs/meta.md run and return what they say (each
checked against the same question answered with pandas), and every column of the schema
is documented there."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest

from tactica.library import load_library
from tactica.meta import SCHEMA, Selection, load, query, run
from tactica.meta.query import QueryError
from tactica.meta.table import DETACHMENT_SCHEMA, schema_for

DOCS = Path(__file__).resolve().parents[2] / "docs" / "meta.md"


def _sql_blocks() -> list[str]:
    return re.findall(r"```sql\n(.*?)```", DOCS.read_text(encoding="utf-8"), flags=re.S)


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two factions' worth of units (a few each) against the presets, both phases."""
    folder = tmp_path_factory.mktemp("meta")
    units = ("Intercessor Squad", "Hellblaster Squad", "Gladiator Lancer", "Neophyte Hybrids",
             "Goliath Rockgrinder", "Kelermorph")
    sel = Selection(attackers=units, targets=tuple(p.name for p in load_library().presets()))
    run(sel, folder)
    return folder


def test_every_column_is_documented() -> None:
    text = DOCS.read_text(encoding="utf-8")
    every = schema_for(Selection(attackers=("x",), targets=("meq",), detachment_rules=True,
                                 distance=12))
    assert set(DETACHMENT_SCHEMA.names) < set(every.names)
    for name in every.names:  # SCHEMA's, the --detachment-rules and --distance columns
        assert f"| `{name}` |" in text


def test_best_anti_tank_unit_per_faction(table: Path) -> None:
    sql = next(q for q in _sql_blocks() if "'tank'" in q)
    got = query(table, sql)
    df = load(table)
    rows = df[(df.target == "tank") & (df.status == "computed")]
    best = rows.loc[rows.groupby("attacker_faction")["points_per_100"].idxmax()]
    assert sorted(zip(got.faction, got.unit, strict=True)) == sorted(
        zip(best.attacker_faction, best.attacker, strict=True))
    assert len(got) == 2  # Space Marines and Genestealer Cults
    assert list(got.per_100) == sorted(got.per_100, reverse=True)


def test_units_that_beat_meq_most_efficiently(table: Path) -> None:
    sql = next(q for q in _sql_blocks() if "'meq'" in q)
    got = query(table, sql)
    df = load(table)
    rows = df[(df.target == "meq") & (df.status == "computed")]
    # the efficiency recomputed from its parts: the preset's points (5 Intercessors)
    share = rows.target_points * rows.models_destroyed / rows.target_models
    expected = rows.assign(eff=100 * share / rows.attacker_points).sort_values(
        ["eff", "attacker", "phase"], ascending=[False, True, True]).head(10)
    assert list(zip(got.attacker, got.phase, strict=True)) == list(
        zip(expected.attacker, expected.phase, strict=True))
    assert got.points_per_100.tolist() == pytest.approx(expected.eff.tolist(), abs=1e-9)


def test_most_likely_to_wipe_a_knight(table: Path) -> None:
    sql = next(q for q in _sql_blocks() if "'knight'" in q)
    got = query(table, sql)
    df = load(table)
    rows = df[(df.target == "knight") & (df.status == "computed")].sort_values(
        ["p_destroyed", "attacker", "phase"], ascending=[False, True, True]).head(10)
    assert got.attacker.tolist() == rows.attacker.tolist()


def test_bad_sql_and_empty_folder_are_one_line(table: Path, tmp_path: Path) -> None:
    with pytest.raises(QueryError) as exc:
        query(table, "SELECT nope FROM meta")
    assert "\n" not in str(exc.value) and "nope" in str(exc.value)
    with pytest.raises(QueryError, match="no meta table"):
        query(tmp_path, "SELECT 1")


def test_load_is_the_files_rows(table: Path) -> None:
    df = load(table)
    assert isinstance(df, pd.DataFrame) and list(df.columns) == SCHEMA.names
    assert len(df) == int(query(table, "SELECT count(*) AS n FROM meta").n[0])
