"""Validation: each code with a minimal failing list, and legal lists that pass.

Every failing list is the minimal legal list of ``helpers.army`` (a Primus leading
Neophyte Hybrids, Host of Ascension, Strike Force) with one thing changed; each test
checks that exactly the expected error codes appear. Seed units are used where they show
the rule; hand-made "Test ..." datasheets give keywords the five seed units lack.
"""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from tactica.army.formats import load_roster
from tactica.army.roster import EnhancementChoice, Roster, RosterUnit
from tactica.army.validation import (
    CODES,
    ValidationReport,
    eligibility_alternatives,
    resurgence_points,
    validate,
)
from tactica.library import Library, load_seed_library

from .helpers import AM, FIXTURES, GSC, TYR, army, enhancement, seed_plus, sheet, unit

LIB = load_seed_library()


def report(roster: Roster, library: Library = LIB) -> ValidationReport:
    return validate(roster, library)


def errors(r: ValidationReport) -> set[str]:
    return {v.code for v in r.violations if v.severity == "error"}


def warnings(r: ValidationReport) -> set[str]:
    return {v.code for v in r.violations if v.severity == "warning"}


def enh(*names: str) -> tuple[EnhancementChoice, ...]:
    return tuple(EnhancementChoice(name=n) for n in names)


def only(r: ValidationReport, code: str, units: Iterable[str | None] | None = None) -> None:
    """``code`` is the only error; with ``units``, the unit ids it was reported on."""
    assert errors(r) == {code}, r.violations
    if units is not None:
        assert sorted(v.unit_id or "" for v in r.violations if v.code == code) == sorted(
            u or "" for u in units)
    found = next(v for v in r.violations if v.code == code)
    assert found.message and found.rule == CODES[code]


# --- legal lists -------------------------------------------------------------------------


def test_the_minimal_list_is_legal() -> None:
    r = report(army())
    assert r.legal and r.violations == ()
    assert (r.prices.total, r.detachment_points, r.detachment_budget) == (160, 3, 3)


def test_a_strike_force_host_of_ascension_list_with_a_primus_leading_neophytes_validates(
) -> None:
    """The issue's done-when list: 2,000-point (Strike Force) Host of Ascension, three
    Primus leading Neophyte Hybrids, two enhancements, in the app's text format."""
    roster = load_roster(FIXTURES / "host_of_ascension.txt", library=LIB)
    r = report(roster)
    assert r.violations == ()
    assert r.legal
    assert roster.battle_size == "Strike Force" and roster.detachments == ("Host of Ascension",)
    primus, neophytes = roster.unit("u1"), roster.unit("u2")
    assert (primus.name, primus.attached_to, primus.warlord) == ("Primus", "u2", True)
    assert (neophytes.name, neophytes.models) == ("Neophyte Hybrids", 20)
    assert (r.prices.total, r.resurgence_points, r.detachment_points) == (1325, 10, 3)


# --- datasheets and sizes ----------------------------------------------------------------


def test_unknown_datasheet_with_did_you_mean() -> None:
    r = report(army(unit("u3", "Neophyte Hybrid", models=10)))
    only(r, "UNKNOWN_DATASHEET", ["u3"])
    assert "did you mean: Neophyte Hybrids" in r.violations[0].message


@pytest.mark.parametrize("models", [9, 21])
def test_model_count_outside_the_composition(models: int) -> None:
    only(report(army(unit("u3", "Neophyte Hybrids", models=models))), "MODEL_COUNT", ["u3"])


def test_model_count_above_the_largest_priced_size() -> None:
    """A unit with no composition data, priced only by brackets (Tyrannocyte: 1 model)."""
    no_composition = sheet("Test Swarm", GSC, ("INFANTRY",), 50, models=(5, 5))
    no_composition = no_composition.model_copy(update={"composition": ()})
    r = report(army(unit("u3", "Test Swarm", models=8)), seed_plus(no_composition))
    only(r, "MODEL_COUNT", ["u3"])


# --- points and detachments --------------------------------------------------------------


def test_points_limit() -> None:
    only(report(army(points_limit=150)), "POINTS_LIMIT", [None])


