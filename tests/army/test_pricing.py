"""Pricing: model-count brackets, escalating costs by unit ordinal, enhancements."""

from __future__ import annotations

from tactica.army.pricing import price_roster
from tactica.army.roster import EnhancementChoice, Roster
from tactica.library import load_seed_library

from .helpers import army, unit

LIB = load_seed_library()


def test_tyrannocyte_first_to_third_cost_80_the_fourth_and_later_90() -> None:
    """Seed 004: "YOUR 1ST TO 3RD UNITS COST" 80, "YOUR 4TH + UNIT COSTS" 90."""
    roster = Roster(units=tuple(unit(f"u{i}", "Tyrannocyte") for i in range(1, 6)))
    lines = price_roster(roster, LIB).units
    assert [(p.ordinal, p.base) for p in lines] == [(1, 80), (2, 80), (3, 80), (4, 90), (5, 90)]
    assert price_roster(roster, LIB).total == 3 * 80 + 2 * 90


def test_ordinals_count_each_datasheet_separately() -> None:
    roster = Roster(units=(unit("u1", "Tyrannocyte"), unit("u2", "Primus"),
                           unit("u3", "Tyrannocyte")))
    assert [p.ordinal for p in price_roster(roster, LIB).units] == [1, 1, 2]


def test_model_count_brackets_and_the_next_size_up() -> None:
    """Death Riders (002): 5 models 70, 10 models 140; 7 models pay for 10."""
    sizes = (5, 7, 10)
    roster = Roster(units=tuple(unit(f"u{i}", "Death Riders", models=n)
                                for i, n in enumerate(sizes, start=1)))
    lines = price_roster(roster, LIB).units
    assert [p.base for p in lines] == [70, 140, 140]
    assert all(p.size_ok for p in lines)
    assert "7 models priced as 10" in lines[1].notes[0]


def test_a_size_above_the_largest_bracket_is_flagged() -> None:
    line = price_roster(Roster(units=(unit("u1", "Death Riders", models=12),)), LIB).units[0]
    assert (line.base, line.size_ok) == (140, False)


def test_enhancements_cost_their_library_points() -> None:
    """Assassination Edict is 15 points (seed 000, rules_inventory.md §F.2)."""
    primus = unit("u1", "Primus", enhancements=(EnhancementChoice(name="Assassination Edict",
                                                                  points=99),))
    line = price_roster(Roster(units=(primus,)), LIB).units[0]
    assert (line.base, [e.points for e in line.enhancements], line.total) == (70, [15], 85)
    assert line.enhancements[0].source == "library"


def test_an_enhancement_the_library_lacks_costs_what_the_list_states() -> None:
    primus = unit("u1", "Primus", enhancements=(EnhancementChoice(name="Shiny Hat",
                                                                  points=12),))
    line = price_roster(Roster(units=(primus,)), LIB).units[0]
    assert (line.total, line.enhancements[0].source) == (82, "list")


def test_an_unpriced_unknown_enhancement_takes_the_gap_in_the_unit_points() -> None:
    """The app prints a unit's points with its enhancement but not the enhancement's."""
    primus = unit("u1", "Primus", points=95, enhancements=(EnhancementChoice(name="Shiny Hat"),))
    line = price_roster(Roster(units=(primus,)), LIB).units[0]
    assert (line.base, line.enhancements[0].points, line.total) == (70, 25, 95)


def test_unknown_datasheets_are_priced_as_the_list_states() -> None:
    roster = Roster(units=(unit("u1", "Goliath Truck", points=85), unit("u2", "Mystery")))
    a, b = price_roster(roster, LIB).units
    assert (a.datasheet, a.base, a.source) == (None, 85, "list")
    assert (b.base, b.total) == (None, 0)
    assert "unknown datasheet" in a.notes[0]


def test_a_datasheet_of_the_other_edition_prices_the_list_as_it_states() -> None:
    """Neophyte Hybrids exist only as the 10th-edition seed page (90/180 points)."""
    eleventh = Roster(rules="11th", units=(unit("u1", "Neophyte Hybrids", models=10,
                                                points=70),))
    tenth = eleventh.model_copy(update={"rules": "10th"})
    assert price_roster(eleventh, LIB).total == 70
    assert price_roster(tenth, LIB).total == 90


def test_breakdown_totals_and_limit() -> None:
    prices = price_roster(army(), LIB)
    assert (prices.total, prices.limit) == (70 + 90, 2000)
    assert prices.line("u2").name == "Neophyte Hybrids"
