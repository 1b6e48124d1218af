"""``figures_each`` (the meta table's engine call) gives a result's three headline
figures without the document: the same floats as ``calculate_each``, bit for bit, on the
engine's paths: the one-group fast path, several model groups (the general chain), an
open Lethal Hits choice (the search), Feel No Pain, and with one memo shared across
different attackers and targets."""

from __future__ import annotations

import math
from typing import Any

from tactica.combat.batch import Figures, calculate_each, figures_each
from tactica.combat.contract.scenario import Scenario, ScenarioError


def _s(weapons: list[dict[str, Any]], models: list[dict[str, Any]],
       phase: str = "shooting") -> Scenario:
    return Scenario.model_validate({"attacker": {"weapons": weapons},
                                    "target": {"models": models}, "phase": phase})


BOLT = {"name": "Bolt rifle", "count": 10, "A": "2", "skill": 3, "S": 4, "AP": -1, "D": "1"}
DEV = {"name": "Dev gun", "count": 5, "A": "D6", "skill": 3, "S": 6, "AP": -1, "D": "2",
       "abilities": ["Lethal Hits", "Devastating Wounds", "Sustained Hits 1"]}
SWORD = {"name": "Sword", "range": "Melee", "count": 4, "A": "3", "skill": 3, "S": 5,
         "AP": -2, "D": "1"}
MEQ = [{"count": 5, "T": 4, "Sv": 3, "W": 2}]
MIXED = [{"name": "Boyz", "count": 9, "T": 5, "Sv": 5, "W": 1},
         {"name": "Nob", "count": 1, "T": 5, "Sv": 4, "W": 2}]
FNP = [{"count": 3, "T": 6, "Sv": 3, "W": 3, "fnp": 5}]

SCENARIOS = [
    _s([BOLT], MEQ), _s([BOLT, DEV], MEQ), _s([DEV], MIXED), _s([BOLT], FNP),
    _s([DEV], FNP), _s([SWORD], MIXED, "fight"), _s([BOLT], MIXED),
    _s([SWORD], MEQ),  # a melee weapon in the shooting phase: refused
]


def _headline(r: object) -> object:
    if isinstance(r, ScenarioError):
        return str(r)
    if isinstance(r, Figures):
        return r
    return Figures(r.damage.mean, r.models_destroyed.mean,  # type: ignore[attr-defined]
                   r.p_unit_destroyed)  # type: ignore[attr-defined]


def test_the_figures_are_the_documents_bit_for_bit() -> None:
    documents = [_headline(r) for r in calculate_each(SCENARIOS)]
    memo: dict[Any, Any] = {}
    figures = [_headline(f) for f in figures_each(SCENARIOS, memo)]
    assert figures == documents
    assert isinstance(figures[-1], str) and "melee" in figures[-1]
    # a second pass over the filled memo (every entry kept) gives the same floats
    assert [_headline(f) for f in figures_each(reversed(SCENARIOS), memo)] == \
        documents[::-1]
    # by hand: hit on 4+ (1/2), S8 v T4 wounds on 2+ (S at least twice T: 5/6), AP-4 v
    # Sv3 no save, D2 on one W1 model (the excess lost): destroyed with 5/12, damage 1
    one = _s([{"name": "Gun", "count": 1, "A": "1", "skill": 4, "S": 8, "AP": -4,
               "D": "2"}], [{"count": 1, "T": 4, "Sv": 3, "W": 1}])
    (f,) = figures_each([one])
    assert isinstance(f, Figures)
    assert all(math.isclose(x, 5 / 12, abs_tol=1e-15) for x in f)
