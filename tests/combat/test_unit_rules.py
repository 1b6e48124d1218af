"""Rules a unit brings besides its weapons: Deadly Demise as an exact side outcome, and
every rule of the scenario's units that the engine does not compute, under
``not_calculated``.

The worked examples use a Torrent S8 AP0 weapon against T4 Sv7 W1 models: each attack
destroys one model with probability 5/6 (wound on 2+, no save)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from tactica import calculate
from tactica.combat import Result
from tactica.combat.contract.scenario import Attacker, Phase, Scenario
from tactica.combat.exact.unit_rules import COMPUTED, rules_not_calculated
from tactica.facts import TargetPreset
from tactica.model import Datasheet, RulesVersion
from tactica.units import UnitError, UnitRef, resolve_attacker

from .test_worked_examples import models, torrent

F = Fraction
Json = dict[str, Any]


def _scenario(count: int, deadly_demise: str | None, context: Json,
              phase: str = "shooting", **extra: Any) -> Json:
    return {"phase": phase,
            "attacker": {"name": "a", "weapons": [torrent(count=count)]},
            "target": {"name": "t", "models": [models(count=2)],
                       "deadly_demise": deadly_demise, **extra},
            "context": context}


def _demise(result: Result) -> list[float]:
    found = [o for o in result.other_mortal_wounds if o.label.startswith("Deadly Demise")]
    assert len(found) == 1
    return list(found[0].distribution.pmf)


def test_deadly_demise_one_model() -> None:
    """24.08: one attack destroys the first model with 5/6; on a 6 (1/6) the attacking
    unit, within 6", suffers 3 mortal wounds: P(3) = 5/36, P(0) = 31/36."""
    r = calculate(_scenario(1, "3", {"distance": 6}))
    assert _demise(r) == pytest.approx([31 / 36, 0, 0, 5 / 36], abs=1e-12)


def test_deadly_demise_rolls_x_per_destroyed_model() -> None:
    """Two attacks, two models: destroyed ~ Binomial(2, 5/6); each destroyed model gives
    D3 with probability 1/6 (a fresh D3 each). Per model q = 5/6 at 0, 1/18 at 1, 2, 3;
    MW pmf = P(0 destroyed) δ0 + P(1) q + P(2) q*q."""
    q = [F(5, 6), F(1, 18), F(1, 18), F(1, 18)]
    qq = [sum(q[i] * q[k - i] for i in range(len(q)) if 0 <= k - i < len(q))
          for k in range(7)]
    k = [F(1, 36), 2 * F(5, 6) * F(1, 6), F(25, 36)]
    want = [k[0] * (n == 0) + k[1] * (q[n] if n < 4 else 0) + k[2] * qq[n] for n in range(7)]
    assert sum(want) == 1
    r = calculate(_scenario(2, "D3", {"distance": 3}))
    assert _demise(r) == pytest.approx([float(x) for x in want], abs=1e-12)
    mc = calculate({**_scenario(2, "D3", {"distance": 3}), "method": "monte-carlo",
                    "trials": 40_000, "seed": 5})
    mean = float(sum(n * x for n, x in enumerate(want)))
    assert abs(sum(n * x for n, x in enumerate(_demise(mc))) - mean) < 0.02


def test_deadly_demise_needs_the_units_within_6() -> None:
    """Shooting from 7" (or with no distance): no side outcome, a note says why."""
    for ctx in ({"distance": 7}, {}):
        r = calculate(_scenario(1, "3", ctx))
        assert not [o for o in r.other_mortal_wounds if "Deadly Demise" in o.label]
        assert any("Deadly Demise 3" in n for n in r.notes)


def test_unit_rules_not_computed_are_listed() -> None:
    """A target's Firing Deck and an unknown rule, an attacker's Deep Strike: listed with
    a reason; the target's Feel No Pain and Stealth are computed (not listed)."""
    doc = _scenario(1, None, {}, abilities=["Firing Deck 12", "Frobnicator",
                                            "Feel No Pain 5+", "Stealth"])
    doc["attacker"]["abilities"] = ["Deep Strike"]
    r = calculate(doc)
    assert any(n.startswith("Firing Deck 12 (t)") for n in r.not_calculated)
    assert any(n.startswith("Frobnicator (t): not modelled") for n in r.not_calculated)
    assert any(n.startswith("Deep Strike (a): not part of the attack") for n in r.not_calculated)
    assert not any("Feel No Pain" in n or "Stealth" in n for n in r.not_calculated)


def test_the_target_s_stealth_is_applied() -> None:
    """24.33 Stealth on the target's datasheet gives it the benefit of cover: BS4+ → 5+,
    hits 1/3 instead of 1/2."""
    from .test_worked_examples import weapon

    doc = {"attacker": {"weapons": [weapon(skill=4)]},
           "target": {"models": [models(count=5)], "abilities": ["Stealth"]}}
    assert calculate(doc).hits.mean == pytest.approx(1 / 3, abs=1e-12)


# --- real units (the "real-data" part: the packaged seed pages) ----------------------------


