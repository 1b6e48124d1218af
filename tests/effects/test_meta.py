"""Meta-tests: the catalogue of named effects against the packaged seed pages.

1. Every stratagem, detachment rule and enhancement on a packaged seed page
   (``tactica/data/seeds/*.txt`` through ``load_seed_page``) is either a named effect
   (``find_effect``, in the record's rules version, with the record's CP and kind) or
   explicitly listed as non-combat (``non_combat_reason``).
2. Every catalogue entry says what it does (``terms``) and where it comes from: every
   ``NamedEffect`` name is a seed stratagem / detachment rule / enhancement name, or one of
   the documented abilities, each checked against the page that documents it:
   Cult Demagogue (Primus ability, 000), Synapse (Tyrannocyte ability, 004), the
   Banehammer's Damaged profile (1-8 wounds, 001) and Catalyst (Aura) (given to TYRANIDS
   units by the Final Day rule Psionic Parasitism, 000/004). Which holds for each name is
   in ``DOCUMENTED_ABILITIES`` below.
3. Every ``NON_COMBAT`` name is a seed rule (record, core-rule title or datasheet
   ability), and no name is both a named effect and non-combat. (003's untitled
   detachment rule, which an outside roster calls "They Came From Below", rules_inventory
   §F.1 [EXT], has A Perfect Ambush's effect: it must resolve to that named effect.)
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from pathlib import Path

import pytest

import tactica
from tactica.effects import (
    EFFECTS,
    NON_COMBAT,
    NamedEffect,
    UnknownEffectError,
    find_effect,
    list_effects,
    non_combat_reason,
)
from tactica.loaders.seed_page import SeedPage, load_seed_page
from tactica.model.rules import CoreRule, DetachmentRule, Enhancement, Stratagem
from tactica.names import normalise

SEEDS = Path(tactica.__file__).parent / "data" / "seeds"
KIND = {Stratagem: "stratagem", DetachmentRule: "detachment rule", Enhancement: "enhancement"}
Record = Stratagem | DetachmentRule | Enhancement


@cache
def pages() -> tuple[SeedPage, ...]:
    files = sorted(SEEDS.glob("*.txt"))
    assert len(files) == 5, files
    return tuple(load_seed_page(f) for f in files)


def seed_records() -> list[Record]:
    return [r for p in pages() for r in p.records
            if isinstance(r, Stratagem | DetachmentRule | Enhancement)]


def _record_id(r: Record) -> str:
    return f"{r.source.file[:3]}:{type(r).__name__}:{r.name} ({r.rules})"


def _records_or_error() -> list[object]:
    """The parameters of the per-record test (collection must not fail if the loader
    does: the error then shows as that test's failure)."""
    try:
        records = seed_records()
    except Exception as exc:  # reported by the test below
        return [pytest.param(exc, id="loader")]
    return [pytest.param(r, id=_record_id(r)) for r in records]


# --- 1. every seed rule is a named effect or listed as non-combat -----------------------


def test_seed_pages_have_the_rules_of_the_inventory() -> None:
    """A guard against testing nothing: the inventory (rules_inventory.md §E, §F) counts
    46 distinct stratagem name/version entries (a core stratagem and its Boarding Actions
    copy are two), 19 enhancements, and 5 named detachment rules plus 003's untitled one."""
    records = seed_records()
    stratagems = {(normalise(r.name), r.rules, r.detachment) for r in records
                  if isinstance(r, Stratagem)}
    assert len(stratagems) == 46
    assert len({normalise(r.name) for r in records if isinstance(r, Enhancement)}) == 19
    rules = {normalise(r.name) for r in records if isinstance(r, DetachmentRule)}
    assert len(rules) == 6
    assert rules >= {normalise(x) for x in ("A Perfect Ambush", "Integrated Tactics",
                                            "Psionic Parasitism", "Harassing Fire",
                                            "Rapid Takeover")}


@pytest.mark.parametrize("record", _records_or_error())
def test_seed_rule_is_named_effect_or_non_combat(record: object) -> None:
    if isinstance(record, Exception):
        raise record
    assert isinstance(record, Stratagem | DetachmentRule | Enhancement)
    name = record.name
    if non_combat_reason(name) is not None:
        with pytest.raises(UnknownEffectError, match="is not a combat rule"):
            find_effect(name)
        return
    try:
        effect, _ = find_effect(name, record.rules)
    except UnknownEffectError as exc:
        pytest.fail(f"{_record_id(record)} is neither a named effect nor listed in "
                    f"NON_COMBAT: {exc}")
    assert record.rules in effect.rules, (
        f"{name!r} ({record.rules}) resolves to {effect.name!r} of {effect.rules}")
    assert effect.kind == KIND[type(record)]
    if isinstance(record, Stratagem):
        assert effect.cp == record.cp
        # core stratagems are also printed as Boarding Actions copies (inventory §E.3)
        assert normalise(effect.source) in (normalise(record.detachment), "core")
    elif record.detachment is not None:
        assert normalise(effect.source) == normalise(record.detachment)


# --- 2. the catalogue itself ----------------------------------------------------------


@pytest.mark.parametrize("effect", EFFECTS, ids=lambda e: e.name)
def test_named_effect_is_described(effect: object) -> None:
    assert isinstance(effect, NamedEffect)
    assert effect.terms.strip(), f"{effect.name}: empty terms"
    assert effect.source.strip()
    assert effect.rules and set(effect.rules) <= {"10th", "11th"}
    assert effect.phases and set(effect.phases) <= {"shooting", "fight"}
    assert effect.apply is not None
    assert all(c.description and c.failure for c in effect.conditions)


def _has_ability(unit: str, ability: str) -> bool:
    return any(p.datasheet is not None and p.datasheet.name == unit
               and any(a.name == ability for a in p.datasheet.abilities) for p in pages())


def _banehammer_damaged_1_to_8() -> bool:
    return any(p.datasheet is not None and p.datasheet.name == "Banehammer"
               and p.datasheet.damaged is not None
               and (p.datasheet.damaged.min_wounds, p.datasheet.damaged.max_wounds) == (1, 8)
               and p.datasheet.damaged.hit_modifier == -1 for p in pages())


def _catalyst_in_final_day_rule() -> bool:
    return any(isinstance(r, DetachmentRule) and r.name == "Psionic Parasitism"
               and "Catalyst (Aura)" in r.text for p in pages() for r in p.records)


#: Catalogue names that are abilities, not seed stratagem/rule/enhancement records, and
#: the seed fact that documents each.
DOCUMENTED_ABILITIES: dict[str, Callable[[], bool]] = {
    "Cult Demagogue": lambda: _has_ability("Primus", "Cult Demagogue"),
    "Synapse": lambda: _has_ability("Tyrannocyte", "Synapse"),
    "Damaged: 1-8 wounds remaining": _banehammer_damaged_1_to_8,
    "Catalyst": _catalyst_in_final_day_rule,
}


@pytest.mark.parametrize("effect", EFFECTS, ids=lambda e: e.name)
def test_named_effect_comes_from_the_seeds(effect: object) -> None:
    assert isinstance(effect, NamedEffect)
    record_names = {normalise(r.name) for r in seed_records()}
    if effect.name in DOCUMENTED_ABILITIES:
        assert normalise(effect.name) not in record_names
        assert DOCUMENTED_ABILITIES[effect.name](), f"{effect.name}: not documented"
    else:
        assert normalise(effect.name) in record_names, f"{effect.name}: not a seed rule"


def _seed_rule_names() -> set[str]:
    out: set[str] = set()
    for p in pages():
        if p.datasheet is not None:
            out |= {normalise(a.name) for a in p.datasheet.abilities}
        for r in p.records:
            if isinstance(r, CoreRule):
                out.add(normalise(r.title))
            elif isinstance(r, Stratagem | DetachmentRule | Enhancement):
                out.add(normalise(r.name))
    return out


@pytest.mark.parametrize("name", sorted(NON_COMBAT))
def test_non_combat_name_comes_from_the_seeds(name: str) -> None:
    assert NON_COMBAT[name].strip()
    assert non_combat_reason(name) == NON_COMBAT[name]
    assert normalise(name) in _seed_rule_names(), f"{name}: not in the seeds"


@pytest.mark.parametrize("name", ["They Came From Below", "(unnamed detachment rule)"])
def test_untitled_003_rule_is_a_perfect_ambush(name: str) -> None:
    """003's untitled detachment rule: "Each time a GENESTEALER CULTS unit from your army
    is set up on the battlefield as Reinforcements, until the end of your next Fight
    phase, weapons ... have the [SUSTAINED HITS 1] and [IGNORES COVER] abilities" - the
    text of A Perfect Ambush (inventory §F.1)."""
    untitled = [r for p in pages() for r in p.records
                if isinstance(r, DetachmentRule) and r.source.file.startswith("003")]
    assert len(untitled) == 1
    assert "[SUSTAINED HITS 1] and [IGNORES COVER]" in untitled[0].text
    assert find_effect(name, "10th")[0].name == "A Perfect Ambush"


def test_named_and_non_combat_are_disjoint() -> None:
    named = {normalise(n) for e in EFFECTS for n in (e.name, *e.aliases)}
    assert named & {normalise(n) for n in NON_COMBAT} == set()


@pytest.mark.parametrize("effect", EFFECTS, ids=lambda e: e.name)
def test_each_named_effect_found_by_its_name_in_each_version(effect: object) -> None:
    assert isinstance(effect, NamedEffect)
    for rules in effect.rules:
        assert find_effect(effect.name, rules)[0] is effect


def test_list_effects_by_detachment() -> None:
    """``list_effects("Host of Ascension")``: that detachment's effects and the core ones."""
    found = {e.name for e in list_effects(detachment="Host of Ascension")}
    host = {e.name for e in EFFECTS if e.source == "Host of Ascension"}
    core = {e.name for e in EFFECTS if e.source == "Core"}
    assert host == {"Primed and Readied", "Coordinated Trap", "A Deadly Snare",
                    "A Perfect Ambush", "Assassination Edict", "A Chink in Their Armour"}
    assert found == host | core


def test_list_effects_by_unit_keywords() -> None:
    """A TYRANIDS MONSTER (the Tyrannocyte) cannot use GSC-only effects; it can use
    Psionic Parasitism, Synapse and Crushing Impact. Effects without attacker conditions
    (Command Re-roll) stay."""
    found = {e.name for e in list_effects(unit="Tyrannocyte",
                                          keywords=("MONSTER", "TYRANIDS"))}
    assert {"Psionic Parasitism", "Synapse", "Crushing Impact", "Command Re-roll"} <= found
    assert not found & {"Primed and Readied", "Coordinated Trap", "Hyperferocity",
                        "Tank Shock", "Acceptable Losses"}
