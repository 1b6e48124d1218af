"""``tactica list show|price|validate|convert FILE``: army lists on the command line.

* ``show``: the units as read, each with its datasheet (or "unknown datasheet" and the
  close names).
* ``price``: the priced breakdown (brackets, escalating costs, enhancements).
* ``validate``: every violation with its code, unit and sentence; exit code 1 when the
  list is illegal (for scripts).
* ``convert``: write the list in another format.

Every command takes ``--json`` for machines and ``--format`` to skip detection. A file that
cannot be read (a line not understood, an unsupported format) exits with code 2 and the
reason, with its line number, on stderr.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..service import (
    Library,
    PriceBreakdown,
    Roster,
    RosterParseError,
    UnsupportedFormatError,
    ValidationReport,
    decode,
    export_formats,
    export_roster,
    export_warnings,
    format_names,
    formats_help,
    import_formats,
    load_library,
    load_roster,
    one_line,
    parse_roster,
    price_roster,
    resolve,
    validate,
)

__all__ = ["EXIT_ILLEGAL", "EXIT_UNREADABLE", "list_app"]

#: Exit codes: the list breaks a rule / the file cannot be read.
EXIT_ILLEGAL = 1
EXIT_UNREADABLE = 2

list_app = typer.Typer(name="list", help="Army lists: show, price, validate, convert.",
                       no_args_is_help=True)

FileArg = Annotated[Path, typer.Argument(help=f"army list: {format_names()}; - reads "
                                               "standard input")]
JsonOpt = Annotated[bool, typer.Option("--json", help="machine-readable output")]
FormatOpt = Annotated[str | None, typer.Option(
    "--format", help=f"input format: {formats_help()} (default: detected)")]


def _out() -> Console:
    return Console(highlight=False, soft_wrap=False)


def _fail(message: str) -> NoReturn:
    # one line whatever the terminal's width (``soft_wrap``: rich does not break it)
    Console(stderr=True, highlight=False, soft_wrap=True).print(
        f"error: {' '.join(message.split())}", markup=False)
    raise typer.Exit(code=EXIT_UNREADABLE)


def _check_format(flag: str, value: str | None, *, write: bool = False) -> None:
    """Refuse a format name the registry does not have, naming the flag (before the
    library is loaded)."""
    if value is None:
        return
    known = [f.key for f in (export_formats() if write else import_formats())]
    if value in known:
        return
    if not write:
        _fail(f"{flag}: unknown format {value!r}; known: {', '.join(known)}")
    why = "read, never written" if value in {f.key for f in import_formats()} else \
        "not a format"
    _fail(f"{flag}: cannot export {value!r} ({why}); formats: {', '.join(known)}")


def _check_out(out: Path) -> None:
    """``--out``: a file in a folder that exists (refused before any work is done)."""
    if out.is_dir():
        _fail(f"--out {out}: is a folder, not a file (give a file name inside it)")
    if not out.parent.is_dir():
        _fail(f"--out {out}: no folder {str(out.parent)!r} (make it first, or write "
              "elsewhere)")


def _load(file: Path, fmt: str | None) -> tuple[Roster, Library]:
    _check_format("--format", fmt)
    library = load_library()
    try:
        if str(file) == "-":  # a list piped in (pasted from the clipboard): its bytes,
            # the encoding found as a file's (a note on the roster when not UTF-8)
            text, note = decode(sys.stdin.buffer.read(), "standard input")
            roster = parse_roster(text, fmt, file="standard input", library=library)
            if note is not None:
                roster = roster.model_copy(update={
                    "notes": (*roster.notes, f"standard input: {note}")})
            return roster, library
        return load_roster(file, fmt, library=library), library
    except (RosterParseError, UnsupportedFormatError, ValueError, OSError) as exc:
        _fail(one_line(exc))  # ValueError: a file that is not text, a roster out of range


def _header(roster: Roster) -> Text:
    size = roster.battle_size or "battle size not given"
    parts = [roster.name, roster.faction or "no faction", ", ".join(roster.detachments)
             or "no detachment", f"{size} ({roster.limit or '?'} pts)", f"rules {roster.rules}"]
    return Text(" · ".join(parts), style="bold")


@list_app.command("show")
def show(file: FileArg, as_json: JsonOpt = False, fmt: FormatOpt = None) -> None:
    """Show the units of a list and the datasheet each resolves to."""
    roster, library = _load(file, fmt)
    found = resolve(roster, library)
    if as_json:
        doc = {"roster": roster.model_dump(mode="json"), "datasheets": {
            uid: {"datasheet": r.sheet.name if r.sheet else None,
                  "rules": r.sheet.rules if r.sheet else None,
                  "suggestions": list(r.suggestions)} for uid, r in found.items()}}
        typer.echo(json.dumps(doc, indent=2, ensure_ascii=False))
        return
    table = Table(box=box.SIMPLE_HEAD, title=_header(roster))
    for col in ("id", "unit", "models", "pts", "wargear", "notes"):
        table.add_column(col, justify="right" if col in ("models", "pts") else "left")
    for unit in roster.units:
        r = found[unit.id]
        notes = []
        if unit.warlord:
            notes.append("Warlord")
        notes += [f"enhancement: {e.label()}" for e in unit.enhancements]
        if unit.attached_to:
            notes.append(f"{unit.attach_role} of {unit.attached_to}")
        if unit.embarked_in:
            notes.append(f"embarked in {unit.embarked_in}")
        if r.sheet is None:
            hint = f" (did you mean: {', '.join(r.suggestions)}?)" if r.suggestions else ""
            notes.append(f"unknown datasheet{hint}")
        gear = ", ".join(str(w) for w in unit.all_wargear())
        table.add_row(unit.id, Text(unit.name), str(unit.models),
                      "-" if unit.points is None else str(unit.points), Text(gear),
                      Text("; ".join(notes)))
    _out().print(table)
    for note in roster.notes:
        _out().print(Text(f"note: {note}", style="dim"))


def _price_table(roster: Roster, prices: PriceBreakdown) -> Table:
    table = Table(box=box.SIMPLE_HEAD, title=_header(roster))
    for col in ("id", "unit", "models", "#", "unit pts", "enhancements", "total", "list says",
                "notes"):
        table.add_column(col, justify="left" if col in ("id", "unit", "enhancements", "notes")
                         else "right")
    for p in prices.units:
        enh = ", ".join(f"{e.name} {e.points}" for e in p.enhancements)
        table.add_row(p.unit_id, Text(p.name), str(p.models), str(p.ordinal),
                      "-" if p.base is None else str(p.base), Text(enh), str(p.total),
                      "-" if p.stated is None else str(p.stated), Text("; ".join(p.notes)))
    limit = f" / {prices.limit}" if prices.limit is not None else ""
    table.caption = f"total {prices.total}{limit} pts"
    return table


@list_app.command("price")
def price(file: FileArg, as_json: JsonOpt = False, fmt: FormatOpt = None) -> None:
    """Price a list: each unit from its datasheet, enhancements, the total."""
    roster, library = _load(file, fmt)
    prices = price_roster(roster, library)
    if as_json:
        doc = prices.model_dump(mode="json")
        doc["units"] = [{**line.model_dump(mode="json"), "total": line.total}
                        for line in prices.units]
        typer.echo(json.dumps(doc, indent=2, ensure_ascii=False))
        return
    _out().print(_price_table(roster, prices))


def _report_json(report: ValidationReport) -> dict[str, Any]:
    return {"legal": report.legal, "total": report.prices.total, "limit": report.prices.limit,
            "detachment_points": report.detachment_points,
            "detachment_budget": report.detachment_budget,
            "resurgence_points": report.resurgence_points,
            "violations": [v.model_dump(mode="json") for v in report.violations]}


@list_app.command("validate")
def validate_cmd(file: FileArg, as_json: JsonOpt = False, fmt: FormatOpt = None) -> None:
    """Check every army-building rule; exit code 1 when the list is illegal."""
    roster, library = _load(file, fmt)
    report = validate(roster, library)
    if as_json:
        typer.echo(json.dumps(_report_json(report), indent=2, ensure_ascii=False))
    else:
        console = _out()
        table = Table(box=box.SIMPLE_HEAD, title=_header(roster))
        for col in ("severity", "code", "unit", "message"):
            table.add_column(col)
        for v in report.violations:
            style = "red" if v.severity == "error" else "yellow"
            unit = f"{v.unit} ({v.unit_id})" if v.unit_id else "army"
            table.add_row(Text(v.severity, style=style), v.code, Text(unit), Text(v.message))
        if report.violations:
            console.print(table)
        else:
            console.print(_header(roster))
            console.print(Text("no violations"))
        facts = [f"total {report.prices.total} pts"
                 + (f" of {report.prices.limit}" if report.prices.limit else "")]
        if report.detachment_points is not None:
            facts.append(f"detachment points {report.detachment_points}"
                         + (f" of {report.detachment_budget}"
                            if report.detachment_budget is not None else ""))
        if report.resurgence_points is not None:
            facts.append(f"Cult Ambush: {report.resurgence_points} Resurgence points")
        console.print(Text("; ".join(facts)))
        verdict = "legal" if report.legal else "ILLEGAL"
        console.print(Text(verdict, style="bold green" if report.legal else "bold red"))
    if not report.legal:
        raise typer.Exit(code=EXIT_ILLEGAL)


@list_app.command("convert")
def convert(
    file: FileArg,
    to: Annotated[str, typer.Option("--to", help=f"output format: {formats_help(write=True)}")],
    fmt: FormatOpt = None,
    out: Annotated[Path | None, typer.Option("--out", help="write here (default: stdout)")]
    = None,
) -> None:
    """Write a list in another format."""
    _check_format("--to", to, write=True)
    if out is not None:
        _check_out(out)
    roster, _ = _load(file, fmt)
    try:
        text = export_roster(roster, to)
    except UnsupportedFormatError as exc:
        _fail(str(exc))
    for warning in export_warnings(roster, to):
        typer.echo(f"warning: {warning}", err=True)
    if out is None:
        typer.echo(text, nl=False)
        return
    try:
        out.write_text(text, encoding="utf-8")
    except OSError as exc:
        _fail(f"--out {out}: cannot be written ({exc.strerror or exc})")
