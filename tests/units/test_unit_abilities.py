"""A datasheet's own abilities, applied or listed (issue 23).

Checked against the bundled dataset's raw records (read here with ``wh40kdc``'s own
``raw_data``, not through the loader): every ability a unit's record lists with an
effect is, in a calculation with that unit, either applied (the result's notes say what
it did) or listed under ``not_calculated`` with the reason; never dropped. The worked
examples compute the odds by hand, and the metamorphic tests check that an ability
whose condition does not hold changes nothing.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

import tactica
from tactica.calculator import prepare
from tactica.combat.contract.scenario import Effect
from tactica.library import Library, load_library
from tactica.model.datasheet import Datasheet
from tactica.units import UnitError

BOLT = {"name": "Bolt rifle", "A": "1", "skill": 3, "S": 4, "AP": -1, "D": "1"}
FIST = {"name": "Fist", "range": "Melee", "A": "1", "skill": 3, "S": 4, "D": "1"}


@pytest.fixture(scope="module")
def lib() -> Library:
    return load_library()


def _raw() -> tuple[dict[tuple[str, str], Any], dict[tuple[str, str], Any], dict[str, Any]]:
    from wh40kdc.data import raw_data

    data = raw_data()
    units = {(u.get("faction_id") or "", u["id"]): u for u in data["units"]}
    abilities: dict[tuple[str, str], Any] = {}
    anywhere: dict[str, Any] = {}
    for a in data["abilities"]:
        abilities.setdefault((a.get("faction_id") or "", a["ability_id"]), a)
        anywhere.setdefault(a["ability_id"], a)
    return units, abilities, anywhere


def encoded(sheet: Datasheet, raw: Any) -> list[str]:
    """The names of the unit abilities with an effect in the unit's raw record."""
    units, abilities, anywhere = raw
    m = re.search(r"unit ([^/;]*)/([^;]+);", (sheet.source.note or ""))
    if m is None:
        return []
    unit = units.get((m[1], m[2]))
    if unit is None:
        return []
    out = []
    for aid in unit.get("ability_ids") or ():
        a = abilities.get((m[1], aid)) or abilities.get(("", aid)) or anywhere.get(aid)
        if a and a.get("effect") and a.get("ability_type") == "unit":
            out.append(str(a["name"]))
    return list(dict.fromkeys(out))


def _said(lines: tuple[str, ...], name: str, unit: str) -> bool:
    return any(line.startswith(f"{name} ({unit}):") for line in lines)


def check_unit(sheet: Datasheet, names: list[str], lib: Library) -> Iterator[str]:
    """Every ability in ``names`` is in the notes or not_calculated of a calculation
    with ``sheet`` as target (both phases) and as attacker (both phases); a refused
    unit (a clear ``UnitError``) is skipped. Yields what went wrong."""
    for phase in ("shooting", "fight"):
        plain = BOLT if phase == "shooting" else FIST
        docs = [{"phase": phase, "attacker": {"weapons": [plain]},
                 "target": {"unit": sheet.name}},
                {"phase": phase, "attacker": {"unit": sheet.name}, "target": {"unit": "meq"}}]
        for doc in docs:
            try:
                r = tactica.calculate({"rules": sheet.rules, **doc}, lib)
            except UnitError:
                continue
            said = (*r.notes, *r.not_calculated)
            # Deadly Demise X is the core ability (24.08): a side outcome, or a note
            core = tuple(d.label for d in r.other_mortal_wounds) + r.notes + r.not_calculated
            for name in names:
                if name.startswith("Deadly Demise") and any(
                        c.startswith(name) for c in core):
                    continue
                if not _said(said, name, sheet.name):
                    yield f"{sheet.name} ({phase}, {list(doc)}): {name} dropped"


def _with_abilities(lib: Library) -> list[Datasheet]:
    raw = _raw()
    return [s for s in lib.datasheets() if s.rules == "11th" and encoded(s, raw)]


