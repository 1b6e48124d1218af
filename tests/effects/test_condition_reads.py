"""What a compiled condition says it reads of a scenario (``Condition.reads``) is what
its test reads: changing a part it does not name leaves its answer as it was, on every
condition the dataset's abilities compile to. A table shares an attacker's judgement
between the targets its conditions do not read (``units.abilities``)."""

from __future__ import annotations

from typing import Any

import pytest

from tactica.combat.contract.scenario import Scenario
from tactica.effects.dsl_conditions import compile_condition
from tactica.effects.model import SCENARIO_PARTS, Condition
from tactica.effects.unit_abilities import unit_ability
from tactica.library import load_library


def _scenario(attacker: str, keywords: tuple[str, ...], target: str,
              target_keywords: tuple[str, ...], phase: str, **context: Any) -> Scenario:
    return Scenario.model_validate({
        "phase": phase, "context": context,
        "attacker": {"name": attacker, "keywords": list(keywords), "weapons": [
            {"name": "gun", "A": "1", "skill": 3, "S": 4, "D": "1",
             "range": "Melee" if phase == "fight" else 24}]},
        "target": {"name": target, "keywords": list(target_keywords), "models": [
            {"count": 5, "T": 4, "Sv": 3, "W": 2},
            {"name": "Boss", "count": 1, "T": 4, "Sv": 3, "W": 4, "character": True}]}})


#: Scenarios that differ in one part at a time: the phase, the context (a charge, an
#: advance, a leader, the distance, the picked unit), the attacker, the target.
_VARIANTS: dict[str, list[dict[str, Any]]] = {
    "phase": [{"phase": "shooting"}, {"phase": "fight"}],
    "context": [{}, {"charged": True, "advanced": True, "remained_stationary": True,
                     "disembarked": True, "led_by": ["Primus"], "distance": 30,
                     "designated": ["Sworn Enemy"]}],
    "attacker": [{"attacker": "Primus", "keywords": ("INFANTRY", "CHARACTER")},
                 {"attacker": "Goliath Rockgrinder", "keywords": ("VEHICLE", "CULTS")}],
    "target": [{"target": "Intercessors", "target_keywords": ("INFANTRY",)},
               {"target": "Land Raider", "target_keywords": ("VEHICLE", "MONSTER", "FLY")}],
}


def _each_scenario() -> list[tuple[str, Scenario]]:
    base: dict[str, Any] = {"attacker": "Primus", "keywords": ("INFANTRY",),
                            "target": "Intercessors", "target_keywords": ("INFANTRY",),
                            "phase": "fight"}
    out = []
    for part, variants in _VARIANTS.items():
        for variant in variants:
            values = {**base, **variant}
            context = values.pop("charged", None)
            extra = {k: values.pop(k) for k in list(values) if k in (
                "advanced", "remained_stationary", "disembarked", "led_by", "distance",
                "designated")}
            if context is not None:
                extra["charged"] = context
            out.append((part, _scenario(values["attacker"], values["keywords"],
                                        values["target"], values["target_keywords"],
                                        values["phase"], **extra)))
    return out


def _conditions() -> list[Condition]:
    """Every condition of every part of the library's abilities, both owners."""
    found: dict[int, Condition] = {}
    for sheet in load_library().datasheets():
        for a in sheet.abilities:
            ua = unit_ability(a) if a.kind == "unit" else None
            for part in ua.compiled.parts if ua is not None else ():
                for c in part.conditions:
                    found[id(c)] = c
    return list(found.values())


def test_a_condition_answers_alike_whatever_the_parts_it_does_not_read() -> None:
    conditions = _conditions()
    narrow = [c for c in conditions if c.reads != SCENARIO_PARTS]
    # conditions that name fewer parts than all, between them every part
    assert {part for c in narrow for part in c.reads} == SCENARIO_PARTS
    scenarios = _each_scenario()
    moved: set[str] = set()  # the parts whose variants changed some answer
    for c in conditions:
        for part in SCENARIO_PARTS - c.reads:
            answers = {c.test(s) for p, s in scenarios if p == part}
            assert len(answers) == 1, (c.description, part)
        for part in c.reads:
            if len({c.test(s) for p, s in scenarios if p == part}) > 1:
                moved.add(part)
    assert moved == SCENARIO_PARTS  # the variants do change what the conditions read


@pytest.mark.parametrize(("raw", "owner", "reads"), [
    ({"type": "phase-is", "parameters": {"phase": "fight"}}, "attacker", {"phase"}),
    ({"type": "target-has-keyword", "parameters": {"keyword": "infantry"}}, "attacker",
     {"target"}),
    ({"type": "unit-has-keyword", "parameters": {"keyword": "infantry"}}, "attacker",
     {"attacker"}),
    ({"type": "unit-has-keyword", "parameters": {"keyword": "infantry"}}, "target",
     {"target"}),
    ({"type": "charged-this-turn"}, "attacker", {"context"}),
    ({"type": "is-attached"}, "target", {"target"}),
    ({"operator": "and", "operands": [
        {"type": "phase-is", "parameters": {"phase": "fight"}},
        {"type": "target-has-keyword", "parameters": {"keyword": "vehicle"}}]},
     "attacker", {"phase", "target"}),
    ({"operator": "not", "operands": [{"type": "charged-this-turn"}]}, "attacker",
     {"context"}),
])
def test_what_a_condition_node_reads(raw: dict[str, Any], owner: str,
                                     reads: set[str]) -> None:
    check = compile_condition(raw, owner)  # type: ignore[arg-type]
    assert check.checks and set().union(*(c.reads for c in check.checks)) == reads
