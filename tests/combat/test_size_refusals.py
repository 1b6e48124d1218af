"""The size model (``tactica.combat.exact.size``) refuses every kind of oversize scenario with
``TooLargeError`` (what a caller's fall-back to Monte Carlo catches; a one-line message
naming the place and pointing to ``monte-carlo``) before the work it predicts: before the
target's states are explored, before a line's totals are compounded and before the
target's chain is entered. The predicted number of target states is checked against the
states the engine really explores."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tactica import calculate
from tactica.combat.batch import calculate_many
from tactica.combat.contract.scenario import ScenarioError, Target
from tactica.combat.contract.sequence import Sequence
from tactica.combat.exact import engine as exact
from tactica.combat.exact import size
from tactica.combat.exact.allocation import Packet, TooLargeError, build_groups
from tactica.combat.exact.one_group import general_chain
from tactica.combat.exact.size import predicted_states, wound_losses
from tactica.combat.turn.exact import calculate_sequence
from tactica.dice import DiceExpr
from volume import sampled

from .test_reach import scenarios

_LINE = {"name": "w", "count": 50, "A": "D6", "skill": 3, "S": 6, "AP": -1, "D": "D6",
         "abilities": ["Sustained Hits 2", "Devastating Wounds"]}
_W3 = {"name": "model", "count": 20, "T": 5, "Sv": 3, "W": 3, "fnp": 5}
_CAPTAIN = {"name": "Captain", "count": 1, "T": 4, "Sv": 2, "invuln": 4, "W": 6,
            "character": True}
_STRESS = {"name": "stress gun", "count": 40, "A": "4", "skill": 3, "S": 6, "AP": -1,
           "D": "D6", "abilities": ["Sustained Hits 2", "Lethal Hits", "Devastating Wounds"]}
_SAVE_GROUPS = [{"name": "A", "count": 10, "T": 4, "Sv": 3, "W": 2},
                {"name": "B", "count": 10, "T": 4, "Sv": 4, "W": 2},
                {"name": "C", "count": 5, "T": 4, "Sv": 2, "W": 3, "invuln": 4}]


def _gun(name: str, count: int, d: str, *abilities: str) -> dict[str, Any]:
    return {"name": name, "count": count, "A": "1", "skill": 3, "S": 5, "AP": -1, "D": d,
            "abilities": list(abilities)}


def _doc(rules: str, weapons: list[dict[str, Any]], models: list[dict[str, Any]]
         ) -> dict[str, Any]:
    return {"rules": rules, "attacker": {"weapons": weapons}, "target": {"models": models}}


#: one scenario per kind of oversize, with the place its message names
OVERSIZE: dict[str, tuple[dict[str, Any], str]] = {
    # 10th: both lines' criticals held back jointly (the web tests' HEAVY, under 10th)
    "held-back criticals": (_doc("10th", [_LINE, {**_LINE, "name": "v", "D": "D3"}],
                                 [_W3]), r"attacker\.weapons.*Devastating Wounds"),
    "ten held-back lines": (_doc("10th", [_gun(f"g{i}", 40, str(i + 1), "Devastating Wounds")
                                          for i in range(10)], [_W3]),
                            r"attacker\.weapons.*Devastating Wounds"),
    "target states": (_doc("11th", [_gun("bolt", 5, "1"), *(
        _gun(f"sniper {i}", 1, "D3", "Precision") for i in range(10))],
                           [{"name": "Guard", "count": 100, "T": 4, "Sv": 3, "W": 4},
                            {**_CAPTAIN, "count": 10}]), r"target\.models.*damage states"),
    "a line's totals": (_doc("11th", [{**_LINE, "count": 200, "A": "2D6"}],
                             [{**_W3, "count": 1, "W": 1}]),
                        r"attacker\.weapons.*w: .*attack dice"),
    "pooled saves on a big target": (_doc("11th", [_STRESS], _SAVE_GROUPS),
                                     r"attacker\.weapons.*target states x .* unsaved"),
    # one line of 10 x 2D6+6 attacks into 481 states (20 x W24): the states after each of
    # the 144 normal packets, 481 x 279 numbers each, too many to stack, are streamed
    # (``chain.after_normal``, memory-bound); priced as the stacked product, the model
    # predicted 1.3 s of what took 4.4 s of CPU
    "streamed criticals": (_doc("11th", [{
        "name": "g", "count": 10, "A": "2D6+6", "skill": 3, "S": 14, "AP": -3, "D": "10D3",
        "abilities": ["Devastating Wounds", "Sustained Hits 2", "Twin-linked"]}],
        [{"name": "m", "count": 20, "T": 5, "Sv": 3, "W": 24, "invuln": 2, "fnp": 6}]),
        r"attacker\.weapons.*481 target states x 279 unsaved"),
    # the long run's slowest scenario (benchmarks/fuzz_run.py): 11th pooled saves of a
    # few hundred dice into 9 target states, each class's Horner scheme memory-bound
    # (predicted 0.75 s, 12 s of CPU on the loaded machine)
    "pooled saves on few states": (_doc("11th", [
        {**_gun("a", 12, "3", "Sustained Hits 1", "Rapid Fire D6", "Indirect Fire"),
         "A": "3D6", "skill": 2, "AP": -3},
        {**_gun("b", 18, "D6+1", "Hazardous"), "A": "D6", "skill": 5, "AP": -5},
        {**_gun("c", 19, "D6+1", "Anti-Monster 3+", "Torrent", "Anti-Infantry 4+",
                "Sustained Hits 2", "Hazardous", "Lethal Hits", "Indirect Fire"),
         "A": "6D6", "skill": 5, "S": 1, "AP": -2}],
        [{"name": "x", "count": 1, "T": 1, "Sv": 2, "W": 8},
         {"name": "y", "count": 1, "T": 1, "Sv": 7, "W": 1}]),
        r"attacker\.weapons.*9 target states x .* unsaved"),
    "Precision into a led unit": (_doc("11th", [
        {**_STRESS, "A": "2", "abilities": [*_STRESS["abilities"], "Precision"]},
        _gun("bolt", 40, "1")],
        [{"name": "Guard", "count": 20, "T": 4, "Sv": 3, "W": 3}, {**_CAPTAIN, "count": 3}]),
        r"attacker\.weapons.*target states"),
}


#: With Precision the operators work on the states the chain meets (``reach``): the time
#: of the chain is known as those are found, so the exploration starts (its budget,
#: ``size.check_explored``, stops it) but no chain runs, not even the Lethal Hits
#: search's (24.23) without the unsaved counts.
AFTER_EXPLORING = {"Precision into a led unit"}


@pytest.mark.parametrize("kind", list(OVERSIZE))
def test_every_kind_of_oversize_is_refused_before_the_work(
        kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The work the size model predicts never starts for a refused scenario."""
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the work started before the size check refused")

    for name in (("run_chain", "run_deferred") if kind in AFTER_EXPLORING else
                 ("run_chain", "run_deferred", "compound", "reach")):
        monkeypatch.setattr(exact, name, refuse)
    doc, place = OVERSIZE[kind]
    with pytest.raises(TooLargeError, match=place + r".*monte-carlo") as info:
        calculate(doc)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("kind", list(OVERSIZE))
