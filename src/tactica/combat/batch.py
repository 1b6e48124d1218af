"""Many calculations at once: one attacker into many targets, or many attackers into one
target, sharing the work that does not depend on what changes.

The exact engine keeps its intermediate work in a memo keyed on everything each piece
depends on: a weapon line's totals over its attack dice on the count of dice and one
die's outcome (the hit roll's pmf depends on the skill and the attacker's modifiers, the
wound roll's on the target's Toughness and keywords), the target's transition operators
on its groups and the packets reaching it (saves, damage, Feel No Pain). A batch passes
one memo to every call, so a target with the same Toughness reuses the wound totals and
an attacker with the same saves and damage reuses the operators; the memo also keeps
why each of the units' rules is left out of the numbers (``unit_rules``), and BLAS is
limited to one thread once for the whole batch (``threads``). The results equal single
``calculate`` calls (the same arithmetic on the same numbers).

>>> from tactica.combat.contract.scenario import Scenario, Target
>>> s = Scenario.model_validate({
...   "attacker": {"weapons": [{"name": "Bolt rifle", "count": 10, "A": "1", "skill": 3,
...                             "S": 4, "AP": -1, "D": "1"}]},
...   "target": {"models": [{"count": 10, "T": 4, "Sv": 3, "W": 2}]}})
>>> geq = Target.model_validate({"models": [{"count": 10, "T": 3, "Sv": 5, "W": 1}]})
>>> [round(r.models_destroyed.mean, 4) for r in calculate_many(s, targets=[s.target, geq])]
[0.5877, 3.7037]
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

from pydantic import ValidationError

from ..errors import one_line
from .contract.result import Result
from .contract.scenario import Attacker, Scenario, ScenarioError, Target
from .exact.engine import calculate_exact
from .exact.figures import figures_exact
from .exact.threads import one_blas_thread
from .exact.unit_rules import finish

__all__ = ["Figures", "calculate_each", "calculate_many", "figures_each"]


def calculate_many(scenario: Scenario | dict[str, Any], *,
                   targets: Iterable[Target] = (),
                   attackers: Iterable[Attacker] = ()) -> list[Result | ScenarioError]:
    """The exact results of ``scenario`` with its target replaced by each of ``targets``
    in turn, or its attacker by each of ``attackers`` (one of the two, in order). A
    scenario the exact engine refuses (``TooLargeError``, or a weapon of the wrong type
    for the phase) gives its error in its place: one refusal does not stop the batch."""
    base = scenario if isinstance(scenario, Scenario) else Scenario.model_validate(scenario)
    targets, attackers = tuple(targets), tuple(attackers)
    if targets and attackers:
        raise ScenarioError("calculate_many: targets or attackers, not both")
    if base.method != "exact":
        raise ScenarioError("method: calculate_many computes exact results only")
    field, changes = ("target", targets) if targets else ("attacker", attackers)
    return calculate_each({**dict(base), field: change} for change in changes)


@one_blas_thread  # once for the whole batch
def calculate_each(scenarios: Iterable[Scenario | dict[str, Any] | ScenarioError]
                   ) -> list[Result | ScenarioError]:
    """The exact result of each scenario in turn, sharing one memo (what
    ``calculate_many`` runs; ``tactica.calculate_many`` passes the scenarios its unit
    references resolved into). A refused scenario, or a ``ScenarioError`` given in a
    scenario's place, gives its error in its place."""
    memo: dict[Any, Any] = {}
    out: list[Result | ScenarioError] = []
    for item in scenarios:
        try:
            if isinstance(item, ScenarioError):
                raise item
            try:  # the scenario's own checks (the parts, validated already, are kept)
                s = item if isinstance(item, Scenario) else Scenario.model_validate(item)
            except ValidationError as exc:
                raise ScenarioError(one_line(exc)) from None
            out.append(finish(s, calculate_exact(s, memo), memo))
        except ScenarioError as exc:
            out.append(exc)
    return out


class Figures(NamedTuple):
    """A result's headline figures: ``damage.mean``, ``models_destroyed.mean`` and
    ``p_unit_destroyed`` (the same floats)."""

    damage: float
    models_destroyed: float
    p_unit_destroyed: float


@one_blas_thread  # once for the whole batch
def figures_each(scenarios: Iterable[Scenario], memo: dict[Any, Any] | None = None
                 ) -> list[Figures | ScenarioError]:
    """``calculate_each``'s headline figures of each scenario (``Figures``), without
    the result documents, sharing ``memo`` (kept by the caller between batches: every
    entry is keyed on all it depends on). A refused scenario gives its error.

    >>> from tactica.combat.contract.scenario import Scenario
    >>> s = Scenario.model_validate({
    ...   "attacker": {"weapons": [{"name": "Bolt rifle", "count": 10, "A": "1",
    ...                             "skill": 3, "S": 4, "AP": -1, "D": "1"}]},
    ...   "target": {"models": [{"count": 10, "T": 4, "Sv": 3, "W": 2}]}})
    >>> f = figures_each([s])[0]
    >>> f == Figures(*(lambda r: (r.damage.mean, r.models_destroyed.mean,
    ...                           r.p_unit_destroyed))(calculate_each([s])[0]))
    True
    """
    memo = {} if memo is None else memo
    out: list[Figures | ScenarioError] = []
    for s in scenarios:
        try:
            out.append(Figures(*figures_exact(s, memo)))
        except ScenarioError as exc:
            out.append(exc)
    return out
