"""The result document: exact (or sampled) distributions of every stage of the attack."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal, TypedDict

import numpy as np
import numpy.typing as npt
from pydantic import BaseModel, ConfigDict, Field

from tactica.model.common import RulesVersion

from .scenario import ModelGroup, WeaponLine

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["Distribution", "NamedDistribution", "Resolved", "Result", "StageExplanation",
           "StageFields", "WeaponSummary", "distribution_fields", "distribution_mean",
           "pmf_mean", "short_mean"]

#: 0, 1, 2, ... as floats: the values a pmf's mean weighs its entries by (a slice of it
#: is the same numbers as ``np.arange(n, dtype=np.float64)``, without making them anew)
_VALUES = np.arange(4096, dtype=np.float64)
_VALUES.flags.writeable = False


def pmf_mean(p: npt.NDArray[np.float64]) -> float:
    """The mean of a 1-D pmf: ``np.dot(np.arange(len(p)), p)`` (one BLAS dot product, the
    same sum in the same order as ever, so the same float bit for bit; ``short_mean``
    when it has at most three entries)."""
    n = len(p)
    if n <= 3:
        short = short_mean(p.tolist())
        if short is not None:
            return short
    values = _VALUES[:n] if n <= len(_VALUES) else np.arange(n, dtype=np.float64)
    return float(p.dot(values))


def short_mean(v: list[float]) -> float | None:
    """``pmf_mean`` of at most three entries without numpy, when it is not zero: the
    products 0 v[0], 1 v[1] and 2 v[2] are exact and at most two of them are not zero, so
    their sum has one rounding whatever the order BLAS adds them in (fused or not). One
    positive entry: 0.0 (the only product is 0.0). None otherwise (a zero mean: its sign
    is the one BLAS gives)."""
    if len(v) == 1:
        return 0.0 if v[0] > 0.0 else None
    if len(v) == 2:
        mean = v[1]
    elif len(v) == 3:
        mean = v[1] + 2.0 * v[2]
    else:
        return None
    return mean if mean != 0.0 else None


def distribution_fields(pmf: npt.NDArray[np.float64], length: int | None = None,
                        mean: Callable[[npt.NDArray[np.float64]], float] = pmf_mean,
                        ) -> dict[str, Any]:
    """A ``Distribution``'s fields from a pmf array, to validate (``from_array``, or inside
    a whole result document at once): trailing zeros are trimmed (a pmf of no positive
    entry is the certain 0) unless ``length`` is given, then it is cut or padded to it.
    ``mean``: ``pmf_mean``, or one that knows the means of some arrays already."""
    p, values = _trimmed(pmf, length)
    short = short_mean(values) if len(values) <= 3 else None
    return {"mean": mean(p) if short is None else short, "pmf": tuple(values)}


def distribution_mean(pmf: npt.NDArray[np.float64], length: int | None = None) -> float:
    """``distribution_fields(pmf, length)["mean"]``, the same float, without the pmf's
    entries as a tuple (a table reads the means alone).

    >>> pmf = np.array([0.25, 0.5, 0.25, 0.0])
    >>> distribution_mean(pmf) == distribution_fields(pmf)["mean"] == 1.0  # exact: dyadic
    True
    """
    p, values = _trimmed(pmf, length)
    short = short_mean(values) if len(values) <= 3 else None
    return pmf_mean(p) if short is None else short


def _trimmed(pmf: npt.NDArray[np.float64], length: int | None
             ) -> tuple[npt.NDArray[np.float64], list[float]]:
    """``pmf`` as ``distribution_fields`` reads it, with its entries as Python floats:
    trailing zeros trimmed (no positive entry: the certain 0) unless ``length`` is given,
    then cut or padded to it."""
    p = np.asarray(pmf, dtype=np.float64)
    if length is not None and length != len(p):
        p = np.concatenate([p, np.zeros(max(0, length - len(p)))])[:length]
    # ``tolist``: the same Python floats as ``float(x)`` per entry, at C speed
    values = p.tolist()
    if length is None:  # up to the last positive entry
        n = len(values)
        while n and not values[n - 1] > 0.0:
            n -= 1
        if n < len(values):
            p, values = (p[:n], values[:n]) if n else (np.ones(1), [1.0])
    return p, values


class _Out(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Distribution(_Out):
    """``pmf[i]`` is P(value = i); ``mean`` is its mean."""

    mean: float
    pmf: tuple[float, ...]

    @classmethod
    def from_array(cls, pmf: npt.NDArray[np.float64], length: int | None = None) -> Distribution:
        """From a pmf array; trailing zeros are trimmed unless ``length`` is given."""
        return cls.model_validate(distribution_fields(pmf, length))

    def at_least(self, n: int) -> float:
        """P(value >= n)."""
        return float(sum(self.pmf[n:]))


class StageExplanation(_Out):
    """A short explanation of one stage for one weapon (e.g. "S5 vs T4: 3+")."""

    weapon: str
    stage: Literal["attacks", "hit", "wound", "save", "damage", "allocation", "hazard"]
    detail: str


class StageFields(TypedDict):
    """A ``StageExplanation``'s fields, validated with the result document they are in."""

    weapon: str
    stage: str
    detail: str


