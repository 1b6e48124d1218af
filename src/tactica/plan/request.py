"""One request for army against army, the same at every door: ``MatchupRequest``
(``tactica matchup``) and ``PlanRequest`` (``tactica plan``), frozen pydantic models whose
fields, bounds and help text are the options of the CLI, the controls of the web page and
the arguments of the assistant's tools.

A door that reads words (the CLI's repeated options, the web page's text boxes: one entry
a line) gives them to ``from_words``, which reads each field's entries in the CLI's
syntax: ``UNIT=NAME``, ``UNIT=INCHES``, ``MY UNIT>ENEMY UNIT``, ``UNIT=+1``. A request
that breaks a bound is refused in one line naming the field (``RequestError``).
"""

from __future__ import annotations

import typing
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..model.common import RulesVersion
from .cells import Conditions

if TYPE_CHECKING:
    from ..library import Library
    from .army import Side
    from .matrix import Matchup
    from .solver import Plan

__all__ = ["WORDS", "MatchupRequest", "PlanRequest", "RequestError", "field_kind"]

#: A list's text, at most (the web API's request bound).
MAX_LIST_BYTES = 256 * 1024
#: Units named in one option, at most (a 3,000-point list has about 30).
MAX_NAMED = 40

_Unit = Annotated[str, Field(min_length=1, max_length=200)]
_Inches = Annotated[float, Field(ge=0, le=200)]
_Roll = Annotated[int, Field(ge=-6, le=6)]


class RequestError(ValueError):
    """An army-against-army request that breaks a bound, in one line naming the field."""