def test_the_monte_carlo_twin_runs_what_the_exact_engine_refuses(kind: str) -> None:
    doc, _ = OVERSIZE[kind]
    r = calculate({**doc, "method": "monte-carlo", "trials": 200, "seed": 1})
    assert r.method == "monte-carlo" and abs(sum(r.damage.pmf) - 1) < 1e-9


def test_the_same_held_back_lines_under_11th_are_computed() -> None:
    """11th: each line's mortal wounds right after it (24.10), nothing is carried."""
    doc = _doc("11th", [_gun(f"g{i}", 10, str(i + 1), "Devastating Wounds")
                        for i in range(10)], [{**_W3, "count": 10}])
    assert abs(sum(calculate(doc).damage.pmf) - 1) < 1e-9


def test_a_too_large_error_is_a_scenario_error_for_callers_that_catch_those() -> None:
    assert issubclass(TooLargeError, ScenarioError)


def test_a_batch_keeps_an_oversize_matchup_as_its_too_large_error_in_its_place() -> None:
    doc, _ = OVERSIZE["held-back criticals"]
    small = {"models": [{"name": "Grot", "count": 2, "T": 2, "Sv": 7, "W": 1}]}
    out = calculate_many(doc, targets=[Target.model_validate(small),
                                       Target.model_validate(doc["target"])])
    assert not isinstance(out[0], ScenarioError)
    assert isinstance(out[1], TooLargeError) and "monte-carlo" in str(out[1])


def test_an_oversize_step_of_a_sequence_is_a_too_large_error_naming_the_step() -> None:
    doc, _ = OVERSIZE["held-back criticals"]
    seq = Sequence.model_validate({"rules": "10th", "target": doc["target"], "steps": [
        {"phase": "shooting", "attacker": doc["attacker"]}]})
    with pytest.raises(TooLargeError, match=r"^steps\.0\.attacker\.weapons: .*monte-carlo"):
        calculate_sequence(seq)


