"""A result's headline: the figures a player asks for first, read off the exact
distributions of a ``Result`` (or a sequence's), never recomputed.

* the expected models destroyed and damage, P(the unit is destroyed);
* the median and the 10-90% band of models destroyed and of damage: ``quantile(d, q)``
  is the smallest value ``v`` with P(X <= v) >= q, so at least 80% of the outcomes lie
  in the band (both ends included);
* the weapons that attacked, what was not calculated, the notes, the named effects used.

>>> from tactica.combat import Distribution
>>> d = Distribution(mean=1.0, pmf=(0.25, 0.5, 0.25))
>>> quantile(d, 0.1), quantile(d, 0.5), quantile(d, 0.9)
(0, 1, 2)
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from .combat import Distribution, Result

__all__ = ["Headline", "Spread", "headline", "quantile"]

#: Rounding slack for a cumulative sum that should reach ``q`` exactly (pmfs sum to 1
#: within 1e-12).
_SLACK = 1e-12


def quantile(dist: Distribution, q: float) -> int:
    """The smallest value whose cumulative probability reaches ``q`` (0 < q <= 1)."""
    if not 0.0 < q <= 1.0:
        raise ValueError(f"quantile: q must be in (0, 1], not {q}")
    total = 0.0
    for value, p in enumerate(dist.pmf):
        total += p
        if total >= q - _SLACK:
            return value
    return max(len(dist.pmf) - 1, 0)


class Spread(BaseModel):
    """A distribution in three numbers: its mean, median and 10-90% band."""

    model_config = ConfigDict(frozen=True)

    mean: float
    median: int
    p10: int = Field(description="10% of outcomes are at or below this")
    p90: int = Field(description="90% of outcomes are at or below this")


def _spread(dist: Distribution) -> Spread:
    return Spread(mean=dist.mean, median=quantile(dist, 0.5), p10=quantile(dist, 0.1),
                  p90=quantile(dist, 0.9))


class Headline(BaseModel):
    """What an attack (or a turn) does, in the figures a player asks for."""

    model_config = ConfigDict(frozen=True)

    rules: str
    method: str = Field(description="exact, or monte-carlo (sampled)")
    expected_models_destroyed: float
    p_unit_destroyed: float = Field(description="P(every model of the target destroyed)")
    expected_damage: float
    models_destroyed: Spread
    damage: Spread
    target_models: int | None = Field(default=None, description="models in the target, "
                                      "when it was a library unit or preset")
    weapons_used: tuple[str, ...] = Field(description="'COUNT x NAME' per weapon line")
    not_calculated: tuple[str, ...] = Field(description="rules in play that the figures "
                                            "leave out")
    notes: tuple[str, ...] = ()
    effects_applied: tuple[str, ...] = ()
    cp_spent: int = 0


def _weapons(result: Result) -> tuple[str, ...]:
    """The weapon lines that attacked: the lines fielded from a unit (every step's, for a
    sequence) with their counts, else the result's per-weapon summaries."""
    resolved = [result.resolved] if result.resolved is not None else []
    resolved += [s.resolved for s in getattr(result, "steps", ()) if s.resolved is not None]
    lines = [f"{w.count} x {w.name}" for r in resolved for w in r.attacker]
    if lines:
        return tuple(dict.fromkeys(lines))
    return tuple(dict.fromkeys(w.weapon for w in result.weapons))


def headline(result: Result) -> Headline:
    """The headline of ``result`` (module text)."""
    size = None
    if result.resolved is not None and result.resolved.target:
        size = sum(g.count for g in result.resolved.target)
    return Headline(
        rules=result.rules, method=result.method,
        expected_models_destroyed=result.models_destroyed.mean,
        p_unit_destroyed=result.p_unit_destroyed, expected_damage=result.damage.mean,
        models_destroyed=_spread(result.models_destroyed), damage=_spread(result.damage),
        target_models=size, weapons_used=_weapons(result),
        not_calculated=result.not_calculated, notes=result.notes,
        effects_applied=result.effects_applied, cp_spent=result.cp_spent)
