"""A unit as fielded: a datasheet, a model count and the wargear chosen -> its models and
what each carries, checked against the datasheet's constraints.

Without choices a unit is its datasheet's default loadout at its minimum size. Models
are seated as wh40kdc seats them (``_allocate_models``): the champion rows (``leader_model``)
at their minimum, the other rows at their minimum, the rest to the rows with most room.

A choice names what the model takes: ``"Astartes grenade launcher"``, or several items of
one bundle joined by ``+`` (``"Power weapon + Anointed pistol"``), with ``:N`` for how
many models take it (default 1). Names match case-, accent- and dash-insensitively.

>>> from tactica.model import Datasheet, Source, ModelType, WargearOption
>>> sheet = Datasheet(name="Squad", rules="11th", source=Source(file="x"), model_types=(
...     ModelType(name="Trooper", min=5, max=10, profile="Trooper", equipment=("Rifle",)),),
...     wargear=(WargearOption(replaces=("Rifle",), choices=(("Flamer",),), per_models=5),))
>>> [(m.count, m.equipment) for m in field_unit(sheet, 10, ["Flamer:2"]).models]
[(8, ('Rifle',)), (2, ('Flamer',))]
>>> field_unit(sheet, 5, ["Flamer:2"])
Traceback (most recent call last):
...
tactica.units.loadout.WargearError: Squad: at most 1 Flamer in 5 models
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from pydantic import Field

from ..model.abilities import RapidFire
from ..model.common import Frozen
from ..model.datasheet import Datasheet, Weapon
from ..model.wargear import ModelType, WargearOption, equipment_text, loadout_text
from ..names import name_key

__all__ = ["FieldedModels", "Loadout", "WargearError", "field_unit", "loadout_lines",
           "model_types"]


class WargearError(ValueError):
    """A unit that cannot be fielded as asked; the message names the unit and the rule."""


class FieldedModels(Frozen):
    """``count`` identical models of one type with what each carries."""

    model: str
    profile: str
    count: int = Field(ge=1)
    equipment: tuple[str, ...]
    champion: bool = False


class Loadout(Frozen):
    """The unit as fielded: its model groups, and which choices were the datasheet's."""

    unit: str
    models: tuple[FieldedModels, ...]
    chosen: tuple[str, ...] = ()
    defaults: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def size(self) -> int:
        return sum(m.count for m in self.models)


def _plural(name: str, n: int) -> str:
    return name if n == 1 or name.endswith("s") else f"{name}s"


def _carried_only_by_option(sheet: Datasheet) -> set[str]:
    """Weapons that appear only on the added side of an option (wh40kdc
    ``_base_weapon_ids``: such a weapon is optional, every other weapon is carried)."""
    added = {name_key(i) for o in sheet.wargear for c in o.choices for i in c}
    replaced = {name_key(i) for o in sheet.wargear for i in o.replaces}
    return added - replaced


def _fallback_equipment(sheet: Datasheet) -> tuple[tuple[str, ...], str | None]:
    """What every model carries when the data names no equipment. A one-model unit, or a
    unit with wargear options, carries every weapon that is not only an option's; a
    several-model unit without options is guessed (its troops' gun, its first pistol, its
    first melee weapon and its Extra Attacks weapons), and the guess is said."""
    optional = _carried_only_by_option(sheet)
    names = list(dict.fromkeys(w.name for w in sheet.weapons if name_key(w.name) not in optional))
    size = sum(c.max for c in sheet.composition) or 1
    if size <= 1 or sheet.wargear:
        # "This model's 2 twin heavy flamers can be replaced": it carries two
        copies = {name_key(i): n for o in sheet.wargear
                  for i, n in Counter(o.replaces).items()}
        return tuple(n for n in names for _ in range(copies.get(name_key(n), 1))), None
    ranged = [w for w in sheet.weapons if not w.is_melee]
    melee = [w for w in sheet.weapons if w.is_melee]
    pistols = [w for w in ranged if _pistol(w)]
    picked = [w for w in (plainest(sheet.name, ranged), *pistols[:1]) if w is not None]
    extra = [w for w in melee if w.profiles[0].has("Extra Attacks")]
    picked += [w for w in melee if w not in extra][:1] + extra
    guess = tuple(dict.fromkeys(w.name for w in picked))
    return guess, (f"{sheet.name}: the data lists no wargear; every model is taken to carry "
                   f"{equipment_text(guess) or 'nothing'}")


def _pistol(w: Weapon) -> bool:
    return any(p.has("Pistol") or p.has("Close-quarters") for p in w.profiles)


