"""Pictures of the meta table (matplotlib), readable at every scale: the best units of each
faction as ranked bars (each bar naming its target and phase), and a heatmap of units x
targets for a small table, of faction x faction or keyword x keyword (the mean of a
chosen figure) for a big one. The file's extension picks the format (``.png``,
``.svg``; an SVG keeps its text as text).

``draw(folder, kind, path, ...)`` reads the table through DuckDB (``plotdata``): only
the columns a picture needs, aggregated there (a best row per unit, a mean per cell), so
that drawing the full unit x unit table (2.4 million rows) holds a few thousand rows in
memory, not the table. ``bars(df, ...)`` and ``heatmap(df, ...)`` draw a DataFrame that
is already small.

>>> import pandas as pd
>>> df = pd.DataFrame({"attacker": ["A", "B"], "attacker_faction": ["F", "F"],
...                    "target": ["meq", "meq"], "phase": ["shooting", "shooting"],
...                    "edition": ["11th", "11th"], "points_per_100": [3.0, 5.0]})
>>> best_per_faction(df, "points_per_100", top=1)["attacker"].tolist()
['B']
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from .plotdata import (
    BY,
    MAX_COLUMNS,
    METRICS,
    PlotFilters,
    best_rows,
    grid_rows,
    metric_label,
)

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["BY", "MAX_COLUMNS", "METRICS", "PlotFilters", "bars", "best_per_faction", "draw",
           "heatmap"]

Kind = Literal["bars", "heatmap"]
#: The largest figure drawn, in inches either way (at 120 dpi: 4,800 pixels).
MAX_INCHES = 40.0


def draw(folder: str | Path, kind: Kind, path: str | Path, *, metric: str | None = None,
         filters: PlotFilters | None = None, top: int = 5, by: str = "auto",
         shared_x: bool = False, title: str = "") -> Path:
    """Draw the table in ``folder``: ``bars`` (each faction's ``top`` units by ``metric``,
    default points per 100) or ``heatmap`` (``by`` unit, faction or keyword; ``auto``:
    units x targets when there are at most ``MAX_COLUMNS`` targets, else faction x
    faction; the metric's default is expected damage)."""
    f = filters or PlotFilters()
    if kind == "bars":
        m = metric or "points_per_100"
        return bars(best_rows(folder, m, f, top), path, metric=m, top=top,
                    shared_x=shared_x, title=title)
    m = metric or "expected_damage"
    cells, chosen = grid_rows(folder, m, f, by, top)
    return heatmap(cells, path, metric=m, phase=f.phase or "shooting", units=top,
                   by=chosen, title=title)


def _metric(metric: str) -> str:
    return metric_label(metric)


def best_per_faction(df: pd.DataFrame, metric: str, top: int = 5) -> pd.DataFrame:
    """Each faction's ``top`` units by ``metric`` (a unit's best row: its better phase and
    target), best first."""
    _metric(metric)
    rows = df.dropna(subset=[metric])
    best = rows.sort_values([metric, "phase", "target"], ascending=[False, True, True],
                            kind="stable").drop_duplicates(["attacker_faction", "attacker"])
    return best.groupby("attacker_faction", sort=True).head(top).sort_values(
        ["attacker_faction", metric, "attacker"], ascending=[True, False, True],
        kind="stable")


def _figure(width: float, height: float) -> tuple[Any, Any]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt, plt.figure(figsize=(min(width, MAX_INCHES), min(height, MAX_INCHES)),
                           layout="constrained")


def _bar_label(row: Any, one_target: bool) -> str:
    return (f"{row.attacker} ({row.phase})" if one_target else
            f"{row.attacker} vs {row.target} ({row.phase})")


def bars(df: pd.DataFrame, path: str | Path, *, metric: str = "points_per_100",
         top: int = 5, title: str = "", shared_x: bool = False) -> Path:
    """Ranked bars: one panel per faction, its ``top`` units by ``metric``, each bar
    naming its target and phase (the target in the title when there is one); with
    ``shared_x`` one x scale for every panel, so panels compare by eye."""
    plt, fig = _bars_figure(df, metric=metric, top=top, title=title, shared_x=shared_x)
    return _save(plt, fig, path)


def _bars_figure(df: pd.DataFrame, *, metric: str, top: int, title: str,
                 shared_x: bool) -> tuple[Any, Any]:
    label = _metric(metric)
    best = best_per_faction(df, metric, top)
    factions = list(dict.fromkeys(best["attacker_faction"]))
    if not factions:
        raise ValueError(f"no rows with a value of {metric} to draw")
    targets = sorted(set(best["target"]))
    one = len(targets) == 1
    cols = min(3, len(factions))
    rows = math.ceil(len(factions) / cols)
    drawn = int(best.groupby("attacker_faction").size().max())  # not ``top``: a billion
    plt, fig = _figure(6.5 * cols, (0.32 * drawn + 0.9) * rows + 0.8)
    axes = fig.subplots(rows, cols, sharex=shared_x, squeeze=False).ravel()
    for ax, faction in zip(axes, factions, strict=False):
        part = best[best["attacker_faction"] == faction].iloc[::-1]
        ax.barh([_bar_label(r, one) for r in part.itertuples()], part[metric],
                color="#4c72b0")
        ax.set_title(faction, fontsize=10)
        ax.tick_params(labelsize=7)
        ax.set_xlabel(label, fontsize=8)
        ax.tick_params(axis="x", labelbottom=True)
    for ax in axes[len(factions):]:
        ax.set_visible(False)
    against = f" against {targets[0]}" if one else " (each bar: its best target and phase)"
    fig.suptitle(title or f"Best units per faction by {label}{against}", fontsize=12)
    return plt, fig


def heatmap(df: pd.DataFrame, path: str | Path, *, metric: str = "expected_damage",
            phase: str = "shooting", units: int = 30, by: str = "unit",
            title: str = "") -> Path:
    """A heatmap of ``metric`` in ``phase``. ``by="unit"``: the rows of ``df`` (the
    table's columns) as attackers x targets, the ``units`` attackers of the highest mean
    over the targets, best at the top; ``by`` faction or keyword: ``df`` holds the cells
    already (``row``, ``column``, ``value``: ``plotdata.grid_rows``)."""
    plt, fig = _heatmap_figure(df, metric=metric, phase=phase, units=units, by=by,
                               title=title)
    return _save(plt, fig, path)


def _grid(df: pd.DataFrame, metric: str, phase: str, units: int, by: str) -> pd.DataFrame:
    if by != "unit":
        if df.empty:
            raise ValueError(f"no {phase} rows with a value of {metric} to draw")
        return df.pivot_table(index="row", columns="column", values="value", aggfunc="mean")
    rows = df[df["phase"] == phase].dropna(subset=[metric])
    if rows.empty:
        raise ValueError(f"no {phase} rows with a value of {metric} to draw")
    grid = rows.pivot_table(index="attacker", columns="target", values=metric, aggfunc="max")
    if len(grid.columns) > MAX_COLUMNS:
        raise ValueError(f"{len(grid.columns)} targets: too many columns for a unit heatmap "
                         f"(at most {MAX_COLUMNS}); name fewer targets, or draw it by "
                         "faction or keyword")
    order = grid.mean(axis=1).sort_values(ascending=False, kind="stable").index[:units]
    return grid.loc[order]


def _heatmap_figure(df: pd.DataFrame, *, metric: str, phase: str, units: int, by: str,
                    title: str) -> tuple[Any, Any]:
    label = _metric(metric)
    grid = _grid(df, metric, phase, units, by)
    plt, fig = _figure(max(7.0, 2.5 + 0.32 * len(grid.columns)), 2.2 + 0.26 * len(grid))
    ax = fig.add_subplot(1, 1, 1)
    image = ax.imshow(grid.to_numpy(dtype=float), aspect="auto", cmap="viridis")
    ax.set_xticks(range(len(grid.columns)), [str(c) for c in grid.columns], rotation=60,
                  ha="right", fontsize=7)
    ax.set_yticks(range(len(grid.index)), [str(i) for i in grid.index], fontsize=7)
    names = {"unit": ("attacker", "target"), "faction": ("attacker's faction",
                                                         "target's faction or preset"),
             "keyword": ("attacker's kind", "target's kind")}[by]
    ax.set_ylabel(names[0])
    ax.set_xlabel(names[1])
    fig.colorbar(image, ax=ax, label=label if by == "unit" else f"mean {label}")
    what = "" if by == "unit" else f" by {by} (the mean of its rows)"
    ax.set_title(title or f"{label} ({phase}){what}", fontsize=11)
    return plt, fig


def _save(plt: Any, fig: Any, path: str | Path) -> Path:
    out = Path(path)
    if out.suffix.lower() not in (".png", ".svg"):
        plt.close(fig)
        raise ValueError(f"{out}: the picture is written as .png or .svg")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        with plt.rc_context({"svg.fonttype": "none"}):  # an SVG's text stays text
            fig.savefig(out, dpi=120,
                        metadata={"Date": None} if out.suffix == ".svg" else None)
    except OSError as exc:  # a folder where a file goes, a file where a folder goes
        raise ValueError(f"{out}: cannot be written ({exc.strerror or exc})") from None
    finally:
        plt.close(fig)
    return out