def test_points_stated_differently_are_a_warning() -> None:
    r = report(army(units=(unit("u1", "Primus", warlord=True, points=80),
                           unit("u2", "Neophyte Hybrids", models=10))))
    assert r.legal and warnings(r) == {"POINTS_MISMATCH"}


def test_no_battle_size_is_a_warning() -> None:
    r = report(army(battle_size=None))
    assert r.legal and warnings(r) == {"BATTLE_SIZE_UNKNOWN"}


def test_detachment_points_over_the_budget() -> None:
    """Host of Ascension (3) + Xenocreed Congregation (2) > Strike Force's 3."""
    r = report(army(detachments=("Host of Ascension", "Xenocreed Congregation")))
    only(r, "DETACHMENT_POINTS", [None])
    assert (r.detachment_points, r.detachment_budget) == (5, 3)


def test_detachment_points_stated_by_the_list_count_for_unknown_detachments() -> None:
    r = report(army(detachments=("Test Detachment",), detachment_points=4))
    assert errors(r) == {"DETACHMENT_POINTS"} and warnings(r) == {"DETACHMENT_UNKNOWN"}


def test_incursion_budget_is_two_detachment_points() -> None:
    only(report(army(battle_size="Incursion")), "DETACHMENT_POINTS")


def test_detachment_count_per_rules_version() -> None:
    only(report(army(detachments=())), "DETACHMENT_COUNT")
    tenth = army(rules="10th", detachments=("Host of Ascension", "Final Day"))
    only(report(tenth), "DETACHMENT_COUNT")


def test_unknown_detachment_is_a_warning_with_did_you_mean() -> None:
    r = report(army(detachments=("Host of Ascensoin",)))
    assert r.legal and warnings(r) == {"DETACHMENT_UNKNOWN"}
    assert "did you mean: Host of Ascension" in r.violations[0].message


# --- factions and allies -----------------------------------------------------------------


def test_astra_militarum_units_need_brood_brother_auxilia() -> None:
    r = report(army(unit("u3", "Banehammer")))
    only(r, "FACTION_NOT_ALLOWED", ["u3"])
    assert "Brood Brother Auxilia" in r.violations[0].message


def test_tyranids_units_need_final_day() -> None:
    only(report(army(unit("u3", "Tyrannocyte"), unit("u4", "Test Warriors", models=3,
                                                       embarked_in="u3")),
                seed_plus(sheet("Test Warriors", TYR, ("INFANTRY", "VANGUARD INVADER"), 60,
                                models=(3, 6), wounds=3))),
         "FACTION_NOT_ALLOWED", ["u3", "u4"])


def test_brood_brothers_points_cap() -> None:
    """Incursion: ASTRA MILITARUM units up to 500 points (450 + 70 here)."""
    r = report(army(unit("u3", "Banehammer"), unit("u4", "Death Riders", models=5),
                    battle_size="Incursion", detachments=("Brood Brother Auxilia",)))
    only(r, "BROOD_BROTHERS_POINTS")


def test_brood_brothers_exclusions() -> None:
    ogryns = sheet("Test Ogryns", AM, ("INFANTRY", "OGRYN"), 60, models=(3, 6), wounds=3)
    r = report(army(unit("u3", "Test Ogryns", models=3),
                    detachments=("Brood Brother Auxilia",)), seed_plus(ogryns))
    only(r, "BROOD_BROTHERS_EXCLUDED", ["u3"])


def test_brood_brothers_warlord_must_be_genestealer_cults() -> None:
    castellan = sheet("Test Castellan", AM, ("INFANTRY", "CHARACTER"), 45)
    r = report(army(unit("u3", "Test Castellan", warlord=True),
                    units=(unit("u1", "Primus", attached_to="u2"),
                           unit("u2", "Neophyte Hybrids", models=10)),
                    detachments=("Brood Brother Auxilia",)), seed_plus(castellan))
    only(r, "BROOD_BROTHERS_WARLORD", ["u3"])


def _final_day(*extra: RosterUnit, **fields: object) -> Roster:
    return army(*extra, detachments=("Final Day",), **fields)


