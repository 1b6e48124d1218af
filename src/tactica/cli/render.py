"""Rich renderables for the CLI: the unit list, datasheet cards and rule texts.

Formatting only: everything shown comes from the model (``Datasheet``, rule records); no
rules live here. All text from the data is wrapped in ``rich.text.Text``, so brackets in a
rule text are never read as markup.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..service import (
    CompositionLine,
    Datasheet,
    Weapon,
    WeaponProfile,
    loadout_lines,
    ordinal,
    points_text,
    source_text,
    unit_cells,
)
from .unit_view import rows_table

__all__ = [
    "composition_text",
    "datasheet_card",
    "ordinal",
    "points_text",
    "source_text",
    "units_table",
    "weapons_table",
]


def composition_text(lines: Iterable[CompositionLine]) -> str:
    """``1 Ridemaster + 4-9 Death Riders``."""
    return " + ".join(f"{c.min if c.min == c.max else f'{c.min}-{c.max}'} {c.model}" for c in lines)


def units_table(sheets: Iterable[Datasheet]) -> Table:
    """The ``tactica units`` table: name, faction keywords, rules version, points, source
    (``cli.unit_view``: the same table from the unit index's rows)."""
    return rows_table(unit_cells(s) for s in sheets)


def _profile_cells(profile: WeaponProfile, label: str) -> list[Text]:
    rng = "Melee" if profile.is_melee else f'{profile.range}"'
    skill = "N/A" if profile.skill is None else f"{profile.skill}+"
    abilities = ", ".join(str(a) for a in profile.abilities) or "-"
    return [
        Text(label),
        Text(rng),
        Text(str(profile.A)),
        Text(skill),
        Text(str(profile.S)),
        Text(str(profile.AP)),
        Text(str(profile.D)),
        Text(abilities),
    ]


def weapons_table(weapons: Iterable[Weapon], melee: bool) -> Table | None:
    """Ranged or melee weapons; a multi-profile weapon shows one row per profile."""
    chosen = [w for w in weapons if w.is_melee == melee]
    if not chosen:
        return None
    table = Table(box=box.SIMPLE_HEAD, title_justify="left", expand=False)
    table.title = "Melee weapons" if melee else "Ranged weapons"
    for column in ("Weapon", "Range", "A", "WS" if melee else "BS", "S", "AP", "D", "Abilities"):
        table.add_column(column)
    for weapon in chosen:
        for profile in weapon.profiles:
            label = profile.name if len(weapon.profiles) == 1 else f"  {profile.name}"
            if len(weapon.profiles) > 1 and profile is weapon.profiles[0]:
                table.add_row(Text(weapon.name, style="bold"))
            table.add_row(*_profile_cells(profile, label))
    return table


def _heading(text: str) -> Text:
    return Text.assemble("\n", (text, "bold underline"))


def _abilities(sheet: Datasheet) -> list[RenderableType]:
    from ..service import GENERATED, ability_text

    out: list[RenderableType] = []
    for kind, label in (("core", "CORE"), ("faction", "FACTION")):
        named = [str(a) for a in sheet.abilities if a.kind == kind]
        if named:
            out.append(Text.assemble((f"{label}: ", "bold"), ", ".join(named)))
    for ability in sheet.abilities:
        if ability.kind in ("core", "faction"):
            continue
        tag = "" if ability.kind == "unit" else f" ({ability.kind})"
        generated = None if ability.text else ability_text(ability)
        if generated is not None:  # issue 41: the effect code in words, marked
            out.append(Text.assemble((f"{ability}{tag}: ", "bold"), generated.text,
                                     (f" ({GENERATED})", "dim italic")))
            continue
        out.append(Text.assemble((f"{ability}{tag}: ", "bold"), ability.text or "(no text)"))
    if sheet.damaged is not None:
        d = sheet.damaged
        label = f"DAMAGED: {d.min_wounds}-{d.max_wounds} wounds remaining: "
        out.append(Text.assemble((label, "bold"), d.text))
    return out


def datasheet_card(sheet: Datasheet) -> Panel:
    """A datasheet card: stat lines, weapons (with abilities), abilities, leader, transport,
    wargear options, composition and points, keywords, notes and source."""
    parts: list[RenderableType] = []
    for model in sheet.models:
        parts.append(Text.assemble((f"{model.name}  ", "bold"), model.statline()))
    if not sheet.models:
        parts.append(Text("(no stat line)", style="dim"))
    for melee in (False, True):
        table = weapons_table(sheet.weapons, melee)
        if table is not None:
            parts.append(table)
    abilities = _abilities(sheet)
    if abilities:
        parts += [_heading("Abilities"), *abilities]
    if sheet.leader_of:
        parts += [_heading("Leader"), Text("Can lead: " + ", ".join(sheet.leader_of))]
    if sheet.transport is not None:
        parts += [_heading("Transport"), Text(sheet.transport.text)]
    wargear = loadout_lines(sheet)
    if wargear:
        parts += [_heading("Wargear"), *(Text(line) for line in wargear)]
    elif sheet.wargear_options:
        parts += [_heading("Wargear options"), *(Text(f"- {o}") for o in sheet.wargear_options)]
    parts.append(_heading("Unit composition"))
    if sheet.composition:
        parts.append(Text(composition_text(sheet.composition)))
    parts.append(Text.assemble(("Points: ", "bold"), points_text(sheet.points)))
    parts.append(Text.assemble(("KEYWORDS: ", "bold"), ", ".join(sheet.keywords) or "-"))
    parts.append(
        Text.assemble(("FACTION KEYWORDS: ", "bold"), ", ".join(sheet.faction_keywords) or "-")
    )
    for note in sheet.notes:
        parts.append(Text(f"note: {note}", style="dim"))
    return Panel(
        Group(*parts),
        title=Text(f"{sheet.name} ({sheet.rules})", style="bold"),
        subtitle=Text(f"source: {source_text(sheet.source)}"),
        box=box.ROUNDED,
    )
