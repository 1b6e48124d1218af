"""The attacking side's abilities read against their published rules
(``loaders/wh40kdc_attack_readings``): a condition the record lost is added back, a bonus
that is not the unit's own attacks is listed, never applied.

Each worked example fields a library unit against a preset target and checks the
expected hits or wounds computed by hand from the datasheet's weapon line (read back
from the result) and the published rule quoted in the comment.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

import tactica
from tactica.effects.unit_abilities import unit_ability
from tactica.library import Library, load_library
from tactica.loaders.wh40kdc_attack_readings import (
    ATTACK_MARKS,
    KEYWORD_A,
    MENDS,
    WRAPS,
    _leaves,
    _tags,
)
from tactica.units import UnitError

BOLT = {"name": "Bolt rifle", "A": "1", "skill": 3, "S": 4, "AP": -1, "D": "1"}


@pytest.fixture(scope="module")
def lib() -> Library:
    return load_library()


def _records() -> dict[str, list[Any]]:
    from wh40kdc.data import raw_data

    out: dict[str, list[Any]] = {}
    for a in raw_data()["abilities"]:
        out.setdefault(a["name"], []).append(a)
    return out


def _calc(lib: Library, unit: str, target: str, weapon: str | None = None,
          phase: str = "shooting", **context: Any) -> Any:
    attacker: dict[str, Any] = {"unit": unit}
    if weapon:
        attacker["weapons"] = [weapon]
    return tactica.calculate({"phase": phase, "attacker": attacker,
                              "target": {"unit": target}, "context": context}, lib)


def _applied(r: Any, name: str) -> bool:
    return any(n.startswith(f"{name} (") for n in r.notes)


def test_every_attack_reading_names_a_record_and_a_leaf_it_mends(pinned_dataset: str) -> None:
    # A stale name or a leaf tag that matches nothing would leave the misread record
    # applied: each name is a dataset record, and each (name, tag) of MENDS concerns at
    # least one leaf of a record of that name.
    records = _records()
    assert set(MENDS) | set(ATTACK_MARKS) | set(KEYWORD_A) | set(WRAPS) <= set(records)
    for name in KEYWORD_A:  # each has a record testing the keyword "A"
        assert any('"keyword": "A"' in json.dumps(r.get("effect")) for r in records[name])
    for name, mends in MENDS.items():
        for tag, _ in mends:
            assert any(tag in _tags(leaf) for r in records[name]
                       for leaf in _leaves(copy.deepcopy(r.get("effect")))), (name, tag)


def test_no_library_unit_applies_a_listed_attack_reading(pinned_dataset: str,
                                                         lib: Library) -> None:
    # Every library unit carrying an ATTACK_MARKS ability with a part on its own attacks
    # lists it (with a reason) and never applies it, in either phase.
    hits = 0
    for sheet in lib.datasheets():
        names = [a.name for a in sheet.abilities if a.name in ATTACK_MARKS
                 and a.kind == "unit" and (ua := unit_ability(a)) is not None
                 and any(p.owner == "attacker" for p in ua.compiled.parts)]
        for name in names:
            for phase in ("shooting", "fight"):
                try:
                    r = _calc(lib, sheet.name, "meq", phase=phase)
                except UnitError:
                    continue  # a unit that cannot attack in this phase says so elsewhere
                hits += 1
                assert not _applied(r, name), (sheet.name, name, phase)
        names = [a.name for a in sheet.abilities if a.name in ATTACK_MARKS
                 and a.kind == "unit" and (ua := unit_ability(a)) is not None
                 and any(p.owner == "target" for p in ua.compiled.parts)]
        for name in names:  # a defence for another unit (Defender's Duty)
            r = tactica.calculate({"attacker": {"weapons": [BOLT]},
                                   "target": {"unit": sheet.name}}, lib)
            hits += 1
            assert not _applied(r, name), (sheet.name, name)
    assert hits >= len(ATTACK_MARKS)  # most of the named abilities are on library units


def test_a_bonus_against_monsters_and_vehicles_only(pinned_dataset: str,
                                                    lib: Library) -> None:
    # Paragon Warsuits, Righteous Paragons: "each time a model in this unit makes an
    # attack that targets a MONSTER or VEHICLE unit, add 1 to the Hit roll and add 1 to
    # the Wound roll" (the record: against anything). Heavy bolter A3 BS3+ S5
    # [SUSTAINED HITS 1]: against MEQ (T5) hits 3 x (4/6 + 1/6) = 2.5, wounds on 4+:
    # 1.25; against a tank (T10, a VEHICLE) hits on 2+: 3 x (5/6 + 1/6) = 3, wounds on
    # 6+ made 5+: 3 x 1/3 = 1.
    meq = _calc(lib, "Paragon Warsuits", "meq", "Heavy bolter:1")
    tank = _calc(lib, "Paragon Warsuits", "tank", "Heavy bolter:1")
    (line,) = meq.resolved.attacker
    assert (str(line.A), line.skill, line.S) == ("3", 3, 5)
    assert (meq.hits.mean, meq.wounds.mean) == pytest.approx((2.5, 1.25))
    assert (tank.hits.mean, tank.wounds.mean) == pytest.approx((3.0, 1.0))
    assert _applied(tank, "Righteous Paragons") and not _applied(meq, "Righteous Paragons")


def test_a_bonus_for_one_weapon_only(pinned_dataset: str, lib: Library) -> None:
    # Leman Russ Vanquisher, Tank-killer: "each time this model makes a ranged attack
    # with its vanquisher battle cannon that targets a MONSTER or VEHICLE unit, you can
    # re-roll the Wound roll". Against a tank (T10), BS4+: the cannon (S18) wounds on 3+,
    # re-rolled: 1/2 x (2/3 + 1/3 x 2/3) = 4/9; a lascannon (S12) on 3+, not re-rolled:
    # 1/2 x 2/3 = 1/3; the cannon against MEQ (T5, no keyword): 1/2 x 5/6 = 5/12.
    cannon = _calc(lib, "Leman Russ Vanquisher", "tank", "Vanquisher battle cannon")
    las = _calc(lib, "Leman Russ Vanquisher", "tank", "Lascannon")
    meq = _calc(lib, "Leman Russ Vanquisher", "meq", "Vanquisher battle cannon")
    assert cannon.wounds.mean == pytest.approx(4 / 9)
    assert las.wounds.mean == pytest.approx(1 / 3)
    assert meq.wounds.mean == pytest.approx(5 / 12)


def test_a_bonus_against_the_picked_enemy_unit_only(pinned_dataset: str,
                                                    lib: Library) -> None:
    # Sydonian Dragoons, Focused Hunters: "select one unit from your opponent's army ...
    # each time a model in this unit makes an attack that targets that unit, you can
    # re-roll the Hit roll" (the record: every attack). Radium jezzail A1 BS4+: 1/2 hit,
    # 3/4 re-rolled when context.designated names the ability, not otherwise.
    unit, weapon = "Sydonian Dragoons with Radium Jezzails", "Radium jezzail:1"
    plain = _calc(lib, unit, "meq", weapon)
    named = _calc(lib, unit, "meq", weapon, designated=["Focused Hunters"])
    other = _calc(lib, unit, "meq", weapon, designated=["Oath of Moment"])
    assert plain.hits.mean == pytest.approx(1 / 2) == other.hits.mean
    assert named.hits.mean == pytest.approx(3 / 4)
    assert any(n.startswith("Focused Hunters (") for n in plain.not_calculated)


def test_a_bonus_on_the_charge_or_after_remaining_stationary(pinned_dataset: str,
                                                             lib: Library) -> None:
    # Vanguard Assault: "each time this unit ends a Charge move, until the end of the
    # turn, melee weapons ... have the [LETHAL HITS] ability". Vanguard Veteran weapon A4
    # WS3+ S5 against MEQ (T5), wounding on 4+: 4 x 2/3 x 1/2 = 4/3 wounds; on the
    # charge a 6 to hit wounds by itself: 4 x (1/6 + 1/2 x 1/2) = 5/3.
    unit, weapon = "Vanguard Veteran Squad with Jump Packs", "Vanguard Veteran weapon:1"
    still = _calc(lib, unit, "meq", weapon, phase="fight")
    charged = _calc(lib, unit, "meq", weapon, phase="fight", charged=True)
    assert still.wounds.mean == pytest.approx(4 / 3)
    assert charged.wounds.mean == pytest.approx(5 / 3)
    # Signum (Devastator Squad): "each time this unit Remains Stationary ... ranged
    # weapons ... have the [IGNORES COVER] ability". The default loadout's 10 boltgun
    # shots BS3+ at MEQ in cover (-1 to hit): 10 x 1/2 = 5; stationary, cover ignored:
    # 10 x 2/3.
    cover = _calc(lib, "Devastator Squad", "meq", cover=True)
    stationary = _calc(lib, "Devastator Squad", "meq", cover=True, remained_stationary=True)
    assert sum(int(str(w.A)) * w.count for w in cover.resolved.attacker) == 10
    assert cover.hits.mean == pytest.approx(5.0)
    assert stationary.hits.mean == pytest.approx(20 / 3)


def test_a_bonus_needing_an_unstated_circumstance_is_listed(pinned_dataset: str,
                                                            lib: Library) -> None:
    # Aggressor Squad, Close-quarters Firepower: "each time a model in this unit makes a
    # ranged attack that targets the closest eligible target, improve the Armour
    # Penetration characteristic of that attack by 1" (the record: every ranged attack).
    # Flamestorm gauntlets AP-1 against MEQ's 3+ save: saved on 4+, so half the wounds
    # go through (with the AP improved they would be 2/3).
    r = _calc(lib, "Aggressor Squad", "meq")
    assert {w.AP for w in r.resolved.attacker} == {-1}
    assert r.unsaved.mean == pytest.approx(r.wounds.mean / 2)
    assert any(n.startswith("Close-quarters Firepower (") and "closest eligible" in n
               for n in r.not_calculated)


def test_a_mark_for_other_units_is_not_the_units_own_bonus(pinned_dataset: str,
                                                           lib: Library) -> None:
    # Storm Speeder Thunderstrike, Thunderstrike: "each time this model has shot, select
    # one enemy MONSTER or VEHICLE unit that was hit ... each time a friendly ADEPTUS
    # ASTARTES unit makes a ranged attack that targets that enemy unit, add 1 to the
    # Wound roll" (the record: +1 to wound on its own shots). Against a tank (T10), BS3+:
    # 2 S10 missiles and 2 S10 las-talon shots wound on 4+, 6 S6 rockets on 5+:
    # 2/3 x (4 x 1/2 + 6 x 1/3) = 8/3 wounds, with no +1.
    r = _calc(lib, "Storm Speeder Thunderstrike", "tank")
    assert sorted((w.S, int(str(w.A))) for w in r.resolved.attacker) == [(6, 6), (10, 2),
                                                                         (10, 2)]
    assert r.wounds.mean == pytest.approx(8 / 3)
    assert any(n.startswith("Thunderstrike (") and "marks an enemy unit" in n
               for n in r.not_calculated)


def test_a_keyword_test_on_a_stands_for_the_published_one(pinned_dataset: str,
                                                        lib: Library) -> None:
    # Hydra, Flak Battery: "each time this model makes an attack that targets a unit
    # that can FLY, you can re-roll the Hit roll" (the record tests the keyword "A", so
    # it never applied). Hydra autocannon A4 BS4+: against a Dakkajet (FLY) 4 x 3/4 = 3
    # hits; against a tank 4 x 1/2 = 2.
    fly = _calc(lib, "Hydra", "Dakkajet", "Hydra autocannon")
    tank = _calc(lib, "Hydra", "tank", "Hydra autocannon")
    (line,) = fly.resolved.attacker
    assert (str(line.A), line.skill) == ("4", 4)
    assert fly.hits.mean == pytest.approx(3.0)
    assert tank.hits.mean == pytest.approx(2.0)


def test_an_aura_for_units_with_a_keyword_skips_a_bearer_without_it(pinned_dataset: str,
                                                                    lib: Library) -> None:
    # Tervigon, Brood Progenitor: "while a friendly TERMAGANTS unit is within 6" of this
    # model, ranged weapons equipped by models in that unit have the [LETHAL HITS]
    # ability" (the record: the Tervigon's own weapons). Stinger salvoes A8 BS3+ S5
    # against MEQ (T5): 8 x 2/3 x 1/2 = 8/3 wounds, not 8 x (1/6 + 1/2 x 1/2) = 10/3.
    r = _calc(lib, "Tervigon", "meq")
    assert [(str(w.A), w.skill, w.S) for w in r.resolved.attacker] == [("8", 3, 5)]
    assert r.wounds.mean == pytest.approx(8 / 3)



def test_a_defence_for_a_led_unit_or_for_units_with_a_keyword(pinned_dataset: str,
                                                              lib: Library) -> None:
    # Grand Master Voldus, Sanctuary: "while this model is leading a unit, each time an
    # attack targets that unit, subtract 1 from the Hit roll" (the record: always). A
    # BS3+ shot hits Voldus alone on 3+ (2/3) and the Brotherhood Terminators he leads
    # on 4+ (1/2). Knight Tyrant, Infernal Aegis: "while a friendly WAR DOG model is
    # within 6" of this model, that WAR DOG model has the Benefit of Cover" (the record:
    # the Knight itself; in 11th cover is -1 to hit): 2/3. Convergence of Dominion,
    # Reanimation Nodes: "while a friendly NECRONS INFANTRY unit is within 6" of this
    # FORTIFICATION, models in that unit have the Feel No Pain 6+ ability": listed, not
    # the Fortification's own (its Feel No Pain is the datasheet's core ability).
    def shot(target: dict[str, Any]) -> Any:
        return tactica.calculate({"attacker": {"weapons": [BOLT]}, "target": target}, lib)

    assert shot({"unit": "Grand Master Voldus"}).hits.mean == pytest.approx(2 / 3)
    led = shot({"unit": "Brotherhood Terminator Squad", "led_by": ["Grand Master Voldus"]})
    assert led.hits.mean == pytest.approx(1 / 2)
    assert shot({"unit": "Knight Tyrant"}).hits.mean == pytest.approx(2 / 3)
    nodes = shot({"unit": "Convergence of Dominion"})
    assert not any(n.startswith("Reanimation Nodes (Aura) (") for n in nodes.notes)
    assert any(n.startswith("Reanimation Nodes (Aura) (") for n in nodes.not_calculated)


def test_a_feel_no_pain_against_mortal_wounds_only_is_not_the_models_own(
        pinned_dataset: str, lib: Library) -> None:
    # Broadside Battlesuits, Advanced Armour: "models in this unit have the Feel No Pain
    # 4+ ability against mortal wounds" (the record: a Feel No Pain 4+ of the unit, which
    # the loader used to give the models themselves). A BS3+ S4 AP-1 D1 shot at T6 Sv2+:
    # hits 2/3, wounds on 5+ (1/3), saved on 3+ (fails 1/3): 2/27 damage, not halved.
    r = tactica.calculate({"attacker": {"weapons": [BOLT]},
                           "target": {"unit": "Broadside Battlesuits"}}, lib)
    (group,) = r.resolved.target
    assert (group.T, group.Sv, group.invuln, group.fnp) == (6, 2, None, None)
    assert r.damage.mean == pytest.approx(2 / 27)
    assert any(n.startswith("Advanced Armour (") for n in r.not_calculated)


def test_a_name_whose_published_texts_differ_by_faction(pinned_dataset: str) -> None:
    # Hammerhand: the Agents of the Imperium text is "each time this unit makes a Charge
    # move ... melee weapons ... have the [LETHAL HITS] ability", the Grey Knights one
    # "while this model is leading a unit, melee weapons ... [LETHAL HITS]": the record
    # with the leader's condition is kept as it is, the other gets the charge.
    from tactica.loaders.wh40kdc_readings import mended_effect

    records = _records()["Hammerhand (Psychic)"]
    led = [r for r in records if "is-attached" in json.dumps(r["effect"])]
    alone = [r for r in records if "is-attached" not in json.dumps(r["effect"])]
    assert led and alone
    assert all(mended_effect(r) == r["effect"] for r in led)
    assert all("charged-this-turn" in json.dumps(mended_effect(r)) for r in alone)