def plainest(unit: str, ranged: Sequence[Weapon]) -> Weapon | None:
    """The gun most models of a unit carry when the data lists no wargear: one named in
    the unit's name ("Acolyte Hybrids with Hand Flamers"), else the plainest basic gun
    (one profile, no abilities but Rapid Fire or Assault, fewest attacks, lowest S), else
    the first that is neither One Shot nor a Pistol."""
    named = [w for w in ranged if w.name.casefold().rstrip("s") in unit.casefold()
             or w.name.casefold() + "s" in unit.casefold()]
    main = [w for w in ranged
            if not w.profiles[0].has("One Shot") and not w.profiles[0].has("Pistol")
            and not w.profiles[0].has("Close-quarters")]
    basic = [w for w in main if len(w.profiles) == 1 and all(
        isinstance(a, RapidFire) or str(a) == "Assault" for a in w.profiles[0].abilities)]
    basic.sort(key=lambda w: (w.profiles[0].A.mean, w.profiles[0].S))
    found = named or basic or main
    return found[0] if found else None


def model_types(sheet: Datasheet) -> tuple[tuple[ModelType, ...], tuple[str, ...]]:
    """The datasheet's model types, derived from its composition when the data has none
    (each composition line one type, carrying ``_fallback_equipment``), with notes."""
    if sheet.model_types:
        return sheet.model_types, ()
    equipment, note = _fallback_equipment(sheet)
    lines = sheet.composition
    profiles = [m.name for m in sheet.models]
    if not lines:
        name = profiles[0] if profiles else sheet.name
        return (ModelType(name=name, min=1, max=1, profile=name, equipment=equipment),), (
            (note,) if note else ())
    types = tuple(
        ModelType(name=c.model, min=c.min, max=c.max,
                  profile=_profile_name(c.model, profiles), equipment=equipment)
        for c in lines)
    return types, ((note,) if note else ())


def loadout_lines(sheet: Datasheet) -> list[str]:
    """The datasheet's equipment and wargear options in its own words ("Every model is
    equipped with: ..."), what ``tactica sheet`` prints; a derived loadout says so."""
    types, notes = model_types(sheet)
    if not sheet.model_types and not sheet.weapons:
        return []
    lines = loadout_text(types, sheet.wargear, sheet.wargear_budgets)
    if not sheet.model_types:
        lines.append("(equipment derived: the data lists the options only)" if not notes
                     else f"({notes[0].split(': ', 1)[1]})")
    return lines


def _profile_name(model: str, profiles: list[str]) -> str:
    key = name_key(model).rstrip("s")
    for p in profiles:
        if name_key(p).rstrip("s") == key:
            return p
    return profiles[0] if len(profiles) == 1 else model


def _seat(types: tuple[ModelType, ...], n: int) -> list[int]:
    """How many models of each type a unit of ``n`` fields (wh40kdc ``_allocate_models``)."""
    counts = [0] * len(types)
    left = n
    for i, t in enumerate(types):
        if t.leader_model:
            counts[i] = min(t.min, left)
            left -= counts[i]
    bulk = [i for i, t in enumerate(types) if not t.leader_model] or list(range(len(types)))
    for i in bulk:
        add = min(max(0, types[i].min - counts[i]), left)
        counts[i] += add
        left -= add
    for i in sorted(bulk, key=lambda i: -types[i].max):
        add = min(left, max(0, types[i].max - counts[i]))
        counts[i] += add
        left -= add
    return counts


@dataclass(slots=True)
class _Group:
    kind: ModelType
    count: int
    equipment: list[str]
    taken: set[int] = field(default_factory=set)


@dataclass(frozen=True, slots=True)
class _Choice:
    option: int
    bundle: int
    times: int
    text: str


def _find(sheet: Datasheet, spec: str) -> _Choice:
    text, _, count = spec.rpartition(":") if ":" in spec else (spec, "", "")
    if count and not count.strip().isdigit():
        raise WargearError(f"{sheet.name}: wargear {spec!r}: the count after ':' must be a "
                           "whole number")
    times = int(count) if count.strip() else 1
    wanted = Counter(name_key(p) for p in text.split("+") if p.strip())
    if not wanted:
        raise WargearError(f"{sheet.name}: wargear {spec!r} names nothing")
    best: tuple[int, int, int, int] | None = None
    for oi, option in enumerate(sheet.wargear):
        for bi, bundle in enumerate(option.choices):
            keys = Counter(name_key(i) for i in bundle)
            if not all(k in keys for k in wanted):
                continue
            # exact bundle first, then the smallest one, then the first option
            rank = (0 if set(keys) == set(wanted) else 1, len(bundle), oi, bi)
            if best is None or rank < best:
                best = rank
    if best is None:
        offered = sorted({i for o in sheet.wargear for c in o.choices for i in c})
        raise WargearError(
            f"{sheet.name}: no wargear option gives {text.strip()!r}"
            + (f"; the options give: {', '.join(offered)}" if offered else
               "; it has no wargear options"))
    return _Choice(option=best[2], bundle=best[3], times=times, text=text.strip())


