"""A turn of combat, exactly: a ``Sequence`` of steps against one target, evaluated as an
exact mixture of *worlds*: each one combination of the things the target's state does
not decide (which charges succeeded, the state of every unit the target fought back
against), with its probability, the exact distribution of the target's state (with the
unsaved attacks so far, ``exact.calculate_exact_from`` carries it through each step's
weapon lines) and the totals of the dice rolled so far. A charge splits every world in
two; a fight back splits it by the target's survivors (they set the attacks) and the
fought unit's end state; worlds that agree are merged again. Every distribution of the
result is the exact mixture over the worlds.

* The target's state carries from step to step; a destroyed target stays destroyed and
  (05.04.04) is not attacked, charged or fought any more: a step does not happen in the
  part of a world where it is destroyed, and rolls no dice there. A unit's fight steps
  happen only in the worlds where its charge was made; a charge is declared only where
  the target is alive; a unit with no charge step is taken to be engaged already.
* Survivors and weapons (``survivors``): each weapon line is carried by model entries
  (``carried_by``, or matched: ``line_shares``), and its count follows each entry's
  survivors; a unit with no model left does nothing more. Blast and Cleave count the
  models of the unit attacked alive when the step starts (``exact.select_targets``).
* The fight order is the rule set's (``rules.turn``), noted in the result; the worlds
  are predicted before any work (``predicted_worlds``) and refused above the limit;
  Deadly Demise and a charge's Command Re-roll are ``turn_side``'s.
* Where a world is parted by the target's state after dice were rolled (the target
  destroyed in part of it, survivors fighting first, or a Blast count), the dice totals
  of the earlier steps are carried into each part unchanged: then the turn's total
  attacks, hits, wounds and mortal wounds are labelled ``exact: false`` (means exact).
"""

from __future__ import annotations

import functools
from collections import defaultdict
from dataclasses import dataclass, field, replace

import numpy as np

from tactica.dice import FloatArray
from tactica.effects import find_effect, non_combat_reason
from tactica.rules import get_ruleset
from tactica.rules.turn import Fighter, TurnRules, get_turn_rules

from ..contract.result import (
    Distribution,
    NamedDistribution,
    Result,
    StageExplanation,
    WeaponSummary,
    distribution_fields,
)
from ..contract.scenario import Attacker, ModelGroup, ScenarioError, Target
from ..contract.sequence import (
    BattleShock,
    Sequence,
    SequenceResult,
    Step,
    StepResult,
    TurnDistribution,
)
from ..exact.allocation import State, StateSpace, TooLargeError, build_groups
from ..exact.engine import Initial, calculate_exact_from
from ..exact.size import predicted_states
from ..exact.unit_rules import rules_not_calculated
from .charge import charge_probability
from .side import charge_reroll_cp, deadly_demise_by_unit
from .survivors import Shares, alive_per_entry, line_counts, line_shares, scaled_attacker

__all__ = ["alive_per_entry", "calculate_sequence", "line_counts", "line_shares",
           "resolution_order", "scaled_attacker", "step_cps"]

_ONE = np.ones(1)


@dataclass(frozen=True)
class _World:
    p: float
    target: Initial  # conditional: sums to 1
    charged: frozenset[str] = frozenset()
    failed: frozenset[str] = frozenset()
    units: tuple[tuple[str, State], ...] = ()  # states of units fought back against
    totals: tuple[FloatArray, ...] = (_ONE, _ONE, _ONE, _ONE)  # attacks, hits, wounds, hazard
    marks: tuple[tuple[str, int], ...] = ()  # the target's models left at a unit's charge
    split: bool = False  # parted by the target's state after dice were rolled (inexact)

    @property
    def key(self) -> tuple[object, ...]:
        return self.charged, self.failed, self.units, self.marks


def _pad_add(a: FloatArray, b: FloatArray) -> FloatArray:
    out = np.zeros(max(len(a), len(b)))
    out[: len(a)] += a
    out[: len(b)] += b
    return out


#: Above this many worlds (charge outcomes x states of the units fought) the exact
#: evaluation refuses: that is what the Monte Carlo twin is for.
MAX_WORLDS = 2_000


