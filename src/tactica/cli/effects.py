"""``tactica effects``: the named effects a scenario may use, with CP, phase, what each
does in engine terms and its conditions; non-combat seed rules listed as such."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..effects import EFFECTS, NON_COMBAT, list_effects
from ..names import normalise, suggest
from .errors import fail

__all__ = ["effects"]


def effects(
    detachment: Annotated[str | None, typer.Option(help="only this detachment (and Core)")] = None,
    unit: Annotated[str | None, typer.Option(help="only effects this library unit can use")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="machine-readable output")] = False,
) -> None:
    """List the named effects (stratagems, detachment rules, enhancements, abilities)."""
    keywords: tuple[str, ...] = ()
    unit_name = unit
    if detachment is not None:
        sources = sorted({e.source for e in EFFECTS if normalise(e.source) != "core"})
        if normalise(detachment) not in {normalise(s) for s in sources}:
            close = suggest(detachment, sources)
            hint = f"did you mean: {', '.join(close)}?" if close else \
                f"known: {', '.join(sources)}"
            fail(f"--detachment: no detachment named {detachment!r}; {hint}")
    if unit is not None:
        from ..library import load_library

        try:
            sheet = load_library().datasheet(unit)
        except LookupError as exc:
            fail(str(exc))
        keywords = sheet.keywords + sheet.faction_keywords
        unit_name = sheet.name
    found = list_effects(detachment, unit_name, keywords)
    if as_json:
        doc = {
            "effects": [
                {"name": e.name, "kind": e.kind, "source": e.source, "cp": e.cp,
                 "phases": list(e.phases), "rules": list(e.rules), "terms": e.terms,
                 "conditions": [c.description for c in e.conditions],
                 "parameter": e.parameter, "aliases": list(e.aliases)}
                for e in found
            ],
            "non_combat": NON_COMBAT,
        }
        typer.echo(json.dumps(doc, indent=2))
        return
    table = Table(title="Named effects", header_style="bold")
    for col in ("name", "kind", "source", "CP", "phase", "rules", "does", "needs"):
        table.add_column(col)
    for e in found:
        table.add_row(*(Text(cell) for cell in (
            e.name, e.kind, e.source, str(e.cp) if e.cp else "-", "/".join(e.phases),
            "/".join(e.rules), e.terms, "; ".join(c.description for c in e.conditions))))
    out = Console(width=200) if not Console().is_terminal else Console()
    out.print(table)
    nc = Table(title="Seed rules with no combat effect", header_style="bold")
    nc.add_column("rule")
    nc.add_column("what it is about")
    for name, why in NON_COMBAT.items():
        nc.add_row(Text(name), Text(why))
    out.print(nc)
