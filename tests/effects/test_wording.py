"""Rule text generated from the dataset's effect code (issue 41, item 7:
``tactica.effects.wording``).

Hand-checked: ten records of different kinds, each read from the installed dataset by
id, its effect code written out in the test (so that the reader checks the sentence
against it, and a changed record fails here rather than passing unread), and the
sentence a player reads. Then the whole dataset swept: every ability record gets a
non-empty text with no identifier, raw object or "None" in it, and the node kinds the
generator has no words for are counted (0 with wh40kdc 1.4.5).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from tactica.effects.wording import describe_effect, describe_record

pytest.importorskip("wh40kdc")

pytestmark = pytest.mark.usefixtures("pinned_dataset")


@pytest.fixture(scope="module")
def abilities() -> dict[str, Mapping[str, Any]]:
    from wh40kdc.data import raw_data

    out: dict[str, Mapping[str, Any]] = {}
    for a in raw_data()["abilities"]:
        out.setdefault(a["ability_id"], a)
    return out


#: (ability id, its effect code as the dataset has it, the text expected)
HAND_CHECKED: list[tuple[str, dict[str, Any], str]] = [
    # an army rule: a designation, with what the attacks on it get and for how long
    ("oath-of-moment", {
        "type": "designate-target", "designation": "oath-of-moment",
        "duration": "until-next-command-phase",
        "select": {"count": 1, "scope": "enemy-unit", "timing": "start-of-command-phase"},
        "applies": {"to": "attackers-of-target", "effect": {
            "type": "re-roll", "target": "unit",
            "modifier": {"roll": "hit", "subset": "all-failures"}}}},
     "At the start of your Command phase, select one enemy unit. Re-roll failed Hit rolls "
     "for attacks that target the designated enemy unit, until your next Command phase."),
    # an enhancement: a Feel No Pain on the bearer
    ("the-flesh-is-weak-ironstorm-spearhead", {
        "type": "feel-no-pain", "target": "bearer", "modifier": {"threshold": 4}},
     "The bearer has the Feel No Pain 4+ ability."),
    # a re-roll of ones, in one phase
    ("veterans-of-the-long-war", {
        "type": "conditional", "condition": {"type": "phase-is",
                                             "parameters": {"phase": "fight"}},
        "effect": {"type": "re-roll", "target": "unit",
                   "modifier": {"roll": "wound", "subset": "ones"}}},
     "In the Fight phase, re-roll Wound rolls of 1 for attacks made by models in the unit."),
    # +1 to hit, ranged attacks only
    ("precision-of-the-patient-hunter-kauyon", {
        "type": "roll-modifier", "target": "bearer",
        "modifier": {"attack_type": "ranged", "operation": "add", "roll": "hit", "value": 1}},
     "Add 1 to the Hit roll for ranged attacks made by the bearer."),
    # an Anti-X grant on the bearer's Psychic weapons, and a damage re-roll
    ("blood-boil-legacy-of-grace", {
        "type": "sequence", "steps": [
            {"type": "keyword-grant", "target": "bearer",
             "modifier": {"keywords": ["Anti-Infantry 5+"], "weapon_keyword": "Psychic"}},
            {"type": "re-roll", "target": "bearer",
             "modifier": {"result_scope": "any-result", "roll": "damage",
                          "weapon_keyword": "Psychic"}}]},
     "[PSYCHIC] weapons equipped by the bearer have [ANTI-INFANTRY 5+]. Re-roll Damage "
     "rolls for [PSYCHIC] attacks made by the bearer."),
    # a Lethal Hits grant while a Leader leads the unit
    ("tactical-precision", {
        "type": "conditional", "condition": {"type": "is-attached"},
        "effect": {"type": "keyword-grant", "target": "unit",
                   "modifier": {"keywords": ["Lethal Hits"]}}},
     "If a Leader is attached to the unit, weapons equipped by models in the unit have "
     "[LETHAL HITS]."),
    # damage reduction
    ("wall-of-muscle", {
        "type": "damage-reduction", "target": "unit", "modifier": {"reduction": 1}},
     "Each time an attack is allocated to a model in the unit, subtract 1 from the Damage "
     "characteristic of that attack."),
    # a condition on the target's keywords
    ("achillan-eye", {
        "type": "conditional", "condition": {"type": "target-has-keyword",
                                             "parameters": {"keyword": "INFANTRY"}},
        "effect": {"type": "re-roll", "target": "unit",
                   "modifier": {"roll": "wound", "subset": "all-failures"}}},
     "If the target has the INFANTRY keyword, re-roll failed Wound rolls for attacks made "
     "by models in the unit."),
    # a stratagem: how long it lasts comes from the record's scope (one phase)
    ("epic-challenge", {
        "type": "keyword-grant", "target": "unit",
        "modifier": {"keywords": ["Precision"], "weapon_type": "melee"}},
     "Melee weapons equipped by models in the unit have [PRECISION], until the end of the "
     "phase."),
    # an aura: the range and the units it reaches, the attack type said in the leaf
    ("taskmaster-aura", {
        "type": "aura", "target": "friendly-within-aura", "modifier": {
            "range": 9, "recipient_filter": {"required_keywords": ["WAR DOG"]},
            "effect": {"type": "conditional",
                       "condition": {"type": "attack-is-type",
                                     "parameters": {"attack_type": "ranged"}},
                       "effect": {"type": "re-roll", "target": "unit",
                                  "modifier": {"roll": "hit", "subset": "ones"}}}}},
     "While a friendly WAR DOG unit is within 9\" of this unit, re-roll Hit rolls of 1 for "
     "ranged attacks made by models in that unit."),
    # an aura from the record's scope ("aura-6"): a penalty on enemy units
    ("executioner-of-heretics-aura", {
        "type": "leadership-modifier", "target": "enemy-within-aura",
        "modifier": {"operation": "worsen", "value": 1}},
     "Worsen the Leadership characteristic of models in enemy units within 6\" by 1."),
    # a risk taken for a choice of two grants (Dark Pacts)
    ("dark-pacts", {
        "type": "risk-reward",
        "reward": {"type": "choice", "choice_label": "Dark Pact ability", "options": [
            {"type": "keyword-grant", "target": "unit",
             "modifier": {"keywords": ["Lethal Hits"]}},
            {"type": "keyword-grant", "target": "unit",
             "modifier": {"keywords": ["Sustained Hits 1"]}}]},
        "risk": {"test": "leadership", "on_fail": {
            "type": "mortal-wounds", "target": "self", "modifier": {"count": "d3"}}}},
     "Choose one: (1) weapons equipped by models in the unit have [LETHAL HITS]; (2) "
     "weapons equipped by models in the unit have [SUSTAINED HITS 1]; then take a "
     "Leadership test: if it is failed, this unit suffers D3 mortal wounds, until the end "
     "of the phase."),
]


@pytest.mark.parametrize(("aid", "effect", "expected"), HAND_CHECKED,
                         ids=[c[0] for c in HAND_CHECKED])
def test_a_record_s_text_says_what_its_effect_code_does(
        abilities: dict[str, Mapping[str, Any]], aid: str, effect: dict[str, Any],
        expected: str) -> None:
    record = abilities[aid]
    assert record["effect"] == effect  # the code the sentence was checked against
    said = describe_record(record)
    assert said.text == expected
    assert said.undescribed == ()


def test_usage_trigger_and_a_kind_without_words() -> None:
    record = {"usage": {"frequency": "n-per-battle", "count": 1},
              "trigger": {"event": "enemy-unit-ended-move", "subject": "enemy-unit",
                          "proximity": {"of": "self", "range": 9}},
              "effect": {"type": "movement-modifier", "target": "unit",
                         "modifier": {"distance": 6, "move_type": "normal"}}}
    assert describe_record(record).text == (
        "Once per battle, when an enemy unit ends a move within 9\" of this unit, add 6\" to "
        "the unit's Normal moves.")
    unknown = describe_effect({"type": "sequence", "steps": [
        {"type": "fight-first", "target": "unit"}, {"type": "time-warp", "target": "unit"}]})
    assert unknown.text == ("The unit has the Fights First ability. "
                            "(effect not described: time-warp)")
    assert unknown.undescribed == ("time-warp",)


def test_conditions_open_the_sentence_as_one_clause() -> None:
    def has(kind: str, keyword: str) -> dict[str, Any]:
        return {"type": kind, "parameters": {"keyword": keyword}}

    condition = {"operator": "and", "operands": [
        {"type": "phase-is", "parameters": {"phase": "shooting"}},
        {"type": "player-turn-is", "parameters": {"turn": "your"}},
        {"operator": "not", "operands": [{"operator": "or", "operands": [
            has("target-has-keyword", "MONSTER"), has("target-has-keyword", "VEHICLE")]}]},
        has("unit-has-keyword", "HARLEQUINS"), has("unit-has-keyword", "MOUNTED"),
        {"type": "attack-is-type", "parameters": {"attack_type": "ranged"}}]}
    effect = {"type": "conditional", "condition": condition, "effect": {
        "type": "roll-modifier", "target": "unit",
        "modifier": {"operation": "add", "roll": "wound", "value": 1}}}
    assert describe_effect(effect).text == (
        "In your Shooting phase, if the target has neither the MONSTER nor VEHICLE keyword "
        "and the unit has the HARLEQUINS and MOUNTED keywords, add 1 to the Wound roll for "
        "ranged attacks made by models in the unit.")


def test_a_granted_ability_is_named_by_the_record_s_own_names() -> None:
    grant = {"type": "ability-grant", "target": "unit",
             "modifier": {"ability_id": "nurgle-s-gift-aura"}}
    named = describe_record({"effect": grant, "granted": {
        "nurgle-s-gift-aura": {"effect": {}, "name": "Nurgle's Gift (Aura)"}}})
    assert named.text == "The unit has the Nurgle's Gift (Aura) ability."
    assert describe_effect(grant).text == "The unit has the Nurgle S Gift Aura ability."


#: What a generated text never holds: "None", a raw object, an identifier with an
#: underscore or a hyphenated slug of three words or more ("after-this-unit-shoots").
_LEAKS = re.compile(r"\bNone\b|[{}\[]'|'[a-z_]+':|\w_\w|\b[a-z]+-[a-z]+-[a-z]+-[a-z]+\b")


def _every_record() -> Iterator[Mapping[str, Any]]:
    from wh40kdc.data import raw_data

    yield from raw_data()["abilities"]


def test_every_record_of_the_dataset_gets_a_text() -> None:
    undescribed: Counter[str] = Counter()
    swept = 0
    for record in _every_record():
        said = describe_record(record)
        assert said.text.strip() and not said.text[0].islower(), record["ability_id"]
        assert not _LEAKS.search(said.text), (record["ability_id"], said.text)
        assert "(the dataset gives no effect code" not in said.text, record["ability_id"]
        undescribed.update(said.undescribed)
        swept += 1
    assert swept == 3920  # every ability record of wh40kdc 1.4.5
    assert undescribed == Counter()  # every node and condition kind the dataset uses
