"""The matchup matrix as a picture: one heatmap per side and phase (matplotlib, drawn
off-screen), my units down, the enemy's across, each cell coloured by the value shown and
written in it; a unit that cannot attack is a grey row marked "-".

``VALUES`` names what a cell can show: the records' columns of ``Matchup.to_records``.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import needs_extra
from .cells import Cell
from .matrix import Matchup

__all__ = ["VALUES", "cell_value", "plot_matchup"]

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


def plot_matchup(m: Matchup, path: str | Path, value: str = "points") -> Path:
    """Draw ``m`` into ``path`` (.png or .svg). Raises ``ValueError`` for another
    suffix."""
    out = Path(path)
    if out.suffix.lower() not in _FORMATS:
        raise ValueError(f"--plot {out}: a picture is .png or .svg")
    with needs_extra("plan", "tactica matchup --plot"):
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
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
