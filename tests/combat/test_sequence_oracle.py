"""The exact sequence evaluation against the brute-force sequence oracle
(``tests/oracle/sequence.py``): generated short sequences — two attack steps against one
target, or an attack step, a charge, the charging unit's fight and the target fighting
back — agree to 1e-9 on every distribution of the result, P(destroyed), the charge
chance and the fought unit's losses, under both rule sets.

Generated from ``oracle.strategies`` (small weapon lines and targets). Left out: the
11th-edition Lethal Hits choice on Devastating Wounds lines (a policy the engine may
decide otherwise, see ``test_oracle_agreement``) and targets with several entries
fighting back with lines other than one per model. The turn's dice totals (attacks, hits,
wounds, attacker mortal wounds) are compared in full where the result says they are exact,
by their means where it marks them ``exact: false``.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from oracle.sequence import sequence_brute_force
from oracle.strategies import model_entries, scenario_dicts, weapon_lines
from tactica.combat.contract.result import Distribution
from tactica.combat.contract.sequence import Sequence
from tactica.combat.turn.exact import calculate_sequence

TOLERANCE = 1e-9


def _lethal_choice(scenario: dict[str, Any]) -> bool:
    lines = scenario["attacker"]["weapons"]
    grants = any(e.get("grant") == "Lethal Hits" for e in scenario["effects"])
    return scenario["rules"] == "11th" and any(
        "Devastating Wounds" in w["abilities"] and ("Lethal Hits" in w["abilities"] or grants)
        for w in lines)


def _step(scenario: dict[str, Any], unit: str) -> dict[str, Any]:
    return {"phase": scenario["phase"], "unit": unit,
            "attacker": {**scenario["attacker"], "name": unit},
            "context": scenario["context"], "effects": scenario["effects"]}


@st.composite
def sequences(draw: st.DrawFn) -> dict[str, Any]:
    rules = draw(st.sampled_from(["10th", "11th"]))
    first = draw(scenario_dicts(rules).filter(lambda s: not _lethal_choice(s)))
    second = draw(scenario_dicts(rules).filter(lambda s: not _lethal_choice(s)))
    if draw(st.booleans()):  # two attack steps
        steps = [_step(first, "first"), _step(second, "second")]
        if first["phase"] == "fight" and second["phase"] == "shooting":
            steps.reverse()
        return {"rules": rules, "target": first["target"], "steps": steps}
    # shooting, a charge, the charger's fight, the target (one or two entries) fights back
    target = {"name": "target", "models": [draw(model_entries(draw(st.integers(1, 3))))]}
    if draw(st.booleans()):  # a second, identical entry: lines one per model
        target["models"] = [{**target["models"][0], "count": 1, "name": "first"},
                            {**target["models"][0], "count": 1, "name": "second",
                             "wounds_lost": 0}]
    shooting = {**first, "phase": "shooting",
                "attacker": {**first["attacker"], "weapons": [draw(weapon_lines("shooting"))]}}
    charger = {**second, "phase": "fight",
               "attacker": {**second["attacker"], "weapons": [
                   {**draw(weapon_lines("fight")), "count": 1}]}, "effects": []}
    back = {**draw(weapon_lines("fight")), "count": draw(st.integers(1, 2)), "A": "1"}
    if len(target["models"]) == 2:
        back["count"] = 2
    return {"rules": rules, "target": target, "steps": [
        _step(shooting, "shooters"),
        {"phase": "charge", "unit": "chargers", "distance": draw(st.integers(2, 12)),
         "charge_modifier": draw(st.integers(0, 1)), "reroll_charge": draw(st.booleans())},
        {**_step(charger, "chargers"), "models": [draw(model_entries(draw(st.integers(1, 2))))]},
        {"phase": "fight", "fights_back": True, "against": "chargers",
         "attacker": {"name": "target", "weapons": [back]}}]}


def _gaps(got: Distribution, want: dict[int, Fraction], key: str) -> list[str]:
    size = max(len(got.pmf), max(want) + 1)
    pmf = [*got.pmf, *([0.0] * (size - len(got.pmf)))]
    return [f"{key}[{v}]: engine {pmf[v]!r}, oracle {float(want.get(v, 0))!r}"
            for v in range(size) if abs(pmf[v] - float(want.get(v, 0))) > TOLERANCE]


@pytest.mark.slow
@settings(max_examples=12, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(sequences())
def test_generated_sequences_agree_with_the_oracle(doc: dict[str, Any]) -> None:
    seq = Sequence.model_validate(doc)
    result = calculate_sequence(seq)
    oracle = sequence_brute_force(seq)
    problems: list[str] = []
    for key, want in oracle.pmfs.items():
        got = getattr(result, key)
        if getattr(got, "exact", True):
            problems += _gaps(got, want, key)
        elif abs(got.mean - float(sum(v * p for v, p in want.items()))) > TOLERANCE:
            problems.append(f"{key} mean {got.mean}")
    if abs(result.p_unit_destroyed - float(oracle.p_unit_destroyed)) > TOLERANCE:
        problems.append(f"p_unit_destroyed {result.p_unit_destroyed} {oracle.p_unit_destroyed}")
    for r in result.steps:
        if r.p_charge is not None and abs(r.p_charge - float(oracle.p_charge[r.step])) > 1e-12:
            problems.append(f"p_charge {r.p_charge} {oracle.p_charge[r.step]}")
        if r.attacker_losses is not None:
            assert oracle.losses is not None
            problems += _gaps(r.attacker_losses, oracle.losses, "losses")
    assert not problems, f"{seq.model_dump_json()}\n" + "\n".join(problems)
