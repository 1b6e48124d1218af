"""Upper bounds on what a volley can do to one target, for the plan's proof
(``tactica.plan.proof``): cheap, order-free, and never below the exact value.

A volley's exact value comes from the engine, unit after unit, the target's state carried
(``tactica.plan.volley``). The search needs, for sets of units never evaluated, a number
that is certainly not smaller. Summing what each unit does alone is **not** such a
number: damage on a wounded model that survives counts for nothing until a later unit
finishes it, so two units can destroy a model neither destroys alone (a 16-wound
Battlewagon), and killing the bodyguard exposes the leader to the units that follow. Nor
is the sum of the wounds each makes the target lose alone: damage lost beyond a model's
wounds depends on the wounds it meets (3-wound models: a 2-damage attack, then attacks of
1, 3 and 3 damage lose 9 wounds; the same 1, 3, 3 on fresh models lose 6). The bounds
here hold whatever the order and whatever the others did:

* **one model** (a vehicle, a lone character): it is destroyed exactly when the damage
  of all the attacks that get through (each after Feel No Pain) adds up to its wounds,
  and a unit's damage does not depend on what fired before (a Blast count of one model
  stays one). So P(destroyed) = P(D_1 + ... + D_n >= W) with independent D_k, each read
  off the unit's attack alone (its final wounds give min(D_k, W)): a convolution, exact.
* **several models**: per unit, independent numbers read off its attack against
  *stand-ins* of the target, each at least as easy to hurt and with at least as many
  models (so a Blast count at least the real one, which counts the models alive), at the
  unit's Toughness for the attack (``attack_toughness``: the bodyguard's, 05.02.01):

  - K: models destroyed against models of 1 wound, the worst save, the worst
    invulnerable save (none if a model has none) and the worst Feel No Pain, as many as
    the target has models or wounds (so K counts up to that many attacks). An attack
    that gets through against a real model gets through there (the same dice: a roll
    that fails a model's save fails the worst) and destroys a stand-in; a real model
    needs at least one such attack (a mortal wound: one point). So the real models
    destroyed are at most K_1 + ... + K_n, and the attacks each takes too.
  - H_w, for each wounds size w of the target's models: the sum over those attacks of
    min(the most damage one can do, w), each set of the unit's weapon lines of one most
    damage counting its own attacks (its K; the lines' dice are independent, unless a
    Command Re-roll ties them: then the unit's most damage). Destroying a model of W
    wounds takes attacks whose min(damage, w) add up to at least min(W, w).
  - D: the damage of all the unit's attacks against a model of the worst save and as
    many wounds as the target has (no Feel No Pain): the wounds the target loses are at
    most D_1 + ... + D_n, and a model destroyed has lost all its wounds.
  - C (per CHARACTER model): the damage against the CHARACTER's own save, invulnerable
    save, Feel No Pain and wounds: the wounds it loses are at most C_1 + ... + C_n.

  The points destroyed are at most phi(K, H, D, C...): the non-CHARACTER models' worth,
  at most that of the dearest set they can cover, by each of K, H_w and D (a knapsack
  each: the least of them); each CHARACTER's worth if its C reaches its wounds and K,
  H_w and D cover the non-CHARACTER models and it (without Precision they go first:
  05.04.01, 06.02; with a Precision weapon among the units, it alone). phi grows in each
  number and is supermodular (a minimum of growing functions of one number each, plus
  products of indicators of growing functions), so over every joint law of the sums
  with these margins, E[phi] is largest when they are comonotone (Tchen 1980): the
  bound is that expectation, from the margins' quantiles (each margin a convolution
  over the units).

These arguments take an attack's numbers as monotone in the target's Toughness, saves,
Feel No Pain and wounds (the rules' thresholds are), and the target's model count as read
only by Blast and Cleave (``combat.exact.select_targets``). Every volley the search
evaluates is checked against its bound (``proof``): one above it is reported, and the
plan is then not said to be optimal.

A unit whose Lethal Hits is a choice (24.23: the engine takes the one of higher expected
damage *from the state it attacks*, so its attack depends on what fired before) gets the
bound "everything": its margins are all at their caps.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..combat.contract.scenario import MAX_MODELS, ModelGroup, Scenario, Target
from ..combat.exact.allocation import StateSpace, build_groups
from ..combat.exact.engine import Initial
from ..combat.exact.profile import attack_toughness
from ..combat.exact.states import AttackFlags, attack_flags, final_states_from
from ..dice import FloatArray
from .cells import fresh

__all__ = ["PairBound", "TargetBound", "capped"]


def capped(a: FloatArray, b: FloatArray) -> FloatArray:
    """The distribution of min(cap, X + Y) for X ~ ``a``, Y ~ ``b`` over 0..cap (both of
    length cap + 1)."""
    out = np.convolve(a, b)
    n = len(a)
    head = out[:n].copy()
    head[-1] += out[n:].sum()
    return head


def _knapsack(models: list[tuple[float, int]], cap: int) -> FloatArray:
    """best[L]: the most a set of ``models`` (worth, wounds) of at most L wounds is
    worth, L = 0..cap."""
    best = np.zeros(cap + 1)
    for worth, w in models:
        if w <= cap:
            best[w:] = np.maximum(best[w:], best[:cap + 1 - w] + worth)
    return best


@dataclass(frozen=True)
class TargetBound:
    """A target's side of the bounds (the module text). ``caps``: per margin its cap;
    one model: its wounds; several: K, then H_w for each ``ws``, then D (if
    ``has_d``), then each CHARACTER's C."""

    single: bool
    caps: tuple[int, ...]
    #: one model: the worth of destroying it; several: the bound by K alone (the K most
    #: expensive models, whatever the order), K = 0..cap
    by_count: FloatArray
    models: tuple[tuple[float, int, bool], ...] = ()  # worth, wounds, CHARACTER
    ws: tuple[int, ...] = ()
    has_d: bool = False
    last: float = 0.0
    stand_ins: tuple[ModelGroup, ...] = ()  # K's, D's (if any) and each C's
    w1: bool = False  # one allocation group of 1-wound models: K read off the unit alone
    #: per margin but the C's: the most the non-CHARACTER models it allows are worth
    knapsacks: tuple[FloatArray, ...] = ()
    _slope: float = field(default=0.0, init=False, repr=False, compare=False)

    @property
    def slope(self) -> float:
        """The most one more model destroyed (one model: destroying it) adds to
        ``by_count``."""
        return self._slope

    def __post_init__(self) -> None:
        slope = self.by_count[1] if self.single else np.max(np.diff(self.by_count))
        object.__setattr__(self, "_slope", float(slope))

    def value(self, pmfs: list[FloatArray], precision: bool = False) -> float:
        """The bound of a volley whose units' margins convolve to ``pmfs``."""
        if self.single:
            return float(self.by_count[1] * pmfs[0][-1])
        cdfs = [np.cumsum(p) for p in pmfs]
        us = np.unique(np.concatenate([*cdfs, [0.0, 1.0]]))
        us = us[(us >= 0.0) & (us <= 1.0)]
        mids, widths = (us[:-1] + us[1:]) / 2, np.diff(us)
        q = [np.minimum(np.searchsorted(c, mids), len(c) - 1) for c in cdfs]
        return float(np.dot(widths, self.phi(q, precision)))

    def _sizes(self) -> list[int | None]:
        """Per margin but the C's, the wounds a model counts for in it (``None``: all)."""
        return [1, *self.ws, *([None] if self.has_d else [])]

    def phi(self, q: list[np.ndarray], precision: bool) -> np.ndarray:
        """phi of the module text at the margins' values ``q``."""
        sizes = self._sizes()
        val = np.min([f[np.minimum(x, len(f) - 1)]
                      for f, x in zip(self.knapsacks, q, strict=False)], axis=0)
        plain = [w for _, w, c in self.models if not c]
        everyone = [w for _, w, _ in self.models]

        def need(ws: list[int], size: int | None) -> int:
            return sum(w if size is None else min(w, size) for w in ws)

        dead = np.ones_like(val, dtype=bool)
        for x, size in zip(q, sizes, strict=False):
            dead &= x >= need(everyone, size)
        i = len(sizes)
        for worth, w, character in self.models:
            if not character:
                continue
            killed = q[i] >= w
            for x, size in zip(q, sizes, strict=False):
                killed &= x >= (0 if precision else need(plain, size)) + need([w], size)
            val = val + worth * killed
            dead &= killed
            i += 1
        out: np.ndarray = val + self.last * dead if self.last else val
        return out

    @staticmethod
    def of(target: Target, per_model: list[tuple[float, bool]], last: float = 0.0
           ) -> TargetBound:
        """From the target and each model's worth (value, CHARACTER), in the order of
        ``target.models``' entries, model by model; ``last``: what destroying the whole
        unit adds (the destroy objective)."""
        groups = build_groups(target)
        n = sum(g.count for g in groups)
        if n == 1:
            return TargetBound(True, (groups[0].first_wounds,),
                               np.array([0.0, per_model[0][0] + last]))
        each = [(g, worth) for g, (worth, _) in zip(_each(target), per_model, strict=True)]
        models = tuple((worth, g.W, g.character) for g, worth in each)
        plain = [(worth, w) for worth, w, c in models if not c]
        t = attack_toughness(target.models)
        total = sum(w for _, w, _ in models)
        hits = min(max(n, total), MAX_MODELS)
        ws = tuple(sorted({w for _, w, _ in models if w > 1}))
        has_d = n < total <= 60
        caps = [hits, *(sum(min(w, x) for _, w, _ in models) for x in ws)]
        knaps = [_knapsack([(v, min(w, x)) for v, w in plain], c)
                 for x, c in zip((1, *ws), caps, strict=True)]
        worst = _worst(target.models)
        stands = [worst.model_copy(update={"count": hits, "T": t, "W": 1})]
        if has_d:
            caps.append(total)
            knaps.append(_knapsack(plain, total))
            stands.append(worst.model_copy(update={"count": n, "T": t, "W": total}))
        for g, _ in each:
            if g.character:
                caps.append(g.W)
                stands.append(ModelGroup(name="stand-in", count=n, T=t, W=g.W, Sv=g.Sv,
                                         invuln=g.invuln, fnp=g.fnp))
        by_count = np.concatenate([[0.0], np.cumsum(sorted((v for v, _ in per_model),
                                                          reverse=True))])
        by_count[-1] += last
        by_count = np.concatenate([by_count, np.full(hits - n, by_count[-1])])
        return TargetBound(False, tuple(caps), by_count, models, ws, has_d, last,
                           tuple(stands), len(groups) == 1 and groups[0].W == 1,
                           tuple(knaps))


