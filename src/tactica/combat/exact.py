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

from collections import defaultdict

import numpy as np

from ..dice import FloatArray
from ..rules import get_ruleset
from ..rules.base import RuleSet
from .allocation import Operator, Packet, StateSpace, build_groups, loss_pmf
from .dice_stages import compound, die_outcome
from .effects import resolve_effects
from .profile import ResolvedWeapon, resolve_weapon, save_probability
from .result import Distribution, Result, StageExplanation, WeaponSummary
from .scenario import Scenario

__all__ = ["ScenarioError", "calculate_exact", "resolve_weapons"]

#: Stack the per-packet states in one array when it has at most this many numbers.
_STACK_LIMIT = 8_000_000
#: Upper bound on pending Devastating-Wounds count combinations.
_MAX_DW_KEYS = 5_000


class ScenarioError(ValueError):
    """A scenario the engine cannot compute; the message names the field."""


def resolve_weapons(scenario: Scenario, rules: RuleSet) -> tuple[ResolvedWeapon, ...]:
    """Every weapon line, resolved; weapons of the wrong type for the phase are refused."""
    effects, _ = resolve_effects(scenario)
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


def _expected_values(
    w: ResolvedWeapon, scenario: Scenario, space: StateSpace, rules: RuleSet
) -> tuple[float, float]:
    """Expected damage of one wound that goes to saves, and of one Devastating-Wounds
    critical, against the group first in the allocation order (for attacker choices)."""
    g = space.current(space.initial)
    assert g is not None
    grp = space.groups[g]
    target_group = scenario.target.models[0]
    for m in scenario.target.models:
        if m.W == grp.W and m.Sv == grp.Sv and m.invuln == grp.invuln:
            target_group = m
            break
    p_save, _ = save_probability(target_group, w, rules)
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
    """Build every operator over a state set closed under all of them."""
    while True:
        n = len(space.states)
        ops = [space.operator(p) for p in packets]
        mp = {m: space.mapping(m) for m in maps}
        if len(space.states) == n:
            return ops, mp


