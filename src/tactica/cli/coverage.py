"""The per-faction coverage of every faction's rules (issue 16): for each faction, how
many of the stratagems, enhancements, detachment rules and army rules it may use are
modelled, non-combat or not modelled, and how many of those have a machine-readable effect
in the dataset. ``tactica data report`` prints the table; ``--coverage --json`` the
document."""

from __future__ import annotations

from typing import Any

from rich import box
from rich.table import Table

from ..effects import dataset_effects

__all__ = ["coverage_document", "coverage_table"]

_COLUMNS = ("records", "modelled", "non-combat", "not modelled", "with effect",
            "not modelled (with effect)")


def coverage_document() -> dict[str, Any] | None:
    """Per faction counts, the totals and the effect kinds no rule of the compiler knows;
    ``None`` without the bundled dataset."""
    data = dataset_effects()
    if data is None:
        return None
    per = data.coverage()
    rows = {f: {k: per[f][k] for k in (*_COLUMNS, "borrowed")} for f in sorted(per)}
    totals = {k: 0 for k in (*_COLUMNS, "borrowed")}
    for e in data.entries:
        totals["records"] += 1
        totals[e.status] += 1
        totals["with effect"] += int(e.has_effect)
        totals["borrowed"] += int(e.borrowed)
        totals["not modelled (with effect)"] += int(e.has_effect and e.status == "not modelled")
    with_effect = totals["with effect"] or 1
    return {"factions": rows, "totals": totals,
            "not_modelled_share_of_records_with_effect":
                round(totals["not modelled (with effect)"] / with_effect, 4),
            "unknown_effect_kinds": dict(data.unknown_kinds())}


def coverage_table(doc: dict[str, Any]) -> Table:
    table = Table(box=box.SIMPLE_HEAD, title="Army rules by faction (stratagems, "
                  "enhancements, detachment rules, army rules)")
    table.add_column("Faction")
    for column in _COLUMNS:
        table.add_column(column, justify="right")
    for faction, row in doc["factions"].items():
        table.add_row(faction, *(str(row[c]) for c in _COLUMNS))
    totals = doc["totals"]
    table.add_row("All records (each once)", *(str(totals[c]) for c in _COLUMNS),
                  style="bold")
    return table
