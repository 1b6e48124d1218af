"""The legality checks' stable codes and the limits they check, each with its source:
the seed pages, the published 10th-edition Core Rules ("Muster Armies"), or the BSData
``wh40k-11e`` data where the seed pages are silent (``army.validation`` runs the checks).
"""

from __future__ import annotations

from .roster import BattleSize

__all__ = [
    "ALLY_POINTS",
    "BROOD_BROTHERS_EXCLUDED",
    "CODES",
    "DETACHMENT_POINTS_11TH",
    "RESURGENCE",
    "STAR_CHILDREN_EXCLUDED",
]

#: Every stable code and the rule it implements.
CODES: dict[str, str] = {
    "UNKNOWN_DATASHEET": "unit look-up in the library (decision: an unknown unit cannot be "
                         "checked, so the list is not legal)",
    "MODEL_COUNT": "datasheet unit composition and points brackets",
    "POINTS_LIMIT": "battle size points limit (reference_facts.md §3: 1000/2000/3000)",
    "POINTS_MISMATCH": "the points the list states differ from the datasheet's (warning)",
    "BATTLE_SIZE_UNKNOWN": "no battle size or points limit: size-dependent checks skipped",
    "DETACHMENT_COUNT": "10th Core Rules, Muster Armies: one detachment; 11th: at least one",
    "DETACHMENT_UNKNOWN": "detachment not in the library or the detachment-points table",
    "DETACHMENT_RESTRICTION": "the detachment's keyword restriction (bundled dataset: "
                              "every unit needs the keyword)",
    "DETACHMENT_UNITS": "the detachment's unit minimums (bundled dataset)",
    "DETACHMENT_GRANT": "a keyword the detachment grants to up to N units (bundled "
                        "dataset)",
    "DETACHMENT_POINTS": "BSData wh40k-11e Army Roster: detachment points Incursion 2, "
                         "Strike Force 3, Onslaught 4",
    "FACTION_UNKNOWN": "Muster Armies: the Army Faction (the list names none)",
    "FACTION_NOT_ALLOWED": "Muster Armies: every unit has the Army Faction keyword, or an "
                           "allied-unit rule admits it (Brood Brothers, Star Children's "
                           "Blessings)",
    "ALLY_UNCHECKED": "unit without the Army Faction keyword in an army whose allied-unit "
                      "rules are not in the data (warning)",
    "NO_WARLORD": "Muster Armies: select one CHARACTER model as your Warlord",
    "WARLORD_MULTIPLE": "Muster Armies: one Warlord",
    "WARLORD_NOT_CHARACTER": "Muster Armies: the Warlord is a CHARACTER model",
    "TYRANIDS_WARLORD": "The Star Children's Blessings (seed 000/004): no TYRANIDS models "
                        "from your army can be your WARLORD",
    "STAR_CHILDREN_POINTS": "The Star Children's Blessings (seed 000/004): TYRANIDS units up "
                            "to 500/1000/1500 pts",
    "STAR_CHILDREN_EXCLUDED": "The Star Children's Blessings (seed 000/004): TYRANIDS "
                              "VANGUARD INVADER units only, excluding AIRCRAFT, BROODLORD "
                              "and GENESTEALERS",
    "BROOD_BROTHERS_POINTS": "Brood Brothers (BSData wh40k-11e, Brood Brother Auxilia): "
                             "ASTRA MILITARUM units up to 500/1000/1500 pts",
    "BROOD_BROTHERS_EXCLUDED": "Brood Brothers (BSData wh40k-11e): no AIRCRAFT, COMMISSAR, "
                               "EPIC HERO, MILITARUM TEMPESTUS, OGRYN, RATLING, TECH-PRIEST "
                               "ENGINSEER or MINISTORUM PRIEST units",
    "BROOD_BROTHERS_WARLORD": "Brood Brothers (BSData wh40k-11e): a GENESTEALER CULTS model "
                              "must be your WARLORD",
    "ENHANCEMENT_UNKNOWN": "enhancement not in the library: its eligibility is not checked "
                           "(warning)",
    "ENHANCEMENT_AS_WARGEAR": "an item listed as wargear that is an enhancement of the "
                              "army's detachment and no wargear of the unit's datasheet "
                              "is read as that enhancement (decision: New Recruit's simple "
                              "text writes an unpriced enhancement like wargear; warning)",
    "WARGEAR_UNKNOWN": "the datasheet's weapons, abilities and wargear options: an item "
                       "listed that it has none of is neither checked nor used by the "
                       "calculator (warning: the list's data may be newer than the "
                       "library's)",
    "ENHANCEMENT_UNCHECKED": "enhancement eligibility text not understood (warning)",
    "ENHANCEMENT_WRONG_DETACHMENT": "Muster Armies: enhancements come from your detachment(s)",
    "ENHANCEMENT_INELIGIBLE": "the enhancement's bearer restriction (seed 000, e.g. "
                              "\"MAGUS, PRIMUS or ACOLYTE ICONWARD model only\")",
    "ENHANCEMENT_NOT_CHARACTER": "Muster Armies: enhancements are given to CHARACTER models",
    "ENHANCEMENT_EPIC_HERO": "Muster Armies: EPIC HEROES cannot be given enhancements",
    "ENHANCEMENT_MULTIPLE": "Muster Armies: each CHARACTER can have one enhancement",
    "ENHANCEMENT_DUPLICATE": "Muster Armies: each enhancement once per army",
    "ENHANCEMENT_TOO_MANY": "10th Muster Armies: up to 3 enhancements; BSData wh40k-11e: "
                            "Incursion 2, Strike Force and Onslaught 4",
    "LEADER_NOT_ALLOWED": "24.22 Leader (seed 000): a leader attaches to a bodyguard unit "
                          "named on its datasheet",
    "LEADER_TOO_MANY": "24.22 (seed 000): one leader unit and one support unit per "
                       "bodyguard (10th: one leader)",
    "UNIT_REPEAT_LIMIT": "10th Muster Armies: 3 of a datasheet, 6 BATTLELINE or DEDICATED "
                         "TRANSPORT, 1 EPIC HERO; BSData wh40k-11e: the same, Incursion 2/4 "
                         "(a unit under the list's BATTLELINE heading counts as BATTLELINE)",
    "DEDICATED_TRANSPORT_EMPTY": "18.01 (seed 004): each DEDICATED TRANSPORT must start the "
                                 "battle with a unit embarked",
    "TRANSPORT_INELIGIBLE": "the transport's capacity keywords (001 Banehammer, 004 "
                            "Tyrannocyte); attached units embark together",
    "TRANSPORT_CAPACITY": "the transport's capacity and the space models take (001, 004)",
}

