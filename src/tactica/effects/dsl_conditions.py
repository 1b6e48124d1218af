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

from ..combat.contract.scenario import Scenario, Strength
from ..names import article, name_key
from .model import Condition

__all__ = ["STATE_WORDS", "Attack", "Owner", "Raw", "compile_condition",
           "designated_condition", "mortal_wound_trigger", "side_of", "strength_condition",
           "who", "within"]

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
    """The target within ``inches`` of the unit whose rule it is (an enemy unit within
    range: Bilious Blessing's 8", Bonded Heroes' 12"), read from ``context.distance``;
    not given, the target is taken to be within it, as within a weapon's range, and the
    result says so (``unstated``)."""
    return Condition(f"the target is within {inches:g}\"",
                     f"the target is beyond {inches:g}\" (context.distance)",
                     lambda s: s.context.distance is None or s.context.distance <= inches,
                     _CONTEXT, unstated=lambda s: s.context.distance is None)


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
    """A compiled condition: checks (all must hold), an assumption, an attack type, or
    "outside the shooting and fight phases" (``outside``)."""

    checks: tuple[Condition, ...] = ()
    assumption: str | None = None
    attack: Attack | None = None
    outside: str | None = None


def designated_condition(rule: str, description: str | None = None,
                         failure: str | None = None, also: tuple[str, ...] = ()
                         ) -> Condition:
    """The target is the enemy unit ``rule`` picked (``context.designated`` names
    ``rule`` or one of ``also``); when the scenario does not say, naming the rule says
    so, and the result notes it (``unstated``)."""
    names = {name_key(rule), *(name_key(a) for a in also)}

    def test(s: Scenario) -> bool:
        d = s.context.designated
        return d is None or bool(names & {name_key(x) for x in d})

    return Condition(description or f"the target is the {rule} target",
                     failure or f"the target is not the {rule} target (context.designated)",
                     test, _CONTEXT, unstated=lambda s: s.context.designated is None,
                     designation=True)


def _keyword_cond(owner: Owner, own: bool, kw: str) -> Condition:
    unit = who(owner, own)
    return Condition(f"{unit} is {kw.upper()}",
                     f"the {unit} is not {article(kw)} {kw.upper()} unit",
                     lambda s: _has(*side_of(s, owner, own), kw), frozenset({unit}))


#: The T'au Empire army rule whose Observer picks the Spotted unit a Guided unit shoots.
_FTGG = "For the Greater Good"
#: Words the records test as a keyword that are a unit's state during the battle, which
#: no datasheet of the dataset carries (the sweep in ``tests/effects`` lists them):
#: a scenario states it only by giving the unit that word as a keyword; otherwise the
#: unit is taken not to be in it (a part that needs it is not applied, and the reason
#: says so; a part that needs it *not* to hold says it assumes so).
STATE_WORDS = frozenset(name_key(w) for w in (
    "Riled Up", "Afflicted", "Hidden", "Marked", "Assailed", "Embarked", "Battle-shocked",
    "battle-shocked-or-below-half", "affected-by-order", "wholly-within-flow-of-magic",
    "Winning the Wager", "Losing the Wager", "Unbridled Bloodlust active",
    "Daemonic Rage active", "Strategic Reserves"))
#: Battle-shock written as a keyword: an assumption, as the ``is-battle-shocked``
#: condition is (a scenario cannot state it).
_SHOCKED = frozenset(name_key(w) for w in ("Battle-shocked", "battle-shocked-or-below-half"))
#: "Below Half-strength" and "below its Starting Strength", as written in the records.
_STRENGTH = {name_key("below-half-strength"): "half",
             name_key("below-starting-strength"): "starting"}
_STRENGTH_WORDS = {"half": "Below Half-strength", "starting": "below its Starting Strength"}


def strength_condition(owner: Owner, own: bool, level: Strength) -> Condition:
    """The unit is below its Starting Strength or Below Half-strength, as
    ``context.below_strength`` (the attacking unit) or ``context.target_below_strength``
    says; unset, it is not (Heroes of the Chapter's +1 to wound is then not applied)."""
    unit = who(owner, own)
    field = "below_strength" if unit == "attacker" else "target_below_strength"
    words = f"the {unit} is {_STRENGTH_WORDS[level]}"

    def test(s: Scenario) -> bool:
        said = getattr(s.context, field)
        return bool(said == "half" or said == level)

    return Condition(words, f"needs context.{field} ({words})", test, _CONTEXT)


