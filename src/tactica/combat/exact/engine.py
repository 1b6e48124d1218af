"""The exact engine: the whole attack sequence as probability distributions.

Stage by stage (``_calculate``): for each weapon line the rule set decides the numbers
(``profile.resolve_weapon``); one attack die becomes an exact joint outcome
(``dice_stages``) and the totals over the random number of dice a compound distribution
(by powers of its Fourier transform); Command Re-roll (15.02) splits them into branches
(``command_reroll``). The target is a Markov state (``allocation``) pushed through the
lines in order (``chain``): the allocation order declared per line (05.03), the saves
(05.04: pooled and sorted under 11th, one at a time under 10th), Devastating Wounds
after that line (24.10, 11th) or after the whole unit (10th, reference facts §4.10,
§5.5: their counts carried as keys, or as an operator over the states, ``deferred``).
Last, the read-out of the final states and the hazard rolls (06.03), and the result
document (``readout``). Under 11th an open Lethal Hits choice (24.23) is decided first by
the expected damage of each choice (``_lethal_search``: the totals that do not depend on
it shared, no result documents); the result is then finished from the better choice's
final states (``_states``, ``_finish``). Before the totals, the states and the chain,
the size model (``size``) refuses an oversize scenario (``TooLargeError``). BLAS runs on
one thread during a call (``threads``).

>>> from tactica.combat.contract.scenario import Scenario
>>> s = Scenario.model_validate({
...   "attacker": {"weapons": [{"name": "Bolt rifle", "count": 10, "A": "1", "skill": 3,
...                             "S": 4, "AP": -1, "D": "1"}]},
...   "target": {"models": [{"count": 10, "T": 4, "Sv": 3, "W": 2}]}})
>>> round(calculate_exact(s).models_destroyed.mean, 4)
0.5877
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product
from typing import Any, NamedTuple

import numpy as np

from tactica.dice import FloatArray
from tactica.rules import get_ruleset
from tactica.rules.base import RuleSet

from ..contract.result import Distribution, Result, StageFields
from ..contract.scenario import Effect, Scenario, ScenarioError
from .allocation import Group, Operator, Packet, State, StateSpace, build_groups
from .attack_lines import expected_values, packets, search_mean, weapon_die
from .chain import (
    LineOps,
    PooledPlan,
    class_packet,
    drop_negligible_tail,
    pooled_classes,
    pooled_saves,
    run_chain,
)
from .command_reroll import Split, command_branches, command_policy, command_split
from .deferred import run_deferred
from .dice_stages import DieOutcome
from .effects import NamedEffects, resolve_effects
from .one_group import one_group_chain
from .profile import ResolvedWeapon, out_of_range, resolve_weapon, save_probability
from .reach import ChainPlan, LinePlan, reach
from .readout import AttackerSide, Branches, assemble, collect_states, read_out
from .select_targets import by_models_alive
from .size import (
    ChainSizing,
    check_compound,
    check_lines,
    check_states,
    op_area,
    precision_alone,
    wound_losses,
)
from .stages.damage import feel_no_pain
from .threads import one_blas_thread
from .totals import compound

__all__ = ["ScenarioError", "calculate_exact", "calculate_exact_from", "command_reroll_policy",
           "lethal_choices", "lethal_notes", "resolve_weapons"]

#: A distribution over the target's states, each with the pmf of unsaved attacks so far.
Initial = dict[State, FloatArray]


def resolve_weapons(
    scenario: Scenario, rules: RuleSet, effects: tuple[Effect, ...] | None = None,
    memo: dict[Any, Any] | None = None, models: int | None = None,
) -> tuple[ResolvedWeapon, ...]:
    """Every weapon line, resolved; weapons of the wrong type for the phase are refused,
    and a line beyond its range at ``context.distance`` makes no attacks (04.02,
    ``profile.out_of_range``). Without ``effects`` the scenario's effects are resolved
    here (named ones included); ``memo``: a batch's (``profile.resolve_weapon``);
    ``models``: the target's models at the Select Targets step, if not all
    (``select_targets``)."""
    if effects is None:
        effects, named = resolve_effects(scenario)
        scenario = named.scenario(scenario)
    out = []
    distance = scenario.context.distance
    for i, line in enumerate(scenario.attacker.weapons):
        melee = line.range == "Melee"
        if melee != (scenario.phase == "fight"):
            kind = "melee" if melee else "ranged"
            raise ScenarioError(
                f"attacker.weapons.{i}: {line.name!r} is a {kind} weapon but the phase is "
                f"{scenario.phase!r}"
            )
        w = resolve_weapon(line, scenario, rules, effects, memo, models)
        if distance is not None and not rules.in_range(line.range, distance):
            w = out_of_range(w, int(line.range), distance)
        out.append(w)
    return tuple(out)


class _WeaponTotals(NamedTuple):
    """One weapon line's totals over its attack dice."""

    die: DieOutcome
    hits: FloatArray
    nm: FloatArray


