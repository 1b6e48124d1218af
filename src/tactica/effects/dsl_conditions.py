"""The conditions of the dataset's effect language -> checks on a scenario (issue 16).

A 40kdc-data condition node (``condition.schema.json``, 1.4.5: ``phase-is``,
``attack-is-type``, ``unit-has-keyword``, ``target-has-keyword``, ``is-attached``,
``charged-this-turn``, ``advanced-this-turn``, ``remained-stationary``,
``disembarked-from-transport``, ``opponent-unit-within-range``, and ``and``/``or``/``not``
over them) compiles against the rule's owner into a ``Condition`` the scenario is checked
against (refused with the reason), an attack type, "outside the shooting and fight
phases", or an **assumption** for what a scenario cannot state (objectives, battle-shock,
timing), which naming the rule says holds. ``compiler`` walks the effect tree and asks
this module for each condition.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from ..combat.contract.scenario import Scenario
from ..names import name_key
from .model import Condition

__all__ = ["Attack", "Owner", "Raw", "compile_condition", "designated_condition",
           "side_of", "who", "within"]

Owner = Literal["attacker", "target"]
#: What a condition on the context alone reads (``Condition.reads``).
_CONTEXT = frozenset({"context"})
Attack = Literal["ranged", "melee"]
Raw = Mapping[str, Any]


def who(owner: Owner, own: bool) -> Owner:
    """The unit a condition of ``owner``'s rule is about: its own (``own``) or the other
    side's."""
    return owner if own else ("target" if owner == "attacker" else "attacker")


def side_of(s: Scenario, owner: Owner, own: bool) -> tuple[tuple[str, ...], str]:
    """The keywords and name of the unit ``who(owner, own)`` in ``s``."""
    unit = s.attacker if who(owner, own) == "attacker" else s.target
    return unit.keywords, unit.name


def within(inches: float) -> Condition:
    """The target within ``inches`` (an enemy unit within range: Bilious Blessing's 8"),
    checked against ``context.distance`` when the scenario gives it."""
    return Condition(f"the target is within {inches:g}\"",
                     f"the target is beyond {inches:g}\" (context.distance)",
                     lambda s: s.context.distance is None or s.context.distance <= inches,
                     _CONTEXT)


def _has(keywords: tuple[str, ...], name: str, wanted: str) -> bool:
    """``wanted`` among ``keywords`` (or the unit's name), however spelled: the records
    write "legiones-daemonica" for the datasheet's LEGIONES DAEMONICA.

    >>> _has(("NURGLE", "LEGIONES DAEMONICA"), "Great Unclean One", "legiones-daemonica")
    True
    """
    key = name_key(wanted)
    return key in {name_key(k) for k in keywords} or key == name_key(name)


@dataclass(frozen=True)
class _Cond:
    """A compiled condition: a check, an assumption, an attack type, or "outside the
    shooting and fight phases" (``outside``)."""

    check: Condition | None = None
    assumption: str | None = None
    attack: Attack | None = None
    outside: str | None = None


def designated_condition(rule: str) -> Condition:
    """The target is the enemy unit ``rule`` picked (``context.designated``); when the
    scenario does not say, naming the rule says so."""
    def test(s: Scenario) -> bool:
        d = s.context.designated
        return d is None or name_key(rule) in {name_key(x) for x in d}

    return Condition(f"the target is the {rule} target",
                     f"the target is not the {rule} target (context.designated)", test,
                     _CONTEXT)


def _keyword_cond(owner: Owner, own: bool, kw: str) -> Condition:
    unit = who(owner, own)
    return Condition(f"{unit} is {kw.upper()}", f"the {unit} is not a {kw.upper()} unit",
                     lambda s: _has(*side_of(s, owner, own), kw), frozenset({unit}))


def _flag(owner: Owner, name: str, words: str) -> _Cond:
    if owner != "attacker":
        return _Cond(assumption=words)
    return _Cond(check=Condition(words, f"needs context.{name} ({words})",
                                 lambda s: bool(getattr(s.context, name)), _CONTEXT))


