"""A unit as fielded: a datasheet, a model count and the wargear chosen -> its models and
what each carries, checked against the datasheet's constraints.

Without choices a unit is its datasheet's default loadout at its minimum size. Models
are seated as wh40kdc seats them (``_allocate_models``): the champion rows (``leader_model``)
at their minimum, the other rows at their minimum, the rest to the rows with most room.

A choice names what the model takes: ``"Astartes grenade launcher"``, or several items of
one bundle joined by ``+`` (``"Power weapon + Anointed pistol"``), with ``:N`` for how
many models take it (default 1) and ``@MODEL`` for which model type
(``"Chainfist:2@Chaos Terminator"``); without ``@`` an item that several model types are
offered goes to the rank and file first, each option up to its limit, the champion last.
Names match case-, accent- and dash-insensitively.

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

from ..cache_registry import lasting_cache
from ..model.abilities import RapidFire
from ..model.common import Frozen
from ..model.datasheet import Datasheet, Weapon
from ..model.wargear import ModelType, WargearOption, equipment_text, loadout_text
from ..names import name_key

__all__ = ["FieldedModels", "Loadout", "WargearError", "check_size", "field_unit",
           "loadout_lines", "model_types", "sizes", "tier_types"]


class WargearError(ValueError):
    """A unit that cannot be fielded as asked; the message names the unit and the rule.
    ``field`` is the unit reference's field at fault: ``"models"`` (a size its datasheet
    does not allow) or ``"wargear"``."""

    def __init__(self, message: str, field: str = "wargear") -> None:
        super().__init__(message)
        self.field = field


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
    """A wargear spec: the (option, bundle) pairs that give it, in the order they are
    filled (rank and file first, the champion last), how many models and which type."""

    offers: tuple[tuple[int, int], ...]
    times: int
    text: str
    model: str | None = None


def _split(sheet: Datasheet, spec: str) -> tuple[str, int, str | None]:
    """``"Chainfist:2@Chaos Terminator"`` (or ``"Chainfist@Chaos Terminator:2"``) ->
    (the bundle's text, how many models, the model type or ``None``)."""
    text, _, model = spec.partition("@")
    count = ""
    for part in (model, text):
        head, sep, tail = part.rpartition(":")
        digits = tail.strip()
        if sep and digits.isascii() and digits.isdigit() and int(digits) > 0:
            count = tail
            if part is model:
                model = head
            else:
                text = head
            break
        if sep and part is text:
            raise WargearError(f"{sheet.name}: wargear {spec!r}: the count after ':' is "
                               "a whole number of models, 1 or more")
    return text.strip(), int(count) if count.strip() else 1, model.strip() or None


def _find(sheet: Datasheet, spec: str, types: tuple[ModelType, ...] = ()) -> _Choice:
    text, times, model = _split(sheet, spec)
    wanted = Counter(name_key(p) for p in text.split("+") if p.strip())
    if not wanted:
        raise WargearError(f"{sheet.name}: wargear {spec!r} names nothing")
    if model is not None and all(name_key(t.name) != name_key(model) for t in types):
        raise WargearError(f"{sheet.name}: wargear {spec!r}: no model type {model!r}; "
                           f"its models are: {', '.join(t.name for t in types)}")
    champions = {name_key(t.name) for t in types if t.leader_model}
    found: list[tuple[tuple[int, int], int, int]] = []
    for oi, option in enumerate(sheet.wargear):
        if model is not None and option.model is not None and \
                name_key(option.model) != name_key(model):
            continue
        for bi, bundle in enumerate(option.choices):
            keys = Counter(name_key(i) for i in bundle)
            if all(k in keys for k in wanted):
                # exact bundle first, then the smallest one
                found.append(((0 if set(keys) == set(wanted) else 1, len(bundle)), oi, bi))
    if not found:
        offered = sorted({i for o in sheet.wargear for c in o.choices for i in c})
        who = f" to {model}" if model else ""
        raise WargearError(
            f"{sheet.name}: no wargear option{who} gives {text!r}"
            + (f"; the options give: {', '.join(offered)}" if offered else
               "; it has no wargear options"))
    best = min(rank for rank, _, _ in found)
    offers = sorted(((oi, bi) for rank, oi, bi in found if rank == best),
                    key=lambda o: (name_key(sheet.wargear[o[0]].model or "") in champions,
                                   o[0]))
    # one bundle per option: the first that gives it
    firsts = tuple({oi: (oi, bi) for oi, bi in reversed(offers)}.values())[::-1]
    return _Choice(offers=tuple(sorted(firsts, key=offers.index)), times=times, text=text,
                   model=model)


def tier_types(sheet: Datasheet) -> list[tuple[ModelType, ...]]:
    """The model types of each buildable size of the datasheet (its composition tiers;
    a type a tier does not name is 0-0 in it); one entry when the data has no tiers."""
    types, _ = model_types(sheet)
    if not sheet.tiers:
        return [types]
    out = []
    for tier in sheet.tiers:
        counts = {name_key(line.model): line for line in tier}
        out.append(tuple(
            t.model_copy(update={"min": line.min, "max": line.max})
            if (line := counts.get(name_key(t.name))) is not None
            else t.model_copy(update={"min": 0, "max": 0}) for t in types))
    return out


def sizes(sheet: Datasheet) -> tuple[tuple[int, int], ...]:
    """The unit's legal model counts as ranges, merged (Boyz: 10 or 11-20 -> 10-20)."""
    spans = sorted({(max(1, sum(t.min for t in ts)), max(1, sum(t.max for t in ts)))
                    for ts in tier_types(sheet)})
    merged: list[tuple[int, int]] = []
    for low, high in spans:
        if merged and low <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(merged[-1][1], high))
        else:
            merged.append((low, high))
    return tuple(merged)


