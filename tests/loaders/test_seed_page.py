"""The seed-page loader against the five packaged pages (rules_inventory.md §0, A, C-G)."""

from __future__ import annotations

import functools
import json
from collections import Counter
from pathlib import Path
from typing import Annotated

import pytest
from pydantic import Field, TypeAdapter

import tactica
from tactica.dice import DiceExpr
from tactica.loaders.errors import LoadError
from tactica.loaders.seed_page import SeedPage, load_seed_page
from tactica.loaders.seed_weapons import split_abilities
from tactica.model import (
    Anti,
    CoreRule,
    Datasheet,
    DetachmentRule,
    Enhancement,
    Errata,
    EscalatingPoints,
    FaqEntry,
    Flag,
    PointsBracket,
    RuleRecord,
    Stratagem,
)

SEEDS = Path(tactica.__file__).parent / "data" / "seeds"
GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "seed_datasheets"
STEMS = sorted(p.stem for p in SEEDS.glob("*.txt"))
PRIMUS, BANEHAMMER, DEATH_RIDERS, NEOPHYTES, TYRANNOCYTE = STEMS

RECORDS = TypeAdapter(tuple[Annotated[RuleRecord, Field(discriminator="record")], ...])


@functools.cache
def page(stem: str) -> SeedPage:
    return load_seed_page(SEEDS / f"{stem}.txt")


def sheet(stem: str) -> Datasheet:
    ds = page(stem).datasheet
    assert ds is not None
    return ds


def records(stem: str, kind: type[RuleRecord]) -> list[RuleRecord]:
    return [r for r in page(stem).records if isinstance(r, kind)]


def stratagems(stem: str, name: str, detachment: str | None = None) -> list[Stratagem]:
    return [
        r for r in page(stem).records
        if isinstance(r, Stratagem) and r.name == name
        and (detachment is None or r.detachment == detachment)
    ]


def core_rules(stem: str, title: str) -> list[CoreRule]:
    return [r for r in page(stem).records if isinstance(r, CoreRule) and r.title == title]


def seed_text(stem: str) -> str:
    return (SEEDS / f"{stem}.txt").read_text(encoding="utf-8")


# --- 1. every page loads --------------------------------------------------------------


def test_the_five_seed_pages_are_there() -> None:
    assert [s[:3] for s in STEMS] == ["000", "001", "002", "003", "004"]


@pytest.mark.parametrize("stem", STEMS)
def test_page_loads(stem: str) -> None:
    loaded = page(stem)
    assert loaded.file == f"{stem}.txt"
    assert loaded.datasheet is not None
    assert loaded.records
    assert all(r.source.file == loaded.file and r.source.line for r in loaded.records)
    # records come in page order
    lines = [r.source.line or 0 for r in loaded.records]
    assert lines == sorted(lines)


@pytest.mark.parametrize(
    ("stem", "name", "rules"),
    [
        (PRIMUS, "Primus", "11th"),
        (BANEHAMMER, "Banehammer", "10th"),
        (DEATH_RIDERS, "Death Riders", "10th"),
        (NEOPHYTES, "Neophyte Hybrids", "10th"),
        (TYRANNOCYTE, "Tyrannocyte", "11th"),
    ],
)
def test_name_and_layout_version(stem: str, name: str, rules: str) -> None:
    assert (sheet(stem).name, sheet(stem).rules, page(stem).rules) == (name, rules, rules)


# --- 2. golden datasheets ----------------------------------------------------------------
# The golden files were written once by tests/loaders/write_seed_goldens.py and then checked
# by hand, field by field, against the pages and rules_inventory.md §A (tables A1-A5: weapon
# stats and abilities, core/faction/unit abilities, composition, points, keywords, damaged
# profile, transport, wargear options).


@pytest.mark.parametrize("stem", STEMS)
def test_datasheet_matches_golden(stem: str) -> None:
    golden = json.loads((GOLDEN / f"{stem}.json").read_text(encoding="utf-8"))
    assert sheet(stem).model_dump(mode="json") == golden


# --- 3. pinned facts ---------------------------------------------------------------------