#: 11th-edition detachment points (BSData wh40k-11e "Library - Tyranids.json", cost type
#: "Detachment Points" of each detachment entry: Genestealer Cults and Tyranids).
DETACHMENT_POINTS_11TH: dict[str, int] = {
    "Biosanctic Broodsurge": 2, "Brood Brother Auxilia": 2, "Final Day": 2,
    "Heroes of the Uprising": 1, "Host of Ascension": 3, "Outlander Claw": 2,
    "Purestrain Broodswarm": 1, "Xenocreed Congregation": 2, "Xenocult Masses": 1,
    "Ambush Predators": 1, "Assimilation Swarm": 2, "Crusher Stampede": 2,
    "Invasion Fleet": 3, "Subterranean Assault": 3, "Synaptic Nexus": 2,
    "Talons of the Norn Queen": 1, "Unending Swarm": 2, "Vanguard Onslaught": 2,
    "Warrior Bioform Onslaught": 1,
}
#: The limits that differ between editions (detachments, their detachment-point budget,
#: enhancements per army, the Rule of Three, leader and support units) are knobs of the
#: rule sets (``rules.tenth``, ``rules.eleventh``: ``RuleSet.enhancement_limit`` ...).
#: Allied points caps (Star Children's Blessings, seed 000/004; Brood Brothers, BSData).
ALLY_POINTS: dict[BattleSize, int] = {"Incursion": 500, "Strike Force": 1000, "Onslaught": 1500}
#: Cult Ambush starting Resurgence points (seed 000, rules_inventory.md §C.1).
RESURGENCE: dict[BattleSize, int] = {"Incursion": 6, "Strike Force": 10, "Onslaught": 14}
BROOD_BROTHERS_EXCLUDED = ("AIRCRAFT", "COMMISSAR", "EPIC HERO", "MILITARUM TEMPESTUS",
                           "OGRYN", "RATLING", "TECH-PRIEST ENGINSEER", "MINISTORUM PRIEST")
STAR_CHILDREN_EXCLUDED = ("AIRCRAFT", "BROODLORD", "GENESTEALERS")
