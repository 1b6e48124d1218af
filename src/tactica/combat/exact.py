"""The exact engine: the whole attack sequence as probability distributions.

For each weapon line the rule set decides the numbers (``profile.resolve_weapon``); one
attack die becomes an exact joint outcome (``dice_stages``); totals over the random
number of dice are compound distributions. The target is a Markov state
(``allocation``): attacks that reach it are applied one at a time, in order, the state
carrying from weapon to weapon. Devastating-Wounds criticals are counted per weapon and
applied after all normal damage of the unit (06.02 "resolve all of the normal damage
first"; reference facts §4.10, §5.5), in the order scored: weapon by weapon, with the
counts carried as extra axes until then.

>>> from tactica.combat.scenario import Scenario
>>> s = Scenario.model_validate({
...   "attacker": {"weapons": [{"name": "Bolt rifle", "count": 10, "A": "1", "skill": 3,
...                             "S": 4, "AP": -1, "D": "1"}]},
...   "target": {"models": [{"count": 10, "T": 4, "Sv": 3, "W": 2}]}})
>>> round(calculate_exact(s).models_destroyed.mean, 4)
0.5877
"""

from __future__ import annotations

import functools
from collections import defaultdict
from dataclasses import dataclass
from itertools import product
from typing import Any

import numpy as np

from ..dice import FloatArray
from ..rules import get_ruleset
from ..rules.base import RuleSet
from .allocation import (
    Operator,
    Packet,
    State,
    StateSpace,
    TooLargeError,
    build_groups,
    loss_pmf,
)
from .dice_stages import DieOutcome, compound, conv2, die_outcome, trim
from .effects import resolve_effects
from .profile import ResolvedWeapon, resolve_weapon, save_probability
from .result import Distribution, NamedDistribution, Result, StageExplanation, WeaponSummary
from .scenario import Effect, Scenario, ScenarioError

__all__ = [
    "ScenarioError",
    "calculate_exact",
    "calculate_exact_from",
    "command_reroll_policy",
    "lethal_choices",
    "lethal_notes",
    "resolve_weapons",
]

#: A distribution over the target's states, each with the pmf of unsaved attacks so far.
Initial = dict[State, FloatArray]

#: Stack the per-packet states in one array when it has at most this many numbers.
_STACK_LIMIT = 8_000_000
#: Upper bound on pending Devastating-Wounds count combinations.
_MAX_DW_KEYS = 5_000


def resolve_weapons(
    scenario: Scenario, rules: RuleSet, effects: tuple[Effect, ...] | None = None
) -> tuple[ResolvedWeapon, ...]:
    """Every weapon line, resolved; weapons of the wrong type for the phase are refused.
    Without ``effects`` the scenario's effects are resolved here (named ones included)."""
    if effects is None:
        effects, named = resolve_effects(scenario)
        scenario = named.scenario(scenario)
    out = []
    for i, line in enumerate(scenario.attacker.weapons):
        melee = line.range == "Melee"
        if melee != (scenario.phase == "fight"):
            kind = "melee" if melee else "ranged"
            raise ScenarioError(
                f"attacker.weapons.{i}: {line.name!r} is a {kind} weapon but the phase is "
                f"{scenario.phase!r}"
            )
        out.append(resolve_weapon(line, scenario, rules, effects))
    return tuple(out)


def _expected_values(w: ResolvedWeapon, space: StateSpace,
                     rules: RuleSet) -> tuple[float, float]:
    """Expected damage of one wound that goes to saves, and of one Devastating-Wounds
    critical, against the group first in the allocation order (for attacker choices)."""
    g = space.current(space.initial)
    assert g is not None
    grp = space.groups[g]
    p_save, _ = save_probability(grp, w, rules)
    fnp = min((f for f in (grp.fnp, w.fnp_effect) if f is not None), default=None)

    def mean_loss(pmf: FloatArray) -> float:
        loss = loss_pmf(tuple(float(x) for x in pmf), grp.first_wounds, fnp)
        return float(np.dot(np.arange(len(loss)), loss))

    e_normal = (1 - p_save) * mean_loss(w.damage_pmf)
    e_mortal = mean_loss(w.mortal_pmf)
    return e_normal, e_mortal


