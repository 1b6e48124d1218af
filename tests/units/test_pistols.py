"""Pistols and the other ranged weapons, in both editions (units as fielded).

10th Pistol: "If a model is equipped with one or more Pistols, unless it is a MONSTER or
VEHICLE model, it can either shoot with its Pistols or with all of its other ranged
weapons." 11th 24.07/24.27 says the same of [CLOSE-QUARTERS]/[PISTOL] weapons
("excluding MONSTER/VEHICLE models"). So in both rule sets:

* Sydonian Dragoons with Radium Jezzails (a VEHICLE, one model: phosphor serpenta
  [PISTOL] and radium jezzail) fire both weapons, one of each;
* Intercessor Squad (infantry: bolt pistol, bolt rifle) fire their bolt rifles, not
  their bolt pistols (the rifles do more, and a model may not fire both).
"""

from __future__ import annotations

import pytest

from tactica.library import load_library
from tactica.units.firing import weapon_lines
from tactica.units.loadout import field_unit


@pytest.mark.parametrize("rules", ["10th", "11th"])
def test_a_vehicle_fires_its_pistol_and_its_other_guns(rules: str) -> None:
    sheet = load_library().datasheet("Sydonian Dragoons with Radium Jezzails")
    lines = {line.name: line.count
             for line in weapon_lines(sheet, field_unit(sheet), "shooting", rules)}
    assert lines == {"Phosphor serpenta": 1, "Radium jezzail": 1}


@pytest.mark.parametrize("rules", ["10th", "11th"])
def test_infantry_fire_their_pistols_or_their_other_guns(rules: str) -> None:
    sheet = load_library().datasheet("Intercessor Squad")
    names = {line.name for line in weapon_lines(sheet, field_unit(sheet), "shooting", rules)}
    assert not any("Pistol" in n for n in names)
    assert any("Bolt Rifle" in n for n in names)
