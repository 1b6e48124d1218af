"""The unit library: look-up, reference facts (reference_facts.md §1), presets (§2).

The first part uses hand-built datasheets shaped like the seed pages; the tests marked
"packaged" at the end read the real pages through ``load_seed_page``.
"""

from __future__ import annotations

import pytest

from tactica.combat.contract.scenario import Target
from tactica.library import (
    Library,
    TargetPreset,
    UnitAbility,
    UnitFacts,
    apply_facts,
    load_library,
    load_presets,
    load_reference_facts,
    load_seed_library,
    target_from_datasheet,
)
from tactica.model import (
    Ability,
    CompositionLine,
    CoreRule,
    Datasheet,
    DetachmentRule,
    Enhancement,
    EscalatingPoints,
    ModelProfile,
    PointsBracket,
    RuleRecord,
    Source,
    Stratagem,
    Weapon,
    WeaponProfile,
)
from tactica.names import UnknownNameError

SRC = Source(file="test.txt", line=1)
FACTS_CITATION = "reference_facts.md §1 (wh40kdc 40kdc-data, 11th edition launch)"
TENTH_NOTE = "page layout is 10th; stat line from 11th data (reference_facts.md §1)"


def primus_page(models: tuple[ModelProfile, ...] = ()) -> Datasheet:
    """The Primus as the 000 page gives it: no stat line, an empty leader list."""
    return Datasheet(
        name="Primus",
        rules="11th",
        faction_keywords=("GENESTEALER CULTS",),
        keywords=("INFANTRY", "CHARACTER", "GREAT DEVOURER", "PRIMUS"),
        models=models,
        weapons=(
            Weapon(
                name="Scoped needle pistol",
                profiles=(
                    WeaponProfile.model_validate(
                        {
                            "name": "Scoped needle pistol",
                            "range": 18,
                            "A": "1",
                            "skill": 2,
                            "S": 1,
                            "AP": 0,
                            "D": "D3",
                            "abilities": [
                                {"kind": "anti", "keyword": "INFANTRY", "threshold": 2},
                                {"kind": "flag", "name": "Ignores Cover"},
                                {"kind": "flag", "name": "Pistol"},
                            ],
                        }
                    ),
                ),
            ),
        ),
        abilities=(
            Ability(name="Deep Strike", kind="core"),
            Ability(name="Cult Demagogue", text="While this model is leading a unit ..."),
        ),
        composition=(CompositionLine(model="Primus", min=1, max=1),),
        points=(PointsBracket(models=1, points=70),),
        source=SRC,
    )


def death_riders_page() -> Datasheet:
    return Datasheet(
        name="Death Riders",
        rules="10th",
        faction_keywords=("ASTRA MILITARUM",),
        keywords=("MOUNTED", "GRENADES", "IMPERIUM", "REGIMENT", "DEATH RIDERS"),
        composition=(
            CompositionLine(model="Ridemaster", min=1, max=1),
            CompositionLine(model="Death Riders", min=4, max=9),
        ),
        points=(PointsBracket(models=5, points=70), PointsBracket(models=10, points=140)),
        source=SRC,
    )


def facts_for(name: str) -> UnitFacts:
    facts = load_reference_facts().for_unit(name)
    assert facts is not None
    return facts


