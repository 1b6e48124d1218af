"""Brute-force oracle: every die of a small scenario rolled explicitly, exactly.

This module is a *witness* for ``tactica.combat.exact.engine``: it is written from the rules
decisions (``shared/spec/reference_facts.md`` §3–§5 and the scenario contract), never
from the engine. It keeps an exact distribution over complete game states (``Dist``)
and pushes it through the attack sequence one die at a time, in the order the rules
resolve things:

1. for each weapon line, in the order given:
   a. gather attack dice (none for a line whose range the target is beyond, 04.02):
      roll A for each copy, plus Rapid Fire X within half range, plus Blast (X per
      five models the target had at the start: in a sequence, the models alive when
      the step starts, the unit's Select Targets step), plus ``attacks`` effects; at
      least 1 per copy;
   b. one hit roll per attack die (Torrent: automatic, never critical); re-rolls first,
      then critical hits, Sustained Hits (extra, non-critical hits), Lethal Hits
      (automatic, non-critical wounds);
   c. one wound roll per hit (S against T table, Anti, Lance, capped modifiers,
      Twin-linked); a critical wound of a Devastating Wounds weapon becomes a queued
      packet;
   d. the allocation order is declared (§5.1; Precision §5.2), then
      - 10th: each wounding attack, one at a time, goes to the current allocation group:
        save roll with that group's characteristics, then
      - 11th (§6.2, 05.04): all the line's save rolls are made together, each D6
        re-rolled before sorting (``failed``: against the model current while they are
        rolled), and resolved from the lowest to the highest, each against the current
        allocation group at that moment, then
      for a failed save: damage roll, Feel No Pain for each wound point, damage beyond
      the model's remaining wounds lost;
   e. hazard rolls, one per Hazardous copy;
   f. 11th (§6.3, 24.10): the line's Devastating Wounds packets, in the order scored,
      mortal wounds to one model per packet;
2. 10th, after every weapon: the Devastating Wounds packets in the order they were
   scored (unsaveable attacks allocated like any other).

No step uses a closed form: every die (each D6, each D3 of a ``D3+1``) is enumerated
face by face; identical states are merged after every die so the enumeration stays
small. It is only meant for small scenarios (a handful of attack dice, a few models).
Two things keep it fast without changing what is computed: probabilities are integer
weights over a common total (exact, like Fractions, but cheaper), and the counters that
never influence what happens next (attacks, hits, wounds, unsaved, hazard mortal
wounds) are tracked one per run, the same enumeration being run once for each, rather
than jointly (the joint state space would be their product).

The one policy choice, 11th-edition Lethal Hits (optional), is taken per weapon line as
the rules decision says ("whichever gives the higher expected damage for that weapon
against that target"): for a weapon without Devastating Wounds the automatic wound
dominates rolling (a critical wound does nothing else), so it is always taken; for a
weapon with Devastating Wounds the oracle enumerates a scenario holding only that
weapon line both ways and takes the option with the higher expected damage (ties: take
it). ``lethal_choice`` overrides the decision.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, cached_property
from itertools import product
from typing import Literal, NamedTuple, TypedDict, TypeVar, get_args

from tactica.combat.contract.scenario import Scenario, WeaponLine
from tactica.dice import DiceExpr
from tactica.model.abilities import (
    Anti,
    Blast,
    Flag,
    Melta,
    RapidFire,
    SustainedHits,
    WeaponAbility,
)

__all__ = [
    "PMF_KEYS",
    "OracleResult",
    "PmfKey",
    "brute_force",
    "lethal_alternatives",
    "mean",
    "optional_lethal_lines",
    "wound_target",
]

T = TypeVar("T")
Branches = list[tuple[Fraction, T]]
Reroll = Literal["ones", "failed"] | None
HitResult = Literal["miss", "hit", "critical"]

ONE = Fraction(1)

PmfKey = Literal[
    "attacks",
    "hits",
    "wounds",
    "unsaved",
    "damage",
    "models_destroyed",
    "attacker_mortal_wounds",
]
#: The distributions the oracle returns, as in the result document.
PMF_KEYS: tuple[PmfKey, ...] = get_args(PmfKey)

#: Weapon abilities the oracle does not model (never generated). Assault, Pistol,
#: Close-quarters, Extra Attacks and One Shot change nothing inside one attack sequence.
_UNSUPPORTED_FLAGS = frozenset({"Psychic", "Indirect Fire"})


class OracleResult(TypedDict):
    attacks: dict[int, Fraction]
    hits: dict[int, Fraction]
    wounds: dict[int, Fraction]
    unsaved: dict[int, Fraction]
    damage: dict[int, Fraction]
    models_destroyed: dict[int, Fraction]
    attacker_mortal_wounds: dict[int, Fraction]
    p_unit_destroyed: Fraction


def mean(pmf: Mapping[int, Fraction]) -> Fraction:
    return sum((value * p for value, p in pmf.items()), Fraction(0))


# --- dice, rolled face by face ---------------------------------------------------------


def _merge(branches: Branches[T]) -> Branches[T]:
    merged: dict[T, Fraction] = defaultdict(Fraction)
    for p, value in branches:
        merged[value] += p
    return [(p, value) for value, p in merged.items()]


def d6() -> Branches[int]:
    return [(Fraction(1, 6), face) for face in range(1, 7)]


def d6_rerolled(reroll: Callable[[int], bool]) -> Branches[int]:
    """One D6, rolled again once if ``reroll(first roll)``; the value is the final
    unmodified roll (§4.5: re-rolls happen before modifiers, at most once per die)."""
    out: Branches[int] = []
    for p, first in d6():
        if reroll(first):
            out.extend((p * q, second) for q, second in d6())
        else:
            out.append((p, first))
    return out


@cache
def roll(expr: DiceExpr | None) -> Branches[int]:
    """Every total of a dice expression (``None`` is 0), each die rolled face by face."""
    if expr is None:
        return [(ONE, 0)]
    outcomes: Branches[int] = [(ONE, expr.plus)]
    for _ in range(expr.n):
        outcomes = _merge(
            [
                (p / expr.sides, total + face)
                for p, total in outcomes
                for face in range(1, expr.sides + 1)
            ]
        )
    return outcomes


# --- the target: models, allocation groups, allocation order ---------------------------


@dataclass(frozen=True)
class Model:
    W: int
    Sv: int
    invuln: int | None
    fnp: int | None
    character: bool
    start: int  # wounds remaining at the start


@dataclass(frozen=True)
class Group:
    models: tuple[int, ...]  # indices into ``Target.models``, in the order listed
    character: bool


Alive = tuple[int, ...]  # wounds remaining on each model, 0 = destroyed


@dataclass(frozen=True)
class Target:
    """The target as the oracle sees it: one entry per model, in the order listed."""

    models: tuple[Model, ...]
    groups: tuple[Group, ...]
    toughness: int
    keywords: frozenset[str]
    model_count: int

    @classmethod
    def of(cls, scenario: Scenario) -> Target:
        fnp_effects = [e.fnp for e in scenario.plain_effects if e.fnp is not None]
        models: list[Model] = []
        groups: list[Group] = []
        by_profile: dict[tuple[int, int, int | None], int] = {}
        for entry in scenario.target.models:
            fnps = [f for f in [entry.fnp, *fnp_effects] if f is not None]
            for i in range(entry.count):
                index = len(models)
                models.append(
                    Model(
                        W=entry.W,
                        Sv=entry.Sv,
                        invuln=entry.invuln,
                        fnp=min(fnps) if fnps else None,
                        character=entry.character,
                        start=entry.W - (entry.wounds_lost if i == 0 else 0),
                    )
                )
                # §4.8: each CHARACTER model is its own group; other models are grouped
                # by identical (W, Sv, invulnerable save), entries merging.
                if entry.character:
                    groups.append(Group((index,), character=True))
                    continue
                key = (entry.W, entry.Sv, entry.invuln)
                if key in by_profile:
                    g = by_profile[key]
                    groups[g] = Group((*groups[g].models, index), character=False)
                else:
                    by_profile[key] = len(groups)
                    groups.append(Group((index,), character=False))
        entries = scenario.target.models
        bodyguard = [e.T for e in entries if not e.character]
        # §4.9 / §5.3: an attached unit uses its bodyguard's highest T, fixed at the start.
        toughness = max(bodyguard) if bodyguard else max(e.T for e in entries)
        return cls(
            models=tuple(models),
            groups=tuple(groups),
            toughness=toughness,
            keywords=frozenset(scenario.target.keywords),
            model_count=len(models),
        )

    @property
    def start(self) -> Alive:
        return tuple(m.start for m in self.models)

    def wounded(self, alive: Alive, m: int) -> bool:
        return 0 < alive[m] < self.models[m].W

    def group_wounded(self, alive: Alive, g: int) -> bool:
        return any(self.wounded(alive, m) for m in self.groups[g].models)

    def group_alive(self, alive: Alive, g: int) -> bool:
        return any(alive[m] > 0 for m in self.groups[g].models)

    def allocation_order(self, alive: Alive, precision: bool) -> tuple[int, ...]:
        """§4.8 / §5.1: non-CHARACTER groups holding a wounded model, the other
        non-CHARACTER groups, then CHARACTER groups, wounded first; each in the order
        given. §5.2 Precision: the first living CHARACTER group goes to the front."""
        ids = range(len(self.groups))
        others = [g for g in ids if not self.groups[g].character]
        characters = [g for g in ids if self.groups[g].character]
        order = [
            *(g for g in others if self.group_wounded(alive, g)),
            *(g for g in others if not self.group_wounded(alive, g)),
            *(g for g in characters if self.group_wounded(alive, g)),
            *(g for g in characters if not self.group_wounded(alive, g)),
        ]
        if precision:
            living = [g for g in order if self.groups[g].character and self.group_alive(alive, g)]
            if living:
                order.remove(living[0])
                order.insert(0, living[0])
        return tuple(order)

    def allocated_model(self, alive: Alive, order: tuple[int, ...]) -> int | None:
        """The model the next attack goes to: the current group is the first one in the
        declared order with a living model (§5.1); in it, a wounded model first, then
        the models in the order listed. ``None`` once the target is destroyed."""
        for g in order:
            members = [m for m in self.groups[g].models if alive[m] > 0]
            if members:
                wounded = [m for m in members if self.wounded(alive, m)]
                return (wounded or members)[0]
        return None

    def mortal_wound_model(self, alive: Alive) -> int | None:
        """§4.10 (06.02): a wounded non-CHARACTER model, else any non-CHARACTER model,
        else a wounded CHARACTER model, else any CHARACTER model (each in listed order)."""
        living = [m for m in range(self.model_count) if alive[m] > 0]
        for character in (False, True):
            kind = [m for m in living if self.models[m].character == character]
            wounded = [m for m in kind if self.wounded(alive, m)]
            if wounded or kind:
                return (wounded or kind)[0]
        return None


@cache
def lose_wounds(alive: Alive, model: int, amount: int, fnp: int | None) -> Branches[Alive]:
    """``amount`` wounds to ``model``, one at a time: a Feel No Pain roll for each (§4.7);
    once the model is destroyed the rest is lost (never spills to another model)."""
    branches: dict[Alive, Fraction] = {alive: ONE}
    for _ in range(amount):
        nxt: dict[Alive, Fraction] = defaultdict(Fraction)
        for state, p in branches.items():
            if state[model] == 0:
                nxt[state] += p
                continue
            lost = (*state[:model], state[model] - 1, *state[model + 1 :])
            if fnp is None:
                nxt[lost] += p
                continue
            for q, r in d6():
                nxt[state if r >= fnp else lost] += p * q
        branches = nxt
    return [(p, state) for state, p in branches.items()]


# --- one weapon line, with every modifier worked out -----------------------------------


def _clamp(value: int) -> int:
    return max(-1, min(1, value))


def _combined_reroll(kinds: Sequence[str]) -> Reroll:
    if "any" in kinds:
        raise NotImplementedError('re-roll "any" is a policy choice; the oracle has none')
    if "failed" in kinds:
        return "failed"
    return "ones" if "ones" in kinds else None


def wound_target(strength: int, toughness: int) -> int:
    """§3: the wound roll needed."""
    if strength >= 2 * toughness:
        return 2
    if strength > toughness:
        return 3
    if strength == toughness:
        return 4
    if 2 * strength <= toughness:
        return 6
    return 5


@dataclass(frozen=True)
class Weapon:
    """One weapon line against one target, with every modifier already summed."""

    index: int
    count: int
    attacks: DiceExpr
    rapid_fire: DiceExpr | None
    flat_attacks: int  # Blast + ``attacks`` effects, per copy
    torrent: bool
    snap_shooting: bool
    skill: int
    hit_modifier: int
    critical_hit: int
    hit_reroll: Reroll
    sustained: DiceExpr | None
    lethal: bool
    to_wound: int
    wound_modifier: int
    critical_wound: int
    wound_reroll: Reroll
    devastating: bool
    ap: int
    save_modifier: int  # the ``save`` effects (before the +1 cap)
    cover_save: bool  # 10th: the target's cover adds 1 to armour saves
    save_reroll: Reroll
    damage: DiceExpr
    melta: DiceExpr | None
    damage_bonus: int
    half_damage: bool
    damage_reduction: int
    precision: bool
    hazardous: bool
    hazard_fails: int  # a hazard roll at or below this fails
    hazard_mw: int  # mortal wounds per failed hazard roll
    save_cap: int | None = 1  # §6.1: 11th caps no save-roll modifier

    def hit_result(self, r: int) -> HitResult:
        if self.snap_shooting:  # only an unmodified 6 hits (a critical hit)
            return "critical" if r == 6 else "miss"
        if r == 1:
            return "miss"
        if r >= self.critical_hit:
            return "critical"
        return "hit" if r + self.hit_modifier >= self.skill else "miss"

    def rerolls_hit(self, r: int) -> bool:
        if self.hit_reroll == "ones":
            return r == 1
        return self.hit_reroll == "failed" and self.hit_result(r) == "miss"

    @cached_property
    def hit_dice(self) -> Branches[HitResult]:
        """One hit roll, face by face (re-roll included), as miss / hit / critical."""
        return _merge([(p, self.hit_result(r)) for p, r in d6_rerolled(self.rerolls_hit)])

    def wound_result(self, r: int) -> HitResult:
        if r == 1:
            return "miss"
        if r >= self.critical_wound:
            return "critical"
        return "hit" if r + self.wound_modifier >= self.to_wound else "miss"

    def rerolls_wound(self, r: int) -> bool:
        if self.wound_reroll == "ones":
            return r == 1
        return self.wound_reroll == "failed" and self.wound_result(r) == "miss"

    @cached_property
    def wound_dice(self) -> Branches[HitResult]:
        """One wound roll, face by face (re-roll included), as fail / wound / critical."""
        return _merge([(p, self.wound_result(r)) for p, r in d6_rerolled(self.rerolls_wound)])

    def save_needed(self, model: Model) -> int:
        """§4.6: roll + AP + modifier (improvement capped at +1) against Sv, or the roll
        against the invulnerable save; the defender uses the better (lower) one."""
        cover = self.cover_save and not (model.Sv <= 3 and self.ap == 0)
        modifier = self.save_modifier + (1 if cover else 0)
        modifier = modifier if self.save_cap is None else min(self.save_cap, modifier)
        armour = model.Sv - self.ap - modifier
        invuln = model.invuln if model.invuln is not None else 7
        return min(armour, invuln)

    def save_rolls(self, model: Model) -> Branches[bool]:
        """Whether the save succeeds (an unmodified 1 fails), the defender's re-rolls
        included."""
        needed = self.save_needed(model)

        def saved(r: int) -> bool:
            return r != 1 and r >= needed

        def reroll(r: int) -> bool:
            if self.save_reroll == "ones":
                return r == 1
            return self.save_reroll == "failed" and not saved(r)

        return _merge([(p, saved(r)) for p, r in d6_rerolled(reroll)])

    @cached_property
    def attack_damage(self) -> Branches[int]:
        """§4.7 / §5.6: D rolled, plus Melta and positive ``damage`` effects, halved
        rounding up, minus reductions, at least 1."""
        out: Branches[int] = []
        for p, d in roll(self.damage):
            for q, extra in roll(self.melta):
                value = d + extra + self.damage_bonus
                if self.half_damage:
                    value = math.ceil(value / 2)
                out.append((p * q, max(1, value - self.damage_reduction)))
        return _merge(out)

    @cached_property
    def mortal_packet(self) -> Branches[int]:
        """11th Devastating Wounds (§5.5): D rolled plus Melta and positive ``damage``
        effects; not halved, not reduced."""
        return _merge(
            [
                (p * q, d + extra + self.damage_bonus)
                for p, d in roll(self.damage)
                for q, extra in roll(self.melta)
            ]
        )


def weapon_abilities(scenario: Scenario, line: WeaponLine) -> tuple[WeaponAbility, ...]:
    """The line's abilities plus those granted by ``{"grant": ...}`` effects."""
    granted = tuple(e.grant for e in scenario.plain_effects if e.grant is not None)
    return (*line.abilities, *granted)