def test_primus_weapons_and_bare_word_abilities() -> None:
    ds = sheet(PRIMUS)
    assert [w.name for w in ds.weapons] == [
        "Scoped needle pistol", "Cult bonesword", "Toxin injector claw",
    ]
    (pistol,) = ds.weapon("Scoped needle pistol").profiles
    assert pistol.abilities == (
        Anti(keyword="INFANTRY", threshold=2), Flag(name="Ignores Cover"), Flag(name="Pistol"),
    )
    assert (pistol.range, pistol.A, pistol.skill, pistol.S, pistol.AP, pistol.D) == (
        18, DiceExpr.parse(1), 2, 1, 0, DiceExpr.parse("D3"),
    )
    (claw,) = ds.weapon("Toxin injector claw").profiles
    assert claw.abilities == (Anti(keyword="INFANTRY", threshold=2), Flag(name="Extra Attacks"))
    assert claw.range == "Melee" and [str(a) for a in claw.abilities] == [
        "Anti-Infantry 2+", "Extra Attacks",
    ]


def test_primus_abilities_split_from_one_line() -> None:
    ds = sheet(PRIMUS)
    assert [(a.kind, a.name) for a in ds.abilities] == [
        ("core", "Deep Strike"), ("core", "Leader"),
        ("unit", "Cult Demagogue"), ("unit", "Decoys and Misdirection"),
    ]
    demagogue = ds.ability("Cult Demagogue")
    decoys = ds.ability("Decoys and Misdirection")
    assert demagogue is not None and decoys is not None
    assert demagogue.text is not None and demagogue.text.endswith("add 1 to the Hit roll.")
    assert decoys.text is not None and decoys.text.startswith("If your army includes")
    assert ds.leader_of == ()
    assert "LEADER: the page lists no units this model can be attached to" in ds.notes


def test_tyrannocyte_escalating_points() -> None:
    points = sheet(TYRANNOCYTE).points
    assert isinstance(points, EscalatingPoints)
    assert [(t.first, t.last) for t in points.tiers] == [(1, 3), (4, None)]
    assert [points.brackets_for_unit(n)[0].points for n in (1, 2, 3, 4, 7)] == [
        80, 80, 80, 90, 90,
    ]


def test_tyrannocyte_abilities_and_transport() -> None:
    ds = sheet(TYRANNOCYTE)
    demise = ds.ability("Deadly Demise")
    assert demise is not None and demise.parameter == DiceExpr.parse("D3")
    synapse = ds.ability("Synapse")
    assert synapse is not None and synapse.kind == "faction"
    assert ds.transport is not None
    assert (ds.transport.capacity, ds.transport.keywords) == (20, ("TYRANIDS", "INFANTRY"))
    assert "SYNAPSE" not in ds.keywords  # inventory H.2 #35


def test_banehammer_core_abilities_damaged_and_transport() -> None:
    ds = sheet(BANEHAMMER)
    demise, deck = ds.ability("Deadly Demise"), ds.ability("Firing Deck")
    assert demise is not None and deck is not None
    assert (demise.kind, demise.parameter) == ("core", DiceExpr.parse("D6+2"))
    assert (deck.kind, deck.parameter) == ("core", DiceExpr.parse(12))
    assert ds.damaged is not None
    assert (ds.damaged.min_wounds, ds.damaged.max_wounds) == (1, 8)
    assert (ds.damaged.hit_modifier, ds.damaged.oc_modifier) == (-1, -4)
    assert ds.transport is not None and ds.transport.capacity == 26
    assert ds.transport.keywords == ("ASTRA MILITARUM", "INFANTRY")
    assert ds.keywords == ("VEHICLE", "TITANIC", "IMPERIUM", "TRANSPORT", "SMOKE", "BANEHAMMER")
    assert ds.faction_keywords == ("ASTRA MILITARUM",)  # printed twice on the page
    assert ds.wargear_options[1].splitlines() == [
        "This model can be equipped with one of the following:",
        "- 2 lascannons and 2 twin heavy bolters",
        "- 2 lascannons and 2 twin heavy flamers",
    ]
    tremor = ds.weapon("Tremor cannon").profiles[0]
    assert str(tremor.A) == "2D6+3" and [str(a) for a in tremor.abilities] == ["Blast"]
    flamer = ds.weapon("Twin heavy flamer").profiles[0]
    assert flamer.skill is None and flamer.has("Torrent")  # N/A skill: Torrent