def _worst(models: tuple[ModelGroup, ...]) -> ModelGroup:
    """A model whose save, invulnerable save and Feel No Pain are each the worst of
    ``models`` (none when one of them has none): against any attack the roll it needs
    is at least every model's."""
    def worst(values: list[int | None]) -> int | None:
        return None if any(v is None for v in values) else max(v for v in values if v)

    return ModelGroup(name="stand-in", count=1, T=models[0].T, W=1,
                      Sv=max(g.Sv for g in models), invuln=worst([g.invuln for g in models]),
                      fnp=worst([g.fnp for g in models]))


def _each(target: Target) -> list[ModelGroup]:
    """The target's entries, one per model."""
    return [g for g in target.models for _ in range(g.count)]


@dataclass(frozen=True)
class PairBound:
    """One unit against one target: its margins (the module text), their means, and
    whether the unit has a Precision weapon there."""

    pmfs: tuple[FloatArray, ...]
    means: tuple[float, ...]
    precision: bool
    most: int = 1  # the most damage one of its attacks can do
    open_lethal: bool = False  # its margins are the caps (the module text)

    @property
    def mean(self) -> float:
        """The first margin's mean (damage for one model, K for several)."""
        return self.means[0]

    @staticmethod
    def of(tb: TargetBound, scenario: Scenario, alone: Initial,
           p_attack: float = 1.0) -> PairBound:
        """``alone``: the target's final states after the unit's attack alone (the volley
        evaluator's: with a charge, the mixture of its fight and of nothing);
        ``p_attack``: the chance the unit attacks at all (a charge that must reach),
        mixed into the stand-ins' margins likewise."""
        flags = attack_flags(scenario)
        if flags.open_lethal:
            pmfs = [np.eye(c + 1)[c] for c in tb.caps]
        elif tb.single or tb.w1:
            pmfs = [_lost(scenario.target, alone, tb.caps[0], not tb.single)]
        else:
            k = _against(scenario, tb.stand_ins[0], tb.caps[0], True)
            scaled = _by_size(tb, scenario, k, flags)
            rest = [_against(scenario, m, cap, False) for m, cap in
                    zip(tb.stand_ins[1:], tb.caps[1 + len(tb.ws):], strict=True)]
            pmfs = [_charged(p, p_attack) for p in (k, *scaled, *rest)]
        pmfs = [p / p.sum() for p in pmfs]
        means = tuple(float(np.dot(np.arange(len(p)), p)) for p in pmfs)
        return PairBound(tuple(pmfs), means, flags.precision, max(flags.max_damage, 1),
                         flags.open_lethal)


