"""The result document of an exact calculation (``exact._finish``: ``readout`` and the
whole document validated at once) is the one the engine built model by model before:
the same fields, the same floats bit for bit, the same texts, the same JSON. The earlier
formulation (every ``Distribution``, summary and stage explanation validated on its own,
the read-out state by state over every group, each mean ``np.dot`` with a new
``np.arange``) is written out here as the engine had it and compared with the engine on
real library units into every target preset, on hand-picked documents (Command Re-roll,
Hazardous, mortal wounds before the attacks, a side distribution weighed by a CHARACTER's
death, Precision) and on generated scenarios. The read-out of a space of one group
(``readout._one_group``) is compared with the one of any space (``readout._by_states``)."""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from tactica.combat.contract.result import (
    Distribution,
    NamedDistribution,
    Result,
    StageExplanation,
    WeaponSummary,
    pmf_mean,
    short_mean,
)
from tactica.combat.contract.scenario import Scenario, ScenarioError
from tactica.combat.exact import engine as exact
from tactica.combat.exact.allocation import ENDED, Group, StateSpace, build_groups
from tactica.combat.exact.profile import ResolvedWeapon, save_probability
from tactica.combat.exact.readout import _by_states, _one_group, conv_all, read_out
from tactica.combat.sampled.engine import simulate
from tactica.rules.base import RuleSet
from volume import sampled

from .library_sample import library_sample

FloatArray = npt.NDArray[np.float64]


# --- the earlier formulation, as the engine had it ---------------------------------------


def _plain_from_array(pmf: FloatArray, length: int | None = None) -> Distribution:
    p = np.asarray(pmf, dtype=np.float64)
    if length is not None:
        p = np.concatenate([p, np.zeros(max(0, length - len(p)))])[:length]
    values = p.tolist()
    if length is None:
        n = len(values)
        while n and not values[n - 1] > 0.0:
            n -= 1
        p, values = (p[:n], values[:n]) if n else (np.ones(1), [1.0])
    mean = float(np.dot(np.arange(len(values), dtype=np.float64), p))
    return Distribution(mean=mean, pmf=tuple(values))


def _plain_antidiagonal(nm: FloatArray) -> FloatArray:
    rows, cols = nm.shape
    if rows == 1 or cols == 1:
        out1: FloatArray = nm.ravel() + 0.0
        return out1
    index = np.add.outer(np.arange(rows), np.arange(cols)).ravel()
    out: FloatArray = np.bincount(index, weights=nm.ravel(),
                                  minlength=rows + cols - 1).astype(np.float64)
    return out


def _plain_mean(p: FloatArray) -> float:
    return float(np.dot(np.arange(len(p)), p))


def _plain_conv_all(pmfs: list[FloatArray]) -> FloatArray:
    if len(pmfs) == 1:
        return pmfs[0] * 1.0
    out = np.array([1.0])
    for p in pmfs:
        out = np.convolve(out, p)
    return out


def _plain_padded(a: FloatArray, b: FloatArray) -> FloatArray:
    shape = tuple(max(x, y) for x, y in zip(a.shape, b.shape, strict=True))
    out = np.zeros(shape)
    out[tuple(slice(0, n) for n in a.shape)] += a
    out[tuple(slice(0, n) for n in b.shape)] += b
    return out


def _plain_marginal(branches: Any, wi: int, part: int) -> FloatArray:
    out: FloatArray | None = None
    for br in branches:
        weight = 1.0
        for wj, (_, nm) in enumerate(br):
            if wj != wi:
                weight *= float(nm.sum())
        term = weight * br[wi][part]
        out = term if out is None else _plain_padded(out, term)
    assert out is not None
    return out