class _Request(BaseModel):
    """Two armies and the table situation (``tactica.plan.Conditions``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    # an empty list is refused when read, in words ("enemy list: no unit names")
    mine: str = Field(max_length=MAX_LIST_BYTES, description="a list's text, "
                      "or unit names NAME[:MODELS][+LEADER] separated by commas")
    enemy: str = Field(max_length=MAX_LIST_BYTES)
    stationary: bool = Field(default=False, description="shooters remained "
                             "stationary")
    half_range: bool = Field(default=False, description="targets within half range")
    cover: bool = Field(default=False, description="targets have the Benefit of Cover")
    distance: float | None = Field(default=None, ge=0, le=200, description="inches "
                                   "from each shooter to its target")
    distances: dict[_Unit, _Inches] = Field(
        default_factory=dict, max_length=MAX_NAMED ** 2, description="{\"UNIT\" or "
        "\"MY UNIT>ENEMY UNIT\": inches}")
    stratagems: dict[_Unit, tuple[_Unit, ...]] = Field(
        default_factory=dict, max_length=MAX_NAMED, description="{\"UNIT\": "
        "[\"RULE\", ...]}: rules for one unit's attacks")
    rules: RulesVersion = Field(default="11th", description="edition of unit names")
    strict: bool = Field(default=False, description="refuse a list that does not "
                         "validate")

    def read(self, library: Library, *, files: bool = False) -> tuple[Side, Side]:
        """Both armies (``tactica.plan.army.read_sides``); ``files``: a list may name a
        file (never for text from afar). Raises ``SideError``."""
        from .army import read_sides

        return read_sides(self.mine, self.enemy, library, rules=self.rules,
                          strict=self.strict, files=files)

    def conditions(self) -> Conditions:
        """The table situation this request states."""
        pairs: dict[tuple[str, str], float] = {}
        units: dict[str, float] = {}
        for key, inches in self.distances.items():
            a, arrow, t = key.partition(">")
            if arrow:
                pairs[(a.strip(), t.strip())] = inches
            else:
                units[key.strip()] = inches
        return Conditions(stationary=self.stationary, half_range=self.half_range,
                          cover=self.cover, stratagems=dict(self.stratagems),
                          distance=self.distance, distances=pairs, unit_distances=units)

    @classmethod
    def from_words(cls, words: Mapping[str, Any]) -> typing.Self:
        """A request from a door's words: each collection field's entries in the CLI's
        syntax (a list of strings, or one string of lines), the rest as they are.
        Raises ``RequestError``."""
        data: dict[str, Any] = {}
        for name, value in words.items():
            info = cls.model_fields.get(name)
            kind = field_kind(info.annotation) if info is not None else "text"
            if kind in ("list", "pairs", "map", "multimap") and not isinstance(value, Mapping):
                lines = value.splitlines() if isinstance(value, str) else list(value)
                data[name] = _read_entries(name, kind, [x for x in lines if x.strip()])
            else:
                data[name] = value
        return cls.build(**data)

    @classmethod
    def build(cls, **data: Any) -> typing.Self:
        """The request, or ``RequestError`` naming the first field it refuses."""
        try:
            return cls(**data)
        except ValidationError as exc:
            error = exc.errors()[0]
            where = ".".join(str(p) for p in error["loc"]) or cls.__name__
            raise RequestError(f"{where}: {error['msg']}") from None


def field_kind(annotation: Any) -> str:
    """How a door asks for a field of this type: "flag", "number", "choice", "text", or
    a collection read one entry a line: "list" (NAME), "pairs" (A>B), "map" (KEY=VALUE),
    "multimap" (KEY=VALUE, repeated keys)."""
    args = [a for a in typing.get_args(annotation) if a is not type(None)]
    origin = typing.get_origin(annotation)
    if annotation is bool:
        return "flag"
    if origin is Literal:
        return "choice"
    if origin is dict:
        return "multimap" if typing.get_origin(args[1]) is tuple else "map"
    if origin is tuple:
        return "pairs" if typing.get_origin(args[0]) is tuple else "list"
    if annotation in (int, float) or (set(args) <= {int, float} and args):
        return "number"
    return "text"


def _read_entries(name: str, kind: str, lines: Iterable[str]) -> Any:
    entries = [str(x).strip() for x in lines]
    if kind == "list":
        return tuple(entries)
    if kind == "pairs":
        out = []
        for text in entries:
            a, sep, t = text.partition(">")
            if not sep or not a.strip() or not t.strip():
                raise RequestError(f"{name} {text!r}: write \"MY UNIT>ENEMY UNIT\"")
            out.append((a.strip(), t.strip()))
        return tuple(out)
    found: dict[str, Any] = {}
    for text in entries:
        key, sep, value = text.rpartition("=")
        if not sep or not key.strip() or not value.strip():
            raise RequestError(f"{name} {text!r}: write KEY=VALUE, e.g. "
                               f"{_EXAMPLES.get(name, 'Intercessor Squad=1')!r}")
        if kind == "multimap":
            found[key.strip()] = (*found.get(key.strip(), ()), value.strip())
        else:
            found[key.strip()] = value.strip()
    return found


#: Each collection field in a door's words (the CLI's syntax, a web box's line): an
#: example entry and what the entries mean.
WORDS: dict[str, tuple[str, str]] = {
    "distances": ("Boyz=18", "inches from a unit to every unit it faces, or between "
                  "two: MY UNIT>ENEMY UNIT=12"),
    "stratagems": ("Dark Reapers=Fire Overwatch", "rules for one unit's attacks"),
    "forbid": ("Intercessor Squad>Boyz", "pairs that cannot attack"),
    "destroy": ("Boyz", "enemy units to destroy first"),
    "charge_modifiers": ("Boyz=+1", "a modifier (-6 to +6) to one of my units' charge "
                         "rolls"),
    "reroll_charges": ("Boyz", "my units re-rolling their charge rolls"),
}
_EXAMPLES = {name: example for name, (example, _) in WORDS.items()}


class MatchupRequest(_Request):
    """Every unit of each army against every unit of the other (``tactica matchup``)."""

    phases: tuple[Literal["shooting", "fight"], ...] = Field(
        default=("shooting", "fight"), min_length=1, max_length=2,
        )
    sides: Literal["mine", "enemy", "both"] = Field(default="both",
                                                    description="whose attacks")
    charge: float | None = Field(default=None, ge=0, le=48, description="fights follow "
                                 "a charge of this many inches")

    def conditions(self) -> Conditions:
        from dataclasses import replace

        return replace(super().conditions(), charge=self.charge)

    def run(self, library: Library, *, files: bool = False) -> Matchup:
        """The matchup (``tactica.plan.matchup``); ``files``: a list may name a file."""
        from .matrix import matchup

        sides: tuple[Literal["mine", "enemy"], ...] = \
            ("mine", "enemy") if self.sides == "both" else (self.sides,)
        return matchup(self.mine, self.enemy,
                       phases=tuple(dict.fromkeys(self.phases)), sides=sides,
                       conditions=self.conditions(), library=library, rules=self.rules,
                       strict=self.strict, files=files)


class PlanRequest(_Request):
    """Each of my units at one enemy unit, the best plan (``tactica plan``)."""

    phase: Literal["shooting", "fight"] = Field(
        default="shooting", description="fight: the charge plan, at the distance")
    forbid: tuple[tuple[_Unit, _Unit], ...] = Field(
        default=(), max_length=MAX_NAMED ** 2, description="[MY UNIT, ENEMY UNIT] "
        "pairs that cannot attack")
    destroy: tuple[_Unit, ...] = Field(default=(), max_length=MAX_NAMED,
                                       description="enemy units to destroy first")
    objective: Literal["points", "threat"] = Field(
        default="points", description="points destroyed, or the enemy's threat removed")
    charge_modifiers: dict[_Unit, _Roll] = Field(
        default_factory=dict, max_length=MAX_NAMED, description="{\"UNIT\": 1}: to "
        "its charge rolls")
    reroll_charges: tuple[_Unit, ...] = Field(
        default=(), max_length=MAX_NAMED, description="units re-rolling charge rolls")

    def conditions(self) -> Conditions:
        from dataclasses import replace

        return replace(super().conditions(), charge_modifiers=dict(self.charge_modifiers),
                       charge_rerolls=self.reroll_charges)

    def run(self, library: Library, *, files: bool = False) -> Plan:
        """The plan (``tactica.plan.plan``); ``files``: a list may name a file."""
        return self.solve(*self.read(library, files=files))

    def solve(self, mine: Side, enemy: Side) -> Plan:
        """The plan of two sides already read (``tactica.plan.solve``)."""
        from .solver import solve

        return solve(mine, enemy, self.conditions(), forbidden=self.forbid,
                     destroy=self.destroy, objective=self.objective, phase=self.phase)
