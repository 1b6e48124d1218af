"""The Monte Carlo twin of the exact engine: every die rolled, vectorised over trials.

The simulator consumes exactly what the exact engine consumes, so the two differ only by
sampling error (but for the allocation order, see below):

* the rule set's decisions per weapon line (``exact.resolve_weapons`` →
  ``profile.ResolvedWeapon``: attack-count distribution, skill, caps, critical thresholds,
  re-roll policies, damage distributions, Devastating Wounds kind);
* the outcome of each D6 face (``dice_stages.hit_classes`` / ``wound_classes``) and the
  attacker's choices (``dice_stages.die_outcome(...).lethal_taken`` for 11th-edition Lethal
  Hits 24.23; the faces ``roll_outcomes`` re-rolls under ``"any"``, reference facts §4.5);
* the save of each allocation group (``profile.save_probability``, its threshold without
  re-rolls), and the allocation groups and their tiers (``allocation.build_groups``, the
  order of ``StateSpace.current`` / ``precision_start``, reference facts §4.8, §5.2).

Per weapon line, in the order given, and for all trials at once (numpy arrays):

1. the number of attack dice is drawn from ``attacks_pmf`` (random A, Blast, Rapid Fire);
2. every hit roll is a D6 (Torrent: automatic, never critical, §4.3), re-rolled once if
   its face is in the policy's set (§4.5); critical hits add Sustained Hits (rolled per
   critical, §4.4) and, if Lethal Hits is taken, wound automatically;
3. every wound roll is a D6, re-rolled likewise; a critical wound of a Devastating Wounds
   weapon is queued (§4.10, §5.5), the others go to saves;
4. the allocation order is declared (§5.1; Precision group first, §5.2) and the wounds
   that go to saves are allocated one at a time — a Python loop over the *packet index*,
   each step vectorised across trials: the current group of each trial (it stays current
   until all its models are destroyed, 05.04.01), a save D6 against that group's threshold
   (re-rolled under ``save_reroll``), a damage draw, Feel No Pain per wound point (a
   binomial draw: one D6 per point), damage beyond the model's wounds lost (§4.7). Under
   pooled saves (the rule set's ``pooled_saves``, 11th 05.04, §6.2) the line's save D6 are
   rolled first, re-rolled before sorting and sorted: packet ``j`` uses the ``j``-th
   lowest;
5. 11th (``devastating_wounds_per_line``, 24.10, §6.3): the line's Devastating Wounds
   criticals, as unsaveable packets of ``mortal_pmf``: mortal wounds, each choosing a
   model afresh by the 06.02 order, no Precision.

10th: the queued Devastating Wounds packets after the last line, weapon by weapon in the
order scored (§5.5), allocated like attacks, each weapon declaring its order, Precision
kept — the packets of the exact engine. Last, one hazard D6 per Hazardous weapon carried
(06.03 / 10th Hazardous).

Where the exact engine departs from §5.1–§5.2 (it recomputes the order from the state
after every attack, and starts Precision once for merged Devastating-Wounds blocks), the
simulator follows the reference facts, as the brute-force oracle of the tests does.

Every distribution of the result is the observed frequency over ``trials`` and every mean
the sample mean; the result says ``method: "monte-carlo"`` with its ``trials`` and
``seed`` (defaults 100,000 and 0). The same seed gives the identical result.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

from ..dice import FloatArray
from ..rules import get_ruleset
from ..rules.base import RuleSet
from .allocation import Group, StateSpace, TooLargeError, build_groups
from .dice_stages import die_outcome, hit_classes, wound_classes
from .effects import NamedEffects, resolve_effects
from .exact import (
    ScenarioError,
    _expected_values,
    command_reroll_policy,
    lethal_choices,
    lethal_notes,
    resolve_weapons,
)
from .mc_dice import (
    Sampler,
    codes,
    reroll_faces,
    roll_attacks,
    roll_hits,
    roll_sustained,
    roll_wounds,
)
from .profile import RerollPolicy, ResolvedWeapon, save_probability
from .result import Distribution, NamedDistribution, Result, StageExplanation, WeaponSummary
from .scenario import Scenario

__all__ = ["DEFAULT_SEED", "DEFAULT_TRIALS", "simulate"]

DEFAULT_TRIALS = 100_000
DEFAULT_SEED = 0

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
Gen = np.random.Generator

#: Trials per chunk are chosen so that one chunk rolls about this many dice.
_CHUNK_DICE = 1 << 22
_NO_SAVE = 7  # a save threshold no D6 reaches


# --- one weapon line, decided once ------------------------------------------------------


@dataclass(frozen=True)
class _Packets:
    """Attacks (or Devastating-Wounds criticals) reaching the target: ``save[g]`` the D6
    needed against group ``g`` without re-rolls (7: no save), ``keep[g]`` the probability
    that a wound point is *not* ignored by Feel No Pain."""

    save: IntArray
    save_reroll: RerollPolicy
    damage: Sampler
    keep: FloatArray
    precision: bool


@dataclass(frozen=True)
class _Plan:
    w: ResolvedWeapon
    attacks: Sampler
    hit_code: IntArray
    hit_reroll: BoolArray | None
    sustained: Sampler | None
    lethal: bool
    wound_code: IntArray
    wound_reroll: BoolArray | None
    normal: _Packets
    mortal: _Packets
    mortal_dynamic: bool  # 11th: mortal wounds pick a model each (06.02); 10th: attacks
    notes: tuple[str, ...]
    save_texts: tuple[str, ...]
    command: str | None = None  # 15.02 Command Re-roll of one "hit" or "wound" die


def _keep(groups: tuple[Group, ...], fnp_effect: int | None) -> FloatArray:
    """Feel No Pain (§5.10: the better of the model's own and an effect's)."""
    out = []
    for g in groups:
        fnp = min((f for f in (g.fnp, fnp_effect) if f is not None), default=None)
        out.append(1.0 if fnp is None else (fnp - 1) / 6)
    return np.array(out, dtype=np.float64)


def _plan(w: ResolvedWeapon, scenario: Scenario, space: StateSpace, rules: RuleSet,
          lethal: bool | None = None) -> _Plan:
    """Everything about ``w`` that does not depend on the dice: the same decisions, values
    and choices the exact engine takes (``exact._expected_values``, ``die_outcome``)."""
    e_normal, e_mortal = _expected_values(w, space, rules)
    die = die_outcome(w, e_normal, e_mortal, lethal)
    sus = w.sustained.pmf() if w.sustained is not None else np.array([1.0])

    saves, texts = [], []
    no_reroll = replace(w, save_reroll=None)
    for g in space.groups:
        p, _ = save_probability(g, no_reroll, rules)
        saves.append(_NO_SAVE - round(6 * p))
        texts.append(f"{g.name}: {save_probability(g, w, rules)[1]}")
    keep = _keep(space.groups, w.fnp_effect)
    normal = _Packets(np.array(saves, dtype=np.int64), w.save_reroll, Sampler.of(w.damage_pmf),
                      keep, w.precision)
    mortal = _Packets(np.full(len(space.groups), _NO_SAVE, dtype=np.int64), None,
                      Sampler.of(w.mortal_pmf), keep, w.mortal_precision)
    return _Plan(
        w=w,
        attacks=Sampler.of(w.attacks_pmf),
        hit_code=codes(hit_classes(w)),
        hit_reroll=reroll_faces(die.hit_reroll_faces),
        sustained=None if w.sustained is None else Sampler.of(sus),
        lethal=die.lethal_taken,
        wound_code=codes(wound_classes(w)),
        wound_reroll=reroll_faces(die.wound_reroll_faces),
        normal=normal,
        mortal=mortal,
        mortal_dynamic=w.mortal_afresh,
        notes=w.notes + die.notes,
        save_texts=tuple(texts),
    )


@dataclass(frozen=True)
class _Rolled:
    """Per trial: attack dice, hits, wounds to saves, Devastating-Wounds criticals."""

    attacks: IntArray
    hits: IntArray
    normal: IntArray
    mortal: IntArray


def _roll_weapon(rng: Gen, plan: _Plan, n: int, used: BoolArray | None = None) -> _Rolled:
    """Hit and wound rolls of one weapon line for ``n`` trials (§4.1–§4.5), stage by
    stage (``mc_dice``). ``used`` marks the trials whose Command Re-roll is spent (15.02:
    one per attack)."""
    if used is None:
        used = np.zeros(n, dtype=np.bool_)
    w = plan.w
    attacks = roll_attacks(rng, plan.attacks, n)
    succ, crit = roll_hits(rng, attacks, w.torrent, plan.hit_code, plan.hit_reroll,
                           plan.command == "hit", used)
    extra = roll_sustained(rng, crit, plan.sustained)
    auto = crit if plan.lethal else np.zeros(n, dtype=np.int64)  # Lethal Hits taken
    rolls = succ + extra + (crit - auto)
    ws, wc = roll_wounds(rng, rolls, plan.wound_code, plan.wound_reroll,
                         plan.command == "wound", used)
    if w.devastating:
        normal, mortal = ws + auto, wc
    else:
        normal, mortal = ws + wc + auto, np.zeros(n, dtype=np.int64)
    return _Rolled(attacks, succ + crit + extra, normal, mortal)


# --- the target, one state per trial ----------------------------------------------------


class _Target:
    """Per trial and group: models alive ``k`` and wounds left ``t`` on the group's first
    (possibly wounded) model — the state of ``allocation.StateSpace``, one row per trial —
    plus the declared allocation order ``rank`` and the current group ``cur`` (-1 once
    the unit is destroyed)."""

    def __init__(self, groups: tuple[Group, ...], n: int) -> None:
        self.n_groups = len(groups)
        self.W = np.array([g.W for g in groups], dtype=np.int64)
        self.character = np.array([g.character for g in groups], dtype=np.bool_)
        self.k = np.tile(np.array([g.count for g in groups], dtype=np.int64), (n, 1))
        self.t = np.tile(np.array([g.first_wounds for g in groups], dtype=np.int64), (n, 1))
        self._index = np.arange(len(groups), dtype=np.int64)
        self._tier = np.where(self.character, 2, 0).astype(np.int64)
        # allocation groups held in several parts (allocation.build_groups): parts of one
        # group share its place in the order; within it a wounded model goes first
        alloc = np.array([g.alloc for g in groups], dtype=np.int64)
        self._same = alloc[:, None] == alloc[None, :]
        self._alloc_first = np.array([int(np.flatnonzero(self._same[i])[0])
                                      for i in range(len(groups))], dtype=np.int64)
        self._parts = bool((self._alloc_first != self._index).any())
        self.rank = np.zeros((n, len(groups)), dtype=np.int64)
        self.cur = np.zeros(n, dtype=np.int64)
        self._all = np.arange(n, dtype=np.int64)
        self._big = 4 * self.n_groups

    def _order(self, rows: IntArray) -> IntArray:
        """The allocation order from the state (lower is earlier): non-CHARACTER groups
        holding a wounded model, other non-CHARACTER groups, wounded CHARACTER groups,
        other CHARACTER groups; ties in the order given (§4.8, ``StateSpace.current``)."""
        if not self._parts:
            tier = self._tier + (self.t[rows] >= self.W)
            out: IntArray = tier * self.n_groups + self._index
            return out
        wounded = (self.k[rows] > 0) & (self.t[rows] < self.W)
        group_wounded = (wounded.astype(np.int64) @ self._same.astype(np.int64)) > 0
        tier = self._tier + ~group_wounded
        out = tier * self.n_groups + self._alloc_first
        return out

    def _choose(self, rows: IntArray, dynamic: bool) -> IntArray:
        """The first living group of each trial in ``rows`` (-1: none)."""
        k = self.k[rows]
        if self.n_groups == 1:
            return np.where(k[:, 0] > 0, 0, -1)
        score = self._order(rows) if dynamic else self.rank[rows]
        score = np.where(k > 0, score, self._big)
        best: IntArray = score.argmin(axis=1)
        has = score.min(axis=1) < self._big
        if self._parts:  # within the allocation group: a wounded model first
            same = self._same[best] & (k > 0)
            wounded = self.t[rows] < self.W
            sub = np.where(same, np.where(wounded, 0, self.n_groups) + self._index, self._big)
            best = sub.argmin(axis=1)
        return np.where(has, best, -1)

    def declare(self, precision: bool) -> None:
        """§5.1: the allocation order is declared when a weapon's attacks start; with
        Precision (24.28, §5.2) the first living CHARACTER group (wounded first) goes to
        the front. The current group stays current until destroyed (05.04.01)."""
        rank = self._order(self._all)
        if precision and self.character.any():
            pick = np.where((self.k > 0) & self.character, rank, self._big)
            first = pick.argmin(axis=1)
            has = pick.min(axis=1) < self._big
            rank[self._all[has], first[has]] = -1
        self.rank = rank
        self.cur = self._choose(self._all, False)

    def pooled_faces(self, rng: Gen, counts: IntArray, pk: _Packets) -> IntArray:
        """05.04 (reference facts §6.2): each trial's save rolls made together, re-rolled
        before sorting (``failed``: against the group current while they are rolled) and
        sorted lowest first; row ``i`` holds ``counts[i]`` rolls, then 7s (never used)."""
        width = int(counts.max()) if len(counts) else 0
        faces = rng.integers(1, 7, size=(len(counts), width), dtype=np.int8)
        if pk.save_reroll is not None:
            need = pk.save[np.maximum(self.cur, 0)][:, None]
            again = faces == 1 if pk.save_reroll == "ones" else faces < need
            r = int(np.count_nonzero(again))
            if r:
                faces[again] = rng.integers(1, 7, size=r, dtype=np.int8)
        faces[np.arange(width)[None, :] >= counts[:, None]] = _NO_SAVE
        faces.sort(axis=1)
        out: IntArray = faces.astype(np.int64)
        return out

    def apply(
        self, rng: Gen, counts: IntArray, pk: _Packets, unsaved: IntArray, dynamic: bool,
        pooled: bool = False,
    ) -> None:
        """``counts[i]`` packets to trial ``i``, one packet index at a time. ``dynamic``:
        each packet picks its group afresh from the state (mortal wounds, 06.02).
        ``pooled``: the save rolls are made together and resolved lowest first (05.04);
        otherwise each packet's save is rolled when it is allocated."""
        if dynamic:
            self.cur = self._choose(self._all, True)
        sorted_faces = self.pooled_faces(rng, counts, pk) if pooled else None
        by_count = np.argsort(-counts, kind="stable")
        remaining = len(counts) - np.cumsum(np.bincount(counts))  # trials with > j packets
        for j in range(len(remaining) - 1):
            a = by_count[: remaining[j]]
            g = self.cur[a]
            live = g >= 0  # §5.4: a destroyed unit takes nothing more
            a, g = a[live], g[live]
            if not len(a):
                break
            need = pk.save[g]
            if sorted_faces is not None:
                through = sorted_faces[a, j] < need
                a, g = a[through], g[through]
            elif (need < _NO_SAVE).any():
                faces = rng.integers(1, 7, size=len(a), dtype=np.int8)
                if pk.save_reroll is not None:
                    again = faces == 1 if pk.save_reroll == "ones" else faces < need
                    r = int(np.count_nonzero(again))
                    if r:
                        faces[again] = rng.integers(1, 7, size=r, dtype=np.int8)
                through = faces < need
                a, g = a[through], g[through]
            unsaved[a] += 1
            lost = pk.damage.draw(rng, len(a))
            keep = pk.keep[g]
            if (keep < 1.0).any():  # Feel No Pain: one D6 per wound point (§4.7)
                lost = rng.binomial(lost, keep).astype(np.int64)
            t = self.t[a, g]
            k = self.k[a, g]
            dead = lost >= t  # damage beyond the model's wounds is lost
            k_new = k - dead
            self.t[a, g] = np.where(dead, np.where(k_new > 0, self.W[g], 0), t - lost)
            self.k[a, g] = k_new
            moved = dead if (dynamic or self._parts) else dead & (k_new == 0)
            if moved.any():
                rows = a[moved]
                self.cur[rows] = self._choose(rows, dynamic)

    def wounds_left(self) -> IntArray:
        left: IntArray = np.where(self.k > 0, self.t + (self.k - 1) * self.W, 0).sum(axis=1)
        return left