def _flags(abilities: tuple[WeaponAbility, ...]) -> frozenset[str]:
    return frozenset(a.name for a in abilities if isinstance(a, Flag))


def _only(kind: type[T], abilities: tuple[WeaponAbility, ...]) -> T | None:
    found = [a for a in abilities if isinstance(a, kind)]
    if len(set(found)) > 1:
        raise NotImplementedError(f"several {kind.__name__} abilities on one weapon")
    return found[0] if found else None


def plan_weapon(
    scenario: Scenario, index: int, line: WeaponLine, target: Target, lethal: bool,
    alive: int | None = None,
) -> Weapon:
    """Work out every number of one weapon line (§4, §5.6, §5.7, §5.11); ``alive``: the
    target's models alive when the attacking unit selects its targets (default: all)."""
    if scenario.named_effects:
        raise NotImplementedError("named effects are not plain modifiers")
    effects = scenario.plain_effects
    for e in effects:
        if e.reroll in ("damage", "attacks"):
            raise NotImplementedError("damage and attack re-rolls are policy choices")
    abilities = weapon_abilities(scenario, line)
    flags = _flags(abilities)
    if flags & _UNSUPPORTED_FLAGS:
        raise NotImplementedError(f"unsupported abilities {sorted(flags & _UNSUPPORTED_FLAGS)}")
    eleventh = scenario.rules == "11th"
    context = scenario.context
    ranged = scenario.phase == "shooting"
    half_range = context.half_range(line.range)
    # 04.02 Select Targets: a weapon can only target a unit within its range; beyond it
    # the line gathers no attack dice (so it makes no hazard roll either)
    beyond = isinstance(line.range, int) and context.distance is not None \
        and context.distance > line.range
    ignores_cover = "Ignores Cover" in flags

    def total(name: str) -> int:
        return sum(getattr(e, name) or 0 for e in effects)

    def lowest(name: str) -> int:
        return min([6, *(int(getattr(e, name)) for e in effects if getattr(e, name) is not None)])

    def reroll(stage: str) -> Reroll:
        return _combined_reroll([e.which or "" for e in effects if e.reroll == stage])

    snap = any(e.snap_shooting for e in effects)
    monster_or_vehicle = bool({"MONSTER", "VEHICLE"} & set(scenario.attacker.keywords))
    # 11th: cover (or Stealth) worsens BS by 1 for ranged attacks, not cumulative.
    cover_skill = eleventh and ranged and (context.cover or context.stealth) and not ignores_cover
    # 10th: Stealth is -1 to hit (ranged); cover is +1 to armour saves (ranged).
    stealth_hit = -1 if (not eleventh and ranged and context.stealth) else 0
    heavy_hit = 1 if ("Heavy" in flags and context.remained_stationary
                      and not context.arrived_from_reserves
                      and (not eleventh or (ranged and not context.engaged))) else 0  # §6.5
    lance_wound = 1 if ("Lance" in flags and context.charged) else 0

    blast = _only(Blast, abilities)
    rapid_fire = _only(RapidFire, abilities)
    melta = _only(Melta, abilities)
    sustained = _only(SustainedHits, abilities)
    anti = [a.threshold for a in abilities if isinstance(a, Anti) and a.keyword in target.keywords]
    damage_effects = [e.damage for e in effects if e.damage is not None]
    hit_reroll = reroll("hit")
    if snap and eleventh:
        hit_reroll = None  # 11th snap shooting: hit re-rolls are not allowed

    return Weapon(
        index=index,
        count=0 if beyond else line.count,
        attacks=line.A,
        rapid_fire=rapid_fire.extra if (rapid_fire and half_range) else None,
        flat_attacks=(blast.extra * ((target.model_count if alive is None else alive) // 5)
                      if blast else 0) + total("attacks"),
        torrent="Torrent" in flags,
        snap_shooting=snap,
        skill=_bounded(eleventh, (line.skill or 0) + total("skill") + (1 if cover_skill else 0)),
        hit_modifier=_clamp(total("hit") + heavy_hit + stealth_hit),
        critical_hit=lowest("critical_hit_on"),
        hit_reroll=hit_reroll,
        sustained=sustained.hits if sustained else None,
        lethal="Lethal Hits" in flags and lethal,
        to_wound=wound_target(max(1, line.S + total("strength")), target.toughness),
        wound_modifier=_clamp(total("wound") + lance_wound),
        critical_wound=min([lowest("critical_wound_on"), *anti]),
        wound_reroll=_combined_reroll(
            [e.which or "" for e in effects if e.reroll == "wound"]
            + (["failed"] if "Twin-linked" in flags else [])
        ),
        devastating="Devastating Wounds" in flags,
        ap=min(0, line.AP + total("ap")),
        save_modifier=total("save"),
        cover_save=(not eleventh) and ranged and context.cover and not ignores_cover,
        save_reroll=reroll("save"),
        damage=line.D,
        melta=melta.extra if (melta and half_range) else None,
        damage_bonus=sum(d for d in damage_effects if d > 0),
        half_damage=scenario.target.half_damage,
        damage_reduction=scenario.target.damage_reduction - sum(d for d in damage_effects if d < 0),
        precision="Precision" in flags,
        hazardous="Hazardous" in flags,
        # 11th: fails on 1-2, 1 MW (3 for MONSTER/VEHICLE units); 10th: fails on 1, 3 MW
        hazard_fails=2 if eleventh else 1,
        hazard_mw=3 if (not eleventh or monster_or_vehicle) else 1,
        save_cap=None if eleventh else 1,
    )


def _bounded(eleventh: bool, skill: int) -> int:
    """§6.1: 11th BS/WS stay within 2+..6+ after all modifiers."""
    return max(2, min(6, skill)) if eleventh else skill


@cache
def allocated_attack(w: Weapon, model: Model, m: int, alive: Alive) -> Branches[tuple[int, Alive]]:
    """One attack allocated to model ``m``: its save roll (§4.6, the model's Sv and
    invulnerable save), and if that fails its damage roll and Feel No Pain rolls. The
    value is (1 if unsaved else 0, the target's wounds afterwards)."""
    out: Branches[tuple[int, Alive]] = []
    for p, saved in w.save_rolls(model):
        if saved:
            out.append((p, (0, alive)))
            continue
        for q, damage in w.attack_damage:
            for f, after in lose_wounds(alive, m, damage, model.fnp):
                out.append((p * q * f, (1, after)))
    return _merge(out)


@cache
def failed_save(w: Weapon, model: Model, m: int, alive: Alive) -> Branches[Alive]:
    """A failed save of model ``m``: the damage roll and Feel No Pain rolls."""
    return _merge([(q * f, after) for q, damage in w.attack_damage
                   for f, after in lose_wounds(alive, m, damage, model.fnp)])


# --- the enumeration ---------------------------------------------------------------------


class State(NamedTuple):
    """Everything the rest of the sequence or the result depends on."""

    alive: Alive
    attacks: int = 0
    hits: int = 0
    wounds: int = 0
    unsaved: int = 0
    attacker_mw: int = 0
    packets: tuple[int, ...] = ()  # Devastating Wounds packets queued (weapon index)
    # the weapon being resolved:
    to_hit: int = 0  # attack dice still to roll to hit
    to_wound: int = 0  # hits still to roll to wound
    auto_wounds: int = 0  # Lethal Hits
    to_allocate: int = 0  # wounding attacks still to allocate (10th) or to roll saves for
    saves: tuple[int, ...] = ()  # 11th: the save rolls made together, sorted, not resolved
    order: tuple[int, ...] = ()  # the declared allocation order
    dw_weapon: int = -1  # 10th: whose Devastating Wounds attacks are being allocated


@dataclass(frozen=True)
class Dist:
    """A distribution over states: P(state) = ``weights[state] / total``.

    Integer weights over one common total are exact, like Fractions, and many times
    faster to add and multiply."""

    weights: dict[State, int]
    total: int

    def probabilities(self) -> Iterator[tuple[State, Fraction]]:
        for state, weight in self.weights.items():
            yield state, Fraction(weight, self.total)


Step = Callable[[State], Branches[State]]
Keep = Callable[[State], State]

#: The counters of ``State`` that become a distribution of the result.
COUNTERS = ("attacks", "hits", "wounds", "unsaved", "attacker_mw")


def keeping(counter: str) -> Keep:
    """Forget every counter but ``counter`` (they never influence what happens next).

    Tracking all five counters jointly multiplies the number of states; the oracle
    instead runs the same enumeration once per counter, each run keeping one of them
    (and the target's state), and reads each distribution from its own run."""

    def keep(state: State) -> State:
        return state._replace(
            attacks=state.attacks if counter == "attacks" else 0,
            hits=state.hits if counter == "hits" else 0,
            wounds=state.wounds if counter == "wounds" else 0,
            unsaved=state.unsaved if counter == "unsaved" else 0,
            attacker_mw=state.attacker_mw if counter == "attacker_mw" else 0,
        )

    return keep


def advance(dist: Dist, step: Step, keep: Keep) -> Dist:
    """Push the whole distribution through one random event."""
    expanded = [(weight, step(state)) for state, weight in dist.weights.items()]
    scale = math.lcm(*(q.denominator for _, branches in expanded for q, _ in branches))
    out: dict[State, int] = defaultdict(int)
    for weight, branches in expanded:
        for q, nxt in branches:
            out[keep(nxt)] += weight * q.numerator * (scale // q.denominator)
    common = math.gcd(dist.total * scale, *out.values())
    return Dist({s: w // common for s, w in out.items()}, dist.total * scale // common)


def drain(dist: Dist, pending: Callable[[State], bool], step: Step, keep: Keep) -> Dist:
    """Apply ``step`` (one die) to every state for which ``pending`` holds, until none
    does."""

    def one(state: State) -> Branches[State]:
        return step(state) if pending(state) else [(ONE, state)]

    while any(pending(state) for state in dist.weights):
        dist = advance(dist, one, keep)
    return dist


def resolve_weapon(dist: Dist, w: Weapon, target: Target, keep: Keep, pooled: bool) -> Dist:
    """One weapon line, die by die: attack dice, hit rolls, wound rolls, then each
    wounding attack allocated, saved or not, and its damage; then hazard rolls.
    ``pooled`` (11th, §6.2): the save rolls of the line are made together and resolved
    from the lowest to the highest; otherwise one attack at a time (10th)."""

    def gather(s: State) -> Branches[State]:
        out: Branches[State] = []
        for p, a in roll(w.attacks):
            for q, extra in roll(w.rapid_fire):
                n = max(1, a + extra + w.flat_attacks)
                out.append((p * q, s._replace(attacks=s.attacks + n, to_hit=s.to_hit + n)))
        return out

    def hit_roll(s: State) -> Branches[State]:
        s = s._replace(to_hit=s.to_hit - 1)
        if w.torrent:  # automatic hit, never critical
            return [(ONE, s._replace(hits=s.hits + 1, to_wound=s.to_wound + 1))]
        out: Branches[State] = []
        for p, result in w.hit_dice:
            if result == "miss":
                out.append((p, s))
            elif result == "hit":
                out.append((p, s._replace(hits=s.hits + 1, to_wound=s.to_wound + 1)))
            else:
                hit = s._replace(hits=s.hits + 1)
                if w.lethal:
                    hit = hit._replace(auto_wounds=hit.auto_wounds + 1)
                else:
                    hit = hit._replace(to_wound=hit.to_wound + 1)
                for q, extra in roll(w.sustained):  # extra hits, not critical
                    out.append(
                        (p * q, hit._replace(hits=hit.hits + extra, to_wound=hit.to_wound + extra))
                    )
        return out

    def wound_roll(s: State) -> Branches[State]:
        s = s._replace(to_wound=s.to_wound - 1)
        out: Branches[State] = []
        for p, result in w.wound_dice:
            if result == "miss":
                out.append((p, s))
            elif result == "critical" and w.devastating:
                out.append((p, s._replace(wounds=s.wounds + 1, packets=(*s.packets, w.index))))
            else:
                out.append((p, s._replace(wounds=s.wounds + 1, to_allocate=s.to_allocate + 1)))
        return out

    def lethal_wounds(s: State) -> Branches[State]:
        n = s.auto_wounds
        return [
            (ONE, s._replace(auto_wounds=0, wounds=s.wounds + n, to_allocate=s.to_allocate + n))
        ]

    def declare(s: State) -> Branches[State]:
        return [(ONE, s._replace(order=target.allocation_order(s.alive, w.precision)))]

    def allocate(s: State) -> Branches[State]:
        s = s._replace(to_allocate=s.to_allocate - 1)
        m = target.allocated_model(s.alive, s.order)
        if m is None:  # §5.4: the target is destroyed, the attack does nothing
            return [(ONE, s)]
        return [
            (p, s._replace(alive=alive, unsaved=s.unsaved + unsaved))
            for p, (unsaved, alive) in allocated_attack(w, target.models[m], m, s.alive)
        ]

    # Two faces that every model saves alike on are interchangeable: each face is kept as
    # the lowest face it is interchangeable with (the sorted order is unchanged), so the
    # enumeration holds fewer distinct sets of rolls.
    def saved_by(r: int) -> tuple[bool, ...]:
        return tuple(r != 1 and r >= w.save_needed(model) for model in target.models)

    same_as = {r: min(f for f in range(1, 7) if saved_by(f) == saved_by(r)) for r in range(1, 7)}

    def roll_save(s: State) -> Branches[State]:
        """§6.2 (05.04): one of the save rolls made together, re-rolled before sorting
        (``failed``: against the model that takes the lowest die, i.e. the one current
        while the rolls are made); the rolls are kept sorted."""
        s = s._replace(to_allocate=s.to_allocate - 1)
        first = target.allocated_model(s.alive, s.order)
        needed = 7 if first is None else w.save_needed(target.models[first])

        def reroll(r: int) -> bool:
            if w.save_reroll == "ones":
                return r == 1
            return w.save_reroll == "failed" and (r == 1 or r < needed)

        return _merge([(p, s._replace(saves=tuple(sorted((*s.saves, same_as[r])))))
                       for p, r in d6_rerolled(reroll)])

    def resolve_lowest(s: State) -> Branches[State]:
        """§6.2: the lowest save roll left goes to the current allocation group, against
        its Sv (modified by AP) or InSv at that moment."""
        r, s = s.saves[0], s._replace(saves=s.saves[1:])
        m = target.allocated_model(s.alive, s.order)
        if m is None:  # §5.4
            return [(ONE, s)]
        if r != 1 and r >= w.save_needed(target.models[m]):
            return [(ONE, s)]
        return [(p, s._replace(alive=alive, unsaved=s.unsaved + 1))
                for p, alive in failed_save(w, target.models[m], m, s.alive)]

    def hazard_roll(s: State) -> Branches[State]:
        return [
            (p, s._replace(attacker_mw=s.attacker_mw + (w.hazard_mw if r <= w.hazard_fails else 0)))
            for p, r in d6()
        ]

    for _ in range(w.count):
        dist = advance(dist, gather, keep)
    dist = drain(dist, lambda s: s.to_hit > 0, hit_roll, keep)
    dist = drain(dist, lambda s: s.to_wound > 0, wound_roll, keep)
    dist = advance(dist, lethal_wounds, keep)
    dist = advance(dist, declare, keep)
    if pooled:
        dist = drain(dist, lambda s: s.to_allocate > 0, roll_save, keep)
        dist = drain(dist, lambda s: bool(s.saves), resolve_lowest, keep)
    else:
        dist = drain(dist, lambda s: s.to_allocate > 0, allocate, keep)
    if w.hazardous:
        for _ in range(w.count):
            dist = advance(dist, hazard_roll, keep)
    return advance(dist, lambda s: [(ONE, s._replace(order=()))], keep)


def resolve_devastating(
    dist: Dist, weapons: list[Weapon], target: Target, rules: str, keep: Keep
) -> Dist:
    """§4 / §5.5: the queued Devastating Wounds packets, after all normal damage, in the
    order they were scored."""

    def packet(s: State) -> Branches[State]:
        w = weapons[s.packets[0]]
        s = s._replace(packets=s.packets[1:])
        if not any(s.alive):  # §5.4
            return [(ONE, s)]
        if rules == "11th":
            # mortal wounds, one model at most, 06.02 selection, Precision ignored
            m = target.mortal_wound_model(s.alive)
            packets = w.mortal_packet
        else:
            # an unsaveable attack allocated like any other; a new weapon's attacks
            # declare the allocation order afresh (Precision applies)
            if s.dw_weapon != w.index:
                s = s._replace(
                    dw_weapon=w.index, order=target.allocation_order(s.alive, w.precision)
                )
            m = target.allocated_model(s.alive, s.order)
            packets = w.attack_damage
        assert m is not None
        s = s._replace(unsaved=s.unsaved + 1)
        model = target.models[m]
        return [
            (p * q, s._replace(alive=alive))
            for p, amount in packets
            for q, alive in lose_wounds(s.alive, m, amount, model.fnp)
        ]

    return drain(dist, lambda s: bool(s.packets), packet, keep)


def _run(scenario: Scenario, lethal: Mapping[int, bool], keep: Keep,
         start: State | None = None) -> Dist:
    """The whole attack sequence: every weapon line in order; the queued Devastating
    Wounds after each line (11th, §6.3: "after resolving any normal damage inflicted by
    those attacks") or after the last (10th, §4.10); from ``start`` (a sequence's earlier
    steps) or undamaged."""
    target = Target.of(scenario)
    alive = None if start is None else sum(1 for a in start.alive if a > 0)
    weapons = [
        plan_weapon(scenario, i, line, target, lethal.get(i, True), alive)
        for i, line in enumerate(scenario.attacker.weapons)
    ]
    dist = Dist({State(alive=target.start) if start is None else start: 1}, 1)
    eleventh = scenario.rules == "11th"
    for w in weapons:
        dist = resolve_weapon(dist, w, target, keep, pooled=eleventh)
        if eleventh:
            dist = resolve_devastating(dist, weapons, target, scenario.rules, keep)
    return resolve_devastating(dist, weapons, target, scenario.rules, keep)


def _pmf(pairs: Iterator[tuple[int, Fraction]]) -> dict[int, Fraction]:
    pmf: dict[int, Fraction] = defaultdict(Fraction)
    for value, p in pairs:
        pmf[value] += p
    return {value: p for value, p in sorted(pmf.items()) if p}


def _enumerate(scenario: Scenario, lethal: Mapping[int, bool]) -> OracleResult:
    target = Target.of(scenario)
    runs = {c: list(_run(scenario, lethal, keeping(c)).probabilities()) for c in COUNTERS}
    final = runs["unsaved"]  # every run tracks the target the same way
    start_wounds = sum(target.start)

    def destroyed(s: State) -> int:
        return sum(1 for a in s.alive if a == 0)

    return OracleResult(
        attacks=_pmf((s.attacks, p) for s, p in runs["attacks"]),
        hits=_pmf((s.hits, p) for s, p in runs["hits"]),
        wounds=_pmf((s.wounds, p) for s, p in runs["wounds"]),
        unsaved=_pmf((s.unsaved, p) for s, p in final),
        damage=_pmf((start_wounds - sum(s.alive), p) for s, p in final),
        models_destroyed=_pmf((destroyed(s), p) for s, p in final),
        attacker_mortal_wounds=_pmf((s.attacker_mw, p) for s, p in runs["attacker_mw"]),
        p_unit_destroyed=sum(
            (p for s, p in final if destroyed(s) == target.model_count), Fraction(0)
        ),
    )


# --- 11th-edition Lethal Hits: the one choice ------------------------------------------


def _has_lethal(scenario: Scenario, line: WeaponLine) -> bool:
    return "Lethal Hits" in _flags(weapon_abilities(scenario, line))


def optional_lethal_lines(scenario: Scenario) -> tuple[int, ...]:
    """Weapon lines where 11th-edition Lethal Hits is a real choice: those that also have
    Devastating Wounds (a rolled critical wound would be worth more than the automatic
    wound). Empty under 10th, where Lethal Hits is mandatory."""
    if scenario.rules != "11th":
        return ()
    return tuple(
        i
        for i, line in enumerate(scenario.attacker.weapons)
        if _has_lethal(scenario, line)
        and "Devastating Wounds" in _flags(weapon_abilities(scenario, line))
    )


def _lethal_pays(scenario: Scenario, index: int) -> bool:
    """Enumerate a scenario holding only this weapon line, with and without Lethal Hits;
    take it unless rolling to wound gives strictly more expected damage."""
    line = scenario.attacker.weapons[index]
    alone = scenario.model_copy(
        update={"attacker": scenario.attacker.model_copy(update={"weapons": (line,)})}
    )
    taken = mean(_enumerate(alone, {0: True})["damage"])
    rolled = mean(_enumerate(alone, {0: False})["damage"])
    return taken >= rolled


def _clear_caches() -> None:
    """The memoised pieces only speed up one scenario; don't let them pile up."""
    allocated_attack.cache_clear()
    failed_save.cache_clear()
    lose_wounds.cache_clear()


def brute_force(
    scenario: Scenario, lethal_choice: Mapping[int, bool] | None = None
) -> OracleResult:
    """Exact distributions of a small scenario, every die rolled explicitly.

    ``lethal_choice`` maps a weapon line's index to whether 11th-edition Lethal Hits is
    taken for it (overriding the oracle's own choice, see the module docstring).
    """
    _clear_caches()
    choice = dict(lethal_choice or {})
    if scenario.rules == "10th" and not all(choice.values()):
        raise ValueError("Lethal Hits is mandatory under 10th")
    for i in optional_lethal_lines(scenario):
        if i not in choice:
            choice[i] = _lethal_pays(scenario, i)
    return _enumerate(scenario, choice)


def lethal_alternatives(scenario: Scenario) -> Iterator[tuple[dict[int, bool], OracleResult]]:
    """Every way of choosing 11th-edition Lethal Hits on the lines where it is a real
    choice (``optional_lethal_lines``), with the oracle's result for each."""
    _clear_caches()
    lines = optional_lethal_lines(scenario)
    for taken in product((True, False), repeat=len(lines)):
        choice = dict(zip(lines, taken, strict=True))
        yield choice, _enumerate(scenario, choice)