def test_death_riders_points_and_models() -> None:
    ds = sheet(DEATH_RIDERS)
    assert ds.points == (PointsBracket(models=5, points=70), PointsBracket(models=10, points=140))
    assert [(c.model, c.min, c.max) for c in ds.composition] == [
        ("Ridemaster", 1, 1), ("Death Riders", 4, 9),
    ]
    assert [m.name for m in ds.models] == ["Ridemaster", "Death Rider"]
    assert all(m.T is None and m.W is None for m in ds.models)  # no stat lines on the pages
    assert ds.weapon("Frag lance").profiles[0].has("Lance")


def test_untitled_page_is_neophyte_hybrids_with_a_multi_profile_grenade_launcher() -> None:
    ds = sheet(NEOPHYTES)
    assert ds.name == "Neophyte Hybrids"
    assert any(n.startswith("name inferred") for n in ds.notes)
    assert ds.keywords == () and ds.composition == () and ds.models == ()
    launcher = ds.weapon("Grenade launcher")
    assert [p.name for p in launcher.profiles] == [
        "Grenade launcher – frag", "Grenade launcher – krak",
    ]
    frag, krak = launcher.profiles
    assert [str(a) for a in frag.abilities] == ["Blast"] and krak.abilities == ()
    assert (str(krak.D), krak.AP, krak.S) == ("D3", -2, 9)
    assert len(ds.weapons) == 12  # 13 rows, the launcher's two profiles are one weapon
    assert ds.points == (PointsBracket(models=10, points=90), PointsBracket(models=20, points=180))


def test_primed_and_readied() -> None:
    (primed,) = stratagems(PRIMUS, "Primed and Readied")
    assert (primed.cp, primed.detachment, primed.category, primed.rules) == (
        2, "Host of Ascension", "Battle Tactic", "10th",
    )
    assert primed.effect is not None and "unmodified Hit roll of 5+" in primed.effect
    assert primed.when == "Your Shooting phase or the Fight phase."


def test_command_reroll_has_three_versions() -> None:
    found = {
        (s.detachment, s.category, s.section, s.rules)
        for stem in STEMS
        for s in stratagems(stem, "Command Re-roll")
    }
    assert found == {
        ("Core", None, "15.02", "11th"),
        ("Core", "Battle Tactic", None, "10th"),
        ("Boarding Actions", "Epic Deed", None, "10th"),
    }
    (new,) = stratagems(PRIMUS, "Command Re-roll", "Core")
    assert new.section == "15.02"
    # the bullet list printed between the doubled TARGET/EFFECT blocks belongs to WHEN
    assert new.when is not None and new.when.splitlines()[1:] == [
        "- Advance roll", "- Charge roll", "- Damage roll", "- Hazard roll", "- Hit roll",
        "- Save roll", "- Wound roll",
        "- A roll to determine the number of attacks generated with a weapon.",
    ]
    assert new.target == "That unit or model."
    assert new.effect is not None and "TARGET" not in new.effect


def test_doubled_stratagem_blocks_are_kept_once() -> None:
    (bravery,) = stratagems(PRIMUS, "Insane Bravery", "Core")
    assert bravery.restrictions == "You cannot use this stratagem more than once per battle."
    (heroic,) = stratagems(TYRANNOCYTE, "Heroic Intervention")
    assert heroic.effect is not None
    assert heroic.effect.count("Resolve a charge") == 1
    assert "- Leap to Defend:" in heroic.effect and "+1CP" in heroic.effect
    (divine,) = stratagems(PRIMUS, "Divine Imperative")
    assert divine.effect is not None and divine.effect.startswith("- Your unit has +1")
    assert divine.rules == "11th"  # inventory §E.4: "N-style wording"


def test_stratagem_tags_and_versions() -> None:
    (smoke,) = stratagems(BANEHAMMER, "Smokescreen")  # heading glued: "...Hit roll.SMOKESCREEN"
    assert (smoke.detachment, smoke.category, smoke.rules) == ("Core", "Wargear", "10th")
    (crush,) = stratagems(TYRANNOCYTE, "Crushing Impact")
    assert (crush.section, crush.category, crush.rules) == ("15.06", None, "11th")
    explosive = stratagems(TYRANNOCYTE, "Explosive Clearance")
    assert [(s.detachment, s.rules) for s in explosive] == [("Boarding Actions", "10th")]