INVADER = sheet("Test Invader", TYR, ("MONSTER", "VANGUARD INVADER"), 1100, wounds=12)
WARRIORS = sheet("Test Warriors", TYR, ("INFANTRY", "VANGUARD INVADER"), 60, models=(3, 9),
                 wounds=3)


def test_star_childrens_blessings_points_cap() -> None:
    """Strike Force: TYRANIDS VANGUARD INVADER units up to 1000 points."""
    only(report(_final_day(unit("u3", "Test Invader")), seed_plus(INVADER)),
         "STAR_CHILDREN_POINTS", [None])


@pytest.mark.parametrize("keywords", [("INFANTRY",), ("INFANTRY", "VANGUARD INVADER",
                                                      "GENESTEALERS")])
def test_star_childrens_blessings_exclusions(keywords: tuple[str, ...]) -> None:
    """Not VANGUARD INVADER, or a GENESTEALERS unit: not admitted."""
    bad = sheet("Test Brood", TYR, keywords, 60, models=(5, 10))
    only(report(_final_day(unit("u3", "Test Brood", models=5)), seed_plus(bad)),
         "STAR_CHILDREN_EXCLUDED", ["u3"])


def test_no_tyranids_warlord() -> None:
    prime = sheet("Test Prime", TYR, ("INFANTRY", "CHARACTER", "VANGUARD INVADER"), 80)
    roster = _final_day(unit("u3", "Test Prime", warlord=True),
                        units=(unit("u1", "Primus", attached_to="u2"),
                               unit("u2", "Neophyte Hybrids", models=10)))
    only(report(roster, seed_plus(prime)), "TYRANIDS_WARLORD", ["u3"])


def test_other_armies_get_a_warning_for_units_of_another_faction() -> None:
    r = report(army(faction="Chaos Knights", detachments=("Houndpack Lance",)))
    assert "ALLY_UNCHECKED" in warnings(r)
    assert report(army(faction=None)).violations[0].code == "FACTION_UNKNOWN"


# --- warlord -----------------------------------------------------------------------------


def test_no_warlord() -> None:
    only(report(army(units=(unit("u1", "Primus", attached_to="u2"),
                            unit("u2", "Neophyte Hybrids", models=10)))), "NO_WARLORD")


def test_two_warlords() -> None:
    only(report(army(unit("u3", "Primus", warlord=True))), "WARLORD_MULTIPLE", ["u3"])


def test_warlord_must_be_a_character() -> None:
    only(report(army(units=(unit("u1", "Primus", attached_to="u2"),
                            unit("u2", "Neophyte Hybrids", models=10, warlord=True)))),
         "WARLORD_NOT_CHARACTER", ["u2"])


# --- enhancements ------------------------------------------------------------------------


def _primus(*names: str, uid: str = "u1", **fields: object) -> RosterUnit:
    return unit(uid, "Primus", enhancements=enh(*names), **fields)


def test_enhancement_eligibility_magus_primus_or_acolyte_iconward() -> None:
    """Xenocreed Congregation: "MAGUS, PRIMUS or ACOLYTE ICONWARD model only"."""
    kelermorph = sheet("Test Gunslinger", GSC, ("INFANTRY", "CHARACTER"), 60)
    legal = army(units=(_primus("Denunciator of Tyrants", warlord=True),),
                 detachments=("Xenocreed Congregation",))
    assert report(legal).violations == ()
    broken = army(unit("u2", "Test Gunslinger", enhancements=enh("Denunciator of Tyrants")),
                  units=(_primus(warlord=True),), detachments=("Xenocreed Congregation",))
    only(report(broken, seed_plus(kelermorph)), "ENHANCEMENT_INELIGIBLE", ["u2"])


def test_enhancement_eligibility_genestealer_cults_infantry() -> None:
    """Brood Brother Auxilia: "GENESTEALER CULTS INFANTRY model only"."""
    rider = sheet("Test Rider", GSC, ("MOUNTED", "CHARACTER"), 70)
    broken = army(unit("u2", "Test Rider", enhancements=enh("The Hero Returned")),
                  units=(_primus(warlord=True),), detachments=("Brood Brother Auxilia",))
    only(report(broken, seed_plus(rider)), "ENHANCEMENT_INELIGIBLE", ["u2"])
    fine = army(units=(_primus("The Hero Returned", warlord=True),),
                detachments=("Brood Brother Auxilia",))
    assert report(fine).violations == ()


