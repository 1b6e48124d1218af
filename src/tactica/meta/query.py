"""SQL over the meta table with DuckDB: the folder's Parquet files are the view ``meta``.

>>> import tempfile
>>> from tactica.library import load_seed_library
>>> from tactica.meta import Selection, run
>>> folder = tempfile.mkdtemp()
>>> _ = run(Selection(attackers=("Primus",), targets=("meq",), dataset=False), folder)
>>> query(folder, "SELECT attacker, target, phase FROM meta ORDER BY phase").values.tolist()
[['Primus', 'meq', 'fight'], ['Primus', 'meq', 'shooting']]
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["QueryError", "query"]


class QueryError(ValueError):
    """A query DuckDB refuses (its message, one line)."""


def query(folder: str | Path, sql: str) -> pd.DataFrame:
    """The result of ``sql`` over the table in ``folder`` (the view ``meta``)."""
    import duckdb

    files = Path(folder)
    if not any(files.glob("part-*.parquet")):
        raise QueryError(f"{folder}: no meta table here (run `tactica meta` first)")
    pattern = str(files / "part-*.parquet").replace("'", "''")
    con = duckdb.connect(":memory:")
    try:
        con.execute(f"CREATE VIEW meta AS SELECT * FROM read_parquet('{pattern}')")
        return con.execute(sql).df()
    except duckdb.Error as exc:
        raise QueryError(" ".join(str(exc).split())) from None
    finally:
        con.close()
