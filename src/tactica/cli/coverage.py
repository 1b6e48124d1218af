"""The per-faction coverage of every faction's rules (issue 16, issue 24): for each
faction, how many of the stratagems, enhancements, detachment rules and army rules it
may use are modelled in full, modelled in part (the part not calculated named),
non-combat or not modelled, and how many of those have a machine-readable effect in the
dataset; the effect kinds and modifier keys no reader understands are counted, never
dropped. The datasheet abilities the dataset encodes are counted the same way (issue 23:
applied whenever their conditions hold, partly, listed with the reason, non-combat).
``tactica data report`` prints the tables; ``--coverage --json`` the document."""

from __future__ import annotations

from typing import Any

from rich import box
from rich.table import Table

from ..service import coverage as unit_coverage
from ..service import dataset_effects, load_library

__all__ = ["coverage_document", "coverage_table", "unit_abilities_table"]

_COLUMNS = ("records", "modelled", "partly", "non-combat", "not modelled", "with effect",
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
    partly = []
    for e in data.entries:
        totals["records"] += 1
        totals[e.coverage_class] += 1
        totals["with effect"] += int(e.has_effect)
        totals["borrowed"] += int(e.borrowed)
        totals["not modelled (with effect)"] += int(e.has_effect and e.status == "not modelled")
        if e.coverage_class == "partly":
            partly.append({"name": e.record.name, "kind": e.effect.kind,
                           "source": e.effect.source, "not calculated": list(e.missing)})
    with_effect = totals["with effect"] or 1
    in_full = sum(1 for e in data.entries if e.has_effect and e.coverage_class == "modelled")
    return {"factions": rows, "totals": totals,
            "not_modelled_share_of_records_with_effect":
                round(totals["not modelled (with effect)"] / with_effect, 4),
            "modelled_in_full_share_of_records_with_effect": round(in_full / with_effect, 4),
            "partly": partly,
            "unknown_effect_kinds": dict(data.unknown_kinds()),
            "unknown_modifier_keys": dict(data.unread_keys()),
            "unit_abilities": unit_coverage(load_library().datasheets())}


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
    share = doc["modelled_in_full_share_of_records_with_effect"]
    unknown = {**doc["unknown_effect_kinds"], **doc["unknown_modifier_keys"]}
    table.caption_justify = "left"
    table.caption = (f"modelled: in full; partly: part of the rule is not calculated "
                     f"(--json lists it). {share:.0%} of the records with an effect are "
                     "modelled in full." + (
                         " Parts the calculator does not read: " + ", ".join(
                             f"{k} ({n})" for k, n in sorted(unknown.items()))
                         if unknown else ""))
    return table


_UNIT_COLUMNS = ("abilities", "applied", "partly", "listed", "non-combat")


def unit_abilities_table(doc: dict[str, Any]) -> Table:
    """The datasheet abilities the dataset encodes, by faction: applied whenever their
    conditions hold, partly, listed with the reason, non-combat."""
    units = doc["unit_abilities"]
    table = Table(box=box.SIMPLE_HEAD, title="Datasheet abilities with an effect in the "
                  "dataset, by faction (each unit's)")
    table.add_column("Faction")
    for column in _UNIT_COLUMNS:
        table.add_column(column, justify="right")
    for faction, row in units["factions"].items():
        table.add_row(faction, *(str(row.get(c, 0)) for c in _UNIT_COLUMNS))
    table.add_row("All units", *(str(units["totals"].get(c, 0)) for c in _UNIT_COLUMNS),
                  style="bold")
    records = units["records"]
    table.add_row("Distinct abilities", *(str(records.get(c if c != "abilities" else
                                                          "records", 0))
                                          for c in _UNIT_COLUMNS), style="bold")
    table.caption_justify = "left"
    table.caption = ("applied: whenever its conditions hold (leader attached, phase, "
                     "ranged or melee, target keywords); listed: under not calculated, "
                     "because " + "; ".join(f"{k} ({n})" for k, n in
                                            units["listed_reasons"].items()))
    return table
