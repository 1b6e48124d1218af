"""Each standard target (``meq``, ``knight``, ...) is the unit it names (issues 41 and 43).

Three checks per preset:

* with the dataset, the preset IS the unit: fielded by the calculator (``resolve_target``)
  and by the library (``Library.target``), in either phase, it equals the unit fielded by
  its own name at the preset's model count, so a calculation against it gives the unit's
  numbers (Wraithguard against ``knight`` and against "Knight Paladin"); at a size the
  unit is not fielded at (``geq`` at 5 models) the preset's own data, said in a note;
* the preset's own data (what a library without the unit uses: the seed pages alone)
  equals the unit's defensive profile read here from the raw datasheet: T, Sv, W, every
  invulnerable save (one against ranged attacks only included), Feel No Pain, damage
  reduction, every keyword, and equals the unit as fielded in both phases;
* the README's table gives the preset's figures.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import tactica
from tactica.combat.contract.scenario import Target
from tactica.facts import TargetPreset, load_presets
from tactica.index import Library
from tactica.library import load_library
from tactica.model.datasheet import Datasheet
from tactica.names import name_key
from tactica.sources import SourcedLibrary
from tactica.units import UnitRef, resolve_target

pytest.importorskip("wh40kdc")

NAMES = [p.name for p in load_presets()]
#: the README's model counts and the units they stand for (the documented choice)
DOCUMENTED = {"meq": 5, "geq": 10, "teq": 5, "light-vehicle": 1, "tank": 1, "transport": 1,
              "armiger": 1, "knight": 1, "super-heavy": 1, "monster": 1}
PHASES = ("shooting", "fight")


@pytest.fixture(scope="module")
def lib() -> SourcedLibrary:
    found = load_library()
    assert isinstance(found, SourcedLibrary)
    return found


def _preset(name: str) -> TargetPreset:
    return next(p for p in load_presets() if p.name == name)


def _sheet(lib: SourcedLibrary, p: TargetPreset) -> Datasheet:
    sheet = lib.datasheet(p.unit, "11th")
    assert sheet.rules == "11th" and name_key(sheet.name) == name_key(p.unit)
    return sheet


# --- the raw datasheet, read here (not through the fielding code) ------------------------


def _raw_invuln(sheet: Datasheet, phase: str) -> set[int | None]:
    """Each model's best invulnerable save against the phase's attacks."""
    kind = "ranged" if phase == "shooting" else "melee"
    out: set[int | None] = set()
    for m in sheet.models:
        saves = [s.value for s in m.conditional_saves if s.against == kind]
        saves += [m.InSv] if m.InSv is not None else []
        out.add(min(saves) if saves else None)
    return out


def _raw_fnp(sheet: Datasheet) -> int | None:
    """The datasheet's Feel No Pain X+ (the core ability, whatever grants it)."""
    found = [int(str(a.parameter)) for a in sheet.abilities
             if a.kind == "core" and name_key(a.name) == name_key("Feel No Pain")]
    return min(found) if found else None


def _raw_damage_reduction(sheet: Datasheet) -> int:
    """Its passive "-N Damage" abilities (the effect code's damage-reduction by a number;
    an activated one, once per battle, such as Ablative Plating, is not a standing
    characteristic)."""
    total = 0
    for a in sheet.abilities:
        code = json.loads(a.effect) if a.effect else {}
        effect = code.get("effect", {})
        reduction = effect.get("modifier", {}).get("reduction")
        if code.get("behavior") == "passive" and effect.get("type") == "damage-reduction" \
                and isinstance(reduction, int):
            total += reduction
    return total


@pytest.mark.parametrize("name", NAMES)
def test_the_presets_data_is_its_units_defensive_profile(lib: SourcedLibrary,
                                                         name: str) -> None:
    p = _preset(name)
    sheet = _sheet(lib, p)
    assert p.models == DOCUMENTED[name]
    sizes = {(m.T, m.Sv, m.W) for m in sheet.models}
    assert sizes == {(p.T, p.Sv, p.W)}  # one stat line: every model of the unit has it
    for phase in PHASES:
        assert _raw_invuln(sheet, phase) == {p.invuln(phase)}, phase
    assert {m.InSv for m in sheet.models} == {p.InSv}
    assert {s for m in sheet.models for s in m.conditional_saves} == set(p.conditional_saves)
    assert p.fnp == _raw_fnp(sheet)
    assert p.damage_reduction == _raw_damage_reduction(sheet)
    assert p.keywords == tuple(dict.fromkeys((*sheet.keywords, *sheet.faction_keywords)))
    assert p.rules == sheet.rules


def _per_model(t: Target) -> list[tuple[object, ...]]:
    """Every model's defensive characteristics, model by model."""
    return sorted((g.T, g.Sv, g.invuln or 7, g.W, g.fnp or 7, g.character, g.wounds_lost)
                  for g in t.models for _ in range(g.count))


