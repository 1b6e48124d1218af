"""``tactica effects``: the named effects a scenario may use, with CP, phase, what each
does in engine terms and its conditions; non-combat seed rules listed as such."""

from __future__ import annotations

import json
from typing import Annotated, Literal

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..service import (
    EFFECTS,
    NON_COMBAT,
    UnknownNameError,
    detachment_known,
    find,
    list_effects,
    normalise,
)
from .errors import fail

__all__ = ["effects"]


def _faction_name(faction: str) -> str:
    """The dataset's spelling of a faction or its alias ("Space Marines")."""
    try:
        from ..service import embedded_dataset

        return embedded_dataset().faction(faction) or faction
    except RuntimeError:
        return faction


def _close(kind: Literal["faction", "detachment"], name: str) -> str:
    """"; did you mean: ..." with the known factions or detachments closest to ``name``,
    or "" (no dataset, nothing close)."""
    from ..service import rule_owners, suggest

    found = suggest(name, rule_owners(kind))
    return f"; did you mean: {', '.join(found)}?" if found else ""


def _dataset_listing(faction: str | None, detachment: str | None, as_json: bool) -> bool:
    """Every faction's rules (issue 16): print the dataset records a faction (or a
    detachment) has, with each one's status; False when there are none."""
    from ..service import dataset_effects

    data = dataset_effects()
    if data is None:
        return False
    found = data.listing(None if faction is None else _faction_name(faction), detachment)
    if not found:
        return False
    if as_json:
        typer.echo(json.dumps({"effects": [
            {"name": e.record.name, "kind": e.effect.kind, "source": e.effect.source,
             "factions": list(e.factions), "cp": e.effect.cp, "phases": list(e.effect.phases),
             "status": e.status, "coverage": e.coverage_class, "reason": e.reason,
             "terms": e.effect.terms, "parameter": e.effect.parameter,
             "options": [{"name": o, "does": d} for o, d in e.options],
             "not_calculated": list(e.missing)} for e in found]},
            indent=2, ensure_ascii=False))
        return True
    table = Table(title=f"{faction or detachment}: army rules", header_style="bold")
    for col in ("name", "kind", "detachment", "CP", "status", "does / why not"):
        table.add_column(col)
    for e in found:
        table.add_row(e.record.name, e.effect.kind, e.effect.source,
                      str(e.effect.cp) if e.effect.cp else "-", e.coverage_class,
                      e.described())
    out = Console(width=200) if not Console().is_terminal else Console()
    out.print(table)
    return True


def _offered(unit: str, phase: str, target: str, detachment: str | None,
             as_json: bool) -> None:
    """``--for UNIT``: the rules its army may use on one attack (``effects.offer``)."""
    from ..service import prepare, rules_on_offer

    if phase not in ("shooting", "fight"):
        fail(f"--phase: {phase!r} is not a phase; shooting or fight")
    from ..service import one_line

    try:
        plain, _, _ = prepare({"phase": phase, "attacker": {"unit": unit},
                               "target": {"unit": target},
                               "context": {"charged": phase == "fight"}})
    except (ValueError, LookupError) as exc:  # named by the flag the user gave
        text = one_line(exc)
        for field, flag in (("attacker.unit", "--for"), ("attacker", "--for"),
                            ("target.unit", "--target"), ("target", "--target")):
            if text.startswith(field + ":"):
                text = flag + text.removeprefix(field)
                break
        fail(text)
    if detachment is not None and not detachment_known(detachment):
        fail(f"--detachment: no detachment named {detachment!r}"
             + _close("detachment", detachment))
    offers = rules_on_offer(plain, detachment)
    if detachment is not None and not any(
            normalise(o.effect.source) == normalise(detachment) for o in offers):
        Console(stderr=True, highlight=False, soft_wrap=True).print(
            f"note: no rule of {detachment} is on offer to {plain.attacker.name} (a "
            "detachment of another faction, or none of its rules modelled)", markup=False)
    if as_json:
        typer.echo(json.dumps({"attacker": plain.attacker.name, "target": plain.target.name,
                               "phase": phase, "effects": [
            {"name": o.effect.name, "kind": o.effect.kind, "source": o.effect.source,
             "cp": o.effect.cp, "terms": o.effect.terms, "holds": o.holds,
             "failures": list(o.failures)} for o in offers]}, indent=2, ensure_ascii=False))
        return
    table = Table(title=f"Rules on offer: {plain.attacker.name} attacking "
                  f"{plain.target.name} ({phase})", header_style="bold")
    for col in ("name", "kind", "source", "CP", "holds", "does / why not"):
        table.add_column(col)
    for o in sorted(offers, key=lambda o: (not o.holds, o.effect.kind, o.effect.name)):
        table.add_row(*(Text(c) for c in (
            o.effect.name, o.effect.kind, o.effect.source,
            str(o.effect.cp) if o.effect.cp else "-", "yes" if o.holds else "no",
            o.effect.terms if o.holds else "; ".join(o.failures))))
    (Console(width=200) if not Console().is_terminal else Console()).print(table)


def effects(
    detachment: Annotated[str | None, typer.Option(help="only this detachment (and Core)")] = None,
    faction: Annotated[str | None, typer.Option(
        help="every stratagem, enhancement, detachment rule and army rule of this faction, "
        "with whether the calculator models it")] = None,
    unit: Annotated[str | None, typer.Option(help="only effects this library unit can use")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="machine-readable output")] = False,
    for_unit: Annotated[str | None, typer.Option(
        "--for", help="the rules this library unit's army may use on one attack: the core "
        "rules, its faction's army rules and each of its detachments' (--detachment: that "
        "one's), never another faction's; each with whether it holds")] = None,
    phase: Annotated[str, typer.Option(help="with --for: shooting or fight")] = "shooting",
    target: Annotated[str, typer.Option(help="with --for: the unit attacked")] = "meq",
) -> None:
    """List the named effects (stratagems, detachment rules, enhancements, abilities)."""
    if for_unit is not None:
        _offered(for_unit, phase, target, detachment, as_json)
        return
    seed_detachment = detachment is not None and any(
        e.source.casefold() == detachment.casefold() for e in list_effects(detachment))
    if faction is not None or (detachment is not None and not seed_detachment):
        if _dataset_listing(faction, detachment, as_json):
            return
        if faction is not None:
            fail(f"--faction: no rules known for faction {faction!r}"
                 + _close("faction", faction))
    keywords: tuple[str, ...] = ()
    unit_name = unit
    if detachment is not None:
        sources = sorted({e.source for e in EFFECTS if normalise(e.source) != "core"})
        try:
            find("detachment", detachment, sources)
        except UnknownNameError as exc:
            close = _close("detachment", detachment)
            hint = close or ("" if exc.suggestions else f"; known: {', '.join(sources)}")
            fail(f"--detachment: {exc if not close else f'no detachment named {detachment!r}'}"
                 f"{hint}")
    if unit is not None:
        from ..service import load_library

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