def _plain_summaries(weapons: tuple[ResolvedWeapon, ...], branches: Any
                     ) -> list[WeaponSummary]:
    out = []
    for wi, w in enumerate(weapons):
        w_hits = _plain_marginal(branches, wi, 0)
        w_nm = _plain_marginal(branches, wi, 1)
        crit = float(np.dot(w_nm.sum(axis=0), np.arange(w_nm.shape[1])))
        out.append(WeaponSummary(weapon=w.name, attacks=_plain_mean(w.attacks_pmf),
                                 hits=_plain_mean(w_hits),
                                 wounds=_plain_mean(_plain_antidiagonal(w_nm)),
                                 critical_wounds=crit))
    return out


def _plain_read_out(space: StateSpace, final: FloatArray, keywords: tuple[str, ...]
                    ) -> tuple[FloatArray, FloatArray, float, FloatArray, float]:
    by_state = final.sum(axis=1)
    groups = space.groups
    w = [g.W for g in groups]
    wounds, models = [], []
    for s in space.states:
        wl = ml = 0
        for gi in range(len(groups)):
            k = s[2 * gi]
            if k:
                wl += s[2 * gi + 1] + (k - 1) * w[gi]
                ml += k
        wounds.append(wl)
        models.append(ml)
    start_wounds = space.wounds_left(space.initial)
    start_models = space.models_left(space.initial)
    damage = np.bincount(start_wounds - np.array(wounds, dtype=np.int64), weights=by_state,
                         minlength=start_wounds + 1).astype(np.float64)
    killed = np.bincount(start_models - np.array(models, dtype=np.int64), weights=by_state,
                         minlength=start_models + 1).astype(np.float64)
    chars = [gi for gi, g in enumerate(groups) if g.character] or (
        list(range(len(groups))) if "CHARACTER" in keywords else [])
    p_char = 0.0  # added left to right (Python's sum() compensates from 3.12 on)
    for p, s in zip(by_state.tolist(), space.states, strict=True):
        if any(s[2 * gi] < groups[gi].count for gi in chars):
            p_char += p
    return damage, killed, float(killed[start_models]), final.sum(axis=0), p_char


def _plain_hazard(weapons: tuple[ResolvedWeapon, ...], rules: RuleSet,
                  keywords: tuple[str, ...], stages: list[StageExplanation]) -> FloatArray:
    mw_each = rules.hazard_mortal_wounds(keywords)
    p_fail = rules.hazard_fails_on / 6
    haz = np.array([1.0])
    n_haz = sum(w.count for w in weapons if w.hazardous)
    for _ in range(n_haz):
        step = np.zeros(mw_each + 1)
        step[0], step[mw_each] = 1 - p_fail, p_fail
        haz = np.convolve(haz, step)
    if n_haz:
        stages.append(StageExplanation(
            weapon="Hazardous", stage="hazard",
            detail=f"{n_haz} hazard roll(s), each fails on 1-{rules.hazard_fails_on}: "
                   f"{mw_each} mortal wound(s) to the attacker"))
    return haz


def _plain_stages(weapons: tuple[ResolvedWeapon, ...], groups: tuple[Group, ...],
                  rules: RuleSet) -> list[StageExplanation]:
    out = []
    for w in weapons:
        for stage in ("attacks", "hit", "wound"):
            if stage in w.explanations:
                out.append(StageExplanation.model_validate(
                    {"weapon": w.name, "stage": stage, "detail": w.explanations[stage]}))
        texts = (f"{g.name}: {save_probability(g, w, rules)[1]}" for g in groups)
        out.append(StageExplanation(weapon=w.name, stage="save", detail="; ".join(texts)))
        out.append(StageExplanation(weapon=w.name, stage="damage",
                                    detail=w.explanations["damage"]))
    return out


