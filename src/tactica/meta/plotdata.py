"""What the meta table's pictures read (``plot.draw``): small DataFrames made by DuckDB
from the folder's Parquet files, reading only the columns asked for and aggregating
there, with DuckDB's memory held to ``MEMORY_LIMIT`` (it spills to disk beyond it).

* ``best_rows``: each unit's best row by a figure (its target and phase with it), the
  ``top`` of each faction;
* ``grid_rows``: a heatmap's cells: by unit (the attackers of the highest mean, their
  best figure against each target), by faction (the attacker's faction x the target's,
  a preset standing for itself) or by keyword (each unit's kind: ``KINDS``), the mean of
  the figure over the rows of a cell.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .query import _view

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["BY", "KINDS", "MAX_COLUMNS", "MEMORY_LIMIT", "METRICS", "PlotFilters", "best_rows",
           "grid_rows", "kind_of", "metric_label"]

#: The columns a picture may show, with their axis labels.
METRICS = {
    "points_per_100": "points destroyed per 100 points",
    "points_destroyed": "points destroyed",
    "expected_damage": "expected damage",
    "models_destroyed": "models destroyed",
    "p_destroyed": "chance to destroy the unit",
}
#: How a heatmap groups its rows and columns (``auto``: by unit when it is small).
BY = ("auto", "unit", "faction", "keyword")
#: The most targets a unit heatmap shows (more: ``auto`` draws it by faction).
MAX_COLUMNS = 40
#: DuckDB's memory while a picture's rows are read.
MEMORY_LIMIT = "1GB"
#: A unit's kind in a keyword heatmap: the first of these keywords it has, else "OTHER".
KINDS = ("TITANIC", "VEHICLE", "MONSTER", "MOUNTED", "BEASTS", "SWARM", "BATTLELINE",
         "CHARACTER", "INFANTRY")


def metric_label(metric: str) -> str:
    """The axis label of ``metric``; ``ValueError`` for a column a picture cannot show."""
    if metric not in METRICS:
        raise ValueError(f"metric {metric!r}: one of {', '.join(METRICS)}")
    return METRICS[metric]


@dataclass(frozen=True)
class PlotFilters:
    """The rows a picture shows: these targets and attacker factions (any case; none:
    all), this phase (``None``: both for bars, shooting for a heatmap)."""

    targets: tuple[str, ...] = ()
    factions: tuple[str, ...] = ()
    phase: str | None = None


def _where(f: PlotFilters, metric: str, phase: str | None) -> tuple[str, list[Any]]:
    clauses, params = [f"{metric} IS NOT NULL"], []
    for column, values in (("target", f.targets), ("attacker_faction", f.factions)):
        if values:
            clauses.append(f"lower({column}) IN ({', '.join('?' * len(values))})")
            params += [v.lower() for v in values]
    if phase is not None:
        clauses.append("phase = ?")
        params.append(phase)
    return " AND ".join(clauses), params


@contextmanager
def _con(folder: str | Path) -> Iterator[Any]:
    with _view(folder) as con:
        con.execute(f"SET memory_limit = '{MEMORY_LIMIT}'")
        yield con


def best_rows(folder: str | Path, metric: str, f: PlotFilters, top: int) -> pd.DataFrame:
    """Each faction's ``top`` units by ``metric``: one row a unit (its best, ties to the
    phase then the target in name order), with its target and phase."""
    metric_label(metric)
    where, params = _where(f, metric, f.phase)
    sql = f"""
        WITH ranked AS (
            SELECT attacker_faction, attacker, target, phase, {metric},
                   row_number() OVER (PARTITION BY attacker_faction, attacker
                                      ORDER BY {metric} DESC, phase, target) AS r
            FROM meta WHERE {where})
        SELECT attacker_faction, attacker, target, phase, {metric} FROM ranked WHERE r = 1
        QUALIFY row_number() OVER (PARTITION BY attacker_faction
                                   ORDER BY {metric} DESC, attacker) <= ?
        ORDER BY attacker_faction, {metric} DESC, attacker"""
    with _con(folder) as con:
        out: pd.DataFrame = con.execute(sql, [*params, top]).df()
    return out


def grid_rows(folder: str | Path, metric: str, f: PlotFilters, by: str, units: int
              ) -> tuple[pd.DataFrame, str]:
    """A heatmap's rows and how they are grouped (``by``; ``auto`` made ``unit`` or
    ``faction``): by unit the table's columns (``attacker``, ``target``, ``phase``,
    ``metric``: the ``units`` attackers of the highest mean), else the cells (``row``,
    ``column``, ``value``)."""
    metric_label(metric)
    if by not in BY:
        raise ValueError(f"by {by!r}: one of {', '.join(BY)}")
    phase = f.phase or "shooting"
    where, params = _where(f, metric, phase)
    with _con(folder) as con:
        if by == "auto":
            (n,) = con.execute(f"SELECT count(DISTINCT target) FROM meta WHERE {where}",
                               params).fetchone()
            by = "unit" if n <= MAX_COLUMNS else "faction"
        if by == "unit":
            sql = f"""
                WITH g AS (SELECT attacker, target, max({metric}) AS v FROM meta
                           WHERE {where} GROUP BY attacker, target),
                     top AS (SELECT attacker FROM g GROUP BY attacker
                             ORDER BY avg(v) DESC, attacker LIMIT ?)
                SELECT attacker, target, ? AS phase, v AS {metric} FROM g
                WHERE attacker IN (SELECT attacker FROM top) ORDER BY attacker, target"""
            frame: pd.DataFrame = con.execute(sql, [*params, units, phase]).df()
            return frame, by
        if by == "faction":
            sql = f"""SELECT attacker_faction AS "row", coalesce(target_faction, target)
                      AS "column", avg({metric}) AS value FROM meta WHERE {where}
                      GROUP BY ALL ORDER BY ALL"""
            return con.execute(sql, params).df(), by
        _register_kinds(con, folder)
        sql = f"""SELECT a.kind AS "row", t.kind AS "column", avg({metric}) AS value
                  FROM meta JOIN kinds a ON a.name = attacker JOIN kinds t ON t.name = target
                  WHERE {where} GROUP BY ALL ORDER BY ALL"""
        return con.execute(sql, params).df(), by


def kind_of(keywords: Sequence[str]) -> str:
    """A unit's kind for a keyword heatmap: the first of ``KINDS`` among its keywords.

    >>> kind_of(["INFANTRY", "CHARACTER", "IMPERIUM"]), kind_of(["FLY"])
    ('CHARACTER', 'OTHER')
    """
    have = {k.upper() for k in keywords}
    return next((k for k in KINDS if k in have), "OTHER")


def _register_kinds(con: Any, folder: str | Path) -> None:
    """The table ``kinds`` (name, kind) of every attacker and target in the table, read
    from the library of the folder's selection."""
    import pandas as pd

    from .table import read_selection
    from .tasks import library_of

    selection = read_selection(Path(folder))
    if selection is None:
        raise ValueError(f"{folder}: no _selection.json: a keyword heatmap needs the "
                         "table's library")
    lib = library_of(selection)
    names = [n for (n,) in con.execute(
        "SELECT DISTINCT attacker FROM meta UNION SELECT DISTINCT target FROM meta"
    ).fetchall()]
    presets = {p.name: p for p in lib.presets()}
    kinds = []
    for name in names:
        if name in presets:
            keywords: Sequence[str] = presets[name].keywords
        else:
            keywords = [k for s in lib.datasheet_versions(name) for k in s.keywords]
        kinds.append(kind_of(keywords))
    frame = pd.DataFrame({"name": names, "kind": kinds})
    con.register("kinds", frame)