def _antidiagonal(nm: FloatArray) -> FloatArray:
    out = np.zeros(nm.shape[0] + nm.shape[1] - 1)
    for n in range(nm.shape[0]):
        out[n : n + nm.shape[1]] += nm[n]
    return out


def _conv_nd(a: FloatArray, b: FloatArray) -> FloatArray:
    return np.convolve(a, b) if a.ndim == 1 else conv2(a, b)


@dataclass(frozen=True)
class _Split:
    """One weapon line under Command Re-roll (15.02): its totals split by "no failed die"
    (sub-pmfs ``ok_*``) and "a failed die, one of them rolled again" (``fail_*``); ``gain``
    is what re-rolling one failed die of it is worth (a fresh die; a failure is worth 0),
    ``p_fail`` the chance it has a failed die."""

    ok_hits: FloatArray
    ok_nm: FloatArray
    fail_hits: FloatArray
    fail_nm: FloatArray
    gain: float
    p_fail: float


def _command_split(
    w: ResolvedWeapon, die: DieOutcome, hits: FloatArray, nm: FloatArray, command: str,
    rules: RuleSet, e_normal: float, e_mortal: float,
) -> _Split | None:
    """The split of ``w`` for one re-rolled ``command`` ("hit"/"wound") die, or None when
    the weapon's own re-rolls already cover that roll (a die is re-rolled at most once)."""
    policy = w.hit_reroll if command == "hit" else w.wound_reroll
    if policy is not None or (command == "hit" and w.snap_shooting
                              and not rules.snap_shooting_hit_rerolls):
        return None
    ok = die.no_failed_hit if command == "hit" else die.no_failed_wound
    assert ok is not None and die.fresh_wound is not None
    ok_hits = compound(w.attacks_pmf, trim(ok.sum(axis=(1, 2))))
    ok_nm = compound(w.attacks_pmf, trim(ok.sum(axis=0)))
    if command == "hit":  # the failed die (no hit) is rolled again: a fresh attack die
        fresh_h, fresh_nm = die.hits, die.to_save
        fail_hits = trim(_conv_nd(_padded(hits, ok_hits, -1.0), fresh_h))
    else:  # a failed wound die: a fresh wound roll, the hits unchanged
        fresh_nm = die.fresh_wound
        fail_hits = _padded(hits, ok_hits, -1.0)
    fail_nm = trim(_conv_nd(_padded(nm, ok_nm, -1.0), fresh_nm))
    return _Split(ok_hits, ok_nm, fail_hits, fail_nm,
                  gain=_value(fresh_nm, e_normal, e_mortal),
                  p_fail=max(0.0, 1.0 - float(ok_nm.sum())))


def _padded(a: FloatArray, b: FloatArray, sign: float = 1.0) -> FloatArray:
    """``a + sign * b`` for pmfs of different lengths (zero-padded)."""
    shape = tuple(max(x, y) for x, y in zip(a.shape, b.shape, strict=True))
    out = np.zeros(shape)
    out[tuple(slice(0, n) for n in a.shape)] += a
    out[tuple(slice(0, n) for n in b.shape)] += sign * b
    return out


def _command_policy(splits: dict[int, _Split], n_weapons: int) -> set[int]:
    """The weapon lines on whose first failed die the attacker uses Command Re-roll: the
    rolls come weapon by weapon, and the stratagem is used "just after" a roll, so the
    best choice is found backwards: use it on line i (if it has a failed die) when that
    gains at least the expected gain of waiting for the later lines."""
    use: set[int] = set()
    wait = 0.0
    for wi in range(n_weapons - 1, -1, -1):
        sp = splits.get(wi)
        if sp is None or sp.gain <= 0.0 or sp.p_fail <= 1e-15:
            continue
        if sp.gain >= wait:
            use.add(wi)
            wait = sp.p_fail * sp.gain + (1 - sp.p_fail) * wait
    return use