def _state(kind: str, owner: Owner, own: bool, kw: str) -> Condition | None:
    """A keyword test of a state rather than a datasheet keyword (``STATE_WORDS``, the
    Benefit of Cover, a unit's strength, For the Greater Good's Spotted and Guided
    units), or ``None``."""
    key, unit = name_key(kw), who(owner, own)
    if key == name_key("benefit-of-cover") and unit == "target":
        # 13.08: the cover rule, stated by ``context.cover`` (Masters of Camouflage: the
        # unit "already has the Benefit of Cover for another reason")
        return Condition("the target has the Benefit of Cover", "the target does not have "
                         "the Benefit of Cover (context.cover)", lambda s: s.context.cover,
                         _CONTEXT)
    if key in _STRENGTH:
        return strength_condition(owner, own, "half" if _STRENGTH[key] == "half"
                                  else "starting")
    if key == name_key("Spotted") and kind == "target-has-keyword" and unit == "target":
        return designated_condition(
            _FTGG, f"the target is the Spotted unit ({_FTGG})", "the target is not the "
            f"Spotted unit (context.designated names neither {_FTGG} nor Spotted)",
            also=("Spotted",))
    if key == name_key("Guided") and unit == "attacker":
        return designated_condition(
            _FTGG, f"the attacker is a Guided unit shooting its Spotted unit ({_FTGG})",
            f"the attacker is not a Guided unit (context.designated names neither "
            f"{_FTGG}, Guided nor Spotted)", also=("Guided", "Spotted"))
    if key.endswith("designated") and kind == "target-has-keyword" and unit == "target":
        # "scornful-analysis-designated": the enemy unit Scornful Analysis picked
        return designated_condition(kw[: -len("designated")].strip(" -").replace("-", " "))
    if key not in STATE_WORDS:
        return None
    words = f"the {unit} is {kw.replace('-', ' ')}"
    carried = _keyword_cond(owner, own, kw)
    return Condition(words, f"needs {words} (a state; give the unit the keyword "
                     f"{kw.upper()} if it is)", carried.test, carried.reads,
                     unstated=lambda s: not carried.test(s))


def _flag(owner: Owner, name: str, words: str) -> _Cond:
    if owner != "attacker":
        return _Cond(assumption=words)
    return _Cond(checks=(Condition(words, f"needs context.{name} ({words})",
                                   lambda s: bool(getattr(s.context, name)), _CONTEXT),))


#: ``unit-within-range-of`` an enemy unit: for one attack, the enemy unit is the target.
_ENEMY_UNIT = frozenset({"enemy", "visible-enemy", "current-ranged-attack-target",
                         "triggering-enemy-unit"})


def _inches(p: Raw) -> float | None:
    """The range of a distance condition, in inches (``range_inches``, ``range`` or
    ``within_inches``), or ``None`` ("engagement", a weapon's range...)."""
    for key in ("range_inches", "range", "within_inches"):
        v = p.get(key)
        if isinstance(v, int | float) and not isinstance(v, bool) and v > 0:
            return float(v)
    return None


def _distance(kind: str, p: Raw) -> _Cond | None:
    """A condition on the distance between the attacking unit and its target, read from
    ``context.distance`` (``within``): an opponent's unit within range of the rule's
    unit, or the rule's unit within range of an enemy unit (Bonded Heroes)."""
    inches = _inches(p)
    if inches is None:
        return None
    if kind == "opponent-unit-within-range" and not p.get("target_qualifier"):
        return _Cond(checks=(within(inches),))
    if kind == "unit-within-range-of" and p.get("target_type") in _ENEMY_UNIT:
        return _Cond(checks=(within(inches),))
    return None


def _simple_condition(c: Raw, owner: Owner) -> _Cond:
    kind = str(c.get("type"))
    p = c.get("parameters") or {}
    if kind == "phase-is":
        phase = str(p.get("phase"))
        if phase in ("shooting", "fight"):
            return _Cond(checks=(Condition(f"{phase} phase", f"only in the {phase} phase",
                                           lambda s: s.phase == phase,
                                           frozenset({"phase"})),))
        return _Cond(outside=f"the {phase} phase")
    if kind == "attack-is-type" and p.get("attack_type") in ("ranged", "melee"):
        return _Cond(attack=p["attack_type"])
    if kind in ("unit-has-keyword", "target-has-keyword") and p.get("keyword"):
        kw = str(p["keyword"])
        if kind == "target-has-keyword" and kw.casefold().endswith(" target"):
            return _Cond(checks=(designated_condition(kw[: -len(" target")]),))
        own = kind == "unit-has-keyword"
        if name_key(kw) in _SHOCKED:  # as ``is-battle-shocked``: assumed, and noted
            return _Cond(assumption=f"the {who(owner, own)} is {kw.replace('-', ' ')}")
        return _Cond(checks=(_state(kind, owner, own, kw) or _keyword_cond(owner, own, kw),))
    if kind in ("unit-below-half-strength", "unit-below-starting-strength"):
        return _Cond(checks=(strength_condition(
            owner, p.get("subject") != "target",
            "half" if kind == "unit-below-half-strength" else "starting"),))
    if kind == "is-attached":
        if owner == "attacker":
            return _Cond(checks=(Condition(
                "led by a CHARACTER", "the unit is not led by a CHARACTER (context.led_by)",
                lambda s: bool(s.context.led_by), _CONTEXT),))
        # attached: a CHARACTER leading a bodyguard unit, so the target has CHARACTER and
        # other models (a CHARACTER alone leads nothing)
        return _Cond(checks=(Condition(
            "a CHARACTER is attached", "no CHARACTER leads the target unit",
            lambda s: any(g.character for g in s.target.models)
            and not all(g.character for g in s.target.models), frozenset({"target"})),))
    if kind == "charged-this-turn":
        return _flag(owner, "charged", "made a charge move this turn")
    if kind == "advanced-this-turn":
        return _flag(owner, "advanced", "advanced this turn")
    if kind == "remained-stationary":
        return _flag(owner, "remained_stationary", "remained stationary")
    if kind == "disembarked-from-transport":
        return _flag(owner, "disembarked", "disembarked this turn")
    found = _distance(kind, p)
    if found is not None:
        return found
    words = kind.replace("-", " ") + "".join(f" {v}" for v in p.values()
                                              if isinstance(v, str | int | float))
    return _Cond(assumption=words)


