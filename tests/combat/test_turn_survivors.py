"""Survivors carry their weapons (``combat.turn.survivors``, ``combat.turn.exact``; 05.04.04:
destroyed models and units cannot attack, be selected or be targeted).

Metamorphic: splitting a model entry into two identical ones never changes a number;
a target destroyed before its fight back never fights back; a destroyed unit does nothing
more. Independent: a tiny fight back enumerated die by die (Fractions).
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tactica.combat.contract.result import Distribution
from tactica.combat.contract.scenario import ScenarioError
from tactica.combat.contract.sequence import Sequence, SequenceResult
from tactica.combat.turn.exact import calculate_sequence
from tactica.combat.turn.sampled import simulate_sequence
from volume import sampled

FIELDS = ("attacks", "hits", "wounds", "unsaved", "damage", "models_destroyed",
          "attacker_mortal_wounds")


def _gap(a: Distribution | None, b: Distribution | None) -> float:
    assert (a is None) == (b is None)
    if a is None or b is None:
        return 0.0
    x, y = np.asarray(a.pmf), np.asarray(b.pmf)
    n = max(len(x), len(y))
    return float(np.abs(np.pad(x, (0, n - len(x))) - np.pad(y, (0, n - len(y)))).max())


def _same(r: SequenceResult, s: SequenceResult, tol: float = 1e-12) -> None:
    for f in FIELDS:
        assert _gap(getattr(r, f), getattr(s, f)) <= tol, f
    assert abs(r.p_unit_destroyed - s.p_unit_destroyed) <= tol
    for a, b in zip(r.steps, s.steps, strict=True):
        for f in FIELDS:
            assert _gap(getattr(a, f), getattr(b, f)) <= tol, (a.step, f)
        assert _gap(a.attacker_losses, b.attacker_losses) <= tol, a.step
        assert abs(a.p_happens - b.p_happens) <= tol, a.step


def _line(count: int, a: str, skill: int, s: int, ap: int, d: str) -> dict[str, Any]:
    return {"name": "Blade", "count": count, "range": "Melee", "A": a, "skill": skill,
            "S": s, "AP": ap, "D": d}


def _entry(name: str, count: int, p: dict[str, int]) -> dict[str, Any]:
    return {"name": name, "count": count, **p}


def _turn(target: list[dict[str, Any]], charger: list[dict[str, Any]], back: dict[str, Any],
          blade: dict[str, Any], shots: int, first: bool) -> dict[str, Any]:
    steps: list[dict[str, Any]] = []
    if shots:
        steps.append({"phase": "shooting", "attacker": {"name": "Guns", "weapons": [
            {"name": "Gun", "count": shots, "A": "1", "skill": 3, "S": 4, "D": "1"}]}})
    steps += [{"phase": "charge", "unit": "Chargers", "distance": 7},
              {"phase": "fight", "attacker": {"name": "Chargers", "weapons": [blade]},
               "models": charger},
              {"phase": "fight", "fights_back": True, "fights_first": first,
               "attacker": {"name": "Target", "weapons": [back]}}]
    return {"rules": "11th", "target": {"name": "Target", "models": target}, "steps": steps}


PROFILE = st.fixed_dictionaries({"T": st.integers(3, 5), "Sv": st.integers(3, 6),
                                 "W": st.integers(1, 2)})


@settings(max_examples=12, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(tp=PROFILE, cp=PROFILE, tn=st.integers(2, 5), cn=st.integers(2, 4),
       tsplit=st.integers(1, 4), csplit=st.integers(1, 3), shots=st.integers(0, 3),
       first=st.booleans(), d=st.sampled_from(["1", "2"]))
def test_splitting_an_entry_changes_nothing(tp: dict[str, int], cp: dict[str, int], tn: int,
                                            cn: int, tsplit: int, csplit: int, shots: int,
                                            first: bool, d: str) -> None:
    """The same units written as one entry or as two identical entries (a Sergeant x1 +
    models x4 is a squad of 5): every distribution of the turn and of each step is the
    same, whoever fights first; the lines are one per model, matched to the entries."""
    tsplit, csplit = min(tsplit, tn - 1), min(csplit, cn - 1)
    blade = _line(cn, "2", 3, 4, -1, d)
    back = _line(tn, "2", 4, 4, 0, "1")
    one = _turn([_entry("M", tn, tp)], [_entry("C", cn, cp)], back, blade, shots, first)
    two = _turn([_entry("Sgt", tsplit, tp), _entry("M", tn - tsplit, tp)],
                [_entry("Champ", csplit, cp), _entry("C", cn - csplit, cp)],
                back, blade, shots, first)
    a = calculate_sequence(Sequence.model_validate(one))
    b = calculate_sequence(Sequence.model_validate(two))
    _same(a, b)
    # and with the split written out in carried_by
    two["steps"][-1]["carried_by"] = {"Blade": {"Sgt": tsplit, "M": tn - tsplit}}
    _same(a, calculate_sequence(Sequence.model_validate(two)))


def test_a_library_squad_fights_back_as_its_survivors() -> None:
    """Intercessor Squad from the library (Sergeant x1 + Intercessors x4, one stat line
    each but identical) against the same squad merged into one entry of 5."""
    from tactica.library import load_library

    lib = load_library()
    squad = lib.target("Intercessor Squad", models=5)
    assert len(squad.models) == 2
    merged = squad.models[1].model_copy(update={"count": 5})
    blade = _line(3, "4", 3, 5, -1, "2")
    back = _line(5, "3", 3, 4, 0, "1")
    riders = [_entry("Rider", 3, {"T": 5, "Sv": 4, "W": 3})]
    split = _turn([m.model_dump() for m in squad.models], riders, back, blade, 4, False)
    one = _turn([merged.model_dump()], riders, back, blade, 4, False)
    _same(calculate_sequence(Sequence.model_validate(split)),
          calculate_sequence(Sequence.model_validate(one)))


def _kill(skill: int, wound: int) -> Fraction:
    """P(one attack hits on skill+ and wounds on wound+), every pair of faces counted."""
    return Fraction(sum(1 for h, w in product(range(1, 7), repeat=2)
                        if h >= skill and w >= wound), 36)


def _binomial(n: int, p: Fraction) -> dict[int, Fraction]:
    """The number of successes of n attacks, every outcome enumerated."""
    out: dict[int, Fraction] = {}
    for hits in product((True, False), repeat=n):
        k = sum(hits)
        out[k] = out.get(k, Fraction(0)) + np.prod([p if h else 1 - p for h in hits])
    return out


def test_fight_back_by_enumeration() -> None:
    """Two-model units, W1, no saves (Sv 7): the chargers (a Sergeant x1 + a model x1,
    one knife each: 4+ to hit, S3 v T3 4+ to wound) kill k of the target's 2 models (a
    Sergeant x1 + a model x1); its 2 - k survivors fight back, one knife each, 4+/4+
    (S3 v T3). The chargers' losses, enumerated, against the engine's."""
    p = _kill(4, 4)
    killed = _binomial(2, p)
    losses: dict[int, Fraction] = {}
    for k, pk in killed.items():
        for j, pj in _binomial(2 - k, p).items():
            losses[j] = losses.get(j, Fraction(0)) + pk * pj
    grot = {"T": 3, "Sv": 7, "W": 1}
    knife = {"name": "Knife", "count": 2, "range": "Melee", "A": "1", "skill": 4, "S": 3,
             "D": "1"}
    doc = {"rules": "11th", "target": {"models": [_entry("Boss", 1, grot),
                                                  _entry("Grot", 1, grot)]},
           "steps": [{"phase": "charge", "unit": "Gits", "distance": 2},
                     {"phase": "fight", "attacker": {"name": "Gits", "weapons": [knife]},
                      "models": [_entry("Boss", 1, grot), _entry("Git", 1, grot)]},
                     {"phase": "fight", "fights_back": True,
                      "attacker": {"name": "Grots", "weapons": [knife]}}]}
    r = calculate_sequence(Sequence.model_validate(doc))
    back = r.steps[-1]
    assert back.attacker_losses is not None
    for j in range(3):
        assert back.attacker_losses.pmf[j] == pytest.approx(float(losses.get(j, 0)), abs=1e-12)
    # the fight back happens unless both Grots died: 1 - (1/4)^2
    assert back.p_happens == pytest.approx(float(1 - killed[2]), abs=1e-12)
    assert back.attacks.pmf[0] == pytest.approx(float(killed[2]), abs=1e-12)
    assert back.attacks.pmf[1] == pytest.approx(float(killed[1]), abs=1e-12)


@settings(max_examples=10, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(tn=st.integers(1, 4), w=st.integers(1, 2), d=st.integers(4, 9), a=st.integers(1, 6))
def test_a_destroyed_target_never_fights_back(tn: int, w: int, d: int, a: int) -> None:
    """No shooting: the target can only be destroyed by the chargers, so the fight back
    happens with P(charge made) - P(destroyed), and never where the target is gone."""
    doc = _turn([_entry("Sgt", 1, {"T": 4, "Sv": 5, "W": w})] +
                ([_entry("M", tn - 1, {"T": 4, "Sv": 5, "W": w})] if tn > 1 else []),
                [_entry("C", 2, {"T": 4, "Sv": 4, "W": 2})], _line(tn, "2", 4, 4, 0, "1"),
                _line(2, str(a), 3, 5, -1, "2"), 0, False)
    doc["steps"][0]["distance"] = d
    r = calculate_sequence(Sequence.model_validate(doc))
    charge, back = r.steps[0], r.steps[-1]
    assert charge.p_charge is not None
    assert back.p_happens == pytest.approx(charge.p_charge - r.p_unit_destroyed, abs=1e-12)
    assert back.attacks.pmf[0] == pytest.approx(1 - back.p_happens, abs=1e-12)


def test_a_destroyed_unit_does_nothing_more() -> None:
    """The target fights first (Fights First) and can destroy the lone charger: the
    charger's fight happens with P(charge made) - P(charger destroyed); a second charge
    at a target the first unit destroyed is not declared, its fight does not happen."""
    doc = _turn([_entry("M", 5, {"T": 4, "Sv": 3, "W": 2})],
                [_entry("Hero", 1, {"T": 3, "Sv": 6, "W": 1})],
                _line(5, "2", 3, 4, 0, "1"), _line(1, "3", 3, 4, 0, "1"), 0, True)
    r = calculate_sequence(Sequence.model_validate(doc))
    back, hero = r.steps[-2], r.steps[-1]
    assert back.fights_back and hero.unit == "Chargers"
    assert back.attacker_losses is not None and r.steps[0].p_charge is not None
    assert hero.p_happens == pytest.approx(r.steps[0].p_charge - back.attacker_losses.pmf[1],
                                           abs=1e-12)
    # Grots shot to death cannot be charged: P(fight) = P(charge roll) x P(alive)
    doc = {"rules": "11th", "target": {"models": [_entry("Grot", 2, {"T": 2, "Sv": 7,
                                                                      "W": 1})]},
           "steps": [{"phase": "shooting", "attacker": {"name": "Guns", "weapons": [
               {"name": "Gun", "count": 4, "A": "1", "skill": 3, "S": 4, "D": "1"}]}},
               {"phase": "charge", "unit": "Boyz", "distance": 7},
               {"phase": "fight", "attacker": {"name": "Boyz", "weapons": [
                   _line(1, "1", 3, 4, 0, "1")]}}]}
    r = calculate_sequence(Sequence.model_validate(doc))
    alive = 1 - r.steps[0].p_unit_destroyed
    assert 0.1 < alive < 0.5
    assert r.steps[1].p_happens == pytest.approx(alive, abs=1e-12)
    assert r.steps[2].p_happens == pytest.approx(alive * 21 / 36, abs=1e-12)


def test_monte_carlo_twin_follows_the_survivors() -> None:
    """The sampled twin with two entries: the fight back's attacks and the chargers'
    losses within 5 standard errors of the exact ones."""
    doc = _turn([_entry("Sgt", 1, {"T": 4, "Sv": 3, "W": 2}),
                 _entry("M", 4, {"T": 4, "Sv": 3, "W": 2})],
                [_entry("C", 10, {"T": 5, "Sv": 3, "W": 2})], _line(5, "3", 3, 4, 0, "1"),
                _line(10, "4", 3, 5, -1, "2"), 0, False)
    doc["steps"][0]["distance"] = 2
    seq = Sequence.model_validate(doc)
    exact, sampled = calculate_sequence(seq), simulate_sequence(seq, 20_000, seed=5)
    for f in ("attacks", "attacker_losses"):
        x, y = getattr(exact.steps[-1], f), getattr(sampled.steps[-1], f)
        sd = float(np.sqrt(np.dot(np.arange(len(x.pmf)) ** 2, x.pmf) - x.mean ** 2))
        assert abs(x.mean - y.mean) <= 5 * sd / np.sqrt(20_000) + 1e-9, f
    assert exact.steps[-1].p_happens < 0.1  # the squad is mostly dead before it fights


@pytest.mark.parametrize(("weapons", "carried", "message"), [
    ([_line(2, "1", 3, 4, 0, "1")], {}, r"steps\.2\.attacker\.weapons\.0: which models carry "
                                        r"2 Blade\? The unit is 1 Sgt, 4 M"),
    ([_line(5, "1", 3, 4, 0, "1")], {"Blade": "Nobody"},
     r"weapons\.0: carried_by names 'Nobody'"),
    ([_line(5, "1", 3, 4, 0, "1")], {"Blade": {"Sgt": 1, "M": 3}},
     r"weapons\.0: carried_by gives 4 Blade; the line has 5"),
])
def test_a_line_no_entry_can_carry_is_refused(weapons: list[dict[str, Any]],
                                              carried: dict[str, Any], message: str) -> None:
    doc = _turn([_entry("Sgt", 1, {"T": 4, "Sv": 3, "W": 2}),
                 _entry("M", 4, {"T": 4, "Sv": 3, "W": 2})],
                [_entry("C", 2, {"T": 4, "Sv": 3, "W": 2})], weapons[0],
                _line(2, "2", 3, 4, 0, "1"), 0, False)
    doc["steps"][-1]["carried_by"] = carried
    with pytest.raises(ScenarioError, match=message):
        calculate_sequence(Sequence.model_validate(doc))


def _chargers(units: int, models: int) -> dict[str, Any]:
    """``units`` units of ``models`` W3 models charge; the target fights each first."""
    steps: list[dict[str, Any]] = [{"phase": "charge", "unit": f"U{u}", "distance": 7}
                                   for u in range(units)]
    for u in range(units):
        steps += [{"phase": "fight", "attacker": {"name": f"U{u}", "weapons": [
            _line(models, "2", 3, 5, -1, "1")]},
            "models": [_entry("Trooper", models, {"T": 5, "Sv": 4, "W": 3})]},
            {"phase": "fight", "fights_back": True, "fights_first": True,
             "against": f"U{u}", "attacker": {"name": "Target", "weapons": [
                 _line(10, "3", 3, 4, 0, "1")]}}]
    return {"rules": "11th", "target": {"name": "Target", "models": [
        _entry("Sgt", 1, {"T": 4, "Sv": 3, "W": 2}), _entry("M", 9, {"T": 4, "Sv": 3, "W": 2})]},
        "steps": steps}


def test_a_turn_too_large_is_refused_before_any_step_is_computed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Three units of ten W3 models fought: 2^3 x 31^3 worlds; refused by the size model
    alone (no step's scenario is computed; the time is in ``benchmarks/``)."""
    import tactica.combat.turn.exact as turn

    def never(*_: Any) -> Any:
        raise AssertionError("a step was computed before the refusal")

    monkeypatch.setattr(turn, "calculate_exact_from", never)
    with pytest.raises(turn.TooLargeError, match=r"about 238,328 combinations.*monte-carlo"):
        calculate_sequence(Sequence.model_validate(_chargers(3, 10)))