def test_enhancement_on_a_unit_that_is_not_a_character() -> None:
    only(report(army(units=(unit("u1", "Primus", warlord=True),
                            unit("u2", "Neophyte Hybrids", models=10,
                                 enhancements=enh("Assassination Edict"))))),
         "ENHANCEMENT_NOT_CHARACTER", ["u2"])


def test_no_enhancement_on_an_epic_hero() -> None:
    patriarch = sheet("Test Patriarch", GSC, ("INFANTRY", "CHARACTER", "EPIC HERO"), 80)
    only(report(army(unit("u3", "Test Patriarch", enhancements=enh("Assassination Edict"))),
                seed_plus(patriarch)), "ENHANCEMENT_EPIC_HERO", ["u3"])


def test_one_enhancement_per_character() -> None:
    only(report(army(units=(_primus("Assassination Edict", "Prowling Agitant", warlord=True),))),
         "ENHANCEMENT_MULTIPLE", ["u1"])


def test_each_enhancement_once() -> None:
    only(report(army(units=(_primus("Assassination Edict", warlord=True),
                            _primus("Assassination Edict", uid="u2")))),
         "ENHANCEMENT_DUPLICATE", ["u2"])


def test_enhancements_allowed_per_battle_size_10th() -> None:
    """10th edition: up to three enhancements."""
    magus = sheet("Test Magus", GSC, ("INFANTRY", "CHARACTER", "MAGUS"), 50)
    units = (_primus("Assassination Edict", warlord=True),
             _primus("Prowling Agitant", uid="u2"), _primus("Our Time Is Nigh", uid="u3"),
             unit("u4", "Test Magus", enhancements=enh("A Chink in Their Armour")))
    only(report(army(units=units, rules="10th"), seed_plus(magus)), "ENHANCEMENT_TOO_MANY",
         [None])
    assert report(army(units=units[:3], rules="10th")).violations == ()


def test_enhancements_allowed_per_battle_size_11th_incursion() -> None:
    """BSData wh40k-11e: two enhancements in Incursion (four in Strike Force)."""
    magus = sheet("Test Magus", GSC, ("INFANTRY", "CHARACTER", "MAGUS"), 50)
    units = (_primus("Gene-sire’s Reliquant", warlord=True),
             _primus("Incendiary Inspiration", uid="u2"),
             unit("u3", "Test Magus", enhancements=enh("Denunciator of Tyrants")))
    roster = army(units=units, battle_size="Incursion", detachments=("Xenocreed Congregation",))
    only(report(roster, seed_plus(magus)), "ENHANCEMENT_TOO_MANY")
    assert report(roster.model_copy(update={"battle_size": "Strike Force"}),
                  seed_plus(magus)).violations == ()


def test_enhancement_from_another_detachment() -> None:
    only(report(army(units=(_primus("Denunciator of Tyrants", warlord=True),))),
         "ENHANCEMENT_WRONG_DETACHMENT", ["u1"])


def test_unknown_enhancement_is_a_warning_with_did_you_mean() -> None:
    r = report(army(units=(_primus("Assasination Edict", warlord=True),)))
    assert r.legal and warnings(r) == {"ENHANCEMENT_UNKNOWN"}
    assert "did you mean: Assassination Edict" in r.violations[0].message


def test_bearer_restriction_not_understood_is_a_warning() -> None:
    odd = enhancement("Odd Relic", "Host of Ascension", "the bearer must stand on a crate")
    r = report(army(units=(_primus("Odd Relic", warlord=True),)), seed_plus(records=(odd,)))
    assert r.legal and warnings(r) == {"ENHANCEMENT_UNCHECKED"}


def test_upgrade_enhancements_skip_the_character_and_count_rules() -> None:
    """11th-edition "(Upgrade)" enhancements are given to units (the app's Gretchin)."""
    upgrade = enhancement("Test Upgrade", "Host of Ascension", "GENESTEALER CULTS unit only")
    choice = (EnhancementChoice(name="Test Upgrade", tag="Upgrade"),)
    roster = army(unit("u3", "Neophyte Hybrids", models=10, enhancements=choice),
                  unit("u4", "Neophyte Hybrids", models=10, enhancements=choice))
    assert report(roster, seed_plus(records=(upgrade,))).violations == ()


