"""One side of a matchup: an army list (any format ``tactica.army`` reads) or a few unit
names, read, checked and priced, and each of its units ready to attack and to be attacked.

A *unit* here is what acts on the table: a bodyguard unit with the leader and support
units attached to it (24.22: an attached unit is one unit), or a unit on its own. For each
unit the side holds:

* its points: the list's printed points where the list gives them (a unit's line,
  enhancements included), else the priced list's (``tactica.army.pricing``: the
  datasheet's bracket for its size, enhancements added to the model that bears them);
  the attached unit's total (``Side.points_source`` says which source a side's came
  from; ``prices="dataset"`` prices every unit from the dataset);
* its attacker in each phase, built as the list builds it (``tactica.army.attack``: weapons
  from its wargear, the leaders' weapons, the list's detachment rules and enhancements as
  candidate effects), or the reason it cannot attack in that phase; against each target
  it is fielded again with each weapon's profile picked against that target
  (``SideUnit.armed``), as ``tactica calc --list ... --target ...`` picks it;
* its target in each phase, fielded by ``tactica.units`` (the bodyguard's models, then each
  attached leader's as CHARACTER models), and the points of each of its model entries.

A list that breaks a rule (no Warlord chosen yet, over its points) is still answered: a
player asking what their army does to another's needs no tournament-legal list. Each
problem is kept as a warning naming the list's line of the unit concerned
(``Side.warnings``); with ``strict=True`` the first is refused in one line
(``SideError``). A unit that cannot be read at all is refused either way.

>>> u = read_side("Intercessor Squad:10").units[0]
>>> u.label, sum(n for n, _ in u.entry_points), u.points == sum(n * p for n, p in u.entry_points)
('Intercessor Squad', 10, True)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from tactica.cache_registry import lasting_cache

from ..army.attack import ListAttacker, list_attacker, unit_abilities
from ..army.formats import RosterParseError, UnsupportedFormatError, parse_roster
from ..army.pricing import price_roster
from ..army.roster import Roster, RosterUnit
from ..army.validation import validate
from ..combat.contract.scenario import Target
from ..errors import one_line, quote
from ..library import Library, load_library
from ..model.common import RulesVersion
from ..model.datasheet import Datasheet
from ..names import UnknownNameError, name_key, suggest
from ..textfile import read_text_file
from ..units import UnitError, UnitRef
from ..units.defences import Held
from ..units.firing import Aim
from ..units.loadout import WargearError, check_size
from ..units.resolve import aim_of, resolve_attacker, resolve_target

__all__ = ["Armed", "Phase", "Prices", "Side", "SideError", "SideUnit", "UnknownUnitError",
           "read_side", "read_sides", "units_hint"]

Phase = Literal["shooting", "fight"]
#: Where a unit's points come from: the list's printed points where it gives them, or
#: the dataset's for every unit.
Prices = Literal["list", "dataset"]
#: A target's defences that wait for the attacker: each ability with its parts applied
#: when the target was fielded (``units.defences.TargetFielding.pending``)
Pending = tuple[tuple[Held, tuple[str, ...]], ...]
PHASES: tuple[Phase, ...] = ("shooting", "fight")


class SideError(ValueError):
    """A list or a unit name that cannot be read or breaks a rule, in one line."""


@dataclass(frozen=True)
class Armed:
    """A unit's attack in one phase: the list's attacker and the named effects of its and
    its leaders' abilities (Cult Demagogue), checked against each target in turn."""

    built: ListAttacker
    abilities: tuple[str, ...]
    #: the unit's datasheet and its leaders' (their own abilities: ``units.abilities``)
    sheets: tuple[Datasheet, ...] = ()


@dataclass(frozen=True)
class _Fielding:
    """What fielding a unit of a side reads: its roster, the library and whether the side
    was named unit by unit (no list: the datasheets' default loadouts)."""

    roster: Roster
    lib: Library
    named: bool
    ref: UnitRef


