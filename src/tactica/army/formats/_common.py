"""Pieces shared by the list formats: errors, item and enhancement parsing, unit drafts.

>>> parse_item("2x War Dog autocannon"), parse_item("Gnarlrod")
(WargearItem(name='War Dog autocannon', count=2), WargearItem(name='Gnarlrod', count=1))
>>> parse_enhancement("Pyresoul (Psychic) (+20 pts)")
EnhancementChoice(name='Pyresoul', points=20, tag='Psychic')
>>> clean_faction("Xenos - Genestealer Cults")
'Genestealer Cults'
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any

from pydantic import ValidationError

from tactica.errors import one_line
from tactica.library import Library
from tactica.model.common import RulesVersion
from tactica.names import name_key

from ..roster import AttachRole, EnhancementChoice, ModelEntry, Roster, RosterUnit, WargearItem

__all__ = [
    "EDITIONS",
    "FORCE_DISPOSITIONS",
    "ExportRefusedError",
    "RosterParseError",
    "UnitDraft",
    "UnsupportedFormatError",
    "at_line",
    "build_roster",
    "clean_faction",
    "model_names",
    "parse_enhancement",
    "parse_item",
    "split_items",
    "tool_version",
    "written_entries",
]

#: The five 11th-edition Force Dispositions (the app prints the chosen one in the header).
FORCE_DISPOSITIONS = ("Take and Hold", "Purge the Foe", "Disruption", "Reconnaissance",
                      "Priority Assets")

_ITEM = re.compile(r"^(\d+)\s*x\s+(.+?)\s*$")
_POINTS_SUFFIX = re.compile(r"\s*(?:\(\s*\+?\s*(\d+)\s*pts?\s*\)|\[\s*(\d+)\s*pts?\s*\])\s*$",
                            re.IGNORECASE)
_TAG_SUFFIX = re.compile(r"\s*\(([^()]+)\)\s*$")
_FACTION_PREFIX = re.compile(r"^(?:Chaos|Imperium|Xenos|Aeldari|Unaligned)\s+-\s+")


class RosterParseError(ValueError):
    """A line (or JSON path) of a list that could not be read. ``line`` is 1-based."""

    def __init__(self, message: str, line: int | None = None, file: str | None = None,
                 where: str | None = None) -> None:
        self.reason = message
        self.line = line
        self.file = file
        self.where = where
        place = file or "list"
        if line is not None:
            place += f":{line}"
        if where is not None:
            place += f" ({where})"
        super().__init__(f"{place}: {message}")


class UnsupportedFormatError(ValueError):
    """A file that is not an army list in a supported format; the message says what it
    is and why it is refused."""


class ExportRefusedError(UnsupportedFormatError):
    """A roster a format cannot write so that it reads back (a name with a line break, a
    comma in a wargear name of a comma-separated layout...); the message says what."""


class at_line:
    """Any value error raised while reading line ``line`` (a count too large, an empty
    name) becomes a ``RosterParseError`` naming that line. (A class, not a
    ``contextmanager`` generator: it wraps every line of a list, and a generator's set-up
    cost more than reading the line.)

    >>> try:
    ...     with at_line(3, "army.txt"):
    ...         int("x")
    ... except ValueError as exc:
    ...     (type(exc).__name__, exc.line)
    ('RosterParseError', 3)
    """

    __slots__ = ("file", "line")

    def __init__(self, line: int, file: str | None) -> None:
        self.line = line
        self.file = file

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 traceback: TracebackType | None) -> None:
        if isinstance(exc, ValueError) and not isinstance(exc, RosterParseError):
            raise RosterParseError(one_line(exc), self.line, self.file) from None


def build_roster(data: dict[str, Any], file: str | None,
                 lines: Sequence[int | None] = ()) -> Roster:
    """``Roster.model_validate(data)``; a field the roster refuses is a ``RosterParseError``
    at the line of the unit it belongs to (``lines[i]`` for ``units[i]``) when known."""
    try:
        return Roster.model_validate(data)
    except ValidationError as exc:
        loc = exc.errors(include_url=False)[0].get("loc", ())
        line = None
        if len(loc) > 1 and loc[0] == "units" and isinstance(loc[1], int) \
                and loc[1] < len(lines):
            line = lines[loc[1]]
        raise RosterParseError(one_line(exc), line, file, None if line else "roster") \
            from None


def model_names(library: Library | None, unit: str) -> set[str]:
    """The model names of ``unit``'s datasheet in ``library`` (name keys without a plural
    "s"); empty when there is no library or it does not know the unit."""
    if library is None:
        return set()
    try:
        sheet = library.datasheet(unit)
    except LookupError:
        return set()
    names = [c.model for c in sheet.composition] + [m.name for m in sheet.models]
    return {name_key(n).rstrip("s") for n in names}


def parse_item(text: str) -> WargearItem:
    """"2x Name" -> 2 x Name; a name without a count is one item."""
    match = _ITEM.match(text.strip())
    if match:
        return WargearItem(name=match.group(2), count=int(match.group(1)))
    return WargearItem(name=text.strip(), count=1)


def split_items(text: str) -> list[str]:
    """A comma-separated item list, blanks dropped."""
    return [p.strip() for p in text.split(",") if p.strip()]


def parse_enhancement(text: str) -> EnhancementChoice:
    """"Name", "Name (Upgrade)", "Name (+15 pts)", "Name [15 pts]", "Name (Psychic) (+20
    pts)": the name, the stated points and the parenthesised kind."""
    body = text.strip()
    points = None
    match = _POINTS_SUFFIX.search(body)
    if match:
        points = int(match.group(1) or match.group(2))
        body = body[: match.start()]
    tag = None
    tag_match = _TAG_SUFFIX.search(body)
    if tag_match and tag_match.start() > 0:
        tag = tag_match.group(1).strip()
        body = body[: tag_match.start()]
    return EnhancementChoice(name=body.strip(), points=points, tag=tag)