def _command_branches(
    splits: dict[int, _Split], use: set[int], hits_all: list[FloatArray],
    nm_all: list[FloatArray],
) -> list[list[tuple[FloatArray, FloatArray]]]:
    """The attack as a sum of branches (products of per-weapon sub-pmfs): Command Re-roll
    used on line i (no failed die on the earlier lines it would have been used on), or
    never used."""
    n = len(hits_all)
    branches = []
    for i in [*sorted(use), None]:
        branch = []
        for wi in range(n):
            sp = splits.get(wi)
            if i is not None and wi == i:
                assert sp is not None
                branch.append((sp.fail_hits, sp.fail_nm))
            elif wi in use and (i is None or wi < i):
                assert sp is not None
                branch.append((sp.ok_hits, sp.ok_nm))
            else:
                branch.append((hits_all[wi], nm_all[wi]))
        branches.append(branch)
    return branches


def _weapon_marginal(branches: list[list[tuple[FloatArray, FloatArray]]], wi: int,
                     part: int) -> FloatArray:
    """One weapon line's distribution over all branches (the others' masses as weights)."""
    out: FloatArray | None = None
    for br in branches:
        weight = 1.0
        for wj, (_, nm) in enumerate(br):
            if wj != wi:
                weight *= float(nm.sum())
        term = weight * br[wi][part]
        out = term if out is None else _padded(out, term)
    assert out is not None
    return out


def _sum_pmfs(pmfs: list[FloatArray]) -> FloatArray:
    return functools.reduce(_padded, pmfs)


@dataclass(frozen=True)
class _WeaponTotals:
    """One weapon line's totals over its attack dice, and the values of its outcomes."""

    die: DieOutcome
    hits: FloatArray
    nm: FloatArray
    e_normal: float
    e_mortal: float


def _weapon_totals(w: ResolvedWeapon, wi: int, scenario: Scenario, space: StateSpace,
                   rules: RuleSet, lethal: tuple[bool | None, ...],
                   memo: dict[Any, Any]) -> _WeaponTotals:
    """The exact totals of weapon line ``wi`` (hits; (n, m) wounds to save and criticals)
    for the attacker's Lethal Hits choice, kept in ``memo`` per choice."""
    e_normal, e_mortal = _expected_values(w, space, rules)
    choice = lethal[wi] if wi < len(lethal) else None
    die = die_outcome(w, e_normal, e_mortal, choice)
    key = ("totals", wi, choice)
    if key not in memo:
        _guard_compound(w, die.to_save)
        memo[key] = (compound(w.attacks_pmf, die.hits), compound(w.attacks_pmf, die.to_save))
    hits, nm = memo[key]
    return _WeaponTotals(die, hits, nm, e_normal, e_mortal)


def _split_of(t: _WeaponTotals, w: ResolvedWeapon, command: str,
              rules: RuleSet) -> _Split | None:
    return _command_split(w, t.die, t.hits, t.nm, command, rules, t.e_normal, t.e_mortal)


def command_reroll_policy(scenario: Scenario, rules: RuleSet,
                          weapons: tuple[ResolvedWeapon, ...], command: str,
                          lethal: tuple[bool | None, ...] = ()) -> set[int]:
    """The weapon lines on whose first failed die Command Re-roll is used (the Monte
    Carlo twin follows the same policy)."""
    space = StateSpace(build_groups(scenario.target))
    memo: dict[Any, Any] = {}
    splits: dict[int, _Split] = {}
    for wi, w in enumerate(weapons):
        t = _weapon_totals(w, wi, scenario, space, rules, lethal, memo)
        split = _split_of(t, w, command, rules)
        if split is not None:
            splits[wi] = split
    return _command_policy(splits, len(weapons))


def _value(nm: FloatArray, e_normal: float, e_mortal: float) -> float:
    n = float(np.dot(nm.sum(axis=1), np.arange(nm.shape[0])))
    m = float(np.dot(nm.sum(axis=0), np.arange(nm.shape[1])))
    return n * e_normal + m * e_mortal


#: Refuse exact work above this many multiply-adds (a few seconds on one core): such
#: scenarios are what the Monte Carlo twin is for.
MAX_WORK = 4e9