def _weapon_totals(w: ResolvedWeapon, wi: int, scenario: Scenario, space: StateSpace,
                   rules: RuleSet, lethal: tuple[bool | None, ...], memo: dict[Any, Any],
                   one: DieOutcome | None = None,
                   keys: tuple[tuple[Any, ...], tuple[Any, ...]] | None = None
                   ) -> _WeaponTotals:
    """The exact totals of weapon line ``wi`` (hits; (n, m) wounds to save and criticals)
    for the attacker's Lethal Hits choice, kept in ``memo`` per choice; ``one``: its die
    (``attack_lines.weapon_die``) and ``keys`` its ``_totals_keys``, when known."""
    die = one if one is not None else weapon_die(w, wi, space, rules, lethal, memo)
    nm_key, hits_key = keys if keys is not None else _totals_keys(w, die)
    if nm_key not in memo:
        check_compound(w.name, len(w.attacks_pmf) - 1, die.to_save)
        memo[nm_key] = compound(w.attacks_pmf, die.to_save)
    if hits_key not in memo:
        memo[hits_key] = compound(w.attacks_pmf, die.hits)
    return _WeaponTotals(die, memo[hits_key], memo[nm_key])


def _totals_keys(w: ResolvedWeapon, die: DieOutcome) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """The keys of a line's wound totals and hit totals: each keyed on what it depends
    on (the count of dice and one die's wounds, or its hits), so the Lethal Hits choices
    share the hits, and a batch (``batch.calculate_many``) shares the hits between
    targets (they do not depend on the target's Toughness) and both between targets and
    attackers."""
    attacks = _content(w.attacks_pmf)
    hits, to_save = die.contents  # made once per die (a batch's dice are shared)
    return ("wound totals", attacks, to_save), ("hit totals", attacks, hits)


def _content(a: FloatArray) -> tuple[tuple[int, ...], bytes]:
    return a.shape, a.tobytes()


def _split_of(t: _WeaponTotals, w: ResolvedWeapon, command: str, space: StateSpace,
              rules: RuleSet) -> Split | None:
    """Command Re-roll's split of a line (15.02), its gain weighed by the values of the
    outcomes (``attack_lines.expected_values``)."""
    e_normal, e_mortal = expected_values(w, space, rules)
    return command_split(w, t.die, t.hits, t.nm, command, rules, e_normal, e_mortal)


@one_blas_thread
def command_reroll_policy(scenario: Scenario, rules: RuleSet,
                          weapons: tuple[ResolvedWeapon, ...], command: str,
                          lethal: tuple[bool | None, ...] = ()) -> set[int]:
    """The weapon lines on whose first failed die Command Re-roll is used (the Monte
    Carlo twin follows the same policy)."""
    space = StateSpace(build_groups(scenario.target), rules)
    memo: dict[Any, Any] = {}
    splits: dict[int, Split] = {}
    for wi, w in enumerate(weapons):
        t = _weapon_totals(w, wi, scenario, space, rules, lethal, memo)
        split = _split_of(t, w, command, space, rules)
        if split is not None:
            splits[wi] = split
    return command_policy(splits, len(weapons))


def _chain_plan(weapons: tuple[ResolvedWeapon, ...], lines: _Lines,
                pooled: list[PooledPlan | None], with_dw: list[int], before: Packet | None,
                per_line: bool) -> ChainPlan:
    """The chain's order as ``reach`` follows it: per line its Precision (24.28), the
    packets its saves apply (05.04) and its Devastating Wounds packet (24.10)."""
    return ChainPlan(before, tuple(
        LinePlan(w.precision,
                 (lines.normal[wi], *(class_packet(c, lines.normal[wi])
                                      for _, classes in (plan[1] if plan else ())
                                      for c in classes)),
                 lines.mortal[wi] if wi in with_dw else None)
        for wi, (w, plan) in enumerate(zip(weapons, pooled, strict=True))), per_line)