# --- the simulation ---------------------------------------------------------------------


@dataclass
class _Totals:
    """Per-trial outcomes over all chunks."""

    attacks: IntArray
    hits: IntArray
    wounds: IntArray
    unsaved: IntArray
    damage: IntArray
    left: IntArray  # models left
    hazard: IntArray
    per_weapon: FloatArray  # (weapons, 4): sums of attacks, hits, wounds, criticals
    character_destroyed: int = 0  # trials in which a CHARACTER model was destroyed

    @classmethod
    def empty(cls, trials: int, weapons: int) -> _Totals:
        def z() -> IntArray:
            return np.zeros(trials, dtype=np.int64)

        return cls(z(), z(), z(), z(), z(), z(), z(), np.zeros((weapons, 4)))


def _mortal(rng: Gen, target: _Target, plan: _Plan, m: IntArray, unsaved: IntArray) -> None:
    """The Devastating Wounds criticals ``m`` of one line: mortal wounds picking a model
    afresh (11th, 06.02) or allocated like attacks, the order declared (10th)."""
    if not m.any():
        return
    if not plan.mortal_dynamic:
        target.declare(plan.mortal.precision)
    target.apply(rng, m, plan.mortal, unsaved, dynamic=plan.mortal_dynamic)


def _chunk(
    rng: Gen, rules: RuleSet, plans: list[_Plan], groups: tuple[Group, ...], lo: int, hi: int,
    hazard: tuple[int, int, int], out: _Totals,
    before: tuple[tuple[Sampler, _Packets], ...] = (),
    lone_character: bool = False,
    start: tuple[IntArray, IntArray] | None = None,
) -> None:
    """Trials ``lo:hi``: mortal wounds before the attacks, every weapon in order, then
    Devastating Wounds, then hazard. ``start``: the target's state per trial (models
    alive and wounds left per group) instead of undamaged; it is updated in place."""
    n = hi - lo
    target = _Target(groups, n)
    if start is not None:
        target.k[:], target.t[:] = start[0][lo:hi], start[1][lo:hi]
    start_wounds = target.wounds_left()  # per trial (a sequence starts them apart)
    unsaved = np.zeros(n, dtype=np.int64)
    for count, packet in before:  # 06.02: one at a time, a model chosen for each
        target.apply(rng, count.draw(rng, n), packet, np.zeros(n, dtype=np.int64),
                     dynamic=True)
    queued: list[IntArray] = []
    used = np.zeros(n, dtype=np.bool_)  # Command Re-roll spent (15.02)
    for i, plan in enumerate(plans):
        r = _roll_weapon(rng, plan, n, used)
        out.attacks[lo:hi] += r.attacks
        out.hits[lo:hi] += r.hits
        out.wounds[lo:hi] += r.normal + r.mortal
        out.per_weapon[i] += (r.attacks.sum(), r.hits.sum(), (r.normal + r.mortal).sum(),
                              r.mortal.sum())
        target.declare(plan.normal.precision)
        target.apply(rng, r.normal, plan.normal, unsaved, dynamic=False,
                     pooled=rules.pooled_saves)
        if rules.devastating_wounds_per_line:  # 24.10: after this line's normal damage
            _mortal(rng, target, plan, r.mortal, unsaved)
        else:
            queued.append(r.mortal)
    # 10th (§4.10, §5.5): Devastating Wounds after all normal damage, in the order scored
    for plan, m in zip(plans, queued, strict=False):  # empty under 11th
        _mortal(rng, target, plan, m, unsaved)
    out.unsaved[lo:hi] = unsaved
    if start is not None:
        start[0][lo:hi], start[1][lo:hi] = target.k, target.t
    out.damage[lo:hi] = start_wounds - target.wounds_left()
    out.left[lo:hi] = target.k.sum(axis=1)
    # CHARACTER models: those marked so, or every model of a CHARACTER unit (a lone one)
    chars = target.character if target.character.any() else (
        np.full(target.n_groups, lone_character, dtype=np.bool_))
    if chars.any():
        counts = np.array([g.count for g in groups], dtype=np.int64)
        dead = (target.k[:, chars] < counts[chars]).any(axis=1)
        out.character_destroyed += int(np.count_nonzero(dead))
    rolls, fails_on, each = hazard
    if rolls:
        faces = rng.integers(1, 7, size=(n, rolls), dtype=np.int8)
        out.hazard[lo:hi] = (faces <= fails_on).sum(axis=1) * each