def _defences(t: Target) -> tuple[object, ...]:
    return (_per_model(t), t.model_count, t.damage_reduction, t.half_damage, t.keywords)


@pytest.mark.parametrize("name", NAMES)
def test_the_preset_is_its_unit_fielded(lib: SourcedLibrary, name: str) -> None:
    """The calculator's and the library's fielding of the preset are the unit's, whole;
    its own data (a library without the unit) has the same defences in each phase."""
    p = _preset(name)
    for phase in PHASES:
        unit, _ = resolve_target(UnitRef(unit=p.unit, models=p.models), lib, "11th", phase)
        preset, _ = resolve_target(UnitRef(unit=name), lib, "11th", phase)
        assert preset == unit, phase
        assert _defences(p.to_target(phase=phase)) == _defences(unit), phase
    assert lib.target(name) == lib.target(p.unit, models=p.models)
    if name == "meq":
        assert lib.target(name, models=10) == lib.target(p.unit, models=10)


def test_a_size_the_unit_is_not_fielded_at_takes_the_presets_stat_line(
        lib: SourcedLibrary) -> None:
    """Cadian Shock Troops come as 10 or 20: ``geq`` at 5 models is the preset's stat line
    (the unit's defences) at 5, said in a note; the unit by its name is refused."""
    p = _preset("geq")
    target, side = resolve_target(UnitRef(unit="geq", models=5), lib, "11th", "shooting")
    assert target == p.to_target(5) == lib.target("geq", models=5)
    assert side.notes == ["geq: Cadian Shock Troops has 10 or 20 models; 5 asked for: the "
                          "preset's own stat line, the unit's defences, is used at that "
                          "size (the unit's other abilities left out)"]
    with pytest.raises(ValueError, match="10 or 20 models; 5 asked for"):
        resolve_target(UnitRef(unit="Cadian Shock Troops", models=5), lib, "11th")
    with pytest.raises(ValueError, match="10 or 20 models; 5 asked for"):
        resolve_target(UnitRef(unit="geq", models=5, wargear=("Vox-caster",)), lib, "11th")


def test_the_knights_ranged_only_invulnerable_save() -> None:
    """The Knight Paladin's 5+ invulnerable save holds against ranged attacks only, and
    CHARACTER makes it a CHARACTER model: so in a library without the unit too (the seed
    pages, the preset's data)."""
    seeds = Library(presets=None)
    assert not seeds.has("Knight Paladin")
    shooting = resolve_target(UnitRef(unit="knight"), seeds, "11th", "shooting")[0]
    fight = resolve_target(UnitRef(unit="knight"), seeds, "11th", "fight")[0]
    assert [(g.invuln, g.character) for g in shooting.models] == [(5, True)]
    assert [(g.invuln, g.character) for g in fight.models] == [(None, True)]
    assert "TITANIC" in shooting.keywords


@pytest.mark.parametrize("phase", PHASES)
def test_wraithguard_do_to_knight_what_they_do_to_a_knight_paladin(phase: str) -> None:
    """Issue 43: 7.50 damage against ``knight`` (no invulnerable save), 5.00 against the
    unit (its 5+ against ranged attacks); now the same, distribution for distribution."""
    def calc(target: str) -> tactica.Result:
        return tactica.calculate({"attacker": {"unit": "Wraithguard"},
                                  "target": {"unit": target}, "phase": phase})

    preset, unit = calc("knight"), calc("Knight Paladin")
    assert preset.damage.pmf == unit.damage.pmf
    assert preset.models_destroyed.pmf == unit.models_destroyed.pmf
    assert preset.notes == unit.notes and preset.not_calculated == unit.not_calculated
    if phase == "shooting":
        assert preset.damage.mean == pytest.approx(5.0, abs=0.005)


def _readme_rows() -> dict[str, list[str]]:
    text = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `([\w-]+)` \|(.*)\|$", text, flags=re.MULTILINE)
    return {n: [c.strip() for c in cells.split("|")] for n, cells in rows if n in NAMES}


def test_the_readmes_table_gives_each_presets_figures() -> None:
    rows = _readme_rows()
    assert list(rows) == ["meq", "geq", "teq", "light-vehicle", "tank", "transport",
                          "armiger", "knight", "super-heavy", "monster"]
    for name, (unit, models, t, sv, w, invuln, other) in rows.items():
        p = _preset(name)
        assert (unit, int(models), int(t), sv, int(w)) == (
            p.unit, p.models, p.T, f"{p.Sv}+", p.W), name
        saves = ([f"{p.InSv}+"] if p.InSv else []) + [
            f"{s.value}+ vs {s.against}" for s in p.conditional_saves]
        assert invuln == (", ".join(saves) or "-"), name
        others = ([f"FNP {p.fnp}+"] if p.fnp else []) + (
            [f"-{p.damage_reduction} damage"] if p.damage_reduction else []) + (
            ["CHARACTER"] if "CHARACTER" in p.keywords else [])
        assert other == (", ".join(others) or "-"), name
