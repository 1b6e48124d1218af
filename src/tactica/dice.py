"""Dice expressions (``D3``, ``D6+1``, ``2D6+3``, ``4``) and their exact distributions.

A characteristic such as A or D is either a plain number or ``[N]D{3,6}[+K]``
(02.02.03 Random Characteristics: "the value after the operator is part of that
characteristic, it is not a modifier").

>>> d = DiceExpr.parse("D6+1")
>>> d
DiceExpr.parse('D6+1')
>>> d.min, d.max, d.mean
(2, 7, Fraction(9, 2))
>>> [str(w) for w in DiceExpr.parse("2D3").weights()]
['0', '0', '1', '2', '3', '2', '1']
>>> DiceExpr.parse("D")
Traceback (most recent call last):
...
DiceError: malformed dice expression 'D': expected N, DX, NDX, DX+N or NDX+N with X 3 or 6

Probabilities are exact: ``weights()`` are integers over ``sides ** n``; ``pmf()`` gives
floats (numpy) for the numeric core and ``fraction_pmf()`` Fractions for oracles.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from tactica.cache_registry import lasting_cache

__all__ = ["MAX_DICE", "MAX_VALUE", "DiceError", "DiceExpr", "die_weights"]

#: The most dice one expression may roll (sane-input limit: "1000D6" is an error).
MAX_DICE = 10
#: The largest fixed part (a plain number or the ``+K``) one expression may carry.
MAX_VALUE = 200

#: ASCII digits only: "D６" (a full-width digit) is not a dice expression.
_PATTERN = re.compile(r"^\s*(?:(\d*)\s*[dD]\s*(\d+)\s*(?:\+\s*(\d+))?|(\d+))\s*$", re.ASCII)
_ALLOWED_SIDES = (3, 6)

FloatArray = npt.NDArray[np.float64]


class DiceError(ValueError):
    """A dice expression that cannot be parsed or is out of range; quotes the text."""


@lasting_cache(maxsize=None)
def die_weights(sides: int, n: int) -> tuple[int, ...]:
    """Integer weights of the sum of ``n`` dice with ``sides`` sides, index = total.

    A D3 is a D6 halved rounding up, so its weights are those of a fair 3-sided die.

    >>> die_weights(6, 2)[7]
    6
    """
    weights = [1]
    for _ in range(n):
        nxt = [0] * (len(weights) + sides)
        for total, w in enumerate(weights):
            if w:
                for face in range(1, sides + 1):
                    nxt[total + face] += w
        weights = nxt
    return tuple(weights)


@dataclass(frozen=True, slots=True)
class DiceExpr:
    """``n`` dice of ``sides`` sides plus ``plus``; ``n == 0`` is a plain number."""

    n: int = 0
    sides: int = 6
    plus: int = 0

    def __post_init__(self) -> None:
        if self.n < 0 or self.plus < 0:
            raise DiceError(f"malformed dice expression {self}: negative part")
        if self.n > MAX_DICE:
            raise DiceError(f"dice expression {self} rolls {self.n} dice; at most {MAX_DICE}")
        if self.n and self.sides not in _ALLOWED_SIDES:
            raise DiceError(f"dice expression {self}: only D3 and D6 exist")
        if self.plus > MAX_VALUE:
            raise DiceError(f"dice expression {self}: {self.plus} is above {MAX_VALUE}")

    @classmethod
    def parse(cls, text: str | int | DiceExpr) -> DiceExpr:
        """Parse ``"D6+1"``, ``"2D6"``, ``"3"`` (or an int, or a DiceExpr as is)."""
        if isinstance(text, DiceExpr):
            return text
        if isinstance(text, str) and text.isdigit() and text.isascii():
            return cls._plain(int(text))  # "3": what the pattern's plain number reads
        if isinstance(text, bool):
            raise DiceError(f"malformed dice expression {text!r}")
        if isinstance(text, int):
            return cls._plain(text)
        m = _PATTERN.match(str(text))
        if not m:
            raise DiceError(
                f"malformed dice expression {text!r}: expected N, DX, NDX, DX+N or NDX+N"
                " with X 3 or 6"
            )
        count, sides, plus, plain = m.groups()
        if plain is not None:
            return cls._plain(int(plain))
        n = int(count) if count else 1
        if n == 0:
            raise DiceError(f"malformed dice expression {text!r}: zero dice")
        if int(sides) not in _ALLOWED_SIDES:
            raise DiceError(f"malformed dice expression {text!r}: only D3 and D6 exist")
        if n > MAX_DICE:
            raise DiceError(f"dice expression {text!r} rolls {n} dice; at most {MAX_DICE}")
        return cls(n, int(sides), int(plus) if plus else 0)

    @classmethod
    def _plain(cls, value: int) -> DiceExpr:
        """A plain number, within 0..``MAX_VALUE``."""
        if value < 0 or value > MAX_VALUE:
            raise DiceError(f"value {value} out of range 0..{MAX_VALUE}")
        return cls(0, 6, value)

    # --- shape -----------------------------------------------------------------------
    @property
    def is_random(self) -> bool:
        return self.n > 0

    @property
    def min(self) -> int:
        return self.n + self.plus

    @property
    def max(self) -> int:
        return self.n * self.sides + self.plus

    @property
    def mean(self) -> Fraction:
        return Fraction(self.n * (self.sides + 1), 2) + self.plus

    # --- distributions ---------------------------------------------------------------
    def weights(self) -> tuple[int, ...]:
        """Integer weights indexed by value (length ``max + 1``), total ``sides ** n``."""
        if self.n == 0:
            return (0,) * self.plus + (1,)
        return (0,) * self.plus + die_weights(self.sides, self.n)

    @property
    def total_weight(self) -> int:
        return self.sides**self.n if self.n else 1

    def fraction_pmf(self) -> dict[int, Fraction]:
        """Exact probabilities of each possible value."""
        total = self.total_weight
        return {v: Fraction(w, total) for v, w in enumerate(self.weights()) if w}

    def pmf(self) -> FloatArray:
        """Probabilities as floats, indexed by value."""
        return _float_pmf(self)

    # --- text ------------------------------------------------------------------------
    def __str__(self) -> str:
        if self.n == 0:
            return str(self.plus)
        dice = f"{'' if self.n == 1 else self.n}D{self.sides}"
        return dice + (f"+{self.plus}" if self.plus else "")

    def __repr__(self) -> str:
        return f"DiceExpr.parse({str(self)!r})"

    # pydantic integration: accept strings/ints, serialise as the rulebook string
    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: Any) -> Any:
        from pydantic_core import core_schema

        def validate(value: Any) -> DiceExpr:
            try:
                return cls.parse(value)
            except DiceError as exc:
                raise ValueError(str(exc)) from None

        return core_schema.no_info_plain_validator_function(
            validate,
            json_schema_input_schema=core_schema.union_schema(
                [core_schema.str_schema(pattern=r"^([0-9]+|[0-9]*[dD](3|6)(\+[0-9]+)?)$"),
                 core_schema.int_schema(ge=0)]
            ),
            serialization=core_schema.plain_serializer_function_ser_schema(
                str, return_schema=core_schema.str_schema()),
        )


@lasting_cache(maxsize=None)
def _float_pmf(expr: DiceExpr) -> FloatArray:
    total = expr.total_weight
    # Python's int / int is correctly rounded, as numpy's float division of the
    # (exactly represented) weights: the same floats
    out = np.array([w / total for w in expr.weights()], dtype=np.float64)
    out.setflags(write=False)
    return out