def _too_large(what: str, work: float) -> TooLargeError:
    return TooLargeError(
        f"attacker.weapons: too large for the exact engine ({what}: about {work:.1e} "
        "operations); use method monte-carlo")


def _guard_compound(w: ResolvedWeapon, per_die: FloatArray) -> None:
    """Refuse before compounding when the totals would be huge (e.g. 50 x D6 attacks with
    Sustained Hits and Devastating Wounds)."""
    dice = len(w.attacks_pmf) - 1
    cells = float(np.prod([(d - 1) * dice + 1 for d in per_die.shape]))
    work = cells * dice * np.count_nonzero(per_die) / 3
    if work > MAX_WORK:
        raise _too_large(f"{w.name}: outcome totals of {dice} attack dice", work)


def _guard_chain(nm_all: list[FloatArray], states: int, unsaved: int) -> None:
    """Refuse before the target's chain when it would be huge."""
    work = 0.0
    for nm in nm_all:
        work += nm.shape[0] * 2 * states * states * unsaved  # one packet at a time
        work += nm.shape[0] * nm.shape[1] * states * unsaved  # pending critical wounds
    if work > MAX_WORK:
        raise _too_large(f"{states} target states x {unsaved} unsaved counts", work)


def _after_normal(op: Operator, nm: FloatArray, x: FloatArray,
                  stack: bool) -> dict[int, FloatArray]:
    """For each count m of Devastating Wounds criticals: sum over n of P(n, m) times the
    states after n normal packets from ``x`` (m = 0 only, without criticals). Stacking
    the n states and one tensordot is faster; streaming them needs less memory."""
    wmax = nm.shape[0] - 1
    nz = np.flatnonzero(x.any(axis=0))
    u0 = int(nz[-1]) + 1 if len(nz) else 1  # unsaved columns in use so far
    if stack and (wmax + 1) * x.size <= _STACK_LIMIT:
        seq = np.zeros((wmax + 1, *x.shape))
        seq[0] = x
        for n in range(wmax):
            op.apply(seq[n], cols=min(x.shape[1], u0 + n), out=seq[n + 1])
        r = np.tensordot(nm.T, seq, axes=(1, 0))  # (m, states, unsaved)
    else:
        r = np.zeros((nm.shape[1], *x.shape))
        cur = x
        for n in range(wmax + 1):
            for mi in np.nonzero(nm[n])[0]:
                r[mi] += nm[n, mi] * cur
            if n < wmax:
                cur = op.apply(cur, cols=min(x.shape[1], u0 + n))
    return {m: r[m] for m in range(nm.shape[1]) if nm[:, m].any()}


def _mean(p: FloatArray) -> float:
    return float(np.dot(np.arange(len(p)), p))


def _conv_all(pmfs: list[FloatArray]) -> FloatArray:
    out = np.array([1.0])
    for p in pmfs:
        out = np.convolve(out, p)
    return out


def _close(space: StateSpace, packets: list[Packet], maps: list[str]) -> tuple[
    list[Operator], dict[str, Operator]
]:
    """Build every operator over a state set closed under all of them (operators built
    before later states were found are extended to them)."""
    ops = [space.operator(p) for p in packets]
    mp = {m: space.mapping(m) for m in maps}
    while any(op.done < len(space.states) for op in [*ops, *mp.values()]):
        ops = [space.operator(p, op) for p, op in zip(packets, ops, strict=True)]
        mp = {m: space.mapping(m, op) for m, op in mp.items()}
    return ops, mp


#: Above this many weapon lines with an open Lethal Hits choice, decide per weapon.
_MAX_LETHAL_SEARCH = 4


def _open_lethal(weapons: tuple[ResolvedWeapon, ...]) -> list[int]:
    """Weapon lines where 11th-edition Lethal Hits is a real choice: taking it can only
    cost damage when a critical wound does more than a wound (Devastating Wounds)."""
    return [i for i, w in enumerate(weapons)
            if w.lethal_hits and not w.lethal_mandatory and not w.torrent and w.devastating]


