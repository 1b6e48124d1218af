"""Leader attachment: which units a Leader may be attached to, and how many (24.22, seed
000). One check for every door: scenario unit references, the CLI's ``--led-by``, the
army-list attacker and the list's validation, the web's leader list.

A datasheet's Leader section names its bodyguard units (``leader_of``, matched as names)
and, in the dataset's leader-attachment schema (wh40kdc ``eligible_bodyguard_keywords``,
read by ``loaders.wh40kdc_leaders``), keyword sets: any unit whose keywords and faction
keywords hold ALL the keywords of one set is an eligible bodyguard too ("an Inquisitor
can lead any IMPERIUM BATTLELINE INFANTRY unit"). A datasheet with neither leads nothing.
24.22 (seed 000): "for each leader and support unit in your army, you can select one
friendly bodyguard unit that unit can lead ... Unless otherwise stated, each bodyguard
unit can only have one leader unit and one support unit attached to it". A unit's role is
its datasheet's (``role``); 10th edition: one leader unit.

>>> from tactica.model import Datasheet, Source
>>> s = Source(file="x")
>>> boyz = Datasheet(name="Boyz", rules="11th", source=s, keywords=("Infantry",),
...                  faction_keywords=("Orks",))
>>> guards = Datasheet(name="Cadian Shock Troops", rules="11th", source=s,
...     keywords=("Infantry", "Battleline", "Imperium"))
>>> inq = Datasheet(name="Inquisitor", rules="11th", source=s,
...     leader_keywords=(("Imperium", "Battleline", "Infantry"),))
>>> lead_refusal(inq, guards) is None
True
>>> lead_refusal(inq, boyz)
'Inquisitor cannot lead Boyz: it leads IMPERIUM BATTLELINE INFANTRY units'
>>> check_leaders(guards, [inq, inq])
Traceback (most recent call last):
...
tactica.units.leaders.LeaderError: Cadian Shock Troops: Inquisitor is attached twice
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from ..model.common import RulesVersion
from ..model.datasheet import Datasheet
from ..names import name_key
from ..rules import get_ruleset

__all__ = [
    "LeaderError",
    "Refusal",
    "Role",
    "attachment_refusals",
    "bodyguard_keys",
    "can_lead",
    "check_leaders",
    "lead_refusal",
    "leaders_of",
    "leads_anything",
    "role",
    "unit_keywords",
]

#: 24.22 / 24.23: what an attached unit is to its bodyguard unit.
Role = Literal["leader", "support"]


class LeaderError(ValueError):
    """An attachment the datasheets do not allow; the message gives the reason."""


def bodyguard_keys(unit: Datasheet, extra: Iterable[str] = ()) -> set[str]:
    """The look-up keys of a bodyguard's keywords and faction keywords (``extra``: the
    keywords an army's detachment grants it)."""
    return {name_key(k) for k in (*unit.keywords, *unit.faction_keywords, *extra)}


def _qualified(name: str) -> tuple[str, str | None]:
    """``"Sanctifiers (Agents of the Imperium)"`` -> ``("Sanctifiers", "Agents of the
    Imperium")``: another faction's copy of a unit, named for its faction."""
    head, sep, tail = name.rpartition(" (")
    return (head, tail[:-1]) if sep and name.endswith(")") else (name, None)


def _same(a: str, b: str) -> bool:
    # a seed's Leader text may say "Neophyte Hybrid" for the unit "Neophyte Hybrids"
    return a == b or a.rstrip("s") == b.rstrip("s")


def _named(leader: Datasheet, unit: Datasheet) -> bool:
    """``unit`` is named in ``leader``'s Leader list: by its own name, or, for another
    faction's copy ("Sanctifiers (Agents of the Imperium)"), by the unit's name when that
    faction is the leader's (a Leader list names units of its own faction)."""
    own = name_key(unit.name)
    base, faction = _qualified(unit.name)
    mine = faction is not None and (
        not leader.faction_keywords
        or name_key(faction) in {name_key(k) for k in leader.faction_keywords})
    for name in leader.leader_of:
        key = name_key(name)
        if _same(key, own) or (mine and _same(key, name_key(base))):
            return True
    return False


def leads_anything(leader: Datasheet) -> bool:
    """Whether the datasheet has a Leader list at all."""
    return bool(leader.leader_of or leader.leader_keywords)


def can_lead(leader: Datasheet, unit: Datasheet, extra_keywords: Iterable[str] = ()) -> bool:
    """Whether ``leader`` may be attached to ``unit`` (24.22): ``unit`` is named in its
    Leader list, or holds every keyword of one of its keyword sets."""
    if _named(leader, unit):
        return True
    if not leader.leader_keywords:
        return False
    have = bodyguard_keys(unit, extra_keywords)
    return any(all(name_key(k) in have for k in kws) for kws in leader.leader_keywords)


