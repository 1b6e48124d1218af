"""``DiceExpr.parse`` reads a plain number without the pattern exactly as the pattern
reads it: the same value, the same refusal (out of range, or not ASCII digits)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tactica.dice import _PATTERN, MAX_VALUE, DiceError, DiceExpr


@given(st.text(alphabet="0123456789 \u0662\uff12\u00b2", max_size=5))
def test_plain_numbers_read_as_the_pattern_reads_them(text: str) -> None:
    m = _PATTERN.match(text)
    plain = m.group(4) if m else None
    if plain is None:
        with pytest.raises(DiceError, match="malformed dice expression"):
            DiceExpr.parse(text)
    elif int(plain) > MAX_VALUE:
        with pytest.raises(DiceError, match=f"^value {int(plain)} out of range 0..200$"):
            DiceExpr.parse(text)
    else:
        assert DiceExpr.parse(text) == DiceExpr(0, 6, int(plain))
        assert DiceExpr.parse(text) == DiceExpr.parse(int(plain))