def small_library() -> Library:
    facts = load_reference_facts()
    sheets = [
        apply_facts(primus_page(), facts_for("Primus")),
        apply_facts(death_riders_page(), facts_for("Death Riders")),
        Datasheet(
            name="Tyrannocyte",
            rules="11th",
            keywords=("MONSTER",),
            points=EscalatingPoints.model_validate(
                {
                    "tiers": [
                        {"first": 1, "last": 3, "brackets": [{"models": 1, "points": 80}]},
                        {"first": 4, "brackets": [{"models": 1, "points": 90}]},
                    ]
                }
            ),
            source=SRC,
        ),
    ]
    assert facts.for_seed("000_0f632543a676f819.txt") is not None
    records: list[RuleRecord] = [
        Stratagem(
            name="PRIMED AND READIED",
            cp=2,
            detachment="Host of Ascension",
            category="Battle Tactic",
            effect="Critical Hit on 5+",
            rules="11th",
            source=Source(file="000.txt", line=550),
        ),
        Stratagem(
            name="COMMAND RE-ROLL",
            cp=1,
            detachment="Core",
            section="15.02",
            rules="11th",
            source=Source(file="000.txt", line=300),
        ),
        Stratagem(
            name="COMMAND RE-ROLL",
            cp=1,
            detachment="Core",
            section="15.02",
            rules="11th",
            source=Source(file="004.txt", line=310),
        ),
        Stratagem(
            name="Command Re-roll",
            cp=1,
            detachment="Core",
            category="Battle Tactic",
            rules="10th",
            source=Source(file="001.txt", line=90),
        ),
        Enhancement(
            name="Assassination Edict",
            points=15,
            detachment="Host of Ascension",
            text="+1 to Hit against CHARACTER units",
            rules="11th",
            source=Source(file="000.txt", line=620),
        ),
        Enhancement(
            name="Incendiary Inspiration",
            points=15,
            detachment="Xenocreed Congregation",
            rules="11th",
            source=Source(file="000.txt", line=790),
        ),
        DetachmentRule(
            name="A Perfect Ambush",
            detachment=None,
            text="...",
            rules="10th",
            source=Source(file="003.txt", line=40),
        ),
        CoreRule(
            section="24.09",
            title="Deep Strike",
            text='set up more than 8" away',
            rules="11th",
            source=Source(file="004.txt", line=500),
        ),
    ]
    return Library(sheets, records)


# --- names --------------------------------------------------------------------------


@pytest.mark.parametrize("typed", ["Primus", "primus", "PRIMUS", "Prímus", " primus. "])
def test_datasheet_lookup_ignores_case_accents_punctuation(typed: str) -> None:
    assert small_library().datasheet(typed).name == "Primus"


@pytest.mark.parametrize("typed", ["death-riders", "Death Riders", "DEATH–RIDERS", "deathriders"])
def test_lookup_of_a_two_word_name(typed: str) -> None:
    assert small_library().datasheet(typed).name == "Death Riders"


def test_typo_suggests_close_names() -> None:
    with pytest.raises(UnknownNameError) as info:
        small_library().datasheet("Primsu")
    assert str(info.value) == "no unit named 'Primsu'; did you mean: Primus?"
    assert info.value.suggestions == ("Primus",)
    assert isinstance(info.value, LookupError)


def test_unrelated_name_has_no_suggestions() -> None:
    with pytest.raises(UnknownNameError, match=r"^no unit named 'Zzyzx'$"):
        small_library().datasheet("Zzyzx")


# --- reference facts (§1) -------------------------------------------------------------


def test_facts_file_covers_the_five_seed_units_with_sources() -> None:
    facts = load_reference_facts()
    assert [u.name for u in facts.units] == [
        "Primus",
        "Banehammer",
        "Death Riders",
        "Tyrannocyte",
        "Neophyte Hybrids",
    ]
    assert {u.seed[:3] for u in facts.units} == {"000", "001", "002", "003", "004"}
    for unit in facts.units:
        assert unit.models
        assert all(m.source == FACTS_CITATION for m in unit.models)
        for fact in (unit.leader_of, unit.composition, unit.damaged):
            assert fact is None or fact.source == FACTS_CITATION


@pytest.mark.parametrize(
    ("unit", "model", "stats"),
    [
        ("Primus", "Primus", (6, 3, 5, 5, 4, 6, 1)),
        ("Banehammer", "Banehammer", (12, 13, 2, None, 24, 7, 8)),
        ("Death Riders", "Ridemaster", (10, 4, 4, None, 2, 7, 1)),
        ("Death Riders", "Death Rider", (10, 4, 4, None, 2, 7, 1)),
        ("Tyrannocyte", "Tyrannocyte", (8, 9, 3, None, 10, 8, 2)),
        ("Neophyte Hybrids", "Neophyte Leader", (6, 3, 5, None, 1, 7, 2)),
        ("Neophyte Hybrids", "Neophyte Hybrid", (6, 3, 5, None, 1, 7, 2)),
    ],
)
def test_facts_stat_lines_match_section_1(
    unit: str, model: str, stats: tuple[int | None, ...]
) -> None:
    m = next(m for m in facts_for(unit).models if m.name == model)
    assert (m.M, m.T, m.Sv, m.InSv, m.W, m.Ld, m.OC) == stats