class WeaponSummary(_Out):
    """Per weapon line: expected attacks, hits and wounds (independent of allocation)."""

    weapon: str
    attacks: float
    hits: float
    wounds: float
    critical_wounds: float


class NamedDistribution(_Out):
    """A distribution that is not about the target (e.g. mortal wounds a stratagem
    inflicts on the attacker or on friendly units)."""

    label: str
    distribution: Distribution


class Resolved(_Out):
    """What unit references resolved into (scenario contract version 2): the attacker's
    weapon lines and the target's model groups as the engine read them, each side's
    models and their equipment, and which choices were the datasheet's defaults."""

    attacker: tuple[WeaponLine, ...] = ()
    target: tuple[ModelGroup, ...] = ()
    attacker_models: tuple[str, ...] = ()
    target_models: tuple[str, ...] = ()
    defaults: tuple[str, ...] = ()


class Result(_Out):
    rules: RulesVersion
    method: Literal["exact", "monte-carlo"] = "exact"
    trials: int | None = None
    seed: int | None = None
    attacks: Distribution
    hits: Distribution
    wounds: Distribution
    unsaved: Distribution
    damage: Distribution
    models_destroyed: Distribution
    p_unit_destroyed: float
    attacker_mortal_wounds: Distribution
    weapons: tuple[WeaponSummary, ...] = ()
    stages: tuple[StageExplanation, ...] = ()
    notes: tuple[str, ...] = ()
    not_calculated: tuple[str, ...] = ()
    effects_applied: tuple[str, ...] = Field(default=(), description="named effects used")
    cp_spent: int = 0
    other_mortal_wounds: tuple[NamedDistribution, ...] = ()
    resolved: Resolved | None = Field(
        default=None, description="what named units resolved into (version 2)")

    def to_frame(self) -> pd.DataFrame:
        """The distributions as a pandas DataFrame: one row per value, one column per
        stage, P(value = i) (``frames.result_frame``; pandas imported here, on use).

        >>> import tactica
        >>> r = tactica.calculate({"attacker": {"weapons": [{"name": "Lascannon",
        ...     "A": "1", "skill": 4, "S": 12, "AP": -3, "D": "D6+1"}]},
        ...     "target": {"models": [{"T": 10, "Sv": 3, "W": 13}]}})
        >>> r.to_frame()["damage"].round(4).tolist()    # 1/2 x 2/3 x 5/6 = 5/18 to hurt
        [0.7222, 0.0, 0.0463, 0.0463, 0.0463, 0.0463, 0.0463, 0.0463]
        """
        from .frames import result_frame

        return result_frame(self)

    def _repr_html_(self) -> str:
        """The result as an HTML table, for a notebook (``frames.result_html``)."""
        from .frames import result_html

        return result_html(self)