@pytest.mark.parametrize(("text", "expected"), [
    ("GENESTEALER CULTS model only", ("GENESTEALER CULTS",)),
    ("MAGUS, PRIMUS or ACOLYTE ICONWARD model only", ("MAGUS", "PRIMUS", "ACOLYTE ICONWARD")),
    ("**^^Tyranids^^** model only.", ("TYRANIDS",)),
    ("once per battle", None),
])
def test_eligibility_texts(text: str, expected: tuple[str, ...] | None) -> None:
    assert eligibility_alternatives(text) == expected


# --- leaders -----------------------------------------------------------------------------


def test_leader_attached_to_a_unit_not_on_its_list() -> None:
    """The Primus leads Acolyte Hybrids, Hybrid Metamorphs and Neophyte Hybrids only."""
    r = report(army(unit("u3", "Primus", attached_to="u4"), unit("u4", "Primus")))
    only(r, "LEADER_NOT_ALLOWED", ["u3"])
    assert "Neophyte Hybrids" in r.violations[0].message


def test_a_unit_without_a_leader_list_cannot_lead() -> None:
    brute = sheet("Test Brute", GSC, ("INFANTRY",), 40)
    r = report(army(unit("u3", "Test Brute", attached_to="u4"),
                    unit("u4", "Neophyte Hybrids", models=10)), seed_plus(brute))
    only(r, "LEADER_NOT_ALLOWED", ["u3"])
    assert "has no Leader ability" in r.violations[0].message


def test_one_leader_per_bodyguard() -> None:
    only(report(army(unit("u3", "Primus", attached_to="u2"))), "LEADER_TOO_MANY", ["u2"])


def test_leader_and_support_in_11th_but_not_in_10th() -> None:
    """24.22 (11th): one leader and one support unit; 10th: one leader."""
    support = sheet("Test Support", GSC, ("INFANTRY", "CHARACTER"), 40,
                    leader_of=("Neophyte Hybrids",))
    roster = army(unit("u3", "Test Support", attached_to="u2", attach_role="support"))
    assert report(roster, seed_plus(support)).violations == ()
    tenth = roster.model_copy(update={"rules": "10th"})
    only(report(tenth, seed_plus(support)), "LEADER_TOO_MANY", ["u2"])
    two = army(unit("u3", "Test Support", attached_to="u2", attach_role="support"),
               unit("u4", "Test Support", attached_to="u2", attach_role="support"))
    only(report(two, seed_plus(support)), "LEADER_TOO_MANY", ["u2"])


# --- repeats -----------------------------------------------------------------------------


def test_unit_repeat_limit_strike_force() -> None:
    r = report(army(*(unit(f"u{i}", "Primus") for i in range(3, 6))))
    only(r, "UNIT_REPEAT_LIMIT", ["u5"])


def test_battleline_repeats_to_six() -> None:
    six = army(*(unit(f"u{i}", "Neophyte Hybrids", models=10) for i in range(3, 8)))
    assert report(six).violations == ()
    only(report(army(*(unit(f"u{i}", "Neophyte Hybrids", models=10) for i in range(3, 9)))),
         "UNIT_REPEAT_LIMIT", ["u8"])


def test_incursion_limits_in_11th_but_not_in_10th() -> None:
    """BSData wh40k-11e: in Incursion 2 of a datasheet (4 BATTLELINE); 10th: 3 (6)."""
    roster = army(unit("u3", "Primus"), unit("u4", "Primus"), battle_size="Incursion",
                  detachments=("Xenocreed Congregation",))
    only(report(roster), "UNIT_REPEAT_LIMIT", ["u4"])
    assert report(roster.model_copy(update={"rules": "10th"})).violations == ()


def test_one_of_each_epic_hero() -> None:
    hero = sheet("Test Hero", GSC, ("INFANTRY", "CHARACTER", "EPIC HERO"), 80)
    only(report(army(unit("u3", "Test Hero"), unit("u4", "Test Hero")), seed_plus(hero)),
         "UNIT_REPEAT_LIMIT", ["u4"])


