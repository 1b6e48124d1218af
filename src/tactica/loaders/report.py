"""Load reports: what a loader did with each unit (loaded, repaired, rejected) and why, and
the record checks that feed them.

Issue 6 ("Known data faults are reported, not copied"): a loader validates what it reads
(characteristics in range, weapons with every characteristic, dice expressions valid) and
lists the records it rejected or repaired, with reasons. Each finding is an ``Issue``:

* ``rejected``: the unit could not be converted at all (no stat line, a broken link);
* ``repaired``: a faulty part was fixed ("4" read as "4+") or left out (a weapon profile
  with ``S *``), and the unit loads without it;
* ``unsupported``: the record is fine but the model cannot hold it (an ability that only
  applies against some targets, an invulnerable save against ranged attacks only); it is
  left out and said so, never silently;
* ``suspect``: kept as read, but odd (10 models cheaper than 6).

A unit's status is the worst of its issues: rejected, then repaired, else loaded.

>>> log = IssueLog()
>>> log.repaired("weapon 'Hand flamer'", "WS '4' read as 4+")
>>> log.unsupported("weapon 'Hand flamer'", "ability 'Cleave 1' left out (unknown)")
>>> entry = log.finish("Acolytes", "Genestealer Cults")
>>> entry.status, len(entry.issues)
('repaired', 2)
>>> report = LoadReport(source="test", units=(entry,))
>>> report.counts()
{'loaded': 0, 'repaired': 1, 'rejected': 0}
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ValidationError

from ..dice import DiceError, DiceExpr
from ..model.abilities import UnknownAbilityError, WeaponAbility, parse_weapon_ability
from ..model.common import Frozen, Source
from ..model.datasheet import Ability, ModelProfile, PointsBracket, WeaponProfile
from ..names import UnknownNameError, name_key, suggest

__all__ = [
    "CORE_PARAMETERS",
    "Issue",
    "IssueKind",
    "IssueLog",
    "LoadReport",
    "Status",
    "UnitRejected",
    "UnitReport",
    "brackets_for_sizes",
    "build",
    "core_ability",
    "dice",
    "validation_text",
    "weapon_abilities",
]

Status = Literal["loaded", "repaired", "rejected"]
IssueKind = Literal["rejected", "repaired", "unsupported", "suspect"]

M = TypeVar("M", bound=BaseModel)


class Issue(Frozen):
    """One finding about one record of a unit (``record`` names it: "weapon 'Flamer'")."""

    kind: IssueKind
    record: str
    message: str

    def __str__(self) -> str:
        return f"{self.kind}: {self.record}: {self.message}"


class UnitReport(Frozen):
    """What one loader did with one unit: its status and every issue found."""

    unit: str
    faction: str | None = None
    status: Status
    issues: tuple[Issue, ...] = ()

    @property
    def reasons(self) -> tuple[str, ...]:
        """The issues that set the status (rejections and repairs), as text."""
        return tuple(
            f"{i.record}: {i.message}" for i in self.issues if i.kind in ("rejected", "repaired")
        )


class LoadReport(Frozen):
    """Everything one source loaded: a ``UnitReport`` per unit plus source-level notes (a
    linked catalogue that is missing, a dataset version other than the pinned one)."""

    source: str
    units: tuple[UnitReport, ...] = ()
    notes: tuple[str, ...] = ()

    def with_status(self, status: Status) -> tuple[UnitReport, ...]:
        return tuple(u for u in self.units if u.status == status)

    @property
    def loaded(self) -> tuple[UnitReport, ...]:
        return self.with_status("loaded")

    @property
    def repaired(self) -> tuple[UnitReport, ...]:
        return self.with_status("repaired")

    @property
    def rejected(self) -> tuple[UnitReport, ...]:
        return self.with_status("rejected")

    def counts(self) -> dict[Status, int]:
        """Units per status, in the order loaded, repaired, rejected."""
        return {s: len(self.with_status(s)) for s in ("loaded", "repaired", "rejected")}

    def unit(self, name: str) -> UnitReport:
        """The entry of the named unit (look-up as in ``tactica.names``)."""
        key = name_key(name)
        for entry in self.units:
            if name_key(entry.unit) == key:
                return entry
        raise UnknownNameError("unit", name, suggest(name, [u.unit for u in self.units]))

    def summary(self) -> str:
        """``"<source>: 1096 units: 1040 loaded, 50 repaired, 6 rejected"``."""
        c = self.counts()
        return (
            f"{self.source}: {len(self.units)} units: {c['loaded']} loaded, "
            f"{c['repaired']} repaired, {c['rejected']} rejected"
        )


class UnitRejected(Exception):
    """Raised inside a converter to give up on a unit; the message is the reason."""

    def __init__(self, record: str, message: str) -> None:
        self.record = record
        self.message = message
        super().__init__(f"{record}: {message}")


class IssueLog:
    """Collects the issues of one unit while it is converted (mutable, one per unit)."""

    def __init__(self) -> None:
        self.issues: list[Issue] = []

    def _add(self, kind: IssueKind, record: str, message: str) -> None:
        issue = Issue(kind=kind, record=record, message=message)
        if issue not in self.issues:
            self.issues.append(issue)

    def repaired(self, record: str, message: str) -> None:
        self._add("repaired", record, message)

    def unsupported(self, record: str, message: str) -> None:
        self._add("unsupported", record, message)

    def suspect(self, record: str, message: str) -> None:
        self._add("suspect", record, message)

    def rejected(self, record: str, message: str) -> None:
        self._add("rejected", record, message)

    def notes(self) -> tuple[str, ...]:
        """The issues as datasheet notes ("repaired: weapon 'X': ...")."""
        return tuple(str(i) for i in self.issues)

    def finish(self, unit: str, faction: str | None) -> UnitReport:
        kinds = {i.kind for i in self.issues}
        status: Status = (
            "rejected" if "rejected" in kinds else "repaired" if "repaired" in kinds else "loaded"
        )
        return UnitReport(unit=unit, faction=faction, status=status, issues=tuple(self.issues))


# --- record checks shared by the loaders ---------------------------------------------


def validation_text(exc: ValidationError) -> str:
    """A pydantic error in one line: ``"W: Input should be less than or equal to 60 (80)"``."""
    parts = []
    for error in exc.errors():
        where = ".".join(str(p) for p in error["loc"]) or "record"
        parts.append(f"{where}: {error['msg']} ({error.get('input')!r})")
    return "; ".join(parts)


def build(model: type[M], data: Mapping[str, Any], log: IssueLog, record: str) -> M | None:
    """``model.model_validate(data)``; on a validation error (a characteristic out of range,
    a missing field) the record is left out and the reason logged as a repair."""
    try:
        return model.model_validate(dict(data))
    except ValidationError as exc:
        log.repaired(record, f"left out: {validation_text(exc)}")
        return None


def dice(value: object) -> DiceExpr:
    """A dice characteristic (A, D) from a number or text; raises ``DiceError``.

    >>> dice(3), dice("D6+1")
    (DiceExpr.parse('3'), DiceExpr.parse('D6+1'))
    """
    if isinstance(value, int | str | DiceExpr) and not isinstance(value, bool):
        return DiceExpr.parse(value)
    raise DiceError(f"malformed dice expression {value!r}")


def weapon_abilities(
    texts: Iterable[str], log: IssueLog, record: str
) -> tuple[WeaponAbility, ...]:
    """Parse weapon abilities written in rulebook words; one the model does not know
    (``UnknownAbilityError``) is left out and logged as unsupported."""
    out: list[WeaponAbility] = []
    for text in texts:
        try:
            ability = parse_weapon_ability(text)
        except UnknownAbilityError as exc:
            log.unsupported(record, f"ability {text!r} left out ({exc})")
            continue
        if ability not in out:
            out.append(ability)
    return tuple(out)


#: Core abilities written with a parameter ("Deadly Demise D6+2", "Feel No Pain 5+",
#: "Firing Deck 12", "Scouts 6\""): Ability.parameter holds the value (model docstring).
CORE_PARAMETERS = ("Deadly Demise", "Feel No Pain", "Firing Deck", "Scouts")
_CORE_PARAM = re.compile(
    r"^(?P<name>" + "|".join(CORE_PARAMETERS) + r")\s+(?P<value>\d*D?\d+(?:\+\d+)?)[+\"”]?"
    r"(?P<rest>.*)$",
    re.IGNORECASE,
)


def core_ability(
    name: str,
    kind: Literal["core", "faction", "unit", "wargear", "damaged"],
    text: str | None,
    source: Source | None,
) -> Ability:
    """An ``Ability``; a parameterised core ability gets its value parsed (and is a
    ``core`` ability whatever ``kind`` the source gave it).

    >>> str(core_ability("Deadly Demise D6+2", "core", None, None))
    'Deadly Demise D6+2'
    >>> core_ability("Feel No Pain 5+", "core", None, None).parameter
    DiceExpr.parse('5')
    >>> core_ability('Scouts 6"', "core", None, None).parameter
    DiceExpr.parse('6')
    """
    match = _CORE_PARAM.match(" ".join(name.split()))
    if match is not None and not match.group("rest").strip():
        canonical = next(c for c in CORE_PARAMETERS if c.casefold() == match["name"].casefold())
        try:
            value = DiceExpr.parse(match.group("value").upper())
        except DiceError:
            value = None
        if value is not None:
            return Ability(name=canonical, kind="core", parameter=value, text=text, source=source)
    return Ability(name=name, kind=kind, text=text, source=source)


def brackets_for_sizes(
    prices: Mapping[int, int], log: IssueLog, record: str = "points"
) -> tuple[PointsBracket, ...]:
    """Points brackets, one per unit size, smallest first.

    Both 11th-edition sources price *ranges* of sizes (wh40kdc: ``models``..``models_max``;
    BSData: "set 145 when the unit has more than 10 models"), while ``PointsBracket`` is
    "the price of a unit of exactly ``models`` models"; so every size gets its bracket.
    A larger unit that costs less than a smaller one is kept but flagged as suspect.

    >>> brackets_for_sizes({5: 75, 6: 140}, IssueLog())
    (PointsBracket(models=5, points=75), PointsBracket(models=6, points=140))
    """
    out: list[PointsBracket] = []
    for models in sorted(prices):
        bracket = build(PointsBracket, {"models": models, "points": prices[models]}, log, record)
        if bracket is None:
            continue
        if out and bracket.points < out[-1].points:
            log.suspect(
                record,
                f"{bracket.models} models cost {bracket.points}, less than "
                f"{out[-1].models} models ({out[-1].points}); kept as read",
            )
        out.append(bracket)
    return tuple(out)


def model_profile(data: Mapping[str, Any], log: IssueLog, record: str) -> ModelProfile | None:
    """A checked ``ModelProfile`` (ranges of ``ModelProfile``), or ``None`` and a repair."""
    return build(ModelProfile, data, log, record)


def weapon_profile(data: Mapping[str, Any], log: IssueLog, record: str) -> WeaponProfile | None:
    """A checked ``WeaponProfile``: every characteristic present, A and D valid dice
    expressions, S/AP/skill in range; otherwise ``None`` and a repair."""
    missing = [k for k in ("range", "A", "S", "AP", "D") if data.get(k) is None]
    if missing:
        log.repaired(record, f"left out: no {', '.join(missing)}")
        return None
    fields = dict(data)
    for key in ("A", "D"):
        try:
            fields[key] = dice(fields[key])
        except DiceError as exc:
            log.repaired(record, f"left out: {key} {exc}")
            return None
    return build(WeaponProfile, fields, log, record)