@st.composite
def _targets(draw: st.DrawFn) -> dict[str, Any]:
    models: list[dict[str, Any]] = []
    for i in range(draw(st.integers(1, 3))):
        w = draw(st.integers(1, 4))
        entry = {"name": f"m{i}", "count": draw(st.integers(1, 8)), "T": 4,
                 "Sv": draw(st.integers(2, 5)), "W": w}
        if w > 1 and draw(st.booleans()):
            entry["wounds_lost"] = draw(st.integers(1, w - 1))
        models.append(entry)
    for i in range(draw(st.integers(0, 2))):
        models.append({**_CAPTAIN, "name": f"c{i}", "W": draw(st.integers(2, 6))})
    return {"models": models}


@pytest.mark.slow
@settings(max_examples=300, deadline=None, derandomize=True)
@given(target=_targets(), precision=st.booleans(), mixed=st.booleans(),
       damage=st.sampled_from(("1", "D3", "2")))
def test_predicted_states_are_within_two_times_the_explored_ones(
        target: dict[str, Any], precision: bool, mixed: bool, damage: str) -> None:
    """The states the engine explores for one weapon (with Precision, 24.28, when drawn,
    and then also a line without it when ``mixed``) against the prediction made from the
    allocation groups alone."""
    t = Target.model_validate(target)
    precision = precision and any(m.character for m in t.models)
    mixed = mixed or not precision
    doc = {"rules": "10th", "target": target, "attacker": {"weapons": [
        _gun("gun", 1, damage, *(["Precision"] if precision else [])),
        *([_gun("bolt", 1, damage)] if mixed and precision else [])]}}
    seen: list[int] = []
    real = exact.run_chain

    def count(lines: Any, nms: Any, x0: Any, mp: Any, per_line: bool) -> Any:
        seen.append(x0.shape[0])
        return real(lines, nms, x0, mp, per_line)

    with pytest.MonkeyPatch.context() as m, general_chain():  # the general path's states
        m.setattr(exact, "run_chain", count)
        calculate(doc)
    groups = build_groups(t)
    losses = wound_losses([Packet((), tuple(float(p) for p in DiceExpr.parse(damage).pmf()), None,
                                  False)], groups)
    lines = len(doc["attacker"]["weapons"])
    predicted = predicted_states(groups, precision, losses, mixed=mixed, orders=lines,
                                 precision_orders=int(precision))
    assert seen[-1] / 2 <= predicted <= 2 * seen[-1], (seen[-1], predicted)