#: Above this many weapon lines with an open Lethal Hits choice, decide per weapon.
_MAX_LETHAL_SEARCH = 4


def _open_lethal(weapons: tuple[ResolvedWeapon, ...]) -> list[int]:
    """Weapon lines where 11th-edition Lethal Hits is a real choice: taking it can only
    cost damage when a critical wound does more than a wound (Devastating Wounds)."""
    return [i for i, w in enumerate(weapons)
            if w.lethal_hits and not w.lethal_mandatory and not w.torrent and w.devastating]


@one_blas_thread
def lethal_choices(scenario: Scenario, models: int | None = None) -> tuple[bool | None, ...]:
    """See ``_lethal_search``: the choice alone (``models``: ``resolve_weapons``')."""
    prep = _prepare(scenario)
    prep = prep._replace(weapons=resolve_weapons(prep.scenario, prep.rules, prep.effects,
                                                 models=models)) if models is not None else prep
    return _lethal_search(scenario, finish=False, prep=prep)[0]


def _lethal_search(scenario: Scenario, finish: bool = True, initial: Initial | None = None,
                   memo: dict[Any, Any] | None = None, prep: _Prepared | None = None,
                   ) -> tuple[tuple[bool | None, ...], _Final | None]:
    """24.23 Lethal Hits is optional in 11th: per weapon line, take it or roll to wound,
    whichever gives the higher expected damage of the whole attack (reference facts §4;
    every combination is computed exactly, up to ``_MAX_LETHAL_SEARCH`` lines; ties take
    Lethal Hits). ``None`` where there is no choice to make. With ``finish`` also the
    calculation of the better choice up to its final states, the unsaved counts kept
    (``_states``: the one the search made when it kept them, else made again)."""
    prep = _prepare(scenario) if prep is None else prep
    open_ = _open_lethal(prep.weapons)
    none: list[bool | None] = [None] * len(prep.weapons)
    if not open_ or len(open_) > _MAX_LETHAL_SEARCH:
        return tuple(none), None
    best: tuple[float, tuple[bool | None, ...], _Final | None] | None = None
    memo = {} if memo is None else memo
    keywords = prep.scenario.target.keywords
    for combo in product((True, False), repeat=len(open_)):
        choice = list(none)
        for i, take in zip(open_, combo, strict=True):
            choice[i] = take
        # only the expected damage decides (no result document). The first choice (take
        # every Lethal Hits: ties keep it) up to its final states, with the unsaved counts
        # where they come at almost no cost (the one-group fast path), for the result;
        # the others by one-dimensional totals where they can (``attack_lines.
        # search_mean``), made again in full only if one of them is better
        mean = (search_mean(prep.groups, prep.rules, prep.effects, prep.named,
                            prep.weapons, tuple(choice))
                if initial is None and best is not None else None)
        done = None
        if mean is None:
            done = _states(prep, tuple(choice), None if finish else False, memo, initial)
            mean = Distribution.from_array(
                read_out(done.space, done.final, keywords).damage).mean
        if best is None or mean > best[0] + 1e-12:
            best = (mean, tuple(choice), done)
    assert best is not None
    if not finish:
        return best[1], None
    found = best[2]
    if found is None or not found.tracked:
        found = _states(prep, best[1], True, memo, initial)
    return best[1], found


def lethal_notes(scenario: Scenario, choice: tuple[bool | None, ...]) -> tuple[str, ...]:
    """The result's notes for the attacker's Lethal Hits choices."""
    names = [w.name for w in scenario.attacker.weapons]
    declined = "declined (rolling to wound for Devastating Wounds criticals)"
    return tuple(f"{names[i]}: Lethal Hits {'taken' if c else declined}: the higher "
                 "expected damage of the whole attack (24.23)"
                 for i, c in enumerate(choice) if c is not None)