def test_a_sample_of_units_applies_or_lists_every_encoded_ability(lib: Library) -> None:
    sheets = _with_abilities(lib)
    raw = _raw()
    sample = random.Random(23).sample(sheets, 12)
    problems = [p for s in sample for p in check_unit(s, encoded(s, raw), lib)]
    assert not problems, problems


@pytest.mark.slow
def test_every_library_unit_applies_or_lists_every_encoded_ability(lib: Library) -> None:
    raw = _raw()
    sheets = _with_abilities(lib)
    assert len(sheets) > 900
    problems = [p for s in sheets for p in check_unit(s, encoded(s, raw), lib)]
    assert not problems, problems[:20]


# --- worked examples (dataset 1.4.5) --------------------------------------------------


def _one_shot(D: str = "1") -> dict[str, Any]:
    """One attack that always hits (Torrent), S12 (wounds T6 on a 2+: S >= 2T) and AP-4,
    so a 5+ or 3+ armour save is never made."""
    return {"weapons": [{"name": "Lance", "A": "1", "skill": None, "S": 12, "AP": -4,
                         "D": D, "abilities": ["Torrent"]}]}


def test_ogryn_bodyguard_feel_no_pain(pinned_dataset: str, lib: Library) -> None:
    # The Ogryn Bodyguard datasheet lists the core Feel No Pain 6+ (the model's own:
    # "feel-no-pain-6" in the unit's record), and its ability "Ogryn Bodyguard", published
    # as "those OFFICER models have the Feel No Pain 4+ ability" (the record gives it to
    # the whole unit: listed, not applied, not even as the model's own Feel No Pain). One
    # Torrent S12 AP-4 D1 attack on T6 Sv5+ with no invulnerable save: wounds on a 2+
    # (5/6), no save, and the wound is ignored on a 6 (1/6): 5/6 x 5/6 = 25/36.
    units, _, _ = _raw()
    raw = next(u for u in units.values() if u["name"] == "Ogryn Bodyguard")
    assert "feel-no-pain-6" in raw["ability_ids"]
    r = tactica.calculate({"attacker": _one_shot(), "target": {"unit": "Ogryn Bodyguard"}},
                          lib)
    (group,) = r.resolved.target
    assert (group.T, group.Sv, group.invuln, group.fnp) == (6, 5, None, 6)
    assert r.damage.mean == pytest.approx(25 / 36)
    assert any(n.startswith("Ogryn Bodyguard (Ogryn Bodyguard): not applied")
               and "Officer models" in n for n in r.not_calculated)


def test_wall_of_muscle_reduces_damage_to_a_minimum_of_one(pinned_dataset: str,
                                                            lib: Library) -> None:
    # Bullgryn Squad: Wall of Muscle (-1 Damage: the dataset's damage-reduction 1) and
    # the unit's Feel No Pain; 11th 05.05 / reference facts 4.7: reductions come last and
    # damage is at least 1. A D2 attack deals 1, and a D1 attack still deals 1: both
    # give 5/6 (wound on a 2+, no save at AP-4 against Sv 3+) x (1 - P(FNP)).
    d1 = tactica.calculate({"attacker": _one_shot("1"), "target": {"unit": "Bullgryn Squad"}},
                           lib)
    d2 = tactica.calculate({"attacker": _one_shot("2"), "target": {"unit": "Bullgryn Squad"}},
                           lib)
    fnp = d1.resolved.target[0].fnp
    kept = (fnp - 1) / 6 if fnp else 1.0  # a wound is lost on a roll below the FNP
    assert d1.damage.mean == pytest.approx(5 / 6 * kept)
    assert d2.damage.mean == pytest.approx(5 / 6 * kept)
    assert any(n.startswith("Wall of Muscle (Bullgryn Squad): -1 Damage") for n in d1.notes)


