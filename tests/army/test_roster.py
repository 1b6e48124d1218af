"""The roster model: references between units, the points limit, canonical order."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from tactica.army.roster import (
    EnhancementChoice,
    ModelEntry,
    Roster,
    RosterUnit,
    WargearItem,
    parse_battle_size,
)

from .helpers import army, unit


def test_attached_and_embarked_units_are_found_by_id() -> None:
    r = army(unit("u3", "Tyrannocyte"), unit("u4", "Neophyte Hybrids", models=10,
                                             embarked_in="u3"))
    assert [u.id for u in r.attached("u2")] == ["u1"]
    assert [u.id for u in r.embarked("u3")] == ["u4"]
    assert r.unit("u1").attach_role == "leader"  # attached without a role: a leader
    assert [u.name for u in r.warlords()] == ["Primus"]


@pytest.mark.parametrize("bad", [
    {"attached_to": "u9"}, {"embarked_in": "u9"}, {"attached_to": "u1"},
])
def test_references_to_missing_units_or_to_itself_are_refused(bad: dict[str, str]) -> None:
    with pytest.raises(ValidationError):
        Roster(units=(RosterUnit(id="u1", name="Primus", **bad),))


def test_unit_ids_are_unique() -> None:
    with pytest.raises(ValidationError, match="used twice"):
        Roster(units=(unit("u1", "Primus"), unit("u1", "Primus")))


def test_points_limit_defaults_to_the_battle_size_and_a_custom_limit_is_kept() -> None:
    assert army().limit == 2000 and army().points_limit is None
    assert army(points_limit=2000).points_limit is None  # same as the battle size's
    custom = army(points_limit=1995)
    assert (custom.limit, custom.size) == (1995, "Strike Force")
    assert Roster(points_limit=750).size == "Incursion"


def test_model_count_comes_from_the_model_entries() -> None:
    u = RosterUnit(id="u1", name="Neophyte Hybrids", model_entries=(
        ModelEntry(name="Neophyte Leader", count=1, wargear=(WargearItem(name="Autopistol"),)),
        ModelEntry(name="Neophyte Hybrid", count=9,
                   wargear=(WargearItem(name="Autopistol", count=9),))))
    assert u.models == 10
    assert [str(w) for w in u.all_wargear()] == ["10x Autopistol"]


def test_markers_ending_in_character_give_the_character_keyword() -> None:
    assert unit("u1", "War Dog Brigand", markers=("Houndpack Lance Keyword: Character",)
                ).character
    assert not unit("u1", "War Dog Brigand").character


def test_enhancement_tags() -> None:
    assert EnhancementChoice(name="Extra Sneaky", tag="Upgrade").upgrade
    assert not EnhancementChoice(name="Final Howl", tag="Aura").upgrade


def test_canonical_puts_attached_groups_first_and_renumbers() -> None:
    r = Roster(units=(unit("a", "Neophyte Hybrids", models=10),
                      unit("b", "Primus", attached_to="c"),
                      unit("c", "Neophyte Hybrids", models=20)))
    c = r.canonical()
    assert [(u.id, u.name, u.attached_to) for u in c.units] == [
        ("u1", "Primus", "u2"), ("u2", "Neophyte Hybrids", None),
        ("u3", "Neophyte Hybrids", None)]
    assert c.units[1].models == 20


@pytest.mark.parametrize(("text", "expected"), [
    ("Strike Force (2000 points)", ("Strike Force", 2000)),
    ("1. Incursion (1000 Point limit)", ("Incursion", 1000)),
    ("Onslaught (3,000 points)", ("Onslaught", 3000)),
])
def test_battle_size_spellings(text: str, expected: tuple[str, int]) -> None:
    assert parse_battle_size(text) == expected
