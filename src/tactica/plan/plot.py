"""The matchup matrix as a picture: one heatmap per side and phase (matplotlib, drawn
off-screen), my units down, the enemy's across, each cell coloured by the value shown and
written in it; a unit that cannot attack is a grey row marked "-".

The plan as a picture (``plot_plan``): my units on the left, the enemy's on the right, an
arrow from each unit to its target carrying the expected points it adds and P(the target
is destroyed) once it has attacked (in the volley's order); a unit left without a target
in grey, with why.

``VALUES`` names what a cell can show: the records' columns of ``Matchup.to_records``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..errors import needs_extra
from .cells import Cell
from .matrix import Matchup
from .solver import Plan

__all__ = ["VALUES", "arrow_label", "arrows", "cell_value", "plan_svg", "plot_matchup", "plot_plan"]

#: What a matrix shows: name -> (the cell's attribute, the heading).
VALUES: dict[str, tuple[str, str]] = {
    "points": ("points", "expected points destroyed"),
    "per100": ("per_100", "points destroyed per 100 points of the attacker"),
    "models": ("models_destroyed", "expected models destroyed"),
    "destroy": ("p_destroyed", "chance to destroy the unit"),
    "damage": ("damage", "expected damage"),
}

_FORMATS = (".png", ".svg")


def cell_value(cell: Cell, value: str) -> float | None:
    """The value ``value`` (a key of ``VALUES``) of ``cell``; ``None`` when it cannot
    attack."""
    return float(getattr(cell, VALUES[value][0])) if cell.ok else None


def _pyplot(out: Path, command: str) -> Any:
    if out.suffix.lower() not in _FORMATS:
        raise ValueError(f"--plot {out}: a picture is .png or .svg")
    with needs_extra("plan", f"{command} --plot"):
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    return plt


def plot_matchup(m: Matchup, path: str | Path, value: str = "points") -> Path:
    """Draw ``m`` into ``path`` (.png or .svg). Raises ``ValueError`` for another
    suffix."""
    out = Path(path)
    plt = _pyplot(out, "tactica matchup")
    import numpy as np

    grids = list(m.grids.items())
    fig, axes = plt.subplots(len(grids), 1, squeeze=False,
                             figsize=(max(6.0, 0.9 * max(len(g[0]) for _, g in grids) + 4),
                                      sum(0.45 * len(g) + 2.0 for _, g in grids)))
    for ax, ((side, phase), grid) in zip(axes[:, 0], grids, strict=True):
        data = np.array([[np.nan if (v := cell_value(c, value)) is None else v for c in row]
                         for row in grid], dtype=float)
        image = ax.imshow(np.ma.masked_invalid(data), cmap="viridis", aspect="auto")
        attackers, defenders = m.attackers(side), m.defenders(side)
        ax.set_yticks(range(len(grid)), [u.label for u in attackers.units], fontsize=7)
        ax.set_xticks(range(len(grid[0]) if grid else 0),
                      [u.label for u in defenders.units], fontsize=7, rotation=45,
                      ha="right")
        for i, row in enumerate(grid):
            for j, c in enumerate(row):
                v = cell_value(c, value)
                ax.text(j, i, "-" if v is None else f"{v:.2g}" if value == "destroy"
                        else f"{v:.0f}", ha="center", va="center", fontsize=6,
                        color="white" if v is None or v < np.nanmean(data) else "black")
        who = "my units attack" if side == "mine" else "the enemy attacks"
        ax.set_title(f"{phase}: {who} — {VALUES[value][1]}", fontsize=9)
        fig.colorbar(image, ax=ax)
    fig.tight_layout()
    fig.savefig(out)
    plt.close(fig)
    return out


def arrows(p: Plan) -> list[tuple[str, str, float, float]]:
    """The plan's arrows: (my unit, its target, the expected points it adds, P(the
    target destroyed) once it has attacked), in the volleys' order."""
    out = []
    for v in p.volleys:
        before = 0.0
        for unit, after in zip(v.order, v.after, strict=True):
            out.append((unit, v.target, after.points - before, after.p_destroyed))
            before = after.points
    return out


def arrow_label(points: float, p_destroyed: float) -> str:
    """The words on an arrow of the plan drawn."""
    return f"+{points:.1f} pts, P(destroyed) {p_destroyed:.0%}"


def plot_plan(p: Plan, path: str | Path) -> Path:
    """Draw the plan ``p`` into ``path`` (.png or .svg; the module text). Raises
    ``ValueError`` for another suffix."""
    out = Path(path)
    plt = _pyplot(out, "tactica plan")
    with plt.rc_context({"svg.fonttype": "none"}):  # the SVG's words kept as text
        _draw_plan(plt, p, out)
    return out


def plan_svg(p: Plan) -> str:
    """The plan's picture (``plot_plan``) as the text of one ``<svg>`` element, to embed
    in a page. Raises ``MissingExtraError`` without matplotlib."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="tactica-plan-") as folder:
        text = plot_plan(p, Path(folder) / "plan.svg").read_text(encoding="utf-8")
    return text[text.index("<svg"):]


def _draw_plan(plt: Any, p: Plan, out: Path) -> None:
    drawn = arrows(p)
    mine = [*dict.fromkeys(a for a, *_ in drawn), *p.idle]
    theirs = list(dict.fromkeys(t for _, t, *_ in drawn))
    rows = max(len(mine), len(theirs), 1)
    fig, ax = plt.subplots(figsize=(11.0, 0.55 * rows + 1.6))
    y_mine = {u: rows - 1 - i * rows / max(len(mine), 1) for i, u in enumerate(mine)}
    y_theirs = {t: rows - 1 - i * rows / max(len(theirs), 1) for i, t in enumerate(theirs)}
    for unit, y in y_mine.items():
        idle = unit in p.idle
        ax.text(0.0, y, unit, ha="right", va="center", fontsize=8,
                color="grey" if idle else "black")
        if idle:
            ax.text(0.05, y, p.idle[unit], ha="left", va="center", fontsize=6,
                    color="grey", style="italic")
    for target, y in y_theirs.items():
        ax.text(1.0, y, target, ha="left", va="center", fontsize=8, weight="bold")
    for unit, target, points, p_dead in drawn:
        (y0, y1) = y_mine[unit], y_theirs[target]
        ax.annotate("", xy=(0.98, y1), xytext=(0.02, y0),
                    arrowprops={"arrowstyle": "->", "color": "tab:red", "lw": 1.0})
        ax.text(0.3, y0 + (y1 - y0) * 0.28, arrow_label(points, p_dead),
                ha="center", va="bottom", fontsize=6.5, color="tab:red",
                bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": "none",
                      "alpha": 0.8})
    how = "optimal" if p.optimal else "best found"
    ax.set_title(f"The plan ({how}): {p.points:.1f} points destroyed — {p.objective}",
                 fontsize=9)
    ax.set_xlim(-0.45, 1.45)
    ax.set_ylim(-1.0, rows)
    ax.axis("off")
    fig.tight_layout()
    fig.savefig(out)
    plt.close(fig)