def _too_many(n: int) -> TooLargeError:
    return TooLargeError(f"steps: about {n:,} combinations of charges and losses of the "
                         f"units fought, above the exact engine's {MAX_WORLDS:,}; use method "
                         "monte-carlo")


def predicted_worlds(seq: Sequence, against: dict[int, str],
                     models: dict[str, tuple[ModelGroup, ...]]) -> int:
    """The worlds a sequence can reach, bounded before any is computed: two outcomes per
    charge, the damage states of each unit the target fights back against
    (``size.predicted_states``), and, with Deadly Demise, the target's models left when
    a charge from beyond 6\" is made."""
    n = 1 << sum(1 for st in seq.steps if st.phase == "charge")
    for unit in set(against.values()):
        victim = build_groups(Target(name=unit, models=models[unit]))
        precise = any(st.attacker is not None and any(w.has("Precision") for w in st.attacker
                      .weapons) for i, st in enumerate(seq.steps) if against.get(i) == unit)
        n *= int(predicted_states(victim, precise, rules=get_ruleset(seq.rules)))
    if seq.target.deadly_demise is not None:
        m0 = sum(g.count for g in seq.target.models)
        for st in seq.steps:
            if st.phase == "charge" and (st.distance or 0) > 6:
                n *= m0 + 1
    return n


def check_worlds(seq: Sequence, against: dict[int, str],
                 models: dict[str, tuple[ModelGroup, ...]]) -> None:
    """Refuse (``TooLargeError``) a sequence whose predicted worlds exceed twice
    ``MAX_WORLDS`` (the prediction is within about 2x), before any work."""
    n = predicted_worlds(seq, against, models)
    if n > 2 * MAX_WORLDS:
        raise _too_many(n)


def _merge(worlds: list[_World]) -> list[_World]:
    """Worlds that agree on everything but the target's state, mixed into one."""
    by_key: dict[object, list[_World]] = defaultdict(list)
    for w in worlds:
        if w.p > 0:
            by_key[w.key].append(w)
    out = []
    for group in by_key.values():
        p = sum(w.p for w in group)
        target: Initial = {}
        for w in group:
            for s, row in w.target.items():
                target[s] = _pad_add(target.get(s, np.zeros(1)), w.p / p * row)
        totals = tuple(functools.reduce(_pad_add, (w.p / p * w.totals[k] for w in group))
                       for k in range(len(group[0].totals)))
        out.append(replace(group[0], p=p, target=target, totals=totals,
                           split=any(w.split for w in group)))
    if len(out) > MAX_WORLDS:
        raise _too_many(len(out))
    return out


@dataclass
class _Mix:
    """A step's result, mixed over the worlds (weights are world probabilities)."""

    pmfs: dict[str, FloatArray] = field(default_factory=dict)
    p_happens: float = 0.0
    weapons: dict[str, list[float]] = field(default_factory=dict)
    side: dict[str, FloatArray] = field(default_factory=dict)
    first: Result | None = None

    def add(self, weight: float, r: Result | None) -> None:
        fields = ("attacks", "hits", "wounds", "attacker_mortal_wounds")
        for name in fields:
            pmf = np.asarray(getattr(r, name).pmf) if r is not None else _ONE
            self.pmfs[name] = _pad_add(self.pmfs.get(name, np.zeros(1)), weight * pmf)
        if r is None:
            return
        self.p_happens += weight
        self.first = self.first or r
        for ws in r.weapons:
            acc = self.weapons.setdefault(ws.weapon, [0.0] * 4)
            for k, v in enumerate((ws.attacks, ws.hits, ws.wounds, ws.critical_wounds)):
                acc[k] += weight * v
        for nd in r.other_mortal_wounds:
            self.side[nd.label] = _pad_add(self.side.get(nd.label, np.zeros(1)),
                                           weight * np.asarray(nd.distribution.pmf))