# --- 4. counts against the inventory -------------------------------------------------------


def test_distinct_stratagems_match_the_inventory() -> None:
    """Inventory §E: "46 distinct name/version entries + 1 text variant". Counting
    (name, detachment, rules version) over the five pages gives 46 as well.

    Counting by text as well gives 49: the extra three are Fire Overwatch (001 and 002
    differ in the WHEN trigger: the inventory's "text variant", 11a/11b) and A Dark Network
    and Symbiotic Destruction, whose 001/002 copies lost the GENESTEALER CULTS keyword in
    the capture (§0: "Treat the 000 copies as the canonical text"). Both counts agree with
    the inventory; the keyword-stripped copies are capture artefacts, not variants."""
    every = [r for stem in STEMS for r in page(stem).records if isinstance(r, Stratagem)]
    assert len({(s.name, s.detachment, s.rules) for s in every}) == 46
    by_text = Counter(
        (s.name, s.detachment, s.rules) for s in {
            (s.name, s.detachment, s.rules, s.when, s.target, s.effect): s for s in every
        }.values()
    )
    assert sorted(k[0] for k, n in by_text.items() if n > 1) == [
        "A Dark Network", "Fire Overwatch", "Symbiotic Destruction",
    ]
    per_page = [len(records(stem, Stratagem)) for stem in STEMS]
    assert per_page == [29, 16, 13, 0, 14]  # §E "Stratagem lists per datasheet"


def test_enhancements_match_the_inventory() -> None:
    """§F.2 lists 19 enhancements; the descriptions (no names on the page) are matched in
    the list's detachment order."""
    found = {e.name: e for e in records(PRIMUS, Enhancement) if isinstance(e, Enhancement)}
    assert len(found) == 19
    expected = {
        "Assassination Edict": (15, "Host of Ascension", "CHARACTER unit, add 1 to the Hit"),
        "Prowling Agitant": (15, "Host of Ascension", "Normal move of up to D6"),
        "A Chink in Their Armour": (20, "Host of Ascension", "[LETHAL HITS]"),
        "Our Time Is Nigh": (20, "Host of Ascension", "add 2 to Charge rolls"),
        "Incendiary Inspiration": (15, "Xenocreed Congregation", "charge in a turn in which"),
        "Deeds That Speak to the Masses": (25, "Xenocreed Congregation", "2 additional Resurg"),
        "Denunciator of Tyrants": (25, "Xenocreed Congregation", "add 1 to the Wound roll"),
        "Gene-sire’s Reliquant": (5, "Xenocreed Congregation", "re-roll Battle-shock tests"),
        "Cartographic Data-leech": (10, "Outlander Claw", "Firing Deck ability by 1"),
        "Assault Commando": (15, "Outlander Claw", "disembarked from a TRANSPORT"),
        "Firepoint Commander": (10, "Brood Brother Auxilia", "unmodified Hit rolls of 5+"),
        "Adaptive Reprisal": (15, "Brood Brother Auxilia", "Heroic Intervention"),
        "The Hero Returned": (20, "Brood Brother Auxilia", "Leadership and Objective Control"),
        "Martial Espionage": (25, "Brood Brother Auxilia", "Armour Penetration"),
        "Enraptured Damnation": (10, "Final Day", "cannot use the Fire Overwatch"),
        "Inhuman Integration": (20, "Final Day", "[SUSTAINED HITS 1]"),
        "Master Saboteur": (None, "Cult Unveiled", "Secures an objective marker"),
        "Primary Detonator": (None, "Cult Unveiled", "opens a closed Hatchway"),
    }
    for name, (points, detachment, words) in expected.items():
        e = found[name]
        assert (e.points, e.detachment) == (points, detachment), name
        assert e.text is not None and words in e.text, name
    inspired = found["Inspired to Greatness"]
    assert (inspired.points, inspired.detachment, inspired.text) == (None, "Cult Unveiled", None)
    assert found["Denunciator of Tyrants"].eligibility == (
        "MAGUS, PRIMUS or ACOLYTE ICONWARD model only"
    )
    assert found["Assassination Edict"].flavour is not None


