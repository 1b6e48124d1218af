"""Firing Deck X (24.14): passengers' guns in a TRANSPORT's attack, with their own BS."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError
from typer.testing import CliRunner

from tactica import calculate
from tactica.army.firing_deck import with_firing_deck
from tactica.cli import commands
from tactica.combat.contract.scenario import Attacker, Scenario, WeaponLine


def _line(name: str, count: int, skill: int, **extra: object) -> WeaponLine:
    return WeaponLine.model_validate({"name": name, "count": count, "A": "1", "skill": skill,
                                      "S": 4, "D": "1", **extra})


HULL = Attacker(name="Transport", keywords=("VEHICLE", "TRANSPORT"),
                weapons=(_line("hull gun", 6, 3),))
TARGET = {"name": "t", "models": [{"count": 20, "T": 4, "Sv": 7, "W": 1}]}


def test_with_firing_deck_takes_up_to_x_models() -> None:
    """10 passengers' guns through Firing Deck 6: 6 taken, 4 left out (said); a [ONE
    SHOT] weapon is never taken."""
    lines = (_line("autogun", 10, 4), _line("demo charge", 2, 4, abilities=["One Shot"]))
    atk, notes = with_firing_deck(HULL, 6, "Passengers", lines)
    deck = [w for w in atk.weapons if w.firing_deck]
    assert [(w.name, w.count) for w in deck] == [("autogun (embarked Passengers)", 6)]
    assert atk.firing_deck == 6
    assert any("4 left out" in n for n in notes)
    assert any("demo charge" in n and "ONE SHOT" in n for n in notes)


def test_passengers_shoot_with_their_own_bs() -> None:
    """The hull gun (6 attacks BS3+: 6 x 4/6 = 4 hits) and 6 passengers' guns (BS4+: 6 x
    3/6 = 3 hits): 7 hits."""
    atk, _ = with_firing_deck(HULL, 12, "Passengers", (_line("autogun", 6, 4),))
    r = calculate(Scenario.model_validate({"attacker": atk, "target": TARGET}))
    assert r.hits.mean == pytest.approx(7.0, abs=1e-12)


@pytest.mark.parametrize(("doc", "message"), [
    ({"firing_deck": 2, "weapons": [{"name": "g", "count": 3, "A": "1", "skill": 4, "S": 4,
                                     "D": "1", "firing_deck": True}]}, "up to 2 models"),
    ({"weapons": [{"name": "g", "A": "1", "skill": 4, "S": 4, "D": "1",
                   "firing_deck": True}]}, "attacker.firing_deck"),
])
def test_firing_deck_refusals(doc: dict[str, object], message: str) -> None:
    """More Firing Deck weapons than X, or no X: refused, naming the field."""
    with pytest.raises(ValidationError, match=message):
        Scenario.model_validate({"attacker": doc, "target": TARGET})


def test_firing_deck_is_a_shooting_rule() -> None:
    with pytest.raises(ValidationError, match="shooting phase only"):
        Scenario.model_validate({"phase": "fight", "attacker": {
            "firing_deck": 2, "weapons": [{"name": "g", "A": "1", "skill": 4, "S": 4,
                                           "D": "1", "firing_deck": True}]},
            "target": TARGET})


def test_calc_embarked_unit_fires_through_the_banehammer() -> None:
    """``tactica calc --attacker Banehammer --embarked "Neophyte Hybrids:10"``: the
    passengers' guns join the attack, at most the Banehammer's Firing Deck X of them."""
    runner = CliRunner()
    result = runner.invoke(commands.app, ["calc", "--attacker", "Banehammer", "--target",
                                          "meq", "--embarked", "Neophyte Hybrids:10",
                                          "--json"])
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    deck = [w for w in doc["weapons"] if "(embarked Neophyte Hybrids)" in w["weapon"]]
    assert len(deck) == 1 and 1 <= deck[0]["attacks"] <= 12
    assert not any(n.startswith("Firing Deck") for n in doc["not_calculated"])
    bad = runner.invoke(commands.app, ["calc", "--attacker", "Neophyte Hybrids", "--target",
                                       "meq", "--embarked", "Neophyte Hybrids"])
    assert bad.exit_code == 2 and "no Firing Deck" in bad.stderr


def test_list_transport_fires_with_its_embarked_unit() -> None:
    """An army list that embarks Neophyte Hybrids (10 models) in a Banehammer (10th seed
    datasheet, Firing Deck 12): the Banehammer's attack takes the passengers' guns, at
    most 12 models' worth, marked as Firing Deck weapons."""
    from tactica.army.attack import list_attacker
    from tactica.army.roster import Roster, RosterUnit
    from tactica.library import load_seed_library

    lib = load_seed_library()
    roster = Roster(rules="10th", units=(
        RosterUnit(id="u1", name="Banehammer"),
        RosterUnit(id="u2", name="Neophyte Hybrids", models=10, embarked_in="u1")))
    built = list_attacker(roster, "Banehammer", lib, "shooting")
    deck = [w for w in built.attacker.weapons if w.firing_deck]
    assert deck and sum(w.count for w in deck) <= 12
    assert built.attacker.firing_deck == 12
    assert all("(embarked Neophyte Hybrids)" in w.name for w in deck)
    fight = list_attacker(roster, "Banehammer", lib, "fight")
    assert not any(w.firing_deck for w in fight.attacker.weapons)