def _leads_text(leader: Datasheet) -> str:
    parts = [" ".join(k.upper() for k in kws) + " units" for kws in leader.leader_keywords]
    parts += leader.leader_of
    if len(parts) > 6:
        parts = [*parts[:6], f"{len(parts) - 6} more"]
    return ", ".join(parts)


def lead_refusal(leader: Datasheet, unit: Datasheet,
                 extra_keywords: Iterable[str] = ()) -> str | None:
    """Why ``leader`` cannot be attached to ``unit``, in one line; ``None`` if it can."""
    if not leads_anything(leader):
        return f"{leader.name} cannot lead {unit.name}: its datasheet has no Leader ability"
    if can_lead(leader, unit, extra_keywords):
        return None
    return f"{leader.name} cannot lead {unit.name}: it leads {_leads_text(leader)}"


def role(unit: Datasheet, stated: str | None = None) -> Role:
    """The kind of unit ``unit`` attaches as (24.22 Leader / Support): its datasheet's
    (the dataset's ``attach_role``, else a SUPPORT ability); where the datasheet does not
    say, the role a list ``stated`` ("Attached as: Support"); else a leader unit."""
    if unit.attach_role is not None:
        return unit.attach_role
    if unit.ability("Support") is not None:
        return "support"
    return "support" if stated == "support" else "leader"


def unit_keywords(sheets: Iterable[Datasheet]) -> tuple[str, ...]:
    """The keywords and faction keywords of an attached unit: those of every unit in it
    (Leader, BSData wh40k-11e: an Attached unit "is treated as a single unit for all rules
    purposes"; only for rules triggered when one of its units is destroyed does that unit
    lack "the keywords of any other units that make up that Attached unit"). The first
    sheet is the bodyguard, its keywords first."""
    return tuple(dict.fromkeys(k for s in sheets for k in (*s.keywords, *s.faction_keywords)))


@dataclass(frozen=True, slots=True)
class Refusal:
    """One broken attachment rule: ``which`` is the index of the attached unit it is about
    (``None``: the bodyguard, too many of one role); ``message`` says why in one line."""

    which: int | None
    message: str


def attachment_refusals(unit: Datasheet, attached: Sequence[Datasheet],
                        extra_keywords: Iterable[str] = (),
                        stated: Sequence[str | None] | None = None,
                        rules: RulesVersion | None = None) -> list[Refusal]:
    """Every reason ``attached`` may not lead ``unit`` together, in order (24.22, seed
    000: each "can lead" it; "each bodyguard unit can only have one leader unit and one
    support unit attached to it"; 10th edition: one leader unit). ``stated``: each one's
    role as a list states it (``role``); ``rules``: default the bodyguard's."""
    extra = tuple(extra_keywords)
    said = list(stated) if stated is not None else [None] * len(attached)
    out = [Refusal(i, why) for i, x in enumerate(attached)
           if (why := lead_refusal(x, unit, extra)) is not None]
    names = [x.name for x in attached]
    twice = next((n for i, n in enumerate(names) if n in names[:i]), None)
    if twice is not None:
        return [*out, Refusal(None, f"{unit.name}: {twice} is attached twice")]
    support = get_ruleset(rules or unit.rules).support_units  # 24.22; 10th: leaders only
    kinds = [role(x, r) if support else "leader" for x, r in zip(attached, said, strict=True)]
    for kind in ("leader", "support"):
        same = [x.name for x, k in zip(attached, kinds, strict=True) if k == kind]
        if len(same) > 1:
            out.append(Refusal(None, f"{unit.name}: one {kind} unit may be attached, not "
                                     f"{len(same)} ({', '.join(same)})"))
    return out


def check_leaders(unit: Datasheet, leaders: Sequence[Datasheet],
                  extra_keywords: Iterable[str] = (),
                  roles: Sequence[str | None] | None = None,
                  rules: RulesVersion | None = None) -> None:
    """Raise ``LeaderError`` unless every one of ``leaders`` may lead ``unit`` together:
    the first of ``attachment_refusals``."""
    refused = attachment_refusals(unit, leaders, extra_keywords, roles, rules)
    if refused:
        raise LeaderError(refused[0].message)


def leaders_of(unit: Datasheet, library: Iterable[Datasheet]) -> tuple[str, ...]:
    """The names of the ``library`` units that may lead ``unit``, in library order."""
    return tuple(dict.fromkeys(s.name for s in library
                               if s.name != unit.name and leads_anything(s)
                               and can_lead(s, unit)))
