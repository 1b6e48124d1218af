"""The Monte Carlo twin's dice, roll by roll, vectorised over trials: the same stages as
``combat.stages`` (attack dice, hit roll, Sustained Hits, wound roll), each drawing from
the decisions the rule set made there (``ResolvedWeapon``, ``dice_stages``).

A hit or wound die is coded as 0 (fail), 1 (success) or ``1 << SHIFT`` (critical), so
that one sum per trial counts both.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from tactica.dice import FloatArray

__all__ = [
    "LOW",
    "SHIFT",
    "Sampler",
    "codes",
    "per_trial",
    "reroll_faces",
    "roll_attacks",
    "roll_codes",
    "roll_hits",
    "roll_sustained",
    "roll_wounds",
]

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
Gen = np.random.Generator

#: A success and a critical are counted in one integer: successes + critical << SHIFT.
SHIFT = 24
LOW = (1 << SHIFT) - 1


@dataclass(frozen=True)
class Sampler:
    """Draws from a pmf over 0..n by inverse transform (one uniform per draw)."""

    cdf: FloatArray
    constant: int | None

    @classmethod
    def of(cls, pmf: FloatArray) -> Sampler:
        p = np.asarray(pmf, dtype=np.float64)
        nz = np.flatnonzero(p > 0.0)
        p = p[: nz[-1] + 1]
        if len(nz) == 1:
            return cls(p, int(nz[0]))
        cdf = np.cumsum(p)
        cdf[-1] = 1.0
        return cls(cdf, None)

    def draw(self, rng: Gen, n: int) -> IntArray:
        if self.constant is not None:
            return np.full(n, self.constant, dtype=np.int64)
        return np.searchsorted(self.cdf, rng.random(n), side="right").astype(np.int64)

    @property
    def top(self) -> int:
        """The largest value drawn."""
        return len(self.cdf) - 1


def per_trial(x: IntArray, counts: IntArray) -> IntArray:
    """Sums of consecutive blocks of ``x``: block ``i`` has ``counts[i]`` elements."""
    cs = np.zeros(len(x) + 1, dtype=np.int64)
    np.cumsum(x, out=cs[1:])
    ends = np.cumsum(counts)
    out: IntArray = cs[ends] - cs[ends - counts]
    return out


def roll_codes(rng: Gen, n: int, code: IntArray, reroll: BoolArray | None) -> IntArray:
    """``n`` D6, each re-rolled once if ``reroll[face]`` (re-rolls before modifiers,
    §4.5), mapped through ``code[face]``."""
    faces = rng.integers(1, 7, size=n, dtype=np.int8)
    if reroll is not None:
        again = reroll[faces]
        k = int(np.count_nonzero(again))
        if k:
            faces[again] = rng.integers(1, 7, size=k, dtype=np.int8)
    out: IntArray = code[faces]
    return out


def codes(classes: list[int]) -> IntArray:
    """Face (1..6) → 0 fail, 1 success, 1 << SHIFT critical (index 0 unused)."""
    table = [0, 1, 1 << SHIFT]
    return np.array([0] + [table[c] for c in classes], dtype=np.int64)


def reroll_faces(faces: tuple[bool, ...] | None) -> BoolArray | None:
    """The faces ``die_outcome`` re-rolls, indexed by face (index 0 unused)."""
    if faces is None:
        return None
    return np.array([False, *faces], dtype=np.bool_)


def roll_attacks(rng: Gen, attacks: Sampler, n: int) -> IntArray:
    """Gather attack dice (``stages.attacks``): one draw of the line's total per trial."""
    return attacks.draw(rng, n)


def _roll(rng: Gen, dice: IntArray, code: IntArray, reroll: BoolArray | None,
          command: bool, used: BoolArray) -> tuple[IntArray, IntArray]:
    """``dice[i]`` D6 per trial through ``code`` (re-rolled under ``reroll``): successes
    and criticals; with ``command`` (15.02 Command Re-roll) one failed die of each trial
    that has not spent it is rolled again."""
    sums = per_trial(roll_codes(rng, int(dice.sum()), code, reroll), dice)
    succ, crit = sums & LOW, sums >> SHIFT
    if command:
        has = np.nonzero((dice - succ - crit > 0) & ~used)[0]
        used[has] = True
        again = roll_codes(rng, len(has), code, None)
        succ[has] += again & LOW
        crit[has] += again >> SHIFT
    return succ, crit


def roll_hits(rng: Gen, attacks: IntArray, torrent: bool, code: IntArray,
              reroll: BoolArray | None, command: bool, used: BoolArray
              ) -> tuple[IntArray, IntArray]:
    """The hit roll (``stages.hit``): hits and critical hits per trial; Torrent hits
    automatically and never critically (01.05.01)."""
    if torrent:
        return attacks, np.zeros(len(attacks), dtype=np.int64)
    return _roll(rng, attacks, code, reroll, command, used)


def roll_sustained(rng: Gen, crit: IntArray, sustained: Sampler | None) -> IntArray:
    """24.36 Sustained Hits X: extra hits per critical hit (X rolled per critical)."""
    if sustained is None:
        return np.zeros(len(crit), dtype=np.int64)
    if sustained.constant is not None:
        return crit * sustained.constant
    return per_trial(sustained.draw(rng, int(crit.sum())), crit)


def roll_wounds(rng: Gen, rolls: IntArray, code: IntArray, reroll: BoolArray | None,
                command: bool, used: BoolArray) -> tuple[IntArray, IntArray]:
    """The wound roll (``stages.wound``): wounds and critical wounds per trial."""
    return _roll(rng, rolls, code, reroll, command, used)
