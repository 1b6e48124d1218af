"""Tests of the named effects (issue "Rules that change the numbers").

Shared scenario builders for ``test_named_effects``, ``test_refusals`` and ``test_meta``.
A scenario is a plain dict of the scenario contract (``shared/spec/scenario.md``) given to
``tactica.calculate``. The defaults are chosen so that the derivations stay short:

* the attacker is a GENESTEALER CULTS INFANTRY unit named "Cult unit" with one weapon
  line (BS/WS4+, S4, AP0, D1, one attack) unless a test says otherwise;
* the target is 20 models with T4, no possible armour save (``Sv7``) and W1, so every
  unsaved wound is exactly one point of damage and one destroyed model, and no attack in
  these examples can run out of models (at most 12 hits are ever possible).

Expected numbers are derived by hand in each test's docstring and recomputed with
``fractions.Fraction`` in the test; they never come from the engine.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any

import pytest

from tactica import calculate
from tactica.combat import Result

__all__ = [
    "GSC",
    "Json",
    "approx",
    "binomial_pmf",
    "capped",
    "mean_of",
    "run",
    "scenario",
    "target",
    "weapon",
]

Json = dict[str, Any]
GSC = "GENESTEALER CULTS"


def weapon(
    *,
    A: str = "1",
    skill: int | None = 4,
    S: int = 4,
    AP: int = 0,
    D: str = "1",
    count: int = 1,
    abilities: Sequence[str] = (),
    name: str = "weapon",
) -> Json:
    """One weapon line; its range (24" or Melee) is set by ``scenario`` from the phase."""
    return {"name": name, "count": count, "A": A, "skill": skill, "S": S, "AP": AP,
            "D": D, "abilities": list(abilities)}


def target(
    *,
    count: int = 20,
    T: int = 4,
    Sv: int = 7,
    W: int = 1,
    keywords: Sequence[str] = (),
    extra_models: Sequence[Json] = (),
    character: bool = False,
) -> Json:
    """The target unit: ``count`` identical models (plus ``extra_models`` entries)."""
    models = [{"name": "model", "count": count, "T": T, "Sv": Sv, "W": W,
               "character": character}, *extra_models]
    return {"name": "target", "keywords": list(keywords), "models": models}


def scenario(
    *weapons: Json,
    effects: Iterable[Any] = (),
    rules: str = "11th",
    phase: str = "shooting",
    keywords: Sequence[str] = (GSC, "INFANTRY"),
    name: str = "Cult unit",
    tgt: Json | None = None,
    **context: Any,
) -> Json:
    """A scenario dict: ``weapons`` (default one ``weapon()``) fired in ``phase`` (melee
    weapons in the fight phase) at ``tgt`` (default ``target()``); keyword arguments
    left over are context fields."""
    rng: int | str = "Melee" if phase == "fight" else 24
    lines = [{**w, "range": rng} for w in (weapons or (weapon(),))]
    return {
        "rules": rules,
        "phase": phase,
        "attacker": {"name": name, "keywords": list(keywords), "weapons": lines},
        "target": tgt if tgt is not None else target(),
        "context": context,
        "effects": list(effects),
    }


def run(*weapons: Json, **kwargs: Any) -> Result:
    """``calculate(scenario(*weapons, **kwargs))``."""
    return calculate(scenario(*weapons, **kwargs))


def approx(value: Fraction | int) -> Any:
    """An exact expectation compared to a float result."""
    return pytest.approx(float(value), abs=1e-12)


def binomial_pmf(n: int, p: Fraction) -> list[Fraction]:
    """P(k successes among n independent trials), k = 0..n, as fractions."""
    from math import comb

    return [comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)]


def capped(pmf: Sequence[Fraction], cap: int) -> list[Fraction]:
    """The pmf of min(X, cap)."""
    if len(pmf) <= cap + 1:
        return list(pmf)
    return [*pmf[:cap], sum(pmf[cap:], Fraction(0))]


def mean_of(pmf: Sequence[Fraction]) -> Fraction:
    return sum((k * p for k, p in enumerate(pmf)), Fraction(0))