def _scaled(pmf: FloatArray, factor: int, cap: int) -> FloatArray:
    """The distribution of min(cap, ``factor`` x X) for X ~ ``pmf``."""
    out = np.zeros(cap + 1)
    np.add.at(out, np.minimum(np.arange(len(pmf)) * max(factor, 1), cap), pmf)
    return out


def _lost(target: Target, states: Initial, cap: int, models: bool) -> FloatArray:
    """The distribution, capped, of the models destroyed (``models``) or the wounds
    lost in ``states`` of ``target``."""
    space = StateSpace(build_groups(target))
    n0, w0 = space.models_left(space.initial), space.wounds_left(space.initial)
    pmf = np.zeros(cap + 1)
    for s, row in states.items():
        k = n0 - space.models_left(s) if models else w0 - space.wounds_left(s)
        pmf[min(k, cap)] += float(np.sum(row))
    return pmf


def _against(scenario: Scenario, model: ModelGroup, cap: int, count_models: bool
             ) -> FloatArray:
    """The unit's margin against a stand-in (the module text)."""
    target = scenario.target.model_copy(update={"models": (model,)})
    attacked = scenario.model_copy(update={"target": target})
    return _lost(target, final_states_from(attacked, fresh(target)), cap, count_models)


def _charged(pmf: FloatArray, p_attack: float) -> FloatArray:
    """``pmf`` with the chance the unit does not attack at all (its charge fails) at 0."""
    if p_attack >= 1.0:
        return pmf
    out: FloatArray = p_attack * pmf / pmf.sum()
    out[0] += 1.0 - p_attack
    return out