def _diceper_trial(plans: list[_Plan]) -> float:
    """A generous estimate of the D6 one trial rolls (hit and wound rolls), for chunking."""
    total = 0.0
    for p in plans:
        mean_attacks = float(np.dot(np.arange(len(p.w.attacks_pmf)), p.w.attacks_pmf))
        total += 2 * mean_attacks * (1 + (p.sustained.top if p.sustained else 0))
    return max(1.0, total)


def _freq(x: IntArray, trials: int, length: int | None = None) -> Distribution:
    counts = np.bincount(x, minlength=length or 0).astype(np.float64)
    return Distribution.from_array(counts / trials, length=length)


def simulate(scenario: Scenario, start: tuple[IntArray, IntArray] | None = None,
             rng: Gen | None = None, per_trial: dict[str, IntArray] | None = None) -> Result:
    """Sample ``scenario`` (``method: "monte-carlo"``): ``trials`` runs (default 100,000)
    from ``numpy.random.default_rng(seed)`` (default seed 0); pmfs are frequencies.

    >>> from tactica.combat.scenario import Scenario
    >>> s = Scenario.model_validate({"method": "monte-carlo", "trials": 20000, "seed": 1,
    ...   "attacker": {"weapons": [{"name": "Bolt rifle", "count": 10, "A": "1",
    ...                             "skill": 3, "S": 4, "AP": -1, "D": "1"}]},
    ...   "target": {"models": [{"count": 10, "T": 4, "Sv": 3, "W": 2}]}})
    >>> r = simulate(s)
    >>> r.method, r.trials, r.seed, abs(r.models_destroyed.mean - 0.5877) < 0.02
    ('monte-carlo', 20000, 1, True)

    A sequence of attacks (``combat.turn_mc``) passes ``start``: the target's state per
    trial (models alive ``k`` and wounds left ``t`` per allocation group, one row per
    trial: that many trials), updated in place; ``rng`` to draw from; and ``per_trial``,
    filled with each trial's attacks, hits, wounds, unsaved and hazard mortal wounds.
    """
    trials = scenario.trials if scenario.trials is not None else DEFAULT_TRIALS
    trials = len(start[0]) if start is not None else trials
    seed = scenario.seed if scenario.seed is not None else DEFAULT_SEED
    if seed < 0:
        raise ScenarioError(f"seed: {seed} must be 0 or more")
    setup = _set_up(scenario)
    rng = np.random.default_rng(seed) if rng is None else rng
    out = _Totals.empty(trials, len(setup.plans))
    size = max(1, min(trials, int(_CHUNK_DICE // _diceper_trial(setup.plans))))
    for lo in range(0, trials, size):
        _chunk(rng, setup.rules, setup.plans, setup.groups, lo, min(trials, lo + size),
               setup.hazard, out, setup.before,
               "CHARACTER" in setup.scenario.target.keywords, start)
    if per_trial is not None:
        per_trial.update(attacks=out.attacks, hits=out.hits, wounds=out.wounds,
                         unsaved=out.unsaved, hazard=out.hazard)
    return _result(setup, out, trials, seed)


@dataclass(frozen=True)
class _SetUp:
    """What every trial samples from: the weapon lines' plans, the target's groups, the
    mortal wounds before the attacks and the hazard rolls (n, fails on 1-x, mortal wounds)."""

    scenario: Scenario  # the named effects applied
    rules: RuleSet
    named: NamedEffects
    notes: tuple[str, ...]
    plans: list[_Plan]
    groups: tuple[Group, ...]
    before: tuple[tuple[Sampler, _Packets], ...]
    hazard: tuple[int, int, int]


def _set_up(original: Scenario) -> _SetUp:
    """The scenario's effects resolved, each weapon line planned (with the exact engine's
    11th-edition Lethal Hits choice, 24.23, and its Command Re-roll policy, 15.02)."""
    rules = get_ruleset(original.rules)
    effects, named = resolve_effects(original)
    scenario = named.scenario(original)
    weapons = resolve_weapons(scenario, rules, effects)
    groups = build_groups(scenario.target)
    space = StateSpace(groups)
    try:  # the exact engine's 11th-edition Lethal Hits choice (24.23), over the whole attack
        lethal = lethal_choices(original)
    except TooLargeError:
        lethal = (None,) * len(weapons)
    plans = [_plan(w, scenario, space, rules, lethal[i]) for i, w in enumerate(weapons)]
    command = next((e.command_reroll for e in effects if e.command_reroll), None)
    use = set() if command is None else command_reroll_policy(scenario, rules, weapons,
                                                              command, lethal)
    for wi in use:
        plans[wi] = replace(plans[wi], command=command)
    fnp_effect = min((e.fnp for e in effects if e.fnp), default=None)
    mw = _Packets(np.full(len(groups), _NO_SAVE, dtype=np.int64), None,
                  Sampler.of(np.array([0.0, 1.0])), _keep(groups, fnp_effect), False)
    before = tuple((Sampler.of(e.mortal_wounds.pmf()), mw) for e in effects
                   if e.mortal_wounds is not None) + tuple(
        (Sampler.of(pmf), mw) for _, pmf in named.mortal_before)
    n_haz = sum(w.count for w in weapons if w.hazardous)
    hazard = (n_haz, rules.hazard_fails_on, rules.hazard_mortal_wounds(scenario.attacker.keywords))
    return _SetUp(scenario, rules, named, lethal_notes(original, lethal), plans, groups,
                  before, hazard)


def _explanations(setup: _SetUp, out: _Totals, trials: int
                  ) -> tuple[list[StageExplanation], list[str], list[str], list[WeaponSummary]]:
    """Each line's stage explanations, notes, what was not calculated and its means."""
    stages: list[StageExplanation] = []
    notes: list[str] = list(setup.notes)
    not_calc: list[str] = list(setup.named.not_calculated)
    summaries = []
    for i, plan in enumerate(setup.plans):
        w = plan.w
        notes.extend(plan.notes)
        for item in w.not_calculated:
            if item not in not_calc:
                not_calc.append(item)
        for stage in ("attacks", "hit", "wound"):
            if stage in w.explanations:
                stages.append(StageExplanation.model_validate(
                    {"weapon": w.name, "stage": stage, "detail": w.explanations[stage]}))
        stages.append(StageExplanation(weapon=w.name, stage="save",
                                       detail="; ".join(plan.save_texts)))
        stages.append(StageExplanation(weapon=w.name, stage="damage",
                                       detail=w.explanations["damage"]))
        a, h, wd, c = (float(x) / trials for x in out.per_weapon[i])
        summaries.append(WeaponSummary(weapon=w.name, attacks=a, hits=h, wounds=wd,
                                       critical_wounds=c))
    n_haz, fails_on, mortal = setup.hazard
    if n_haz:
        stages.append(StageExplanation(
            weapon="Hazardous", stage="hazard",
            detail=f"{n_haz} hazard roll(s), each fails on 1-{fails_on}: "
                   f"{mortal} mortal wound(s) to the attacker"))
    return stages, notes, not_calc, summaries


def _result(setup: _SetUp, out: _Totals, trials: int, seed: int) -> Result:
    """The result: every pmf the observed frequencies of the trials."""
    named = setup.named
    stages, notes, not_calc, summaries = _explanations(setup, out, trials)
    notes.extend(named.notes)
    notes.append(f"Monte Carlo: {trials} trials, seed {seed}; pmfs are observed frequencies")
    start_models = sum(g.count for g in setup.groups)
    killed = start_models - out.left
    return Result(
        rules=setup.rules.name,
        method="monte-carlo",
        trials=trials,
        seed=seed,
        attacks=_freq(out.attacks, trials),
        hits=_freq(out.hits, trials),
        wounds=_freq(out.wounds, trials),
        unsaved=_freq(out.unsaved, trials),
        damage=_freq(out.damage, trials),
        models_destroyed=_freq(killed, trials, length=start_models + 1),
        p_unit_destroyed=float(np.count_nonzero(out.left == 0)) / trials,
        attacker_mortal_wounds=_freq(out.hazard, trials),
        weapons=tuple(summaries),
        stages=tuple(stages),
        notes=tuple(dict.fromkeys(notes)),
        not_calculated=tuple(not_calc),
        effects_applied=named.applied,
        cp_spent=named.cp,
        # independent of the attack: given exactly, not sampled
        other_mortal_wounds=tuple(
            NamedDistribution(label=label, distribution=Distribution.from_array(pmf))
            for label, pmf in named.side_distributions(out.character_destroyed / trials)),
    )