def enhancement_text(choice: EnhancementChoice, brackets: bool = False) -> str:
    """The inverse of ``parse_enhancement`` ("(+N pts)", or "[N pts]" with ``brackets``)."""
    out = choice.label()
    if choice.points is not None:
        out += f" [{choice.points} pts]" if brackets else f" (+{choice.points} pts)"
    return out


def written_entries(unit: RosterUnit) -> list[ModelEntry]:
    """The model entries a writer lists for ``unit``: its own, then (where they count
    fewer models than the unit has) one nameless entry for the rest, so that a unit of
    ten written with model lines still has ten models. Empty for a one-model unit
    without entries."""
    entries = list(unit.model_entries)
    rest = unit.models - sum(e.count for e in entries)
    if rest > 0 and (entries or unit.models > 1):
        entries.append(ModelEntry(name=None, count=rest))
    return entries


def clean_faction(name: str) -> str:
    """A faction without the catalogue's grand-alliance prefix ("Chaos - Chaos Knights")."""
    return _FACTION_PREFIX.sub("", name.strip()).strip()


def tool_version() -> str:
    from importlib import metadata

    try:
        return metadata.version("tactica")
    except metadata.PackageNotFoundError:  # pragma: no cover - running from a bare tree
        return "unknown"


def rules_from_text(text: str | None) -> RulesVersion | None:
    """A rules version named in a generator string ("... (rules 10th)", "10th Edition")."""
    if not text:
        return None
    match = re.search(r"\b(10th|11th)\b", text)
    return EDITIONS[match.group(1)] if match else None


#: The rules versions by the names lists write them with.
EDITIONS: dict[str, RulesVersion] = {"10th": "10th", "11th": "11th"}


@dataclass
class UnitDraft:
    """A unit while its lines are being read; ``build`` makes the ``RosterUnit``."""

    name: str
    line: int | None = None
    points: int | None = None
    models: int | None = None
    entries: list[ModelEntry] = field(default_factory=list)
    wargear: list[WargearItem] = field(default_factory=list)
    enhancements: list[EnhancementChoice] = field(default_factory=list)
    warlord: bool = False
    markers: list[str] = field(default_factory=list)
    role: str | None = None  # "leader", "support" or "bodyguard"
    group: int | None = None
    section: str | None = None
    force: str | None = None
    label: str | None = None

    def build(self, unit_id: str, attached_to: str | None = None) -> RosterUnit:
        models = self.models
        if models is None:
            models = sum(e.count for e in self.entries) or 1
        role: AttachRole | None = None
        if attached_to is not None:
            role = "support" if self.role == "support" else "leader"
        return RosterUnit(
            id=unit_id, name=self.name, models=models, model_entries=tuple(self.entries),
            wargear=tuple(self.wargear), points=self.points,
            enhancements=tuple(self.enhancements), warlord=self.warlord,
            markers=tuple(self.markers), attached_to=attached_to,
            attach_role=role, section=self.section,
            force=self.force)