def _run(seq: Sequence, i: int, attacker: Attacker, target: Target, initial: Initial,
         parts: list[float] | None = None) -> tuple[Result, Initial]:
    """One step's scenario from ``initial`` (``parts``: ``calculate_exact_from``'s); the
    units' rules it does not compute are listed (Deadly Demise is summed over the
    sequence instead)."""
    scenario = seq.scenario(i, attacker, target)
    try:
        result, final = calculate_exact_from(scenario, initial, parts)
    except ScenarioError as exc:  # an oversize step stays one (a caller falls back)
        kind = TooLargeError if isinstance(exc, TooLargeError) else ScenarioError
        raise kind(f"steps.{i}.{exc}") from None
    more = [r for r in rules_not_calculated(scenario, result.effects_applied)
            if r not in result.not_calculated]
    applied = [r for r in (*scenario.attacker.rules_applied, *scenario.target.rules_applied)
               if r not in result.notes]  # the units' own abilities (units.abilities)
    if more or applied:
        result = result.model_copy(update={"not_calculated": (*result.not_calculated, *more),
                                           "notes": (*result.notes, *applied)})
    return result, final


def _split_alive(space: StateSpace, target: Initial) -> tuple[float, Initial, Initial]:
    """P(the target is alive) in a world, and its state given alive, given destroyed."""
    alive = {s: row for s, row in target.items() if space.models_left(s) > 0}
    dead = {s: row for s, row in target.items() if space.models_left(s) == 0}
    pa = float(sum(row.sum() for row in alive.values()))
    return (pa, {s: row / pa for s, row in alive.items()} if pa > 0 else {},
            {s: row / (1 - pa) for s, row in dead.items()} if pa < 1 else {})


def _dice(totals: tuple[FloatArray, ...]) -> bool:
    """Whether a world's totals hold any dice yet (a split of it may then be inexact)."""
    return any(len(t) > 1 for t in totals)