def lethal_choices(scenario: Scenario) -> tuple[bool | None, ...]:
    """See ``_lethal_search``: the choice alone."""
    return _lethal_search(scenario, finish=False)[0]


def _lethal_search(scenario: Scenario, finish: bool = True, initial: Initial | None = None,
                   ) -> tuple[tuple[bool | None, ...], Result | None]:
    """The best Lethal Hits choice (and a finished result when one was computed)."""
    """24.23 Lethal Hits is optional in 11th: per weapon line, take it or roll to wound,
    whichever gives the higher expected damage of the whole attack (reference facts §4;
    every combination is computed exactly, up to ``_MAX_LETHAL_SEARCH`` lines; ties take
    Lethal Hits). ``None`` where there is no choice to make."""
    rules = get_ruleset(scenario.rules)
    effects, named = resolve_effects(scenario)
    weapons = resolve_weapons(named.scenario(scenario), rules, effects)
    open_ = _open_lethal(weapons)
    none: list[bool | None] = [None] * len(weapons)
    if not open_ or len(open_) > _MAX_LETHAL_SEARCH:
        return tuple(none), None
    best: tuple[float, tuple[bool | None, ...]] | None = None
    memo: dict[Any, Any] = {}
    for combo in product((True, False), repeat=len(open_)):
        choice = list(none)
        for i, take in zip(open_, combo, strict=True):
            choice[i] = take
        # only the expected damage decides: the search skips the unsaved counts
        mean = _calculate(scenario, tuple(choice), track_unsaved=False, memo=memo,
                          initial=initial).damage.mean
        if best is None or mean > best[0] + 1e-12:
            best = (mean, tuple(choice))
    assert best is not None
    return best[1], _calculate(scenario, best[1], memo=memo, initial=initial) if finish else None


def lethal_notes(scenario: Scenario, choice: tuple[bool | None, ...]) -> tuple[str, ...]:
    """The result's notes for the attacker's Lethal Hits choices."""
    names = [w.name for w in scenario.attacker.weapons]
    declined = "declined (rolling to wound for Devastating Wounds criticals)"
    return tuple(f"{names[i]}: Lethal Hits {'taken' if c else declined}: the higher "
                 "expected damage of the whole attack (24.23)"
                 for i, c in enumerate(choice) if c is not None)


def calculate_exact(scenario: Scenario) -> Result:
    """The exact result of ``scenario`` (see ``shared/spec/scenario.md``)."""
    choice, found = _lethal_search(scenario)
    result = found if found is not None else _calculate(scenario, choice)
    notes = lethal_notes(scenario, choice)
    return result.model_copy(update={"notes": notes + result.notes}) if notes else result


def calculate_exact_from(scenario: Scenario, initial: Initial) -> tuple[Result, Initial]:
    """``calculate_exact`` with the target starting in ``initial`` instead of undamaged:
    target state -> pmf of the unsaved attacks counted so far (a distribution over both,
    the states from ``StateSpace(build_groups(scenario.target))``); also returns the final
    distribution in the same form (a sequence of attacks carries it from step to step).
    ``damage`` and ``models_destroyed`` count from the undamaged target."""
    choice, _ = _lethal_search(scenario, finish=False, initial=initial)
    out: Initial = {}
    result = _calculate(scenario, choice, initial=initial, states_out=out)
    notes = lethal_notes(scenario, choice)
    return result.model_copy(update={"notes": notes + result.notes}), out