@one_blas_thread
def calculate_exact(scenario: Scenario, memo: dict[Any, Any] | None = None) -> Result:
    """The exact result of ``scenario`` (see ``shared/spec/scenario.md``). ``memo``: the
    work kept between calls of a batch (``batch.calculate_many``); every entry is keyed on
    all it depends on."""
    # alone (no batch's memo) a call's weapon lines and groups are made once: kept in a
    # memo of its own they would cost their keys and nothing would read them again
    prep = _prepare(scenario, memo)
    memo = {} if memo is None else memo
    choice, found = _lethal_search(scenario, memo=memo, prep=prep)
    done = found if found is not None else _states(prep, choice, True, memo, None)
    return _finish(prep, done, notes=lethal_notes(scenario, choice))


@one_blas_thread
def calculate_exact_from(scenario: Scenario, initial: Initial,
                         parts: list[float] | None = None) -> tuple[Result, Initial]:
    """``calculate_exact`` with the target starting in ``initial`` instead of undamaged:
    target state -> pmf of the unsaved attacks counted so far (a distribution over both,
    the states from ``StateSpace(build_groups(scenario.target))``); also returns the final
    distribution in the same form (a sequence of attacks carries it from step to step).
    ``damage`` and ``models_destroyed`` count from the undamaged target. [BLAST] and
    [CLEAVE] count the models alive in ``initial``'s states (``select_targets``): where
    they give different counts, each part is computed on its own and the results mixed;
    ``parts`` receives the parts' probabilities."""
    prep = _prepare(scenario)
    memo: dict[Any, Any] = {}

    def computed(models: int | None, start: Initial) -> tuple[Result, Initial]:
        part = prep if models is None else prep._replace(weapons=resolve_weapons(
            prep.scenario, prep.rules, prep.effects, memo, models))
        choice, found = _lethal_search(scenario, initial=start, memo=memo, prep=part)
        out: Initial = {}
        done = found if found is not None else _states(part, choice, True, memo, start)
        return _finish(part, done, out, lethal_notes(scenario, choice)), out

    return by_models_alive(prep.scenario, prep.rules, prep.effects,
                           StateSpace(prep.groups, prep.rules), initial, computed, parts)


@dataclass
class _Lines:
    """Every weapon line's totals, packets and notes (the attacker's side)."""

    hits: list[FloatArray]
    nm: list[FloatArray]
    normal: list[Packet]
    mortal: list[Packet]
    splits: dict[int, Split]
    notes: list[str]
    not_calculated: list[str]


def _weapon_lines(weapons: tuple[ResolvedWeapon, ...], scenario: Scenario, space: StateSpace,
                  rules: RuleSet, lethal: tuple[bool | None, ...], memo: dict[Any, Any],
                  command: str | None, not_calculated: list[str]) -> _Lines:
    """Gather attack dice, hit and wound rolls (05.01-05.02, ``dice_stages``) of every
    line: the totals over its dice and the packets that reach the target (a normal attack
    saved per group, 05.04 Saving Throw; a Devastating Wounds critical, 24.10)."""
    out = _Lines([], [], [], [], {}, [], not_calculated)
    normal, mortal = packets(weapons, space, rules)
    dies = [weapon_die(w, wi, space, rules, lethal, memo) for wi, w in enumerate(weapons)]
    keys = [_totals_keys(w, d) for w, d in zip(weapons, dies, strict=True)]
    if not all(nm_key in memo for nm_key, _ in keys):
        check_lines(weapons, [d.to_save for d in dies], space, rules, mortal)
    for wi, w in enumerate(weapons):
        t = _weapon_totals(w, wi, scenario, space, rules, lethal, memo, dies[wi], keys[wi])
        if command is not None:
            split = _split_of(t, w, command, space, rules)
            if split is None:
                out.notes.append(f"{w.name}: Command Re-roll not combined with the weapon's "
                                 f"own {command} re-rolls (a die is re-rolled at most once)")
            else:
                out.splits[wi] = split
        out.hits.append(t.hits)
        out.nm.append(t.nm)
        out.notes.extend(w.notes + t.die.notes)
        out.not_calculated.extend(x for x in w.not_calculated if x not in out.not_calculated)
        out.normal.append(normal[wi])
        out.mortal.append(mortal[wi])
    return out


