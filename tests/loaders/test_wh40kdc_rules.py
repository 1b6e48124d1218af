"""The dataset's army rules as records (``tactica.loaders.wh40kdc_rules``).

First a small hand-made bundle in the layout of wh40kdc 1.4.5 (one detachment shared by
a faction and its sub-faction, a stratagem, an enhancement, an army rule); then the real
installed dataset: every faction has records, and the names the issue asks for are found
by ``tactica rule``.
"""

from __future__ import annotations

from typing import Any

import pytest

from tactica.library import load_library
from tactica.loaders.wh40kdc_rules import DatasetRules, dataset_rules, without_seed_duplicates
from tactica.model import ArmyRule, Detachment, DetachmentRule, Enhancement, Source, Stratagem

GV = {"edition": "11th", "dataslate": "launch"}


def bundle() -> dict[str, Any]:
    det = {"id": "d1", "name": "Test Force", "detachment_points": 2,
           "detachment_rule_id": "rule-1", "stratagem_ids": ["s1"], "enhancement_ids": ["e1"],
           "granted_keywords": [{"keyword": "Character", "to_keywords": ["Dog"],
                                 "max_selected": 3}],
           "restrictions": {"required_keywords": ["Ultramarines"]}, "game_version": GV}
    return {
        "factions": [
            {"id": "sm", "name": "Adeptus Astartes", "keywords": ["Adeptus Astartes"],
             "faction_rule_ids": ["oath"], "parent_faction_id": None},
            {"id": "um", "name": "Ultramarines", "keywords": ["Ultramarines"],
             "faction_rule_ids": ["oath"], "parent_faction_id": "sm"},
        ],
        # the sub-faction's copy comes first: the record still belongs to the parent
        "detachments": [dict(det, faction_id="um"), dict(det, faction_id="sm")],
        "stratagems": [{"id": "s1", "name": "STORM OF FIRE", "cp_cost": 1,
                        "detachment_id": "d1", "phases": ["shooting"], "timing":
                        "once-per-phase", "player_turn": "your-turn", "type": "battle-tactic",
                        "ability_id": "a-s1", "target_restrictions":
                        {"required_keywords_any": ["Monster", "Vehicle"]},
                        "game_version": GV}] * 2,
        "enhancements": [{"id": "e1", "name": "Fire Discipline", "cost": 20,
                          "detachment_id": "d1", "is_unique": True,
                          "keyword_restrictions": ["Adeptus Astartes", "Character"],
                          "exclusion_keywords": ["Terminator"], "game_version": GV}],
        "abilities": [
            {"ability_id": "rule-1", "name": "Combat Doctrines", "effect": None},
            {"ability_id": "a-s1", "name": "Storm of Fire", "effect": {"type": "x"}},
            {"ability_id": "oath", "name": "Oath of Moment", "effect": {"type": "y"}},
        ],
    }


def test_one_record_per_dataset_id_with_every_faction() -> None:
    rules = DatasetRules(bundle(), "1.4.5")
    kinds = [type(r).__name__ for r in rules.records()]
    assert kinds == ["Detachment", "DetachmentRule", "Stratagem", "Enhancement", "ArmyRule"]
    det = rules.detachments()[0]
    assert (det.faction, det.factions, det.points) == (
        "Adeptus Astartes", ("Ultramarines", "Adeptus Astartes"), 2)
    assert det.rule_names == ("Combat Doctrines",)
    assert det.stratagems == ("Storm of Fire",) and det.enhancements == ("Fire Discipline",)
    assert det.required_keywords == ("ULTRAMARINES",)
    (grant,) = det.granted_keywords
    assert (grant.keyword, grant.to_keywords, grant.max_selected) == ("CHARACTER", ("DOG",), 3)


def test_stratagem_enhancement_and_army_rule_fields() -> None:
    rules = DatasetRules(bundle(), "1.4.5")
    strat = next(r for r in rules.records() if isinstance(r, Stratagem))
    assert (strat.name, strat.cp, strat.detachment, strat.category) == (
        "Storm of Fire", 1, "Test Force", "Battle Tactic")
    assert (strat.phases, strat.turn, strat.timing, strat.faction) == (
        ("shooting",), "your-turn", "once-per-phase", "Adeptus Astartes")
    assert strat.restrictions == "the unit has MONSTER or VEHICLE"
    assert strat.source.note == "stratagem s1 (launch)" and strat.rules == "11th"
    assert rules.effect_of(strat) == {"ability_id": "a-s1", "name": "Storm of Fire",
                                      "effect": {"type": "x"}}
    enh = next(r for r in rules.records() if isinstance(r, Enhancement))
    assert (enh.points, enh.unique, enh.eligibility, enh.excluded_keywords) == (
        20, True, "ADEPTUS ASTARTES CHARACTER", ("TERMINATOR",))
    assert rules.effect_of(enh) is None  # no ability_id: no machine-readable effect
    army = next(r for r in rules.records() if isinstance(r, ArmyRule))
    assert army.factions == ("Adeptus Astartes", "Ultramarines")


def test_seed_records_stay_authoritative() -> None:
    rules = DatasetRules(bundle(), "1.4.5").records()
    seed = Stratagem(name="Storm of Fire", cp=2, detachment="Test Force", rules="11th",
                     source=Source(file="000.txt"))
    kept = without_seed_duplicates(rules, [seed])
    assert not any(isinstance(r, Stratagem) for r in kept)
    assert len(kept) == len(rules) - 1


# --- the installed dataset (real data) ------------------------------------------------------


def test_real_dataset_every_faction_has_detachments_and_stratagems(pinned_dataset: str) -> None:
    rules = dataset_rules()
    factions = {f for d in rules.detachments() for f in d.factions}
    assert len(factions) == 35  # every faction of the bundle
    strats = [r for r in rules.records() if isinstance(r, Stratagem)]
    assert {s.faction for s in strats if s.faction} >= {d.faction for d in rules.detachments()
                                                       if d.stratagems}
    assert all(d.points in (1, 2, 3) for d in rules.detachments())
    assert sum(isinstance(r, DetachmentRule) for r in rules.records()) == 242


@pytest.mark.parametrize("name,kind", [("Gladius Task Force", Detachment),
                                       ("Oath of Moment", ArmyRule),
                                       ("Armour of Contempt", Stratagem)])
def test_real_dataset_rule_lookup(name: str, kind: type) -> None:
    pytest.importorskip("wh40kdc")
    found = load_library(dataset=True).find_rules(name)
    assert any(isinstance(r, kind) for r in found)