def test_detachment_rules_faq_and_errata() -> None:
    rules = {(r.name, r.detachment) for stem in STEMS for r in records(stem, DetachmentRule)
             if isinstance(r, DetachmentRule)}
    assert rules == {
        ("A Perfect Ambush", "Host of Ascension"),
        ("Integrated Tactics", "Brood Brother Auxilia"),
        ("Psionic Parasitism", "Final Day"),
        ("Harassing Fire", "Cult Unveiled"),
        ("Rapid Takeover", "Outlander Claw"),
        ("(unnamed detachment rule)", None),  # 003, inventory §F.1
    }
    faq = records(TYRANNOCYTE, FaqEntry)
    assert len(faq) == 15  # inventory §G.2 (the terrain-area FAQ printed twice kept once)
    errata = [r for r in records(TYRANNOCYTE, Errata) if isinstance(r, Errata)]
    assert [e.target for e in errata] == [
        "Hierophant, Toxicrene, Tyrannocyte and Tyrannofex.",
        "Tyrannocyte, Aerial Seeding Ability",
        "Tank Shock Stratagem",
        "Synapse Army Rule",
    ]
    assert errata[3].text.count("\n- ") == 2


def test_core_rules_numbered_unnumbered_and_glued_headings() -> None:
    (cover,) = core_rules(PRIMUS, "Benefit of Cover")
    assert (cover.section, cover.rules) == ("13.08", "11th")
    (ignores,) = core_rules(PRIMUS, "Ignores Cover")  # glued: "...(13.08).[IGNORES COVER]24.18"
    assert ignores.section == "24.18"
    assert ignores.text.endswith("(e.g. Stealth).")  # "06.03 Hazard Rolls" was cut off
    (hazard,) = core_rules(PRIMUS, "Hazard Rolls")
    assert hazard.section == "06.03"
    (advance,) = core_rules(PRIMUS, "Advance Move")
    assert advance.section == "09.06"
    (destroyed,) = core_rules(TYRANNOCYTE, "Destroyed")
    assert destroyed.section == "05.04.04"
    (deep_strike,) = core_rules(PRIMUS, "Deep Strike")  # unnumbered, old text on a new page
    assert (deep_strike.section, deep_strike.rules) == (None, "10th")
    (new_deep_strike,) = core_rules(TYRANNOCYTE, "Deep Strike")
    assert (new_deep_strike.section, new_deep_strike.rules) == ("24.09", "11th")
    (hit_roll,) = core_rules(BANEHAMMER, "Hit Roll")
    assert hit_roll.rules == "10th" and "never be modified by more than -1 or +1" in hit_roll.text
    (ignores_old,) = core_rules(BANEHAMMER, "Ignores Cover")  # "...Wound roll.Ignores Cover"
    assert ignores_old.rules == "10th" and ignores_old.text.startswith("Some weapons")


def test_untitled_bodies_get_titles_from_their_content() -> None:
    titles = [r.title for r in records(NEOPHYTES, CoreRule) if isinstance(r, CoreRule)]
    assert titles == [
        "Deep Strike", "Devastating Wounds", "Mortal Wounds", "Stealth", "Hazardous",
        "Invulnerable Saves", "Benefit of Cover", "Charge Bonus", "Pistol", "Ignores Cover",
        "Cult Ambush", "Blast", "Torrent", "Rapid Fire", "Heavy",
    ]
    (torrent,) = core_rules(NEOPHYTES, "Torrent")
    assert torrent.text.startswith("Torrent weapons shoot clouds")
    assert "keyword is used" not in torrent.text
    assert torrent.source.note is not None and "title inferred" in torrent.source.note
    (cult_ambush,) = core_rules(NEOPHYTES, "Cult Ambush")
    assert "BATTLELINE unit" in cult_ambush.text  # the oldest version, inventory §C.1


def test_cult_ambush_versions() -> None:
    (new,) = core_rules(PRIMUS, "Cult Ambush")
    (old,) = core_rules(BANEHAMMER, "Cult Ambush")
    assert (new.rules, old.rules) == ("11th", "10th")
    assert "Resurgence points" in new.text and "roll one D6" in old.text
    assert new.source.note is not None and "table lost" in new.source.note
    assert "Units in Cult Ambush" in new.text  # a sub-heading stays in the rule


