"""The fielding core keeps its answers (a table of many matchups fields each unit once):
a kept answer is the one fielding afresh gives, and a datasheet that is another object
(an edited copy under the same name) is fielded from its own data."""

from __future__ import annotations

import importlib

from tactica.calculator import prepare
from tactica.library import load_library, load_seed_library
from tactica.model import Datasheet, ModelProfile, ModelType, Source, Weapon, WeaponProfile
from tactica.units import Aim, NoWeaponsError, WargearError, field_unit, loadout
from tactica.units.firing import Armament, armament, expected_damage, hazard_cost

resolving = importlib.import_module("tactica.units.resolve")  # the module, not its function


def _forget() -> None:
    """Nothing kept: the next answer is worked out afresh."""
    resolving._attackers.clear()
    resolving._restricting.cache_clear()
    loadout._field_unit.cache_clear()


def squad(most: int) -> Datasheet:
    return Datasheet(name="Squad", rules="11th", source=Source(file="test"), model_types=(
        ModelType(name="Trooper", min=5, max=most, profile="Trooper",
                  equipment=("Bolt rifle",)),))


def test_a_kept_loadout_is_the_fresh_one_and_a_copy_is_its_own() -> None:
    small, big = squad(5), squad(10)
    first = field_unit(small)
    loadout._field_unit.cache_clear()
    assert field_unit(small) == first  # fielded afresh: the same unit
    assert field_unit(small) is field_unit(small)  # then kept
    # the same name, another datasheet: 10 models fit it, not the first one
    assert field_unit(big, 10).size == 10
    assert sum(m.count for m in field_unit(big).models) == 5


def test_a_kept_attacker_gives_the_scenario_resolved_afresh() -> None:
    """The attacker's lines depend on the target through its aim only: the same
    document prepared with the kept answers and with none kept is the same scenario."""
    lib = load_seed_library()
    docs = [{"attacker": {"unit": "Primus"}, "target": {"unit": t}, "phase": "fight"}
            for t in ("meq", "geq", "teq", "meq")]
    kept = [prepare(d, lib)[0] for d in docs]
    fresh = []
    for d in docs:
        _forget()
        fresh.append(prepare(d, lib)[0])
    assert kept == fresh
    assert kept[0] == kept[3] and kept[0] != kept[1]


def test_kept_attackers_are_fresh_ones_for_every_seed_matchup() -> None:
    """Every seed unit against every seed unit and preset, both phases: the scenario
    prepared with the answers kept (the aim cut down to the keywords some weapon is
    restricted by) is the one prepared with nothing kept."""
    lib = load_seed_library()
    units = list(lib.names())
    targets = [*units, *(p.name for p in lib.presets())]
    docs = [{"attacker": {"unit": a}, "target": {"unit": t}, "phase": phase}
            for a in units for t in targets for phase in ("shooting", "fight")]

    def each(fresh: bool) -> list[object]:
        out: list[object] = []
        for d in docs:
            if fresh:
                _forget()
            try:
                out.append(prepare(d, lib)[0])
            except ValueError as exc:
                out.append(str(exc))
        return out

    kept = each(False)
    assert kept == each(True)
    assert sum(not isinstance(k, str) for k in kept) > len(docs) // 2


def test_a_weapon_restricted_to_some_targets_is_picked_afresh_for_each_kind() -> None:
    """Tankbustas' Hunter profile may only target MONSTER or VEHICLE units: against a
    vehicle, an infantry unit and a monster, kept answers equal fresh ones, and the
    restricted profile is used against the vehicle only (the kept aim kept that
    keyword)."""
    from tactica.library import load_library

    lib = load_library()
    targets = ("Rhino", "Intercessor Squad", "Leman Russ Battle Tank", "Boyz", "monster")
    docs = [{"attacker": {"unit": a}, "target": {"unit": t}, "phase": "shooting"}
            for a in ("Tankbustas", "Eradicator Squad") for t in targets]
    kept = [prepare(d, lib)[0] for d in docs]
    fresh = []
    for d in docs:
        _forget()
        fresh.append(prepare(d, lib)[0])
    assert kept == fresh
    hunter = [any("Hunter" in w.name for w in s.attacker.weapons) for s in kept[:5]]
    assert hunter == [True, False, True, False, True]


def test_a_fixed_choice_is_the_choice_against_every_aim() -> None:
    """An armament whose choice no aim can change keeps it (``Armament.fixed``): for
    every seed unit's loadout in both phases, against aims from a grot to a knight, its
    choice is the one worked out against each aim (the same armament, nothing kept)."""
    from dataclasses import replace

    lib = load_seed_library()
    aims = [Aim(T=t, Sv=sv, W=w, invuln=inv) for t, sv, w, inv in
            ((2, 7, 1, None), (4, 3, 2, None), (5, 2, 3, 4), (12, 3, 22, 5))]
    fixed = chosen = 0
    for name in lib.names():
        sheet = lib.datasheet(name)
        for phase in ("shooting", "fight"):
            try:
                arm = armament(sheet, field_unit(sheet), phase)
            except NoWeaponsError:
                continue
            afresh = replace(arm, fixed=None)
            for aim in aims:
                assert arm.choose(aim) == afresh.choose(aim)
            fixed += arm.fixed is not None
            chosen += arm.fixed is None
    assert fixed and chosen  # both kinds met


