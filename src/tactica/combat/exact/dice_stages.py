"""Exact per-die outcomes of the hit and wound rolls.

One attack die becomes a small joint distribution over (hits, wounds to save, critical
wounds that bypass saves); its totals over a random number of attack dice are compound
distributions (``totals.compound``). Nothing here depends on the target's state, so the
engine computes these once per weapon.

``roll_die`` is a pure function of one ``DieInputs`` record, made from a resolved line
(``DieInputs.of``) and holding what the die reads and nothing else: the record is the
cache key (issue 42), so no key can forget a field the die reads.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from operator import attrgetter
from typing import NamedTuple

import numpy as np

from tactica.dice import DiceExpr, FloatArray

from .profile import RerollPolicy, ResolvedWeapon

__all__ = ["DieInputs", "DieOutcome", "conv2", "die_outcome", "roll_die", "roll_outcomes",
           "trim", "weighs_values"]

# outcome indices of one hit or wound roll
FAIL, SUCCESS, CRITICAL = 0, 1, 2


def roll_outcomes(
    classify: list[int], policy: RerollPolicy, values: tuple[float, float, float]
) -> tuple[FloatArray, tuple[bool, ...] | None]:
    """Probabilities of FAIL/SUCCESS/CRITICAL for one D6 whose face ``f`` (1..6) has outcome
    ``classify[f - 1]``, re-rolled at most once under ``policy`` (Re-rolls: before
    modifiers; "unmodified" means after re-rolls). ``any`` re-rolls every face whose
    outcome is worth less than a fresh roll (``values`` per outcome); the second element
    says which faces (1..6) are re-rolled (None without a policy).

    >>> p, _ = roll_outcomes([0, 0, 1, 1, 1, 2], "ones", (0, 1, 2))
    >>> [round(x * 36) for x in p]   # fail: 1/6 (a 2) + 1/6*2/6; crit: 1/6 + 1/36
    [8, 21, 7]
    """
    fresh = [0.0, 0.0, 0.0]  # Python floats: the same sums as on an array, faster
    for o in classify:
        fresh[o] += 1 / 6
    if policy is None:
        return np.array(fresh), None
    if policy == "ones":
        reroll = [f == 1 for f in range(1, 7)]
    elif policy == "failed":
        reroll = [o == FAIL for o in classify]
    else:
        ev = float(np.dot(np.array(fresh), values))
        reroll = [values[o] < ev - 1e-12 for o in classify]
    out = [0.0, 0.0, 0.0]
    for face, o in enumerate(classify):
        if reroll[face]:
            for i in range(3):
                out[i] += fresh[i] / 6
        else:
            out[o] += 1 / 6
    return np.array(out), tuple(reroll)


def _faces(reroll: tuple[bool, ...]) -> str:
    return ",".join(str(f + 1) for f in range(6) if reroll[f]) or "none"


def _classes(critical: int, modifier: int, needed: int) -> list[int]:
    """The outcome of each D6 face: an unmodified 1 fails; an unmodified roll at or above
    ``critical`` is critical (always succeeds); otherwise roll + modifier >= needed."""
    return [FAIL if f == 1 else CRITICAL if f >= critical
            else SUCCESS if f + modifier >= needed else FAIL for f in range(1, 7)]


class DieInputs(NamedTuple):
    """Everything ``roll_die`` reads of one attack die: the hit and wound numbers of a
    resolved line (the same names as ``profile.ResolvedWeapon``'s), the attacker's Lethal
    Hits choice, and, for a die that weighs the values of its outcomes
    (``weighs_values``), those values and the line's name (in its notes). A die that
    weighs none holds 0.0, 0.0 and "" there (it reads neither), so the lines and targets
    that roll alike share one record (a batch makes their die once)."""

    lethal: bool | None  # the attacker's Lethal Hits choice (24.23), None: open
    torrent: bool
    lethal_hits: bool
    lethal_mandatory: bool
    devastating: bool
    sustained: DiceExpr | None
    snap_shooting: bool
    snap_hit_on: int
    hit_fails_on: int
    critical_hit: int
    hit_modifier: int
    skill: int
    hit_reroll: RerollPolicy
    critical_wound: int
    wound_modifier: int
    wound_needed: int
    wound_reroll: RerollPolicy
    e_normal: float  # the value of a wound that goes to saves (a die that weighs it)
    e_mortal: float  # ... and of a Devastating-Wounds critical
    name: str  # the line's, in the notes (a die that weighs values alone makes notes)

    @classmethod
    def of(cls, w: ResolvedWeapon, lethal: bool | None = None, e_normal: float = 0.0,
           e_mortal: float = 0.0) -> DieInputs:
        """The die's record of line ``w`` for the choice ``lethal``; ``e_normal`` and
        ``e_mortal`` (``attack_lines.expected_values``) are kept only where the die
        weighs them."""
        if not weighs_values(w, lethal):
            return cls.plain(w, lethal)
        return cls._make((lethal, *_line_numbers(w), e_normal, e_mortal, w.name))

    @classmethod
    def plain(cls, w: ResolvedWeapon, lethal: bool | None) -> DieInputs:
        """``of`` for a die that weighs no values (``weighs_values`` false, as the caller
        found): 0.0, 0.0 and "" in their places."""
        return cls._make((lethal, *_line_numbers(w), 0.0, 0.0, ""))


#: The line's numbers a die reads: the record's fields named as ``ResolvedWeapon``'s
#: (all but the choice, the two values and the name), read off the record's class.
_line_numbers = attrgetter(*DieInputs._fields[1:-3])


def hit_classes(w: DieInputs | ResolvedWeapon) -> list[int]:
    """Hit Roll: the critical-hit threshold, the capped modifier and the skill. Snap
    shooting (15.09): only an unmodified 6 hits, irrespective of BS and modifiers (a 6
    is critical; Firepoint Commander lets 5+ hit)."""
    if w.snap_shooting:
        return [CRITICAL if f == 6 else SUCCESS if f >= w.snap_hit_on else FAIL
                for f in range(1, 7)]
    # 10.07 indirect shooting: an unmodified 1..hit_fails_on fails, critical or not
    return [FAIL if f <= w.hit_fails_on else c
            for f, c in zip(range(1, 7), _classes(w.critical_hit, w.hit_modifier, w.skill),
                            strict=True)]


def wound_classes(w: DieInputs | ResolvedWeapon) -> list[int]:
    """Wound Roll: the critical-wound threshold (6, Anti X Y+, effects), the capped
    modifier and the table's need."""
    return _classes(w.critical_wound, w.wound_modifier, w.wound_needed)


@dataclass(frozen=True)
class _Parts:
    """What one attack die's joint outcome is built from: the hit roll's outcome
    probabilities, the Sustained Hits extra hits' pmf, and one hit's (n, m) outcome
    rolling to wound, for a normal and for a critical hit (each also without a failed
    wound die, a sub-pmf)."""

    hp: FloatArray
    sus: FloatArray
    single: FloatArray
    single_ok: FloatArray
    crit_self: FloatArray
    crit_self_ok: FloatArray

    def build(self, ok_wound: bool, miss: float) -> FloatArray:
        """``joint[h, n, m]``; ``ok_wound``: without a failed wound die; ``miss``: the
        weight of a failed hit die (0 for the sub-pmf without one)."""
        one, crit_one = ((self.single_ok, self.crit_self_ok) if ok_wound
                         else (self.single, self.crit_self))
        hp, sus = self.hp, self.sus
        max_h = len(sus)  # 1 + max extra
        joint = np.zeros((max_h + 1, max_h + 1, max_h + 1))
        joint[0, 0, 0] += miss
        joint[1, :2, :2] += hp[SUCCESS] * one
        if hp[CRITICAL]:
            acc = crit_one
            for x, px in enumerate(sus):
                if x:
                    acc = conv2(acc, one)
                if px:
                    joint[1 + x, : acc.shape[0], : acc.shape[1]] += hp[CRITICAL] * px * acc
        return joint

    def wounds(self) -> FloatArray:
        """``trim(build(False, hp[FAIL]).sum(axis=0))`` bit for bit, on Python floats: per h
        the layer of ``build`` (a hit's outcome, plus a critical hit's with x extra hits
        at h = 1 + x), the layers added in order of h (what numpy's sum over the first
        axis does, cell by cell); the few non-zero cells alone (adding 0 changes no sum)."""
        fail, success, critical = self.hp.tolist()
        one, crit_one = self.single.tolist(), self.crit_self.tolist()
        size = len(self.sus) + 1
        out = [[0.0] * size for _ in range(size)]
        out[0][0] = fail
        layers: list[list[list[float]]] = [[[success * v for v in row] for row in one]]
        if critical:
            acc = crit_one
            for x, px in enumerate(self.sus.tolist()):
                if x:
                    acc = _conv2_lists(acc, one)
                if not px:
                    continue
                weight = critical * px
                if x:
                    layers.append([[weight * v for v in row] for row in acc])
                else:  # h = 1: a hit's outcome, then a critical hit's added to it
                    layers[0] = [[a + weight * v for a, v in zip(ra, rv, strict=True)]
                                 for ra, rv in zip(layers[0], acc, strict=True)]
        for layer in layers:
            for i, row in enumerate(layer):
                dst = out[i]
                for j, v in enumerate(row):
                    dst[j] += v
        # ``trim``: up to the last non-zero row and column (at least one of each)
        rows = max((i for i, row in enumerate(out) if any(row)), default=0) + 1
        cols = max((j for row in out for j, v in enumerate(row) if v), default=0) + 1
        return np.array([row[:cols] for row in out[:rows]], dtype=np.float64)


def _conv2_lists(a: list[list[float]], b: list[list[float]]) -> list[list[float]]:
    """``conv2`` on nested lists, bit for bit (``b``'s cells in C order, each adding its
    product with ``a`` to the shifted block)."""
    rows, cols = len(a), len(a[0])
    out = [[0.0] * (cols + len(b[0]) - 1) for _ in range(rows + len(b) - 1)]
    for i, brow in enumerate(b):
        for j, p in enumerate(brow):
            if p:
                for r, arow in enumerate(a):
                    dst = out[i + r]
                    for c, v in enumerate(arow):
                        dst[j + c] += p * v
    return out


@dataclass(frozen=True)
class DieOutcome:
    """One attack die: ``joint[h, n, m]`` = P(h hits, n wounds that go to saves, m
    Devastating-Wounds critical wounds). ``lethal_taken`` is the attacker's choice.
    The marginals and the sub-pmfs for a single-die re-roll are computed when first
    asked for (most calculations need only some of them)."""

    parts: _Parts
    lethal_taken: bool
    notes: tuple[str, ...]
    #: the outcome of one fresh wound die as (n, m): for a single-die re-roll (15.02)
    fresh_wound: FloatArray
    #: the faces (1..6) re-rolled on the hit and wound rolls (None: no re-roll)
    hit_reroll_faces: tuple[bool, ...] | None = None
    wound_reroll_faces: tuple[bool, ...] | None = None

    @cached_property
    def joint(self) -> FloatArray:
        return self.parts.build(False, float(self.parts.hp[FAIL]))

    @cached_property
    def no_failed_hit(self) -> FloatArray:
        """``joint`` without a failed hit die (a sub-pmf)."""
        return self.parts.build(False, 0.0)

    @cached_property
    def no_failed_wound(self) -> FloatArray:
        """``joint`` without a failed wound die (a sub-pmf)."""
        return self.parts.build(True, float(self.parts.hp[FAIL]))

    @cached_property
    def hits(self) -> FloatArray:
        """The marginal of ``joint`` over h, from the hit roll alone (a miss, a hit, a
        critical hit with its Sustained Hits extra hits): the same for either Lethal Hits
        choice, bit for bit, so their totals are shared (``exact``). Python floats, the
        same products and sums as on arrays."""
        fail, success, critical = self.parts.hp.tolist()
        out = [fail, success] + [0.0] * (len(self.parts.sus) - 1)
        for x, px in enumerate(self.parts.sus.tolist()):
            out[1 + x] += critical * px
        return np.array(out, dtype=np.float64)

    @cached_property
    def to_save(self) -> FloatArray:
        """Joint pmf over (n, m) (``joint`` summed over h), trimmed to its non-zero
        extent: ``_Parts.wounds`` (without building ``joint``)."""
        return self.parts.wounds()

    @cached_property
    def contents(self) -> tuple[tuple[tuple[int, ...], bytes], tuple[tuple[int, ...], bytes]]:
        """``hits`` and ``to_save`` by value (shape and bytes): the keys of the line's
        hit and wound totals in a batch's memo (``exact._totals_keys``)."""
        hits, to_save = self.hits, self.to_save
        return (hits.shape, hits.tobytes()), (to_save.shape, to_save.tobytes())


def trim(a: FloatArray) -> FloatArray:
    """``a`` without trailing all-zero rows and columns (at least one of each).

    >>> trim(np.array([[0.5, 0.0], [0.5, 0.0], [0.0, 0.0]])).shape
    (2, 1)
    """
    where = a.nonzero()
    if not where[0].size:
        return a[(slice(0, 1),) * a.ndim]
    return a[tuple(slice(0, int(i.max()) + 1) for i in where)]


def conv2(a: FloatArray, b: FloatArray) -> FloatArray:
    """The pmf of the sum of two independent 2-D variables."""
    out = np.zeros((a.shape[0] + b.shape[0] - 1, a.shape[1] + b.shape[1] - 1))
    for (i, j), p in np.ndenumerate(b):
        if p:
            out[i : i + a.shape[0], j : j + a.shape[1]] += p * a
    return out


def weighs_values(w: ResolvedWeapon, lethal: bool | None = None) -> bool:
    """Whether ``die_outcome(w, e_normal, e_mortal, lethal)`` reads the values of the
    outcomes: only for the attacker's choices by value, an open 11th-edition Lethal Hits
    choice it makes itself (24.23) and re-rolls of ``any`` (hit or wound, reference facts
    §4.5). Otherwise its outcome is the same for any values."""
    open_lethal = (w.lethal_hits and not w.torrent and not w.lethal_mandatory
                   and lethal is None)
    return open_lethal or w.wound_reroll == "any" or (w.hit_reroll == "any" and not w.torrent)


def die_outcome(w: ResolvedWeapon, e_normal: float, e_mortal: float,
                lethal: bool | None = None) -> DieOutcome:
    """The exact outcome of one attack die of ``w``: ``roll_die`` of its record.

    ``lethal`` forces the 11th-edition Lethal Hits choice (the exact engine decides it
    over the whole attack when it matters, see ``exact.lethal_choices``); otherwise
    ``e_normal`` / ``e_mortal`` are the expected damage of a wound that goes to saves and
    of a Devastating-Wounds critical, used only for the attacker's choices (11th-edition
    Lethal Hits 24.23, re-rolls of ``any``), as reference facts §4.5 and the 11th bullet
    on Lethal Hits require.
    """
    return roll_die(DieInputs.of(w, lethal, e_normal, e_mortal))


def roll_die(w: DieInputs) -> DieOutcome:
    """The exact outcome of one attack die of the record ``w`` (``die_outcome``)."""
    e_normal, e_mortal, lethal = w.e_normal, w.e_mortal, w.lethal
    notes: list[str] = []
    crit_value = e_mortal if w.devastating else e_normal
    wp, wound_faces = roll_outcomes(wound_classes(w), w.wound_reroll,
                                    (0.0, e_normal, crit_value))
    if w.wound_reroll == "any" and wound_faces is not None:
        notes.append(f"{w.name}: wound re-rolls fish for better results on faces "
                     f"{_faces(wound_faces)}")
    # one hit rolling to wound -> (n, m)
    fail, success, critical = wp.tolist()
    wound, mortal = (success, critical) if w.devastating else (success + critical, 0.0)
    single = np.array([[fail, mortal], [wound, 0.0]])
    # the same die, its failure excluded (a sub-pmf)
    single_ok = np.array([[0.0, mortal], [wound, 0.0]])
    roll_value = success * e_normal + critical * crit_value

    lethal_taken = False
    if w.lethal_hits and not w.torrent:
        if w.lethal_mandatory:
            lethal_taken = True
        elif lethal is not None:  # decided by the engine over the whole attack
            lethal_taken = lethal
        else:
            lethal_taken = e_normal >= roll_value - 1e-12
            notes.append(
                f"{w.name}: Lethal Hits "
                + ("taken (an automatic wound is worth at least a wound roll)"
                   if lethal_taken else "declined: rolling to wound for critical wounds "
                   "(Devastating Wounds) gives more expected damage")
            )
    crit_self = np.array([[0.0, 0.0], [1.0, 0.0]]) if lethal_taken else single
    crit_self_ok = np.array([[0.0, 0.0], [1.0, 0.0]]) if lethal_taken else single_ok

    sus = w.sustained.pmf() if w.sustained is not None else np.array([1.0])
    hit_faces: tuple[bool, ...] | None = None
    if w.torrent:
        hp = np.array([0.0, 1.0, 0.0])  # 01.05.01: automatic hits are never critical
    else:
        values = (0.0, 0.0, 0.0)  # read by a re-roll of ``any`` alone
        if w.hit_reroll == "any":
            mean_sus = float(np.dot(np.arange(len(sus)), sus))
            v_crit = (e_normal if lethal_taken else roll_value) + mean_sus * roll_value
            values = (0.0, roll_value, v_crit)
        hp, hit_faces = roll_outcomes(hit_classes(w), w.hit_reroll, values)
        if w.hit_reroll == "any" and hit_faces is not None:
            notes.append(f"{w.name}: hit re-rolls fish for criticals on faces "
                         f"{_faces(hit_faces)}")

    parts = _Parts(hp, sus, single, single_ok, crit_self, crit_self_ok)
    return DieOutcome(parts=parts, lethal_taken=lethal_taken, notes=tuple(notes),
                      fresh_wound=single, hit_reroll_faces=hit_faces,
                      wound_reroll_faces=wound_faces)
