"""The army roster: battle size, faction, detachments and the units as built.

A ``Roster`` is what a player writes down before a battle (10th/11th-edition Core Rules,
"Muster Armies"): the battle size, the Army Faction, the detachment(s), and every unit
with its models, wargear and enhancements, which CHARACTER is the Warlord, which leader
and support units are attached to which bodyguard (11th edition 24.22, seed 000: "each
bodyguard unit can have one leader unit + one support unit"), and which units start the
battle embarked in a TRANSPORT (18.01, seed 004: "each DEDICATED TRANSPORT must start
with a unit embarked").

Units are referred to by a stable id (``"u1"``, ``"u2"``, ... in list order) so that an
attachment or an embarkation survives renaming and repeated unit names.

>>> r = Roster(name="Demo", faction="Genestealer Cults", battle_size="Strike Force",
...            detachments=("Host of Ascension",), units=(
...     RosterUnit(id="u1", name="Primus", warlord=True, attached_to="u2"),
...     RosterUnit(id="u2", name="Neophyte Hybrids", models=10)))
>>> r.limit, r.unit("u1").attach_role, [u.name for u in r.attached("u2")]
(2000, 'leader', ['Primus'])

The roster is data only: prices come from ``tactica.army.pricing`` and legality from
``tactica.army.validation``, both against a ``tactica.library.Library``.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import Field, field_validator, model_validator

from ..inputs import checked_texts, no_surrogates
from ..model.common import Frozen, RulesVersion

__all__ = [
    "BATTLE_SIZES",
    "BATTLE_SIZE_POINTS",
    "MAX_COUNT",
    "MAX_POINTS",
    "MAX_UNITS",
    "AttachRole",
    "BattleSize",
    "EnhancementChoice",
    "ModelEntry",
    "Roster",
    "RosterSource",
    "RosterUnit",
    "WargearItem",
    "battle_size_for_points",
    "parse_battle_size",
]

BattleSize = Literal["Incursion", "Strike Force", "Onslaught"]
BATTLE_SIZES: tuple[BattleSize, ...] = ("Incursion", "Strike Force", "Onslaught")

#: Points limit of each battle size (reference_facts.md §3 "Battle sizes: Incursion 1000
#: points, Strike Force 2000, Onslaught 3000"; the same in 10th and 11th edition).
BATTLE_SIZE_POINTS: dict[BattleSize, int] = {
    "Incursion": 1000,
    "Strike Force": 2000,
    "Onslaught": 3000,
}

AttachRole = Literal["leader", "support"]

#: Bounds on what a list may state: no unit fields more models or items than this, no
#: price or limit is above this (Onslaught is 3000 points), no list has more units.
MAX_COUNT = 1000
MAX_POINTS = 100_000
MAX_UNITS = 500

_SIZE_RE = re.compile(r"\b(incursion|strike\s*force|onslaught)\b", re.IGNORECASE)
_LIMIT_RE = re.compile(r"(\d[\d,.]*)\s*(?:point|pts)", re.IGNORECASE)


def parse_battle_size(text: str) -> tuple[BattleSize | None, int | None]:
    """The battle size and points limit named in ``text`` (app and New Recruit spellings).

    >>> parse_battle_size("2. Strike Force (2000 Point limit)")
    ('Strike Force', 2000)
    >>> parse_battle_size("Incursion (1000 points)")
    ('Incursion', 1000)
    >>> parse_battle_size("Onslaught")
    ('Onslaught', None)
    """
    size: BattleSize | None = None
    match = _SIZE_RE.search(text)
    if match:
        word = " ".join(match.group(1).split()).casefold()
        size = next(s for s in BATTLE_SIZES if s.casefold() == word)
    limit_match = _LIMIT_RE.search(text)
    limit = int(re.sub(r"[,.]", "", limit_match.group(1))) if limit_match else None
    return size, limit


def battle_size_for_points(points: int) -> BattleSize:
    """The smallest battle size whose limit is at least ``points`` (Onslaught above).

    >>> battle_size_for_points(1995), battle_size_for_points(500)
    ('Strike Force', 'Incursion')
    """
    for size in BATTLE_SIZES:
        if points <= BATTLE_SIZE_POINTS[size]:
            return size
    return "Onslaught"


class _Record(Frozen):
    """A roster record: its text can be written out as UTF-8 (no lone surrogate, which a
    JSON list's ``\\ud800`` escape would make)."""

    @field_validator("*", mode="after")
    @classmethod
    def _no_surrogates(cls, value: Any) -> Any:
        return checked_texts(value, no_surrogates)


class WargearItem(_Record):
    """``count`` copies of one piece of wargear ("9x Autopistol")."""

    name: str = Field(min_length=1)
    count: int = Field(default=1, ge=1, le=MAX_COUNT)

    def __str__(self) -> str:
        return f"{self.count}x {self.name}"


class ModelEntry(_Record):
    """``count`` models of one kind and what they carry ("9x Neophyte Hybrid: 9x
    Autopistol, ..."). ``name`` is ``None`` where a format gives only the number ("9 with
    ...", WTC full)."""

    name: str | None = None
    count: int = Field(ge=1, le=MAX_COUNT)
    wargear: tuple[WargearItem, ...] = ()


class EnhancementChoice(_Record):
    """An enhancement as written in the list. ``points`` is what the list states (``None``
    where it states none); ``tag`` is the parenthesised kind the 11th-edition app prints
    ("Upgrade", "Aura"). An "Upgrade" enhancement is the 11th-edition kind given to a
    unit rather than a CHARACTER (``upgrade``)."""

    name: str = Field(min_length=1)
    points: int | None = Field(default=None, ge=0, le=MAX_POINTS)
    tag: str | None = None

    @property
    def upgrade(self) -> bool:
        return (self.tag or "").casefold() == "upgrade"

    def label(self) -> str:
        return f"{self.name} ({self.tag})" if self.tag else self.name


class RosterUnit(_Record):
    """One unit as built in the list.

    ``models`` is the unit's size; ``model_entries`` say what each kind of model carries
    and ``wargear`` holds items the list gives for the unit as a whole. ``points`` is the
    unit's price as the list states it, enhancements included (``None`` if not stated).
    ``markers`` are other lines the list gives for the unit, kept as written (the
    11th-edition "Houndpack Lance Keyword: Character"; ``character`` reads them).
    ``attached_to`` is the id of the bodyguard unit this leader or support unit is
    attached to; ``embarked_in`` the id of the TRANSPORT it starts the battle in.
    ``section`` is the list heading it was under ("BATTLELINE"), ``force`` the name of a
    second force (an allied force) in formats that have several.
    """

    id: str = Field(min_length=1)
    name: str = Field(min_length=1)
    models: int = Field(default=1, ge=1, le=MAX_COUNT)
    model_entries: tuple[ModelEntry, ...] = ()
    wargear: tuple[WargearItem, ...] = ()
    points: int | None = Field(default=None, ge=0, le=MAX_POINTS)
    enhancements: tuple[EnhancementChoice, ...] = ()
    warlord: bool = False
    markers: tuple[str, ...] = ()
    attached_to: str | None = None
    attach_role: AttachRole | None = None
    embarked_in: str | None = None
    section: str | None = None
    force: str | None = None

    @model_validator(mode="before")
    @classmethod
    def _defaults(cls, data: Any) -> Any:
        if isinstance(data, dict):
            data = dict(data)
            entries = data.get("model_entries") or ()
            if "models" not in data and entries:
                data["models"] = sum(
                    e.count if isinstance(e, ModelEntry) else int(e["count"]) for e in entries)
            if data.get("attached_to") and not data.get("attach_role"):
                data["attach_role"] = "leader"
        return data

    @model_validator(mode="after")
    def _attachment(self) -> RosterUnit:
        if self.attach_role is not None and self.attached_to is None:
            raise ValueError(f"unit {self.id} ({self.name}): attach_role without attached_to")
        return self

    @property
    def character(self) -> bool:
        """The list gives this unit the CHARACTER keyword (11th-edition detachments that
        make some units CHARACTERs, e.g. "Houndpack Lance Keyword: Character")."""
        return any(m.rstrip().casefold().endswith("character") for m in self.markers)

    def all_wargear(self) -> tuple[WargearItem, ...]:
        """Every wargear item of the unit, counts added up by name, in first-seen order."""
        totals: dict[str, int] = {}
        for item in (*self.wargear, *(w for e in self.model_entries for w in e.wargear)):
            totals[item.name] = totals.get(item.name, 0) + item.count
        return tuple(WargearItem(name=n, count=c) for n, c in totals.items())


class RosterSource(_Record):
    """Where a roster was read from: the format, the file and the program that wrote it
    ("App Version: v2.6.0", "https://newrecruit.eu")."""

    format: str
    file: str | None = None
    generated_by: str | None = None


class Roster(_Record):
    """An army list. ``points_limit`` is only kept when it differs from the battle size's
    (``limit`` gives the one that applies); ``declared_points`` and ``detachment_points``
    are the totals the list itself states. ``embarkation_recorded`` is false for rosters
    read from formats that cannot say which units start embarked (the app and New Recruit
    exports), so that an empty DEDICATED TRANSPORT is reported as unknown, not illegal."""

    format: Literal["tactica-roster"] = "tactica-roster"
    version: Literal[1] = 1
    name: str = "Army"
    rules: RulesVersion = "11th"
    faction: str | None = None
    detachments: tuple[str, ...] = ()
    detachment_points: int | None = Field(default=None, ge=0, le=MAX_POINTS)
    force_disposition: str | None = None
    battle_size: BattleSize | None = None
    points_limit: int | None = Field(default=None, ge=0, le=MAX_POINTS)
    declared_points: int | None = Field(default=None, ge=0, le=MAX_POINTS)
    units: tuple[RosterUnit, ...] = Field(default=(), max_length=MAX_UNITS)
    embarkation_recorded: bool = True
    source: RosterSource | None = None
    notes: tuple[str, ...] = ()

    @model_validator(mode="before")
    @classmethod
    def _limit(cls, data: Any) -> Any:
        if isinstance(data, dict):
            size, limit = data.get("battle_size"), data.get("points_limit")
            # a size of another type is left to the field's own check (a list is not a
            # key: ``[1] in BATTLE_SIZE_POINTS`` raised TypeError)
            if isinstance(size, str) and size in BATTLE_SIZE_POINTS \
                    and limit == BATTLE_SIZE_POINTS[size]:
                data = {**data, "points_limit": None}
        return data

    @model_validator(mode="after")
    def _references(self) -> Roster:
        ids = [u.id for u in self.units]
        duplicates = sorted({i for i in ids if ids.count(i) > 1})
        if duplicates:
            raise ValueError(f"unit ids used twice: {', '.join(duplicates)}")
        known = set(ids)
        for u in self.units:
            for field, ref in (("attached_to", u.attached_to), ("embarked_in", u.embarked_in)):
                if ref is None:
                    continue
                if ref == u.id:
                    raise ValueError(f"unit {u.id} ({u.name}): {field} refers to itself")
                if ref not in known:
                    raise ValueError(f"unit {u.id} ({u.name}): {field} {ref!r} is no unit")
        return self

    @property
    def limit(self) -> int | None:
        """The points limit that applies: the list's own, else its battle size's."""
        if self.points_limit is not None:
            return self.points_limit
        return BATTLE_SIZE_POINTS[self.battle_size] if self.battle_size else None

    @property
    def size(self) -> BattleSize | None:
        """The battle size, or the one the points limit falls in when none is named."""
        if self.battle_size is not None:
            return self.battle_size
        return battle_size_for_points(self.points_limit) if self.points_limit else None

    def unit(self, unit_id: str) -> RosterUnit:
        for u in self.units:
            if u.id == unit_id:
                return u
        raise KeyError(f"no unit with id {unit_id!r}")

    def attached(self, bodyguard_id: str) -> tuple[RosterUnit, ...]:
        """The leader and support units attached to a bodyguard unit."""
        return tuple(u for u in self.units if u.attached_to == bodyguard_id)

    def embarked(self, transport_id: str) -> tuple[RosterUnit, ...]:
        """The units that start the battle embarked in a transport."""
        return tuple(u for u in self.units if u.embarked_in == transport_id)

    def warlords(self) -> tuple[RosterUnit, ...]:
        return tuple(u for u in self.units if u.warlord)

    def canonical(self) -> Roster:
        """The same roster with attached units first (each group: leader and support
        units, then their bodyguard, in list order, as the 11th-edition app writes them),
        then the others, and ids renumbered ``u1``, ``u2``... . Two rosters that differ
        only in order and ids have the same canonical form."""
        order: list[RosterUnit] = []
        placed: set[str] = set()
        for u in self.units:
            bodyguard = u.attached_to
            if bodyguard is None or bodyguard in placed:
                continue
            group = [*self.attached(bodyguard), self.unit(bodyguard)]
            order.extend(g for g in group if g.id not in placed)
            placed.update(g.id for g in group)
        order.extend(u for u in self.units if u.id not in placed)
        new_ids = {u.id: f"u{i}" for i, u in enumerate(order, start=1)}

        def renumber(u: RosterUnit) -> RosterUnit:
            return u.model_copy(update={
                "id": new_ids[u.id],
                "attached_to": new_ids[u.attached_to] if u.attached_to else None,
                "embarked_in": new_ids[u.embarked_in] if u.embarked_in else None,
            })

        return self.model_copy(update={"units": tuple(renumber(u) for u in order)})