def test_a_resolved_scenario_is_the_validated_one() -> None:
    """``resolve`` builds the scenario from parts valid already (``Scenario.trusted``): for every
    seed unit against every preset in both phases it is the scenario validating the same
    parts gives, the same fields set; and a Firing Deck weapon in the fight is still
    refused (24.14)."""
    import pytest

    from tactica.combat import Scenario
    from tactica.combat.contract.scenario import Attacker, WeaponLine

    lib = load_seed_library()
    met = 0
    for a in lib.names():
        for t in (p.name for p in lib.presets()):
            for phase in ("shooting", "fight"):
                try:
                    s = prepare({"attacker": {"unit": a}, "target": {"unit": t},
                                 "phase": phase}, lib)[0]
                except ValueError:
                    continue
                data = {k: getattr(s, k) for k in Scenario.model_fields}
                built = Scenario.trusted(data)
                valid = Scenario.model_validate(data)
                assert built == valid
                assert built.model_fields_set == valid.model_fields_set
                met += 1
    assert met
    deck = Attacker(firing_deck=2, weapons=(WeaponLine(A="1", skill=4, S=4, D="1",
                                                       firing_deck=True),))
    data = {"attacker": deck, "target": s.target, "phase": "fight"}
    with pytest.raises(ValueError, match="shooting phase only"):
        Scenario.trusted(data)


def _reference_choice(arm: Armament, aim: Aim) -> list[tuple[str, WeaponProfile, int]]:
    """The profiles a loadout fires (no profile named by hand), worked out from its
    weapons as the rules say with nothing decided beforehand: per model, each weapon's
    profile that does most for its Hazardous cost (the first on a tie); in the fight one
    weapon besides [EXTRA ATTACKS]; in the shooting phase its Pistols or the rest,
    whichever does more (unless the unit is exempt, 24.07)."""
    keywords = (*arm.sheet.keywords, *arm.sheet.faction_keywords)
    counts: dict[tuple[str, WeaponProfile], int] = {}
    for n, weapons in arm.groups:
        picks = []
        for w in weapons:
            worth = [expected_damage(p, aim) - hazard_cost(p, arm.rules, keywords)
                     for p in w.profiles]
            picks.append(w.profiles[worth.index(max(worth))])
        if arm.phase == "fight":
            extra = [p for p in picks if p.has("Extra Attacks")]
            main = [p for p in picks if not p.has("Extra Attacks")]
            worth = [expected_damage(p, aim) for p in main]
            picks = ([main[worth.index(max(worth))]] if main else []) + extra
        elif not arm.exempt:
            pistols = [p for p in picks if p.has("Pistol") or p.has("Close-quarters")]
            other = [p for p in picks if p not in pistols]
            if pistols and other:
                picks = max((other, pistols),
                            key=lambda ps: sum(expected_damage(p, aim) for p in ps))
        for p in picks:
            counts[p.name, p] = counts.get((p.name, p), 0) + n
    return [(name, p, n) for (name, p), n in counts.items()]


def test_the_choice_is_the_one_worked_out_from_the_weapons_for_every_library_unit() -> None:
    """An armament decides once what its models may choose between (``_Options``: the
    profiles and their Hazardous costs); against every aim its choice is the one worked
    out from the weapons afresh (``_reference_choice``), for every unit of the library in
    both phases, against aims from a grot to a knight."""
    lib = load_library()
    aims = [Aim(T=t, Sv=sv, W=w, invuln=inv) for t, sv, w, inv in
            ((2, 7, 1, None), (4, 3, 2, None), (5, 2, 3, 4), (12, 3, 22, 5))]
    fixed = chosen = 0
    for name in lib.names():
        for sheet in lib.datasheet_versions(name):
            try:
                unit = field_unit(sheet)
            except WargearError:
                continue
            for phase in ("shooting", "fight"):
                try:
                    arm = armament(sheet, unit, phase, sheet.rules)
                except NoWeaponsError:
                    continue
                for aim in aims:
                    assert list(arm.choose(aim)) == _reference_choice(arm, aim), sheet.name
                fixed += arm.fixed is not None
                chosen += arm.fixed is None
    assert fixed and chosen  # both kinds met: choices made against the aim, and fixed


def test_equal_profiles_of_two_weapons_fire_as_one_line() -> None:
    """Two model types each carry a weapon of their own whose profiles are equal (two
    records of one gun): against every aim they fire as one line, its count both groups'
    models, under the first of them (``Armament.firsts``), as the choice worked out from
    the weapons gives it; a profile that differs stays a line of its own."""
    def gun(name: str, ap: int) -> Weapon:
        return Weapon(name=name, profiles=(
            WeaponProfile(name="Gun – standard", range=24, A="2", skill=3, S=5, AP=ap,
                          D="1"),
            WeaponProfile(name="Gun – overcharged", range=24, A="1", skill=3, S=7,
                          AP=ap - 1, D="2")))

    sheet = Datasheet(
        name="Gunners", rules="11th", source=Source(file="test"),
        models=(ModelProfile(name="Gunner", T=4, Sv=3, W=1),),
        weapons=(gun("Gun", -1), gun("Gun copy", -1), gun("Gun odd", 0)),
        model_types=(
            ModelType(name="Gunner", min=2, max=2, profile="Gunner", equipment=("Gun",)),
            ModelType(name="Copyist", min=3, max=3, profile="Gunner",
                      equipment=("Gun copy",)),
            ModelType(name="Oddball", min=1, max=1, profile="Gunner",
                      equipment=("Gun odd",))))
    arm = armament(sheet, field_unit(sheet), "shooting")
    assert arm.fixed is None  # a choice of profiles: chosen per aim
    first, copy = sheet.weapons[0].profiles[0], sheet.weapons[1].profiles[0]
    assert first == copy and first is not copy and arm.firsts[id(copy)] is first
    for aim in (Aim(T=4, Sv=3, W=2), Aim(T=8, Sv=2, W=12), Aim(T=3, Sv=6, W=1)):
        got = arm.choose(aim)
        assert list(got) == _reference_choice(arm, aim)
        assert len(got) == 2 and sorted(n for _, _, n in got) == [1, 5]
