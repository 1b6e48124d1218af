"""Rich renderables for the CLI: the unit list, datasheet cards and rule texts.

Formatting only: everything shown comes from the model (``Datasheet``, rule records); no
rules live here. All text from the data is wrapped in ``rich.text.Text``, so brackets in a
rule text are never read as markup.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import PurePath

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..library import UnitAbility
from ..model.common import Source
from ..model.datasheet import (
    CompositionLine,
    Datasheet,
    EscalatingPoints,
    PointsBracket,
    Weapon,
    WeaponProfile,
)
from ..model.rules import (
    ArmyRule,
    CoreRule,
    Detachment,
    DetachmentRule,
    Enhancement,
    Errata,
    FaqEntry,
    RuleRecord,
    Stratagem,
)
from ..units.loadout import loadout_lines

__all__ = [
    "composition_text",
    "datasheet_card",
    "ordinal",
    "points_text",
    "rule_panel",
    "source_text",
    "units_table",
    "weapons_table",
]


def source_text(source: Source) -> str:
    """A source as ``file:line`` with the file's base name (seed pages are read from the
    installed package, whose directory says nothing).

    >>> source_text(Source(file="/x/tactica/data/seeds/000_0f63.txt", line=550))
    '000_0f63.txt:550'
    """
    name = PurePath(source.file).name or source.file
    return f"{name}:{source.line}" if source.line is not None else name


def ordinal(n: int) -> str:
    """``1`` -> ``"1st"``, ``4`` -> ``"4th"``, ``22`` -> ``"22nd"``.

    >>> [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '23rd']
    """
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _brackets(brackets: Iterable[PointsBracket]) -> str:
    return ", ".join(
        f"{b.models} model{'s' if b.models != 1 else ''}: {b.points} pts" for b in brackets
    )


def points_text(points: tuple[PointsBracket, ...] | EscalatingPoints) -> str:
    """Points in one line; escalating costs (the Tyrannocyte's "YOUR 1ST TO 3RD UNITS
    COST") name the units each tier covers.

    >>> points_text((PointsBracket(models=5, points=70), PointsBracket(models=10, points=140)))
    '5 models: 70 pts, 10 models: 140 pts'
    >>> from tactica.model import PointsTier
    >>> points_text(EscalatingPoints(tiers=(
    ...     PointsTier(first=1, last=3, brackets=(PointsBracket(models=1, points=80),)),
    ...     PointsTier(first=4, brackets=(PointsBracket(models=1, points=90),)))))
    'units 1st–3rd: 1 model: 80 pts; units 4th+: 1 model: 90 pts'
    """
    if isinstance(points, EscalatingPoints):
        parts = []
        for tier in points.tiers:
            if tier.last is None:
                which = f"{ordinal(tier.first)}+"
            elif tier.last == tier.first:
                which = ordinal(tier.first)
            else:
                which = f"{ordinal(tier.first)}–{ordinal(tier.last)}"
            parts.append(f"units {which}: {_brackets(tier.brackets)}")
        return "; ".join(parts)
    return _brackets(points) if points else "-"


def composition_text(lines: Iterable[CompositionLine]) -> str:
    """``1 Ridemaster + 4-9 Death Riders``."""
    return " + ".join(f"{c.min if c.min == c.max else f'{c.min}-{c.max}'} {c.model}" for c in lines)


def units_table(sheets: Iterable[Datasheet]) -> Table:
    """The ``tactica units`` table: name, faction keywords, rules version, points, source."""
    table = Table(box=box.SIMPLE_HEAD, title="Units")
    for column in ("Unit", "Faction keywords", "Rules", "Points", "Source"):
        table.add_column(column)
    for sheet in sheets:
        table.add_row(
            Text(sheet.name),
            Text(", ".join(sheet.faction_keywords) or "-"),
            Text(sheet.rules),
            Text(points_text(sheet.points)),
            Text(source_text(sheet.source)),
        )
    return table


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
    out: list[RenderableType] = []
    for kind, label in (("core", "CORE"), ("faction", "FACTION")):
        named = [str(a) for a in sheet.abilities if a.kind == kind]
        if named:
            out.append(Text.assemble((f"{label}: ", "bold"), ", ".join(named)))
    for ability in sheet.abilities:
        if ability.kind in ("core", "faction"):
            continue
        tag = "" if ability.kind == "unit" else f" ({ability.kind})"
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


def _rule_lines(item: RuleRecord | UnitAbility) -> tuple[str, list[Text]]:
    """A title and the body lines of one rule record or unit ability."""
    lines: list[Text] = []

    def field(label: str, value: str | None) -> None:
        if value:
            lines.append(Text.assemble((f"{label}: ", "bold"), value))

    if isinstance(item, Stratagem):
        kind = " – ".join(x for x in (item.detachment, item.category) if x)
        title = f"{item.name} – {item.cp}CP"
        lines.append(Text(f"{kind} Stratagem" + (f" ({item.section})" if item.section else "")))
        if item.flavour:
            lines.append(Text(item.flavour, style="italic"))
        if item.phases:  # the dataset's records: when, not the card's WHEN text
            turn = {"your-turn": "your turn", "opponent-turn": "opponent's turn"}.get(
                item.turn or "", "either player's turn")
            field("Used", f"{'/'.join(item.phases)} phase, {turn}, "
                          f"{(item.timing or 'once-per-phase').replace('-', ' ')}")
        for label, value in (
            ("WHEN", item.when),
            ("TARGET", item.target),
            ("EFFECT", item.effect),
            ("RESTRICTIONS", item.restrictions),
        ):
            field(label, value)
    elif isinstance(item, Enhancement):
        pts = "" if item.points is None else f" – {item.points} pts"
        title = f"{item.name}{pts}"
        lines.append(Text(f"{item.detachment} Enhancement"))
        field("Bearer", item.eligibility)
        if item.flavour:
            lines.append(Text(item.flavour, style="italic"))
        field("Not for", " ".join(item.excluded_keywords) or None)
        if item.unique:
            field("Unique", "yes")
        lines.append(Text(item.text or "(no text in the source)"))
    elif isinstance(item, DetachmentRule):
        title = item.name
        lines.append(Text(f"{item.detachment or 'Detachment'} rule"))
        lines.append(Text(item.text or "(no rule text in the source)"))
    elif isinstance(item, Detachment):
        title = item.name + ("" if item.points is None else f" – {item.points} DP")
        lines.append(Text(f"{item.faction} detachment"))
        field("Also for", ", ".join(f for f in item.factions if f != item.faction) or None)
        field("Rule", ", ".join(item.rule_names) or None)
        field("Stratagems", ", ".join(item.stratagems) or None)
        field("Enhancements", ", ".join(item.enhancements) or None)
        field("Every unit needs", " ".join(item.required_keywords) or None)
        for g in item.granted_keywords:
            cap = f" (up to {g.max_selected})" if g.max_selected else ""
            field("Grants", f"{g.keyword} to {' '.join(g.to_keywords)} units{cap}")
    elif isinstance(item, ArmyRule):
        title = item.name
        lines.append(Text(f"Army rule of {', '.join(item.factions)}"))
    elif isinstance(item, CoreRule):
        title = f"{item.section} {item.title}" if item.section else item.title
        lines.append(Text("Core rule"))
        lines.append(Text(item.text))
    elif isinstance(item, UnitAbility):
        a = item.ability
        title = str(a)
        lines.append(Text(f"{a.kind.capitalize()} ability of {item.datasheet}"))
        lines.append(Text(a.text or "(no text on the datasheet)"))
    elif isinstance(item, FaqEntry):
        title = f"FAQ: {item.topic or item.question}"
        field("Q", item.question)
        field("A", item.answer)
    else:
        assert isinstance(item, Errata)
        title = f"Errata: {item.target or ''}".strip()
        lines.append(Text(item.text))
    return title, lines


def rule_panel(item: RuleRecord | UnitAbility, note: str | None = None) -> Panel:
    """One rule with its rules version and source (``note``: e.g. a version fallback)."""
    title, lines = _rule_lines(item)
    if note:
        lines.append(Text(f"note: {note}", style="dim"))
    source = item.ability.source if isinstance(item, UnitAbility) else item.source
    where = "" if source is None else f" · source: {source_text(source)}"
    subtitle = f"{item.rules} rules{where}"
    return Panel(
        Group(*lines), title=Text(title, style="bold"), subtitle=Text(subtitle), box=box.ROUNDED
    )