def test_site_junk_is_skipped() -> None:
    for stem in STEMS:
        for r in page(stem).records:
            text = r.model_dump_json()
            assert "keyword is used in the following" not in text
            assert "keywords are used in the following" not in text
            assert "Datasheets collated" not in text and "SEE ALSO" not in text
        assert not core_rules(stem, "Characters")  # 001's 9th-edition text
    assert any("9th-edition 'Characters'" in n for n in sheet(BANEHAMMER).notes)
    assert any("line 37" in n and "lost" in n for n in sheet(NEOPHYTES).notes)


def test_multi_profile_tooltip_is_recorded_once_per_page() -> None:
    counts = [len(core_rules(stem, "Multi-profile weapons")) for stem in STEMS]
    assert counts == [1, 1, 1, 0, 1]
    (lethal,) = core_rules(DEATH_RIDERS, "Lethal Hits")  # the sentence was glued to it
    assert "select one of its profiles" not in lethal.text


def test_records_printed_twice_are_kept_once() -> None:
    (leader,) = core_rules(PRIMUS, "Leader")
    assert leader.source.line == 167
    assert leader.source.note is not None and "LEADER24.22 / SUPPORT24.23" in leader.source.note
    (hazardous,) = core_rules(TYRANNOCYTE, "Hazardous")
    assert hazardous.source.note == "printed again at line 278"
    assert len(core_rules(TYRANNOCYTE, "Disembark Move")) == 1


def test_synapse_takes_the_version_of_its_errata() -> None:
    (synapse,) = core_rules(TYRANNOCYTE, "Synapse")
    assert synapse.rules == "11th"
    assert synapse.source.note is not None and "errata at line 593" in synapse.source.note


def test_core_rule_counts_per_version() -> None:
    per_page = [
        Counter(r.rules for r in records(stem, CoreRule)) for stem in STEMS
    ]
    assert per_page == [
        Counter({"11th": 50, "10th": 1}),
        Counter({"10th": 30}),
        Counter({"10th": 21}),
        Counter({"10th": 15}),
        Counter({"11th": 47}),
    ]


# --- bare-word ability parsing ------------------------------------------------------------


@pytest.mark.parametrize(
    ("cell", "name", "abilities"),
    [
        ("Scoped needle pistol anti-infantry 2+ ignores cover pistol", "Scoped needle pistol",
         ["Anti-Infantry 2+", "Ignores Cover", "Pistol"]),
        ("Toxin injector claw anti-infantry 2+ extra attacks", "Toxin injector claw",
         ["Anti-Infantry 2+", "Extra Attacks"]),
        ("Bolt rifle assault heavy", "Bolt rifle", ["Assault", "Heavy"]),
        ("Cult bonesword", "Cult bonesword", []),
        ("Heavy stubber rapid fire 3", "Heavy stubber", ["Rapid Fire 3"]),
    ],
)
def test_bare_word_abilities(cell: str, name: str, abilities: list[str]) -> None:
    got_name, got = split_abilities(cell)
    assert (got_name, [str(a) for a in got]) == (name, abilities)


def test_bracket_pages_keep_bare_words_in_the_name() -> None:
    assert split_abilities("Frag lance", bare_words=False) == ("Frag lance", ())
    assert split_abilities("Frag lance [lance]", bare_words=False)[0] == "Frag lance"


# --- 5. malformed pages ----------------------------------------------------------------------


def _edit(stem: str, line: int, old: str, new: str) -> str:
    lines = seed_text(stem).split("\n")
    assert old in lines[line - 1], (line, lines[line - 1])
    lines[line - 1] = lines[line - 1].replace(old, new)
    return "\n".join(lines)