def _calculate(scenario: Scenario, lethal: tuple[bool | None, ...],
               track_unsaved: bool = True, memo: dict[Any, Any] | None = None,
               initial: Initial | None = None, states_out: Initial | None = None) -> Result:
    """The whole calculation for fixed attacker choices. Without ``track_unsaved`` the
    unsaved counts are not kept (the result's ``unsaved`` is then meaningless): enough for
    the expected damage, at a fraction of the cost. ``memo`` shares the parts that do not
    depend on the choices between calls for one scenario (totals per weapon and choice,
    the target's states and operators)."""
    memo = {} if memo is None else memo
    rules = get_ruleset(scenario.rules)
    effects, named = resolve_effects(scenario)
    scenario = named.scenario(scenario)
    weapons = resolve_weapons(scenario, rules, effects)
    space = StateSpace(build_groups(scenario.target))
    stages: list[StageExplanation] = []
    notes: list[str] = []
    not_calc: list[str] = list(named.not_calculated)
    summaries: list[WeaponSummary] = []

    attacks_all: list[FloatArray] = []
    hits_all: list[FloatArray] = []
    nm_all: list[FloatArray] = []
    normal_packets: list[Packet] = []
    mortal_packets: list[Packet] = []

    command = next((e.command_reroll for e in effects if e.command_reroll), None)
    if sum(1 for e in effects if e.command_reroll) > 1:
        raise ScenarioError("effects: Command Re-roll can be used once per roll")
    splits: dict[int, _Split] = {}
    for wi, w in enumerate(weapons):
        t = _weapon_totals(w, wi, scenario, space, rules, lethal, memo)
        die, hits, nm = t.die, t.hits, t.nm
        if command is not None:
            split = _split_of(t, w, command, rules)
            if split is None:
                notes.append(f"{w.name}: Command Re-roll not combined with the weapon's own "
                             f"{command} re-rolls (a die is re-rolled at most once)")
            else:
                splits[wi] = split
        attacks_all.append(w.attacks_pmf)
        hits_all.append(hits)
        nm_all.append(nm)
        notes.extend(w.notes + die.notes)
        for item in w.not_calculated:
            if item not in not_calc:
                not_calc.append(item)
        saves = []
        save_texts = []
        for g in space.groups:
            p, text = save_probability(g, w, rules)
            saves.append(p)
            save_texts.append(f"{g.name}: {text}")
        normal_packets.append(
            Packet(tuple(saves), tuple(float(x) for x in w.damage_pmf), w.fnp_effect,
                   w.precision)
        )
        mortal_packets.append(
            Packet((0.0,) * len(space.groups), tuple(float(x) for x in w.mortal_pmf),
                   w.fnp_effect, w.mortal_precision, mortal=w.mortal_afresh)
        )
        for stage in ("attacks", "hit", "wound"):
            if stage in w.explanations:
                stages.append(StageExplanation.model_validate(
                    {"weapon": w.name, "stage": stage, "detail": w.explanations[stage]}))
        stages.append(StageExplanation(weapon=w.name, stage="save", detail="; ".join(save_texts)))
        stages.append(StageExplanation(weapon=w.name, stage="damage",
                                       detail=w.explanations["damage"]))

    # the outcomes as a sum of branches, each a product of per-weapon sub-pmfs: one
    # branch without Command Re-roll, or one per weapon line it may be used on
    branches: list[list[tuple[FloatArray, FloatArray]]] = [
        list(zip(hits_all, nm_all, strict=True))]
    if command is not None:
        use = _command_policy(splits, len(weapons))
        branches = _command_branches(splits, use, hits_all, nm_all)
        if use:
            names = ", then ".join(weapons[i].name for i in sorted(use))
            notes.append(f"Command Re-roll: one failed {command} die of the first of {names} "
                         "that has one is re-rolled (15.02: the attacker's best choice, roll "
                         "by roll)")
        else:
            notes.append(f"Command Re-roll ({command}): no die gains from a re-roll")
    for wi, w in enumerate(weapons):
        w_hits = _weapon_marginal(branches, wi, 0)
        w_nm = _weapon_marginal(branches, wi, 1)
        wounds = _antidiagonal(w_nm)
        crit = float(np.dot(w_nm.sum(axis=0), np.arange(w_nm.shape[1])))
        summaries.append(WeaponSummary(weapon=w.name, attacks=_mean(w.attacks_pmf),
                                       hits=_mean(w_hits), wounds=_mean(wounds),
                                       critical_wounds=crit))
    hits_total = _sum_pmfs([_conv_all([h for h, _ in br]) for br in branches])
    wounds_total = _sum_pmfs([_conv_all([_antidiagonal(n) for _, n in br]) for br in branches])

    # --- the target's states --------------------------------------------------------
    maps = ["reset", *(["precision_start", "precision_end"]
                       if any(w.precision for w in weapons) else [])]
    fnp_effect = min((e.fnp for e in effects if e.fnp), default=None)
    before = [(f"{e.mortal_wounds} mortal wounds", e.mortal_wounds.pmf())
              for e in effects if e.mortal_wounds is not None] + list(named.mortal_before)
    mw_packet = Packet((0.0,) * len(space.groups), (0.0, 1.0), fnp_effect, False,
                       counts=False, mortal=True)
    # operators only for what happens: criticals of Devastating Wounds weapons, mortal
    # wounds before the attacks
    with_dw = [wi for wi, nm in enumerate(nm_all) if nm.shape[1] > 1 and nm[:, 1:].any()]
    all_packets = [*normal_packets, *(mortal_packets[wi] for wi in with_dw),
                   *([mw_packet] if before else [])]
    key_ops = ("operators", tuple(all_packets), tuple(maps))
    if key_ops not in memo:
        fresh = StateSpace(space.groups)
        for s in initial or ():
            fresh.add(s)
        memo[key_ops] = (fresh, *_close(fresh, all_packets, maps))
    space, ops, mp = memo[key_ops]
    normal_ops = ops[: len(weapons)]
    mortal_ops = dict(zip(with_dw, ops[len(weapons):len(weapons) + len(with_dw)],
                          strict=True))
    n_states = len(space.states)
    u_max = sum(len(_antidiagonal(nm)) - 1 for nm in nm_all)
    if not track_unsaved:
        u_max = 0
    u_max += max((len(p) - 1 for p in (initial or {}).values()), default=0) if track_unsaved else 0
    _guard_chain(nm_all, n_states, u_max + 1)
    x0 = np.zeros((n_states, u_max + 1))
    for s, pmf in (initial or {space.initial: np.ones(1)}).items():
        row = pmf if track_unsaved else np.array([pmf.sum()])
        x0[space.index[s], : len(row)] += row
    for label, pmf in before:  # 06.02: one mortal wound at a time, spilling over
        acc = np.zeros_like(x0)
        for j in range(len(pmf) - 1, -1, -1):
            acc = ops[-1].apply(acc) + pmf[j] * x0
        x0 = acc
        stages.append(StageExplanation(weapon=label, stage="damage",
                                       detail="mortal wounds before the attacks (06.02)"))

    # pending: key = tuple of Devastating-Wounds counts per block -> (states, unsaved)
    def run_chain(nm_list: list[FloatArray]) -> FloatArray:
        """The target's states after every packet, for per-weapon (n, m) pmfs."""
        pending: dict[tuple[int, ...], FloatArray] = {(): x0}
        blocks: list[int] = []  # weapon index whose mortal operator each block uses
        for wi, w in enumerate(weapons):
            nm = nm_list[wi]
            has_dw = nm.shape[1] > 1 and bool(nm[:, 1:].any())
            # 11th mortal wounds pick a model afresh for each wound, so consecutive weapons with
            # the same mortal packet form one block; 10th allocates them like attacks, with the
            # order declared afresh per weapon (and Precision), so each weapon is its own block
            merge = (bool(blocks) and has_dw and mortal_packets[wi].mortal
                     and mortal_packets[blocks[-1]] == mortal_packets[wi])
            new: dict[tuple[int, ...], FloatArray] = {}
            for key, x in pending.items():
                x = mp["precision_start" if w.precision else "reset"].apply(x)
                by_m = _after_normal(normal_ops[wi], nm, x, stack=has_dw)
                for m, rm in by_m.items():
                    if w.precision:
                        rm = mp["precision_end"].apply(rm)
                    if not has_dw:
                        nk = key
                    else:
                        nk = (*key[:-1], key[-1] + m) if merge else (*key, m)
                    new[nk] = new[nk] + rm if nk in new else rm
            if has_dw and not merge:
                blocks.append(wi)
            pending = dict(new)
            if len(pending) > _MAX_DW_KEYS:
                raise ScenarioError(
                    "attacker.weapons: too many Devastating Wounds weapons with different "
                    "damage for the exact engine; use method monte-carlo"
                )

        # --- Devastating Wounds mortal wounds, block by block (Horner) -------------------
        for wi in blocks:
            op = mortal_ops[wi]
            prec = mortal_packets[wi].precision
            by_rest: dict[tuple[int, ...], dict[int, FloatArray]] = defaultdict(dict)
            for key, x in pending.items():
                by_rest[key[1:]][key[0]] = x
            new_p: dict[tuple[int, ...], FloatArray] = {}
            for rest, terms in by_rest.items():
                top = max(terms)
                acc = np.zeros_like(x0)
                for m in range(top, -1, -1):
                    if m < top:
                        acc = op.apply(acc)
                    if m in terms:
                        t = terms[m]
                        if not mortal_packets[wi].mortal:
                            t = mp["precision_start" if prec else "reset"].apply(t)
                        acc = acc + t
                new_p[rest] = mp["precision_end"].apply(acc) if prec else acc
            pending = new_p
        # an empty branch (probability 0) leaves nothing pending
        return pending.get((), np.zeros_like(x0))

    final = np.zeros_like(x0)
    for br in branches:
        final += run_chain([n for _, n in br])

    # --- read the distributions off the final states ---------------------------------
    start_wounds = space.wounds_left(space.initial)
    start_models = space.models_left(space.initial)
    by_state = final.sum(axis=1)
    damage = np.zeros(start_wounds + 1)
    killed = np.zeros(start_models + 1)
    p_dead = 0.0
    for i, s in enumerate(space.states):
        p = by_state[i]
        if not p:
            continue
        damage[start_wounds - space.wounds_left(s)] += p
        left = space.models_left(s)
        killed[start_models - left] += p
        if left == 0:
            p_dead += p
    unsaved = final.sum(axis=0)
    if states_out is not None:
        states_out.update({s: final[i] for i, s in enumerate(space.states) if by_state[i]})
    # CHARACTER models: those marked so, or every model of a CHARACTER unit (a lone one)
    chars = [gi for gi, g in enumerate(space.groups) if g.character] or (
        list(range(len(space.groups))) if "CHARACTER" in scenario.target.keywords else [])
    p_char = float(sum(by_state[i] for i, s in enumerate(space.states)
                       if any(s[2 * gi] < space.groups[gi].count for gi in chars)))

    # --- Hazardous (24.15 / 06.03; 10th Hazardous) ------------------------------------
    mw_each = rules.hazard_mortal_wounds(scenario.attacker.keywords)
    p_fail = rules.hazard_fails_on / 6
    haz = np.array([1.0])
    n_haz = sum(w.count for w in weapons if w.hazardous)
    for _ in range(n_haz):
        step = np.zeros(mw_each + 1)
        step[0], step[mw_each] = 1 - p_fail, p_fail
        haz = np.convolve(haz, step)
    if n_haz:
        stages.append(StageExplanation(
            weapon="Hazardous", stage="hazard",
            detail=f"{n_haz} hazard roll(s), each fails on 1-{rules.hazard_fails_on}: "
                   f"{mw_each} mortal wound(s) to the attacker",
        ))

    return Result(
        rules=rules.name,
        attacks=Distribution.from_array(_conv_all(attacks_all)),
        hits=Distribution.from_array(hits_total),
        wounds=Distribution.from_array(wounds_total),
        unsaved=Distribution.from_array(unsaved),
        damage=Distribution.from_array(damage),
        models_destroyed=Distribution.from_array(killed, length=start_models + 1),
        p_unit_destroyed=float(p_dead),
        attacker_mortal_wounds=Distribution.from_array(haz),
        weapons=tuple(summaries),
        stages=tuple(stages),
        notes=tuple(dict.fromkeys(notes + list(named.notes))),
        not_calculated=tuple(not_calc),
        effects_applied=named.applied,
        cp_spent=named.cp,
        other_mortal_wounds=tuple(
            NamedDistribution(label=label, distribution=Distribution.from_array(pmf))
            for label, pmf in named.side_distributions(p_char)
        ),
    )
