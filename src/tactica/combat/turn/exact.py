"""A turn of combat, exactly: a ``Sequence`` of steps against one target, evaluated as an
exact mixture of *worlds*.

A world is one combination of the things the target's state does not decide: which
charges succeeded, and the state of every unit the target fought back against. It holds
its probability, the exact distribution of the target's state (with the unsaved attacks
so far, ``exact.calculate_exact_from`` carries it through each step's weapon lines) and
the totals of the dice rolled so far. A charge splits every world in two; a fight back
splits it by the target's survivors (they set the attacks) and the fought unit's end
state; worlds that agree are merged again. Every distribution of the result is the exact
mixture over the worlds.

* The target's state carries from step to step; a destroyed target stays destroyed (its
  states absorb every later attack). A step's dice (attacks, hits, wounds) are what its
  unit rolls, as in a single scenario; they are 0 when the step does not happen.
* A unit's fight steps happen only in the worlds where its charge succeeded; a unit with
  no charge step is taken to be engaged already.
* Survivors and weapons: a unit's weapon line is carried by the model group named in
  ``carried_by`` (by default the unit's only model group); within a group the models with
  the lines listed first are removed last (the defender's choice), so line i keeps
  ``min(count_i, alive - count of the lines before it)`` weapons ([EXTRA ATTACKS] lines
  are carried besides: ``min(count, alive)``). Within an allocation group the wounded
  model is removed first, then the models in the order listed (``allocation``).
* The fight order is the rule set's (``rules.turn``), noted in the result.
* Where worlds split by a fight back, the dice totals of the earlier steps are carried
  into both parts unchanged; they are exact whenever no later attack depends on the fight
  back's outcome (always so when the charging units fight first).
"""

from __future__ import annotations

import functools
from collections import defaultdict
from dataclasses import dataclass, field, replace

import numpy as np

from tactica.dice import FloatArray
from tactica.effects import find_effect, non_combat_reason
from tactica.rules.turn import Fighter, TurnRules, get_turn_rules

from ..contract.result import (
    Distribution,
    NamedDistribution,
    Result,
    StageExplanation,
    WeaponSummary,
)
from ..contract.scenario import Attacker, ModelGroup, ScenarioError, Target
from ..contract.sequence import BattleShock, Sequence, SequenceResult, Step, StepResult
from ..exact.allocation import Group, State, StateSpace, TooLargeError, build_groups
from ..exact.engine import Initial, calculate_exact_from
from ..exact.unit_rules import deadly_demise_pmf, rules_not_calculated
from .charge import charge_probability

__all__ = ["alive_per_entry", "calculate_sequence", "line_counts", "resolution_order",
           "scaled_attacker", "step_cps"]

_ONE = np.ones(1)


@dataclass(frozen=True)
class _World:
    p: float
    target: Initial  # conditional: sums to 1
    charged: frozenset[str] = frozenset()
    failed: frozenset[str] = frozenset()
    units: tuple[tuple[str, State], ...] = ()  # states of units fought back against
    totals: tuple[FloatArray, ...] = (_ONE, _ONE, _ONE, _ONE)  # attacks, hits, wounds, hazard

    @property
    def key(self) -> tuple[frozenset[str], frozenset[str], tuple[tuple[str, State], ...]]:
        return self.charged, self.failed, self.units


def _pad_add(a: FloatArray, b: FloatArray) -> FloatArray:
    out = np.zeros(max(len(a), len(b)))
    out[: len(a)] += a
    out[: len(b)] += b
    return out


#: Above this many worlds (charge outcomes x states of the units fought) the exact
#: evaluation refuses: that is what the Monte Carlo twin is for.
MAX_WORLDS = 2_000


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
        out.append(replace(group[0], p=p, target=target, totals=totals))
    if len(out) > MAX_WORLDS:
        raise TooLargeError(f"steps: more than {MAX_WORLDS} combinations of charges and "
                            "losses of the units fought for the exact engine; use method "
                            "monte-carlo")
    return out


@functools.cache
def _parts(entries: tuple[ModelGroup, ...]) -> tuple[tuple[int, ...], ...]:
    """The entries each allocation part holds, found by building the parts entry by entry
    (``build_groups`` itself decides; an entry either grows a part or adds new ones)."""
    parts: list[list[int]] = []
    before: tuple[Group, ...] = ()
    for j in range(len(entries)):
        after = build_groups(Target(models=entries[: j + 1]))
        if len(after) > len(before):
            parts.extend([j] for _ in range(len(after) - len(before)))
        else:  # merged into an existing part: the one whose count grew
            grown = next(i for i, (a, b) in enumerate(zip(before, after, strict=True))
                         if a.count != b.count)
            parts[grown].append(j)
        before = after
    return tuple(tuple(p) for p in parts)


