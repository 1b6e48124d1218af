"""An independent expected-value calculation for the record tests (issue 24).

Written from the core rules (11th 05.x: Hit roll, Wound roll, saving throw; an unmodified
1 always fails, a critical always succeeds, modifiers to the Hit and Wound rolls capped at
+1/-1; [SUSTAINED HITS X], [LETHAL HITS], [ANTI-X N+]), in exact fractions, one attack
die at a time, with no code of the engine: the record tests compare the engine's mean
with this, given the modifiers each test reads from the record by hand.

Damage 1 against W1 models with enough models that nothing is lost to overkill: the mean
number of unsaved wounds is the mean damage and models destroyed.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction as F

SIXTH = F(1, 6)


def _clamp(v: int) -> int:
    return max(-1, min(1, v))


def _roll(need: int, mod: int, crit: int, reroll: str | None) -> tuple[F, F]:
    """(P(critical success), P(plain success)) of one D6 needing ``need``+ with modifier
    ``mod`` (capped +-1), criticals on an unmodified ``crit``+, re-rolling "ones" or
    "failed" dice once."""
    def face(r: int) -> str:
        if r >= crit:
            return "crit"
        if r != 1 and r + _clamp(mod) >= need:
            return "hit"
        return "miss"

    once = {"crit": F(0), "hit": F(0), "miss": F(0)}
    for r in range(1, 7):
        once[face(r)] += SIXTH
    out = dict(once)
    for r in range(1, 7):
        again = (reroll == "ones" and r == 1) or (reroll == "failed" and face(r) == "miss")
        if again:
            out[face(r)] -= SIXTH
            for k in out:
                out[k] += SIXTH * once[k]
    return out["crit"], out["hit"]


def wound_need(s: int, t: int) -> int:
    """05.03: 2+ if S >= 2T, 3+ if S > T, 4+ if S = T, 5+ if S < T, 6+ if 2S <= T."""
    if s >= 2 * t:
        return 2
    if s > t:
        return 3
    if s == t:
        return 4
    return 6 if 2 * s <= t else 5


@dataclass(frozen=True)
class Attack:
    """One weapon line's attacks against one target, and every modifier a record gives."""

    attacks: int
    skill: int
    S: int
    AP: int
    T: int
    Sv: int
    invuln: int | None = None
    hit_mod: int = 0
    wound_mod: int = 0
    save_mod: int = 0
    reroll_hit: str | None = None
    reroll_wound: str | None = None
    crit_hit: int = 6
    crit_wound: int = 6
    sustained: int = 0
    lethal: bool = False
    S_mod: int = 0
    AP_mod: int = 0
    #: +A per model, for ``models`` models
    A_mod: int = 0
    models: int = 10
    #: Feel No Pain of the target (each unsaved wound of D1 is then lost on a failure)
    fnp: int | None = None

    def unsaved(self) -> F:
        """The mean number of unsaved wounds."""
        ch, h = _roll(self.skill, self.hit_mod, self.crit_hit, self.reroll_hit)
        need = wound_need(self.S + self.S_mod, self.T)
        cw, w = _roll(need, self.wound_mod, self.crit_wound, self.reroll_wound)
        pw = cw + w
        wounds = h * pw + ch * ((1 if self.lethal else pw) + self.sustained * pw)
        ap = min(0, self.AP + self.AP_mod)
        armour = self.Sv - ap
        saves = [n for n in (armour, self.invuln) if n is not None]
        need_save = min(saves)
        p_save = F(sum(1 for r in range(2, 7) if r + self.save_mod >= need_save), 6)
        lost = 1 if self.fnp is None else F(self.fnp - 1, 6)
        return (self.attacks + self.A_mod * self.models) * wounds * (1 - p_save) * lost


def mortal_mean(dice: int, threshold: int, per: int = 1) -> F:
    """``dice`` D6, each ``threshold``+ inflicting ``per`` mortal wounds."""
    return dice * F(7 - threshold, 6) * per