def test_a_target_past_the_predicted_states_is_still_refused_naming_the_field(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The exploration's own bound (``allocation.MAX_STATES``, here lowered to 50 below
    the prediction's bound) stops a target whose states outgrow the prediction."""
    from tactica.combat.exact import allocation

    monkeypatch.setattr(allocation, "MAX_STATES", 50)
    doc = _doc("11th", [_gun("gun", 10, "1")], [_W3])  # 20 W3 models: 61 states
    with pytest.raises(TooLargeError, match=r"^target\.models: .*monte-carlo"):
        calculate(doc)


def test_a_precision_oversize_is_refused_part_way_through_the_exploration() -> None:
    """The Precision case's exploration is stopped by its budget (``size.check_explored``)
    before it has found every transition the full exploration finds, with the one-line
    message (what was found so far, a floor of the time)."""
    doc, _ = OVERSIZE["Precision into a led unit"]
    real = exact.reach
    stopped: list[int] = []

    def watched(space: Any, plan: Any, start: Any, maps: Any, budget: Any) -> Any:
        def ask(found: Any, edges: int) -> None:
            stopped.append(edges)
            budget(found, edges)

        free = exact.StateSpace(space.groups)
        full_ops, full_maps = real(free, plan, [free.add(space.states[i]) for i in start],
                                   list(maps))
        stopped.append(sum(len(op.a) + len(op.b)
                           for op in (*full_ops.values(), *full_maps.values())))
        return real(space, plan, start, maps, ask)

    with pytest.MonkeyPatch.context() as m:
        m.setattr(exact, "reach", watched)
        with pytest.raises(TooLargeError, match=r"^attacker\.weapons: too large for the exact "
                           r"engine \(at least \d+ target states x \d+ unsaved counts: "
                           r"over [\d.]+ s\); use method monte-carlo$"):
            calculate(doc)
    full, at_refusal = stopped[0], stopped[-1]
    assert at_refusal < full


def _largest_checked(doc: dict[str, Any]) -> tuple[float, list[float]]:
    """The longest time the size model compared with ``MAX_SECONDS`` while computing
    ``doc`` (a line's totals, the target's chain), and the damage pmf."""
    seen = [0.0]
    check, compound = size.check_chain, size.compound_seconds

    def checked(cost: size.ChainCost, states: int, unsaved: int, time: bool = True) -> Any:
        if time:
            seen.append(cost.seconds)
        return check(cost, states, unsaved, time)

    def compounded(dice: int, shape: tuple[int, ...]) -> float:
        seen.append(compound(dice, shape))
        return seen[-1]

    with pytest.MonkeyPatch.context() as m:
        m.setattr(size, "check_chain", checked)  # the engine's checks (size.ChainSizing)
        m.setattr(size, "compound_seconds", compounded)
        pmf = calculate(doc).damage.pmf
    return max(seen), pmf


def _at_and_below_the_limit(doc: dict[str, Any]) -> None:
    """With ``MAX_SECONDS`` lowered to the longest time checked for ``doc`` it is still
    computed (the budget never refuses what the final checks accept), with the same
    numbers; a little below, refused."""
    limit, pmf = _largest_checked(doc)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(size, "MAX_SECONDS", limit)
        assert calculate(doc).damage.pmf == pmf
        m.setattr(size, "MAX_SECONDS", limit * 0.99)
        with pytest.raises(TooLargeError, match=r"monte-carlo$"):
            calculate(doc)


def test_a_precision_scenario_at_the_time_limit_is_computed_and_refused_below_it() -> None:
    """The Precision case with half its attacks (a Lethal Hits search, 24.23, whose choice
    is made again with the unsaved counts: checked during the first exploration)."""
    doc, _ = OVERSIZE["Precision into a led unit"]
    gun, bolt = doc["attacker"]["weapons"]
    _at_and_below_the_limit({**doc, "attacker": {"weapons": [
        {**gun, "A": "1", "count": 10}, {**bolt, "count": 10}]}})


@settings(max_examples=25, deadline=None, derandomize=True)
@given(data=scenarios())
def test_generated_precision_scenarios_at_the_time_limit_are_computed(
        data: dict[str, Any]) -> None:
    """Over generated attached units and lines (``test_reach``) with a Precision line
    (whose chain's time is checked while and after the states are explored only)."""
    if any("Precision" in w["abilities"] for w in data["attacker"]["weapons"]):
        _at_and_below_the_limit(data)


_NO_DW = Packet(save=(0.0,), damage=(0.0, 1.0), fnp=None, precision=False, mortal=True)


def test_streamed_criticals_cost_at_least_a_pass_over_the_states_each() -> None:
    """Past ``chain.STACK_LIMIT`` numbers the states after each normal packet are streamed:
    each (n, m) cell of the line's pmf is one pass ``r[m] += p * x`` over the states x
    unsaved array, which reads and writes its 8-byte numbers: at least 1 ns each on any
    machine's memory (16 GB/s), whatever the dense multiply-add rate. The prediction
    covers that floor past the limit, and does not fall as it is crossed."""
    from tactica.combat.exact.chain import STACK_LIMIT

    rows, cols, states = 144, 68, 481
    nm = np.full((rows, cols), 1.0 / (rows * cols))
    at_limit = STACK_LIMIT // (rows * states)  # the widest unsaved axis still stacked
    mortal = Packet(save=(0.0,), damage=(0.0, 1.0), fnp=None, precision=False, mortal=True)

    def seconds(unsaved: int) -> float:
        return size.chain_cost([[nm]], states, unsaved, [0], [mortal], True).seconds

    streamed = at_limit + 1
    assert seconds(streamed) >= rows * cols * states * streamed * 1e-9
    assert seconds(streamed) >= seconds(at_limit)


def test_a_pooled_class_costs_at_least_a_pass_over_its_numbers() -> None:
    """11th pooled saves (05.04): each class's Horner scheme (``chain._class_step``) steps
    over a states x counts x unsaved array, copying and adding it: with few states its
    dense products are cheap, but every number is still read and written, at least 2 ns
    each on any machine's memory. The prediction covers that floor."""
    rows, states, unsaved, classes = 313, 9, 565, 2
    nm = np.full((rows, 1), 1.0 / rows)
    cost = size.chain_cost([[nm]], states, unsaved, [classes], [_NO_DW], True).seconds
    assert cost >= classes * states * unsaved * rows * rows / 2 * 2e-9


# --- the default run's samples (tests/volume.py): each property below runs a few
# dozen examples by default and its full count as its ``_at_volume`` twin (slow) ---
(test_generated_precision_scenarios_at_the_time_limit_are_computed,
 test_generated_precision_scenarios_at_the_time_limit_are_computed_at_volume) = sampled(
    test_generated_precision_scenarios_at_the_time_limit_are_computed, 10)