def test_primus_gets_its_stat_line_and_leader_list_from_the_facts() -> None:
    sheet = apply_facts(primus_page(), facts_for("Primus"))
    (model,) = sheet.models
    assert model.statline() == 'M6" T3 Sv5+ 5++ W4 Ld6+ OC1'
    assert model.source is not None and model.source.note == FACTS_CITATION
    assert sheet.leader_of == (
        "Acolyte Hybrids with Autopistols",
        "Acolyte Hybrids with Hand Flamers",
        "Hybrid Metamorphs",
        "Neophyte Hybrids",
    )
    assert f"Primus: M, T, Sv, InSv, W, Ld, OC from {FACTS_CITATION}" in sheet.notes
    assert any(n.startswith("leader of: from reference_facts.md §1") for n in sheet.notes)
    # what the page has is untouched
    assert sheet.points == (PointsBracket(models=1, points=70),)
    assert sheet.weapons == primus_page().weapons


def test_seed_values_win_over_the_facts() -> None:
    page = primus_page(models=(ModelProfile(name="Primus", T=4, W=5),))
    sheet = apply_facts(page, facts_for("Primus"))
    (model,) = sheet.models
    assert (model.T, model.W) == (4, 5)  # the seed's
    assert (model.M, model.Sv, model.InSv, model.Ld, model.OC) == (6, 5, 5, 6, 1)  # filled
    assert f"Primus: M, Sv, InSv, Ld, OC from {FACTS_CITATION}" in sheet.notes
    assert "Primus: seed T 4 kept (reference file: 3)" in sheet.notes


def test_seed_composition_and_leader_list_win() -> None:
    page = primus_page().model_copy(update={"leader_of": ("Neophyte Hybrids",)})
    sheet = apply_facts(page, facts_for("Primus"))
    assert sheet.leader_of == ("Neophyte Hybrids",)
    assert not any(n.startswith("leader of") for n in sheet.notes)


def test_ten_th_layout_page_is_tagged_with_the_11th_stat_line_note() -> None:
    sheet = apply_facts(death_riders_page(), facts_for("Death Riders"))
    assert sheet.rules == "10th"
    assert [m.name for m in sheet.models] == ["Ridemaster", "Death Rider"]
    assert TENTH_NOTE in sheet.notes


def test_untitled_page_is_named_by_the_facts() -> None:
    page = Datasheet(
        name="",
        rules="10th",
        points=(PointsBracket(models=10, points=90),),
        source=Source(file="003_b9ee116837e603c7.txt"),
    )
    sheet = apply_facts(page, facts_for("Neophyte Hybrids"))
    assert sheet.name == "Neophyte Hybrids"
    assert sheet.composition == (
        CompositionLine(model="Neophyte Leader", min=1, max=1),
        CompositionLine(model="Neophyte Hybrids", min=9, max=19),
    )
    assert sheet.has_keyword("INFANTRY") and sheet.has_keyword("GENESTEALER CULTS")
    assert "name from reference_facts.md §1: the page has no title" in sheet.notes


def test_banehammer_damaged_threshold_is_filled_only_when_missing() -> None:
    page = Datasheet(name="Banehammer", rules="10th", source=SRC)
    sheet = apply_facts(page, facts_for("Banehammer"))
    assert sheet.damaged is not None
    assert (sheet.damaged.min_wounds, sheet.damaged.max_wounds) == (1, 8)


# --- versions ---------------------------------------------------------------------------


def _two_version_library() -> Library:
    eleventh = primus_page()
    tenth = eleventh.model_copy(update={"rules": "10th", "points": ()})
    return Library([tenth, eleventh], presets=())