def test_slabshield_and_praesidium_shield_add_a_wound_to_their_bearers(
        pinned_dataset: str, lib: Library) -> None:
    raw = _raw()
    units = raw[0]
    bullgryn_w = next(p["W"] for p in units[("astra-militarum", "bullgryn-squad")]["profiles"]
                      if p["name"] == "Bullgryn")
    guard_w = units[("adeptus-custodes", "custodian-guard")]["profiles"][0]["W"]
    r = tactica.calculate({"attacker": _one_shot(), "target": {"unit": "Bullgryn Squad"}}, lib)
    # every Bullgryn carries a slabshield by default
    assert {g.W for g in r.resolved.target} == {bullgryn_w + 1}
    # Custodian Guard: only the two models given a praesidium shield
    r = tactica.calculate({"attacker": _one_shot(), "target": {
        "unit": "Custodian Guard", "wargear": ["Praesidium shield:2"]}}, lib)
    assert sorted((g.count, g.W) for g in r.resolved.target) == [(2, guard_w),
                                                                  (2, guard_w + 1)]


def test_tactical_precision_gives_the_led_unit_lethal_hits(pinned_dataset: str,
                                                           lib: Library) -> None:
    # Lieutenant: "Tactical Precision: while this model is leading a unit, weapons
    # equipped by models in that unit have [LETHAL HITS]" (the dataset: is-attached ->
    # keyword-grant Lethal Hits on the unit).
    led, _, _ = prepare({"attacker": {"unit": "Intercessor Squad", "led_by": ["Lieutenant"]},
                         "target": {"unit": "meq"}}, lib)
    grants = [e for e in led.effects if isinstance(e, Effect) and e.grant is not None]
    assert [str(g.grant) for g in grants] == ["Lethal Hits"]
    assert grants[0].weapons is None  # every model of the unit, the Lieutenant's too


# --- metamorphic: a condition that does not hold changes nothing ----------------------


def test_a_leader_ability_without_a_unit_to_lead_changes_nothing(lib: Library) -> None:
    alone, _, _ = prepare({"attacker": {"unit": "Lieutenant"}, "target": {"unit": "meq"}},
                          lib)
    assert alone.effects == ()
    assert _said(alone.attacker.rules_not_applied, "Tactical Precision", "Lieutenant")
    # a Hospitaller alone: Medicus Ministorum (FNP 5+ while leading) does not hold
    r = tactica.calculate({"attacker": _one_shot(), "target": {"unit": "Hospitaller"}}, lib)
    assert all(g.fnp is None for g in r.resolved.target)
    led = tactica.calculate({"attacker": _one_shot(), "target": {
        "unit": "Battle Sisters Squad", "led_by": ["Hospitaller"]}}, lib)
    assert {g.fnp for g in led.resolved.target} == {5}


def test_a_defence_of_the_other_phase_changes_nothing(pinned_dataset: str,
                                                      lib: Library) -> None:
    # Contemptor-Galatus Dreadnought, Galatus Shield (published: "each time a melee
    # attack targets this model, subtract 1 from the Wound roll"; the dataset: in the
    # fight phase, -1 to the wound rolls of attacks on the unit): a shooting attack is
    # the same as on a copy of the unit given by its stat lines alone; in the fight
    # phase it is applied.
    unit = "Contemptor-Galatus Dreadnought"
    shoot = tactica.calculate({"attacker": {"weapons": [BOLT]}, "target": {"unit": unit}},
                              lib)
    plain = tactica.calculate({"attacker": {"weapons": [BOLT]}, "target": {
        "models": [g.model_dump() for g in shoot.resolved.target]}}, lib)
    assert shoot.damage.pmf == pytest.approx(plain.damage.pmf)
    fight, _, _ = prepare({"phase": "fight", "attacker": {"weapons": [FIST]},
                           "target": {"unit": unit}}, lib)
    assert Effect(wound=-1) in fight.effects


def _as_plain_copy(lib: Library, phase: str, weapon: dict[str, Any], unit: str) -> None:
    """The unit as a target gives the numbers of a copy given by its stat lines alone."""
    r = tactica.calculate({"phase": phase, "attacker": {"weapons": [weapon]},
                           "target": {"unit": unit}}, lib)
    plain = tactica.calculate({"phase": phase, "attacker": {"weapons": [weapon]}, "target": {
        "models": [g.model_dump() for g in r.resolved.target]}}, lib)
    assert r.damage.pmf == pytest.approx(plain.damage.pmf)