def _stage_explanations(weapons: tuple[ResolvedWeapon, ...], groups: tuple[Group, ...],
                        rules: RuleSet) -> list[StageFields]:
    """Per weapon line the explanations of its stages (05.01-05.04, damage): only for the
    result document (the Lethal Hits search needs none), validated with it."""
    out: list[StageFields] = []
    for w in weapons:
        for stage in ("attacks", "hit", "wound"):
            if stage in w.explanations:
                out.append({"weapon": w.name, "stage": stage, "detail": w.explanations[stage]})
        texts = (f"{g.name}: {save_probability(g, w, rules)[1]}" for g in groups)
        out.append({"weapon": w.name, "stage": "save", "detail": "; ".join(texts)})
        out.append({"weapon": w.name, "stage": "damage", "detail": w.explanations["damage"]})
    return out


#: Up to this many predicted states the target's states are explored before the size
#: model is asked (some milliseconds).
_EXPLORE_FREELY = 2000


def _branches(lines: _Lines, weapons: tuple[ResolvedWeapon, ...],
              command: str | None) -> Branches:
    """The outcomes as a sum of branches, each a product of per-weapon sub-pmfs: one
    branch without Command Re-roll (15.02), or one per weapon line it may be used on."""
    branches: Branches = [list(zip(lines.hits, lines.nm, strict=True))]
    if command is None:
        return branches
    use = command_policy(lines.splits, len(weapons))
    if use:
        names = ", then ".join(weapons[i].name for i in sorted(use))
        lines.notes.append(f"Command Re-roll: one failed {command} die of the first of {names} "
                           "that has one is re-rolled (15.02: the attacker's best choice, "
                           "roll by roll)")
    else:
        lines.notes.append(f"Command Re-roll ({command}): no die gains from a re-roll")
    return command_branches(lines.splits, use, lines.hits, lines.nm)


def _start(space: StateSpace, initial: Initial | None, before: list[FloatArray],
           mortal_wound: Operator | None, u_max: int, track_unsaved: bool) -> FloatArray:
    """The target's states as the attacks start: undamaged (or ``initial``), then the
    mortal wounds before the attacks, one at a time (06.02; Horner over their count)."""
    x0 = np.zeros((len(space.states), u_max + 1))
    for s, pmf in (initial or {space.initial: np.ones(1)}).items():
        row = pmf if track_unsaved else np.array([pmf.sum()])
        x0[space.index[s], : len(row)] += row
    for pmf in before:
        assert mortal_wound is not None
        acc = np.zeros_like(x0)
        for j in range(len(pmf) - 1, -1, -1):
            acc = mortal_wound.apply(acc) + pmf[j] * x0
        x0 = acc
    return x0


