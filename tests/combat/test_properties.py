"""Properties of every result, over small random scenarios (hypothesis, derandomized).

- every distribution is a pmf (sums to 1 within 1e-9) and its ``mean`` is the pmf's mean;
- ``models_destroyed`` has one entry per model count 0..N, and ``p_unit_destroyed`` is its
  last entry;
- monotonicity: a better save, more toughness or a Feel No Pain never raises the
  expected damage; more attacks never lowers it.

Each property runs ``QUICK`` examples in the default run and again, as
``<test>_at_volume`` marked ``slow``, ``VOLUME`` examples (``python -m pytest -m slow``).
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tactica import calculate
from tactica.combat import Result

Json = dict[str, Any]

#: Examples of each property in the default run, and in the slow suite's run of it.
QUICK, VOLUME = 12, 100
PROPERTY_SETTINGS = settings(
    max_examples=QUICK,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def at_volume(test: Any, *strategies: st.SearchStrategy[Any]) -> Any:
    """The property ``test`` (a ``@given`` test over ``strategies``) again with ``VOLUME``
    examples, marked slow."""
    check = settings(PROPERTY_SETTINGS, max_examples=VOLUME)(
        given(*strategies)(test.hypothesis.inner_test))
    return pytest.mark.slow(check)

ABILITIES = (
    "Sustained Hits 1",
    "Lethal Hits",
    "Devastating Wounds",
    "Twin-linked",
    "Anti-Infantry 4+",
    "Blast",
    "Melta 2",
    "Heavy",
    "Precision",
    "Hazardous",
)

TOLERANCE = 1e-9


@st.composite
def weapon_lines(draw: st.DrawFn) -> Json:
    abilities = draw(st.lists(st.sampled_from(ABILITIES), max_size=3, unique=True))
    torrent = draw(st.booleans()) and draw(st.booleans())  # about one in four
    if torrent:
        abilities.append("Torrent")
    return {
        "name": "w",
        "count": draw(st.integers(1, 3)),
        "range": 12,
        "A": draw(st.sampled_from(["1", "2", "D3"])),
        "skill": None if torrent else draw(st.integers(2, 6)),
        "S": draw(st.integers(1, 10)),
        "AP": draw(st.integers(-3, 0)),
        "D": draw(st.sampled_from(["1", "2", "D3", "D6"])),
        "abilities": abilities,
    }


@st.composite
def model_entries(draw: st.DrawFn, character: bool) -> Json:
    W = draw(st.integers(1, 3))
    return {
        "name": "leader" if character else "trooper",
        "count": 1 if character else draw(st.integers(1, 4)),
        "T": draw(st.integers(2, 8)),
        "Sv": draw(st.integers(2, 7)),
        "invuln": draw(st.sampled_from([None, None, 4, 5])),
        "W": W,
        "fnp": draw(st.sampled_from([None, None, 5, 6])),
        "character": character,
        "wounds_lost": draw(st.integers(0, W - 1)),
    }


@st.composite
def scenarios(draw: st.DrawFn) -> Json:
    entries = [draw(model_entries(character=False))]
    if draw(st.booleans()):
        entries.append(draw(model_entries(character=draw(st.booleans()))))
    effects: list[Json] = []
    if draw(st.booleans()):
        effects.append(draw(st.sampled_from([
            {"hit": 1}, {"wound": -1}, {"reroll": "hit", "which": "ones"},
            {"reroll": "wound", "which": "failed"}, {"critical_hit_on": 5},
        ])))
    return {
        "rules": draw(st.sampled_from(["10th", "11th"])),
        "attacker": {"name": "a", "keywords": [draw(st.sampled_from(["INFANTRY", "VEHICLE"]))],
                     "weapons": draw(st.lists(weapon_lines(), min_size=1, max_size=2))},
        "target": {"name": "t", "keywords": [draw(st.sampled_from(["INFANTRY", "VEHICLE"]))],
                   "models": entries,
                   "damage_reduction": draw(st.sampled_from([0, 0, 1])),
                   "half_damage": draw(st.booleans()) and draw(st.booleans())},
        "context": {"distance": draw(st.sampled_from([3, 9])),
                    "remained_stationary": draw(st.booleans()),
                    "cover": draw(st.booleans())},
        "effects": effects,
    }


def changed(scenario: Json, field: str, fn: Any) -> Json:
    """A deep copy of ``scenario`` with ``fn`` applied to every target model entry's
    ``field`` (returning the new value)."""
    out = copy.deepcopy(scenario)
    for entry in out["target"]["models"]:
        entry[field] = fn(entry[field])
    return out


def distributions(r: Result) -> dict[str, tuple[float, tuple[float, ...]]]:
    return {
        name: (d.mean, d.pmf)
        for name, d in [
            ("attacks", r.attacks), ("hits", r.hits), ("wounds", r.wounds),
            ("unsaved", r.unsaved), ("damage", r.damage),
            ("models_destroyed", r.models_destroyed),
            ("attacker_mortal_wounds", r.attacker_mortal_wounds),
        ]
    }


@PROPERTY_SETTINGS
@given(scenarios())
def test_every_distribution_is_a_pmf_with_its_mean(scenario: Json) -> None:
    r = calculate(scenario)
    for name, (mean, pmf) in distributions(r).items():
        assert all(p >= -TOLERANCE for p in pmf), name
        assert abs(sum(pmf) - 1.0) <= TOLERANCE, name
        pmf_mean = sum(i * p for i, p in enumerate(pmf))
        assert abs(mean - pmf_mean) <= TOLERANCE * max(1.0, pmf_mean), name


@PROPERTY_SETTINGS
@given(scenarios())
def test_models_destroyed_shape_and_unit_destroyed(scenario: Json) -> None:
    r = calculate(scenario)
    n_models = sum(e["count"] for e in scenario["target"]["models"])
    assert len(r.models_destroyed.pmf) == n_models + 1
    assert abs(r.p_unit_destroyed - r.models_destroyed.pmf[-1]) <= TOLERANCE
    wounds_left = sum(e["count"] * e["W"] - e["wounds_lost"]
                      for e in scenario["target"]["models"])
    assert len(r.damage.pmf) <= wounds_left + 1


@PROPERTY_SETTINGS
@given(scenarios())
def test_a_better_save_never_raises_expected_damage(scenario: Json) -> None:
    better = changed(scenario, "Sv", lambda sv: max(2, sv - 1))
    assert calculate(better).damage.mean <= calculate(scenario).damage.mean + TOLERANCE


@PROPERTY_SETTINGS
@given(scenarios())
def test_more_toughness_never_raises_expected_damage(scenario: Json) -> None:
    tougher = changed(scenario, "T", lambda t: t + 1)
    assert calculate(tougher).damage.mean <= calculate(scenario).damage.mean + TOLERANCE


@PROPERTY_SETTINGS
@given(scenarios(), st.sampled_from([4, 5, 6]))
def test_feel_no_pain_never_raises_expected_damage(scenario: Json, fnp: int) -> None:
    with_fnp = changed(scenario, "fnp", lambda old: fnp if old is None else min(old, fnp))
    assert calculate(with_fnp).damage.mean <= calculate(scenario).damage.mean + TOLERANCE


@PROPERTY_SETTINGS
@given(scenarios(), st.integers(0, 1))
def test_more_attacks_never_lower_expected_damage(scenario: Json, line: int) -> None:
    more = copy.deepcopy(scenario)
    weapons = more["attacker"]["weapons"]
    weapons[min(line, len(weapons) - 1)]["count"] += 1
    assert calculate(more).damage.mean >= calculate(scenario).damage.mean - TOLERANCE


@PROPERTY_SETTINGS
@given(scenarios(), st.integers(0, 1))
def test_optional_lethal_hits_never_lowers_expected_damage_11th(
    scenario: Json, line: int
) -> None:
    """11th Lethal Hits is the attacker's option (24.23), taken only when it gives the
    higher expected damage for that weapon against that target (reference facts §4):
    declining it is the same as not having it, so having it never costs damage."""
    scenario = copy.deepcopy(scenario)
    scenario["rules"] = "11th"
    weapons = scenario["attacker"]["weapons"]
    weapon = weapons[min(line, len(weapons) - 1)]
    weapon["abilities"] = [a for a in weapon["abilities"]
                           if a not in ("Lethal Hits", "Devastating Wounds", "Torrent")]
    if weapon["skill"] is None:
        weapon["skill"] = 4
    without = copy.deepcopy(scenario)
    without["attacker"]["weapons"][min(line, len(weapons) - 1)]["abilities"].append(
        "Devastating Wounds")
    weapon["abilities"] += ["Devastating Wounds", "Lethal Hits"]
    assert calculate(scenario).damage.mean >= calculate(without).damage.mean - TOLERANCE


# --- the same properties at volume (the slow suite) -----------------------------------------

test_every_distribution_is_a_pmf_with_its_mean_at_volume = at_volume(
    test_every_distribution_is_a_pmf_with_its_mean, scenarios())
test_models_destroyed_shape_and_unit_destroyed_at_volume = at_volume(
    test_models_destroyed_shape_and_unit_destroyed, scenarios())
test_a_better_save_never_raises_expected_damage_at_volume = at_volume(
    test_a_better_save_never_raises_expected_damage, scenarios())
test_more_toughness_never_raises_expected_damage_at_volume = at_volume(
    test_more_toughness_never_raises_expected_damage, scenarios())
test_feel_no_pain_never_raises_expected_damage_at_volume = at_volume(
    test_feel_no_pain_never_raises_expected_damage, scenarios(), st.sampled_from([4, 5, 6]))
test_more_attacks_never_lower_expected_damage_at_volume = at_volume(
    test_more_attacks_never_lower_expected_damage, scenarios(), st.integers(0, 1))
test_optional_lethal_hits_never_lowers_expected_damage_11th_at_volume = at_volume(
    test_optional_lethal_hits_never_lowers_expected_damage_11th, scenarios(),
    st.integers(0, 1))
