"""The size model's prediction of a target's damage states (``size.predicted_states``,
made from its allocation groups before any state is explored) against the states the
engine explores, on every unit of the bundled library as a target at its largest size,
led by the first unit that can lead it, under a Precision weapon (24.28: the leader's
chain beside the bodyguard's, the largest state spaces real units make)."""

from __future__ import annotations

from typing import Any

import pytest

import tactica
from tactica.combat.exact import engine as exact
from tactica.combat.exact.allocation import TooLargeError
from tactica.combat.exact.one_group import general_chain
from tactica.library import load_library
from tactica.names import name_key
from tactica.units import UnitError


class _Explored(Exception):
    """The target's states are explored: stop there."""


_SNIPER = {"name": "sniper", "count": 3, "A": "2", "skill": 3, "S": 5, "AP": -1, "D": "D3",
           "abilities": ["Precision"]}


@pytest.mark.slow
def test_predicted_states_are_within_two_times_on_every_library_unit(
        monkeypatch: pytest.MonkeyPatch) -> None:
    lib = load_library(dataset=True)
    leaders: dict[str, list[str]] = {}
    for sheet in lib.datasheets():
        for led in sheet.leader_of:
            leaders.setdefault(name_key(led), []).append(sheet.name)
    seen: dict[str, int] = {}
    real_states = exact.check_states

    def predicted(*args: Any) -> int:
        seen["predicted"] = real_states(*args)
        return seen["predicted"]

    def explored(lines: Any, nms: Any, x0: Any, mp: Any, per_line: bool) -> Any:
        seen["explored"] = x0.shape[0]
        raise _Explored  # the chain itself is not needed


    monkeypatch.setattr(exact, "check_states", predicted)
    monkeypatch.setattr(exact, "run_chain", explored)
    off: list[str] = []
    computed = refused = 0
    for sheet in lib.datasheets():
        largest = max(1, sum(t.max for t in sheet.model_types)) if sheet.model_types else None
        target: dict[str, Any] = {"unit": sheet.name, "models": largest,
                                  "led_by": leaders.get(name_key(sheet.name), [])[:1]}
        seen.clear()
        try:
            with general_chain():  # the general path's states (not the one-group path's)
                tactica.calculate({"rules": sheet.rules, "attacker": {"weapons": [_SNIPER]},
                                   "target": target}, lib)
        except UnitError:
            continue  # a size or leader the datasheet does not allow
        except TooLargeError:
            refused += 1
            continue
        except _Explored:
            pass
        computed += 1
        ratio = seen["predicted"] / seen["explored"]
        if not 0.5 <= ratio <= 2:
            off.append(f"{sheet.name} x{largest} led by {target['led_by']}: predicted "
                       f"{seen['predicted']}, explored {seen['explored']}")
    assert computed > 1000 and refused == 0
    assert not off, "\n".join(off)
