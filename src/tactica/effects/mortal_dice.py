"""Mortal wounds of a dataset ``mortal-wounds`` leaf as a distribution (issue 24).

The records write mortal wounds four ways (``effect.schema.json`` leaves the modifier
open; the forms below are every one the 1.4.5 records use):

* **dice against a threshold**: ``dice: "6D6"`` (or ``count: "6D6"``) with ``threshold: 4``
  (or ``per_roll: "4+"``): six D6 are rolled and each 4+ is ``mortal_per_success`` mortal
  wounds (Pterrorshades, Crushed Like Vermin: 6 x 1/2 = 3 expected). The number of dice is
  the count written before the "D6", never the largest total of the expression (6D6 is
  six dice, not 36); ``"D6"`` alone is one die;
* **a table on one roll**: ``dice: "D6"`` with ``table`` ({"1": 1, "2-4": "D3", ...}) or
  ``amount_table`` ([{roll: "2-3", amount: 1}, ...]); a roll the table does not name
  inflicts none;
* **an amount**: ``dice`` (without a threshold), ``count`` or ``amount`` as a dice
  expression ("D3", "3");
* a number of dice that depends on the models (``"ND6"``, ``"D6-per-model"``): not
  modelled, with that reason.

>>> pmf, terms = mortal_pmf({"dice": "6D6", "threshold": 4, "mortal_per_success": 1})
>>> round(float((pmf * range(len(pmf))).sum()), 6), terms
(3.0, '6 D6, each 4+ = 1 mortal wound(s)')
>>> mortal_pmf({"dice": "D6-per-model", "threshold": 6})[1]
Traceback (most recent call last):
...
ValueError: a number of dice per model ('D6-per-model')
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import numpy as np

from ..dice import DiceError, DiceExpr, FloatArray
from .model import mixture, successes_pmf

__all__ = ["mortal_pmf"]

_DICE = re.compile(r"^\s*(\d*)\s*D6\s*$", re.IGNORECASE)
_ROLL = re.compile(r"^\s*(\d)\s*(?:-\s*(\d))?\s*\+?\s*$")


def _dice_count(text: str) -> int:
    match = _DICE.match(text)
    if match is None:
        raise ValueError(f"a number of dice per model ({text!r})")
    return int(match.group(1) or 1)


def _threshold(m: Mapping[str, Any]) -> int | None:
    t = m.get("threshold", m.get("per_roll"))
    if isinstance(t, int) and not isinstance(t, bool):
        return t
    if isinstance(t, str) and (found := _ROLL.match(t)):
        return int(found.group(1))
    return None


def _amount(value: object) -> FloatArray:
    try:
        return DiceExpr.parse(str(value).replace(" ", "")).pmf()
    except (DiceError, ValueError):
        raise ValueError(f"mortal wounds {value!r}") from None


def _rolls(key: str) -> list[int]:
    found = _ROLL.match(key)
    if found is None:
        raise ValueError(f"a table roll {key!r}")
    low = int(found.group(1))
    high = int(found.group(2) or (6 if key.strip().endswith("+") else low))
    return list(range(low, high + 1))


def _table(rows: list[tuple[str, object]]) -> FloatArray:
    """One D6 rolled on ``rows`` (roll text -> amount)."""
    parts: list[tuple[float, FloatArray]] = []
    named = 0
    for key, amount in rows:
        faces = len(_rolls(key))
        named += faces
        parts.append((faces / 6, _amount(amount)))
    if named < 6:
        parts.append(((6 - named) / 6, np.array([1.0])))
    return mixture(*parts)


def mortal_pmf(m: Mapping[str, Any]) -> tuple[FloatArray, str]:
    """The distribution of mortal wounds a modifier ``m`` inflicts, and its terms; raises
    ``ValueError`` naming what cannot be computed."""
    dice = m.get("dice")
    count = m.get("count")
    threshold = _threshold(m)
    rolled = dice if dice is not None else count
    if rolled is not None and threshold is not None:
        n = rolled if isinstance(rolled, int) else _dice_count(str(rolled))
        p = threshold / 6 if m.get("comparison") == "lte" else (7 - threshold) / 6
        per = int(m.get("mortal_per_success") or 1)
        base = successes_pmf(n, p)
        pmf = np.zeros((len(base) - 1) * per + 1)
        pmf[::per] = base
        sign = "-" if m.get("comparison") == "lte" else "+"
        return pmf, f"{n} D6, each {threshold}{sign} = {per} mortal wound(s)"
    if isinstance(m.get("table"), Mapping):
        rows = [(str(k), v) for k, v in m["table"].items()]
        return _table(rows), f"{dice or 'D6'} on a table: " + ", ".join(
            f"{k}: {v}" for k, v in rows) + " mortal wound(s)"
    if isinstance(m.get("amount_table"), list):
        rows = [(str(r.get("roll")), r.get("amount")) for r in m["amount_table"]
                if isinstance(r, Mapping)]
        return _table(rows), f"{dice or 'D6'} on a table: " + ", ".join(
            f"{k}: {v}" for k, v in rows) + " mortal wound(s)"
    amount = dice if dice is not None else count if count is not None else m.get("amount")
    if isinstance(amount, str) and "per" in amount.casefold():
        raise ValueError(f"a number of dice per model ({amount!r})")
    return _amount(amount), f"{amount} mortal wound(s)"
