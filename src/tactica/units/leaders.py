"""Leader attachment: which units a Leader may be attached to, and how many (24.22, seed
000). One check for every door: scenario unit references, the CLI's ``--led-by``, the
army-list attacker, the web's leader list.

A datasheet's Leader section names its bodyguard units (``leader_of``) and, in the
dataset's leader-attachment schema (wh40kdc ``eligible_bodyguard_keywords``), keyword
sets: any unit whose keywords and faction keywords hold ALL the keywords of one set is
an eligible bodyguard too ("an Inquisitor can lead any IMPERIUM BATTLELINE INFANTRY
unit"). A datasheet with neither leads nothing. 24.22: "each bodyguard unit can only
have one leader unit and one support unit attached to it"; a support unit is one whose
datasheet has the SUPPORT ability, every other attached unit is a leader unit.

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

from ..model.datasheet import Datasheet
from ..names import name_key

__all__ = [
    "LeaderError",
    "bodyguard_keys",
    "can_lead",
    "check_leaders",
    "lead_refusal",
    "leaders_of",
    "leads_anything",
    "role",
]


class LeaderError(ValueError):
    """An attachment the datasheets do not allow; the message gives the reason."""


def bodyguard_keys(unit: Datasheet, extra: Iterable[str] = ()) -> set[str]:
    """The look-up keys of a bodyguard's keywords and faction keywords (``extra``: the
    keywords an army's detachment grants it)."""
    return {name_key(k) for k in (*unit.keywords, *unit.faction_keywords, *extra)}


def _base_name(name: str) -> str:
    """``"Ministorum Priest (Adepta Sororitas)"`` -> ``"Ministorum Priest"``: another
    faction's copy of a unit answers to the unit's own name in a Leader list."""
    head, sep, _ = name.rpartition(" (")
    return head if sep and name.endswith(")") else name


def _named(leader: Datasheet, unit: Datasheet) -> bool:
    keys = {name_key(unit.name), name_key(_base_name(unit.name))}
    for name in leader.leader_of:
        key = name_key(name)
        # a seed's Leader text may say "Neophyte Hybrid" for the unit "Neophyte Hybrids"
        if key in keys or any(k.rstrip("s") == key.rstrip("s") for k in keys):
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


def role(unit: Datasheet) -> str:
    """``"support"`` for a unit with the SUPPORT ability, else ``"leader"`` (24.22)."""
    return "support" if unit.ability("Support") is not None else "leader"


def check_leaders(unit: Datasheet, leaders: Sequence[Datasheet],
                  extra_keywords: Iterable[str] = (),
                  roles: Sequence[str] | None = None) -> None:
    """Raise ``LeaderError`` unless every one of ``leaders`` may lead ``unit`` together
    (24.22: each may lead it, no unit twice, one leader unit and one support unit).
    ``roles``: each one's role as an army list states it ("Attached as: Support");
    default ``role``."""
    extra = tuple(extra_keywords)
    kinds = list(roles) if roles is not None else [role(x) for x in leaders]
    seen: set[str] = set()
    for leader in leaders:
        if leader.name in seen:
            raise LeaderError(f"{unit.name}: {leader.name} is attached twice")
        seen.add(leader.name)
        why = lead_refusal(leader, unit, extra)
        if why is not None:
            raise LeaderError(why)
    for kind in ("leader", "support"):
        same = [x.name for x, k in zip(leaders, kinds, strict=True) if k == kind]
        if len(same) > 1:
            raise LeaderError(
                f"{unit.name}: one {kind} unit may be attached, not {len(same)} "
                f"({', '.join(same)})")


def leaders_of(unit: Datasheet, library: Iterable[Datasheet]) -> tuple[str, ...]:
    """The names of the ``library`` units that may lead ``unit``, in library order."""
    return tuple(dict.fromkeys(s.name for s in library
                               if s.name != unit.name and leads_anything(s)
                               and can_lead(s, unit)))
