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

from tactica.dice import FloatArray
from tactica.rules import get_ruleset
from tactica.rules.base import RuleSet

from ..contract.result import (
    Distribution,
    NamedDistribution,
    Result,
    StageExplanation,
    WeaponSummary,
)
from ..contract.sampling import DEFAULT_TRIALS, check_sampling
from ..contract.scenario import Effect, Scenario
from ..exact.allocation import Group, StateSpace, TooLargeError, build_groups
from ..exact.attack_lines import expected_values
from ..exact.dice_stages import die_outcome, hit_classes, wound_classes
from ..exact.effects import NamedEffects, resolve_effects
from ..exact.engine import (
    ScenarioError,
    command_reroll_policy,
    lethal_choices,
    lethal_notes,
    resolve_weapons,
)
from ..exact.profile import ResolvedWeapon, save_probability
from ..exact.select_targets import Part, counts_models, mixed
from ..exact.stages.damage import feel_no_pain
from .dice import (
    Sampler,
    codes,
    reroll_faces,
    roll_attacks,
    roll_hits,
    roll_sustained,
    roll_wounds,
)
from .target import NO_SAVE, Packets, TrialTarget

__all__ = ["DEFAULT_SEED", "DEFAULT_TRIALS", "simulate"]

DEFAULT_SEED = 0

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
Gen = np.random.Generator

#: Trials per chunk are chosen so that one chunk rolls about this many dice.
_CHUNK_DICE = 1 << 22


# --- one weapon line, decided once ------------------------------------------------------


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
    normal: Packets
    mortal: Packets
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
    and choices the exact engine takes (``attack_lines.expected_values``, ``die_outcome``)."""
    e_normal, e_mortal = expected_values(w, space, rules)
    die = die_outcome(w, e_normal, e_mortal, lethal)
    sus = w.sustained.pmf() if w.sustained is not None else np.array([1.0])

    saves, texts = [], []
    no_reroll = replace(w, save_reroll=None)
    for g in space.groups:
        p, _ = save_probability(g, no_reroll, rules)
        saves.append(NO_SAVE - round(6 * p))
        texts.append(f"{g.name}: {save_probability(g, w, rules)[1]}")
    keep = _keep(space.groups, w.fnp_effect)
    keep_mortal = _keep(space.groups, w.fnp_mortal)
    normal = Packets(np.array(saves, dtype=np.int64), w.save_reroll, Sampler.of(w.damage_pmf),
                      keep, w.precision)
    mortal = Packets(np.full(len(space.groups), NO_SAVE, dtype=np.int64), None,
                      Sampler.of(w.mortal_pmf), keep_mortal, w.mortal_precision)
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


def _mortal(rng: Gen, target: TrialTarget, plan: _Plan, m: IntArray, unsaved: IntArray) -> None:
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
    before: tuple[tuple[Sampler, Packets], ...] = (),
    lone_character: bool = False,
    start: tuple[IntArray, IntArray] | None = None,
) -> None:
    """Trials ``lo:hi``: mortal wounds before the attacks, every weapon in order, then
    Devastating Wounds, then hazard. ``start``: the target's state per trial (models
    alive and wounds left per group) instead of undamaged; it is updated in place."""
    n = hi - lo
    target = TrialTarget(groups, n, rules)
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

    >>> from tactica.combat.contract.scenario import Scenario
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
    Blast and Cleave then count each trial's models alive (``exact.select_targets``):
    the trials are run in groups of one count, and the results mixed.
    """
    trials = scenario.trials if scenario.trials is not None else DEFAULT_TRIALS
    trials = len(start[0]) if start is not None else trials
    seed = scenario.seed if scenario.seed is not None else DEFAULT_SEED
    setup = _set_up(scenario)
    if start is None:  # a sequence's steps are bounded together (turn.sampled)
        try:  # the contract's bounds, on the lines as fielded and a copy never validated
            check_sampling(trials, seed, len(setup.plans))
        except ValueError as exc:
            raise ScenarioError(str(exc)) from None
    rng = np.random.default_rng(seed) if rng is None else rng
    parts = _by_models_alive(setup, start) if start is not None else None
    if start is None or parts is None:
        out = _trials(rng, setup, trials, start)
        result = _result(setup, out, trials, seed)
    else:
        out = _Totals.empty(trials, len(setup.plans))
        found = []
        for models, rows in parts:
            part = setup if models is None else _set_up(scenario, models)
            sub = (start[0][rows], start[1][rows])
            done = _trials(rng, part, len(rows), sub)
            start[0][rows], start[1][rows] = sub
            for name in ("attacks", "hits", "wounds", "unsaved", "hazard"):
                getattr(out, name)[rows] = getattr(done, name)
            alive = sub[0].sum(axis=1)
            found.append((Part(int(alive.max()), int(alive.min()), len(rows) / trials, {}),
                          _result(part, done, len(rows), seed)))
        r = mixed(found)
        notes = (*(n for n in r.notes if not n.startswith("Monte Carlo:")),
                 _trials_note(trials, seed))
        result = r.model_copy(update={"trials": trials, "notes": notes})
    if per_trial is not None:
        per_trial.update(attacks=out.attacks, hits=out.hits, wounds=out.wounds,
                         unsaved=out.unsaved, hazard=out.hazard)
    return result