def test_a_suppressing_ability_is_not_read_as_the_units_own_defence(
        pinned_dataset: str, lib: Library) -> None:
    # Vyper, Harassment Fire, as published: "In your Shooting phase, after this unit has
    # shot, select one enemy unit hit by one or more of those attacks. Until the start of
    # your next turn, that enemy unit is suppressed" (-1 to its Hit rolls). The dataset
    # encodes it as "-1 to hit for attacks on this unit in the Shooting phase"; a bolt
    # rifle hitting on 3+ must hit the Vyper on 3+ (2/3), as it hits a plain copy.
    _as_plain_copy(lib, "shooting", BOLT, "Vyper")
    r = tactica.calculate({"attacker": {"weapons": [BOLT]}, "target": {"unit": "Vyper"}},
                          lib)
    (listed,) = [n for n in r.not_calculated if n.startswith("Harassment Fire (Vyper)")]
    assert "enemy unit this unit hit" in listed
    assert r.hits.mean == pytest.approx(2 / 3)
    # Hammer Blow (Wulfen with Storm Shields) marks an enemy it hit in the Fight phase.
    _as_plain_copy(lib, "fight", FIST, "Wulfen with Storm Shields")


def test_a_ranged_defence_in_the_same_shape_is_still_applied(pinned_dataset: str,
                                                             lib: Library) -> None:
    # Nephilim Jetfighter, Lightning-fast Manoeuvres, as published: "Each time a ranged
    # attack targets this model, subtract 1 from the Hit roll" (the same record shape as
    # Harassment Fire): one bolt rifle attack hitting on 3+ hits on 4+ (1/2).
    r = tactica.calculate({"attacker": {"weapons": [BOLT]},
                           "target": {"unit": "Nephilim Jetfighter"}}, lib)
    assert r.hits.mean == pytest.approx(1 / 2)
    assert not any(n.startswith("Lightning-fast") for n in r.not_calculated)


# --- options naming a model the composition does not have ----------------------------


def test_an_option_naming_a_missing_model_binds_to_the_types_carrying_its_weapon(
        pinned_dataset: str, lib: Library) -> None:
    """The dataset's Krieg Command Squad options name "Veteran Guardsman", a model its
    composition does not have; its rows are "Veteran Guardsman (Boltgun)" and so on. The
    option replacing the boltgun is, read from the records, that of the one row whose
    default weapons include a boltgun; the one replacing the laspistol of each row that
    carries one (any number of models may take it)."""
    from wh40kdc.data import raw_data

    data = raw_data()
    rows = next(c["models"] for c in data["unit_compositions"]
                if c.get("unit_id") == "krieg-command-squad")
    options = [o for o in data["wargear_options"] if o.get("unit_id") == "krieg-command-squad"
               and (o.get("model_constraint") or {}).get("model_name") == "Veteran Guardsman"]
    weapon = {w["id"]: w["name"] for w in data["weapons"]
              if w.get("faction_id") in ("astra-militarum", None, "")}
    sheet = lib.datasheet("Krieg Command Squad")
    for o in options:
        carriers = sorted(r["name"] for r in rows if r["name"].startswith("Veteran Guardsman")
                          and set(o["replaces"]) <= set(r["default_weapon_ids"]))
        replaced = tuple(weapon[i].casefold() for i in o["replaces"])
        bound = sorted(w.model or "" for w in sheet.wargear
                       if tuple(x.casefold() for x in w.replaces) == replaced)
        assert bound == carriers, (o["id"], bound, carriers)
    # a legal pick for the boltgun's bearer is fielded on that model
    r = tactica.calculate({"attacker": {"unit": "Krieg Command Squad",
                                        "wargear": ["Plasma gun"]},
                           "target": {"unit": "meq"}}, lib)
    assert any("Veteran Guardsman (Boltgun)" in t and "Plasma gun" in t
               for t in r.resolved.attacker_models)