# --- transports --------------------------------------------------------------------------


def test_dedicated_transport_must_start_with_a_unit_embarked() -> None:
    roster = _final_day(unit("u3", "Tyrannocyte"))
    only(report(roster), "DEDICATED_TRANSPORT_EMPTY", ["u3"])
    imported = roster.model_copy(update={"embarkation_recorded": False})
    r = report(imported)
    assert r.legal and warnings(r) == {"DEDICATED_TRANSPORT_EMPTY"}


def test_tyrannocyte_carries_twenty_tyranids_infantry_multi_wound_models_take_three() -> None:
    """Seed 004: 20 TYRANIDS INFANTRY models; W > 1 INFANTRY models take 3 spaces."""
    fits = _final_day(unit("u3", "Tyrannocyte"),
                      unit("u4", "Test Warriors", models=6, embarked_in="u3"))
    assert report(fits, seed_plus(WARRIORS)).violations == ()  # 6 x 3 = 18 spaces
    over = _final_day(unit("u3", "Tyrannocyte"),
                      unit("u4", "Test Warriors", models=7, embarked_in="u3"))
    r = report(over, seed_plus(WARRIORS))
    only(r, "TRANSPORT_CAPACITY", ["u3"])
    assert "21" in r.violations[0].message


def test_tyrannocyte_or_one_monster_of_twelve_wounds_or_fewer() -> None:
    small = sheet("Test Beast", TYR, ("MONSTER", "VANGUARD INVADER"), 100, wounds=12)
    big = sheet("Test Big Beast", TYR, ("MONSTER", "VANGUARD INVADER"), 100, wounds=14)
    ok = _final_day(unit("u3", "Tyrannocyte"), unit("u4", "Test Beast", embarked_in="u3"))
    assert report(ok, seed_plus(small)).violations == ()
    no = _final_day(unit("u3", "Tyrannocyte"), unit("u4", "Test Big Beast", embarked_in="u3"))
    only(report(no, seed_plus(big)), "TRANSPORT_INELIGIBLE", ["u4"])


def test_genestealer_cults_units_cannot_ride_a_tyrannocyte() -> None:
    only(report(_final_day(unit("u3", "Tyrannocyte"),
                           unit("u4", "Neophyte Hybrids", models=10, embarked_in="u3"))),
         "TRANSPORT_INELIGIBLE", ["u4"])


def test_only_a_transport_carries_units() -> None:
    only(report(army(unit("u3", "Primus"), unit("u4", "Neophyte Hybrids", models=10,
                                                 embarked_in="u3"))),
         "TRANSPORT_INELIGIBLE", ["u4"])


def test_attached_units_embark_together() -> None:
    roster = _final_day(unit("u3", "Tyrannocyte"),
                        units=(unit("u1", "Primus", warlord=True, attached_to="u2",
                                    embarked_in="u3"),
                               unit("u2", "Neophyte Hybrids", models=10)))
    assert "TRANSPORT_INELIGIBLE" in errors(report(roster))


GUARD = sheet("Test Guard", AM, ("INFANTRY",), 60, models=(10, 20))
HEAVY = sheet("Test Heavy Weapons", AM, ("INFANTRY", "HEAVY WEAPONS TEAM"), 60, models=(3, 3),
              wounds=2)
GUNS = sheet("Test Guns", AM, ("ARTILLERY",), 60)


def _brood(*extra: RosterUnit) -> Roster:
    return army(unit("u3", "Banehammer"), *extra, detachments=("Brood Brother Auxilia",))


def test_banehammer_capacity_heavy_weapons_teams_take_two() -> None:
    """Seed 001: 26 ASTRA MILITARUM INFANTRY; HEAVY WEAPONS TEAM models take 2 spaces."""
    library = seed_plus(GUARD, HEAVY)
    fits = _brood(unit("u4", "Test Guard", models=20, embarked_in="u3"),
                  unit("u5", "Test Heavy Weapons", models=3, embarked_in="u3"))
    assert report(fits, library).violations == ()  # 20 + 3 x 2 = 26
    over = _brood(unit("u4", "Test Guard", models=20, embarked_in="u3"),
                  unit("u5", "Test Heavy Weapons", models=3, embarked_in="u3"),
                  unit("u6", "Test Guard", models=10, embarked_in="u3"))
    r = report(over, library)
    only(r, "TRANSPORT_CAPACITY", ["u3"])
    assert "36" in r.violations[0].message


