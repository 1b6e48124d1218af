"""The exact engine's size model: the time a calculation will take, predicted before it
is computed, and the refusal (``TooLargeError``, pointing to the Monte Carlo twin) of
what would take too long or need too much memory.

Three things grow with a scenario (module ``exact`` asks in this order, each before the
work it predicts):

* the target's damage states (``predicted_states``, from the allocation groups alone,
  before they are explored): attacks go to one group until it is destroyed (05.04.01),
  so the states are a chain of one state per wound of the unit — two chains, the
  bodyguard's and the CHARACTER models', side by side when a Precision weapon (24.28)
  wounds a CHARACTER model and other attacks the bodyguard;
* one weapon line's totals over its attack dice (``compound_seconds``: the Fourier
  powers of ``totals.compound``);
* the target's chain (``chain_cost``): each packet one product of an operator over the
  states with the pmf of unsaved attacks; pooled saves (05.04) a Horner scheme per class
  of save dice; under the 10th rules the Devastating Wounds criticals held back until
  the whole unit has attacked (reference facts §5.5), carried either as one state
  vector per combination of their counts (``chain.run_chain``: the product of the
  counts) or as an operator over the states (``deferred.run_deferred``: states^3 numbers,
  a block of junction states at a time), whichever the model finds cheaper. With
  Precision each operator works on the states the chain meets (``reach``): its share is
  read off the operator once the states are found (``op_area``), so the time of such a
  chain is checked then, its memory before. While the states are explored the model
  watches them (``check_explored``, a ``reach.Budget``): a chain whose states, operators
  and transitions found so far already cost too much is refused there, after a part of
  the exploration.

The rates are this project's measured costs on one core (``benchmarks/bench_size.py``
prints predicted against measured times, ``benchmarks/README.md`` has the table).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import log2, prod

import numpy as np

from tactica.dice import FloatArray
from tactica.rules import get_ruleset
from tactica.rules.base import RuleSet

from .allocation import MAX_STATES, Group, Operator, Packet, StateSpace, TooLargeError
from .chain import STACK_LIMIT, pooled_classes
from .deferred import junction_block
from .profile import ResolvedWeapon
from .reach import Budget

__all__ = [
    "MAX_FLOATS",
    "MAX_SECONDS",
    "MAX_STATES",
    "ChainCost",
    "ChainSizing",
    "chain_cost",
    "check_chain",
    "check_compound",
    "check_explored",
    "check_lines",
    "check_states",
    "compound_seconds",
    "deferred_keys",
    "op_area",
    "precision_alone",
    "predicted_counts",
    "predicted_states",
    "wound_losses",
]

#: Refuse exact work predicted to take longer than this on one core of this machine:
#: such scenarios are what the Monte Carlo twin is for.
MAX_SECONDS = 3.0
#: Refuse exact work that would hold more than this many numbers at once (8 bytes each).
MAX_FLOATS = 3e7

#: Measured costs (seconds) on one core: one multiply-add of a dense operator product,
#: the same inside the deferred tensor (memory-bound), one sparse entry per column, one
#: call into numpy, one transition found while exploring the states.
_DENSE = 1.0 / 1.8e10
_TENSOR = 1.0 / 1.6e10
_SPARSE = 4e-9
_CALL = 4e-6
_EXPLORE = 1.2e-6
#: one element of ``r[m] += p * x`` (``chain.after_normal`` streaming the states after n
#: packets, memory-bound; measured in place at about 1.0 ns on the loaded machine, 1.6 ns in a
#: micro-benchmark beside a dense product of 27 GFLOP/s)
_AXPY = 1.5e-9
#: one number of a pooled class's Horner scheme (``chain._class_step``: the states x
#: counts x unsaved array copied, multiplied, shifted and added some ten times a step): its
#: floor when the states are few and the dense products cheap (9 states: 16-27 ns a
#: number measured on the machine at load 9-16, some 4-6 ns quiet)
_HORNER = 5e-9
#: dense operator products up to this many states (``allocation._DENSE_LIMIT``)
_DENSE_LIMIT = 700
#: an operator's rows are gathered below this share of states x states (``allocation``)
_RESTRICT = 0.5
#: sparse operators: about this many successors per state and packet
_EDGES = 4


def _too_large(place: str, what: str) -> TooLargeError:
    return TooLargeError(f"{place}: too large for the exact engine ({what}); use method "
                         "monte-carlo")


# --- the target's states -------------------------------------------------------------


def _levels(g: Group, losses: frozenset[int]) -> tuple[int, int]:
    """The wounds-left values a model of ``g`` can be at (losing any of ``losses`` at a
    time, the excess lost): for its first model and for the others."""
    def reach(start: int) -> int:
        seen, todo = {start}, [start]
        while todo:
            t = todo.pop()
            for d in losses:
                if d < t and t - d not in seen:
                    seen.add(t - d)
                    todo.append(t - d)
        return len(seen)
    return reach(g.first_wounds), reach(g.W)


def predicted_states(groups: tuple[Group, ...], precision: bool,
                     losses: frozenset[int] = frozenset({1}), start_states: int = 1,
                     mixed: bool = True, orders: int = 2, precision_orders: int = 1,
                     rules: RuleSet | None = None) -> int:
    """An estimate (within about 2x, ``bench_size`` and ``test_size_refusals``) of the
    target's damage states before they are explored, ``losses`` the wounds one packet can
    take off a model: attacks go to one group until it is destroyed (05.04.01), so the
    states are one chain through the unit's models (each at the wounds-left values it
    can reach); with Precision (24.28) and attacks that go to the bodyguard first
    (``mixed``: a line without Precision, mortal wounds picking models, 06.02) the
    CHARACTER models' chain runs beside the bodyguard's (``reach``: their product; with
    Precision alone the CHARACTER models are damaged first, one chain). A wounded
    model beyond the first group goes first (05.03); once it is destroyed its group waits
    with whole models while the groups before it are damaged, when the allocation order
    is declared again (``orders``: weapon lines, and their Devastating Wounds;
    ``precision_orders`` of them with Precision). ``start_states``: states the target
    starts in (a sequence of attacks: the chains from them mostly meet the states
    already there). The bands of the order (CHARACTER models last, first with
    Precision) are ``rules``' (``RuleSet.allocation_band``; the default rule set's).

    >>> from tactica.combat.exact.allocation import Group
    >>> bodyguard = Group("Marine", 5, 2, 3, None, None, False, 2)
    >>> captain = Group("Captain", 1, 5, 3, 4, None, True, 5)
    >>> predicted_states((bodyguard, captain), precision=False)
    16
    >>> predicted_states((bodyguard, captain), precision=True)
    66
    >>> predicted_states((bodyguard, captain), False, losses=frozenset({6}))
    7
    """
    def chain(gs: list[Group]) -> int:
        total = 0
        for g in gs:
            first, other = _levels(g, losses)
            total += first + (g.count - 1) * other
        return total

    def tier(gs: list[Group], orders: int) -> int:  # the states but the undamaged one
        if not gs:
            return 0
        # allocation groups (of one or more parts) holding a wounded model go first; once
        # that model is destroyed the group waits, holding whole models only (any number
        # of them), while the groups before it in the order given, or holding a wounded
        # model, are damaged
        def whole(a: int) -> int:  # the models of group ``a`` not wounded at the start
            return sum(g.count - (g.first_wounds < g.W) for g in gs if g.alloc == a)

        wounded = {g.alloc for g in gs if g.first_wounds < g.W}
        if wounded <= {gs[0].alloc} or orders < 2:  # the first group comes first anyway
            return chain(gs)
        # (a lone wounded model goes first until it is destroyed)
        waiting = {a for a in wounded if whole(a)}
        if orders == 2:  # declared once more: each waiting group's states once again
            return chain(gs) + chain([g for g in gs if g.alloc in waiting])
        order = list(dict.fromkeys(g.alloc for g in gs))
        out = 0
        for i, a in enumerate(order):
            held = 1  # the waiting groups ``a`` can be damaged beside: it comes first
            for b in waiting - {a}:
                if a in wounded or i < order.index(b):
                    held *= whole(b) + 1
            out += chain([g for g in gs if g.alloc == a]) * held
        return out

    order = rules if rules is not None else get_ruleset()

    def marked(gs: list[Group], orders: int) -> int:  # CHARACTER models last (05.03)
        return sum(tier(band, orders) for band in _bands(gs, order))

    chars, others = _precise(groups, order)
    if precision and chars and mixed:
        # each Precision line damages one CHARACTER group (the first living), beside the
        # bodyguard; the others only once the bodyguard is destroyed
        first = chars[:max(1, precision_orders)]
        base = ((marked(others, orders) + 1) * (marked(first, precision_orders) + 1)
                + marked(chars[len(first):], orders))
    else:
        base = marked(list(groups), orders) + 1
    return max(base, start_states)


def _bands(groups: list[Group], rules: RuleSet) -> list[list[Group]]:
    """``groups`` by their band of the allocation order (``RuleSet.allocation_band``:
    CHARACTER models last, 05.03), the first band first."""
    bands: dict[int, list[Group]] = {}
    for g in groups:
        bands.setdefault(rules.allocation_band(character=g.character), []).append(g)
    return [bands[b] for b in sorted(bands)]


def _precise(groups: tuple[Group, ...], rules: RuleSet) -> tuple[list[Group], list[Group]]:
    """The groups Precision moves forward (24.28: the CHARACTER models), and the others."""
    moved = [g for g in groups if rules.allocation_band(character=g.character, precision=True)
             < rules.allocation_band(character=g.character)]
    return moved, [g for g in groups if g not in moved]


def wound_losses(packets: list[Packet], groups: tuple[Group, ...]) -> frozenset[int]:
    """The wounds one of ``packets`` can take off a model (Feel No Pain, of the packet
    or of a group, makes every smaller loss possible too)."""
    fnp = any(g.fnp is not None for g in groups)
    out: set[int] = set()
    for pk in packets:
        for d, p in enumerate(pk.damage):
            if p and d:
                out.update(range(1, d + 1) if fnp or pk.fnp is not None else (d,))
    return frozenset(out) or frozenset({1})


def precision_alone(weapons: tuple[ResolvedWeapon, ...], before: bool) -> bool:
    """Every attack goes to a CHARACTER model first while one lives (24.28): every line
    has Precision, no Devastating Wounds pick models afresh (06.02) and no mortal wounds
    come before the attacks (``before``)."""
    return not before and all(w.precision and not (w.devastating and w.mortal_afresh)
                              for w in weapons)


def check_states(groups: tuple[Group, ...], precision: bool,
                 losses: frozenset[int] = frozenset({1}), start_states: int = 1,
                 mixed: bool = True, orders: int = 2, precision_orders: int = 1,
                 rules: RuleSet | None = None) -> int:
    """``predicted_states``, refused above ``MAX_STATES`` before any state is explored."""
    n = predicted_states(groups, precision, losses, start_states, mixed, orders,
                         precision_orders, rules)
    if n > MAX_STATES:
        raise _too_large("target.models", f"about {n:,} damage states of the target")
    return n


# --- one weapon line's totals --------------------------------------------------------


def compound_seconds(dice: int, per_die_shape: tuple[int, ...]) -> float:
    """The time of ``totals.compound`` for up to ``dice`` attack dice: the Fourier
    transform of the grid of totals and a Horner scheme of ``dice`` products on it."""
    cells = float(prod((d - 1) * dice + 1 for d in per_die_shape))
    return cells * (2 * dice + 4 * log2(cells + 1)) * 2e-9 + _CALL * dice


def predicted_counts(attacks_pmf: FloatArray, per_die: FloatArray) -> tuple[int, ...]:
    """The shape of a weapon line's totals (``totals.compound`` of ``per_die`` over
    ``attacks_pmf`` dice) once its negligible tail is dropped (``chain.
    drop_negligible_tail``), from the moments alone: the mean plus nine standard
    deviations of each count (a tail of about 1e-19 if it were normal), at most the
    largest total.

    >>> predicted_counts(np.array([0.0, 0.0, 1.0]), np.array([[0.5, 0.0], [0.5, 0.0]]))
    (3, 1)
    """
    k = np.arange(len(attacks_pmf))
    e_n = float(np.dot(k, attacks_pmf))
    v_n = float(np.dot(k * k, attacks_pmf)) - e_n * e_n
    out = []
    for axis, size in enumerate(per_die.shape):
        marginal = per_die.sum(axis=tuple(a for a in range(per_die.ndim) if a != axis))
        j = np.arange(size)
        mu = float(np.dot(j, marginal))
        var = float(np.dot(j * j, marginal)) - mu * mu
        mean, sd = e_n * mu, (e_n * var + v_n * mu * mu) ** 0.5
        full = (size - 1) * (len(attacks_pmf) - 1) + 1
        out.append(min(full, int(mean + 9 * sd) + 1))
    return tuple(out)


def check_compound(name: str, dice: int, per_die: FloatArray) -> None:
    """Refuse before compounding when the totals would be huge (e.g. 500 x D6 attacks
    with Sustained Hits and Devastating Wounds)."""
    cells = float(prod((d - 1) * dice + 1 for d in per_die.shape))
    if cells > MAX_FLOATS:
        raise _too_large("attacker.weapons",
                         f"{name}: about {cells:.1e} outcome totals of {dice} attack dice")
    seconds = compound_seconds(dice, per_die.shape)
    if seconds > MAX_SECONDS:
        raise _too_large("attacker.weapons",
                         f"{name}: outcome totals of {dice} attack dice, about {seconds:.0f} s")


# --- the target's chain --------------------------------------------------------------


def deferred_keys(nm_all: list[FloatArray], mortal: list[Packet],
                  per_line: bool) -> list[int]:
    """How many combinations of held-back Devastating Wounds counts ``chain.run_chain``
    carries into each line, and (last) out of the whole unit: 10th, the mortal wounds wait
    until every line has attacked (reference facts §5.5), one count per block of lines
    with the same mortal packet; 11th, one (each line's after it)."""
    keys, out = 1, []
    block: tuple[Packet, int] | None = None  # the last block's packet and count range
    for nm, packet in zip(nm_all, mortal, strict=True):
        out.append(keys)
        if per_line or nm.shape[1] < 2 or not nm[:, 1:].any():
            continue
        if block is not None and packet.mortal and block[0] == packet:
            size = block[1] + nm.shape[1] - 1  # merged: the counts add up
            keys = keys // block[1] * size
        else:
            size = nm.shape[1]
            keys *= size
        block = (packet, size)
    return [*out, keys]


@dataclass(frozen=True)
class ChainCost:
    """The predicted time of the target's chain (all branches) and the method for the
    held-back Devastating Wounds: ``keys`` (``chain.run_chain``) or ``tensor``
    (``deferred.run_deferred``), with the numbers it holds at once."""

    seconds: float
    method: str
    floats: float
    keys: int


def _product(states: int, cols: float, area: float | None = None) -> float:
    """One packet applied to ``cols`` columns of states; ``area``: its dense block (the
    states it has rows for times those it leads to, ``op_area``; default all)."""
    if states <= _DENSE_LIMIT:
        return 2 * (states * states if area is None else area) * cols * _DENSE + _CALL
    return 2 * _EDGES * states * cols * _SPARSE + 3 * _CALL


def _line_seconds(nm: FloatArray, states: int, unsaved: int, classes: int,
                  per_line: bool, area: float | None = None, used: float = 1.0) -> float:
    """One weapon line for one state vector: its normal packets (or the pooled classes),
    the weights of the criticals' counts and, under 11th, the criticals' Horner scheme.
    ``used``: the unsaved columns the lines before it can fill (the packets work on
    those and one more each)."""
    rows, cols = int(nm.shape[0]), int(nm.shape[1])
    width = float(unsaved)
    t = rows * _product(states, min(width, used + rows / 2), area)
    if classes:  # per class, a Horner over the counts on a (states, rows, unsaved) array
        horner = classes * rows * (_product(states, width * rows / 2, area) + 3 * _CALL)
        t += max(horner, classes * states * width * rows * rows / 2 * _HORNER)
    if cols > 1:
        if rows * states * width <= STACK_LIMIT:  # the tensordot over n
            t += 2 * rows * cols * states * width * _DENSE + _CALL
        else:  # streamed (``chain.after_normal``): one pass over the states per (n, m)
            t += np.count_nonzero(nm) * (states * width * _AXPY + _CALL)
        if per_line:
            t += (cols - 1) * _product(states, width, area)
    return t


def _block(op: Operator) -> float:
    """The states ``op`` has rows for times the states it leads to (``Operator.block``,
    kept up as the exploration appends rows: each ask reads the new rows alone)."""
    return float(op.block())


def op_area(op: Operator, states: int) -> float:
    """The dense block of an operator built along the chain (``reach``): the states it
    has rows for times the states it leads to (all x all when that is most of it, as
    ``allocation.Operator`` decides)."""
    area = _block(op)
    return float(states * states) if area > _RESTRICT * states * states else area


def _tensor_seconds(nm_all: list[FloatArray], states: int, unsaved: int,
                    blocks: int) -> float:
    """``deferred.run_deferred``: each packet on a states^3 x unsaved tensor (its unsaved
    axis growing one column per packet), in ``blocks`` blocks of junction states."""
    t, width = 0.0, 1.0
    per_col = states ** 4 * 2 * _TENSOR
    for nm in nm_all:
        rows, cols = int(nm.shape[0]), int(nm.shape[1])
        t += rows * per_col * (width + rows / 2) + blocks * rows * _CALL
        width = min(float(unsaved), width + rows)
        t += cols * per_col * (width + cols / 2) + blocks * (cols + rows) * _CALL
        width = min(float(unsaved), width + cols)
    return t


def chain_cost(branches: list[list[FloatArray]], states: int, unsaved: int,
               pooled: list[int], mortal: list[Packet], per_line: bool,
               explore: int = 0, areas: list[float] | None = None) -> ChainCost:
    """The predicted time of the target's chain over every branch (Command Re-roll,
    15.02), plus ``explore`` transitions to discover; ``pooled[i]`` is the number of
    classes of save dice of line ``i`` (0: saved one at a time); ``areas[i]`` the dense
    block of line ``i``'s operator once the states are found (``op_area``)."""
    base = explore * _EXPLORE
    keys_t, tensor_t, max_keys = base, base, 1
    tensor_floats = 0.0
    for nm_all in branches:
        keys = deferred_keys(nm_all, mortal, per_line)
        max_keys = max(max_keys, max(keys))
        used = 1.0
        for i, (nm, classes, k) in enumerate(zip(nm_all, pooled, keys, strict=False)):
            keys_t += k * _line_seconds(nm, states, unsaved, classes, per_line,
                                        None if areas is None else areas[i], used)
            used += nm.shape[0] + nm.shape[1] - 2
        keys_t += keys[-1] * (_product(states, unsaved) + _CALL)  # the held-back Horner
        if not per_line and keys[-1] > 1 and not any(pooled):
            m_max = max(nm.shape[1] for nm in nm_all) - 1
            block = junction_block(states, unsaved, m_max)
            tensor_t += _tensor_seconds(nm_all, states, unsaved, -(-states // block))
            tensor_floats = max(tensor_floats,
                                (m_max + 3) * float(states) ** 2 * unsaved * block)
        else:
            tensor_t = float("inf")
    keys_floats = 3.0 * max_keys * states * unsaved
    if tensor_t < keys_t and tensor_floats <= MAX_FLOATS:
        return ChainCost(tensor_t, "tensor", tensor_floats, max_keys)
    return ChainCost(keys_t, "keys", keys_floats, max_keys)


def _refusal(cost: ChainCost, states: str, unsaved: int, about: str = "about",
             memory: bool = True) -> TooLargeError:
    """The refusal of ``cost``, naming what grew (``about``: how sure the figure is) and
    its memory when that is over the limit (and ``memory``), else its time."""
    if cost.keys > 1 and cost.method == "keys":
        what = (f"about {cost.keys:.1e} combinations of Devastating Wounds held back "
                "until the whole unit has attacked")
    else:
        what = f"{states} target states x {unsaved} unsaved counts"
    seconds = f"{about} {cost.seconds:.2g} s" if cost.floats <= MAX_FLOATS or not memory else (
        f"{about} {cost.floats * 8 / 1e9:.2g} GB of memory")
    return _too_large("attacker.weapons", f"{what}: {seconds}")


def check_chain(cost: ChainCost, states: int, unsaved: int, time: bool = True) -> ChainCost:
    """``cost``, refused when it is too slow (unless not ``time``: an estimate before the
    operators' own states are known) or too big; the message names what grew."""
    if cost.floats > MAX_FLOATS or (time and cost.seconds > MAX_SECONDS):
        raise _refusal(cost, str(states), unsaved)
    return cost


def check_explored(branches: list[list[FloatArray]], states: int, unsaved: int,
                   pooled: list[int], mortal: list[Packet], per_line: bool, explore: int,
                   ops: list[Operator] | None) -> None:
    """Refuse while the target's states are explored (``reach.Budget``) as soon as the
    ``states`` and ``explore`` transitions found so far, with the lines' operators
    ``ops`` as found so far (their blocks, ``op_area``; None: products over all the
    states), already cost more than ``MAX_SECONDS`` (``chain_cost``, as ``check_chain``
    will see it once they are all found). A floor: exploring further only adds states,
    transitions and rows, and the predicted time grows with each but at the step from
    dense to sparse products (past ``_DENSE_LIMIT`` states), so the lesser of the two
    sides of that step is taken. Memory is checked before the exploration and after."""
    areas = None if ops is None else [_block(op) for op in ops]
    at = [states] if states > _DENSE_LIMIT else [states, _DENSE_LIMIT + 1]
    floor = min((chain_cost(branches, n, unsaved, pooled, mortal, per_line, explore, areas)
                 for n in at), key=lambda c: c.seconds)
    if floor.seconds > MAX_SECONDS:
        raise _refusal(floor, f"at least {states}", unsaved, "over", memory=False)


def check_lines(weapons: tuple[ResolvedWeapon, ...], per_die: list[FloatArray],
                space: StateSpace, rules: RuleSet, mortal: list[Packet]) -> None:
    """The whole model on the weapon lines' totals as predicted from one die each
    (``predicted_counts``), before they are compounded: an oversize scenario is refused
    in milliseconds. ``mortal``: each line's Devastating Wounds packet. Skipped when a
    crude bound (every total possible, a state per pair of wounds) is already small."""
    if _surely_small(weapons, per_die, space.groups):
        return
    shapes = [predicted_counts(w.attacks_pmf, d) for w, d in zip(weapons, per_die,
                                                                strict=True)]
    unsaved = sum(r + c - 2 for r, c in shapes) + 1
    pooled = [pooled_classes(w, space, rules) for w in weapons]
    classes = [0 if p is None else max(len(c) for _, c in p[1]) for p in pooled]
    normal = [Packet((), tuple(float(x) for x in w.damage_pmf), w.fnp_effect, False)
              for w in weapons]
    states = check_states(space.groups, any(w.precision for w in weapons),
                          wound_losses([*normal, *mortal], space.groups),
                          mixed=not precision_alone(weapons, False),
                          orders=len(weapons) + sum(w.devastating for w in weapons),
                          precision_orders=sum(w.precision for w in weapons), rules=rules)
    nm = [np.ones(shape) for shape in shapes]
    # with Precision the operators work on a few of the states each (``reach``): only
    # the memory is bounded here, the time as they are found (``check_explored``)
    check_chain(chain_cost([nm], states, unsaved, classes, mortal,
                           rules.devastating_wounds_per_line), states, unsaved,
                time=not any(w.precision for w in weapons))


def _surely_small(weapons: tuple[ResolvedWeapon, ...], per_die: list[FloatArray],
                  groups: tuple[Group, ...]) -> bool:
    """A bound on the chain's work far below the limits: every line's largest totals,
    the target's states at most (wounds + 1)^2 times 2 (``predicted_states``)."""
    states = 2 * (sum(g.count * g.W for g in groups) + 1) ** 2
    cells = rows = 0
    for w, d in zip(weapons, per_die, strict=True):
        dice = len(w.attacks_pmf) - 1
        shape = [(n - 1) * dice + 1 for n in d.shape]
        cells += prod(shape)
        rows += sum(shape)
    keys = 1 if len(weapons) < 2 else cells  # held back: at most a key per total
    work = keys * cells * 2.0 * min(states, _DENSE_LIMIT) ** 2 * rows * _DENSE
    return states <= MAX_STATES and work < MAX_SECONDS / 100


@dataclass(frozen=True)
class ChainSizing:
    """The size model's view of one call's chain (``size``): each branch's line counts,
    the unsaved columns this call keeps (``unsaved``) and those of the call the Lethal
    Hits search makes again with them (``later``; None: there is none), the classes of
    pooled save dice per line, the lines' Devastating Wounds packets."""

    chain_nm: list[list[FloatArray]]
    unsaved: int
    later: int | None
    classes: list[int]
    mortal: list[Packet]
    per_line: bool

    def cost(self, n: int, explore: int = 0, areas: list[float] | None = None,
             later: bool = True) -> str:
        """Refuse this call's chain over ``n`` states (and with ``later`` the one made
        again with the unsaved counts, which explores nothing); else its method."""
        if self.later is not None and later:
            check_chain(chain_cost(self.chain_nm, n, self.later, self.classes, self.mortal,
                                   self.per_line, 0, areas), n, self.later)
        return check_chain(chain_cost(self.chain_nm, n, self.unsaved, self.classes,
                                      self.mortal, self.per_line, explore, areas),
                           n, self.unsaved).method

    def watch(self, space: StateSpace, normal: list[Packet] | None) -> Budget:
        """The size model watching an exploration of ``space`` (``reach.Budget``): the
        same checks on the states, rows and transitions found so far (the blocks of the
        lines' ``normal`` operators under Precision)."""
        def budget(found: dict[Packet, Operator], edges: int) -> None:
            n = len(space.states)
            ops = (None if normal is None
                   else [found.get(pk) or Operator([], []) for pk in normal])
            if self.later is not None:
                check_explored(self.chain_nm, n, self.later, self.classes, self.mortal,
                               self.per_line, 0, ops)
            check_explored(self.chain_nm, n, self.unsaved, self.classes, self.mortal,
                           self.per_line, edges, ops)
        return budget
