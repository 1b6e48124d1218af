"""Inputs that once crashed or hung (issue 26 and the property suite's shrunk failures),
kept as explicit cases: each gives a sound result or the project's own one-line error.

Every check is independent of the code under test: a hand calculation, a brute-force
product, or the refusal's own wording (the field it names)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

import tactica
from tactica.army.formats import RosterParseError, parse_roster
from tactica.combat.exact.allocation import Operator
from tactica.combat.exact.totals import compound
from tactica.errors import DocumentError, one_line
from tactica.inputs import MAX_DEPTH, InputError, check_depth, clean_text, loads
from tactica.units import UnitError

_GUN = {"name": "Bolt rifle", "count": 1, "A": "1", "skill": 3, "S": 4, "AP": 0, "D": "1"}
_MEQ = {"count": 5, "T": 4, "Sv": 3, "W": 2}


def _doc(weapon: dict | None = None, **extra: object) -> dict:
    return {"attacker": {"weapons": [weapon or _GUN]}, "target": {"models": [_MEQ]},
            **extra}


def test_a_die_that_rarely_scores_compounds_to_its_tiny_mass() -> None:
    # 30 dice, each scoring 0, 1 or 2 with 1/100 each (a sub-pmf: mass 3/100 a die).
    # By hand: the total mass is (3/100)^30 and P(total 0) = (1/100)^30; the transforms
    # used to floor every total below 1e-15 to 0 and divide the sum 0 by itself
    # (ZeroDivisionError: float division by zero).
    counts = np.zeros(31)
    counts[30] = 1.0
    out = compound(counts, np.array([0.01, 0.01, 0.01]))
    assert math.isclose(out.sum(), 0.03 ** 30, rel_tol=1e-9)
    assert math.isclose(out[0], 0.01 ** 30, rel_tol=1e-2)
    assert math.isclose(out[60], 0.01 ** 30, rel_tol=1e-2)  # every die scoring 2


def test_a_die_whose_mass_underflows_compounds_to_nothing() -> None:
    counts = np.zeros(201)
    counts[200] = 1.0  # (3/100)^200 is about 1e-305: below what the totals can hold
    out = compound(counts, np.array([0.01, 0.01, 0.01]))
    assert out.sum() == 0.0 and out.shape == (401,)  # exact: every total is set to 0.0


def test_the_sparse_product_is_the_scatter_of_each_transition() -> None:
    # past 700 states the operator is applied as a sparse matrix: compare with adding
    # each transition's share by hand, repeated transitions summed
    rng = np.random.default_rng(26)
    n = 800
    rows = [(int(i), int(j), float(p)) for i, j, p in
            zip(rng.integers(0, n, 3000), rng.integers(0, n, 3000), rng.random(3000),
                strict=True)]
    rows += rows[:10]  # the same transition twice
    x = rng.random((n, 3))
    by_hand = np.zeros((n, 3))
    for i, j, p in rows:
        by_hand[j] += p * x[i]
    out = Operator(rows, []).apply(x)
    assert np.allclose(out, by_hand, rtol=1e-12, atol=0)


def test_weapons_picked_by_name_on_a_unit_in_the_fight_phase_do_not_crash() -> None:
    # was AttributeError: 'str' object has no attribute 'firing_deck' (the Firing Deck
    # check read the names as weapon lines)
    doc = {"phase": "fight", "attacker": {"unit": "Acastus Knight Asterius",
                                          "weapons": ["TWIN CONVERSION BEAM CANNON",
                                                      "Titanic feet"]},
           "target": {"models": [_MEQ]}}
    with pytest.raises(UnitError) as info:
        tactica.calculate(doc)
    assert "ranged weapon" in str(info.value) and "\n" not in str(info.value)
    doc["attacker"]["weapons"] = ["Titanic feet"]
    result = tactica.calculate(doc)
    assert math.isclose(sum(result.damage.pmf), 1.0, abs_tol=1e-9)


@pytest.mark.parametrize(("field", "path"), [
    ({"name": "x\ud800"}, "attacker.weapons[0].name"),
    ({"name": "Bolt\x07rifle"}, "attacker.weapons[0].name"),
])
def test_a_name_that_is_not_plain_text_is_refused_at_its_field(field: dict,
                                                               path: str) -> None:
    with pytest.raises(DocumentError) as info:
        tactica.calculate(_doc({**_GUN, **field}))
    line = one_line(info.value)
    assert line.startswith(f"{path}: text holds a ")
    line.encode("utf-8")  # the refusal itself can be printed and sent


def test_a_lone_surrogate_in_a_named_effect_is_refused() -> None:
    with pytest.raises(DocumentError) as info:
        tactica.calculate(_doc(effects=["Oath\udc00"]))
    assert one_line(info.value).startswith("effects: text holds a lone surrogate")


def test_tab_and_line_breaks_are_plain_text() -> None:
    assert clean_text("a\tb\nc\r") == "a\tb\nc\r"


@pytest.mark.parametrize("text", [
    "[" * 5000 + "]" * 5000,
    '{"attacker": ' + "[" * 100_000,
    '{"steps": ' + "[" * 3000 + "]" * 3000 + "}",
])
def test_deeply_nested_json_is_refused_in_one_line(text: str) -> None:
    # was RecursionError from Python's JSON decoder
    with pytest.raises(ValueError) as info:
        tactica.calculate(text)
    assert "\n" not in one_line(info.value)


def test_nesting_is_counted_outside_strings() -> None:
    text = json.dumps({"name": "[" * 1000, "x": [[1]]})
    assert loads(text)["x"] == [[1]]
    deep = "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)
    with pytest.raises(InputError, match="nested deeper than"):
        check_depth(deep)
    check_depth("[" * MAX_DEPTH + "]" * MAX_DEPTH)  # at the limit: accepted


# --- shrunk by the property suite (test_properties.py) ---------------------------------


@pytest.mark.parametrize("text", [
    '{"roster": {"forces": [{"selections": [{"name": "\\ud800", "type": "upgrade", '
    '"number": null}]}]}}',
    '{"roster": {"forces": [{"selections": [{"name": "\\ud800", "type": "unit", '
    '"number": []}]}]}}',
    "Boyz (85 points)\n\ud800",
])
def test_a_list_with_a_lone_surrogate_is_refused_in_a_printable_line(text: str) -> None:
    # the refusal quoted the name as it was (unprintable); the text list was read into a
    # roster whose JSON could not be written
    with pytest.raises(RosterParseError) as info:
        parse_roster(text, file="army.txt")
    line = one_line(info.value)
    line.encode("utf-8")
    assert line.startswith("army.txt") and "\n" not in line


@pytest.mark.parametrize("size", [[1], {"a": 1}, 3])
def test_a_tactica_roster_whose_battle_size_is_not_text_is_refused_at_its_field(
        size: object) -> None:
    # the long run (benchmarks/fuzz_run.py, list-tactica-json): "battle_size": [1] raised
    # TypeError: unhashable type: 'list' before the field was checked
    doc = {"format": "tactica-roster", "version": 1, "name": "Army", "battle_size": size,
           "points_limit": 2000, "units": []}
    with pytest.raises(RosterParseError) as info:
        parse_roster(json.dumps(doc), file="army.json")
    line = one_line(info.value)
    assert "battle_size" in line and "\n" not in line


@pytest.mark.parametrize("value", [[1], {"id": 1}, 5])
def test_a_catalogue_whose_game_system_id_is_not_text_is_refused_naming_the_file(
        value: object, tmp_path: Path) -> None:
    # the long run (catalogue): "gameSystemId": [1] raised TypeError: unhashable type:
    # 'list' when the catalogues needed were gathered
    from tactica.loaders.bsdata import load_bsdata
    from tactica.loaders.errors import LoadError

    path = tmp_path / "Xenos - Testers.json"
    path.write_text(json.dumps({"catalogue": {"id": "x1", "name": "Testers",
                                              "gameSystemId": value}}), encoding="utf-8")
    with pytest.raises(LoadError) as info:
        load_bsdata([path])
    assert info.value.source == str(path) and "gameSystemId should be text" in str(info.value)
