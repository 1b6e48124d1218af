"""The attack die is a pure function of one record (issue 42): ``roll_die`` reads a
``DieInputs`` and nothing else (a field it does not hold cannot be read: the record is
a named tuple), so the record is the key of the run's memo. Checked here on library
lines: the die of a line is the die of its record; a die that weighs no values holds
none (one record, and one die in a batch, for any values); the batch's memo keeps one
die per record."""

from __future__ import annotations

from typing import Any

from tactica.combat.contract.scenario import Scenario
from tactica.combat.exact.allocation import StateSpace
from tactica.combat.exact.attack_lines import expected_values, weapon_die
from tactica.combat.exact.dice_stages import DieInputs, die_outcome, roll_die, weighs_values
from tactica.combat.exact.engine import _prepare

from .library_sample import library_sample


def _lines() -> list[tuple[Any, Any]]:
    """(prepared scenario, line) for a sample of library lines against the presets."""
    attackers, targets = library_sample(30)
    out = []
    for phase, attacker in attackers:
        for target in targets[:2]:
            prep = _prepare(Scenario.model_validate({"attacker": attacker, "target": target,
                                                     "phase": phase}))
            out += [(prep, w) for w in prep.weapons]
    return out


def test_a_die_is_the_die_of_its_record_and_holds_values_only_where_it_weighs_them() -> None:
    plain = weighed = 0
    for prep, w in _lines():
        space = StateSpace(prep.groups, prep.rules)
        values = expected_values(w, space, prep.rules)
        for lethal in (None, True, False):
            rec = DieInputs.of(w, lethal, *values)
            die = die_outcome(w, *values, lethal)
            again = roll_die(rec)
            assert (die.to_save.tobytes(), die.hits.tobytes(), die.notes) == (
                again.to_save.tobytes(), again.hits.tobytes(), again.notes)
            if weighs_values(w, lethal):
                weighed += 1
                assert (rec.e_normal, rec.e_mortal, rec.name) == (*values, w.name)
            else:
                plain += 1
                assert rec == DieInputs.of(w, lethal, 1.0, 2.0) == DieInputs.plain(w, lethal)
    assert plain > 100 and weighed > 5


def test_a_batch_keeps_one_die_per_record() -> None:
    """The same line resolved against two targets of one Toughness, through one memo:
    one die (the same object), cached under its record."""
    def s(name: str) -> Scenario:
        return Scenario.model_validate({
            "attacker": {"weapons": [{"name": "g", "count": 5, "A": "2", "skill": 3,
                                      "S": 4, "AP": -1, "D": "1"}]},
            "target": {"name": name, "models": [{"count": 5, "T": 4, "Sv": 3, "W": 2}]}})
    memo: dict[Any, Any] = {}
    dies = []
    for name in ("a", "b"):
        prep = _prepare(s(name), memo)
        w = prep.weapons[0]
        dies.append(weapon_die(w, 0, StateSpace(prep.groups, prep.rules), prep.rules, (),
                               memo))
    assert dies[0] is dies[1]
    assert list(memo[("attack dice",)]) == [DieInputs.plain(prep.weapons[0], None)]
