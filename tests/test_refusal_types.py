"""One type to catch: every refusal ``tactica.calculate`` raises is a
``tactica.ScenarioError`` (a bad document's ``DocumentError``, a unit that cannot be
fielded's ``UnitError``), in the same words ``tactica.calculate_many`` returns for the
same replacement."""

from __future__ import annotations

from typing import Any

import pytest

import tactica
from tactica.errors import DocumentError
from tactica.units.resolve import UnitError

BASE: dict[str, Any] = {"attacker": {"unit": "Intercessor Squad"}, "target": {"unit": "meq"}}


@pytest.mark.parametrize(("target", "kind"), [
    ({"unit": "Nowhere Squad"}, UnitError),
    ({"unit": "Termagants", "models": 0}, DocumentError),
    ({"models": [{"T": 4, "Sv": 3, "W": 2, "count": "many"}]}, DocumentError),
])
def test_a_refusal_is_a_scenario_error_in_the_words_calculate_many_returns(
        target: dict[str, Any], kind: type[Exception]) -> None:
    with pytest.raises(tactica.ScenarioError) as raised:
        tactica.calculate({**BASE, "target": target})
    assert isinstance(raised.value, kind)
    assert "\n" not in str(raised.value)
    [returned] = tactica.calculate_many(BASE, targets=[target])
    assert type(returned) is tactica.ScenarioError
    assert str(returned) == str(raised.value)