def test_default_prefers_11th_and_rules_picks_the_version() -> None:
    lib = _two_version_library()
    assert lib.datasheet("primus").rules == "11th"
    assert lib.datasheet("primus", rules="10th").rules == "10th"
    assert [d.rules for d in lib.datasheet_versions("Primus")] == ["11th", "10th"]
    assert len(lib.datasheets()) == 2 and len(lib.datasheets("10th")) == 1


def test_a_unit_in_one_version_only_is_returned_with_a_note() -> None:
    lib = small_library()
    sheet = lib.datasheet("Death Riders", rules="11th")
    assert sheet.rules == "10th"
    assert sheet.notes[-1] == "no 11th datasheet for Death Riders; this is the 10th page"
    assert lib.datasheet("Death Riders").notes[-1] != sheet.notes[-1]


def test_duplicate_name_and_version_is_an_error() -> None:
    with pytest.raises(ValueError, match="two 11th datasheets named 'Primus'"):
        Library([primus_page(), primus_page()], presets=())


# --- rules ------------------------------------------------------------------------------


def test_rule_lookup_by_normalised_name() -> None:
    (found,) = small_library().rule("primed and readied")
    assert isinstance(found, Stratagem)
    assert (found.cp, found.detachment, found.category) == (2, "Host of Ascension", "Battle Tactic")


def test_rule_keeps_each_text_once_11th_first_and_filters_by_version() -> None:
    lib = small_library()
    both = lib.rule("Command Re-roll")
    assert [r.rules for r in both] == ["11th", "10th"]
    assert both[0].source.file == "000.txt"  # the 004 copy is the same text
    (tenth,) = lib.rule("command re-roll", rules="10th")
    assert tenth.rules == "10th"
    assert lib.rule("15.02") == lib.rule("COMMAND RE-ROLL", rules="11th")


def test_rule_in_one_version_only_falls_back() -> None:
    (found,) = small_library().rule("A Perfect Ambush", rules="11th")
    assert found.rules == "10th"


def test_unknown_rule_suggests() -> None:
    with pytest.raises(UnknownNameError, match=r"did you mean: Primed and Readied\?|PRIMED"):
        small_library().rule("Primed and Reddied")


def test_enhancements_by_detachment() -> None:
    lib = small_library()
    assert [e.name for e in lib.enhancements()] == [
        "Assassination Edict",
        "Incendiary Inspiration",
    ]
    (edict,) = lib.enhancements("host of ascension")
    assert (edict.points, edict.text) == (15, "+1 to Hit against CHARACTER units")


def test_find_rules_includes_unit_abilities() -> None:
    (found,) = small_library().find_rules("cult demagogue")
    assert isinstance(found, UnitAbility)
    assert (found.name, found.datasheet, found.rules) == ("Cult Demagogue", "Primus", "11th")


def test_find_rules_prefers_the_rule_text_over_a_bare_core_ability() -> None:
    found = small_library().find_rules("Deep Strike")
    assert [type(f) for f in found] == [CoreRule]
    (bare,) = small_library().abilities("deep strike")
    assert bare.datasheet == "Primus" and bare.ability.text is None


# --- presets (§2) -------------------------------------------------------------------------

PRESETS = {
    # name: (unit, models, T, Sv, InSv, W, keywords)
    "geq": ("Cadian Shock Troops", 10, 3, 5, None, 1, ("INFANTRY",)),
    "meq": ("Intercessor Squad", 5, 5, 3, None, 2, ("INFANTRY",)),
    "teq": ("Terminator Squad", 5, 6, 2, 4, 3, ("INFANTRY",)),
    "light-vehicle": ("Invader ATV", 1, 6, 3, None, 8, ("MOUNTED", "VEHICLE")),
    "tank": ("Predator Destructor", 1, 10, 3, None, 11, ("VEHICLE",)),
    "transport": ("Rhino", 1, 9, 3, None, 10, ("VEHICLE", "TRANSPORT")),
    "armiger": ("Armiger Warglaive", 1, 9, 3, 5, 14, ("VEHICLE", "WALKER")),
    "knight": ("Knight Paladin", 1, 11, 3, None, 26, ("VEHICLE", "WALKER", "TITANIC")),
    "super-heavy": ("Rogal Dorn Battle Tank", 1, 12, 2, None, 18, ("VEHICLE",)),
    "monster": ("C'tan Shard of the Nightbringer", 1, 11, 3, 4, 16, ("MONSTER", "CHARACTER")),
}