def _sizes_text(spans: tuple[tuple[int, int], ...]) -> str:
    return " or ".join(f"{a}" if a == b else f"{a}-{b}" for a, b in spans)


def check_size(sheet: Datasheet, models: int | None) -> int:
    """``models`` (default: the unit's minimum) if the datasheet's composition allows it
    (``sizes``), else ``WargearError`` naming the sizes allowed: every door's check."""
    spans = sizes(sheet)
    n = spans[0][0] if models is None else models
    if not any(a <= n <= b for a, b in spans):
        raise WargearError(f"{sheet.name} has {_sizes_text(spans)} models; {n} asked for",
                           "models")
    return n


def field_unit(sheet: Datasheet, models: int | None = None,
               wargear: list[str] | tuple[str, ...] = ()) -> Loadout:
    """The unit of ``sheet`` with ``models`` models (default: its minimum) and the
    ``wargear`` choices applied. Raises ``WargearError`` naming the broken constraint.

    The size must match one of the datasheet's composition tiers; the first tier that
    holds ``models`` models and admits the wargear is fielded. The answer is cached by
    value (equal datasheets, sizes and wargear field the same unit): a table of many
    matchups fields each unit once."""
    return _field_unit(sheet, models, tuple(wargear))


@lasting_cache(maxsize=8192)
def _field_unit(sheet: Datasheet, models: int | None, wargear: tuple[str, ...]) -> Loadout:
    _, notes = model_types(sheet)
    n = check_size(sheet, models)
    fitting = [ts for ts in tier_types(sheet)
               if max(1, sum(t.min for t in ts)) <= n <= max(1, sum(t.max for t in ts))]
    if not fitting:  # the sizes merged cover no gap (``sizes``): not reached
        raise WargearError(f"{sheet.name} has {_sizes_text(sizes(sheet))} models; "
                           f"{n} asked for", "models")
    refusals: list[WargearError] = []
    for types in fitting:
        try:
            return _field(sheet, types, n, wargear, notes, models is None)
        except WargearError as exc:
            refusals.append(exc)
    raise refusals[0]