class _Turn:
    """The evaluation of one sequence (its units, worlds and per-step results)."""

    def __init__(self, seq: Sequence) -> None:
        self.seq = seq
        self.rules: TurnRules = get_turn_rules(seq.rules)
        self.space = StateSpace(build_groups(seq.target), get_ruleset(seq.rules))
        self.models: dict[str, tuple[ModelGroup, ...]] = {}
        self.keywords: dict[str, tuple[str, ...]] = {}
        self.charging = {st.label for st in seq.steps if st.phase == "charge"}
        for st in seq.steps:
            if st.models and st.label not in self.models:
                self.models[st.label] = st.models
                self.keywords[st.label] = st.attacker.keywords if st.attacker else ()
        self.against = {i: self.fought(i, st) for i, st in enumerate(seq.steps)
                        if st.fights_back}
        self.shares = {i: self.carried(i, st) for i, st in enumerate(seq.steps)
                       if st.phase == "fight" and (st.fights_back or st.label in
                                                   self.against.values())}
        check_worlds(seq, self.against, self.models)
        self.worlds = [_World(1.0, {self.space.initial: _ONE})]
        self.notes: list[str] = []
        self.inexact = False  # the dice totals are a mixture of split worlds (see notes)

    def fought(self, i: int, st: Step) -> str:
        against = st.against or next(
            (s.label for s in self.seq.steps if s.phase == "charge"), None)
        if against is None or against not in self.models:
            raise ScenarioError(
                f"steps.{i}: fighting back needs the unit fought ('against') and its "
                "'models' (given on one of that unit's steps)")
        return against

    def carried(self, i: int, st: Step) -> Shares:
        """Which entry carries how many of each of the step's lines (``line_shares``)."""
        assert st.attacker is not None
        entries = self.seq.target.models if st.fights_back else self.models[st.label]
        try:
            return line_shares(st.attacker, entries, st.carried_by)
        except ScenarioError as exc:
            raise ScenarioError(f"steps.{i}.attacker.{exc}") from None

    # --- one step ------------------------------------------------------------------------
    def engaged(self, w: _World, unit: str) -> bool:
        return unit in w.charged or unit not in self.charging

    def attack(self, i: int, st: Step) -> _Mix:
        """A shooting or fight step at the target: only where its unit is engaged (fight),
        has models left and the target is alive (05.04.04)."""
        assert st.attacker is not None
        mix, new = _Mix(), []
        for w in self.worlds:
            if st.phase == "fight" and not self.engaged(w, st.label):
                mix.add(w.p, None)
                new.append(w)
                continue
            attacker: Attacker | None = st.attacker
            own = dict(w.units).get(st.label)
            if own is not None:
                alive = alive_per_entry(self.models[st.label], own, self.space.rules)
                attacker = scaled_attacker(st.attacker,
                                           line_counts(st.attacker, self.shares[i], alive))
            pa, alive_t, dead_t = _split_alive(self.space, w.target)
            if attacker is None or pa == 0:
                mix.add(w.p, None)
                new.append(w)
                continue
            if pa < 1:
                mix.add(w.p * (1 - pa), None)
                new.append(replace(w, p=w.p * (1 - pa), target=dead_t))
                self.inexact |= _dice(w.totals)
            parts: list[float] = []
            r, final = _run(self.seq, i, attacker, self.seq.target, alive_t, parts)
            self.inexact |= w.split or (len(parts) > 1 and _dice(w.totals))
            mix.add(w.p * pa, r)
            totals = tuple(np.convolve(t, np.asarray(getattr(r, f).pmf)) for t, f in zip(
                w.totals, ("attacks", "hits", "wounds", "attacker_mortal_wounds"),
                strict=True))
            new.append(replace(w, p=w.p * pa, target=final, totals=totals))
        self.worlds = _merge(new)
        return mix

    def charge(self, st: Step) -> tuple[_Mix, float, float]:
        """The charge roll, where the target is still alive (a destroyed unit cannot be
        charged: those worlds count as no charge): the step's mix, P(the charge is
        declared), P(it is made)."""
        assert st.distance is not None
        q = charge_probability(st.distance, st.charge_modifier,
                               st.reroll_charge or st.command_reroll, self.rules)
        mix, new = _Mix(), []
        declared = made = 0.0
        mark = self.seq.target.deadly_demise is not None and st.distance > 6
        for w in self.worlds:
            mix.add(w.p, None)
            pa, alive_t, dead_t = _split_alive(self.space, w.target)
            if pa < 1:
                new.append(replace(w, p=w.p * (1 - pa), target=dead_t,
                                   failed=w.failed | {st.label},
                                   split=w.split or (pa > 0 and _dice(w.totals))))
            if pa == 0:
                continue
            declared += w.p * pa
            made += w.p * pa * q
            new.append(replace(w, p=w.p * pa * (1 - q), target=alive_t,
                               failed=w.failed | {st.label}))
            charged = replace(w, p=w.p * pa * q, target=alive_t, charged=w.charged | {st.label},
                              split=w.split or (pa < 1 and _dice(w.totals)))
            new += self.marked(charged, st.label) if mark else [charged]
        self.worlds = _merge(new)
        return mix, declared, made

    def marked(self, w: _World, unit: str) -> list[_World]:
        """``w`` split by the target's models left now, each part marked with it: the
        unit's Deadly Demise count starts here (it came within 6\" by its charge)."""
        by_left: dict[int, Initial] = defaultdict(dict)
        for s, row in w.target.items():
            by_left[self.space.models_left(s)][s] = row
        out = []
        for left, part in by_left.items():
            m = float(sum(row.sum() for row in part.values()))
            out.append(replace(w, p=w.p * m, target={s: r / m for s, r in part.items()},
                               marks=tuple(sorted({**dict(w.marks), unit: left}.items()))))
        return out

    def fight_back(self, i: int, st: Step) -> tuple[_Mix, Distribution]:
        """The target's survivors fight the unit ``against`` where it is engaged and has
        models left; their attacks follow the survivors of each entry."""
        assert st.attacker is not None
        against = self.against[i]
        victim = Target(name=against, keywords=self.keywords[against],
                        models=self.models[against])
        v_space = StateSpace(build_groups(victim), self.space.rules)
        mix, new = _Mix(), []
        for w in self.worlds:
            units = dict(w.units)
            v_state = units.get(against, v_space.initial)
            if not self.engaged(w, against) or v_space.models_left(v_state) == 0:
                mix.add(w.p, None)
                new.append(w)
                continue
            by_counts: dict[tuple[int, ...], Initial] = defaultdict(dict)
            for s, row in w.target.items():
                alive = alive_per_entry(self.seq.target.models, s, self.space.rules)
                by_counts[line_counts(st.attacker, self.shares[i], alive)][s] = row
            for counts, part in by_counts.items():
                m = float(sum(row.sum() for row in part.values()))
                cond = {s: row / m for s, row in part.items()}
                attacker = scaled_attacker(st.attacker, counts)
                if attacker is None:
                    mix.add(w.p * m, None)
                    new.append(replace(w, p=w.p * m, target=cond))
                    continue
                r, final = _run(self.seq, i, attacker, victim, {v_state: _ONE})
                mix.add(w.p * m, r)
                split = w.split or (_dice(w.totals) and (len(by_counts) > 1 or len(final) > 1))
                for vs, row in final.items():
                    units[against] = vs
                    new.append(replace(w, p=w.p * m * float(row.sum()), target=cond,
                                       units=tuple(sorted(units.items())), split=split))
        self.worlds = _merge(new)
        losses = np.zeros(v_space.models_left(v_space.initial) + 1)
        for w in self.worlds:
            vs = dict(w.units).get(against, v_space.initial)
            losses[len(losses) - 1 - v_space.models_left(vs)] += w.p
        return mix, Distribution.from_array(losses, length=len(losses))

    # --- read-outs -----------------------------------------------------------------------
    def target_now(self) -> tuple[FloatArray, FloatArray, FloatArray, float]:
        """Unsaved, damage and models-destroyed pmfs of the target now, and P(destroyed)."""
        sp = self.space
        w0, m0 = sp.wounds_left(sp.initial), sp.models_left(sp.initial)
        unsaved, damage, killed, dead = np.zeros(1), np.zeros(w0 + 1), np.zeros(m0 + 1), 0.0
        for w in self.worlds:
            for s, row in w.target.items():
                p = w.p * float(row.sum())
                unsaved = _pad_add(unsaved, w.p * row)
                damage[w0 - sp.wounds_left(s)] += p
                killed[m0 - sp.models_left(s)] += p
                dead += p if sp.models_left(s) == 0 else 0.0
        return unsaved, damage, killed, dead

    def killed_near(self, unit: str, from_start: bool) -> FloatArray:
        """P(k of the target's models are destroyed while ``unit`` is within 6\" of it):
        the whole turn (``from_start``), or from its charge on, where it was made."""
        sp = self.space
        m0 = sp.models_left(sp.initial)
        out = np.zeros(m0 + 1)
        for w in self.worlds:
            start = m0 if from_start else dict(w.marks).get(unit)
            for s, row in w.target.items():
                k = 0 if start is None else start - sp.models_left(s)
                out[k] += w.p * float(row.sum())
        return out


