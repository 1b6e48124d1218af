"""Pictures of the meta table (matplotlib): the best units of each faction as ranked bars,
and a unit x target heatmap. The file's extension picks the format (``.png``, ``.svg``).

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
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["METRICS", "bars", "best_per_faction", "heatmap"]

#: The columns a picture may show, with their axis labels.
METRICS = {
    "points_per_100": "points destroyed per 100 points",
    "points_destroyed": "points destroyed",
    "expected_damage": "expected damage",
    "models_destroyed": "models destroyed",
    "p_destroyed": "chance to destroy the unit",
}


def _metric(metric: str) -> str:
    if metric not in METRICS:
        raise ValueError(f"metric {metric!r}: one of {', '.join(METRICS)}")
    return METRICS[metric]


def best_per_faction(df: pd.DataFrame, metric: str, top: int = 5) -> pd.DataFrame:
    """Each faction's ``top`` units by ``metric`` (a unit's best row: its better phase),
    best first."""
    _metric(metric)
    rows = df.dropna(subset=[metric])
    best = rows.sort_values(metric, ascending=False, kind="stable").drop_duplicates(
        ["attacker_faction", "attacker"])
    return best.groupby("attacker_faction", sort=True).head(top).sort_values(
        ["attacker_faction", metric], ascending=[True, False], kind="stable")


def _figure(width: float, height: float) -> tuple[Any, Any]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt, plt.figure(figsize=(width, height))


def bars(df: pd.DataFrame, path: str | Path, *, metric: str = "points_per_100",
         top: int = 5, title: str = "") -> Path:
    """Ranked bars: one panel per faction, its ``top`` units by ``metric``."""
    label = _metric(metric)
    best = best_per_faction(df, metric, top)
    factions = list(dict.fromkeys(best["attacker_faction"]))
    if not factions:
        raise ValueError(f"no rows with a value of {metric} to draw")
    cols = min(3, len(factions))
    rows = math.ceil(len(factions) / cols)
    drawn = int(best.groupby("attacker_faction").size().max())  # not ``top``: a billion
    plt, fig = _figure(5.5 * cols, 0.35 * drawn * rows + 1.2 * rows + 0.6)
    for i, faction in enumerate(factions):
        ax = fig.add_subplot(rows, cols, i + 1)
        part = best[best["attacker_faction"] == faction].iloc[::-1]
        ax.barh([f"{a} ({p})" for a, p in zip(part["attacker"], part["phase"], strict=True)],
                part[metric], color="#4c72b0")
        ax.set_title(faction, fontsize=10)
        ax.tick_params(labelsize=7)
        ax.set_xlabel(label, fontsize=8)
    targets = sorted(set(best["target"])) if "target" in best else []
    against = f" against {targets[0]}" if len(targets) == 1 else ""
    fig.suptitle(title or f"Best units per faction{against}: {label}")
    fig.tight_layout()
    return _save(plt, fig, path)


def heatmap(df: pd.DataFrame, path: str | Path, *, metric: str = "expected_damage",
            phase: str = "shooting", units: int = 30, title: str = "") -> Path:
    """A unit x target heatmap of ``metric`` in ``phase``: the ``units`` attackers with
    the highest mean over the targets, best at the top."""
    label = _metric(metric)
    rows = df[df["phase"] == phase].dropna(subset=[metric])
    if rows.empty:
        raise ValueError(f"no {phase} rows with a value of {metric} to draw")
    grid = rows.pivot_table(index="attacker", columns="target", values=metric, aggfunc="max")
    grid = grid.loc[grid.mean(axis=1).sort_values(ascending=False, kind="stable").index[:units]]
    plt, fig = _figure(1.0 + 0.55 * len(grid.columns), 1.5 + 0.3 * len(grid))
    ax = fig.add_subplot(1, 1, 1)
    image = ax.imshow(grid.to_numpy(), aspect="auto", cmap="viridis")
    ax.set_xticks(range(len(grid.columns)), list(grid.columns), rotation=60, ha="right",
                  fontsize=7)
    ax.set_yticks(range(len(grid.index)), list(grid.index), fontsize=7)
    fig.colorbar(image, ax=ax, label=label)
    ax.set_title(title or f"{label} ({phase})")
    fig.tight_layout()
    return _save(plt, fig, path)


def _save(plt: Any, fig: Any, path: str | Path) -> Path:
    out = Path(path)
    if out.suffix.lower() not in (".png", ".svg"):
        plt.close(fig)
        raise ValueError(f"{out}: the picture is written as .png or .svg")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(out, dpi=120, metadata={"Date": None} if out.suffix == ".svg" else None)
    except OSError as exc:  # a folder where a file goes, a file where a folder goes
        raise ValueError(f"{out}: cannot be written ({exc.strerror or exc})") from None
    finally:
        plt.close(fig)
    return out