def _plain_finish(prep: Any, done: Any) -> Result:
    """``exact._finish`` and ``readout.assemble`` as they were."""
    weapons, branches, named, rules = prep.weapons, done.branches, prep.named, prep.rules
    stages = _plain_stages(weapons, done.space.groups, rules) + [
        StageExplanation(weapon=label, stage="damage",
                         detail="mortal wounds before the attacks (06.02)")
        for label, _ in done.before]
    damage, killed, p_dead, unsaved, p_char = _plain_read_out(
        done.space, done.final, prep.scenario.target.keywords)
    hits = functools.reduce(_plain_padded, [_plain_conv_all([h for h, _ in br])
                                            for br in branches])
    wounds = functools.reduce(_plain_padded, [
        _plain_conv_all([_plain_antidiagonal(n) for _, n in br]) for br in branches])
    haz = _plain_hazard(weapons, rules, prep.scenario.attacker.keywords, stages)
    return Result(
        rules=rules.name,
        attacks=_plain_from_array(_plain_conv_all([w.attacks_pmf for w in weapons])),
        hits=_plain_from_array(hits),
        wounds=_plain_from_array(wounds),
        unsaved=_plain_from_array(unsaved),
        damage=_plain_from_array(damage),
        models_destroyed=_plain_from_array(killed, length=len(killed)),
        p_unit_destroyed=p_dead,
        attacker_mortal_wounds=_plain_from_array(haz),
        weapons=tuple(_plain_summaries(weapons, branches)),
        stages=tuple(stages),
        notes=tuple(dict.fromkeys(done.lines.notes + list(named.notes))),
        not_calculated=tuple(done.lines.not_calculated),
        effects_applied=named.applied,
        cp_spent=named.cp,
        other_mortal_wounds=tuple(
            NamedDistribution(label=label, distribution=_plain_from_array(pmf))
            for label, pmf in named.side_distributions(p_char)),
    )


# --- the comparison ------------------------------------------------------------------------


def _identical(a: Any, b: Any, where: str = "result") -> None:
    """``a`` is ``b`` value for value: the same types (Python floats, tuples, models with
    the same fields set), floats bit for bit (``float.hex``: -0.0 is not 0.0)."""
    assert type(a) is type(b), where
    if isinstance(a, BaseModel):
        assert a.model_fields_set == b.model_fields_set, where
        for name in type(a).model_fields:
            _identical(getattr(a, name), getattr(b, name), f"{where}.{name}")
    elif isinstance(a, tuple):
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            _identical(x, y, f"{where}[{i}]")
    elif isinstance(a, float):
        assert a.hex() == b.hex(), where
    else:
        assert a == b, where


def _done(scenario: Scenario) -> tuple[Any, Any]:
    """A calculation up to its final states, as ``calculate_exact`` makes it."""
    prep = exact._prepare(scenario)
    choice, found = exact._lethal_search(scenario, prep=prep)
    return prep, found if found is not None else exact._states(prep, choice, True, {}, None)


def _check(scenario: Scenario) -> Result:
    prep, done = _done(scenario)
    new, old = exact._finish(prep, done), _plain_finish(prep, done)
    _identical(new, old)
    assert new == old
    assert new.model_dump(mode="json") == old.model_dump(mode="json")
    assert new.model_dump_json() == old.model_dump_json()
    return new


@pytest.mark.slow
def test_library_results_are_the_documents_built_model_by_model() -> None:
    attackers, targets = library_sample(25)
    seen = 0
    kinds = {"weapons": 0, "character": 0, "critical": 0}
    for phase, attacker in attackers:
        for target in targets:
            try:
                s = Scenario(attacker=attacker, target=target, phase=phase)
                r = _check(s)
            except ScenarioError:  # too large for the exact engine
                continue
            seen += 1
            kinds["weapons"] += len(r.weapons) > 1
            kinds["character"] += any(m.character for m in target.models)
            kinds["critical"] += any(w.critical_wounds > 0 for w in r.weapons)
    assert seen >= 150 and all(v >= 5 for v in kinds.values()), (seen, kinds)


_GUN = {"name": "gun", "count": 3, "range": 24, "A": "2", "skill": 3, "S": 5, "AP": -1,
        "D": "D3"}
_TROOPS = {"name": "troops", "count": 5, "T": 4, "Sv": 3, "W": 2}
_LEADER = {"name": "leader", "count": 1, "T": 4, "Sv": 3, "W": 4, "character": True}