def test_presets_are_the_ten_of_section_2_in_order() -> None:
    assert [p.name for p in load_presets()] == list(PRESETS)


@pytest.mark.parametrize("name", list(PRESETS))
def test_preset_values(name: str) -> None:
    """§2's figures; its keywords are among the unit's, which the preset carries (all of
    them: ``tests/test_presets.py`` checks each preset against its unit)."""
    p = Library(presets=None).preset(name)
    assert (p.unit, p.models, p.T, p.Sv, p.InSv, p.W) == PRESETS[name][:6]
    assert set(PRESETS[name][6]) <= set(p.keywords)
    assert p.source.startswith("reference_facts.md §2")
    target = p.to_target()
    (group,) = target.models
    assert (target.name, group.count, group.T, group.Sv, group.W) == (
        PRESETS[name][0], *PRESETS[name][1:4], PRESETS[name][5])
    # §2 gives no invulnerable save for the Knight Paladin: the unit's is against ranged
    # attacks only
    assert group.invuln == (5 if name == "knight" else PRESETS[name][4])
    assert set(PRESETS[name][6]) <= set(target.keywords)


def test_monster_preset_has_feel_no_pain_and_damage_reduction() -> None:
    p = Library().preset("MONSTER")
    assert (p.fnp, p.damage_reduction) == (5, 1)
    target = Library().target("monster")
    assert (target.models[0].fnp, target.damage_reduction, target.models[0].character) == (
        5,
        1,
        True,
    )
    # besides, only the dataset's Rhino has one (Truesilver Aegis (Aura): FNP 6+)
    others = [q for q in load_presets() if q.name not in ("monster", "transport")]
    assert all(q.fnp is None and q.damage_reduction == 0 for q in others)
    assert (Library().preset("transport").fnp, Library().preset("transport").damage_reduction
            ) == (6, 0)


def test_target_meq() -> None:
    target = Library().target("meq")
    assert isinstance(target, Target)
    (group,) = target.models
    assert (target.model_count, group.T, group.Sv, group.W, group.character) == (5, 5, 3, 2, False)
    assert Library().target("Light Vehicle").name == "Invader ATV"
    assert Library().target("meq", models=10).model_count == 10


def test_unknown_preset_suggests() -> None:
    with pytest.raises(UnknownNameError, match=r"no target preset named 'meqq'; did you mean: meq"):
        Library().preset("meqq")
    with pytest.raises(UnknownNameError, match=r"no target named 'Primsu'; did you mean: Primus"):
        small_library().target("Primsu")


def test_preset_model_is_frozen() -> None:
    p = load_presets()[0]
    assert isinstance(p, TargetPreset)
    with pytest.raises(ValueError, match="frozen"):
        p.T = 4  # type: ignore[misc]


# --- targets from datasheets ---------------------------------------------------------


def test_death_riders_target_is_minimum_size_by_default() -> None:
    target = small_library().target("death riders")
    assert [(g.name, g.count, g.T, g.Sv, g.W) for g in target.models] == [
        ("Ridemaster", 1, 4, 4, 2),
        ("Death Rider", 4, 4, 4, 2),
    ]
    assert "MOUNTED" in target.keywords and "ASTRA MILITARUM" in target.keywords
    assert not any(g.character for g in target.models)


def test_death_riders_target_with_a_model_count() -> None:
    target = small_library().target("Death Riders", models=10)
    assert [g.count for g in target.models] == [1, 9]
    with pytest.raises(ValueError, match="Death Riders has 5-10 models; 11 asked for"):
        small_library().target("Death Riders", models=11)


def test_character_unit_target() -> None:
    target = small_library().target("primus")
    (group,) = target.models
    assert (group.count, group.T, group.Sv, group.invuln, group.W, group.character) == (
        1,
        3,
        5,
        5,
        4,
        True,
    )