@pytest.mark.parametrize(
    ("stem", "line", "old", "new", "problem"),
    [
        # a truncated stat row (fewer columns)
        (BANEHAMMER, 4, " | -3 | D6+1 | |", "", "truncated weapon row"),
        (NEOPHYTES, 13, " | -2 | D3 | |", "", "truncated weapon row"),
        # "4++" as a skill
        (BANEHAMMER, 4, "| 4+ |", "| 4++ |", "skill must be 2+ to 6+ or N/A"),
        (PRIMUS, 7, "| 2+ |", "| 4++ |", "skill must be 2+ to 6+ or N/A"),
        # an unknown ability in brackets (the stat row only: reported there)
        (BANEHAMMER, 6, "[blast]", "[frobnicate]", "unknown weapon ability 'frobnicate'"),
        # ... in both rows: reported where it first appears, the name row
        (NEOPHYTES, 2, "[pistol]", "[frobnicate]", "unknown weapon ability 'frobnicate'"),
        # a bad dice expression as A
        (BANEHAMMER, 6, "| 2D6+3 |", "| 2D |", "malformed dice expression '2D'"),
        (DEATH_RIDERS, 7, "| D6 |", "| 2D |", "malformed dice expression '2D'"),
        # other malformations
        (BANEHAMMER, 13, "| Melee |", '| 12" |', "melee weapon range must be 'Melee'"),
        (BANEHAMMER, 4, "| -3 |", "| -3x |", "AP must be a whole number"),
        (BANEHAMMER, 4, "| 12 | -3 |", "| 12 | 1 |", "invalid weapon profile"),
        (BANEHAMMER, 4, "Lascannon", "Lascannons", "stat row does not match the name row"),
        (TYRANNOCYTE, 14, "YOUR 1ST TO 3RD UNITS COST", "YOUR FIRST UNITS",
         "unreadable escalating-cost row"),
        (DEATH_RIDERS, 13, "Screening Line: ", "Screening Line ", "ability line is not"),
        (PRIMUS, 11, "Deep Strike, Leader", "Deep Strike, Deadly Demise 2D", "malformed dice"),
        (BANEHAMMER, 243, "You re-roll that roll", "You re-roll this roll",
         "stratagem gives EFFECT twice, differently"),
        (BANEHAMMER, 348, "Battle Tactic Stratagem", "Battle Tactics Stratagem",
         "expected a stratagem tag"),
    ],
)
def test_malformed_page_names_file_and_line(
    stem: str, line: int, old: str, new: str, problem: str
) -> None:
    fake = f"broken_{stem[:3]}.txt"
    with pytest.raises(LoadError) as err:
        load_seed_page(f"/nowhere/{fake}", text=_edit(stem, line, old, new))
    assert err.value.source == fake
    assert err.value.line == line
    assert f"{fake}:{line}:" in str(err.value)
    assert problem in str(err.value)


def test_stratagem_cost_must_match_the_list() -> None:
    text = _edit(BANEHAMMER, 347, "1CP", "2CP")  # COMMAND RE-ROLL, Core – Battle Tactic
    with pytest.raises(LoadError, match=r"broken\.txt:346: 2CP here but 1CP in the list"):
        load_seed_page("broken.txt", text=text)


def test_stratagem_without_a_when_is_an_error() -> None:
    text = _edit(PRIMUS, 564, "WHEN: ", "WHEN ")  # A DEADLY SNARE
    with pytest.raises(LoadError, match=r"broken\.txt:560: stratagem has no WHEN"):
        load_seed_page("broken.txt", text=text)


def test_text_outside_any_rule_is_an_error() -> None:
    text = _edit(DEATH_RIDERS, 164, "Characters", "Some stray sentence without a heading.")
    with pytest.raises(LoadError, match=r"broken\.txt:164: text outside any rule"):
        load_seed_page("broken.txt", text=text)


def test_untitled_page_with_unknown_weapons_is_an_error() -> None:
    text = seed_text(NEOPHYTES).replace("Webber", "Net gun")
    with pytest.raises(LoadError, match=r"broken\.txt:1: page has no title line"):
        load_seed_page("broken.txt", text=text)


def test_text_argument_wins_over_the_file() -> None:
    loaded = load_seed_page(SEEDS / f"{PRIMUS}.txt", text=seed_text(DEATH_RIDERS))
    assert loaded.file == f"{PRIMUS}.txt"
    assert sheet_name(loaded) == "Death Riders"


def sheet_name(loaded: SeedPage) -> str:
    assert loaded.datasheet is not None
    return loaded.datasheet.name


# --- 6. JSON round trips ----------------------------------------------------------------------


@pytest.mark.parametrize("stem", STEMS)
def test_datasheet_json_round_trip(stem: str) -> None:
    ds = sheet(stem)
    assert Datasheet.model_validate_json(ds.model_dump_json()) == ds


@pytest.mark.parametrize("stem", STEMS)
def test_records_json_round_trip(stem: str) -> None:
    recs = page(stem).records
    assert RECORDS.validate_json(RECORDS.dump_json(recs)) == recs
    for r in recs:
        assert type(r).model_validate_json(r.model_dump_json()) == r
