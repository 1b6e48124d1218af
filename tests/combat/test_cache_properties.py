"""Caches by value (issue 42, part 6): a batch gives each scenario what it gives alone,
and what it gives with every cache cleared, bit for bit, over random batches.

A batch (``calculate_each``, ``figures_each``) shares one memo between its scenarios,
each stage's answer cached under its input record (``combat.exact.stages``); the caches
that outlive a run (``tactica.cache_registry``) hold answers by value. A record that
forgot a field its stage reads would give one matchup another's roll with no error: here
random batches of scenarios that differ in every part (the attacker's lines and every
kind of weapon ability, its keywords, the target's models, keywords, abilities and
damage rules, the phase, the rules version, every context field a stage reads, every
kind of effect and its scoping to lines) run together, in order and reversed, and each
result must equal, bit for bit, its scenario computed alone (a single ``calculate``, and
a batch of one) and computed again after ``cache_registry.clear("answers")``.

The comparisons are ``==`` on whole result documents and figures: the same arithmetic
on the same numbers in the same order (a cache hands back the very floats its stage
computed), so equality is the property, not a tolerance.

``QUICK`` examples in the default run; ``VOLUME`` in the slow suite
(``python -m pytest -m slow``).
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from oracle.strategies import PLAIN_EFFECTS, scenario_dicts
from tactica import cache_registry
from tactica.combat import calculate
from tactica.combat.batch import Figures, calculate_each, figures_each
from tactica.combat.contract.result import Result
from tactica.combat.contract.scenario import Scenario, ScenarioError

Json = dict[str, Any]

QUICK, VOLUME = 25, 2000
_SETTINGS = settings(max_examples=QUICK, derandomize=True, deadline=None,
                     suppress_health_check=[HealthCheck.too_slow,
                                            HealthCheck.data_too_large])

#: Abilities beyond the oracle's (which it cannot enumerate): every kind the stages read.
MORE_ABILITIES = (
    "Conversion", "Psychic", "Indirect Fire", "Extra Attacks", "Cleave 1", "Pistol",
    "Close-quarters", "Assault", "One Shot", "Hunter", "Overcharge", "Blast 2",
    "Lethal Hits (not against Monster/Vehicle)", "Anti-Infantry 4+ (only against Infantry)",
    "Sustained Hits 2", "Rapid Fire 2", "Melta 3", "Torrent", "Heavy", "Lance",
)
MORE_EFFECTS: tuple[Json, ...] = (
    *PLAIN_EFFECTS,
    {"reroll": "damage", "below": 3}, {"reroll": "attacks", "which": "failed"},
    {"reroll": "damage", "which": "ones"}, {"reroll": "hit", "which": "any"},
    {"critical_hit_on": 4}, {"critical_wound_on": 4}, {"fnp_mortal": 5},
    {"snap_shooting": True}, {"snap_shooting": True, "snap_hit_on": 5},
    {"grant": "Devastating Wounds"}, {"grant": "Sustained Hits 1"}, {"grant": "Melta 1"},
    {"grant": "Twin-linked"}, {"grant": "Precision"}, {"grant": "Psychic"},
    {"ap": -2}, {"damage": 2}, {"attacks": -1}, {"hit": 2}, {"wound": -2},
)
CONTEXT: dict[str, st.SearchStrategy[Any]] = {
    "distance": st.sampled_from([None, 3, 6, 10, 13, 18, 30]),
    "within_half_range": st.sampled_from([None, True, False]),
    "remained_stationary": st.booleans(),
    "charged": st.booleans(),
    "cover": st.booleans(),
    "stealth": st.booleans(),
    "plunging_fire": st.booleans(),
    "engaged": st.booleans(),
    "target_engaged": st.booleans(),
    "arrived_from_reserves": st.booleans(),
    "indirect": st.sampled_from([None, "unseen", "spotted"]),
}


@st.composite
def _scenario(draw: st.DrawFn) -> Json:
    """A small scenario (the oracle's), then varied beyond it: more abilities, effects
    (some scoped to a line) and context fields, the target's abilities."""
    s: Json = draw(scenario_dicts())
    for line in s["attacker"]["weapons"]:
        if draw(st.booleans()):
            extra = draw(st.sampled_from(MORE_ABILITIES))
            kinds = {a.split(" ")[0] for a in line["abilities"]}
            if extra.split(" ")[0] not in kinds:
                line["abilities"] = [*line["abilities"], extra]
        line["A"] = draw(st.sampled_from([line["A"], "1", "2"]))
    effects = draw(st.lists(st.sampled_from(MORE_EFFECTS), max_size=3))
    names = [w["name"] for w in s["attacker"]["weapons"]]
    scoped = [{**e, "weapons": [draw(st.sampled_from(names))]} if draw(st.booleans()) else e
              for e in effects]
    s["effects"] = [*s["effects"], *scoped]
    for key in draw(st.lists(st.sampled_from(sorted(CONTEXT)), max_size=4, unique=True)):
        s["context"][key] = draw(CONTEXT[key])
    if draw(st.booleans()):
        s["target"]["abilities"] = ["Stealth"]
    return s


def _variant(draw: st.DrawFn, base: Json) -> Json:
    """``base`` with one part drawn again (so a batch's scenarios share most records and
    differ in one thing a record holds)."""
    other: Json = draw(_scenario())
    out = copy.deepcopy(base)
    part = draw(st.sampled_from(["target", "attacker", "context", "effects", "phase",
                                 "rules", "context field", "weapon", "keywords"]))
    if part == "phase":  # the lines must fit the phase: take the other's phase and lines
        out["phase"], out["attacker"] = other["phase"], other["attacker"]
    elif part == "context field":
        key = draw(st.sampled_from(sorted(CONTEXT)))
        out["context"][key] = draw(CONTEXT[key])
    elif part == "weapon":
        line = out["attacker"]["weapons"][0]
        field = draw(st.sampled_from(["A", "S", "AP", "D", "skill", "count", "abilities"]))
        line[field] = other["attacker"]["weapons"][0][field] if other["phase"] == out[
            "phase"] or field != "abilities" else line[field]
    elif part == "keywords":
        out["target"]["keywords"] = other["target"]["keywords"]
        out["attacker"]["keywords"] = other["attacker"]["keywords"]
    elif part == "effects":
        out["effects"] = [e for e in other["effects"] if "weapons" not in e]
    else:
        out[part] = other[part]
    return out


@st.composite
def batches(draw: st.DrawFn) -> list[Scenario | ScenarioError]:
    """Two to six scenarios: a base, variants of it, and unrelated ones."""
    base = draw(_scenario())
    docs = [base]
    for _ in range(draw(st.integers(1, 5))):
        docs.append(_variant(draw, base) if draw(st.integers(0, 3)) else draw(_scenario()))
    out: list[Scenario | ScenarioError] = []
    for d in docs:
        try:
            out.append(Scenario.model_validate(d))
        except ValueError as exc:  # a drawn combination the contract refuses
            out.append(ScenarioError(str(exc).splitlines()[0]))
    return out


def _alone(s: Scenario | ScenarioError) -> Result | str:
    """``s`` computed on its own, through no batch memo (``combat.calculate``'s path)."""
    if isinstance(s, ScenarioError):
        return str(s)
    try:
        return calculate(s)
    except ScenarioError as exc:
        return str(exc)


def _text(got: list[Any]) -> list[Any]:
    return [str(x) if isinstance(x, ScenarioError) else x for x in got]


def check_batch_alone_cleared(batch: list[Scenario | ScenarioError]) -> None:
    """Batched (in order and reversed) == each alone == each after every cache of
    answers is cleared, bit for bit; the figures alike."""
    alone = [_alone(s) for s in batch]
    together = _text(calculate_each(batch))
    reverse = _text(calculate_each(batch[::-1]))[::-1]
    ones = [_text(calculate_each([s]))[0] for s in batch]
    cache_registry.clear("answers")
    cleared = [_alone(s) for s in batch]
    # exact: the same arithmetic on the same numbers (a cache returns its stage's floats)
    assert together == alone and reverse == alone and ones == alone and cleared == alone
    valid = [s for s in batch if isinstance(s, Scenario)]
    figures = _text(figures_each(valid))
    one_by_one = [_text(figures_each([s]))[0] for s in valid]
    # exact: as above, the figures of one memo against fresh memos, and against the
    # result documents' (the figures are computed from their record alone, the
    # ``FiguresInputs`` of ``combat.exact.figures``: a part it forgot would differ here;
    # a refusal is the document's, word for word)
    assert figures == one_by_one
    documents = [_figures_of(r) for s, r in zip(batch, alone, strict=True)
                 if isinstance(s, Scenario)]
    assert figures == documents


def _figures_of(r: Result | str) -> Figures | str:
    """A result document's headline figures (``Figures``), or its refusal."""
    if isinstance(r, str):
        return r
    return Figures(r.damage.mean, r.models_destroyed.mean, r.p_unit_destroyed)


@_SETTINGS
@given(batches())
def test_a_batch_gives_each_scenario_what_it_gives_alone_and_cleared(
        batch: list[Scenario | ScenarioError]) -> None:
    check_batch_alone_cleared(batch)


test_a_batch_gives_each_scenario_what_it_gives_alone_and_cleared_at_volume = pytest.mark.slow(
    settings(_SETTINGS, max_examples=VOLUME)(given(batches())(check_batch_alone_cleared)))
