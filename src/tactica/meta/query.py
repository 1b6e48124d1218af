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

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["BROWSE_FILTERS", "SORTABLE", "Browse", "QueryError", "browse", "choices", "query"]


class QueryError(ValueError):
    """A query DuckDB refuses (its message, one line)."""


@contextmanager
def _view(folder: str | Path) -> Iterator[Any]:
    """A DuckDB connection with the folder's table as the view ``meta``."""
    import duckdb

    files = Path(folder)
    if not any(files.glob("part-*.parquet")):
        raise QueryError(f"{folder}: no meta table here (run `tactica meta` first)")
    pattern = str(files / "part-*.parquet").replace("'", "''")
    con = duckdb.connect(":memory:")
    try:
        con.execute(f"CREATE VIEW meta AS SELECT * FROM read_parquet('{pattern}')")
        yield con
    except duckdb.Error as exc:
        raise QueryError(" ".join(str(exc).split())) from None
    finally:
        con.close()


def query(folder: str | Path, sql: str) -> pd.DataFrame:
    """The result of ``sql`` over the table in ``folder`` (the view ``meta``)."""
    with _view(folder) as con:
        result = con.execute(sql)
        if result is None:  # DuckDB found no statement: blank, ";" or a comment alone
            raise QueryError(f"SQL {sql.strip()[:40]!r}: no statement to run (a query over "
                             "the view meta, such as SELECT * FROM meta LIMIT 10)")
        frame: pd.DataFrame = result.df()
        return frame


#: The columns a browse may sort by.
SORTABLE = ("attacker", "attacker_faction", "attacker_points", "target", "phase", "edition",
            "expected_damage", "models_destroyed", "p_destroyed", "points_destroyed",
            "points_per_100")
#: The columns a browse filters on by equality (``Browse.filters``).
BROWSE_FILTERS = ("attacker_faction", "target", "phase", "edition")


@dataclass(frozen=True)
class Browse:
    """What one page of the table shows: equality ``filters`` (column -> value, columns
    of ``BROWSE_FILTERS``), ``unit``: part of the attacker's name (any case), the
    refused rows or not, the sort column (``SORTABLE``) and direction, and the page."""

    filters: tuple[tuple[str, str], ...] = ()
    unit: str = ""
    refused: bool = False
    sort: str = "points_per_100"
    descending: bool = True
    limit: int = 50
    offset: int = 0


def browse(folder: str | Path, view: Browse) -> tuple[pd.DataFrame, int]:
    """The rows of one page (``view``), and how many rows match in all. Values reach
    DuckDB as parameters and the sort column is one of ``SORTABLE``; ties are broken by
    attacker, target, phase and edition, missing values last.

    >>> import tempfile
    >>> from tactica.meta import Selection, run
    >>> folder = tempfile.mkdtemp()
    >>> _ = run(Selection(attackers=("Primus", "Neophyte Hybrids"), targets=("meq", "geq"),
    ...                   dataset=False), folder)
    >>> rows, total = browse(folder, Browse(filters=(("target", "geq"),), unit="prim",
    ...                                     sort="phase", descending=False, limit=1))
    >>> total, rows[["attacker", "target", "phase"]].values.tolist()   # 2 rows, 1 shown
    (2, [['Primus', 'geq', 'fight']])
    """
    if view.sort not in SORTABLE:
        raise QueryError(f"sort: one of {', '.join(SORTABLE)}")
    where, params = [], []
    for column, value in view.filters:
        if column not in BROWSE_FILTERS:
            raise QueryError(f"filter: one of {', '.join(BROWSE_FILTERS)}")
        where.append(f"{column} = ?")
        params.append(value)
    if view.unit.strip():
        where.append("contains(lower(attacker), ?)")
        params.append(view.unit.strip().lower())
    if not view.refused:
        where.append("status = 'computed'")
    clause = f"WHERE {' AND '.join(where)}" if where else ""
    order = (f"{view.sort} {'DESC' if view.descending else 'ASC'} NULLS LAST, attacker, "
             "target, phase, edition")
    with _view(folder) as con:
        total = int(con.execute(f"SELECT count(*) FROM meta {clause}", params).fetchone()[0])
        rows: pd.DataFrame = con.execute(
            f"SELECT * FROM meta {clause} ORDER BY {order} LIMIT ? OFFSET ?",
            [*params, max(0, view.limit), max(0, view.offset)]).df()
    return rows, total


def choices(folder: str | Path) -> dict[str, list[str]]:
    """The values each column of ``BROWSE_FILTERS`` takes in the table, in order."""
    with _view(folder) as con:
        return {c: [str(v) for (v,) in con.execute(
                    f"SELECT DISTINCT {c} FROM meta WHERE {c} IS NOT NULL ORDER BY {c}"
                ).fetchall()] for c in BROWSE_FILTERS}