@dataclass
class SideUnit:
    """One unit of a side (see the module text). ``entry_points``: (models, points per
    model) of the target's model entries, in the order the target lists them. ``attack``
    is its attacker in each phase with the profiles judged against the rule set's default
    target (whether it can attack at all); ``armed`` fields it against a given target."""

    uid: str
    label: str
    body: RosterUnit
    leaders: tuple[RosterUnit, ...]
    points: int
    entry_points: tuple[tuple[int, float], ...]
    attack: dict[str, Armed | str] = field(default_factory=dict)
    target: dict[str, Target | str] = field(default_factory=dict)
    #: the target's defences that wait for the attacker (``units.defences``: Ramshackle
    #: but Rugged), applied to each attack on it (``units.abilities``)
    pending: dict[str, Pending] = field(default_factory=dict)
    fielding: _Fielding | None = None
    #: members (the bodyguard, then each leader) whose points are the list's printed
    #: points; the others' are the dataset's
    printed: int = 0
    #: ``armed``'s answers, keyed by value: the phase and what the profiles are judged
    #: against (a frozen ``Aim``)
    _armed: dict[tuple[Phase, Aim], Armed | str] = field(default_factory=dict, repr=False)

    @property
    def names(self) -> tuple[str, ...]:
        return (self.body.name, *(u.name for u in self.leaders))

    def armed(self, phase: Phase, target: Target, distance: float | None = None
              ) -> Armed | str:
        """This unit attacking ``target`` ``distance`` inches away in ``phase``: each
        weapon with several profiles uses the one picked against that target
        (``tactica.units.aim_of``), as ``tactica calc`` picks it; or why it cannot
        attack."""
        default = self.attack.get(phase)
        if self.fielding is None or not isinstance(default, Armed):
            return default or "cannot attack"
        key = (phase, aim_of(target, distance))
        if key not in self._armed:
            self._armed[key] = _armed(self, self.fielding, phase, key[1])
        return self._armed[key]


class UnknownUnitError(UnknownNameError):
    """A unit an option names (``where``: ``destroy``, ``forbid``, ``distances``, ...)
    that its side does not have: the option first, then close names, else the side's
    units (what the option may name)."""

    def __init__(self, side: str, label: str, suggestions: Iterable[str],
                 units: Iterable[str], where: str = "") -> None:
        super().__init__(f"unit of {side}", label, suggestions)
        text = str(self) + ("" if self.suggestions else units_hint("its", units))
        self.args = (f"{where}: {text}" if where else text,)


def units_hint(whose: str, units: Iterable[str]) -> str:
    """"; its units: A, B, ..." (the first 12, in order): what an option may name, said
    where no name is close to the one given."""
    named = list(dict.fromkeys(units))
    return f"; {whose} units: {', '.join(named[:12])}" + (", ..." if len(named) > 12 else "")


@dataclass
class Side:
    """A side: its roster, where it was read from, and its units."""

    name: str
    roster: Roster
    units: list[SideUnit]
    source: str
    #: the list's rule problems, each naming its line ("list.txt:4: the list does not
    #: validate: no Warlord chosen"): answered all the same unless read strictly
    warnings: tuple[str, ...] = ()

    @property
    def rules(self) -> RulesVersion:
        return self.roster.rules

    def unit(self, label: str, where: str = "") -> SideUnit:
        """The unit of this label (or of its body's name, when only one has it);
        ``UnknownUnitError`` naming ``where`` (the option that named it) otherwise."""
        for u in self.units:
            if u.label == label:
                return u
        key = name_key(label)
        found = [u for u in self.units if key in (name_key(u.body.name), name_key(u.label))]
        if len(found) == 1:
            return found[0]
        labels = [u.label for u in self.units]
        raise UnknownUnitError(self.name, label, suggest(label, labels) if not found
                               else [u.label for u in found], labels, where)

    @property
    def points(self) -> int:
        return sum(u.points for u in self.units)

    @property
    def points_source(self) -> str:
        """Where this side's points came from, in a few words (module text)."""
        members = sum(1 + len(u.leaders) for u in self.units)
        printed = sum(u.printed for u in self.units)
        if printed == members:
            return "the list's printed points"
        if printed == 0:
            return "the dataset's points"
        return (f"the list's printed points for {printed} of {members} units, the "
                "dataset's for the others")


# --- reading ------------------------------------------------------------------------------


