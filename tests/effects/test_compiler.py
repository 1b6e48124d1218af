"""The effect compiler (``tactica.effects.compiler``, ``tactica.effects.dataset``): every
combat effect kind of the dataset's effect language and every condition kind, each on a
worked example checked by hand.

The effect trees are small hand-made ones in the shapes the 40kdc-data DSL uses (1.4.5,
``schemas/enrichment/ability-dsl``); each is the effect of one stratagem of a test
bundle, named in a scenario like any rule.

The baseline attack: 6 attacks, BS4+, S4 AP0 D1 into 10 models T4 Sv4+ W1. Hits 6 x 1/2
= 3, wounds 3 x 1/2 = 1.5, unsaved 1.5 x 1/2 = 0.75.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tactica.combat import calculate
from tactica.combat.exact.effects import NamedEffectError
from tactica.effects import dataset as dataset_module
from tactica.effects.compiler import compile_effect
from tactica.effects.dataset import DatasetEffects
from tactica.loaders.wh40kdc_rules import DatasetRules

GV = {"edition": "11th", "dataslate": "launch"}


def leaf(kind: str, target: str = "unit", **modifier: Any) -> dict[str, Any]:
    return {"type": kind, "target": target, "modifier": modifier}


def cond(kind: str, effect: dict[str, Any], **params: Any) -> dict[str, Any]:
    return {"type": "conditional", "condition": {"type": kind, "parameters": params},
            "effect": effect}


EFFECTS: dict[str, dict[str, Any]] = {
    "Plus One Hit": leaf("roll-modifier", roll="hit", operation="add", value=1),
    "Full Hit Reroll": leaf("re-roll", roll="hit", subset="all-failures"),
    "Wound Ones": leaf("re-roll", roll="wound", subset="ones"),
    "Strength Up": leaf("stat-modifier", stat="S", operation="add", value=1),
    "Sharper": leaf("stat-modifier", stat="AP", operation="improve", value=1),
    "More Attacks": leaf("stat-modifier", stat="A", operation="add", value=1),
    "Crit Five Sustained": {"type": "sequence", "steps": [
        leaf("keyword-grant", keywords=["Sustained Hits 1"]),
        leaf("roll-modifier", roll="hit", operation="crit-on", value=5)]},
    "Lethal": leaf("keyword-grant", keywords=["Lethal Hits"], weapon_type="ranged"),
    "Stubborn": leaf("feel-no-pain", threshold=5),
    "Shield": leaf("invulnerable-save", invuln_sv=4),
    "Tough Hide": leaf("damage-reduction", reduction=1),
    "Contempt": leaf("stat-modifier", stat="AP", operation="add", value=1, incoming=True),
    "Bombard": leaf("mortal-wounds", "target", count="D3"),
    "Maybe Bomb": {"type": "dice-gated", "dice": "D6", "threshold": 4, "comparison": "gte",
                   "on_fail": None, "on_success": leaf("mortal-wounds", "target", count=1)},
    "Fight Only": cond("phase-is", leaf("roll-modifier", roll="hit", operation="add",
                                        value=1), phase="fight"),
    "Infantry Only": cond("unit-has-keyword", leaf("roll-modifier", roll="hit",
                                                   operation="add", value=1),
                          keyword="Infantry"),
    "Tank Hunter": cond("target-has-keyword", leaf("roll-modifier", roll="wound",
                                                   operation="add", value=1),
                        keyword="Vehicle"),
    "Led Charge": cond("is-attached", leaf("roll-modifier", roll="hit", operation="add",
                                           value=1)),
    "Melee Only": cond("attack-is-type", leaf("roll-modifier", roll="hit", operation="add",
                                              value=1), attack_type="melee"),
    "Charged": cond("charged-this-turn", leaf("stat-modifier", stat="S", operation="add",
                                              value=1)),
    "Close In": cond("opponent-unit-within-range", leaf("roll-modifier", roll="hit",
                                                        operation="add", value=1),
                     range_inches=12),
    "Mark Prey": {"type": "designate-target", "designation": "mark-prey",
                  "applies": {"to": "attackers-of-target", "effect": leaf(
                      "re-roll", roll="wound", subset="all-failures")}},
    "Pick One": {"type": "choice", "options": [
        {"name": "Precise", "effect": leaf("roll-modifier", roll="hit", operation="add",
                                           value=1)},
        {"name": "Brutal", "effect": leaf("roll-modifier", roll="wound", operation="add",
                                          value=1)}]},
    "Run Fast": leaf("movement-modifier", stat="M", operation="add", value=2),
    "Odd Thing": {"type": "teleport-to-the-moon"},
}


def bundle() -> dict[str, Any]:
    names = list(EFFECTS)
    return {
        "factions": [{"id": "tf", "name": "Test Faction", "keywords": ["Test Faction"]},
                     {"id": "of", "name": "Other Faction", "keywords": ["Other Faction"]}],
        "detachments": [{"id": "d", "name": "Test Force", "faction_id": "tf",
                         "detachment_points": 1, "game_version": GV}],
        "stratagems": [{"id": f"s{i}", "name": n, "cp_cost": 1, "detachment_id": "d",
                        "phases": ["shooting", "fight"], "timing": "once-per-phase",
                        "player_turn": "either", "ability_id": f"a{i}", "game_version": GV}
                       for i, n in enumerate(names)]
        + [{"id": "none", "name": "Blank Card", "cp_cost": 1, "detachment_id": "d",
            "phases": ["shooting"], "timing": "once-per-phase", "player_turn": "either",
            "ability_id": None, "game_version": GV}],
        "abilities": [{"ability_id": f"a{i}", "name": n, "effect": EFFECTS[n]}
                      for i, n in enumerate(names)],
    }


@pytest.fixture(autouse=True)
def registry(monkeypatch: pytest.MonkeyPatch) -> Iterator[DatasetEffects]:
    effects = DatasetEffects(DatasetRules(bundle(), "test"))
    monkeypatch.setattr(dataset_module, "dataset_effects", lambda: effects)
    yield effects


def scenario(*effects: str, phase: str = "shooting", T: int = 4, Sv: int = 4, W: int = 1,
             AP: int = 0, D: str = "1", keywords: tuple[str, ...] = ("TEST FACTION",),
             target_keywords: tuple[str, ...] = (), **context: Any) -> dict[str, Any]:
    return {
        "phase": phase,
        "attacker": {"name": "Testers", "keywords": list(keywords), "weapons": [{
            "name": "gun", "count": 6, "range": "Melee" if phase == "fight" else 24,
            "A": "1", "skill": 4, "S": 4, "AP": AP, "D": D}]},
        "target": {"name": "Dummies", "keywords": list(target_keywords),
                   "models": [{"count": 10, "T": T, "Sv": Sv, "W": W}]},
        "context": context, "effects": list(effects),
    }


def unsaved(*effects: str, **kw: Any) -> float:
    return calculate(scenario(*effects, **kw)).unsaved.mean


def test_baseline() -> None:
    assert unsaved() == pytest.approx(0.75)


@pytest.mark.parametrize("name,expected", [
    ("Plus One Hit", 6 * 4 / 6 * 1 / 2 * 1 / 2),  # hit 3+
    ("Full Hit Reroll", 6 * 3 / 4 * 1 / 2 * 1 / 2),  # 1/2 + 1/2 x 1/2
    ("Wound Ones", 3 * 7 / 12 * 1 / 2),  # 1/2 + 1/6 x 1/2
    ("Strength Up", 3 * 2 / 3 * 1 / 2),  # S5 vs T4: 3+
    ("Sharper", 1.5 * 4 / 6),  # AP-1: Sv 5+
    ("More Attacks", 12 * 1 / 2 * 1 / 2 * 1 / 2),
    ("Crit Five Sustained", 6 * (1 / 2 + 1 / 3) * 1 / 2 * 1 / 2),  # 5+ crits: one extra hit
    ("Lethal", 6 * (2 / 6 * 1 / 2 + 1 / 6) * 1 / 2),  # a critical hit wounds automatically
])
def test_attack_modifiers(name: str, expected: float) -> None:
    assert unsaved(name) == pytest.approx(expected)


def test_defensive_kinds_apply_to_the_target() -> None:
    """The target is the rule's unit (a TEST FACTION unit): its defensive rules apply."""
    own = {"target_keywords": ("TEST FACTION",)}
    # Feel No Pain 5+: each unsaved wound ignored on 5+: 0.75 x 4/6 damage
    assert calculate(scenario("Stubborn", **own)).damage.mean == pytest.approx(0.75 * 4 / 6)
    # AP-3 into Sv3+: 6+ save; a 4+ invulnerable save is used instead: 1.5 x 1/2
    assert unsaved("Shield", AP=-3, Sv=3, **own) == pytest.approx(0.75)
    assert unsaved(AP=-3, Sv=3) == pytest.approx(1.5 * 5 / 6)
    # damage reduction 1 on D2 into W3: 1 damage per unsaved wound
    assert calculate(scenario("Tough Hide", D="2", W=3, **own)).damage.mean == \
        pytest.approx(0.75)
    # incoming AP worsened by 1: AP-1 becomes AP0 (Sv 4+ again)
    assert unsaved("Contempt", AP=-1, **own) == pytest.approx(0.75)
    assert unsaved(AP=-1) == pytest.approx(1.5 * 4 / 6)