def _trials(rng: Gen, setup: _SetUp, trials: int,
            start: tuple[IntArray, IntArray] | None) -> _Totals:
    """``trials`` trials of ``setup``, in chunks (from ``start``, updated in place)."""
    out = _Totals.empty(trials, len(setup.plans))
    size = max(1, min(trials, int(_CHUNK_DICE // _diceper_trial(setup.plans))))
    for lo in range(0, trials, size):
        _chunk(rng, setup.rules, setup.plans, setup.groups, lo, min(trials, lo + size),
               setup.hazard, out, setup.before,
               "CHARACTER" in setup.scenario.target.keywords, start)
    return out


def _by_models_alive(setup: _SetUp, start: tuple[IntArray, IntArray]
                     ) -> list[tuple[int | None, IntArray]] | None:
    """The trials of ``start`` by the count [BLAST] and [CLEAVE] read of their models
    alive (``exact.select_targets``; ``None``: all the target's), or ``None`` where no
    line reads it or every trial gives the full count."""
    if not counts_models(setup.scenario, setup.rules, setup.effects):
        return None
    full = setup.scenario.target.model_count
    alive = start[0].sum(axis=1)
    counts = np.array([setup.rules.per_five_models(int(m)) for m in range(full + 1)])[alive]
    if (counts == setup.rules.per_five_models(full)).all():
        return None
    out: list[tuple[int | None, IntArray]] = []
    for c in sorted(set(counts.tolist()), reverse=True):
        rows = np.flatnonzero(counts == c)
        most = int(alive[rows].max())
        out.append((None if most == full else most, rows))
    return out


@dataclass(frozen=True)
class _SetUp:
    """What every trial samples from: the weapon lines' plans, the target's groups, the
    mortal wounds before the attacks and the hazard rolls (n, fails on 1-x, mortal wounds)."""

    scenario: Scenario  # the named effects applied
    rules: RuleSet
    effects: tuple[Effect, ...]
    named: NamedEffects
    notes: tuple[str, ...]
    plans: list[_Plan]
    groups: tuple[Group, ...]
    before: tuple[tuple[Sampler, Packets], ...]
    hazard: tuple[int, int, int]


def _set_up(original: Scenario, models: int | None = None) -> _SetUp:
    """The scenario's effects resolved, each weapon line planned (with the exact engine's
    11th-edition Lethal Hits choice, 24.23, and its Command Re-roll policy, 15.02);
    ``models``: the target's models at the Select Targets step, if not all."""
    rules = get_ruleset(original.rules)
    effects, named = resolve_effects(original)
    scenario = named.scenario(original)
    weapons = resolve_weapons(scenario, rules, effects, models=models)
    groups = build_groups(scenario.target)
    space = StateSpace(groups, rules)
    try:  # the exact engine's 11th-edition Lethal Hits choice (24.23), over the whole attack
        lethal = lethal_choices(original, models)
    except TooLargeError:
        lethal = (None,) * len(weapons)
    plans = [_plan(w, scenario, space, rules, lethal[i]) for i, w in enumerate(weapons)]
    command = next((e.command_reroll for e in effects if e.command_reroll), None)
    use = set() if command is None else command_reroll_policy(scenario, rules, weapons,
                                                              command, lethal)
    for wi in use:
        plans[wi] = replace(plans[wi], command=command)
    fnp_mortal = feel_no_pain(effects, mortal=True)
    mw = Packets(np.full(len(groups), NO_SAVE, dtype=np.int64), None,
                  Sampler.of(np.array([0.0, 1.0])), _keep(groups, fnp_mortal), False)
    before = tuple((Sampler.of(e.mortal_wounds.pmf()), mw) for e in effects
                   if e.mortal_wounds is not None) + tuple(
        (Sampler.of(pmf), mw) for _, pmf in named.mortal_before)
    n_haz = sum(w.count for w in weapons if w.hazardous)
    hazard = (n_haz, rules.hazard_fails_on, rules.hazard_mortal_wounds(scenario.attacker.keywords))
    return _SetUp(scenario, rules, effects, named, lethal_notes(original, lethal), plans,
                  groups, before, hazard)


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


def _trials_note(trials: int, seed: int) -> str:
    return f"Monte Carlo: {trials} trials, seed {seed}; pmfs are observed frequencies"


def _result(setup: _SetUp, out: _Totals, trials: int, seed: int) -> Result:
    """The result: every pmf the observed frequencies of the trials."""
    named = setup.named
    stages, notes, not_calc, summaries = _explanations(setup, out, trials)
    notes.extend(named.notes)
    notes.append(_trials_note(trials, seed))
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
