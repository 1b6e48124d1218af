"""Weapon tables of a seed page: rows, profiles, abilities and multi-profile weapons.

Traps handled (rules_inventory.md §0):

* every weapon row comes twice, a name-only row ``| name | |||||||`` and then the stat row;
  rows of the oldest layout (003) have no leading ``|`` and the last one no trailing cell;
* abilities are written ``[blast, twin-linked]`` (001-003) or as bare lower-case words
  after the name (000: ``Scoped needle pistol anti-infantry 2+ ignores cover pistol``);
* ``N/A`` as BS is a Torrent weapon (skill ``None``); ``Melee`` range; ``18"`` -> 18;
* multi-profile weapons are rows named ``<weapon> – <profile>`` (003's grenade launcher);
  they become one ``Weapon`` whose profiles keep the full row name
  ("Grenade launcher – frag"), so a profile printed on its own still says what it is.

>>> split_abilities("Scoped needle pistol anti-infantry 2+ ignores cover pistol")
('Scoped needle pistol', (Anti(keyword='INFANTRY', threshold=2), Flag(name='Ignores Cover'), \
Flag(name='Pistol')))
>>> split_abilities("Tremor cannon [blast]")
('Tremor cannon', (Blast(extra=1),))
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from pydantic import ValidationError

from ..dice import DiceError, DiceExpr
from ..model.abilities import UnknownAbilityError, WeaponAbility, parse_weapon_ability
from ..model.common import Source
from ..model.datasheet import Weapon, WeaponProfile
from .errors import LoadError

__all__ = [
    "TABLE_HEADER",
    "WeaponRow",
    "group_weapons",
    "parse_weapon_rows",
    "split_abilities",
    "uses_brackets",
]

#: "RANGED WEAPONS | RANGE | A | BS | S | AP | D | |" (and MELEE ... WS ...)
TABLE_HEADER = re.compile(
    r"^(?P<kind>RANGED|MELEE) WEAPONS \| RANGE \| A \| (?:BS|WS) \| S \| AP \| D \|(?: \|)?$"
)
_STATS = ("range", "A", "skill", "S", "AP", "D")
_BRACKETS = re.compile(r"^(?P<name>.*?)\s*\[(?P<abilities>[^\]]*)\]$")
_SKILL = re.compile(r"^([2-6])\+$")
_RANGE = re.compile(r'^(\d{1,3})"$')
_INT = re.compile(r"^-?\d{1,2}$")
_MAX_ABILITY_WORDS = 4  # "sustained hits d3" / "anti-fly 2+" span at most a few words


@dataclass(frozen=True, slots=True)
class WeaponRow:
    """One stat row as read: the name (abilities removed) and its profile."""

    name: str
    profile: WeaponProfile


def _cells(text: str) -> list[str]:
    cells = [c.strip() for c in text.split("|")]
    if text.lstrip().startswith("|"):
        cells = cells[1:]
    while cells and not cells[-1]:
        cells.pop()
    return cells


def _segment(words: list[str]) -> list[WeaponAbility] | None:
    """Read ``words`` as a run of abilities (each one to four words), or None."""
    if not words:
        return []
    for n in range(min(_MAX_ABILITY_WORDS, len(words)), 0, -1):
        try:
            first = parse_weapon_ability(" ".join(words[:n]))
        except UnknownAbilityError:
            continue
        rest = _segment(words[n:])
        if rest is not None:
            return [first, *rest]
    return None


def split_abilities(
    raw: str, bare_words: bool = True
) -> tuple[str, tuple[WeaponAbility, ...]]:
    """Split a weapon cell into its name and abilities (either layout).

    Bracketed abilities must all be recognised (``UnknownAbilityError`` otherwise). For bare
    words, the abilities are the shortest-from-the-left run of lower-case words at the end of
    the cell that reads as distinct abilities, preferring a run in alphabetical order (the
    site sorts them): "...needle pistol anti-infantry 2+ ignores cover pistol" keeps
    "pistol" in the name because "pistol ... pistol" would repeat an ability. A bare word
    that is not an ability cannot be told from a name word, so it stays in the name.
    ``bare_words=False`` (a page that writes its abilities in brackets) keeps an unbracketed
    cell whole: "Frag lance" is not "Frag" with [LANCE].
    """
    m = _BRACKETS.match(raw)
    if m:
        parts = [p.strip() for p in m["abilities"].split(",") if p.strip()]
        return m["name"], tuple(parse_weapon_ability(p) for p in parts)
    if not bare_words:
        return raw, ()
    words = raw.split()
    candidates: list[tuple[int, list[WeaponAbility]]] = []
    for start in range(1, len(words)):
        tail = words[start:]
        if any(w != w.lower() for w in tail):
            continue
        found = _segment(tail)
        if found is None or len({str(a) for a in found}) != len(found):
            continue
        candidates.append((start, found))
    if not candidates:
        return raw, ()
    ordered = [c for c in candidates if [str(a) for a in c[1]] == sorted(str(a) for a in c[1])]
    start, found = (ordered or candidates)[0]
    return " ".join(words[:start]), tuple(found)


def _profile(
    file: str, line: int, text: str, kind: Literal["RANGED", "MELEE"], bare_words: bool
) -> WeaponRow:
    cells = _cells(text)
    if len(cells) < 7:
        raise LoadError(file, line, text, f"truncated weapon row: {len(cells)} of 7 cells")
    if len(cells) > 7:
        raise LoadError(file, line, text, f"weapon row has {len(cells)} cells, expected 7")
    raw_name, rng, attacks, skill, strength, ap, damage = cells
    try:
        name, abilities = split_abilities(raw_name, bare_words)
    except UnknownAbilityError as exc:
        raise LoadError(file, line, text, str(exc)) from None
    if kind == "MELEE":
        if rng != "Melee":
            raise LoadError(file, line, text, f"melee weapon range must be 'Melee', not {rng!r}")
        rng_value: int | Literal["Melee"] = "Melee"
    else:
        rm = _RANGE.match(rng)
        if rm is None:
            raise LoadError(
                file, line, text, f'ranged weapon range must be inches (18"), not {rng!r}'
            )
        rng_value = int(rm.group(1))
    sm = _SKILL.match(skill)
    # "N/A" BS: a Torrent weapon ("each attack automatically hits"), skill None
    if sm is None and skill != "N/A":
        raise LoadError(file, line, text, f"skill must be 2+ to 6+ or N/A, not {skill!r}")
    for label, value in (("S", strength), ("AP", ap)):
        if not _INT.match(value):
            raise LoadError(file, line, text, f"{label} must be a whole number, not {value!r}")
    try:  # 02.02.03: "D6+1" is one characteristic (the +1 is not a modifier)
        a_expr = DiceExpr.parse(attacks)
        d_expr = DiceExpr.parse(damage)
    except DiceError as exc:
        raise LoadError(file, line, text, str(exc)) from None
    try:
        profile = WeaponProfile(
            name=name,
            range=rng_value,
            A=a_expr,
            skill=int(sm.group(1)) if sm else None,
            S=int(strength),
            AP=int(ap),
            D=d_expr,
            abilities=abilities,
            source=Source(file=file, line=line),
        )
    except ValidationError as exc:
        problem = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
        raise LoadError(file, line, text, f"invalid weapon profile ({problem})") from None
    return WeaponRow(name=name, profile=profile)


def uses_brackets(rows: list[tuple[int, str]]) -> bool:
    """Whether a page writes weapon abilities in brackets (then bare words are name words)."""
    return any(_BRACKETS.match(_cells(text)[0]) for _, text in rows if _cells(text))


def parse_weapon_rows(
    file: str, rows: list[tuple[int, str]], kind: Literal["RANGED", "MELEE"], bare_words: bool
) -> list[WeaponRow]:
    """Read the rows under one table header: an optional name-only row, then the stat row
    (the name-only row must name the same weapon)."""
    out: list[WeaponRow] = []
    pending: tuple[int, str, str] | None = None  # line, text, name of a name-only row
    for line, text in rows:
        cells = _cells(text)
        if len(cells) == 1 or (len(cells) > 1 and not any(cells[1:])):
            if pending is not None:
                raise LoadError(file, pending[0], pending[1], "weapon name row without a stat row")
            try:
                # an unknown ability is reported where it first appears
                split_abilities(cells[0], bare_words)
            except UnknownAbilityError as exc:
                raise LoadError(file, line, text, str(exc)) from None
            pending = (line, text, cells[0])
            continue
        row = _profile(file, line, text, kind, bare_words)
        if pending is not None and pending[2] != cells[0]:
            raise LoadError(
                file, line, text, f"stat row does not match the name row above ({pending[2]!r})"
            )
        pending = None
        out.append(row)
    if pending is not None:
        raise LoadError(file, pending[0], pending[1], "weapon name row without a stat row")
    return out


def group_weapons(rows: list[WeaponRow]) -> tuple[Weapon, ...]:
    """Rows named "<weapon> – <profile>" become one multi-profile ``Weapon`` ("Before
    selecting targets for this weapon, select one of its profiles"); other rows one each."""
    order: list[str] = []
    profiles: dict[str, list[WeaponProfile]] = {}
    for row in rows:
        base = row.name.split(" – ", 1)[0].strip()
        if base not in profiles:
            order.append(base)
            profiles[base] = []
        profiles[base].append(row.profile)
    return tuple(Weapon(name=name, profiles=tuple(profiles[name])) for name in order)
