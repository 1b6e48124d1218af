"""The target's chain when every attack faces one allocation group of one part: a fast
path of ``chain.run_chain`` with the same semantics as ``StateSpace.packet_edges``.

With one group of ``K`` identical models of ``W`` wounds (one W/Sv/invulnerable save and
one Feel No Pain: every preset and most real units; a lone CHARACTER model too) the
target's state is ``h``, the wounds left in the unit (0: destroyed). The wounded model
takes damage first (Save Rolls: "Allocation Order"; 05.04.01 and 06.02 pick the same
model: there is no other group), so it has ``t(h) = ((h - 1) mod W) + 1`` wounds left and
an attack that loses ``l`` wounds (``allocation.loss_pmf``, damage beyond the wounds left
is lost) moves ``h`` to ``h - l``. Precision (24.28) and the allocation order declared per
weapon (05.03) change nothing here: the one group is always the one attacked.

* **Saves folded into the counts.** Each attack is saved on its own with the same
  probability (05.04; with one group the 11th-edition pooled saves give the same
  distribution, ``chain``'s docstring), a saved attack changes nothing and a destroyed
  unit takes nothing, so ``n`` wounds to save act as ``f ~ Binomial(n, P(fail))`` failed
  saves: the line's (n, m) pmf becomes an (f, m) pmf (``thin``) and the chain steps only
  on failed saves and Devastating Wounds criticals (24.10).
* **Unsaved without stepping it.** The unsaved count (attacks that failed their save and
  Devastating Wounds criticals, counted when they reach a living model: ``Packet.counts``)
  of a living unit is the count before the line plus the packets so far; a destroyed
  unit keeps the count of the packet that destroyed it (its first passage). So a line is
  a few whole-array products (``one_group_steps.line_step``): the living states after
  ``f`` failed saves for every ``f`` at once (powers by doubling), shifted by ``f`` and
  weighted by the pmf; the mass destroyed by packet ``j`` (the kill row times the states
  after ``j - 1``), weighted by P(at least ``j`` packets); then the same for the
  criticals. When a critical does what a failed save does (11th: its mortal wounds equal
  the weapon's D, 24.10, nothing halved or reduced) only the total count f + m matters.
* **The expected damage alone** (``mean_damage``, for the attacker's Lethal Hits choice,
  24.23): the same line steps without the unsaved counts, on one-dimensional totals
  (one die's wounds thinned to failed saves, then f + m per die, compounded).

Worked example (by hand): 3 failed saves of D2 into 2 models of W3 (h = 6). The first
takes 2 from the first model (h = 4: one wound left on it), the second destroys it (the
excess is lost: h = 3), the third takes 2 from the last (h = 1): 5 damage, 1 model
destroyed, 3 unsaved, for certain. With each of two wounds saved on 4+ (f ~ Bin(2, 1/2)):
h = 6, 4, 3 with probabilities 1/4, 1/2, 1/4 (``tests/combat/test_one_group.py``).

Tails: the negligible tail of a large (n, m) pmf is dropped as in the general path,
then that of the (f, m) pmf (or of its totals f + m; ``chain.drop_negligible_tail``:
every distribution of the result moves by at most 4e-15 per line and branch in total
variation; a small (n, m) pmf is thinned whole, its tail kept). Under 10th the
Devastating Wounds criticals wait until the whole unit has attacked (reference facts
§5.5): their count is carried with the states through the later lines (``held_back``)
when every line's criticals are the same packet (the blocks of ``chain.run_chain`` then
act as one: with one group the order declared per weapon changes nothing). Criticals of
different packets take the general path, as do several groups or parts, an attack with
``Packet.counts`` off, targets of more than ``MAX_WOUNDS`` wounds and lines whose arrays
would hold more than ``MAX_CELLS`` numbers (the general path's size guard then decides).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from itertools import accumulate
from typing import Any

import numpy as np
import numpy.typing as npt

from tactica.cache_registry import lasting_cache
from tactica.dice import FloatArray

from . import allocation
from .allocation import Group, Packet, State, StateSpace, loss_pmf
from .chain import drop_negligible_tail
from .one_group_steps import PacketMatrix, held_back, line_step, padded_sum
from .totals import compound

__all__ = ["MAX_CELLS", "MAX_WOUNDS", "general_chain", "mean_damage", "one_group_chain",
           "packet_matrix", "thin"]

#: Above this many wounds in the unit the general path (and its size guard) is used.
MAX_WOUNDS = 400
#: ... and above this many numbers in one line's arrays (states x counts x unsaved).
MAX_CELLS = 20_000_000

_ENABLED: ContextVar[bool] = ContextVar("one_group_enabled", default=True)

#: Per Command Re-roll branch, per weapon line: (hits pmf, (n, m) pmf).
Branches = Sequence[Sequence[tuple[FloatArray, FloatArray]]]


@contextmanager
def general_chain() -> Iterator[None]:
    """Within the block the engine takes the general path (for comparisons)."""
    token = _ENABLED.set(False)
    try:
        yield
    finally:
        _ENABLED.reset(token)


@lasting_cache(maxsize=512)
def packet_matrix(damage: tuple[float, ...], fnp: int | None, W: int, top: int) -> PacketMatrix:
    """The packet's matrix over h = 0..top for models of ``W`` wounds: from h the wounded
    model (t(h) wounds left) loses l wounds with ``loss_pmf(damage, t(h), fnp)``.

    Column h holds at most ``len(damage)`` numbers (``lost[l]`` for l < t(h), all of
    ``lost[t(h):]`` at t(h): damage beyond the wounds left is lost) and the columns
    repeat from model to model (h -> h + W moves them W rows and columns on), so one
    model's columns are listed in Python floats and put in place for every model by a
    few numpy calls (on a D6 and a few dozen states numpy's per-call cost was all its
    cost).

    >>> m = packet_matrix((0.0, 0.0, 1.0), None, 3, 6).full   # D2 into 2 x W3
    >>> [int(np.argmax(m[:, h])) for h in (6, 4, 3, 1)]
    [4, 3, 1, 0]
    """
    lost = loss_pmf(damage, len(damage) - 1, fnp)  # P(l wounds lost), not capped
    tails = list(accumulate(reversed(lost)))[::-1]  # tails[t]: P(at least t lost)
    n, last = top + 1, len(lost) - 1
    index: list[int] = []  # full[h - l, h] for the first model's h = 1..W, at (h - l) n + h
    values: list[float] = []
    ends = [0]  # how many numbers the columns up to h hold
    for h in range(1, min(W, top) + 1):
        t = min(h, last)  # l = 0..t, all of lost[t:] at t
        index += range(h * (n + 1), h * (n + 1) - (t + 1) * n, -n)
        values += lost[:t]
        values.append(tails[t])
        ends.append(len(values))
    models, step = -(-top // W), W * (n + 1)  # the next model's columns: step further
    count = (models - 1) * len(values) + ends[top - (models - 1) * W]  # the last: h <= top
    if count <= 512:  # a few hundred numbers: listed in Python
        where: list[int] | npt.NDArray[np.int64] = [
            i + at for at in range(0, models * step, step) for i in index][:count]
    else:
        where = np.add.outer(np.arange(0, models * step, step), index).ravel()[:count]
    flat = np.zeros(n * n)
    flat.put(where, (values * models)[:count])
    flat[0] = 1.0  # the destroyed unit stays destroyed
    full = flat.reshape(n, n)
    full.flags.writeable = False  # kept between calls (lru_cache): shared, never written
    return PacketMatrix(full, full[1:, 1:], full[0, 1:], (damage, fnp, W, top))


def thin(nm: FloatArray, p_fail: float) -> FloatArray:
    """The (f, m) pmf of failed saves and criticals from the (n, m) pmf of wounds to save
    and criticals, each wound failing its save with ``p_fail`` on its own:
    ``out[f, m] = sum_n nm[n, m] C(n, f) p^f (1 - p)^(n - f)``. A small pmf (at most
    ``SMALL_THIN`` numbers) in Python floats (``_thin_columns``), up to 64 counts by
    ``_thin_factored``, a larger one by a table of binomial rows.

    >>> [round(float(x), 6) for x in thin(np.array([[0.0], [0.0], [1.0]]), 0.5)[:, 0]]
    [0.25, 0.5, 0.25]
    """
    rows, cols = nm.shape
    if p_fail >= 1.0:
        return nm
    if p_fail <= 0.0 or rows == 1:
        total: FloatArray = np.add.reduce(nm, 0, keepdims=True)
        return total
    if rows * cols <= SMALL_THIN:
        return np.array(_thin_columns(nm.T.tolist(), p_fail)).T
    if rows <= 64 and p_fail <= 63 / 64:
        return _thin_factored(nm, p_fail)
    b = _binomial_rows(-(-rows // 16) * 16, p_fail)  # rows n < rows of a larger table
    out: FloatArray = b[:rows, :rows].T @ nm
    return out


#: ``thin`` in Python floats up to this many numbers (a few rows: numpy's per-call cost
#: was all the cost; about even with ``_thin_factored`` at 10 x 1 and 4 x 3).
SMALL_THIN = 8


def _thin_columns(columns: list[list[float]], p_fail: float) -> list[list[float]]:
    """``thin`` of each column ``nm[:, m]``, by Horner's scheme on its generating function
    ``sum_n nm[n, m] (q + p z)^n`` (q = 1 - p): from the last count, multiply by
    ``q + p z`` and add the next (every term positive: a few roundings per number).

    >>> [round(x, 6) for x in _thin_columns([[0.0, 0.0, 1.0]], 0.5)[0]]
    [0.25, 0.5, 0.25]
    """
    q = 1.0 - p_fail
    out = []
    for column in columns:
        acc = [column[-1]]
        for x in column[-2::-1]:
            acc = [q * a + p_fail * b for a, b in zip([*acc, 0.0], [0.0, *acc], strict=True)]
            acc[0] += x
        out.append(acc)
    return out


def _thin_factored(nm: FloatArray, p_fail: float) -> FloatArray:
    """``thin`` by ``C(n, f) p^f q^(n - f) = [(p / q)^f / f!] [1 / (n - f)!] [n! q^n]``:
    the wounds scaled by ``n! q^n``, one product with the matrix of ``1 / (n - f)!``
    (n >= f), the failed saves scaled by ``(p / q)^f / f!`` (a few numpy calls instead
    of a binomial table's; in range for up to 64 counts and q >= 1/64, every term
    positive)."""
    rows, q = nm.shape[0], 1.0 - p_fail
    fact = [1.0]
    for k in range(1, rows):
        fact.append(fact[-1] * k)
    # lower[n, f] = 1 / (n - f)!: a view of one row padded with zeros (for n < f) that
    # steps one number on per n and one back per f
    padded = np.array([*[0.0] * (rows - 1), *(1.0 / x for x in fact)])
    lower = np.ndarray((rows, rows), np.float64, padded, (rows - 1) * padded.itemsize,
                       (padded.itemsize, -padded.itemsize))
    scale = np.array([[x * q ** n for n, x in enumerate(fact)],
                      [(p_fail / q) ** f / x for f, x in enumerate(fact)]])
    out: FloatArray = scale[1][:, None] * (lower.T @ (scale[0][:, None] * nm))
    return out


@lasting_cache(maxsize=64)
def _binomial_rows(rows: int, p_fail: float) -> FloatArray:
    """``b[n, f]`` = C(n, f) p^f (1 - p)^(n - f) for n, f < rows (from log factorials);
    read-only (kept between calls)."""
    n = np.arange(rows)
    log_fact = np.concatenate(([0.0], np.cumsum(np.log(np.arange(1, rows)))))
    k = n[:, None] - n[None, :]  # n - f
    valid = k >= 0
    kk = np.where(valid, k, 0)
    log_b = (log_fact[:, None] - log_fact[None, :] - log_fact[kk]
             + n[None, :] * np.log(p_fail) + kk * np.log1p(-p_fail))
    b: FloatArray = np.where(valid, np.exp(log_b), 0.0)
    b.flags.writeable = False
    return b


# --- the dispatch from the engine ----------------------------------------------------


def _state(h: int, group: Group) -> State:
    if h == 0:
        return (0, 0, -1, -1)
    k = (h + group.W - 1) // group.W
    return (k, h - (k - 1) * group.W, -1, -1)


def _wounds(s: State, group: Group) -> int | None:
    """h of a state of the one group, None if it is not one."""
    if len(s) != 4:
        return None
    k, t = s[0], s[1]
    if k == 0 and t == 0:
        return 0
    if 1 <= k <= group.count and 1 <= t <= group.W:
        return (k - 1) * group.W + t
    return None


def _has_dw(nm: FloatArray) -> bool:
    return nm.shape[1] > 1 and bool(nm[:, 1:].any())


def _fnp(group: Group, packet: Packet) -> int | None:
    return min((f for f in (group.fnp, packet.fnp) if f is not None), default=None)


def _cells(branches: Branches, top: int, width0: int, track: bool) -> int:
    """The most numbers one line's arrays hold (an upper bound: the (n, m) shapes before
    thinning): the states after each count of failed saves, shifted along the unsaved
    axis, and after each count of criticals."""
    worst = 0
    for br in branches:
        width = width0
        for _, nm in br:
            rows, cols = nm.shape
            grown = width + rows + cols - 2 if track else width
            worst = max(worst, (rows * (width + rows) + cols * grown) * (top + 1))
            width = grown
    return worst


def _same_packet(a: Packet, b: Packet, group: Group) -> bool:
    """A failed save and a critical do the same to the one group (11th: the criticals'
    mortal wounds equal the weapon's D, 24.10, when nothing halves or reduces it)."""
    return a.damage == b.damage and _fnp(group, a) == _fnp(group, b)


def _total_counts(nmf: FloatArray) -> FloatArray:
    """The (f + m) pmf of a joint (f, m) pmf, as one column: when a failed save and a
    critical are the same packet only their total count matters (the order of the same
    operator changes nothing, and each is counted when it reaches a living model)."""
    rows, cols = nmf.shape
    skewed = np.zeros((rows, rows + cols - 1))  # skewed[f, f + m] = nmf[f, m]
    np.ndarray(nmf.shape, np.float64, skewed, 0,
               (skewed.strides[0] + skewed.itemsize, skewed.itemsize))[...] = nmf
    out: FloatArray = np.add.reduce(skewed, 0)[:, None]
    return out


def _thinned(nm: FloatArray, p_fail: float) -> FloatArray:
    """The line's (f, m) pmf (``thin``), its negligible tail not yet cut: a large (n, m)
    pmf loses its own tail first, as in the general path (fewer rows to thin), a small
    one is thinned whole (cutting it would cost more than it saves)."""
    return thin(drop_negligible_tail(nm) if nm.size > _SMALL_CUT else nm, p_fail)


#: (n, m) pmfs of at most this many numbers are thinned without cutting their tail.
_SMALL_CUT = 64


def _cut(nmf: FloatArray, same: bool) -> FloatArray:
    """A line's (f, m) pmf as the chain steps it: its totals f + m when a critical does
    what a failed save does (``same``), its negligible tail cut."""
    return drop_negligible_tail(_total_counts(nmf) if same else nmf)


def _once(key: tuple[Any, ...], pmf: FloatArray, memo: dict[Any, Any],
          make: Callable[[FloatArray, Any], FloatArray]) -> FloatArray:
    """``make(pmf, key[1])`` cached in the batch ``memo`` under ``key`` and the content of
    ``pmf`` (a line's totals: lines and targets that share them share these). Read only
    from then on."""
    full = ("one_group", *key, pmf.shape, pmf.tobytes())
    out: FloatArray | None = memo.get(full)
    if out is None:
        out = memo[full] = make(pmf, key[1])
        out.flags.writeable = False
    return out


def one_group_chain(space: StateSpace, normal: Sequence[Packet], mortal: Sequence[Packet],
                    branches: Branches, per_line: bool, before: Sequence[FloatArray],
                    fnp_effect: int | None, track: bool, memo: dict[Any, Any],
                    initial: dict[State, FloatArray] | None = None,
                    ) -> tuple[StateSpace, FloatArray] | None:
    """The target's states after every line, as ``chain.run_chain`` (summed over the
    branches), over a ``StateSpace`` of the one group's states — or None when the fast
    path does not apply (see the module docstring); ``before``: pmfs of mortal wounds
    before the attacks (06.02, one at a time, not counted as unsaved)."""
    if not _ENABLED.get() or len(space.groups) != 1 or not normal:
        return None
    group = space.groups[0]
    if not per_line and len({(p.damage, _fnp(group, p)) for p, nm in zip(
            mortal, zip(*branches, strict=True), strict=True)
            if any(_has_dw(n) for _, n in nm)}) > 1:
        return None  # 10th: criticals of different packets held back (general path)
    if any(not p.counts for p in [*normal, *mortal]) or any(p.save[0] for p in mortal):
        return None
    if initial is not None:
        return _chain(space, normal, mortal, branches, per_line, before, fnp_effect, track,
                      memo, initial)
    # from the undamaged target the chain reads its group, the packets, the lines' (n, m)
    # pmfs (by content), the mortal
    # wounds before and whether the unsaved counts are kept: attackers whose lines come
    # to the same (AP-1 and AP0 into Sv4+ with a 4+ invulnerable save) share the
    # target's final states

    key = ("one_group", "chain", space.groups, tuple(normal), tuple(mortal), len(branches),
           per_line, tuple(pmf.tobytes() for pmf in before), fnp_effect, track,
           tuple((nm.shape, nm.tobytes()) for br in branches for _, nm in br))
    if key in memo:
        got: tuple[StateSpace, FloatArray] | None = memo[key]
        return got
    done = memo[key] = _chain(space, normal, mortal, branches, per_line, before, fnp_effect,
                              track, memo, None)
    if done is not None:
        done[1].flags.writeable = False  # shared from now on
    return done


def _chain(space: StateSpace, normal: Sequence[Packet], mortal: Sequence[Packet],
           branches: Branches, per_line: bool, before: Sequence[FloatArray],
           fnp_effect: int | None, track: bool, memo: dict[Any, Any],
           initial: dict[State, FloatArray] | None) -> tuple[StateSpace, FloatArray] | None:
    """``one_group_chain`` once its checks of the packets hold."""
    group = space.groups[0]
    start = _start(space, initial, track)
    if start is None or _cells(branches, len(start) - 1, start.shape[1], track) > MAX_CELLS:
        return None
    top = len(start) - 1

    def op(pk: Packet) -> PacketMatrix:
        return packet_matrix(pk.damage, _fnp(group, pk), group.W, top)

    x0 = start
    if before:  # one mortal wound at a time, not counted as unsaved
        mw = op(Packet((0.0,), (0.0, 1.0), fnp_effect, False, counts=False, mortal=True)).full
        for pmf in before:
            acc = np.zeros_like(x0)
            for j in range(len(pmf) - 1, -1, -1):
                acc = mw @ acc + pmf[j] * x0
            x0 = acc
    fails = [op(p) for p in normal]
    # keyed by the line AND its (n, m) pmf: two lines with the same wound totals share
    # one pmf object (the engine's memo keys totals by content), not their saves
    thinned: dict[tuple[int, int], FloatArray] = {}
    for br in branches:
        for wi, (_, nm) in enumerate(br):
            if (wi, id(nm)) not in thinned:
                thinned[wi, id(nm)] = _once(("thinned", 1.0 - normal[wi].save[0]), nm, memo,
                                            _thinned)
    ready: dict[tuple[int, int], tuple[FloatArray, PacketMatrix | None]] = {}

    def step(x: FloatArray, wi: int, nm: FloatArray) -> FloatArray:
        """Line ``wi`` with its criticals after its failed saves (24.10), the tail of its
        pmf cut (of the totals f + m when that is all that matters: one column)."""
        if (wi, id(nm)) not in ready:
            nmf, mortal_op = thinned[wi, id(nm)], None
            same = _has_dw(nmf) and _same_packet(normal[wi], mortal[wi], group)
            if _has_dw(nmf) and not same:
                mortal_op = op(mortal[wi])
            ready[wi, id(nm)] = (_once(("cut", same), nmf, memo, _cut), mortal_op)
        nmf, mortal_op = ready[wi, id(nm)]
        return line_step(x, nmf, fails[wi], mortal_op, track, memo)

    if per_line or all(len(br) == 1 for br in branches):  # (or a unit's only line)
        final = _shared_branches(x0, branches, step)
    else:
        final = np.zeros((top + 1, 1))
        for br in branches:
            lines = [(drop_negligible_tail(thinned[wi, id(nm)]), fails[wi])
                     for wi, (_, nm) in enumerate(br)]
            dw = [wi for wi, (nmf, _) in enumerate(lines) if _has_dw(nmf)]
            final = padded_sum(final, held_back(x0, lines, op(mortal[dw[0]]) if dw else None,
                                                 track))
    return _into_space(space.groups, top, final, memo)


def mean_damage(space: StateSpace, normal: Sequence[Packet], mortal: Sequence[Packet],
                lines: Sequence[tuple[FloatArray, FloatArray]], per_line: bool) -> float | None:
    """The expected damage of the lines in order into the undamaged target, for the
    attacker's choices (24.23 Lethal Hits, ``exact``), by one-dimensional totals: per
    line ``(attacks pmf, one die's (n, m) pmf)``. With one group every wound is saved on
    its own, so one die's wounds are thinned to failed saves first (``thin``: the same
    binomial as of the totals) and, as a critical does what a failed save does
    (``_same_packet``), only its count of packets f + m matters (``_total_counts``):
    the totals of that over the dice are one-dimensional, a fraction of the (n, m)
    totals' work. The same chain (``line_step``) as ``one_group_chain``, the unsaved
    counts not kept; equal to its mean to float rounding and the negligible tails
    (``drop_negligible_tail``, under 1e-13 here). None where the fast path does not
    apply or a line's criticals are not its failed saves' packet."""
    if not _ENABLED.get() or len(space.groups) != 1 or not normal:
        return None
    group = space.groups[0]
    if not per_line and len(lines) > 1:
        return None
    if any(not p.counts for p in [*normal, *mortal]) or any(p.save[0] for p in mortal):
        return None
    start = _start(space, None, False)
    if start is None:
        return None
    top = len(start) - 1
    x = start
    for (attacks, die), fail, crit in zip(lines, normal, mortal, strict=True):
        if _has_dw(die) and not _same_packet(fail, crit, group):
            return None
        per_die = _total_counts(thin(die, 1.0 - fail.save[0]))[:, 0]
        counts = drop_negligible_tail(compound(attacks, per_die)[:, None])
        if counts.shape[0] * (counts.shape[0] + top) > MAX_CELLS:
            return None
        op = packet_matrix(fail.damage, _fnp(group, fail), group.W, top)
        x = line_step(x, counts, op, None, False)
    h0 = _wounds(space.initial, group)
    assert h0 is not None
    return float(np.dot(h0 - np.arange(top + 1), x[:, 0]))


#: One line stepped: (states, line index, the line's (n, m) pmf) -> states.
Step = Callable[[FloatArray, int, FloatArray], FloatArray]


def _shared_branches(x0: FloatArray, branches: Branches, step: Step) -> FloatArray:
    """The sum over the branches of their lines stepped in turn, without repeating work:
    branches with the same lines so far share one state; states whose remaining lines
    are the same are added up (every step is linear). With Command Re-roll on every line
    (15.02: a branch per line it is used on) that is at most three steps per line instead
    of one per branch and line."""
    if len(branches) == 1:  # no Command Re-roll branches: the lines in turn
        x = x0
        for wi, (_, nm) in enumerate(branches[0]):
            x = step(x, wi, nm)
        return x
    n_lines = len(branches[0])
    # (states, branches, shared): shared, each branch is in these states; else their sum
    nodes: list[tuple[FloatArray, list[int], bool]] = [(x0, list(range(len(branches))), True)]
    for wi in range(n_lines):
        stepped: list[tuple[FloatArray, list[int], bool]] = []
        for x, members, shared in nodes:
            by_pmf: dict[int, list[int]] = {}
            for b in members:
                by_pmf.setdefault(id(branches[b][wi][1]), []).append(b)
            for group in by_pmf.values():
                y = step(x, wi, branches[group[0]][wi][1])
                stepped.append((y, group, shared))
        nodes = []
        summed: dict[tuple[int, ...], int] = {}  # the remaining lines -> node
        for y, members, shared in stepped:
            if shared and len(members) > 1:
                nodes.append((y, members, True))
                continue
            rest = tuple(id(nm) for _, nm in branches[members[0]][wi + 1:])
            if rest in summed:
                at = summed[rest]
                nodes[at] = (padded_sum(nodes[at][0], y), nodes[at][1] + members, False)
            else:
                summed[rest] = len(nodes)
                nodes.append((y, members, False))
    final = np.zeros((x0.shape[0], 1))
    for x, members, shared in nodes:
        final = padded_sum(final, x * (len(members) if shared else 1))
    return final


def _start(space: StateSpace, initial: dict[State, FloatArray] | None,
           track: bool) -> FloatArray | None:
    """The starting distribution ``x[h, u]`` over the one group's states (undamaged, or
    ``initial``), or None for a state that is not one of them or too many wounds."""
    group = space.groups[0]
    if not initial:  # the undamaged unit
        top = _wounds(space.initial, group)
        if top is None or top > MAX_WOUNDS:
            return None
        x0 = np.zeros((top + 1, 1))
        x0[top, 0] = 1.0
        return x0
    starts = initial
    hs = [_wounds(s, group) for s in starts]
    first = _wounds(space.initial, group)
    if first is None or any(h is None for h in hs):
        return None
    top = max(first, *(h for h in hs if h is not None))
    if top > MAX_WOUNDS:
        return None
    x0 = np.zeros((top + 1, max(len(p) for p in starts.values()) if track else 1))
    for h, pmf in zip(hs, starts.values(), strict=True):
        assert h is not None
        x0[h, : len(pmf) if track else 1] += pmf if track else np.add.reduce(pmf, None)
    return x0


class _OneGroupSpace(StateSpace):
    """The ``StateSpace`` of the one group's states h = 0..top, numbered as ``add`` would
    number them from the initial state (its h first, then h = 0, 1, ...), listed at once
    instead of one ``add`` each."""

    def __init__(self, groups: tuple[Group, ...], top: int) -> None:
        super().__init__(groups)
        g = groups[0]
        first = _wounds(self.initial, g)
        assert first is not None  # (``_start``)
        by_h: list[State] = [(0, 0, -1, -1)]
        by_h += [(k, t, -1, -1) for k in range(1, g.count + 1) for t in range(1, g.W + 1)]
        states = [by_h[first], *by_h[:first], *by_h[first + 1:top + 1]]
        if len(states) > allocation.MAX_STATES:  # refused as ``add`` refuses it
            raise allocation.too_many_states()
        self.states = states
        self.index = dict(zip(states, range(len(states)), strict=True))
        self.first = first


def _into_space(groups: tuple[Group, ...], top: int, final: FloatArray,
                memo: dict[Any, Any]) -> tuple[StateSpace, FloatArray]:
    """The final array ``final[h]`` over the one group's ``StateSpace`` (one copy: the
    initial state's row first)."""
    key = ("one_group", "space", groups, top)
    if key not in memo:
        memo[key] = _OneGroupSpace(groups, top)
    space: _OneGroupSpace = memo[key]
    first = space.first
    out: FloatArray = np.concatenate((final[first:first + 1], final[:first], final[first + 1:]))
    return space, out