def calculate_exact(scenario: Scenario) -> Result:
    """The exact result of ``scenario`` (see ``shared/spec/scenario.md``)."""
    rules = get_ruleset(scenario.rules)
    _, named = resolve_effects(scenario)
    weapons = resolve_weapons(scenario, rules)
    space = StateSpace(build_groups(scenario.target))
    stages: list[StageExplanation] = []
    notes: list[str] = []
    not_calc: list[str] = list(named.not_calculated)
    summaries: list[WeaponSummary] = []

    attacks_all: list[FloatArray] = []
    hits_all: list[FloatArray] = []
    wounds_all: list[FloatArray] = []
    nm_all: list[FloatArray] = []
    normal_packets: list[Packet] = []
    mortal_packets: list[Packet] = []

    for w in weapons:
        e_normal, e_mortal = _expected_values(w, scenario, space, rules)
        die = die_outcome(w, e_normal, e_mortal)
        hits = compound(w.attacks_pmf, die.hits)
        nm = compound(w.attacks_pmf, die.to_save)
        wounds = _antidiagonal(nm)
        attacks_all.append(w.attacks_pmf)
        hits_all.append(hits)
        wounds_all.append(wounds)
        nm_all.append(nm)
        notes.extend(w.notes + die.notes)
        for item in w.not_calculated:
            if item not in not_calc:
                not_calc.append(item)
        saves = []
        save_texts = []
        for g in space.groups:
            model = next(
                m for m in scenario.target.models
                if (m.W, m.Sv, m.invuln, m.fnp, m.character)
                == (g.W, g.Sv, g.invuln, g.fnp, g.character)
            )
            p, text = save_probability(model, w, rules)
            saves.append(p)
            save_texts.append(f"{g.name}: {text}")
        normal_packets.append(
            Packet(tuple(saves), tuple(float(x) for x in w.damage_pmf), w.fnp_effect,
                   w.precision)
        )
        mortal_packets.append(
            Packet((0.0,) * len(space.groups), tuple(float(x) for x in w.mortal_pmf),
                   w.fnp_effect, w.precision and rules.devastating_wounds == "unsaveable")
        )
        for stage in ("attacks", "hit", "wound"):
            if stage in w.explanations:
                stages.append(StageExplanation.model_validate(
                    {"weapon": w.name, "stage": stage, "detail": w.explanations[stage]}))
        stages.append(StageExplanation(weapon=w.name, stage="save", detail="; ".join(save_texts)))
        stages.append(StageExplanation(weapon=w.name, stage="damage",
                                       detail=w.explanations["damage"]))
        crit = float(np.dot(nm.sum(axis=0), np.arange(nm.shape[1])))
        summaries.append(WeaponSummary(weapon=w.name, attacks=_mean(w.attacks_pmf),
                                       hits=_mean(hits), wounds=_mean(wounds),
                                       critical_wounds=crit))

    # --- the target's states --------------------------------------------------------
    maps = ["precision_start", "precision_end"] if any(w.precision for w in weapons) else []
    all_packets = normal_packets + mortal_packets
    ops, mp = _close(space, all_packets, maps)
    normal_ops = ops[: len(weapons)]
    mortal_ops = ops[len(weapons):]
    n_states = len(space.states)
    u_max = sum(len(_antidiagonal(nm)) - 1 for nm in nm_all)
    x0 = np.zeros((n_states, u_max + 1))
    x0[0, 0] = 1.0

    # pending: key = tuple of Devastating-Wounds counts per block -> (states, unsaved)
    pending: dict[tuple[int, ...], FloatArray] = {(): x0}
    blocks: list[int] = []  # weapon index whose mortal operator each block uses
    for wi, w in enumerate(weapons):
        nm = nm_all[wi]
        has_dw = nm.shape[1] > 1 and bool(nm[:, 1:].any())
        merge = bool(blocks) and has_dw and mortal_packets[blocks[-1]] == mortal_packets[wi]
        new: dict[tuple[int, ...], FloatArray] = {}

        def put(k: tuple[int, ...], v: FloatArray, new: dict[tuple[int, ...], FloatArray] = new,
                ) -> None:
            if k in new:
                new[k] += v
            else:
                new[k] = v.copy()

        for key, x in pending.items():
            if w.precision:
                x = mp["precision_start"].apply(x)
            wmax = nm.shape[0] - 1
            stack_ok = (wmax + 1) * x.size <= _STACK_LIMIT
            if has_dw and stack_ok:
                seq = np.empty((wmax + 1, *x.shape))
                cur = x
                for n in range(wmax + 1):
                    seq[n] = cur
                    if n < wmax:
                        cur = normal_ops[wi].apply(cur)
                r = np.tensordot(nm.T, seq, axes=(1, 0))  # (m, states, unsaved)
                for m in range(nm.shape[1]):
                    if nm[:, m].any():
                        rm = r[m]
                        if w.precision:
                            rm = mp["precision_end"].apply(rm)
                        nk = (*key[:-1], key[-1] + m) if merge else (*key, m)
                        put(nk, rm)
            else:
                acc = np.zeros((nm.shape[1], *x.shape))
                cur = x
                for n in range(wmax + 1):
                    col = nm[n]
                    for mi in np.nonzero(col)[0]:
                        acc[mi] += col[mi] * cur
                    if n < wmax:
                        cur = normal_ops[wi].apply(cur)
                for m in range(nm.shape[1]):
                    if nm[:, m].any():
                        rm = acc[m]
                        if w.precision:
                            rm = mp["precision_end"].apply(rm)
                        if has_dw:
                            nk = (*key[:-1], key[-1] + m) if merge else (*key, m)
                        else:
                            nk = key
                        put(nk, rm)
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
                    acc = acc + (mp["precision_start"].apply(t) if prec else t)
            new_p[rest] = mp["precision_end"].apply(acc) if prec else acc
        pending = new_p
    final = pending[()]

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
        hits=Distribution.from_array(_conv_all(hits_all)),
        wounds=Distribution.from_array(_conv_all(wounds_all)),
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
    )