def _by_size(tb: TargetBound, scenario: Scenario, k: FloatArray, flags: AttackFlags
             ) -> list[FloatArray]:
    """The H margins: for each size w of ``tb.ws``, the sum over the unit's attacks
    that get through of min(its most damage, w). With lines of different most damage
    (and no Command Re-roll tying their dice), each set of lines of one most damage
    counts its own attacks (its K against the stand-in) and the sets add up (their dice
    are independent); else every attack counts the unit's most."""
    most = flags.line_damage
    if len(set(most)) < 2 or flags.command_reroll:
        return [_scaled(k, min(flags.max_damage, w), c)
                for w, c in zip(tb.ws, tb.caps[1:], strict=False)]
    parts = []
    for m in sorted(set(most)):
        lines = tuple(w for w, d in zip(scenario.attacker.weapons, most, strict=True) if d == m)
        alone = scenario.model_copy(update={"attacker": scenario.attacker.model_copy(
            update={"weapons": lines})})
        parts.append((m, _against(alone, tb.stand_ins[0], tb.caps[0], True)))
    out = []
    for w, c in zip(tb.ws, tb.caps[1:], strict=False):
        total = np.eye(c + 1)[0]
        for m, part in parts:
            total = capped(total, _scaled(part, min(m, w), c))
        out.append(total)
    return out
