"""The Monte Carlo twin of a sequence (``combat.turn``): every trial plays the turn.

Each trial holds the target's state (models alive and wounds left per allocation group),
the outcome of every charge and the state of the unit the target fights back against.
Steps run in the exact engine's order (``turn.resolution_order``); a step runs the
scenario Monte Carlo (``montecarlo.simulate``) over the trials where it happens (its
unit engaged and with models left, the unit it attacks not destroyed: 05.04.04), from
their states, in groups of trials whose surviving models carry the same weapons (the
counts of ``survivors.line_counts``, entry by entry). A charge is two D6 per trial (plus
the modifier), rolled again in full when short if a re-roll is allowed, only where the
target is alive. Deadly Demise counts, per unit, the target's models destroyed while the
unit is within 6" (``turn_side``). Every distribution of the result is the
observed frequency over the trials (``method: "monte-carlo"``); the same seed gives the
same result.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from tactica.rules import get_ruleset
from tactica.rules.turn import get_turn_rules

from ..contract.result import Distribution
from ..contract.sampling import check_sampling
from ..contract.scenario import Attacker, ModelGroup, ScenarioError, Target
from ..contract.sequence import Sequence, SequenceResult, Step, StepResult, TurnDistribution
from ..exact.allocation import StateSpace, build_groups
from ..sampled.engine import DEFAULT_SEED, DEFAULT_TRIALS, simulate
from .exact import resolution_order, step_cp, step_cps
from .side import deadly_demise_by_unit
from .survivors import Shares, alive_per_entry, line_counts, line_shares, scaled_attacker

__all__ = ["simulate_sequence"]

IntArray = npt.NDArray[np.int64]


@dataclass
class _Unit:
    """One unit's state in every trial (models alive ``k``, wounds left ``t``)."""

    entries: tuple[ModelGroup, ...]
    k: IntArray
    t: IntArray
    W: IntArray = field(init=False)

    @classmethod
    def fresh(cls, target: Target, n: int) -> _Unit:
        groups = build_groups(target)
        k = np.tile(np.array([g.count for g in groups], dtype=np.int64), (n, 1))
        t = np.tile(np.array([g.first_wounds for g in groups], dtype=np.int64), (n, 1))
        u = cls(target.models, k, t)
        u.W = np.array([g.W for g in groups], dtype=np.int64)
        return u

    def counts(self, attacker: Attacker, shares: Shares,
               rows: IntArray) -> dict[tuple[int, ...], IntArray]:
        """The trials of ``rows`` grouped by the weapon counts their survivors carry."""
        if not len(rows):
            return {}
        uniq, inv = np.unique(self.k[rows], axis=0, return_inverse=True)
        out: dict[tuple[int, ...], list[IntArray]] = {}
        for j, kk in enumerate(uniq):
            state = tuple(int(x) for pair in zip(kk, kk, strict=True) for x in pair)
            c = line_counts(attacker, shares, alive_per_entry(self.entries, (*state, -1, -1)))
            out.setdefault(c, []).append(rows[inv.ravel() == j])
        return {c: np.concatenate(parts) for c, parts in out.items()}

    def wounds_left(self) -> IntArray:
        left: IntArray = np.where(self.k > 0, self.t + (self.k - 1) * self.W, 0).sum(axis=1)
        return left


def _freq(x: IntArray, length: int | None = None) -> Distribution:
    counts = np.bincount(x, minlength=length or 0).astype(np.float64)
    return Distribution.from_array(counts / len(x), length=length)


def _charge_made(rng: np.random.Generator, st: Step, n: int) -> npt.NDArray[np.bool_]:
    assert st.distance is not None
    made = rng.integers(1, 7, size=(n, 2)).sum(axis=1) + st.charge_modifier >= st.distance
    if st.reroll_charge or st.command_reroll:
        again = rng.integers(1, 7, size=(n, 2)).sum(axis=1) + st.charge_modifier >= st.distance
        made = made | again
    return np.asarray(made)