_DOCUMENTS: dict[str, dict[str, Any]] = {
    "command re-roll, two lines": {
        "attacker": {"weapons": [_GUN, {**_GUN, "name": "cannon", "count": 1, "D": "D6",
                                        "abilities": ["Devastating Wounds"]}]},
        "target": {"models": [_TROOPS]}, "effects": [{"command_reroll": "wound"}]},
    "hazardous, 10th": {
        "rules": "10th",
        "attacker": {"keywords": ["VEHICLE"],
                     "weapons": [{**_GUN, "abilities": ["Hazardous", "Blast"]}]},
        "target": {"models": [_TROOPS]}},
    "hazardous, 11th": {
        "attacker": {"weapons": [{**_GUN, "abilities": ["Hazardous"]}]},
        "target": {"models": [_TROOPS]}},
    "mortal wounds first, precision into a leader": {
        "attacker": {"weapons": [{**_GUN, "abilities": ["Precision"]}]},
        "target": {"models": [_TROOPS, _LEADER]}, "effects": [{"mortal_wounds": "D3"}]},
    "a side distribution weighed by a CHARACTER's death": {
        "phase": "fight",
        "attacker": {"keywords": ["INFANTRY"],
                     "weapons": [{**_GUN, "range": "Melee", "count": 2, "A": "1"}]},
        "target": {"keywords": ["GENESTEALER CULTS", "INFANTRY", "CHARACTER"],
                   "models": [{**_TROOPS, "count": 2}]},
        "effects": ["Saintly Paroxysm"]},
    "wounded, feel no pain": {
        "attacker": {"weapons": [_GUN]},
        "target": {"models": [{**_TROOPS, "wounds_lost": 1, "fnp": 5}]}},
}


def test_hand_picked_documents_are_the_documents_built_model_by_model() -> None:
    for key, doc in _DOCUMENTS.items():
        r = _check(Scenario.model_validate(doc))
        assert r.damage.mean > 0, key
    side = _check(Scenario.model_validate(
        _DOCUMENTS["a side distribution weighed by a CHARACTER's death"]))
    assert side.other_mortal_wounds and side.cp_spent == 1
    assert _check(Scenario.model_validate(_DOCUMENTS["hazardous, 11th"])
                  ).attacker_mortal_wounds.mean > 0


@st.composite
def _documents(draw: st.DrawFn) -> dict[str, Any]:
    abilities = ["Devastating Wounds", "Lethal Hits", "Sustained Hits 1", "Precision",
                 "Hazardous", "Twin-linked", "Torrent"]
    lines = [{**_GUN, "name": f"w{i}", "count": draw(st.integers(1, 3)),
              "A": draw(st.sampled_from(["1", "2", "D3"])),
              "S": draw(st.integers(3, 9)), "D": draw(st.sampled_from(["1", "2", "D3"])),
              "abilities": draw(st.lists(st.sampled_from(abilities), max_size=2,
                                         unique=True))}
             for i in range(draw(st.integers(1, 2)))]
    models = [{**_TROOPS, "count": draw(st.integers(1, 5)), "W": draw(st.integers(1, 3))}]
    if draw(st.booleans()):
        models.append(_LEADER)
    effects: list[Any] = draw(st.lists(st.sampled_from(
        [{"command_reroll": "hit"}, {"mortal_wounds": "D3"}, {"fnp": 6}, {"hit": 1}]),
        max_size=2, unique_by=lambda e: next(iter(e))))
    return {"rules": draw(st.sampled_from(["10th", "11th"])),
            "attacker": {"weapons": lines},
            "target": {"keywords": draw(st.sampled_from([["INFANTRY"],
                                                         ["INFANTRY", "CHARACTER"]])),
                       "models": models},
            "effects": effects}