def step_cps(seq: Sequence, rules: TurnRules) -> list[int]:
    """Each step's CP, after checking the once-per-phase stratagem limit across steps."""
    seen: dict[tuple[str, str, str], int] = {}
    cps = []
    for i, st in enumerate(seq.steps):
        side = "defender" if st.fights_back else "attacker"
        used: list[tuple[int | None, str, int]] = []
        for j, e in enumerate(st.effects):
            if isinstance(e, str) and non_combat_reason(e) is None:
                try:
                    eff, _ = find_effect(e, seq.rules)
                except ValueError:
                    continue  # the engine refuses it with the field named
                if eff.kind == "stratagem":
                    used.append((j, eff.name, eff.cp))
        if st.command_reroll:
            eff, _ = find_effect("Command Re-roll", seq.rules)
            used.append((None, eff.name, eff.cp))
        for where_j, name, _cp in used:
            key = (side, st.phase, name)
            if rules.stratagem_once_per_phase and key in seen:
                where = (f"steps.{i}.effects.{where_j}" if where_j is not None
                         else f"steps.{i}.command_reroll")
                raise ScenarioError(
                    f"{where}: {name} is already used in this {st.phase} phase "
                    f"(steps.{seen[key]}); the same stratagem is used once per phase")
            seen[key] = i
        cps.append(sum(cp for _, _, cp in used))
    return cps