def _target_states(weapons: tuple[ResolvedWeapon, ...], lines: _Lines, branches: Branches,
                   space: StateSpace, rules: RuleSet, before: list[tuple[str, FloatArray]],
                   fnp_mortal: int | None, track_unsaved: bool | None,
                   memo: dict[Any, Any], initial: Initial | None = None,
                   ) -> tuple[StateSpace, FloatArray, bool]:
    """The target's states (``allocation``) after mortal wounds before the attacks (06.02:
    one at a time, spilling over, ``fnp_mortal``), then every line in order (``chain``:
    05.03 allocation order, 05.04 saves, 24.10 Devastating Wounds), summed over the
    branches; one group of one part takes the fast path (``one_group``). Also says whether
    the unsaved counts were kept (``track_unsaved`` None: on the fast path only)."""
    fast = one_group_chain(space, lines.normal, lines.mortal, branches,
                           rules.devastating_wounds_per_line, [pmf for _, pmf in before],
                           fnp_mortal, track_unsaved is not False, memo, initial)
    if fast is not None:
        return (*fast, track_unsaved is not False)
    # the search (``_lethal_search``) makes the choice it takes again with the unsaved
    # counts: that call's size is checked here already, before this one's chain
    tracked_later = track_unsaved is None
    track_unsaved = bool(track_unsaved)
    maps = ["reset", *(["precision_start", "precision_end"]
                       if any(w.precision for w in weapons) else [])]
    mw_packet = Packet((0.0,) * len(space.groups), (0.0, 1.0), fnp_mortal, False,
                       counts=False, mortal=True)
    # operators only for what happens: criticals of Devastating Wounds weapons, mortal
    # wounds before the attacks, the classes of pooled save dice
    with_dw = [wi for wi, nm in enumerate(lines.nm) if nm.shape[1] > 1 and nm[:, 1:].any()]
    pooled = [pooled_classes(w, space, rules) for w in weapons]
    class_packets = sorted({class_packet(c, lines.normal[wi])
                            for wi, plan in enumerate(pooled) if plan is not None
                            for _, classes in plan[1] for c in classes}, key=repr)
    all_packets = [*lines.normal, *(lines.mortal[wi] for wi in with_dw),
                   *class_packets, *([mw_packet] if before else [])]
    # each line's counts without a negligible tail (stated bound: drop_negligible_tail)
    chain_nm = [[drop_negligible_tail(n) for _, n in br] for br in branches]
    u_full = max(sum(n.shape[0] + n.shape[1] - 2 for n in nms) for nms in chain_nm)
    u_full += max((len(p) - 1 for p in (initial or {}).values()), default=0)
    u_max = u_full if track_unsaved else 0
    sizing = ChainSizing(chain_nm, u_max + 1, u_full + 1 if tracked_later else None,
                     [0 if p is None else max(len(c) for _, c in p[1]) for p in pooled],
                     lines.mortal, rules.devastating_wounds_per_line)
    precise = len(maps) > 1
    plan = _chain_plan(weapons, lines, pooled, with_dw, mw_packet if before else None,
                       sizing.per_line)
    # the operators depend on the target's groups, start states and the plan only
    key_ops = ("operators", space.groups, tuple(initial or ()), plan, tuple(maps))
    found_now = key_ops not in memo
    if found_now:
        predicted = check_states(space.groups, precise,
                                 wound_losses(all_packets, space.groups), len(initial or ()),
                                 not precision_alone(weapons, bool(before)),
                                 len(weapons) + len(with_dw) + bool(before),
                                 sum(w.precision for w in weapons), space.rules)
        if predicted > _EXPLORE_FREELY and not precise:  # before exploring (cheap
            sizing.cost(predicted, later=False)  # below; the later call sees the states)
        fresh = StateSpace(space.groups, space.rules)
        start = [fresh.add(s) for s in initial or ()] or [0]
        watch = sizing.watch(fresh, lines.normal if precise else None)
        memo[key_ops] = (fresh, *reach(fresh, plan, start, maps, watch))
    space, found, mp = memo[key_ops]
    op_of = {pk: found.get(pk) or Operator([], []) for pk in all_packets}
    ops = [op_of[pk] for pk in all_packets]
    line_ops = [LineOps(precision=w.precision, normal=op_of[lines.normal[wi]],
                        pooled=pooled_saves(pooled[wi], lines.normal[wi], space, op_of),
                        mortal=op_of.get(lines.mortal[wi]), mortal_packet=lines.mortal[wi])
                for wi, w in enumerate(weapons)]
    n_states = len(space.states)
    # the exploration's share when it ran: the transitions it found (``reach``)
    found_edges = sum(len(op.a) + len(op.b) for op in (*found.values(), *mp.values())
                      ) if found_now else 0
    method = sizing.cost(n_states, found_edges,
                         [op_area(op.normal, n_states) for op in line_ops] if precise else None)
    x0 = _start(space, initial, [pmf for _, pmf in before], ops[-1] if before else None,
                u_max, track_unsaved)
    final = np.zeros_like(x0)
    for nms in chain_nm:
        if method == "tensor":  # held-back criticals as an operator (``deferred``)
            final += run_deferred(line_ops, nms, x0, mp)
        else:
            final += run_chain(line_ops, nms, x0, mp, sizing.per_line)
    return space, final, track_unsaved


class _Prepared(NamedTuple):
    """A scenario with its named effects applied and its weapon lines resolved (05.01
    onwards: what the rule set decides before any dice), once per scenario."""

    scenario: Scenario
    rules: RuleSet
    effects: tuple[Effect, ...]
    named: NamedEffects
    weapons: tuple[ResolvedWeapon, ...]
    #: the target's allocation groups (``build_groups``)
    groups: tuple[Group, ...]