def _is_list(text: str) -> bool:
    """An army list's text (several lines, or JSON), not a few unit names."""
    stripped = text.strip()
    return "\n" in stripped or stripped.startswith(("{", "["))


def _is_file(path: Path) -> bool:
    """Whether ``path`` names a file; False for a name no file can have (too long, a NUL)."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False


def _is_dir(path: Path) -> bool:
    try:
        return path.is_dir()
    except (OSError, ValueError):
        return False


def _names_roster(text: str, lib: Library, rules: RulesVersion) -> Roster:
    """``NAME[:MODELS][+LEADER[+LEADER]]``, separated by commas or semicolons, as a
    roster: each unit at the size given (default: the datasheet's minimum)."""
    units: list[RosterUnit] = []
    for i, part in enumerate(p.strip() for p in text.replace(";", ",").split(",")):
        if not part:
            continue
        body, *leaders = (s.strip() for s in part.split("+"))
        name, _, size = body.partition(":")
        try:
            sheet = lib.datasheet(name.strip(), rules)
        except UnknownNameError as exc:
            raise SideError(f"unit {i + 1} ({quote(part)}): {exc}") from None
        if size and not size.strip().isdigit():
            raise SideError(f"unit {i + 1} ({quote(part)}): write NAME:MODELS, e.g. "
                            f"\"{sheet.name}:10\"")
        try:  # every door's size check, in its words (``units.check_size``)
            models = check_size(sheet, int(size) if size else None) \
                if sheet.composition else int(size or 1)
        except WargearError as exc:
            raise SideError(f"unit {i + 1} ({quote(part)}): {exc}") from None
        bid = f"u{len(units) + 1}"
        try:
            units.append(RosterUnit(id=bid, name=sheet.name, models=models))
        except ValueError as exc:  # 0 models, a million
            raise SideError(f"unit {i + 1} ({quote(part)}): {one_line(exc)}") from None
        for leader in leaders:
            try:
                lsheet = lib.datasheet(leader, rules)
            except UnknownNameError as exc:
                raise SideError(f"unit {i + 1} ({quote(part)}): {exc}") from None
            units.append(RosterUnit(id=f"u{len(units) + 1}", name=lsheet.name,
                                    attached_to=bid))
    if not units:
        raise SideError("no unit names (write unit names separated by commas, or give a "
                        "list file)")
    return Roster(name="Units", rules=rules, units=tuple(units))


def _line_of(text: str, unit: RosterUnit | None, roster: Roster) -> int | None:
    """The list's line that names ``unit`` (the n-th line naming it for the n-th unit of
    that name), for refusals."""
    if unit is None:
        return None
    nth = [u.id for u in roster.units if u.name == unit.name].index(unit.id)
    hits = [i for i, line in enumerate(text.splitlines(), 1)
            if unit.name.casefold() in line.casefold()]
    return hits[min(nth, len(hits) - 1)] if hits else None


def _problems(roster: Roster, text: str, where: str, lib: Library) -> list[str]:
    """The list's rule errors (``army.validation``), each naming the list's line of the
    unit concerned where there is one."""
    out = []
    for v in validate(roster, lib).violations:
        if v.severity != "error":
            continue
        unit = next((u for u in roster.units if u.id == v.unit_id), None)
        line = _line_of(text, unit, roster)
        place = f"{where}:{line}" if line is not None else where
        out.append(f"{place}: the list does not validate: {v.message}")
    return out


def read_side(source: str | Path, lib: Library | None = None, *, name: str | None = None,
              rules: RulesVersion = "11th", strict: bool = False, files: bool = True,
              prices: Prices = "list") -> Side:
    """A side from a list file (a ``Path``, or a string naming a file that exists), a
    list's text, or unit names (``"Intercessor Squad:10+Lieutenant, Hellblaster Squad"``).
    ``rules`` is for unit names (a list states its own). With ``files=False`` a string is
    never read as a file's name (a door whose text comes from afar: the web, an
    assistant). A list that does not validate is read with its problems in ``warnings``
    (``strict``: refused). ``prices``: "list" (a unit's printed points where the list
    gives them, the dataset's otherwise) or "dataset". Raises ``SideError``."""
    lib = lib or load_library()
    side = name or "list"
    try:
        return _read_side(source, lib, name, rules, strict, files, prices)
    except SideError as exc:  # each refusal names the side, then its file or its text
        message = str(exc)
        if isinstance(source, Path) and not message.startswith(str(source)):
            message = f"{source}: {message}"
        raise SideError(message if message.startswith(side) else f"{side}: {message}"
                        ) from None


def read_sides(mine: str | Path | Side, enemy: str | Path | Side, lib: Library, *,
               rules: RulesVersion = "11th", strict: bool = False, files: bool = True,
               prices: Prices = "list") -> tuple[Side, Side]:
    """My side and the enemy's (``read_side``, named "my list" and "enemy list"), each
    kept as it is when already read."""
    a = mine if isinstance(mine, Side) else read_side(
        mine, lib, name="my list", rules=rules, strict=strict, files=files, prices=prices)
    b = enemy if isinstance(enemy, Side) else read_side(
        enemy, lib, name="enemy list", rules=rules, strict=strict, files=files,
        prices=prices)
    return a, b


def _read_side(source: str | Path, lib: Library, name: str | None, rules: RulesVersion,
               strict: bool, files: bool, prices: Prices = "list") -> Side:
    path = Path(source) if isinstance(source, Path) else None
    if path is None and files and isinstance(source, str) and not _is_list(source) \
            and len(source) < 4096:
        candidate = Path(source)
        path = candidate if _is_file(candidate) else None
    where = str(path) if path is not None else (name or "list")
    if path is not None:
        try:  # the encoding found as for any list file (``textfile``)
            text, _ = read_text_file(path)
        except ValueError as exc:
            raise SideError(str(exc)) from None
    else:
        text = str(source)
    named = path is None and not _is_list(text)
    problems: list[str] = []
    if named:
        if text.strip().lower().endswith((".txt", ".json", ".ros", ".rosz")) or "/" in text:
            if not files:
                raise SideError(f"{where}: {text.strip()[:80]!r} reads as a file name; give "
                                "the list's text, or unit names separated by commas")
            if _is_dir(Path(text.strip())):
                raise SideError(f"{text.strip()}: is a folder, not a file (give the list "
                                "file inside it)")
            raise SideError(f"{text.strip()[:200]}: no such file (or write unit names "
                            "separated by commas)")
        roster = _names_roster(text, lib, rules)
    else:
        try:
            roster = parse_roster(text, file=where, library=lib)
        except (RosterParseError, UnsupportedFormatError) as exc:
            message = str(exc)
            raise SideError(message if message.startswith(where) else f"{where}: {message}"
                            ) from None
        problems = _problems(roster, text, where, lib)
        if strict and problems:
            more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
            raise SideError(problems[0] + more)
    return Side(name=name or roster.name, roster=roster, units=_units(roster, lib, named, prices),
                source=where, warnings=tuple(problems))


# --- the units ------------------------------------------------------------------------------


def _labels(bodies: list[RosterUnit]) -> list[str]:
    counts: dict[str, int] = {}
    total = {u.name: sum(1 for b in bodies if b.name == u.name) for u in bodies}
    out = []
    for u in bodies:
        counts[u.name] = counts.get(u.name, 0) + 1
        out.append(u.name if total[u.name] == 1 else f"{u.name} #{counts[u.name]}")
    return out


def _units(roster: Roster, lib: Library, named: bool, source: Prices = "list"
           ) -> list[SideUnit]:
    prices = price_roster(roster, lib)
    bodies = [u for u in roster.units if u.attached_to is None]
    out = []
    for body, label in zip(bodies, _labels(bodies), strict=True):
        leaders = roster.attached(body.id)
        members = (body, *leaders)
        # a printed 0 is how a format writes an unknown price (``army.formats``)
        printed = [u.points if source == "list" and u.points else None for u in members]
        totals = [p if p is not None else prices.line(u.id).total
                  for u, p in zip(members, printed, strict=True)]
        if leaders:
            label += " + " + " + ".join(u.name for u in leaders)
        unit = SideUnit(uid=body.id, label=label, body=body, leaders=leaders,
                        points=sum(totals), entry_points=(),
                        printed=sum(p is not None for p in printed))
        _arm(unit, roster, lib, named)
        unit.entry_points = _entry_points(unit, members, totals)
        out.append(unit)
    return out


def _fielded(ref: UnitRef, unit: SideUnit, lib: Library, rules: RulesVersion,
             phase: Phase, aim: Aim | None = None) -> ListAttacker:
    """A unit named without a list: the datasheet's default loadout, fielded by
    ``tactica.units`` (the profile of a weapon with several judged against ``aim``; by
    default a MEQ), no detachment."""
    attacker, side = resolve_attacker(ref, lib, rules, phase, aim)
    return ListAttacker(attacker=attacker, sheet=side.sheet, unit=unit.body,
                        led_by=tuple(s.name for s, _ in side.loadouts[1:]), candidates=(),
                        notes=tuple(side.notes), army_faction=None, detachment=None)


def _armed(unit: SideUnit, f: _Fielding, phase: Phase, aim: Aim | None) -> Armed | str:
    """``unit`` as an attacker in ``phase``, its profiles judged against ``aim`` (the rule
    set's default target when ``None``), or why it cannot attack."""
    lib, rules = f.lib, f.roster.rules
    try:
        built = (_fielded(f.ref, unit, lib, rules, phase, aim) if f.named
                 else list_attacker(f.roster, unit.uid, lib, phase, aim))
        own, sheets, missing = unit_abilities(built.sheet, built.led_by, lib, rules)
        if missing:
            return missing[0]
        return Armed(built, tuple(own), tuple(sheets))
    except (ValueError, UnknownNameError) as exc:
        return _reason(exc)


def _arm(unit: SideUnit, roster: Roster, lib: Library, named: bool) -> None:
    support = [u.name for u in unit.leaders if u.attach_role == "support"]
    ref = UnitRef(unit=unit.body.name, models=unit.body.models,
                  led_by=tuple(u.name for u in unit.leaders if u.attach_role != "support"),
                  support=support[0] if len(support) == 1 else None)
    if len(support) > 1:  # 24.22 allows one: the check names them all
        ref = ref.model_copy(update={"led_by": (*ref.led_by, *support)})
    unit.fielding = _Fielding(roster, lib, named, ref)
    for phase in PHASES:
        unit.attack[phase] = _armed(unit, unit.fielding, phase, None)
        try:
            unit.target[phase], unit.pending[phase] = _target(ref, lib, roster.rules, phase)
        except (UnitError, UnknownNameError) as exc:
            unit.target[phase] = _reason(exc)


@lasting_cache(maxsize=512, kind="data")
def _target_cached(ref: str, lib: Library, rules: RulesVersion, phase: Phase
                   ) -> tuple[Target, Pending]:
    found, side = resolve_target(UnitRef.model_validate_json(ref), lib, rules, phase)
    return found, tuple(side.pending)


def _target(ref: UnitRef, lib: Library, rules: RulesVersion, phase: Phase
            ) -> tuple[Target, Pending]:
    return _target_cached(ref.model_dump_json(), lib, rules, phase)


def _reason(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return text.removeprefix("target: ").removeprefix("attacker: ")


def _entry_points(unit: SideUnit, members: tuple[RosterUnit, ...],
                  totals: list[int]) -> tuple[tuple[int, float], ...]:
    """Points per model of the target's entries: the bodyguard's models first, then each
    leader's (the order ``tactica.units`` fields them in); a unit's points are shared by
    its models. When the fielded models do not match the list's, the attached unit's
    points are shared by all its models."""
    target = unit.target.get("shooting")
    if not isinstance(target, Target):
        target = unit.target.get("fight")
    if not isinstance(target, Target):
        return ()
    counts = [g.count for g in target.models]
    out: list[tuple[int, float]] = []
    i = 0
    for member, total in zip(members, totals, strict=True):
        need, ppm = member.models, total / member.models
        while need > 0 and i < len(counts) and counts[i] <= need:
            out.append((counts[i], ppm))
            need -= counts[i]
            i += 1
        if need:
            break
    if i != len(counts) or len(out) != len(counts):
        models = sum(counts)
        return tuple((c, unit.points / models) for c in counts)
    return tuple(out)