def _default_size(types: tuple[ModelType, ...]) -> int:
    return max(1, sum(t.min for t in types))


def field_unit(sheet: Datasheet, models: int | None = None,
               wargear: list[str] | tuple[str, ...] = ()) -> Loadout:
    """The unit of ``sheet`` with ``models`` models (default: its minimum) and the
    ``wargear`` choices applied. Raises ``WargearError`` naming the broken constraint."""
    types, notes = model_types(sheet)
    low, high = max(1, sum(t.min for t in types)), max(1, sum(t.max for t in types))
    n = _default_size(types) if models is None else models
    if not low <= n <= high:
        span = f"{low}" if low == high else f"{low}-{high}"
        raise WargearError(f"{sheet.name} has {span} models; {n} asked for")
    groups = [_Group(t, c, list(t.equipment)) for t, c in zip(types, _seat(types, n), strict=True)
              if c > 0]
    choices = [_find(sheet, spec) for spec in wargear]
    taken: Counter[int] = Counter()
    for choice in choices:
        taken[choice.option] += choice.times
        _apply(sheet, groups, choice, n, taken[choice.option])
    _check_budgets(sheet, groups, n)
    defaults = [] if wargear else ["wargear: the datasheet's default loadout"]
    if models is None:
        defaults.append(f"models: the minimum, {n}")
    merged: dict[tuple[str, tuple[str, ...]], FieldedModels] = {}
    for g in groups:
        key = (g.kind.name, tuple(g.equipment))
        old = merged.get(key)
        merged[key] = FieldedModels(model=g.kind.name, profile=g.kind.profile,
                                    count=g.count + (old.count if old else 0),
                                    equipment=tuple(g.equipment), champion=g.kind.leader_model)
    return Loadout(unit=sheet.name, models=tuple(merged.values()),
                   chosen=tuple(wargear), defaults=tuple(defaults), notes=notes)


def _eligible(option: WargearOption, oi: int, g: _Group) -> bool:
    if option.model is not None and name_key(option.model) != name_key(g.kind.name):
        return False
    if oi in g.taken:
        return False
    have = Counter(name_key(i) for i in g.equipment)
    need = Counter(name_key(i) for i in option.replaces)
    return all(have[k] >= v for k, v in need.items())


def _apply(sheet: Datasheet, groups: list[_Group], choice: _Choice, n: int,
           total: int) -> None:
    option = sheet.wargear[choice.option]
    bundle = option.choices[choice.bundle]
    scope = sum(g.count for g in groups if option.model is None
                or name_key(option.model) == name_key(g.kind.name))
    cap = option.cap(n, scope)
    if total > cap:
        what = (f"{cap} {_plural(bundle[0], cap)}" if len(set(bundle)) == 1
                else f"{cap} models with {equipment_text(bundle)}")
        who = f" on the {option.model}" if option.model and scope == 1 else ""
        raise WargearError(f"{sheet.name}: at most {what}{who} in {n} models")
    # unscoped options go to the rank and file first, the champion last
    order = sorted((g for g in groups if _eligible(option, choice.option, g)),
                   key=lambda g: g.kind.leader_model)
    left = choice.times
    for g in order:
        if left == 0:
            break
        take = min(left, g.count)
        equipment = list(g.equipment)
        for item in option.replaces:
            equipment.remove(next(e for e in equipment if name_key(e) == name_key(item)))
        new = _Group(g.kind, take, equipment + list(bundle), {*g.taken, choice.option})
        g.count -= take
        groups.insert(groups.index(g) + 1, new)
        left -= take
    groups[:] = [g for g in groups if g.count > 0]
    if left:
        need = f" carrying {equipment_text(option.replaces)}" if option.replaces else ""
        raise WargearError(
            f"{sheet.name}: {choice.times} models cannot take {choice.text}; only "
            f"{choice.times - left} {_plural(option.model or 'model', choice.times - left)}"
            f"{need} can")


def _check_budgets(sheet: Datasheet, groups: list[_Group], n: int) -> None:
    held: Counter[str] = Counter()
    for g in groups:
        for item in g.equipment:
            held[name_key(item)] += g.count
    for budget in sheet.wargear_budgets:
        used = sum(held[name_key(i)] for i in budget.items)
        cap = budget.cap(n)
        if used > cap:
            what = (_plural(budget.items[0], cap) if len(budget.items) == 1
                    else f"of {', '.join(budget.items)} between them")
            raise WargearError(f"{sheet.name}: at most {cap} {what} in {n} models")
        dup = budget.duplicate_cap(n)
        if dup is not None:
            for item in budget.items:
                if held[name_key(item)] > dup:
                    raise WargearError(
                        f"{sheet.name}: at most {dup} {_plural(item, dup)} in {n} models")
