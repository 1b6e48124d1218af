"""The points of a BattleScribe unit entry, for every unit size it allows.

What the 11e catalogues write (Genestealer Cults, Library - Tyranids, battleScribeVersion
2.03), and how it is read:

* ``costs``: ``{"name": "pts", "typeId": <the game system's "pts" cost type>, "value":
  70}`` on the unit entry, sometimes per model entry too (Carnifexes: 90 a model);
* ``modifiers`` on the unit entry whose ``field`` is that cost type id, with conditions
  on the number of models in the unit (``field: selections``, ``childId: model``,
  ``scope``: the unit's id, ``self``, ``unit`` or ``parent``): "set 145 when more than
  10 models" (Neophyte Hybrids), "set 65 when equal to 2" (Pyrovores), and ``repeats``
  ("increment 5 per 2 models"); they are applied in order for each size;
* the 11th-edition escalating cost: an ``increment`` whose ``localConditionGroups`` count
  the selections of the same entry before this one in the force (``instanceOf`` the entry
  id, ``atLeast`` *n*): units after the *n*-th pay the increment (Aberrants: +10 from the
  3rd unit, as wh40kdc's ``unit_count_min: 3``);
* any other condition depends on the roster (Boarding Actions, Incursion) and is reported
  as unsupported, the modifier left out.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..model.datasheet import CompositionLine, EscalatingPoints, PointsBracket, PointsTier
from .bsdata_files import Node, number
from .report import IssueLog, brackets_for_sizes

__all__ = ["PointsReader", "distribute"]

Raw = Mapping[str, Any]

_COMPARE: dict[str, Callable[[int, int], bool]] = {
    "greaterThan": lambda a, b: a > b,
    "lessThan": lambda a, b: a < b,
    "atLeast": lambda a, b: a >= b,
    "atMost": lambda a, b: a <= b,
    "equalTo": lambda a, b: a == b,
    "notEqualTo": lambda a, b: a != b,
}


def distribute(lines: Sequence[CompositionLine], size: int) -> list[int]:
    """Models per line for a unit of ``size``: each line's minimum, the rest to the first
    lines with room (the rule ``target_from_datasheet`` uses).

    >>> distribute([CompositionLine(model="Leader", min=1, max=1),
    ...             CompositionLine(model="Hybrid", min=9, max=19)], 15)
    [1, 14]
    """
    counts = [c.min for c in lines]
    extra = size - sum(counts)
    for i, line in enumerate(lines):
        add = min(max(extra, 0), line.max - line.min)
        counts[i] += add
        extra -= add
    return counts


class PointsReader:
    """Reads the points of one root entry (``points_type``: the id of the game system's
    ``pts`` cost type, ``None`` to match costs named "pts")."""

    def __init__(self, root: Node, points_type: str | None, log: IssueLog) -> None:
        self.root = root
        self.points_type = points_type
        self.log = log

    def _n(self, raw: Raw, key: str = "value", default: int = 0) -> int:
        return number(raw, key, default, where=self.root.file.path.name)

    def _is_points(self, item: Raw, key: str) -> bool:
        value = str(item.get(key, ""))
        return value == self.points_type if self.points_type else value == "pts"

    def cost(self, node: Node) -> int:
        """A node's own ``pts`` cost."""
        return sum(number(c, where=node.file.path.name) for c in node.costs
                   if self._is_points(c, "typeId") or c.get("name") == "pts")

    def points(
        self, composition: Sequence[CompositionLine], line_costs: Sequence[int]
    ) -> tuple[PointsBracket, ...] | EscalatingPoints:
        """Brackets for every allowed size (``composition`` totals); ``line_costs`` are
        the points per model of each line."""
        if not composition:
            return ()
        low = max(1, sum(c.min for c in composition))
        high = sum(c.max for c in composition)
        base = self.cost(self.root)
        modifiers = [m for m in self.root.modifiers if self._is_points(m, "field")]
        escalations = [e for m in modifiers if (e := self._escalation(m)) is not None]
        plain = [m for m in modifiers if self._escalation(m) is None]
        prices: dict[int, int] = {}
        for size in range(low, high + 1):
            counts = distribute(composition, size)
            price = base + sum(n * c for n, c in zip(counts, line_costs, strict=True))
            for m in plain:
                price = self._apply(m, price, size)
            prices[size] = price
        brackets = brackets_for_sizes(prices, self.log)
        if not escalations:
            return brackets
        after, extra = escalations[0]
        later = tuple(PointsBracket(models=b.models, points=b.points + extra) for b in brackets)
        return EscalatingPoints(tiers=(
            PointsTier(first=1, last=after, brackets=brackets),
            PointsTier(first=after + 1, brackets=later),
        ))

    def _escalation(self, modifier: Raw) -> tuple[int, int] | None:
        """``(n, extra)`` for "units after the n-th of this entry cost ``extra`` more"."""
        if modifier.get("type") != "increment":
            return None
        for group in modifier.get("conditionGroups") or ():
            for local in group.get("localConditionGroups") or ():
                own = any(
                    c.get("type") == "instanceOf" and c.get("childId") == self.root.id
                    for c in local.get("conditions") or ()
                )
                if own and local.get("type") == "atLeast":
                    return self._n(local), self._n(modifier)
        return None

    def _counts_models(self, condition: Raw, kind: str | None = None) -> bool:
        return (
            condition.get("field") == "selections"
            and condition.get("childId") == "model"
            and condition.get("scope") in ("self", "unit", "parent", self.root.id)
            and (kind or condition.get("type")) in _COMPARE
        )

    def _holds(self, conditions: Sequence[Raw], groups: Sequence[Raw], kind: str,
               size: int) -> bool | None:
        """Whether the conditions hold for a unit of ``size`` models; ``None`` when one
        of them is about something else than the unit's models."""
        results: list[bool] = []
        for c in conditions:
            if not self._counts_models(c):
                return None
            results.append(_COMPARE[str(c["type"])](size, self._n(c)))
        for g in groups:
            held = self._holds(g.get("conditions") or (), g.get("conditionGroups") or (),
                               str(g.get("type", "and")), size)
            if held is None:
                return None
            results.append(held)
        return any(results) if kind == "or" else all(results)

    def _apply(self, modifier: Raw, price: int, size: int) -> int:
        held = self._holds(modifier.get("conditions") or (),
                           modifier.get("conditionGroups") or (), "and", size)
        if held is None:
            self.log.unsupported(
                "points", f"modifier {modifier.get('type')} {modifier.get('value')} depends "
                "on the roster; left out")
            return price
        if not held:
            return price
        value = self._n(modifier)
        times = 1
        for repeat in modifier.get("repeats") or ():
            if not self._counts_models(repeat, kind="atLeast"):
                self.log.unsupported("points", "repeating modifier depends on the roster")
                return price
            times = (size // max(1, self._n(repeat, "value", 1))) * self._n(repeat, "repeats", 1)
        kind = modifier.get("type")
        if kind == "set":
            return value
        if kind == "increment":
            return price + value * times
        if kind == "decrement":
            return price - value * times
        self.log.unsupported("points", f"modifier type {kind!r} not understood")
        return price