def _simple_condition(c: Raw, owner: Owner) -> _Cond:
    kind = str(c.get("type"))
    p = c.get("parameters") or {}
    if kind == "phase-is":
        phase = str(p.get("phase"))
        if phase in ("shooting", "fight"):
            return _Cond(check=Condition(f"{phase} phase", f"only in the {phase} phase",
                                         lambda s: s.phase == phase, frozenset({"phase"})))
        return _Cond(outside=f"the {phase} phase")
    if kind == "attack-is-type" and p.get("attack_type") in ("ranged", "melee"):
        return _Cond(attack=p["attack_type"])
    if kind in ("unit-has-keyword", "target-has-keyword") and p.get("keyword"):
        kw = str(p["keyword"])
        if kind == "target-has-keyword" and kw.casefold().endswith(" target"):
            return _Cond(check=designated_condition(kw[: -len(" target")]))
        return _Cond(check=_keyword_cond(owner, kind == "unit-has-keyword", kw))
    if kind == "is-attached":
        if owner == "attacker":
            return _Cond(check=Condition("led by a CHARACTER", "the unit is not led by a "
                                         "CHARACTER (context.led_by)",
                                         lambda s: bool(s.context.led_by), _CONTEXT))
        # attached: a CHARACTER leading a bodyguard unit, so the target has CHARACTER and
        # other models (a CHARACTER alone leads nothing)
        return _Cond(check=Condition(
            "a CHARACTER is attached", "no CHARACTER leads the target unit",
            lambda s: any(g.character for g in s.target.models)
            and not all(g.character for g in s.target.models), frozenset({"target"})))
    if kind == "charged-this-turn":
        return _flag(owner, "charged", "made a charge move this turn")
    if kind == "advanced-this-turn":
        return _flag(owner, "advanced", "advanced this turn")
    if kind == "remained-stationary":
        return _flag(owner, "remained_stationary", "remained stationary")
    if kind == "disembarked-from-transport":
        return _flag(owner, "disembarked", "disembarked this turn")
    if kind == "opponent-unit-within-range" and owner == "attacker":
        inches = float(p.get("range_inches") or p.get("range") or 0)
        if inches:
            return _Cond(check=within(inches))
    words = kind.replace("-", " ") + "".join(f" {v}" for v in p.values()
                                              if isinstance(v, str | int | float))
    return _Cond(assumption=words)


def compile_condition(c: Raw, owner: Owner) -> _Cond:
    op = c.get("operator")
    operands = [o for o in c.get("operands") or () if isinstance(o, Mapping)]
    if op is None:
        out = _simple_condition(c, owner)
        return _negate(out) if c.get("negated") is True else out
    parts = [compile_condition(o, owner) for o in operands]
    if op == "not":
        return _negate(parts[0]) if parts else _Cond()
    if op == "and":
        return _all(parts)
    return _any(parts)


def _negate(c: _Cond) -> _Cond:
    if c.outside is not None:
        return _Cond()  # "not in the movement phase": true in the shooting and fight phases
    if c.check is not None:
        inner = c.check
        return _Cond(check=Condition(f"not ({inner.description})",
                                     f"{inner.description} (it must not be)",
                                     lambda s: not inner.test(s), inner.reads))
    if c.attack is not None:
        return _Cond(attack="melee" if c.attack == "ranged" else "ranged")
    return _Cond(assumption=f"not ({c.assumption})" if c.assumption else None)


def _all(parts: list[_Cond]) -> _Cond:
    outside = next((p.outside for p in parts if p.outside), None)
    if outside:
        return _Cond(outside=outside)
    checks = [p.check for p in parts if p.check is not None]
    attack = next((p.attack for p in parts if p.attack), None)
    assumed = "; ".join(p.assumption for p in parts if p.assumption) or None
    check = checks[0] if len(checks) == 1 else None
    if len(checks) > 1:
        check = Condition(" and ".join(c.description for c in checks), "; ".join(
            c.failure for c in checks), lambda s: all(c.test(s) for c in checks),
            frozenset().union(*(c.reads for c in checks)))
    return _Cond(check=check, assumption=assumed, attack=attack)


def _any(parts: list[_Cond]) -> _Cond:
    inside = [p for p in parts if p.outside is None]
    if not inside:
        return _Cond(outside=parts[0].outside if parts else None)
    if any(p.assumption for p in inside) or any(p.attack for p in inside):
        return _Cond(assumption=" or ".join(p.assumption or (p.check.description if p.check
                                            else str(p.attack)) for p in inside))
    checks = [p.check for p in inside if p.check is not None]
    if len(checks) < len(inside):
        return _Cond()  # one operand always holds
    return _Cond(check=Condition(" or ".join(c.description for c in checks), " and ".join(
        c.failure for c in checks), lambda s: any(c.test(s) for c in checks),
        frozenset().union(*(c.reads for c in checks))))
