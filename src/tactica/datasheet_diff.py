"""The differences between two versions of one datasheet (``compare``): what the
library lists as its decisions when sources disagree (``tactica.sources``).

>>> from tactica.model import Datasheet, PointsBracket, Source
>>> a = Datasheet(name="X", rules="11th", points=(PointsBracket(models=1, points=70),),
...               source=Source(file="a"))
>>> b = a.model_copy(update={"points": (PointsBracket(models=1, points=90),)})
>>> [str(d) for d in compare(a, b)]
['points: 1 model: 70 pts | 1 model: 90 pts']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .model.common import Frozen
from .model.datasheet import Datasheet, EscalatingPoints, ModelProfile, PointsBracket, Weapon
from .names import name_key

__all__ = ["Difference", "compare"]

_STATS = ("M", "T", "Sv", "InSv", "W", "Ld", "OC")


class Difference(Frozen):
    """One value on which two datasheets differ: ``field`` and both values as text
    (``"-"`` where one side has nothing)."""

    field: str
    first: str
    second: str

    def __str__(self) -> str:
        return f"{self.field}: {self.first} | {self.second}"


def _points(points: tuple[PointsBracket, ...] | EscalatingPoints) -> str:
    """Points in one line, consecutive sizes at one price joined ("6-10 models: 140 pts").

    >>> _points(tuple(PointsBracket(models=n, points=75 if n == 5 else 140) for n in range(5, 11)))
    '5 models: 75 pts, 6-10 models: 140 pts'
    """

    def brackets(bs: Iterable[PointsBracket]) -> str:
        runs: list[list[PointsBracket]] = []
        for b in bs:
            last = runs[-1][-1] if runs else None
            if last is not None and last.points == b.points and last.models + 1 == b.models:
                runs[-1].append(b)
            else:
                runs.append([b])
        parts = []
        for run in runs:
            low, high = run[0].models, run[-1].models
            size = f"{low}" if low == high else f"{low}-{high}"
            parts.append(f"{size} model{'s' if high != 1 else ''}: {run[0].points} pts")
        return ", ".join(parts)

    if isinstance(points, EscalatingPoints):
        return "; ".join(
            f"{_units(t.first, t.last)}: {brackets(t.brackets)}"
            for t in points.tiers
        )
    return brackets(points) or "-"


def _units(first: int, last: int | None) -> str:
    if last is None:
        return f"units {first}+"
    return f"unit {first}" if last == first else f"units {first}-{last}"


def _singular(name: str) -> str:
    key = name_key(name)
    return key[:-1] if key.endswith("s") else key


def _profile_text(weapon: Weapon) -> str:
    """A weapon's profiles in a fixed order (by profile name), each as ``str(profile)``
    without the weapon's own name."""
    texts = []
    for p in sorted(weapon.profiles, key=lambda p: name_key(p.name)):
        text = str(p)
        texts.append(text.removeprefix(p.name).strip() if p.name == weapon.name else text)
    return " / ".join(texts)


def _models(a: Sequence[ModelProfile], b: Sequence[ModelProfile]) -> list[Difference]:
    out: list[Difference] = []
    others = {_singular(m.name): m for m in b}
    for m in a:
        other = others.pop(_singular(m.name), None)
        if other is None and len(a) == len(b) == 1:
            other = b[0]
            others.clear()
        if other is None:
            out.append(Difference(field=f"model {m.name}", first=m.statline(), second="-"))
            continue
        for stat in _STATS:
            x, y = getattr(m, stat), getattr(other, stat)
            if x != y:
                out.append(Difference(field=f"{m.name} {stat}", first=str(x), second=str(y)))
    for m in others.values():
        out.append(Difference(field=f"model {m.name}", first="-", second=m.statline()))
    return out


def _weapons(a: Sequence[Weapon], b: Sequence[Weapon]) -> list[Difference]:
    def keyed(ws: Sequence[Weapon]) -> dict[tuple[str, bool], Weapon]:
        out: dict[tuple[str, bool], Weapon] = {}
        for w in ws:
            out.setdefault((name_key(w.name), w.is_melee), w)
        return out

    ka, kb = keyed(a), keyed(b)
    out: list[Difference] = []
    for key in dict.fromkeys([*ka, *kb]):
        wa, wb = ka.get(key), kb.get(key)
        name = wa.name if wa is not None else wb.name if wb is not None else key[0]
        ta = _profile_text(wa) if wa else "-"
        tb = _profile_text(wb) if wb else "-"
        if ta.casefold() != tb.casefold():
            out.append(Difference(field=f"weapon {name}", first=ta, second=tb))
    return out


def _names(field: str, a: Iterable[str], b: Iterable[str]) -> list[Difference]:
    sa, sb = {name_key(x): x for x in a}, {name_key(x): x for x in b}
    if set(sa) == set(sb):
        return []
    only_a = [v for k, v in sa.items() if k not in sb]
    only_b = [v for k, v in sb.items() if k not in sa]
    return [Difference(field=field, first=", ".join(only_a) or "-",
                       second=", ".join(only_b) or "-")]


def compare(a: Datasheet, b: Datasheet) -> tuple[Difference, ...]:
    """Where two datasheets of a unit differ: points, each model's characteristics (models
    matched by name, singular or plural), weapons (by name and melee/ranged: missing ones
    and differing profiles), keywords, faction keywords, abilities (with parameters:
    "Firing Deck 12"), leader lists, composition. A field one side leaves empty is not a
    difference (the library fills it from the other). For name lists the texts show what
    only one side has."""
    out: list[Difference] = []
    if a.points != b.points and a.points and b.points:
        out.append(Difference(field="points", first=_points(a.points), second=_points(b.points)))
    if a.models and b.models:
        out += _models(a.models, b.models)
    if a.weapons and b.weapons:
        out += _weapons(a.weapons, b.weapons)
    if a.keywords and b.keywords:
        out += _names("keywords", a.keywords, b.keywords)
    if a.faction_keywords and b.faction_keywords:
        out += _names("faction keywords", a.faction_keywords, b.faction_keywords)
    if a.abilities and b.abilities:
        out += _names("abilities", [str(x) for x in a.abilities], [str(x) for x in b.abilities])
    if a.leader_of and b.leader_of:
        out += _names("leader of", a.leader_of, b.leader_of)
    if a.composition and b.composition:
        ca = sorted((_singular(c.model), c.min, c.max) for c in a.composition)
        cb = sorted((_singular(c.model), c.min, c.max) for c in b.composition)
        if ca != cb:
            def text(d: Datasheet) -> str:
                return " + ".join(f"{c.min}-{c.max} {c.model}" for c in d.composition)

            out.append(Difference(field="composition", first=text(a), second=text(b)))
    return tuple(out)