def test_target_needs_a_stat_line() -> None:
    with pytest.raises(ValueError, match="model Primus has no T, Sv, W"):
        target_from_datasheet(primus_page(models=(ModelProfile(name="Primus"),)))


def test_feel_no_pain_ability_reaches_the_target() -> None:
    sheet = apply_facts(primus_page(), facts_for("Primus"))
    fnp = Ability.model_validate({"name": "Feel No Pain", "kind": "core", "parameter": "5"})
    sheet = sheet.model_copy(update={"abilities": (*sheet.abilities, fnp)})
    assert target_from_datasheet(sheet).models[0].fnp == 5


# --- the packaged library (reads the seed pages through load_seed_page) ---------------

def test_the_default_library_is_the_command_lines() -> None:
    """Issue 11: ``load_library()`` (the Python API's default) has the seed pages and the
    bundled dataset, as ``tactica calc`` does without options."""
    from tactica.library import configured_sources
    from tactica.sources import SourcedLibrary

    assert configured_sources() == ((), True)
    lib = load_library()
    assert isinstance(lib, SourcedLibrary) and lib is load_library((), dataset=True)
    assert [s.kind for s in lib.sources] == ["seed", "dataset"]
    assert lib.datasheet("Primus").source.file == "000_0f632543a676f819.txt"
    assert lib.datasheet("Intercessor Squad").source.file.startswith("wh40kdc ")



def test_packaged_library_has_the_five_seed_units() -> None:
    lib = load_seed_library()
    assert lib is load_seed_library() is load_library(dataset=False)  # cached
    assert set(lib.names()) >= {
        "Primus",
        "Banehammer",
        "Death Riders",
        "Tyrannocyte",
        "Neophyte Hybrids",
    }
    assert lib.datasheet("Primus").rules == "11th"
    assert lib.datasheet("Tyrannocyte").rules == "11th"
    for name in ("Banehammer", "Death Riders", "Neophyte Hybrids"):
        sheet = lib.datasheet(name)
        assert sheet.rules == "10th"
        assert TENTH_NOTE in sheet.notes


@pytest.mark.parametrize(
    ("typed", "name"),
    [
        ("primus", "Primus"),
        ("PRIMUS", "Primus"),
        ("Prímus", "Primus"),
        ("death-riders", "Death Riders"),
        ("neophyte hybrids", "Neophyte Hybrids"),
        ("TYRANNOCYTE!", "Tyrannocyte"),
    ],
)
def test_packaged_lookup(typed: str, name: str) -> None:
    assert load_seed_library().datasheet(typed).name == name


def test_packaged_primus_is_completed_from_the_facts() -> None:
    sheet = load_seed_library().datasheet("Primus")
    assert [m.statline() for m in sheet.models] == ['M6" T3 Sv5+ 5++ W4 Ld6+ OC1']
    assert "Neophyte Hybrids" in sheet.leader_of
    assert [w.name for w in sheet.weapons] == [
        "Scoped needle pistol",
        "Cult bonesword",
        "Toxin injector claw",
    ]
    assert sheet.points == (PointsBracket(models=1, points=70),)


def test_packaged_targets() -> None:
    lib = load_seed_library()
    riders = lib.target("Death Riders")
    assert [(g.name, g.count) for g in riders.models] == [("Ridemaster", 1), ("Death Rider", 4)]
    neophytes = lib.target("Neophyte Hybrids", models=20)
    assert neophytes.model_count == 20 and "INFANTRY" in neophytes.keywords
    (bane,) = lib.target("Banehammer").models
    assert (bane.T, bane.Sv, bane.W) == (13, 2, 24)


def test_packaged_rules_and_enhancements() -> None:
    lib = load_seed_library()
    found = lib.rule("Primed and Readied")
    assert isinstance(found[0], Stratagem)
    assert (found[0].cp, found[0].detachment, found[0].category) == (
        2,
        "Host of Ascension",
        "Battle Tactic",
    )
    enhancements = {e.name: e for e in lib.enhancements()}
    edict = enhancements["Assassination Edict"]
    assert (edict.points, edict.detachment) == (15, "Host of Ascension")
    assert edict.text and "CHARACTER" in edict.text