def resolution_order(seq: Sequence, rules: TurnRules) -> tuple[list[int], str | None]:
    """Shooting and charge steps as listed, then the fight steps in the rule set's order;
    and the note saying that order (when the target fights back)."""
    charging = {st.label for st in seq.steps if st.phase == "charge"}
    fights = [i for i, st in enumerate(seq.steps) if st.phase == "fight"]
    fighters = [Fighter(i, "defender" if seq.steps[i].fights_back else "attacker",
                        seq.steps[i].fights_first or (rules.charge_grants_fights_first
                                                      and seq.steps[i].label in charging
                                                      and not seq.steps[i].fights_back))
                for i in fights]
    order = [f.index for f in rules.fight_order(fighters)]
    note = None
    if any(seq.steps[i].fights_back for i in fights):
        names = ", then ".join(seq.steps[i].label + (" (fights back)" if seq.steps[i].fights_back
                                                     else "") for i in order)
        note = f"{rules.fight_order_note}: {names}"
    return [i for i in range(len(seq.steps)) if i not in fights] + order, note


def _step_result(i: int, st: Step, mix: _Mix, turn: _Turn, cp: tuple[int, float],
                 p_charge: tuple[float, float] | None = None,
                 losses: Distribution | None = None) -> StepResult:
    unsaved, damage, killed, dead = turn.target_now()
    r = mix.first
    n = len(killed)
    return StepResult(
        step=i, unit=st.label, phase=st.phase, fights_back=st.fights_back,
        p_happens=p_charge[0] if p_charge is not None else mix.p_happens,
        p_charge=p_charge[1] if p_charge is not None else None,
        attacks=Distribution.from_array(mix.pmfs["attacks"]),
        hits=Distribution.from_array(mix.pmfs["hits"]),
        wounds=Distribution.from_array(mix.pmfs["wounds"]),
        unsaved=Distribution.from_array(unsaved),
        damage=Distribution.from_array(damage),
        models_destroyed=Distribution.from_array(killed, length=n),
        p_unit_destroyed=dead,
        attacker_mortal_wounds=Distribution.from_array(mix.pmfs["attacker_mortal_wounds"]),
        attacker_losses=losses,
        weapons=tuple(WeaponSummary(weapon=k, attacks=v[0], hits=v[1], wounds=v[2],
                                    critical_wounds=v[3]) for k, v in mix.weapons.items()),
        notes=r.notes if r else (), not_calculated=r.not_calculated if r else (),
        effects_applied=r.effects_applied if r else (), cp_spent=cp[0], cp_expected=cp[1],
        other_mortal_wounds=tuple(
            NamedDistribution(label=k, distribution=Distribution.from_array(v))
            for k, v in mix.side.items()),
    )


def step_cp(seq: Sequence, st: Step, cp: int, p_declared: float,
            rules: TurnRules) -> tuple[tuple[int, float], str | None]:
    """A step's CP spent whatever the dice, its expected CP, and a note: a charge's
    Command Re-roll counts as expected (``turn_side.charge_reroll_cp``)."""
    if st.phase != "charge" or not st.command_reroll:
        return (cp, float(cp)), None
    reroll = find_effect("Command Re-roll", seq.rules)[0].cp
    expected, note = charge_reroll_cp(st, reroll, p_declared, rules)
    return (cp - reroll, cp - reroll + expected), note


INEXACT_NOTE = ("the turn's total attacks, hits, wounds and mortal wounds to the attackers "
                "are approximate in their spread (their averages are exact): a later step "
                "happens, or counts its Blast dice, by the outcome of an earlier one (the "
                "target destroyed, its survivors fighting first, its models left), and these "
                "totals do not follow which. Every other number is exact.")


def _battle_shock(seq: Sequence, turn: _Turn) -> BattleShock | None:
    if seq.target_leadership is None:
        return None
    sp = turn.space
    m0, w0 = sp.models_left(sp.initial), sp.wounds_left(sp.initial)
    tested = sum(w.p * float(row.sum()) for w in turn.worlds for s, row in w.target.items()
                 if turn.rules.below_half(sp.models_left(s), m0, sp.wounds_left(s), w0))
    pmf = np.array([1.0])
    for _ in range(turn.rules.battle_shock_dice):
        pmf = np.convolve(pmf, np.array([0.0, *[1 / 6] * 6]))
    fail = float(pmf[: seq.target_leadership].sum())
    return BattleShock(leadership=seq.target_leadership, p_tested=tested,
                       p_battle_shocked=tested * fail)