def alive_per_entry(entries: tuple[ModelGroup, ...], state: State) -> list[int]:
    """Models alive of each listed entry, from a state of ``build_groups`` of them: the
    entries each allocation part holds (found by building the parts entry by entry), the
    wounded model removed first, then the models in the order listed.

    >>> e = (ModelGroup(name="Sgt", count=1, T=4, Sv=3, W=2),
    ...      ModelGroup(name="Marine", count=4, T=4, Sv=3, W=2))
    >>> alive_per_entry(e, (2, 2, -1, -1))     # 3 of 5 removed: the Sgt (listed first) and 2
    [0, 2]
    """
    parts = _parts(entries)
    alive = [0] * len(entries)
    for gi, members in enumerate(parts):
        j0 = members[0]
        order = [j0] if entries[j0].character else [
            j for j in members for _ in range(entries[j].count)]
        wounded = next((j for j in members if entries[j].wounds_lost), None)
        if wounded is not None and not entries[j0].character:
            order.remove(wounded)
            order.insert(0, wounded)  # the wounded model is removed first
        k = state[2 * gi]
        for j in order[len(order) - k:] if k else ():
            alive[j] += 1
    return alive


def line_counts(attacker: Attacker, entries: tuple[ModelGroup, ...],
                carried_by: dict[str, str], alive: list[int]) -> tuple[int, ...]:
    """The count of each weapon line for the models alive (see the module docstring).

    >>> a = Attacker(weapons=[{"name": "Fist", "A": "3", "skill": 3, "S": 8, "D": "2",
    ...     "range": "Melee"}, {"name": "Blade", "count": 4, "A": "3", "skill": 3, "S": 4,
    ...     "D": "1", "range": "Melee"}])
    >>> line_counts(a, (ModelGroup(count=5, T=4, Sv=3, W=2),), {}, [3])
    (1, 2)
    """
    names = [e.name.casefold() for e in entries]
    used = [0] * len(entries)
    out = []
    for line in attacker.weapons:
        owner = carried_by.get(line.name)
        if owner is None and len(entries) != 1:
            out.append(line.count)  # no models known for it: losses do not reduce it
            continue
        j = 0 if owner is None else names.index(owner.casefold())
        if line.has("Extra Attacks"):
            out.append(min(line.count, alive[j]))
            continue
        n = max(0, min(line.count, alive[j] - used[j]))
        used[j] += line.count
        out.append(n)
    return tuple(out)


def scaled_attacker(attacker: Attacker, counts: tuple[int, ...]) -> Attacker | None:
    lines = tuple(line.model_copy(update={"count": c})
                  for line, c in zip(attacker.weapons, counts, strict=True) if c > 0)
    return attacker.model_copy(update={"weapons": lines}) if lines else None


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


def _run(seq: Sequence, i: int, attacker: Attacker, target: Target,
         initial: Initial) -> tuple[Result, Initial]:
    """One step's scenario from ``initial``; the units' rules it does not compute are
    listed (Deadly Demise is summed over the sequence instead)."""
    scenario = seq.scenario(i, attacker, target)
    try:
        result, final = calculate_exact_from(scenario, initial)
    except ScenarioError as exc:  # an oversize step stays one (a caller falls back)
        kind = TooLargeError if isinstance(exc, TooLargeError) else ScenarioError
        raise kind(f"steps.{i}.{exc}") from None
    more = [r for r in rules_not_calculated(scenario, result.effects_applied)
            if r not in result.not_calculated]
    if more:
        result = result.model_copy(update={"not_calculated": (*result.not_calculated, *more)})
    return result, final


class _Turn:
    """The evaluation of one sequence (its units, worlds and per-step results)."""

    def __init__(self, seq: Sequence) -> None:
        self.seq = seq
        self.rules: TurnRules = get_turn_rules(seq.rules)
        self.space = StateSpace(build_groups(seq.target))
        self.models: dict[str, tuple[ModelGroup, ...]] = {}
        self.keywords: dict[str, tuple[str, ...]] = {}
        self.charging = {st.label for st in seq.steps if st.phase == "charge"}
        for st in seq.steps:
            if st.models and st.label not in self.models:
                self.models[st.label] = st.models
                self.keywords[st.label] = st.attacker.keywords if st.attacker else ()
        self.worlds = [_World(1.0, {self.space.initial: _ONE})]
        self.notes: list[str] = []

    # --- one step ------------------------------------------------------------------------
    def engaged(self, w: _World, unit: str) -> bool:
        return unit in w.charged or unit not in self.charging

    def attack(self, i: int, st: Step) -> tuple[_Mix, float | None]:
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
                entries = self.models[st.label]
                attacker = scaled_attacker(st.attacker, line_counts(
                    st.attacker, entries, st.carried_by, alive_per_entry(entries, own)))
            if attacker is None:
                mix.add(w.p, None)
                new.append(w)
                continue
            r, final = _run(self.seq, i, attacker, self.seq.target, w.target)
            mix.add(w.p, r)
            totals = tuple(np.convolve(t, np.asarray(getattr(r, f).pmf)) for t, f in zip(
                w.totals, ("attacks", "hits", "wounds", "attacker_mortal_wounds"),
                strict=True))
            new.append(replace(w, target=final, totals=totals))
        self.worlds = _merge(new)
        return mix, None

    def charge(self, st: Step) -> tuple[_Mix, float]:
        assert st.distance is not None
        q = charge_probability(st.distance, st.charge_modifier,
                               st.reroll_charge or st.command_reroll, self.rules)
        mix, new = _Mix(), []
        for w in self.worlds:
            mix.add(w.p, None)
            new.append(replace(w, p=w.p * q, charged=w.charged | {st.label}))
            new.append(replace(w, p=w.p * (1 - q), failed=w.failed | {st.label}))
        self.worlds = _merge(new)
        return mix, q

    def fight_back(self, i: int, st: Step) -> tuple[_Mix, Distribution]:
        assert st.attacker is not None
        against = st.against or next((s.label for s in self.seq.steps if s.phase == "charge"),
                                     None)
        if against is None or against not in self.models:
            raise ScenarioError(
                f"steps.{i}: fighting back needs the unit fought ('against') and its "
                "'models' (given on one of that unit's steps)")
        entries = self.models[against]
        victim = Target(name=against, keywords=self.keywords[against], models=entries)
        v_space = StateSpace(build_groups(victim))
        mix, new = _Mix(), []
        for w in self.worlds:
            units = dict(w.units)
            v_state = units.get(against, v_space.initial)
            if not self.engaged(w, against):
                mix.add(w.p, None)
                new.append(w)
                continue
            by_counts: dict[tuple[int, ...], Initial] = defaultdict(dict)
            for s, row in w.target.items():
                alive = alive_per_entry(self.seq.target.models, s)
                counts = line_counts(st.attacker, self.seq.target.models, st.carried_by, alive)
                by_counts[counts][s] = row
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
                for vs, row in final.items():
                    units[against] = vs
                    new.append(replace(w, p=w.p * m * float(row.sum()), target=cond,
                                       units=tuple(sorted(units.items()))))
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