class _Play:
    """The trials of one sequence: the target, the charges made, the units fought."""

    def __init__(self, seq: Sequence, n: int, rng: np.random.Generator) -> None:
        self.seq, self.n, self.rng = seq, n, rng
        self.target = _Unit.fresh(seq.target, n)
        self.charging = {st.label for st in seq.steps if st.phase == "charge"}
        self.made: dict[str, npt.NDArray[np.bool_]] = {}
        self.models = {st.label: st for st in seq.steps if st.models}
        self.units: dict[str, _Unit] = {}
        self.marks: dict[str, IntArray] = {}  # the target's models left at a charge made
        self.totals = {k: np.zeros(n, dtype=np.int64)
                       for k in ("attacks", "hits", "wounds", "hazard", "unsaved")}

    def engaged(self, unit: str | None) -> npt.NDArray[np.bool_]:
        if unit in self.charging:
            return self.made.get(unit or "", np.zeros(self.n, dtype=np.bool_))
        return np.ones(self.n, dtype=np.bool_)

    def sides(self, st: Step) -> tuple[_Unit, _Unit, Target, str | None]:
        """Who attacks (its survivors set the weapons), who is hit, as a target, and the
        unit whose engagement the step needs."""
        if not st.fights_back:
            none = np.zeros((self.n, 0), np.int64)
            return (self.units.get(st.label, _Unit(st.models, none, none)), self.target,
                    self.seq.target, st.label)
        first = next((s.label for s in self.seq.steps if s.phase == "charge"), None)
        fought = st.against or first
        assert fought is not None and fought in self.models
        v = self.models[fought]
        victim = Target(name=fought, keywords=v.attacker.keywords if v.attacker else (),
                        models=v.models)
        return (self.target, self.units.setdefault(fought, _Unit.fresh(victim, self.n)),
                victim, fought)

    def attack(self, i: int, st: Step) -> tuple[dict[str, IntArray], npt.NDArray[np.bool_]]:
        """One attack step over the trials where it happens: its own counts per trial,
        and where it happened."""
        assert st.attacker is not None
        shooter, hit, victim, needs = self.sides(st)
        rows = np.flatnonzero(self.engaged(needs) & (hit.k.sum(axis=1) > 0))
        if shooter.k.shape[1]:
            try:
                shares = line_shares(st.attacker, shooter.entries, st.carried_by)
            except ScenarioError as exc:
                raise ScenarioError(f"steps.{i}.attacker.{exc}") from None
            groups = shooter.counts(st.attacker, shares, rows)
        else:
            groups = {tuple(w.count for w in st.attacker.weapons): rows}
        own = {k: np.zeros(self.n, dtype=np.int64) for k in self.totals}
        happens = np.zeros(self.n, dtype=np.bool_)
        for counts, sub in groups.items():
            attacker = scaled_attacker(st.attacker, counts)
            if attacker is None or not len(sub):
                continue
            happens[sub] = True
            start = (hit.k[sub].copy(), hit.t[sub].copy())
            per: dict[str, IntArray] = {}
            simulate(self.seq.scenario(i, attacker, victim), start=start, rng=self.rng,
                     per_trial=per)
            hit.k[sub], hit.t[sub] = start
            for key in own:
                own[key][sub] = per[key]
        if not st.fights_back:
            for key in self.totals:
                self.totals[key] += own[key]
        return own, happens

    def charge(self, st: Step) -> tuple[float, float]:
        """The charge, rolled where the target is alive: P(declared), P(made)."""
        left = self.target.k.sum(axis=1)
        made = _charge_made(self.rng, st, self.n) & (left > 0)
        self.made[st.label] = made
        if self.seq.target.deadly_demise is not None and (st.distance or 0) > 6:
            self.marks[st.label] = np.where(made, left, -1)
        return float((left > 0).mean()), float(made.mean())

    def killed_near(self, unit: str, from_start: bool) -> npt.NDArray[np.float64]:
        m0 = sum(g.count for g in self.seq.target.models)
        left = self.target.k.sum(axis=1)
        start = np.full(self.n, m0) if from_start else self.marks.get(
            unit, np.full(self.n, -1))
        k = np.where(start >= 0, start - left, 0)
        return np.bincount(k, minlength=m0 + 1).astype(np.float64) / self.n

    def losses(self, st: Step) -> Distribution:
        _, unit, victim, _ = self.sides(st)
        start = sum(g.count for g in victim.models)
        return _freq(start - unit.k.sum(axis=1), length=start + 1)


