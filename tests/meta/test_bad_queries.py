"""Generated SQL for ``tactica meta query`` (issue 47): statements and fragments of
DuckDB's language put together at random (blank, a lone ``;``, a comment, types pandas
cannot hold, values out of range, a lone surrogate, a NUL), and folders that hold no
table. Each run is an answer or a refusal of one line (``answered``), never a traceback.

The default run checks a sample; the ``_at_volume`` twin (``-m slow``) the full count.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from answered import answered
from tactica.cli import commands
from tactica.meta import Selection, run
from volume import sampled

#: Fragments of SQL: words, values of many types, statements that run nothing
#: (nothing here writes a file or reaches the network)
FRAGMENTS = [
    "SELECT", "*", "FROM", "meta", "WHERE", "attacker", "=", "'x'", ";", "/*", "*/", "--",
    "(", ")", "LIMIT", "-1", "1e400", "ORDER BY", "GROUP BY", "count(*)", "'\ud800'",
    "'\x00'", "PRAGMA", "SET threads=1", "DESCRIBE", "SUMMARIZE", "range(10)", "[1,2]",
    "{'a':1}", "INTERVAL 1 DAY", "1::HUGEINT", "'a'::BLOB", "UNION ALL", "EXPLAIN",
    "pragma_version()", "read_parquet('/nonexistent/*.parquet')", "generate_series(1, 3)",
    "NULL", "1/0", "map([1],[2])", "'infinity'::DATE", "1::UHUGEINT", "BEGIN", "ROLLBACK",
    "VALUES (1),(2)", "DROP VIEW meta", "CREATE TEMP TABLE t AS SELECT 1", "points_per_100",
    "target", "phase", "'meq'", "AND", "OR", "NOT", "IS NULL", "CAST(", "AS INTEGER)",
    "'9999999999999999999999'::INT", "TIMESTAMP '294247-01-10'", "[]", "list_value()"]
WHOLE = ["", " ", ";", "/* */", ";;", "\ud800", "SELECT * FROM meta LIMIT 2",
         "SELECT attacker, target FROM meta", "SELECT 1; SELECT 2", "SELECT * FROM nope",
         "SELECT attacker FROM meta WHERE target = 'meq' ORDER BY points_per_100 DESC"]
SQL = st.one_of(st.sampled_from(WHOLE),
                st.lists(st.sampled_from(FRAGMENTS), min_size=1, max_size=8).map(" ".join))
FOLDER = st.sampled_from(["TABLE", "TABLE", "TABLE", "/nonexistent", "EMPTY"])

GENERATED = settings(derandomize=True, max_examples=400, deadline=None,
                     suppress_health_check=[HealthCheck.too_slow,
                                            HealthCheck.function_scoped_fixture])
runner = CliRunner()


@pytest.fixture(scope="module")
def folders(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """A small table (the seed library's Primus against meq) and an empty folder."""
    table = tmp_path_factory.mktemp("meta") / "t"
    run(Selection(attackers=("Primus",), targets=("meq",), dataset=False), table)
    return {"TABLE": str(table), "EMPTY": str(tmp_path_factory.mktemp("empty")),
            "/nonexistent": "/nonexistent"}


@GENERATED
@given(SQL, FOLDER, st.booleans())
def test_meta_query_answers_or_refuses_in_one_line(folders: dict[str, str], sql: str,
                                                   folder: str, csv: bool) -> None:
    args = ["meta", "query", sql, "-o", folders[folder], *(["--csv"] if csv else [])]
    event(f"meta query: {answered(runner.invoke(commands.app, args))}")


def test_the_generated_queries_reach_both_outcomes(folders: dict[str, str]) -> None:
    table = folders["TABLE"]
    ok = runner.invoke(commands.app, ["meta", "query", "SELECT * FROM meta", "-o", table])
    assert answered(ok) == "answer"
    for sql in ("", "SELECT nope FROM meta", "\ud800"):
        refused = runner.invoke(commands.app, ["meta", "query", sql, "-o", table])
        assert answered(refused) == "refusal"


# --- the default run's sample (tests/volume.py) ---
(test_meta_query_answers_or_refuses_in_one_line,
 test_meta_query_answers_or_refuses_in_one_line_at_volume) = sampled(
    test_meta_query_answers_or_refuses_in_one_line, 15)