def _is_mortal_hit(c: Any) -> bool:
    return isinstance(c, Mapping) and c.get("type") == "was-hit-by-attack" and (
        c.get("parameters") or {}).get("attack_type") == "mortal"


def mortal_wound_trigger(conds: tuple[Raw, ...]) -> tuple[bool, tuple[Raw, ...]]:
    """Whether ``conds`` say "each time the unit suffers a mortal wound"
    (``was-hit-by-attack`` of ``attack_type`` mortal, alone or in an ``and``), and the
    conditions without it: over a Feel No Pain, it makes one against mortal wounds only.

    >>> hit = {"type": "was-hit-by-attack", "parameters": {"attack_type": "mortal"}}
    >>> kw = {"type": "unit-has-keyword"}
    >>> mortal_wound_trigger(({"operator": "and", "operands": [kw, hit]},))
    (True, ({'operator': 'and', 'operands': [{'type': 'unit-has-keyword'}]},))
    """
    found = False
    out: list[Raw] = []
    for c in conds:
        if _is_mortal_hit(c):
            found = True
            continue
        operands = c.get("operands")
        if c.get("operator") == "and" and isinstance(operands, list) and any(
                _is_mortal_hit(o) for o in operands):
            found = True
            c = {**c, "operands": [o for o in operands if not _is_mortal_hit(o)]}
        out.append(c)
    return found, tuple(out)


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


def _joined(checks: tuple[Condition, ...], word: str) -> Condition:
    """One condition: all of ``checks`` (``word`` "and") or any of them ("or"); its
    failure names only the checks that fail."""
    every = word == "and"

    def test(s: Scenario) -> bool:
        return all(c.test(s) for c in checks) if every else any(c.test(s) for c in checks)

    def unstated(s: Scenario) -> bool:
        return any(c.unstated is not None and c.unstated(s) for c in checks)

    return Condition(f" {word} ".join(c.description for c in checks), " and ".join(
        c.failure for c in checks), test, frozenset().union(*(c.reads for c in checks)),
        unstated=unstated if any(c.unstated for c in checks) else None,
        designation=any(c.designation for c in checks))


def _negate(c: _Cond) -> _Cond:
    if c.outside is not None:
        return _Cond()  # "not in the movement phase": true in the shooting and fight phases
    if c.checks:
        inner = c.checks[0] if len(c.checks) == 1 else _joined(c.checks, "and")
        return _Cond(checks=(Condition(
            f"not ({inner.description})", f"{inner.description} (it must not be)",
            lambda s: not inner.test(s), inner.reads, unstated=inner.unstated),))
    if c.attack is not None:
        return _Cond(attack="melee" if c.attack == "ranged" else "ranged")
    return _Cond(assumption=f"not ({c.assumption})" if c.assumption else None)


def _all(parts: list[_Cond]) -> _Cond:
    outside = next((p.outside for p in parts if p.outside), None)
    if outside:
        return _Cond(outside=outside)
    attack = next((p.attack for p in parts if p.attack), None)
    assumed = "; ".join(p.assumption for p in parts if p.assumption) or None
    return _Cond(checks=tuple(c for p in parts for c in p.checks), assumption=assumed,
                 attack=attack)


def _any(parts: list[_Cond]) -> _Cond:
    inside = [p for p in parts if p.outside is None]
    if not inside:
        return _Cond(outside=parts[0].outside if parts else None)
    if any(p.assumption for p in inside) or any(p.attack for p in inside):
        return _Cond(assumption=" or ".join(p.assumption or (
            " and ".join(c.description for c in p.checks) if p.checks else str(p.attack))
            for p in inside))
    if any(not p.checks for p in inside):
        return _Cond()  # one operand always holds
    each = [p.checks[0] if len(p.checks) == 1 else _joined(p.checks, "and") for p in inside]
    return _Cond(checks=(_joined(tuple(each), "or"),))
