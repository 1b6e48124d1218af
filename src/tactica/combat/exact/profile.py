"""Resolve one weapon line against the target and circumstances into plain numbers.

Everything rules-version dependent is asked of the rule set, roll by roll, in the
``combat.stages`` modules (attack dice, hit, wound, save, damage); the result, a
``ResolvedWeapon``, is what both the exact engine and the simulator consume: attack-count
distribution, hit and wound thresholds, critical thresholds, re-roll policies, save
thresholds per allocation group and damage distributions.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field, fields, replace
from functools import cached_property
from operator import itemgetter
from typing import Any, NamedTuple, Protocol, TypeVar

import numpy as np

from tactica.cache_registry import lasting_cache
from tactica.dice import DiceExpr, FloatArray
from tactica.model.abilities import NamedWeaponRule, WeaponAbility
from tactica.model.trusted import made as frozen_made
from tactica.rules.base import AttackCircumstances, RuleSet

from ..contract.scenario import Effect, Scenario, WeaponLine
from .stages import (
    AttackInputs,
    DamageInputs,
    HitInputs,
    SaveInputs,
    WeaponInputs,
    WoundInputs,
    attack_dice,
    damage_stage,
    hit_roll,
    save_stage,
    wound_roll,
)
from .stages.attacks import AttackDice
from .stages.damage import DamageStage
from .stages.hit import HitRoll
from .stages.inputs import RerollPolicy
from .stages.save import SaveStage
from .stages.wound import WoundRoll, attack_toughness

__all__ = [
    "NOT_MODELLED",
    "RerollPolicy",
    "ResolvedWeapon",
    "attack_toughness",
    "out_of_range",
    "range_note",
    "resolve_weapon",
    "save_chance",
    "save_needed",
    "save_probability",
]

T = TypeVar("T")
R = TypeVar("R", bound=Hashable)

# Abilities the engine takes in (computed) versus those it only reports.
#: Recognised abilities whose effect is positional or a choice outside one attack
#: sequence: listed under ``not_calculated`` when present.
NOT_MODELLED: dict[str, str] = {
    "Assault": "Assault (shooting after Advancing) is an eligibility rule",
    "Pistol": "Pistol / Close-quarters (shooting while engaged) is an eligibility rule",
    "Close-quarters": "Close-quarters shooting (10.06) is an eligibility rule",
    "One Shot": "One Shot (24.26): the weapon is assumed not yet fired this battle",
}


@dataclass(frozen=True)
class ResolvedWeapon:
    """One weapon line, with every number of its attack sequence decided."""

    name: str
    count: int
    attacks_pmf: FloatArray  # total attack dice of the line (all copies)
    torrent: bool
    skill: int  # effective BS/WS after characteristic changes and the rule set's bounds
    hit_modifier: int  # net, capped
    critical_hit: int
    snap_shooting: bool
    hit_reroll: RerollPolicy
    sustained: DiceExpr | None
    lethal_hits: bool  # has (or was granted) Lethal Hits
    lethal_mandatory: bool
    strength: int
    toughness: int
    wound_needed: int
    wound_modifier: int
    critical_wound: int
    wound_reroll: RerollPolicy
    devastating: bool
    ap: int
    damage_pmf: FloatArray  # per normal attack, after additions/halving/reduction
    mortal_pmf: FloatArray  # per Devastating Wounds critical (rule-set dependent)
    fnp_effect: int | None
    save_modifier: int  # from effects (cover handled per group by save_probability)
    save_reroll: RerollPolicy
    circumstances: AttackCircumstances
    precision: bool
    hazardous: bool
    explanations: dict[str, str] = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    not_calculated: tuple[str, ...] = ()
    snap_hit_on: int = 6  # while snap shooting: hits on unmodified X+ (Firepoint Commander)
    mortal_afresh: bool = True  # Devastating Wounds criticals pick a model per wound (06.02)
    mortal_precision: bool = False  # ... or are allocated like attacks, with Precision
    hit_fails_on: int = 1  # unmodified hit rolls 1..X fail (10.07 indirect shooting)
    #: the Feel No Pain against this line's mortal wounds (Devastating Wounds): the
    #: effects' and those against mortal wounds only (``Effect.fnp_mortal``)
    fnp_mortal: int | None = None

    @cached_property
    def numbers(self) -> tuple[Any, ...]:
        """The line's numbers: its fields but ``FIGURES_IGNORE``, its arrays (float64,
        one dimension) by content (``figures.FiguresInputs``: made once per line, cached
        on it; a batch shares its lines, ``resolve_weapon``)."""
        values = self.__dict__
        return (_numbers(values), *(values[a].tobytes() for a in _ARRAYS))

    @classmethod
    def from_numbers(cls, numbers: tuple[Any, ...], name: str) -> ResolvedWeapon:
        """The line of these ``numbers`` (``numbers``), named ``name``, without texts,
        and what no figure reads (``FIGURES_IGNORE``) empty: the figures of a matchup are
        computed from such lines (``figures.FiguresInputs``), so they read nothing else."""
        values = dict(zip(_NUMBER_FIELDS, numbers[0], strict=True))
        for a, content in zip(_ARRAYS, numbers[1:], strict=True):
            values[a] = np.frombuffer(content)  # read only
        return cls.made(name=name, count=0, strength=0, toughness=0, hazardous=False,
                        explanations={}, notes=(), not_calculated=(), **values)

    @classmethod
    def made(cls, **values: Any) -> ResolvedWeapon:
        """The record with every field given (``model.trusted.made``: its ``__dict__``
        set at once instead of the frozen ``__init__``'s one ``object.__setattr__`` per
        field, 34 of them, about 5 us per weapon line). Still frozen;
        ``dataclasses.replace`` goes through ``__init__``."""
        return frozen_made(cls, values)


#: What no figure reads of a resolved line (``ResolvedWeapon.numbers``): its labels and
#: texts, and what only the stages before it read (Strength and Toughness: the wound
#: roll's numbers are kept) or only the result document (the models' count and
#: Hazardous: the hazard rolls, 06.03). A new field is read unless named here.
FIGURES_IGNORE = frozenset({"name", "explanations", "notes", "not_calculated", "strength",
                            "toughness", "count", "hazardous"})
_ARRAYS = ("attacks_pmf", "damage_pmf", "mortal_pmf")
_NUMBER_FIELDS = tuple(f.name for f in fields(ResolvedWeapon)
                       if f.name not in FIGURES_IGNORE and f.name not in _ARRAYS)
_numbers = itemgetter(*_NUMBER_FIELDS)


class LineInputs(NamedTuple):
    """Everything a resolved line reads: its stages' records and what the line reads
    besides (a batch resolves each line once for the matchups whose records are equal;
    the record is the key, issue 42)."""

    attacks: AttackInputs
    hit: HitInputs
    damage: DamageInputs
    wound: WoundInputs
    save: SaveInputs
    not_calculated: tuple[str, ...]
    precision: bool  # has Precision, and the target a CHARACTER
    hazardous: bool

    @classmethod
    def of(cls, inp: WeaponInputs) -> LineInputs:
        """The record of the line ``inp``."""
        flags = inp.flags
        return cls(AttackInputs.of(inp), HitInputs.of(inp), DamageInputs.of(inp),
                   WoundInputs.of(inp), SaveInputs(inp.weapon.AP, inp.effects),
                   _not_calculated(flags, inp.abilities, inp.circumstances.indirect is None),
                   "Precision" in flags and any(g.character for g in inp.scenario.target.models),
                   "Hazardous" in flags)


#: The run's table of resolved lines in its memo (``LineInputs`` -> ``ResolvedWeapon``).
_LINES = ("resolved lines",)


def resolve_weapon(
    weapon: WeaponLine, scenario: Scenario, rules: RuleSet, effects: tuple[Effect, ...],
    memo: dict[Any, Any] | None = None, models: int | None = None,
) -> ResolvedWeapon:
    """Decide every number of ``weapon``'s attack sequence (reference facts §4-§6), one
    roll at a time (``combat.stages``); ``models``: the target's models at the Select
    Targets step, if not all of them (``WeaponInputs.of``). ``memo``: a batch's
    (``batch.figures_each``), in which the resolved line is cached under its
    ``LineInputs`` record, and each stage under its own record (``AttackInputs``,
    ``HitInputs``, ``WoundInputs``, ``DamageInputs``): made once for every target and
    attacker that gives the same record."""
    rec = LineInputs.of(WeaponInputs.of(weapon, scenario, rules, effects, models))
    if memo is None:
        return _resolved(rec, None)
    lines = memo.get(_LINES)
    if lines is None:
        lines = memo[_LINES] = {}
    line: ResolvedWeapon | None = lines.get(rec)
    if line is None:
        line = lines[rec] = _resolved(rec, memo)
    return line


def _resolved(rec: LineInputs, memo: dict[Any, Any] | None) -> ResolvedWeapon:
    """The resolved line of ``rec``, each stage cached in ``memo`` under its record."""
    if memo is None:
        stages = (attack_dice(rec.attacks), hit_roll(rec.hit), damage_stage(rec.damage),
                  wound_roll(rec.wound))
    else:
        stages = (_cached(attack_dice, rec.attacks, memo), _cached(hit_roll, rec.hit, memo),
                  _cached(damage_stage, rec.damage, memo),
                  _cached(wound_roll, rec.wound, memo))
    return _record(rec, stages, save_stage(rec.save))


#: No attack dice, for certain (read only: shared by every line out of range).
_NO_DICE = np.ones(1)
_NO_DICE.flags.writeable = False


def out_of_range(w: ResolvedWeapon, weapon_range: int, distance: float) -> ResolvedWeapon:
    """04.02 Select Targets: a weapon can only target a unit within its range (the rule
    set's ``in_range``). ``w`` beyond it gathers no attack dice: none to hit, wound or
    save, no hazard roll (06.03: a weapon that cannot target the unit is not selected to
    attack), no Lethal Hits choice or Precision to declare; the result names it under
    ``not_calculated``."""
    return replace(
        w, attacks_pmf=_NO_DICE, lethal_hits=False, precision=False, hazardous=False,
        explanations={**w.explanations, "attacks": f"no attacks: out of range "
                      f"({weapon_range}\" weapon, target at {distance:g}\"; 04.02)"},
        notes=(), not_calculated=(range_note(w.name, distance),))


def range_note(weapon: str, distance: float) -> str:
    """What the result's ``not_calculated`` says of a line out of range.

    >>> range_note("Bolt Rifle", 30.0)
    'Bolt Rifle: out of range at 30"'
    """
    return f"{weapon}: out of range at {distance:g}\""


@lasting_cache(maxsize=4096)
def _not_calculated(flags: frozenset[str], abilities: tuple[WeaponAbility, ...],
                    visible: bool) -> tuple[str, ...]:
    """What the engine does not compute of the line's abilities: its flags that are
    eligibility rules (``NOT_MODELLED``), then ``_unmodelled`` (``visible``: no indirect
    fire at an unseen target). Cached by value: a line's abilities meet many targets."""
    out = [NOT_MODELLED[f] for f in sorted(flags) if f in NOT_MODELLED]
    out += [f"{a}: {reason}" for a, reason in _unmodelled(flags, abilities, visible)]
    return tuple(out)


def _record(rec: LineInputs, stages: tuple[AttackDice, HitRoll, DamageStage, WoundRoll],
            save: SaveStage) -> ResolvedWeapon:
    """The resolved line of ``rec`` from its stages' answers (the answers to its stage
    records: a function of ``rec`` alone)."""
    attacks, hit, damage, wound = stages
    precision = rec.precision
    return ResolvedWeapon.made(
        name=rec.attacks.name,
        count=rec.attacks.copies,
        attacks_pmf=attacks.pmf,
        torrent=hit.torrent,
        skill=hit.skill,
        hit_modifier=hit.modifier,
        critical_hit=hit.critical,
        snap_shooting=hit.snap_shooting,
        hit_reroll=hit.reroll,
        sustained=hit.sustained,
        lethal_hits=hit.lethal,
        lethal_mandatory=not rec.attacks.rules.lethal_hits_optional,
        strength=wound.strength,
        toughness=wound.toughness,
        wound_needed=wound.needed,
        wound_modifier=wound.modifier,
        critical_wound=wound.critical,
        wound_reroll=wound.reroll,
        devastating=wound.devastating,
        ap=save.ap,
        damage_pmf=damage.damage_pmf,
        mortal_pmf=damage.mortal_pmf,
        fnp_effect=damage.fnp_effect,
        fnp_mortal=damage.fnp_mortal,
        save_modifier=save.modifier,
        save_reroll=save.reroll,
        circumstances=rec.hit.circumstances,
        precision=precision,
        hazardous=rec.hazardous,
        explanations={"attacks": attacks.explanation, "hit": hit.explanation,
                      "wound": wound.explanation, "damage": damage.explanation},
        notes=attacks.notes + hit.notes,
        not_calculated=rec.not_calculated + hit.not_calculated,
        snap_hit_on=hit.snap_hit_on,
        mortal_afresh=damage.mortal_afresh,
        mortal_precision=precision and not damage.mortal_afresh,
        hit_fails_on=hit.fails_on,
    )


def _cached(stage: Callable[[R], T], record: R, memo: dict[Any, Any]) -> T:
    """``stage(record)``, cached in the run's ``memo`` under ``record`` (what the stage
    reads, and nothing else), in a table of the stage's own (records of two stages are
    never compared). The stages' answers are immutable records (their arrays are never
    written): shared as they are."""
    key = ("stage", stage)
    table = memo.get(key)
    if table is None:
        table = memo[key] = {}
    got: T | None = table.get(record)
    if got is not None:
        return got
    got = table[record] = stage(record)
    for part in got if isinstance(got, tuple) else ():
        if isinstance(part, np.ndarray):
            part.flags.writeable = False  # shared from now on: never written
    return got


def _unmodelled(flags: frozenset[str], abilities: tuple[WeaponAbility, ...],
                visible: bool) -> list[tuple[str, str]]:
    """Weapon abilities the engine carries but does not compute (``model.abilities``'
    ``NamedWeaponRule``, Hunter), and Indirect Fire at a visible target."""
    out = [(str(a), a.reason) for a in abilities if isinstance(a, NamedWeaponRule)]
    if "Indirect Fire" in flags and visible:
        out.append(("Indirect Fire", "the target is taken to be visible (context.indirect "
                    "unset): an ordinary attack"))
    return out


def _reroll_success(p: float, policy: RerollPolicy, p_one: float = 1 / 6) -> float:
    if policy is None:
        return p
    if policy == "ones":
        return p + p_one * p
    return p + (1 - p) * p  # "failed" and "any": a failed save is re-rolled


class Saves(Protocol):
    """What a save roll needs of the models it is made for (a target entry or an
    allocation group): the Sv and invulnerable save characteristics."""

    @property
    def Sv(self) -> int: ...

    @property
    def invuln(self) -> int | None: ...


def _armour(group: Saves, w: ResolvedWeapon, rules: RuleSet) -> tuple[int, int]:
    """The save's modifier (10th: improvement capped at +1, cover inside the cap; 11th:
    no cap, 02.02.01) and the armour save it leaves: Sv - AP - modifier."""
    mod = rules.save_modifier(w.save_modifier + rules.save_bonus(w.circumstances, group.Sv,
                                                                  w.ap))
    return mod, group.Sv - w.ap - mod


def _needed(armour: int, invuln: int | None) -> int:
    """The better of the armour save and the invulnerable save, never better than 2+
    (02.02.01); 7 when no roll saves."""
    best = invuln if invuln is not None and invuln < armour else armour
    return min(7, max(2, best))


def save_needed(group: Saves, w: ResolvedWeapon, rules: RuleSet) -> int:
    """The unmodified roll a save against ``group`` needs before re-rolls: the better of
    the armour save (after AP and modifiers) and the invulnerable save (``_needed``)."""
    return _needed(_armour(group, w, rules)[1], group.invuln)


def _chance(needed: int, reroll: RerollPolicy) -> float:
    return _reroll_success(max(0, 7 - needed) / 6, reroll)


def save_chance(group: Saves, w: ResolvedWeapon, rules: RuleSet) -> float:
    """P(saved), ``save_probability`` without its explanation (a packet's save, made for
    every line of every calculation)."""
    return _chance(save_needed(group, w, rules), w.save_reroll)


def save_probability(group: Saves, w: ResolvedWeapon, rules: RuleSet) -> tuple[float, str]:
    """Saving Throw: roll + AP + modifiers (10th: improvement capped at +1, cover inside
    the cap; 11th: no cap, 02.02.01) >= Sv, or the roll >= the invulnerable save (AP and
    modifiers don't apply); the defender uses the better; Sv and InSv "cannot be 1+ or
    better" (02.02.01) and an unmodified 1 fails. Returns (P(saved), explanation)."""
    mod, armour = _armour(group, w, rules)
    text = f"AP{w.ap} vs Sv{group.Sv}+" + (f" {mod:+d}" if mod else "") + f": {armour}+"
    if group.invuln is not None and group.invuln < armour:
        text += f", invulnerable {group.invuln}++ used"
    return _chance(_needed(armour, group.invuln), w.save_reroll), text