def test_banehammer_carries_no_artillery_and_no_genestealer_cults() -> None:
    r = report(_brood(unit("u4", "Test Guns", embarked_in="u3"),
                      unit("u5", "Neophyte Hybrids", models=10, embarked_in="u3")),
               seed_plus(GUNS))
    only(r, "TRANSPORT_INELIGIBLE", ["u4", "u5"])


# --- reporting ---------------------------------------------------------------------------


def test_every_violation_is_reported_at_once() -> None:
    roster = army(unit("u3", "Neophyte Hybrid", models=10), unit("u4", "Banehammer"),
                  unit("u5", "Primus", warlord=True), points_limit=500)
    assert errors(report(roster)) == {"UNKNOWN_DATASHEET", "FACTION_NOT_ALLOWED",
                                      "WARLORD_MULTIPLE", "POINTS_LIMIT"}


def test_every_code_has_a_rule_and_a_test() -> None:
    """Each stable code cites its rule, and this file checks it by name."""
    from pathlib import Path

    here = Path(__file__).read_text(encoding="utf-8")
    assert all(code.isupper() and rule for code, rule in CODES.items())
    assert [code for code in CODES if f'"{code}"' not in here] == []


@pytest.mark.parametrize(("size", "points"), [("Incursion", 6), ("Strike Force", 10),
                                              ("Onslaught", 14)])
def test_cult_ambush_resurgence_points(size: str, points: int) -> None:
    assert resurgence_points(army(battle_size=size)) == points
    deeds = army(units=(_primus("Deeds That Speak to the Masses", warlord=True),),
                 battle_size=size)
    assert resurgence_points(deeds) == points + 2
    assert resurgence_points(army(faction="Tyranids")) is None


# --- every faction's detachments (issue 16): dataset detachment records -------------------

from tactica.model import Detachment, Source  # noqa: E402
from tactica.model.rules import GrantedKeyword  # noqa: E402

DOGS = ("CHAOS KNIGHTS",)


def _det(**fields: object) -> Detachment:
    data: dict[str, object] = {"name": "Test Lance", "faction": "Chaos Knights", "points": 2,
                               "rules": "11th", "source": Source(file="test")}
    data.update(fields)
    return Detachment.model_validate(data)


def _dogs(*units: RosterUnit, det: Detachment) -> tuple[Roster, Library]:
    lib = seed_plus(sheet("Test Dog", DOGS, ("VEHICLE", "WAR DOG"), 100),
                    sheet("Test Knight", DOGS, ("VEHICLE", "TITANIC"), 300), records=(det,))
    roster = army(units=units, faction="Chaos Knights", detachments=(det.name,))
    return roster, lib


def test_a_granted_keyword_makes_a_war_dog_a_character_warlord() -> None:
    """Houndpack Lance (dataset): CHARACTER to up to 3 WAR DOG units, so a War Dog may be
    the Warlord; without the grant it may not."""
    grant = GrantedKeyword(keyword="CHARACTER", to_keywords=("WAR DOG",), max_selected=3)
    roster, lib = _dogs(unit("u1", "Test Dog", warlord=True), det=_det(granted_keywords=(grant,)))
    assert "WARLORD_NOT_CHARACTER" not in errors(report(roster, lib))
    roster, lib = _dogs(unit("u1", "Test Dog", warlord=True), det=_det())
    assert "WARLORD_NOT_CHARACTER" in errors(report(roster, lib))


def test_a_granted_keyword_cap() -> None:
    grant = GrantedKeyword(keyword="CHARACTER", to_keywords=("WAR DOG",), max_selected=1)
    units = (unit("u1", "Test Dog", warlord=True),
             unit("u2", "Test Dog", enhancements=enh("Preyslayer")))
    roster, lib = _dogs(*units, det=_det(granted_keywords=(grant,)))
    assert "DETACHMENT_GRANT" in errors(report(roster, lib))