def test_a_defensive_rule_never_protects_the_enemy() -> None:
    """The attacker's army rule with a defensive part: the target (no keyword of the
    rule's faction) does not gain the invulnerable save."""
    with pytest.raises(NamedEffectError, match="the target is not a TEST FACTION unit"):
        calculate(scenario("Shield", AP=-3, Sv=3))


def test_mortal_wounds_before_the_attacks() -> None:
    # D3 mortal wounds (mean 2) on W1 models: 2 models more on average, none saved
    base = calculate(scenario()).models_destroyed.mean
    assert calculate(scenario("Bombard")).models_destroyed.mean == pytest.approx(base + 2)
    # D6 4+: 1 mortal wound: half of the time
    assert calculate(scenario("Maybe Bomb")).models_destroyed.mean == pytest.approx(base + 0.5)


@pytest.mark.parametrize("name,context,fails,passes", [
    ("Fight Only", {}, {"phase": "shooting"}, {"phase": "fight"}),
    ("Infantry Only", {}, {}, {"keywords": ("TEST FACTION", "INFANTRY")}),
    ("Tank Hunter", {}, {}, {"target_keywords": ("VEHICLE",)}),
    ("Led Charge", {}, {}, {"led_by": ["Captain"]}),
    ("Melee Only", {}, {"phase": "shooting"}, {"phase": "fight"}),
    ("Charged", {}, {}, {"charged": True}),
    ("Close In", {}, {"distance": 18}, {"distance": 9}),
    ("Mark Prey", {}, {"designated": ["Someone Else"]}, {"designated": ["Mark Prey"]}),
])
def test_conditions_refuse_with_the_reason(name: str, context: dict[str, Any],
                                           fails: dict[str, Any],
                                           passes: dict[str, Any]) -> None:
    with pytest.raises(NamedEffectError, match=name):
        calculate(scenario(name, **fails))
    applied = calculate(scenario(name, **passes))
    assert applied.effects_applied == (name,)