def _step_result(i: int, st: Step, mix: _Mix, turn: _Turn, cp: int,
                 p_charge: float | None = None,
                 losses: Distribution | None = None) -> StepResult:
    unsaved, damage, killed, dead = turn.target_now()
    r = mix.first
    n = len(killed)
    return StepResult(
        step=i, unit=st.label, phase=st.phase, fights_back=st.fights_back,
        p_happens=p_charge if p_charge is not None else mix.p_happens, p_charge=p_charge,
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
        effects_applied=r.effects_applied if r else (), cp_spent=cp,
        other_mortal_wounds=tuple(
            NamedDistribution(label=k, distribution=Distribution.from_array(v))
            for k, v in mix.side.items()),
    )


def _deadly_demise(seq: Sequence, killed: FloatArray) -> NamedDistribution | None:
    """The target's Deadly Demise X (24.08, ``unit_rules``) over every model the whole
    sequence destroys: the mortal wounds each unit within 6\" of them suffers."""
    x = seq.target.deadly_demise
    if x is None:
        return None
    return NamedDistribution(
        label=f"Deadly Demise {x}: mortal wounds to each unit within 6\" of the destroyed "
              "models (a 6 for each model destroyed, whole sequence)",
        distribution=Distribution.from_array(deadly_demise_pmf(killed, x)))


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
        p_charge: float | None = None
        losses: Distribution | None = None
        if st.phase == "charge":
            mix, p_charge = turn.charge(st)
        elif st.fights_back:
            mix, losses = turn.fight_back(i, st)
        else:
            mix, _ = turn.attack(i, st)
        if mix.first is not None:
            stages.extend(mix.first.stages)
        results.append(_step_result(i, st, mix, turn, cps[i], p_charge, losses))
    unsaved, damage, killed, dead = turn.target_now()
    totals = [np.zeros(1) for _ in range(4)]
    for w in turn.worlds:
        totals = [_pad_add(t, w.p * wt) for t, wt in zip(totals, w.totals, strict=True)]
    target_steps = [r for r in results if r.phase != "charge" and not r.fights_back]
    side = [NamedDistribution(label=f"{r.unit}: {nd.label}", distribution=nd.distribution)
            for r in results for nd in r.other_mortal_wounds]
    demise = _deadly_demise(seq, killed)
    if demise is not None:
        side.append(demise)
    notes = [*turn.notes, *(n for r in results for n in r.notes)]
    return SequenceResult(
        rules=seq.rules,
        attacks=Distribution.from_array(totals[0]),
        hits=Distribution.from_array(totals[1]),
        wounds=Distribution.from_array(totals[2]),
        unsaved=Distribution.from_array(unsaved),
        damage=Distribution.from_array(damage),
        models_destroyed=Distribution.from_array(killed, length=len(killed)),
        p_unit_destroyed=dead,
        attacker_mortal_wounds=Distribution.from_array(totals[3]),
        weapons=tuple(w for r in target_steps for w in r.weapons),
        stages=tuple(stages),
        notes=tuple(dict.fromkeys(notes)),
        not_calculated=tuple(dict.fromkeys(n for r in results for n in r.not_calculated)),
        effects_applied=tuple(e for r in results for e in r.effects_applied),
        cp_spent=sum(cps),
        other_mortal_wounds=tuple(side),
        steps=tuple(results),
        battle_shock=_battle_shock(seq, turn),
    )
