"""Which profile of a multi-profile weapon is fired by default, and naming one (issue 41,
item 6).

The criterion (README, "Which profile"; ``units.firing``): the most estimated expected
damage against one model of the target less the profile's cost, the mortal wounds its
[HAZARDOUS] roll is expected to cost the firing unit; when a cost was counted the notes
say so. ``--profile`` takes a profile's full name or its own part ("Supercharge") when
only one weapon the models carry has a profile of that name.
"""

from __future__ import annotations

import json
from fractions import Fraction as F
from typing import Any

import pytest
from typer.testing import CliRunner

import tactica
from tactica.cli import commands
from tactica.library import load_library
from tactica.model.datasheet import WeaponProfile
from tactica.rules import get_ruleset

pytest.importorskip("wh40kdc")

UNIT = "Hellblaster Squad"
STANDARD = "Plasma Incinerator – Standard"
SUPERCHARGE = "Plasma Incinerator – Supercharge"
NOTE = ("Plasma Incinerator: Standard chosen over Supercharge, whose Hazardous is expected "
        "to cost the unit 0.33 mortal wounds per model firing it, counted against its "
        "expected damage (name it as the profile to fire it)")


def _profile(name: str) -> WeaponProfile:
    sheet = load_library().datasheet(UNIT, "11th")
    return next(p for w in sheet.weapons for p in w.profiles if p.name == name)


def _estimate(p: WeaponProfile, T: int, Sv: int, W: int) -> F:
    """One model's estimate against an Intercessor, written out here: attacks x hit x
    wound x failed save x Damage capped at W (both profiles: fixed A and D)."""
    hit = F(7 - p.skill, 6) if p.skill is not None else F(1)
    wound = F(7 - (2 if p.S >= 2 * T else 3 if p.S > T else 4 if p.S == T else
                   6 if 2 * p.S <= T else 5), 6)
    save = Sv - p.AP
    failed = F(min(save, 7) - 1, 6)
    return int(str(p.A)) * hit * wound * failed * min(int(str(p.D)), W)


def test_hellblasters_fire_standard_at_meq_and_the_notes_say_why() -> None:
    """Against an Intercessor (T5, Sv3+, W2): Supercharge's estimate is higher (40/27 against
    32/27) but less its Hazardous cost (11th 06.03: fails on 1-2, 1 mortal wound: 1/3 per
    model firing) it is lower (31/27), so Standard is fired, and a note says so."""
    std, sc = _profile(STANDARD), _profile(SUPERCHARGE)
    rs = get_ruleset("11th")
    cost = F(rs.hazard_fails_on, 6) * rs.hazard_mortal_wounds(("INFANTRY",))
    assert cost == F(1, 3)
    assert (_estimate(std, 5, 3, 2), _estimate(sc, 5, 3, 2)) == (F(32, 27), F(40, 27))
    assert _estimate(sc, 5, 3, 2) > _estimate(std, 5, 3, 2) > _estimate(sc, 5, 3, 2) - cost

    result = tactica.calculate({"attacker": {"unit": UNIT}, "target": {"unit": "meq"}})
    assert {s.weapon for s in result.stages} == {STANDARD}
    assert result.models_destroyed.mean == pytest.approx(2.907, abs=5e-4)
    assert NOTE in result.notes
    assert result.attacker_mortal_wounds is None or result.attacker_mortal_wounds.mean == 0


def test_a_costly_profile_chosen_is_noted_too() -> None:
    """Against T8: S8 wounds on 4+ where S7 needs 5+, so Supercharge is fired, its cost
    counted and said; the unit's expected mortal wounds are in the result."""
    result = tactica.calculate({"attacker": {"unit": UNIT},
                                "target": {"name": "T8", "models": [{"T": 8, "Sv": 3, "W": 10}]}})
    assert {s.weapon for s in result.stages if s.stage == "attacks"} == {SUPERCHARGE}
    assert ("Plasma Incinerator: Supercharge chosen over Standard though its Hazardous is "
            "expected to cost the unit 0.33 mortal wounds per model firing it (counted "
            "against its expected damage)") in result.notes
    assert result.attacker_mortal_wounds is not None
    assert result.attacker_mortal_wounds.mean == pytest.approx(5 / 3)


def test_a_weapon_without_a_cost_is_not_noted() -> None:
    result = tactica.calculate({"attacker": {"unit": "Intercessor Squad"},
                                "target": {"unit": "meq"}})
    assert not any("chosen over" in n for n in result.notes)


def _cli(*args: str) -> Any:
    return CliRunner().invoke(commands.app, ["calc", "--attacker", UNIT, "--target", "meq",
                                             *args])


@pytest.mark.parametrize("name", ["Supercharge", "supercharge", "SUPER-CHARGE",
                                  "plasma incinerator supercharge", SUPERCHARGE])
def test_a_short_profile_name_is_accepted(name: str) -> None:
    run = _cli("--json", "--profile", name)
    assert run.exit_code == 0, run.output
    got = json.loads(run.stdout)
    assert got["models_destroyed"]["mean"] == pytest.approx(3.539, abs=5e-4)
    full = tactica.calculate({"attacker": {"unit": UNIT, "profiles": [SUPERCHARGE]},
                              "target": {"unit": "meq"}})
    assert got["models_destroyed"]["pmf"] == pytest.approx(list(full.models_destroyed.pmf),
                                                           abs=1e-12)
    assert not any("chosen over" in n for n in got["notes"])  # named: nothing weighed


def test_a_short_name_several_carried_weapons_share_is_refused_with_them() -> None:
    """With a plasma pistol on the Sergeant, "Supercharge" names a profile of two weapons
    the models carry: refused in one line listing both; each full name is accepted."""
    run = _cli("--wargear", "Plasma pistol", "--profile", "Supercharge")
    assert run.exit_code != 0
    lines = run.output.strip().splitlines()
    assert len(lines) == 1, run.output
    assert "'Supercharge' is a profile of several weapons the models carry: Plasma " \
        "Incinerator – Supercharge, Plasma pistol – Supercharge" in lines[0]
    ok = _cli("--json", "--wargear", "Plasma pistol", "--profile", SUPERCHARGE,
              "--profile", "Plasma pistol – Supercharge")
    assert ok.exit_code == 0, ok.output
    unknown = _cli("--profile", "Overcharge")
    assert unknown.exit_code != 0 and "no weapon the models carry has a profile " \
        "'Overcharge'" in unknown.output