def simulate_sequence(seq: Sequence, trials: int | None = None,
                      seed: int | None = None) -> SequenceResult:
    """Sample ``seq`` over ``trials`` turns (default 100,000) from
    ``numpy.random.default_rng(seed)`` (default 0)."""
    n = trials or DEFAULT_TRIALS
    seed = DEFAULT_SEED if seed is None else seed
    try:  # the contract's bounds, every step's lines together
        check_sampling(n, seed, seq.lines)
    except ValueError as exc:
        raise ScenarioError(str(exc)) from None
    play = _Play(seq, n, np.random.default_rng(seed))
    rules = get_turn_rules(seq.rules)
    cps = step_cps(seq, rules)
    order, note = resolution_order(seq, rules)
    space = StateSpace(build_groups(seq.target), get_ruleset(seq.rules))
    m0, w0 = space.models_left(space.initial), space.wounds_left(space.initial)
    results: list[StepResult] = []
    notes = [note] if note else []
    for i in order:
        st = seq.steps[i]
        losses, p_charge, declared = None, None, 1.0
        if st.phase == "charge":
            declared, p_charge = play.charge(st)
            happens = np.full(n, declared)
            own = {k: np.zeros(n, dtype=np.int64) for k in play.totals}
        else:
            own, happens = play.attack(i, st)
            losses = play.losses(st) if st.fights_back else None
        cp, cp_note = step_cp(seq, st, cps[i], declared, rules)
        notes += [cp_note] if cp_note else []
        left = play.target.k.sum(axis=1)
        results.append(StepResult(
            step=i, unit=st.label, phase=st.phase, fights_back=st.fights_back,
            p_happens=float(happens.mean()), p_charge=p_charge,
            attacks=_freq(own["attacks"]), hits=_freq(own["hits"]),
            wounds=_freq(own["wounds"]), unsaved=_freq(play.totals["unsaved"]),
            damage=_freq(w0 - play.target.wounds_left()),
            models_destroyed=_freq(m0 - left, length=m0 + 1),
            p_unit_destroyed=float((left == 0).mean()),
            attacker_mortal_wounds=_freq(own["hazard"]), attacker_losses=losses,
            cp_spent=cp[0], cp_expected=cp[1]))
    left = play.target.k.sum(axis=1)
    t = play.totals
    demise, far = deadly_demise_by_unit(seq, play.killed_near)

    def total(x: IntArray) -> TurnDistribution:
        return TurnDistribution.model_validate(_freq(x).model_dump())

    return SequenceResult(
        rules=seq.rules, method="monte-carlo", trials=n, seed=seed,
        attacks=total(t["attacks"]), hits=total(t["hits"]), wounds=total(t["wounds"]),
        unsaved=_freq(t["unsaved"]), damage=_freq(w0 - play.target.wounds_left()),
        models_destroyed=_freq(m0 - left, length=m0 + 1),
        p_unit_destroyed=float((left == 0).mean()),
        attacker_mortal_wounds=total(t["hazard"]),
        notes=(*dict.fromkeys(notes), *far,
               f"Monte Carlo: {n} trials, seed {seed}; pmfs are observed frequencies"),
        cp_spent=sum(r.cp_spent for r in results),
        cp_expected=sum(r.cp_expected for r in results), other_mortal_wounds=tuple(demise),
        steps=tuple(results))