class _OneSheet:
    """A library of one datasheet, for fielding it (``tactica.units``)."""

    def __init__(self, sheet: Datasheet) -> None:
        self.sheet = sheet

    def datasheet(self, name: str, rules: RulesVersion | None = None) -> Datasheet:
        return self.sheet

    def presets(self) -> tuple[TargetPreset, ...]:
        return ()


def fielded(sheet: Datasheet, models: int | None, phase: Phase) -> Attacker:
    """The unit as fielded by default (its loadout's weapons for the phase)."""
    attacker, _ = resolve_attacker(UnitRef(unit=sheet.name, models=models), _OneSheet(sheet),
                                   sheet.rules, phase)
    return attacker


def test_seed_transports_deadly_demise_and_firing_deck() -> None:
    """The Banehammer (Deadly Demise D6+2, Firing Deck 12) and the Tyrannocyte (Deadly
    Demise D3) carry their rules into a target; Death Riders charging the Banehammer get
    the side outcome and the Banehammer's other rules under not_calculated."""
    from tactica.library import load_seed_library

    lib = load_seed_library()
    bane = lib.target("Banehammer")
    assert str(bane.deadly_demise) == "D6+2" and "Firing Deck 12" in bane.abilities
    assert str(lib.target("Tyrannocyte").deadly_demise) == "D3"
    attacker = fielded(lib.datasheet("Death Riders"), 5, "fight")
    r = calculate(Scenario(phase="fight", attacker=attacker, target=bane,
                           context={"charged": True}))
    assert r.not_calculated
    assert any(n.startswith("Firing Deck 12 (Banehammer)") for n in r.not_calculated)
    assert any(o.label.startswith("Deadly Demise D6+2") for o in r.other_mortal_wounds)


def test_every_seed_unit_rule_is_computed_or_listed() -> None:
    """Meta-test: each ability of every seed datasheet, as target and as attacker, is
    either computed (the target's Feel No Pain, Stealth, Deadly Demise; a named effect
    the calculation applied) or listed under not_calculated."""
    from tactica.library import load_seed_library

    lib = load_seed_library()
    meq = lib.target("meq")
    seen = 0
    for sheet in lib.datasheets():
        try:
            target = lib.target(sheet.name)
        except ValueError:
            continue
        try:
            attacker = fielded(sheet, None, "fight")
        except UnitError:  # no melee weapon
            continue
        for s in (Scenario(phase="fight", attacker=attacker, target=meq),
                  Scenario(phase="fight", attacker=attacker, target=target)):
            r = calculate(s)
            for whose, unit in (("attacker", s.attacker), ("target", s.target)):
                for rule in unit.abilities:
                    seen += 1
                    listed = any(n.startswith(f"{rule} ({unit.name})")
                                 for n in r.not_calculated)
                    computed = whose == "target" and rule.split(" ")[0] in {
                        c.split(" ")[0] for c in COMPUTED}
                    assert listed or computed or rule in r.effects_applied, rule
    assert seen > 10


def test_dataset_ability_kinds_are_computed_or_listed() -> None:
    """Meta-test over the bundled dataset (every unit that makes a target): no ability
    of any kind (core, faction, unit, wargear, damaged) is dropped silently."""
    pytest.importorskip("wh40kdc")
    from tactica.library import target_from_datasheet
    from tactica.loaders.wh40kdc import embedded_dataset

    ds = embedded_dataset()
    kinds: set[str] = set()
    units = 0
    for name in ds.names():
        sheet = ds.datasheet(name)
        if sheet is None or not sheet.weapons:
            continue
        try:
            target = target_from_datasheet(sheet)
            attacker = fielded(sheet, None, "fight" if any(
                w.is_melee for w in sheet.weapons) else "shooting")
        except (ValueError, UnitError):  # no stats or no weapon to fight with
            continue
        units += 1
        s = Scenario(phase="fight", attacker=attacker, target=target)
        listed = rules_not_calculated(s)
        for ability in sheet.abilities:
            kinds.add(ability.kind)
            rule = str(ability)
            for whose, unit in (("attacker", s.attacker), ("target", s.target)):
                computed = whose == "target" and ability.name in COMPUTED
                assert computed or any(n.startswith(f"{rule} ({unit.name})")
                                       for n in listed), (name, rule, whose)
    assert units > 100 and {"core", "unit"} <= kinds


def test_calc_death_riders_charging_the_banehammer_lists_its_rules() -> None:
    """The issue's command: ``tactica calc --attacker "Death Riders" --target Banehammer
    --phase fight --charged --json`` no longer says ``not_calculated: []``: the
    Banehammer's Firing Deck (and its other rules) are listed, Deadly Demise D6+2 is a
    side outcome for the Death Riders."""
    import json

    from typer.testing import CliRunner

    from tactica.cli import commands

    result = CliRunner().invoke(commands.app, [
        "calc", "--attacker", "Death Riders", "--target", "Banehammer", "--phase", "fight",
        "--charged", "--json"])
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert any(n.startswith("Firing Deck") and "(Banehammer)" in n
               for n in doc["not_calculated"])
    assert any(o["label"].startswith("Deadly Demise D6+2")
               for o in doc["other_mortal_wounds"])