def test_a_detachment_keyword_restriction() -> None:
    roster, lib = _dogs(unit("u1", "Test Dog", warlord=True), unit("u2", "Test Knight"),
                        det=_det(required_keywords=("WAR DOG",),
                                 granted_keywords=(GrantedKeyword(
                                     keyword="CHARACTER", to_keywords=("WAR DOG",)),)))
    r = report(roster, lib)
    assert [v.unit_id for v in r.violations if v.code == "DETACHMENT_RESTRICTION"] == ["u2"]


def test_detachment_unit_minimums() -> None:
    det = _det(unit_minimums=(("WAR DOG", 3),), granted_keywords=(GrantedKeyword(
        keyword="CHARACTER", to_keywords=("WAR DOG",)),))
    roster, lib = _dogs(unit("u1", "Test Dog", warlord=True), unit("u2", "Test Dog"),
                        det=det)
    assert "DETACHMENT_UNITS" in errors(report(roster, lib))
    roster, lib = _dogs(unit("u1", "Test Dog", warlord=True), unit("u2", "Test Dog"),
                        unit("u3", "Test Dog"), det=det)
    assert "DETACHMENT_UNITS" not in errors(report(roster, lib))


def test_detachment_points_from_the_detachment_record() -> None:
    """Two detachments of 2 points each: 4 of a Strike Force's 3."""
    roster, lib = _dogs(unit("u1", "Test Knight", warlord=True), det=_det())
    other = _det(name="Other Lance")
    lib = Library(lib.datasheets(), (*lib.records(), other))
    roster = roster.model_copy(update={"detachments": ("Test Lance", "Other Lance")})
    r = report(roster, lib)
    assert (r.detachment_points, r.detachment_budget) == (4, 3)
    assert "DETACHMENT_POINTS" in errors(r)


def test_an_enhancement_written_as_wargear_is_read_as_one_and_said() -> None:
    """New Recruit's simple export writes the Great Unclean One's "The Endless Gift" with no
    price, like wargear; its JSON export of the same army marks it as an enhancement."""
    from tactica.army.formats import load_roster
    from tactica.library import load_library

    from .helpers import ROSTERS

    library = load_library()
    army = ROSTERS / "cd-daemonic-incursion"
    simple = load_roster(army / "expected.newrecruit-simple.txt", library=library)
    as_json = load_roster(army / "expected.newrecruit-json.json", library=library)
    gift = [(u.name, e.name) for u in as_json.units for e in u.enhancements]
    assert gift == [("Great Unclean One", "The Endless Gift")]  # the JSON's reading
    assert "The Endless Gift" in {w.name for u in simple.units for w in u.all_wargear()}
    report = validate(simple, library)
    said = [v for v in report.violations if v.code == "ENHANCEMENT_AS_WARGEAR"]
    assert [(v.unit, v.severity) for v in said] == [("Great Unclean One", "warning")]
    assert "The Endless Gift" in said[0].message
    # read as the enhancement: checked and priced as the JSON export's reading is
    json_report = validate(as_json, library)
    assert report.prices.total == json_report.prices.total
    assert {v.code for v in report.violations} - {"ENHANCEMENT_AS_WARGEAR", "POINTS_MISMATCH"} \
        == {v.code for v in json_report.violations} - {"POINTS_MISMATCH"}


def test_an_item_the_datasheet_lacks_is_a_warning_naming_it() -> None:
    """The Banehammer (10th seed page) has a Lascannon and no Bolt rifle: the Bolt rifle is
    "WARGEAR_UNKNOWN", a warning; the Lascannon passes."""
    from tactica.army.roster import WargearItem

    tank = unit("u3", "Banehammer", wargear=(WargearItem(name="Lascannon", count=1),
                                              WargearItem(name="Bolt rifle", count=2)))
    r = report(army(tank, rules="10th"))
    said = [(v.unit, v.severity, v.message) for v in r.violations if v.code == "WARGEAR_UNKNOWN"]
    assert said == [("Banehammer", "warning", "Bolt rifle is not a weapon, ability or wargear "
                     "option of the Banehammer datasheet: not checked, and left out of the "
                     "calculations")]