@settings(max_examples=60, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(_documents())
def test_generated_results_are_the_documents_built_model_by_model(doc: dict[str, Any]
                                                                    ) -> None:
    _check(Scenario.model_validate(doc))


def test_monte_carlo_results_validate_to_themselves() -> None:
    """The Monte Carlo twin builds its document model by model (``Distribution.from_array``
    validated, as before): what it builds is what validating its fields again gives, and
    each of its distributions is what the earlier ``from_array`` made of its pmf."""
    for doc in list(_DOCUMENTS.values())[:3]:
        r = simulate(Scenario.model_validate({**doc, "method": "monte-carlo",
                                              "trials": 2000, "seed": 1}))
        _identical(r, Result.model_validate(r.model_dump(exclude_unset=True)))
        for name in ("attacks", "hits", "wounds", "unsaved", "damage"):
            d = getattr(r, name)
            _identical(d, _plain_from_array(np.array(d.pmf)), name)


_LETHAL: dict[str, Any] = {
    "attacker": {"weapons": [{**_GUN, "name": "g", "count": 4, "A": "D3", "S": 4,
                              "abilities": ["Lethal Hits", "Devastating Wounds"]},
                             {**_GUN, "name": "h", "abilities": ["Lethal Hits",
                                                                 "Devastating Wounds"]}]},
    "target": {"models": [{**_TROOPS, "T": 4, "Sv": 2}]}}


def _plain_exact(scenario: Scenario, initial: Any = None) -> Result:
    """``calculate_exact`` (``calculate_exact_from`` with ``initial``) as it was: the
    result document, then a copy with the Lethal Hits notes before the others."""
    prep = exact._prepare(scenario)
    memo: dict[Any, Any] = {}
    choice, found = exact._lethal_search(scenario, initial=initial, memo=memo, prep=prep)
    done = found if found is not None else exact._states(prep, choice, True, memo, initial)
    result = _plain_finish(prep, done)
    notes = exact.lethal_notes(scenario, choice)
    if notes or initial is not None:
        return result.model_copy(update={"notes": notes + result.notes})
    return result


def test_the_lethal_hits_notes_come_first_as_in_a_copy() -> None:
    """The Lethal Hits choices' notes (24.23) go into the document as it is made, first,
    instead of into a copy of it: the same document, the same fields set."""
    s = Scenario.model_validate(_LETHAL)
    r = exact.calculate_exact(s)
    assert r.notes[0].startswith("g: Lethal Hits")
    _identical(r, _plain_exact(s))
    plain = Scenario.model_validate({**_LETHAL, "attacker": {"weapons": [_GUN]}})
    _identical(exact.calculate_exact(plain), _plain_exact(plain))
    for doc in (_LETHAL, _DOCUMENTS["wounded, feel no pain"]):
        s = Scenario.model_validate(doc)
        _, states = exact.calculate_exact_from(s, {StateSpace(build_groups(s.target)).initial:
                                                  np.ones(1)})
        got, _ = exact.calculate_exact_from(s, states)
        _identical(got, _plain_exact(s, states))


# --- the read-out of one group ------------------------------------------------------------


def _one_group_spaces() -> list[tuple[StateSpace, tuple[str, ...]]]:
    """Spaces of one group off the library sample's one-group targets: the target's start,
    then every state of h wounds left below it, with and without Precision marks."""
    out = []
    _, targets = library_sample(25)
    for target in targets:
        groups = build_groups(target)
        if len(groups) != 1:
            continue
        g = groups[0]
        for marks in ((-1, -1), (ENDED, 0)):
            space = StateSpace(groups)
            h0 = (g.count - 1) * g.W + g.first_wounds
            for h in range(h0 + 1):
                k = (h + g.W - 1) // g.W
                space.add((k, h - (k - 1) * g.W, *marks) if h else (0, 0, *marks))
            out.append((space, target.keywords))
    return out


def _both_read_outs(space: StateSpace, final: FloatArray, keywords: tuple[str, ...]) -> None:
    groups = space.groups
    chars = [gi for gi, g in enumerate(groups) if g.character] or (
        list(range(len(groups))) if "CHARACTER" in keywords else [])
    by_state = final.sum(axis=1)
    one = _one_group(space, by_state, final.sum(axis=0), bool(chars))
    damage, killed, p_char = _by_states(space, by_state, chars)
    assert one.damage.tobytes() == damage.tobytes()
    assert one.killed.tobytes() == killed.tobytes()
    assert one.p_character.hex() == p_char.hex()
    assert one.p_dead.hex() == float(killed[-1]).hex()
    got = read_out(space, final, keywords)
    plain = _plain_read_out(space, final, keywords)
    assert got.damage.tobytes() == plain[0].tobytes()
    assert got.killed.tobytes() == plain[1].tobytes()
    assert got.p_dead.hex() == plain[2].hex() and got.p_character.hex() == plain[4].hex()
    assert got.unsaved.tobytes() == plain[3].tobytes()


def test_a_grown_space_is_read_out_with_its_new_states() -> None:
    """The bins of a one-group space are kept per space and its count of states: a space
    that gains a state after a read-out is read out with it (the general read-out, by
    hand: 3 models of 2 wounds, from 6 wounds left)."""
    space = StateSpace((Group("m", count=3, W=2, Sv=3, invuln=None, fnp=None,
                              character=False, first_wounds=2),))
    space.add((2, 2, -1, -1))  # 4 wounds left: 2 damage, 1 model destroyed
    first = read_out(space, np.array([[0.5], [0.5]]), ())
    # exact: each bin is one of the halves given, or nothing
    assert first.damage.tolist() == [0.5, 0.0, 0.5, 0.0, 0.0, 0.0, 0.0]
    # exact: as above
    assert first.killed.tolist() == [0.5, 0.5, 0.0, 0.0] and first.p_dead == 0.0
    space.add((0, 0, -1, -1))  # destroyed: 6 damage, 3 models
    again = read_out(space, np.array([[0.25], [0.25], [0.5]]), ())
    # exact: each bin is one of the quarters and halves given, or nothing
    assert again.damage.tolist() == [0.25, 0.0, 0.25, 0.0, 0.0, 0.0, 0.5]
    # exact: as above
    assert again.killed.tolist() == [0.25, 0.25, 0.0, 0.5] and again.p_dead == 0.5


def test_a_state_above_the_start_is_refused() -> None:
    """A state with more wounds left than the start is not a state of the attack: the
    read-out refuses it, as the bin counts of the general read-out do."""
    space = StateSpace((Group("m", count=3, W=2, Sv=3, invuln=None, fnp=None,
                              character=False, first_wounds=1),))
    space.add((3, 2, -1, -1))  # the first model unwounded: 6 wounds left, above 5
    with pytest.raises(ValueError, match="above the target's start"):
        read_out(space, np.array([[0.5], [0.5]]), ())


def test_one_group_read_out_is_the_general_one_on_library_targets() -> None:
    rng = np.random.default_rng(7)
    spaces = _one_group_spaces()
    assert len(spaces) >= 6
    for space, keywords in spaces:
        for _ in range(5):
            final = rng.random((len(space.states), 3))
            final[rng.random(len(space.states)) < 0.3] = 0.0
            final /= final.sum()
            for kw in (keywords, ("CHARACTER",)):
                _both_read_outs(space, final, kw)


@settings(max_examples=80, deadline=None, derandomize=True)
@given(st.integers(1, 6), st.integers(1, 5), st.integers(0, 4), st.booleans(),
       st.integers(0, 2 ** 32 - 1), st.integers(1, 4))
def test_one_group_read_out_is_the_general_one_on_generated_spaces(
        count: int, wounds: int, lost: int, character: bool, seed: int, columns: int) -> None:
    lost = min(lost, wounds - 1)
    target = {"models": [{"name": "m", "count": count, "T": 4, "Sv": 3, "W": wounds,
                          "wounds_lost": lost, "character": character and count == 1}]}
    groups = build_groups(Scenario.model_validate(
        {"attacker": {"weapons": [_GUN]}, "target": target}).target)
    g = groups[0]
    rng = np.random.default_rng(seed)
    space = StateSpace(groups)
    h0 = (g.count - 1) * g.W + g.first_wounds
    for h in rng.permutation(h0 + 1).tolist():  # any order, some twice with a mark
        k = (h + g.W - 1) // g.W
        s = (k, h - (k - 1) * g.W) if h else (0, 0)
        space.add((*s, -1, -1))
        if rng.random() < 0.3:
            space.add((*s, ENDED, 0))
    final = rng.random((len(space.states), columns)) * (rng.random((len(space.states), 1))
                                                        < 0.7)
    for kw in ((), ("CHARACTER",)):
        _both_read_outs(space, final, kw)


# --- the means ------------------------------------------------------------------------------

_finite = st.floats(-1e300, 1e300) | st.sampled_from([0.0, -0.0, 5e-324, -5e-324, 1.0])


@given(st.lists(_finite, max_size=3))
def test_a_short_mean_is_numpys_dot(values: list[float]) -> None:
    """Up to three entries a mean that is not zero is added without numpy (``short_mean``):
    bit for bit numpy's dot with 0, 1, 2 (signed zeros and the smallest numbers in)."""
    plain = float(np.dot(np.arange(len(values), dtype=np.float64), np.array(values)))
    short = short_mean(values)
    assert short is None or short.hex() == plain.hex()
    assert pmf_mean(np.array(values, dtype=np.float64)).hex() == plain.hex()
    if values and values[-1] > 0.0 and min(values) >= 0.0:  # a pmf trimmed: never None
        assert short is not None


@given(st.lists(st.floats(0.0, 1.0), min_size=1, max_size=60))
def test_a_mean_is_numpys_dot_with_a_new_arange(values: list[float]) -> None:
    p = np.array(values)
    assert pmf_mean(p).hex() == float(np.dot(np.arange(len(p), dtype=np.float64), p)).hex()
    assert pmf_mean(p[::2]).hex() == float(np.dot(np.arange(len(p[::2])), p[::2])).hex()


_entries = st.floats(0.0, 1.0) | st.sampled_from([0.0, -0.0, 5e-324])


@given(st.lists(st.lists(_entries, min_size=1, max_size=8), min_size=1, max_size=3))
def test_convolving_from_the_first_pmf_is_convolving_from_one(pmfs: list[list[float]]
                                                                ) -> None:
    """``conv_all`` starts from the first pmf, not from [1.0] (signed zeros in it)."""
    arrays = [np.array(p) for p in pmfs]
    got = conv_all(arrays)
    assert got.tobytes() == _plain_conv_all(arrays).tobytes()


# --- the default run's samples (tests/volume.py): each property below runs a few
# dozen examples by default and its full count as its ``_at_volume`` twin (slow) ---
(test_generated_results_are_the_documents_built_model_by_model,
 test_generated_results_are_the_documents_built_model_by_model_at_volume) = sampled(
    test_generated_results_are_the_documents_built_model_by_model, 20)
(test_one_group_read_out_is_the_general_one_on_generated_spaces,
 test_one_group_read_out_is_the_general_one_on_generated_spaces_at_volume) = sampled(
    test_one_group_read_out_is_the_general_one_on_generated_spaces, 25)
(test_a_short_mean_is_numpys_dot,
 test_a_short_mean_is_numpys_dot_at_volume) = sampled(
    test_a_short_mean_is_numpys_dot, 30)
(test_a_mean_is_numpys_dot_with_a_new_arange,
 test_a_mean_is_numpys_dot_with_a_new_arange_at_volume) = sampled(
    test_a_mean_is_numpys_dot_with_a_new_arange, 30)
(test_convolving_from_the_first_pmf_is_convolving_from_one,
 test_convolving_from_the_first_pmf_is_convolving_from_one_at_volume) = sampled(
    test_convolving_from_the_first_pmf_is_convolving_from_one, 30)
