"""The look-up tools: a datasheet (``Library.datasheet``), a rule
(``tactica.lookup.rule_entries``), the library's units by faction and keyword
(``tactica.lookup.find_units``) or by what a player types
(``tactica.lookup.search.search_units``), and an army list's verdict
(``tactica.army.validate``). Lists of units come a page at a time, saying how to ask for
the next."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from ..service import Datasheet, Library, UnknownNameError
from .arguments import (
    FindUnitsArgs,
    ListUnitsArgs,
    LookupRuleArgs,
    LookupUnitArgs,
    ValidateListArgs,
)

__all__ = ["find_units", "list_units", "lookup_rule", "lookup_unit", "validate_list"]

Document = dict[str, Any]


def lookup_unit(args: LookupUnitArgs, library: Library) -> Document:
    sheet = library.datasheet(args.name, args.rules)
    out: Document = {"datasheet": sheet.model_dump(mode="json")}
    if args.rules is not None and sheet.rules != args.rules:
        out["note"] = (f"the library has no {args.rules}-edition datasheet for "
                       f"{sheet.name}; this is the {sheet.rules}-edition one")
    out["omitted"] = []
    return out


def lookup_rule(args: LookupRuleArgs, library: Library) -> Document:
    from ..service import rule_entries

    found = rule_entries(args.name, args.rules, library)
    return {"rules": [e.as_json() for e in found], "omitted": []}


def _row(sheet: Datasheet) -> Document:
    sizes = [sum(c.min for c in sheet.composition), sum(c.max for c in sheet.composition)] \
        if sheet.composition else None
    return {"name": sheet.name, "rules": sheet.rules,
            "faction_keywords": list(sheet.faction_keywords), "keywords": list(sheet.keywords),
            "models": sizes}


def _page(rows: Sequence[Document], offset: int, limit: int, what: str) -> Document:
    """One page of ``rows``, saying what the others are and how to ask for them."""
    page = list(rows[offset:offset + limit])
    omitted = []
    if offset:
        omitted.append(f"{what} 1-{min(offset, len(rows))}: offset 0")
    if offset + limit < len(rows):
        omitted.append(f"{what} {offset + limit + 1}-{len(rows)}: offset {offset + limit}")
    return {"total": len(rows), "offset": offset, "units": page, "omitted": omitted}


@contextmanager
def _argument_named() -> Iterator[None]:
    """A faction or keyword no unit has, refused naming the argument (``faction: no
    faction named ...``)."""
    try:
        yield
    except UnknownNameError as exc:
        raise LookupError(f"{exc.kind}: {exc}") from None


def list_units(args: ListUnitsArgs, library: Library) -> Document:
    from ..service import find_units

    with _argument_named():
        sheets = find_units(library, args.faction, args.keyword, args.rules)
    return _page([_row(d) for d in sheets], args.offset, args.limit, "units")


def find_units(args: FindUnitsArgs, library: Library) -> Document:
    """The units a player's words find, best first (``search_units``), each with what
    matched."""
    from ..service import search_units

    with _argument_named():
        found = search_units(args.query, library, args.faction, args.keyword, args.rules)
    rows = [{**_row(f.sheet), "matched": f.matched} for f in found]
    out = _page(rows, args.offset, args.limit, "matches")
    if not rows:
        out["omitted"] = ["nothing matched: fewer or other words, or list_units by faction "
                          "and keyword"]
    return out


def validate_list(args: ValidateListArgs, library: Library) -> Document:
    from ..service import parse_roster, validate

    roster = parse_roster(args.text, args.format, library=library)
    checked = validate(roster, library)
    prices = checked.prices
    return {
        "legal": checked.legal, "name": roster.name, "faction": roster.faction,
        "detachments": list(roster.detachments), "battle_size": roster.size,
        "rules": roster.rules, "total": prices.total, "limit": prices.limit,
        "violations": [v.model_dump(mode="json") for v in checked.violations],
        "units": [{"name": u.name, "datasheet": u.datasheet, "models": u.models,
                   "points": u.total, "notes": list(u.notes)} for u in prices.units],
        "detachment_points": checked.detachment_points,
        "detachment_budget": checked.detachment_budget, "notes": list(roster.notes),
        "omitted": []}