def test_the_predicted_worlds_bound_the_worlds_met() -> None:
    """One fought unit of 5 W3 models: at most 2 x 16 worlds predicted; the turn meets
    no more (counted after each step)."""
    import tactica.combat.turn.exact as turn

    seq = Sequence.model_validate(_chargers(1, 5))
    t = turn._Turn(seq)
    predicted = turn.predicted_worlds(seq, t.against, t.models)
    assert predicted == 2 * 16
    most = 0
    for i in turn.resolution_order(seq, t.rules)[0]:
        st = seq.steps[i]
        if st.phase == "charge":
            t.charge(st)
        elif st.fights_back:
            t.fight_back(i, st)
        else:
            t.attack(i, st)
        most = max(most, len(t.worlds))
    assert 16 < most <= predicted


def test_deadly_demise_is_each_units_own_within_6_inches() -> None:
    """A lone model (W1, no save) with Deadly Demise 1. The Guns shoot from 20": one
    shot, 3+ to hit, S4 v T3 3+ to wound: it dies with 16/36, and they are not within
    6" (no mortal wounds for them, a note). The Riders charge 9" (10/36) and fight: 2+
    to hit, S6 v T3 2+ to wound: 25/36. Only a model destroyed after their charge counts
    for them: P(it dies then) = 20/36 x 10/36 x 25/36, a 6 (1/6) gives 1 mortal wound."""
    doc = {"rules": "11th", "target": {"name": "Walker", "deadly_demise": "1", "models": [
        _entry("Walker", 1, {"T": 3, "Sv": 7, "W": 1})]},
        "steps": [{"phase": "shooting", "context": {"distance": 20}, "attacker": {
            "name": "Guns", "weapons": [{"name": "Gun", "A": "1", "skill": 3, "S": 4,
                                         "D": "1"}]}},
            {"phase": "charge", "unit": "Riders", "distance": 9},
            {"phase": "fight", "attacker": {"name": "Riders", "weapons": [
                _line(1, "1", 2, 6, 0, "1")]}}]}
    r = calculate_sequence(Sequence.model_validate(doc))
    demise = {nd.label: nd.distribution for nd in r.other_mortal_wounds}
    assert len(demise) == 1
    (label, riders), = demise.items()
    assert "Riders suffers" in label and "once its charge is made" in label
    near = Fraction(20, 36) * Fraction(10, 36) * Fraction(25, 36)
    assert riders.pmf[1] == pytest.approx(float(near / 6), abs=1e-12)
    assert any("Guns is taken to be more than 6\" away" in n for n in r.notes)
    # at 5" the Guns are within 6" from the start: they count the shooting's kill too
    doc["steps"][0]["context"]["distance"] = 5
    r = calculate_sequence(Sequence.model_validate(doc))
    guns = next(nd.distribution for nd in r.other_mortal_wounds if "Guns suffers" in nd.label)
    assert guns.pmf[1] == pytest.approx(float(r.models_destroyed.pmf[1]) / 6, abs=1e-12)
    sampled = simulate_sequence(Sequence.model_validate(doc), 40_000, seed=2)
    got = {nd.label: nd.distribution.pmf[1] for nd in sampled.other_mortal_wounds}
    for nd in r.other_mortal_wounds:
        sd = np.sqrt(nd.distribution.pmf[1] * (1 - nd.distribution.pmf[1]) / 40_000)
        assert abs(got[nd.label] - nd.distribution.pmf[1]) <= 5 * sd + 1e-9, nd.label


# --- the default run's samples (tests/volume.py): each property below runs a few
# dozen examples by default and its full count as its ``_at_volume`` twin (slow) ---
(test_splitting_an_entry_changes_nothing,
 test_splitting_an_entry_changes_nothing_at_volume) = sampled(
    test_splitting_an_entry_changes_nothing, 5)
