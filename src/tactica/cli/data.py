"""``tactica data ...``: where the library's datasheets come from, and the global
``--data PATH`` / ``--no-dataset`` options.

``configure`` (``tactica.cli.sources``) is called by the root callback: for the length of
one command it points ``load_library()`` at the seed pages, the catalogues given with
``--data`` and (unless ``--no-dataset``) the bundled dataset.

``tactica data report`` prints, per source, how many units were loaded, repaired and
rejected (``--details`` lists the repaired and rejected ones with reasons, ``--all`` every
finding, ``--json`` the reports).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Annotated

import typer
from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..service import Library, LoadReport, load_library
from .sources import configure

__all__ = ["configure", "data_app", "report", "report_table"]

data_app = typer.Typer(
    name="data",
    help="Where the datasheets come from: sources, load reports.",
    no_args_is_help=True,
)


def report_table(reports: Sequence[LoadReport]) -> Table:
    """One row per source: units, loaded, repaired, rejected."""
    table = Table(box=box.SIMPLE_HEAD, title="Data sources")
    for column in ("Source", "Units", "Loaded", "Repaired", "Rejected"):
        table.add_column(column, justify="left" if column == "Source" else "right")
    for r in reports:
        c = r.counts()
        table.add_row(Text(r.source), str(len(r.units)), str(c["loaded"]), str(c["repaired"]),
                      str(c["rejected"]))
    return table


def _reports(lib: Library) -> tuple[tuple[LoadReport, ...], tuple[str, ...]]:
    reports = getattr(lib, "reports", None)
    missing = getattr(lib, "missing", ())
    if callable(reports):
        found = tuple(r for r in reports() if isinstance(r, LoadReport))
        return found, tuple(str(m) for m in missing)
    from ..service import SeedSource

    return (SeedSource(lib).report(),), ()


@data_app.command("report")
def report(
    details: Annotated[
        bool, typer.Option("--details", help="List repaired and rejected units with reasons.")
    ] = False,
    everything: Annotated[
        bool, typer.Option("--all", help="With --details: every finding (unsupported, suspect).")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the reports as JSON.")] = False,
    coverage: Annotated[bool, typer.Option(
        "--coverage", help="Only the army rules and the datasheet abilities by faction: "
        "modelled (applied), partly, non-combat, not modelled (listed) (with --json as "
        "JSON).")] = False,
    units: Annotated[bool, typer.Option(
        "--units", help="Only the units fielded on a mend or a guess, with the evidence "
        "(with --json as JSON).")] = False,
) -> None:
    """Count, per source, the units loaded, repaired and rejected (converts every unit), and
    per faction the army rules modelled, non-combat and not modelled."""
    from .coverage import coverage_document, coverage_table, unit_abilities_table

    if units:
        _units_report(as_json)
        return

    if coverage:
        doc = coverage_document()
        if doc is None:
            from ..service import INSTALL_HINT

            Console(stderr=True).print(f"error: {INSTALL_HINT}", markup=False)
            raise typer.Exit(2)
        if as_json:
            typer.echo(json.dumps(doc, indent=2, ensure_ascii=False))
        else:
            wide = Console(highlight=False, soft_wrap=False, width=140)
            wide.print(coverage_table(doc))
            wide.print(unit_abilities_table(doc))
        return
    reports, missing = _reports(load_library())
    err = Console(stderr=True, highlight=False)
    for message in missing:
        err.print(f"note: {message}", markup=False)
    if as_json:
        typer.echo(json.dumps([r.model_dump(mode="json") for r in reports], indent=2,
                              ensure_ascii=False))
        return
    out = Console(highlight=False, soft_wrap=False)
    out.print(report_table(reports))
    for r in reports:
        for note in r.notes:
            out.print(Text(f"{r.source}: {note}", style="dim"))
    if any(r.source.startswith("wh40kdc") for r in reports):
        doc = coverage_document()
        if doc is not None:
            out.print(coverage_table(doc))
            out.print(unit_abilities_table(doc))
    if not details:
        return
    for r in reports:
        shown = r.units if everything else (*r.repaired, *r.rejected)
        for unit in shown:
            issues = [i for i in unit.issues if everything or i.kind in ("repaired", "rejected")]
            if not issues:
                continue
            out.print(Text(f"{r.source} · {unit.unit} ({unit.status})", style="bold"))
            for issue in issues:
                out.print(Text(f"  {issue}"))


def _units_report(as_json: bool) -> None:
    """``--units``: every unit whose fielding relies on a mend or a guess (units core,
    ``tactica.units.audit``)."""
    from collections import Counter

    from ..service import fielding_audit

    found = fielding_audit(load_library().datasheets())
    if as_json:
        typer.echo(json.dumps([{"unit": a.unit, "kind": a.kind, "evidence": list(a.evidence)}
                               for a in found], indent=2, ensure_ascii=False))
        return
    counts = Counter(a.kind for a in found)
    out = Console(highlight=False, soft_wrap=False, width=160)
    table = Table(box=box.SIMPLE_HEAD, title=f"Units fielded on a mend ({counts['mend']}) "
                  f"or a guess ({counts['guess']})")
    for column in ("Unit", "Relies on", "Evidence"):
        table.add_column(column)
    for a in found:
        table.add_row(Text(a.unit), a.kind, Text("\n".join(a.evidence)))
    out.print(table)