def test_coverage_counts_every_encoded_ability_once_per_unit(lib: Library) -> None:
    """``tactica data report --coverage``'s unit abilities: each library unit's abilities
    that its raw record lists with an effect (Deadly Demise X excepted: the core ability)
    counted once, each in one class."""
    from tactica.effects.unit_abilities import coverage

    raw = _raw()
    sheets = [s for s in lib.datasheets() if s.rules == "11th"]
    expected = sum(len([n for n in encoded(s, raw) if not n.startswith("Deadly Demise")])
                   for s in sheets)
    doc = coverage(sheets)
    totals = doc["totals"]
    assert totals["abilities"] == expected
    assert totals["abilities"] == sum(totals.get(c, 0) for c in (
        "applied", "partly", "listed", "non-combat"))
    assert sum(row["abilities"] for row in doc["factions"].values()) == expected


def test_an_ability_that_picks_an_enemy_unit_applies_when_the_target_is_named(
        pinned_dataset: str, lib: Library) -> None:
    # Jackal Alphus, Priority Target (the dataset: designate an enemy unit; the unit's
    # attacks against it re-roll hit rolls of 1): listed by default, applied when
    # context.designated names it, and not when it names another rule (metamorphic).
    doc: dict[str, Any] = {"attacker": {"unit": "Jackal Alphus"}, "target": {"unit": "meq"}}
    plain, _, _ = prepare(doc, lib)
    assert not [e for e in plain.effects if isinstance(e, Effect) and e.reroll]
    assert _said(plain.attacker.rules_not_applied, "Priority Target", "Jackal Alphus")
    named, _, _ = prepare({**doc, "context": {"designated": ["Priority Target"]}}, lib)
    assert Effect(reroll="hit", which="ones") in named.effects
    other, _, _ = prepare({**doc, "context": {"designated": ["Oath of Moment"]}}, lib)
    assert other.effects == plain.effects


def test_wave_serpent_shield_only_against_attacks_stronger_than_the_model(
        pinned_dataset: str, lib: Library) -> None:
    # Wave Serpent Shield, as published: "Each time a ranged attack targets this model,
    # if the Strength characteristic of that attack is greater than the Toughness
    # characteristic of this model, subtract 1 from the Wound roll" (the record lost the
    # Strength condition; the loader adds it back). Against the Wave Serpent's T (T9 in
    # 1.4.5, read from the result): a BS3+ S4 shot wounds on 6+ untouched (2/3 x 1/6);
    # a BS3+ S12 shot wounds on 3+, made 4+ by the shield (2/3 x 1/2).
    weak = tactica.calculate({"attacker": {"weapons": [BOLT]},
                              "target": {"unit": "Wave Serpent"}}, lib)
    strong_line = {**BOLT, "name": "Lascannon", "S": 12}
    strong = tactica.calculate({"attacker": {"weapons": [strong_line]},
                                "target": {"unit": "Wave Serpent"}}, lib)
    (group,) = weak.resolved.target
    assert 2 * 4 <= group.T < 12 < 2 * group.T  # S4 at most half T; T < S12 < 2T
    assert weak.wounds.mean == pytest.approx(2 / 3 * 1 / 6)
    assert strong.wounds.mean == pytest.approx(2 / 3 * 1 / 2)
    assert any(n.startswith("Wave Serpent Shield") for n in strong.notes)
    assert not any(n.startswith("Wave Serpent Shield") for n in weak.notes)


# --- records read against their published rules (loaders/wh40kdc_readings) ------------


