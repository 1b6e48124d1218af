"""What a condition declares it reads (``Condition.reads``) against what its test reads,
traced (``effects.model.reads_of``), on every condition of the rules registry: the
catalogue's named effects, every faction's dataset records (stratagems, detachment
rules, enhancements, army rules) and the library datasheets' abilities, each on
scenarios that take its branches differently. A table shares a condition's answer
between the targets it does not read (``units.abilities``): a wrong declaration would
give one matchup another's answer. In the test run every condition's test also sees
only what it declares (``ScenarioView``): an undeclared read raises wherever it
happens."""

from __future__ import annotations

from typing import Any

import pytest

from tactica.combat.contract.scenario import Scenario
from tactica.effects import dataset_effects
from tactica.effects.catalogue import EFFECTS
from tactica.effects.model import (
    SCENARIO_PARTS,
    Condition,
    UndeclaredReadError,
    reads_of,
)
from tactica.effects.unit_abilities import unit_ability
from tactica.library import load_library
from tactica.model.trusted import validating_all

from .test_condition_reads import _each_scenario, _scenario


def _registry() -> dict[str, list[Condition]]:
    """Every condition, by where it comes from."""
    out: dict[str, list[Condition]] = {"catalogue": [], "dataset": [], "abilities": []}
    for e in EFFECTS:
        out["catalogue"] += e.conditions
    found = dataset_effects()
    assert found is not None
    for entry in found.entries:
        out["dataset"] += entry.effect.conditions
        for part in entry.compiled.parts:
            out["dataset"] += part.conditions
    for sheet in load_library().datasheets():
        for a in sheet.abilities:
            ua = unit_ability(a) if a.kind == "unit" else None
            for part in ua.compiled.parts if ua is not None else ():
                out["abilities"] += part.conditions
    return {k: list({id(c): c for c in v}.values()) for k, v in out.items()}


def _scenarios() -> list[Scenario]:
    """The reads test's scenarios (each part varied), and more context: a short and a
    long distance, cover, a unit below strength, the designated rules."""
    more: list[dict[str, Any]] = [
        {"distance": 3, "cover": True, "below_strength": "half",
         "target_below_strength": "starting", "designated": ["For the Greater Good"]},
        {"distance": 11, "advanced": True},
    ]
    out = [s for _, s in _each_scenario()]
    for phase in ("shooting", "fight"):
        out += [_scenario("Primus", ("INFANTRY", "CHARACTER"), "Hive Tyrant",
                          ("MONSTER", "CHARACTER"), phase, **ctx) for ctx in more]
    return out


def test_every_condition_reads_only_what_it_declares() -> None:
    registry = _registry()
    assert all(len(v) > 20 for v in registry.values()), {k: len(v) for k, v in
                                                          registry.items()}
    scenarios = _scenarios()
    traced: set[str] = set()
    for where, conditions in registry.items():
        for c in conditions:
            for s in scenarios:
                read = reads_of(c, s)
                assert read <= c.reads & SCENARIO_PARTS, (where, c.description,
                                                         sorted(read), sorted(c.reads))
                traced |= read
    assert traced == SCENARIO_PARTS  # the tracing sees every part read somewhere


def _misdeclared() -> Condition:
    """A condition on the target that says it reads only the context."""
    return Condition("the target is a VEHICLE", "the target is not a VEHICLE",
                     lambda s: "VEHICLE" in s.target.keywords, frozenset({"context"}))


def test_a_wrong_declaration_is_traced() -> None:
    s = _scenarios()[0]
    assert reads_of(Condition("target", "no", lambda s: bool(s.target.keywords),
                              frozenset({"target"})), s) == {"target"}
    with pytest.raises(UndeclaredReadError, match="target"):
        reads_of(_misdeclared(), s)


@pytest.mark.skipif(not validating_all(), reason="the guard is on with every record checked")
def test_a_wrong_declaration_fails_loudly_wherever_the_condition_is_tested() -> None:
    with pytest.raises(UndeclaredReadError, match="reads the scenario's target"):
        _misdeclared().test(_scenarios()[0])