def calculate_sequence(seq: Sequence) -> SequenceResult:
    """The exact result of a sequence (``docs/sequence.md``).

    >>> s = Sequence.model_validate({"rules": "10th", "target": {"models": [
    ...     {"count": 5, "T": 4, "Sv": 3, "W": 2}]}, "steps": [
    ...   {"phase": "charge", "unit": "Riders", "distance": 7},
    ...   {"phase": "fight", "attacker": {"name": "Riders", "weapons": [{"name": "Lance",
    ...    "count": 3, "range": "Melee", "A": "3", "skill": 3, "S": 5, "AP": -1, "D": "2"}]}}]})
    >>> r = calculate_sequence(s)
    >>> round(r.steps[0].p_charge * 36), round(r.steps[1].p_happens * 36)
    (21, 21)
    """
    turn = _Turn(seq)
    cps = step_cps(seq, turn.rules)
    results: list[StepResult] = []
    stages: list[StageExplanation] = []
    order, note = resolution_order(seq, turn.rules)
    turn.notes.extend([note] if note else [])
    for i in order:
        st = seq.steps[i]
        p_charge: tuple[float, float] | None = None
        losses: Distribution | None = None
        if st.phase == "charge":
            mix, *charge = turn.charge(st)
            p_charge = (charge[0], charge[1])
        elif st.fights_back:
            mix, losses = turn.fight_back(i, st)
        else:
            mix = turn.attack(i, st)
        if mix.first is not None:
            stages.extend(mix.first.stages)
        cp, cp_note = step_cp(seq, st, cps[i], p_charge[0] if p_charge else 1.0, turn.rules)
        turn.notes.extend([cp_note] if cp_note else [])
        results.append(_step_result(i, st, mix, turn, cp, p_charge, losses))
    return _sequence_result(seq, turn, results, stages)


def _sequence_result(seq: Sequence, turn: _Turn, results: list[StepResult],
                     stages: list[StageExplanation]) -> SequenceResult:
    unsaved, damage, killed, dead = turn.target_now()
    totals = [np.zeros(1) for _ in range(4)]
    for w in turn.worlds:
        totals = [_pad_add(t, w.p * wt) for t, wt in zip(totals, w.totals, strict=True)]
    target_steps = [r for r in results if r.phase != "charge" and not r.fights_back]
    side = [NamedDistribution(label=f"{r.unit}: {nd.label}", distribution=nd.distribution)
            for r in results for nd in r.other_mortal_wounds]
    demise, far = deadly_demise_by_unit(seq, turn.killed_near)
    exact = not turn.inexact
    notes = [*turn.notes, *far, *([] if exact else [INEXACT_NOTE]),
             *(n for r in results for n in r.notes)]

    def total(k: int) -> TurnDistribution:
        return TurnDistribution.model_validate({**distribution_fields(totals[k]),
                                                "exact": exact})

    return SequenceResult(
        rules=seq.rules, attacks=total(0), hits=total(1), wounds=total(2),
        unsaved=Distribution.from_array(unsaved),
        damage=Distribution.from_array(damage),
        models_destroyed=Distribution.from_array(killed, length=len(killed)),
        p_unit_destroyed=dead,
        attacker_mortal_wounds=total(3),
        weapons=tuple(w for r in target_steps for w in r.weapons),
        stages=tuple(stages),
        notes=tuple(dict.fromkeys(notes)),
        not_calculated=tuple(dict.fromkeys(n for r in results for n in r.not_calculated)),
        effects_applied=tuple(e for r in results for e in r.effects_applied),
        cp_spent=sum(r.cp_spent for r in results),
        cp_expected=sum(r.cp_expected for r in results),
        other_mortal_wounds=(*side, *demise),
        steps=tuple(results),
        battle_shock=_battle_shock(seq, turn),
    )
