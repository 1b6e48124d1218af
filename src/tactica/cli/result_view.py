"""The human view of a result in the terminal: the stages, the expected values, the
damage and models-destroyed histograms, notes and what was not calculated."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from ..service import Result

__all__ = ["render_result"]


def _histogram(title: str, pmf: tuple[float, ...], width: int = 40) -> Table:
    table = Table(title=title, show_header=True, header_style="bold", box=None)
    table.add_column("value", justify="right")
    table.add_column("P", justify="right")
    table.add_column("P(>= value)", justify="right")
    table.add_column("")
    top = max(pmf) if pmf else 1.0
    tail = 1.0
    for v, p in enumerate(pmf):
        if p >= 0.0005 or v == 0:
            bar = "█" * max(0, round(width * p / top)) if top else ""
            table.add_row(str(v), f"{p:.1%}", f"{max(tail, 0.0):.1%}", bar)
        tail -= p
    return table


def render_result(result: Result, console: Console, extra_notes: list[str] | None = None) -> None:
    """The human view: stage table, means, histograms, chance to destroy at least N."""
    kind = "exact" if result.method == "exact" else f"Monte Carlo, {result.trials} trials"
    console.print(f"[bold]tactica[/bold] — rules {result.rules}, {kind}")
    stages = Table(title="Stages", header_style="bold")
    stages.add_column("weapon")
    stages.add_column("stage")
    stages.add_column("how")
    for st in result.stages:
        stages.add_row(Text(st.weapon), Text(st.stage), Text(st.detail))
    console.print(stages)
    means = Table(title="Expected", header_style="bold")
    for col in ("attacks", "hits", "wounds", "unsaved", "damage", "models destroyed",
                "unit destroyed"):
        means.add_column(col, justify="right")
    means.add_row(*(f"{getattr(result, k).mean:.3f}" for k in
                    ("attacks", "hits", "wounds", "unsaved", "damage", "models_destroyed")),
                  f"{result.p_unit_destroyed:.1%}")
    console.print(means)
    console.print(_histogram("Damage", result.damage.pmf))
    console.print(_histogram("Models destroyed", result.models_destroyed.pmf))
    if result.attacker_mortal_wounds.mean:
        console.print(f"Hazardous: expected {result.attacker_mortal_wounds.mean:.3f} "
                      "mortal wounds to the attacker")
    for note in dict.fromkeys([*(extra_notes or []), *result.notes]):
        console.print(f"[dim]note:[/dim] {escape(note)}")
    for item in result.not_calculated:
        console.print(f"[yellow]not calculated:[/yellow] {escape(item)}")
    if result.effects_applied:
        console.print(Text(f"effects: {', '.join(result.effects_applied)} "
                           f"({result.cp_spent}CP)"))