def test_every_reading_names_a_dataset_ability_and_no_unit_applies_a_listed_one(
        pinned_dataset: str, lib: Library) -> None:
    # The tables name abilities by the dataset's spelling: a stale name would leave the
    # misread record applied. Every name is a record of the dataset, and every library
    # unit carrying one of the listed abilities lists it and never applies it.
    from tactica.effects.unit_abilities import unit_ability
    from tactica.loaders.wh40kdc_readings import MARKS, STRENGTH_OVER_TOUGHNESS

    _, _, anywhere = _raw()
    recorded = {a["name"] for a in anywhere.values()}
    assert set(MARKS) | STRENGTH_OVER_TOUGHNESS <= recorded
    hits = 0
    for sheet in lib.datasheets():
        names = [a.name for a in sheet.abilities if a.name in MARKS and a.kind == "unit"
                 and (ua := unit_ability(a)) is not None  # a record read as a defence
                 and any(p.owner == "target" for p in ua.compiled.parts)]
        if not names:
            continue
        try:
            r = tactica.calculate({"attacker": {"weapons": [BOLT]},
                                   "target": {"unit": sheet.name}}, lib)
        except UnitError:
            continue  # a unit that cannot be fielded as a target says so elsewhere
        for name in names:
            hits += 1
            assert not any(n.startswith(f"{name} (") for n in r.notes), (sheet.name, name)
            # listed: with the published rule's reason, or an earlier one (no model
            # carries it, the player chooses when to use it)
            assert any(n.startswith(f"{name} (") for n in r.not_calculated), (sheet.name,
                                                                             name)
    assert hits >= len(MARKS) // 2  # most of the named abilities are on library units


def test_a_cover_denying_ability_gives_its_own_unit_no_cover(pinned_dataset: str,
                                                             lib: Library) -> None:
    # Immolator, Purge and Cleanse, as published: "Each time this model has shot, select
    # one enemy unit hit by one or more of those attacks. Until the end of the phase,
    # that enemy unit cannot have the Benefit of Cover." (the record: a grant of the
    # Benefit of Cover to the unit). A BS3+ shot hits the Immolator on 3+: 2/3.
    r = tactica.calculate({"attacker": {"weapons": [BOLT]},
                           "target": {"unit": "Immolator"}}, lib)
    assert r.hits.mean == pytest.approx(2 / 3)


def test_an_aura_for_friendly_units_tests_the_friendly_units_keywords(
        pinned_dataset: str, lib: Library) -> None:
    # Great Unclean One, Daemon Lord of Nurgle (Aura): "While a friendly [Nurgle Legiones
    # Daemonica] unit is within 6" of this model, add 1 to the Toughness characteristic
    # of models in that unit"; the model is within its own aura and is such a unit, so
    # it is T+1 against every attacker (the record's keyword test is on the friendly
    # unit, whatever the attacker is).
    units, _, _ = _raw()
    raw = next(u for u in units.values() if u["name"] == "Great Unclean One")
    r = tactica.calculate({"attacker": {"weapons": [BOLT]},
                           "target": {"unit": "Great Unclean One"}}, lib)
    assert {g.T for g in r.resolved.target} == {raw["profiles"][0]["T"] + 1}


def test_legendary_tenacity_only_against_attacks_stronger_than_bjorn(
        pinned_dataset: str, lib: Library) -> None:
    # Bjorn the Fell-Handed, Legendary Tenacity, as published: "if the Strength
    # characteristic of that attack is greater than this model's Toughness
    # characteristic, subtract 1 from the Wound roll". A BS3+ S4 shot against his T9
    # wounds on 6+ as it would without the ability: 2/3 x 1/6.
    r = tactica.calculate({"attacker": {"weapons": [BOLT]},
                           "target": {"unit": "Bjorn the Fell-Handed"}}, lib)
    (group,) = r.resolved.target
    assert group.T >= 2 * 4
    assert r.wounds.mean == pytest.approx(2 / 3 * 1 / 6)


def test_a_defence_reading_leaves_a_record_of_the_same_name_encoded_as_it_is(
        pinned_dataset: str, lib: Library) -> None:
    # Breaching Fire is read as a mark where a record gives it as the unit's own cover;
    # the Leagues of Votann record designates the enemy unit it hit (its weapons'
    # [IGNORES COVER] for the unit's allies) and keeps its own reason: it answers an
    # event, not "it gives this unit no cover".
    from tactica.loaders.wh40kdc_readings import MARKS

    r = tactica.calculate({"attacker": {"unit": "Bane Slayer's Bulwark Brokhyr Thunderkyn"},
                           "target": {"unit": "meq"}}, lib)
    (said,) = [n for n in r.not_calculated if n.startswith("Breaching Fire (")]
    assert MARKS["Breaching Fire"] not in said
    assert "answers an event" in said