def test_faction_condition() -> None:
    with pytest.raises(NamedEffectError, match="not a TEST FACTION unit"):
        calculate(scenario("Plus One Hit", keywords=("OTHER FACTION",)))
    # a generic profile with no faction keyword at all is taken as given
    assert unsaved("Plus One Hit", keywords=()) == pytest.approx(1.0)


def test_designation_is_assumed_when_the_scenario_does_not_say() -> None:
    r = calculate(scenario("Mark Prey"))
    assert "Mark Prey: assumes the target is the Mark Prey target" in r.notes
    assert r.unsaved.mean == pytest.approx(6 * 1 / 2 * 3 / 4 * 1 / 2)


def test_choice_needs_the_option_named() -> None:
    with pytest.raises(NamedEffectError, match=r"options: Precise \(\+1 to hit rolls\); "
                                               r"Brutal \(\+1 to wound rolls\)"):
        calculate(scenario("Pick One"))
    assert unsaved("Pick One: Brutal") == pytest.approx(3 * 4 / 6 * 1 / 2)


def test_non_combat_and_not_modelled_go_under_not_calculated(
        registry: DatasetEffects) -> None:
    r = calculate(scenario("Run Fast", "Blank Card", "Odd Thing"))
    assert r.unsaved.mean == pytest.approx(0.75)
    assert r.not_calculated == (
        "Run Fast: not a combat rule (movement)",
        "Blank Card: not modelled (the dataset has no effect for this stratagem)",
        "Odd Thing: not modelled (effect kind 'teleport-to-the-moon' unknown)")
    assert registry.unknown_kinds() == {"teleport-to-the-moon": 1}


def test_every_record_has_one_status(registry: DatasetEffects) -> None:
    statuses = {e.record.name: e.status for e in registry.entries}
    assert set(statuses.values()) == {"modelled", "non-combat", "not modelled"}
    assert statuses["Run Fast"] == "non-combat" and statuses["Plus One Hit"] == "modelled"


def test_unknown_kinds_are_counted_not_raised() -> None:
    out = compile_effect({"type": "sequence", "steps": [{"type": "x"}, {"type": "x"},
                                                       {"no": "type"}]}, "X")
    assert out.unknown["x"] == 2 and out.status == "not modelled"


def test_a_shooting_and_fight_stratagem_is_refused_during_fire_overwatch() -> None:
    """15.01 WHEN: the test stratagems are used in the shooting and fight phases, Fire
    Overwatch in the opponent's Movement or Charge phase."""
    with pytest.raises(NamedEffectError, match="not during Fire Overwatch"):
        calculate(scenario("Fire Overwatch", "Plus One Hit"))


def test_the_same_stratagem_once_per_phase() -> None:
    with pytest.raises(NamedEffectError, match="once per phase"):
        calculate(scenario("Plus One Hit", "Plus One Hit"))