def _prepare(scenario: Scenario, memo: dict[Any, Any] | None = None) -> _Prepared:
    """``scenario`` prepared: with a batch's ``memo``, the target's groups made once per
    target (cached by its value: a table's targets each meet many attackers)."""
    rules = get_ruleset(scenario.rules)
    effects, named = resolve_effects(scenario)
    applied = named.scenario(scenario)
    target = applied.target
    groups = memo.get(("groups", target)) if memo is not None else None
    if groups is None:
        groups = build_groups(target)
        if memo is not None:
            memo["groups", target] = groups
    return _Prepared(applied, rules, effects, named,
                     resolve_weapons(applied, rules, effects, memo), groups)


class _Final(NamedTuple):
    """One calculation up to the target's final states (``final`` over ``space``, with
    the unsaved counts when ``tracked``), and what the result document is built from."""

    lines: _Lines
    branches: Branches
    before: list[tuple[str, FloatArray]]
    space: StateSpace
    final: FloatArray
    tracked: bool


def _calculate(prep: _Prepared, lethal: tuple[bool | None, ...],
               track_unsaved: bool = True, memo: dict[Any, Any] | None = None,
               initial: Initial | None = None, states_out: Initial | None = None) -> Result:
    """The whole calculation for fixed attacker choices, stage by stage (``_states``,
    then ``_finish``). Without ``track_unsaved`` the unsaved counts are not kept (the
    result's ``unsaved`` is then meaningless): enough for the expected damage, at a
    fraction of the cost. ``memo`` shares the parts that do not depend on the choices
    between calls for one scenario (totals per weapon and choice, the target's states and
    operators). ``initial``: the target's starting distribution (``calculate_exact_from``);
    ``states_out`` receives the final one."""
    return _finish(prep, _states(prep, lethal, track_unsaved, memo, initial), states_out)


def _states(prep: _Prepared, lethal: tuple[bool | None, ...], track_unsaved: bool | None,
            memo: dict[Any, Any] | None, initial: Initial | None) -> _Final:
    """The attacker's side (05.01-05.02 per line, 15.02 branches) and the target's final
    states (06.02 mortal wounds before, then the lines). ``track_unsaved`` None: the
    unsaved counts are kept when the one-group fast path takes the chain (at almost no
    cost there), not on the general path."""
    memo = {} if memo is None else memo
    scenario, rules, effects, named = prep.scenario, prep.rules, prep.effects, prep.named
    weapons = prep.weapons
    space = StateSpace(prep.groups, rules)
    command = next((e.command_reroll for e in effects if e.command_reroll), None)
    if sum(1 for e in effects if e.command_reroll) > 1:
        raise ScenarioError("effects: Command Re-roll can be used once per roll")
    lines = _weapon_lines(weapons, scenario, space, rules, lethal, memo, command,
                          list(named.not_calculated))
    branches = _branches(lines, weapons, command)
    before = [(f"{e.mortal_wounds} mortal wounds", e.mortal_wounds.pmf())
              for e in effects if e.mortal_wounds is not None] + list(named.mortal_before)
    fnp_mortal = feel_no_pain(effects, mortal=True)  # the mortal wounds before (06.02)
    end, final, tracked = _target_states(weapons, lines, branches, space, rules, before,
                                         fnp_mortal, track_unsaved, memo, initial)
    return _Final(lines, branches, before, end, final, tracked)


def _finish(prep: _Prepared, done: _Final, states_out: Initial | None = None,
            notes: tuple[str, ...] = ()) -> Result:
    """The result document (``readout``) of a finished calculation, its ``notes`` first
    (the Lethal Hits choices, ``lethal_notes``); ``states_out`` receives the final
    states (see ``_calculate``)."""
    space, final, lines = done.space, done.final, done.lines
    stages = _stage_explanations(prep.weapons, space.groups, prep.rules)
    stages += [{"weapon": label, "stage": "damage",
                "detail": "mortal wounds before the attacks (06.02)"} for label, _ in done.before]
    if states_out is not None:
        collect_states(done.space, done.final, states_out)
    side = AttackerSide(prep.weapons, done.branches, stages, lines.notes,
                        lines.not_calculated, prep.named, prep.scenario.attacker.keywords,
                        notes)
    return assemble(prep.rules, side,
                    read_out(space, final, prep.scenario.target.keywords))