def _field(sheet: Datasheet, types: tuple[ModelType, ...], n: int,
           wargear: list[str] | tuple[str, ...], notes: tuple[str, ...],
           default_size: bool) -> Loadout:
    groups = [_Group(t, c, list(t.equipment)) for t, c in zip(types, _seat(types, n), strict=True)
              if c > 0]
    choices = [_find(sheet, spec, types) for spec in wargear]
    taken: Counter[int] = Counter()
    for choice in choices:
        _apply(sheet, groups, choice, n, taken)
    _check_budgets(sheet, groups, n)
    mends = tuple(dict.fromkeys(m for g in groups for m in g.kind.mends))
    notes = (*notes, *mends)
    what = ("a guess (the data lists no equipment)" if not sheet.model_types and notes else
            "the datasheet's default loadout, mended (the data lacks part of it)" if mends
            else "the datasheet's default loadout")
    defaults = [] if wargear else [f"wargear: {what}"]
    if default_size:
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


def _eligible(option: WargearOption, oi: int, g: _Group, model: str | None = None) -> bool:
    if option.model is not None and name_key(option.model) != name_key(g.kind.name):
        return False
    if model is not None and name_key(model) != name_key(g.kind.name):
        return False
    if oi in g.taken:
        return False
    have = Counter(name_key(i) for i in g.equipment)
    need = Counter(name_key(i) for i in option.replaces)
    return all(have[k] >= v for k, v in need.items())


def _apply(sheet: Datasheet, groups: list[_Group], choice: _Choice, n: int,
           taken: Counter[int]) -> None:
    """Give ``choice.times`` models the bundle, through the options that offer it in
    turn, each up to its cap (rank and file first, the champion last)."""
    left = choice.times
    first_cap: str | None = None
    for oi, bi in choice.offers:
        if left == 0:
            break
        option = sheet.wargear[oi]
        bundle = option.choices[bi]
        scope = sum(g.count for g in groups if option.model is None
                    or name_key(option.model) == name_key(g.kind.name))
        room = option.cap(n, scope) - taken[oi]
        if room < left and first_cap is None:
            cap = option.cap(n, scope)
            what = (f"{cap} {_plural(bundle[0], cap)}" if len(set(bundle)) == 1
                    else f"{cap} models with {equipment_text(bundle)}")
            who = f" on the {option.model}" if option.model and scope == 1 else ""
            first_cap = f"{sheet.name}: at most {what}{who} in {n} models"
        want = min(left, max(0, room))
        got = _take(groups, option, oi, bundle, want, choice.model)
        taken[oi] += got
        left -= got
    if left:
        if first_cap is not None and len(choice.offers) == 1:
            raise WargearError(first_cap)
        option = sheet.wargear[choice.offers[0][0]]
        need = f" carrying {equipment_text(option.replaces)}" if option.replaces else ""
        who = choice.model or option.model or "model"
        raise WargearError(
            f"{sheet.name}: {choice.times} models cannot take {choice.text}; only "
            f"{choice.times - left} {_plural(who, choice.times - left)}{need} can")


def _take(groups: list[_Group], option: WargearOption, oi: int, bundle: tuple[str, ...],
          want: int, model: str | None) -> int:
    """Swap ``option``'s items for ``bundle`` on up to ``want`` eligible models; how many."""
    order = sorted((g for g in groups if _eligible(option, oi, g, model)),
                   key=lambda g: g.kind.leader_model)
    left = want
    for g in order:
        if left == 0:
            break
        take = min(left, g.count)
        equipment = list(g.equipment)
        for item in option.replaces:
            equipment.remove(next(e for e in equipment if name_key(e) == name_key(item)))
        new = _Group(g.kind, take, equipment + list(bundle), {*g.taken, oi})
        g.count -= take
        groups.insert(groups.index(g) + 1, new)
        left -= take
    groups[:] = [g for g in groups if g.count > 0]
    return want - left


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
