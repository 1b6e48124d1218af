"""The vocabulary of the dataset's effect language the compiler sorts leaves by (issue
16): whose a leaf target is, the leaf kinds, rolls and stats that do not change the odds
of an attack (what each is about), the kinds not modelled (why), and the re-roll words
(``effect.schema.json``, 1.4.5)."""

from __future__ import annotations

__all__ = ["COMBAT_GRANT_WORDS", "ENEMY_TARGETS", "NON_COMBAT_CORE_RULES", "NON_COMBAT_KINDS",
           "NON_COMBAT_ROLLS", "NON_COMBAT_STATS", "OWN_TARGETS", "REROLL_ROLLS", "REROLL_WHICH",
           "UNMODELLED_KINDS"]

OWN_TARGETS = frozenset({"self", "bearer", "unit", "attached-unit", "selected-models-unit",
                  "friendly-within-aura", "all-friendly", "triggering-unit", None})
ENEMY_TARGETS = frozenset({"defender", "target", "enemy-within-aura", "all-enemy",
                    "targets-of-selected-unit-attacks", "destroyed-model"})

#: Leaf kinds that do not change the odds of an attack, and what they are about.
NON_COMBAT_KINDS: dict[str, str] = {
    "movement-modifier": "movement", "deep-strike": "deployment", "disembark": "movement",
    "disembark-after-move": "movement", "strategic-reserves-arrival": "reserves",
    "objective-control-modifier": "objectives", "objective-tag": "objectives",
    "leadership-modifier": "battle-shock", "battle-shock-test": "battle-shock",
    "set-battle-shock": "battle-shock", "remove-battle-shock": "battle-shock",
    "cp-refund": "CP", "cp-gain": "CP", "cp-on-destroy": "CP",
    "stratagem-cost-modifier": "CP", "resource-gain": "resources",
    "resource-spend": "resources", "resource-clear": "resources", "fallback-and-act":
    "movement", "charge-roll-modifier": "charge", "fight-first": "fight order",
    "fight-last": "fight order", "fight-on-death": "fight order", "shoot-on-death":
    "shooting eligibility", "fight-eligibility-extension": "fight eligibility",
    "engagement-passthrough": "movement", "targeting-permission": "target selection",
    "stratagem-targeting-permission": "stratagem targets", "attack-restriction":
    "target selection", "unit-tag": "a marker", "detection-range-modifier": "visibility",
    "unit-attachment": "army building", "unit-keyword-grant": "keywords",
    "unit-keyword": "keywords", "heal-wounds": "healing", "resurrection":
    "returning models", "no-effect": "nothing", "firing-deck": "transport",
    "flyover": "movement", "embark": "transport", "desperate-escape": "movement",
    "reactive-charge": "charge", "ability-usage-limit": "ability uses",
    "deadly-demise-threshold": "Deadly Demise", "tracking-token": "a marker",
    "terrain-area-tag": "terrain", "transport-capacity-conversion": "transport",
    "issue-orders": "orders", "recovery-pool": "resources", "pool-add-die": "resources",
    "model-destruction": "removing models", "unit-division": "army building",
    "ward": "a marker",
}
#: Rolls and stats outside an attack's odds.
NON_COMBAT_ROLLS = {
    "miracle-dice": "Miracle dice", "dread-ability-selection": "ability selection",
    "blessings-of-khorne": "ability selection", "reanimation-protocols": "returning models",
    "charge": "charge", "advance": "movement", "battle-shock": "battle-shock",
    "leadership": "battle-shock", "desperate-escape": "movement",
    "psychic-test": "psychic tests", "normal-move-distance": "movement",
    "hazardous": "Hazardous tests", "surge": "movement",
}
NON_COMBAT_STATS = {"M": "movement", "Ld": "battle-shock", "OC": "objectives",
                     "detection-range": "visibility", "Range": "weapon range",
                     "deadly-demise-threshold": "Deadly Demise", "R": "weapon range",
                     "range": "weapon range", "deadly-demise-amount": "Deadly Demise"}
COMBAT_GRANT_WORDS = ("hit", "wound", "damage", "critical", "lethal", "sustained",
                       "attack", "cleave", "mortal", "save", "cover")
NON_COMBAT_CORE_RULES = frozenset({"charge", "desperate-escape", "overwatch-against-bearer",
                                    "ordered-retreat", "fall-back", "advance", "embark",
                                    "disembark", "heroic-intervention"})
REROLL_WHICH = {"ones": "ones", "all-failures": "failed", "any-result": "any"}
REROLL_ROLLS = {"hit": "hit", "wound": "wound", "save": "save", "damage": "damage",
                 "attacks": "attacks", "attacks-characteristic": "attacks",
                 "weapon-attacks": "attacks"}
UNMODELLED_KINDS = {
    "dice-gated": "a dice roll decides whether it applies",
    "dice-table": "a dice roll picks the effect", "risk-reward": "a risk the player takes",
    "auto-result": "a roll counted as passed or failed", "modifier-immunity":
    "ignoring modifiers", "replace-roll-from-pool": "replacing a roll with a pooled die",
    "rule-state": "a rule's state", "persistent-designation": "a lasting designation",
    "paired-designation": "paired designations", "named-region-state": "a board region",
    "hazard-rolls": "Hazardous rolls", "miracle-die-operation": "Miracle dice",
    "dice-pool-allocation": "a pool of dice", "resource-action-menu": "a resource menu",
}
