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
       phase: str = "shooting", keywords: tuple[str, ...] = (), **more: object) -> Scenario:
    return Scenario.model_validate({"attacker": {"weapons": weapons},
                                    "target": {"models": models, "keywords": keywords},
                                    "phase": phase, **more})


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


def test_the_figures_memo_tells_apart_what_the_chain_reads() -> None:
    """``figures_exact`` keeps a matchup's figures under what it reads once the lines
    are resolved (``figures.FiguresInputs``). Pairs that differ in one such thing, through one
    memo in order and in reverse, give each its own figures bit for bit, as alone; each
    pair's figures differ (a key that left the difference out would repeat the first)."""
    dw = {**DEV, "abilities": ["Devastating Wounds"]}
    pairs = [
        (_s([BOLT], MEQ), _s([BOLT], [{**MEQ[0], "W": 3}])),  # the group's wounds
        (_s([BOLT], MEQ), _s([BOLT], [{**MEQ[0], "fnp": 5}])),  # its Feel No Pain
        (_s([BOLT], MEQ), _s([BOLT], [{**MEQ[0], "count": 3}])),  # its models
        (_s([BOLT], MIXED), _s([BOLT], MIXED[::-1])),  # the allocation order
        *((_s([BOLT], MEQ), _s([BOLT], MEQ, effects=[e]))
          for e in ({"fnp": 5}, {"command_reroll": "hit"}, {"mortal_wounds": "D3"})),
        # the rules version: the same lines, criticals after each line (11th) or after
        # the whole unit (10th, reference facts 4.10)
        (_s([dw, dw], MIXED), _s([dw, dw], MIXED, rules="10th")),
    ]
    scenarios = [x for pair in pairs for x in pair]
    alone = [figures_each([x])[0] for x in scenarios]
    memo: dict[Any, Any] = {}
    assert figures_each(scenarios, memo) == alone
    assert figures_each(scenarios[::-1], {})[::-1] == alone
    assert figures_each(scenarios[::-1], memo)[::-1] == alone
    for i in range(0, len(scenarios), 2):
        assert alone[i] != alone[i + 1], scenarios[i + 1]


def test_lines_that_roll_alike_share_one_calculation() -> None:
    """Two attackers whose lines differ only in their names and a rule that does not
    apply to the target (Anti-Vehicle against infantry) are one calculation in a batch;
    the same attacker against a VEHICLE is another."""
    anti = {**BOLT, "name": "Anti rifle", "abilities": ["Anti-Vehicle 2+"]}
    plain, other = _s([BOLT], MEQ), _s([anti], MEQ)
    vehicle = _s([anti], MEQ, keywords=("VEHICLE",))
    memo: dict[Any, Any] = {}
    got = figures_each([plain, other, vehicle], memo)
    assert got[0] == got[1] == figures_each([other])[0]
    assert got[2] != got[0]
    assert sum(1 for k in memo if k[0] == "figures") == 2


def test_lines_that_come_to_the_same_share_the_figures_or_the_target_states() -> None:
    """An S5 and an S6 weapon wound T4 on 3+ alike: the engine reads nothing else of
    their Strength once the lines are resolved, so a batch computes them once. AP-1 and
    AP0 against Sv4+ with a 4+ invulnerable save both save on 4: their figures keys
    differ (the AP), but the one-group chain from the undamaged target reads only the
    packets and the lines' (n, m) pmfs, so the target is stepped once for both. Each
    scenario's figures are still its own, alone or batched. A T5 target wounds the S5
    weapon on 4+: another calculation and another chain."""
    s5, s6 = {**BOLT, "S": 5}, {**BOLT, "S": 6, "name": "Heavy bolt rifle"}
    invuln = [{**MEQ[0], "Sv": 4, "invuln": 4}]
    ap0 = {**BOLT, "AP": 0}
    scenarios = [_s([s5], MEQ), _s([s6], MEQ), _s([s5], [{**MEQ[0], "T": 5}]),
                 _s([BOLT], invuln), _s([ap0], invuln)]
    memo: dict[Any, Any] = {}
    got = figures_each(scenarios, memo)
    assert got == [figures_each([x])[0] for x in scenarios]
    assert got[0] == got[1] != got[2]
    assert got[3] == got[4]
    assert sum(1 for k in memo if k[0] == "figures") == 4
    assert sum(1 for k in memo if k[:2] == ("one_group", "chain")) == 3


def _fields(w: Any) -> dict[str, Any]:
    """A resolved line's fields, its arrays as lists (comparable with ``==``)."""
    return {k: v.tolist() if hasattr(v, "tolist") else v for k, v in vars(w).items()}


def test_a_resolved_line_is_kept_per_its_stages_and_what_it_reads_besides() -> None:
    """A batch keeps a resolved line once per its record (``LineInputs``: its four
    stages' records, the attack dice, the hit and wound rolls, the damage, each what its
    stage reads) and what the line reads besides: its AP and save modifiers, what is not
    calculated, Precision against a CHARACTER. The same line into targets alike is one
    record; pairs that differ only in one of those give each its own record, through one
    memo in either order, field for field the line resolved alone (no memo)."""
    from tactica.combat.exact.engine import _prepare

    precise = {**BOLT, "abilities": ["Precision"]}
    led = [{**MEQ[0], "count": 4}, {**MEQ[0], "name": "Sergeant", "count": 1}]
    leader = [led[0], {**led[1], "character": True}]
    pairs = [
        (_s([BOLT], MEQ), _s([{**BOLT, "AP": -2}], MEQ)),  # the save stage
        (_s([BOLT], MEQ), _s([BOLT], MEQ, effects=[{"save": -1}])),  # a save modifier
        # Precision (24.28) counts only into a unit with a CHARACTER: the same stages
        (_s([precise], led), _s([precise], leader)),
        # a rule the data names without its text: listed as not calculated, nothing else
        (_s([BOLT], MEQ), _s([{**BOLT, "abilities": ["Hunter Monster"]}], MEQ)),
    ]
    scenarios = [x for pair in pairs for x in pair]
    alone = [[_fields(w) for w in _prepare(x).weapons] for x in scenarios]
    for order in (scenarios, scenarios[::-1]):
        memo: dict[Any, Any] = {}
        got = {id(x): [_fields(w) for w in _prepare(x, memo).weapons] for x in order}
        assert [got[id(x)] for x in scenarios] == alone
    for i in range(0, len(scenarios), 2):
        assert alone[i] != alone[i + 1], scenarios[i + 1]
    # the same line into two targets alike (another name, the same numbers): one record
    memo = {}
    one = _prepare(_s([BOLT], MEQ), memo).weapons[0]
    again = _prepare(_s([BOLT], [{**MEQ[0], "name": "Other"}]), memo).weapons[0]
    assert one is again
    assert len(memo[("resolved lines",)]) == 1
