"""Every roster fixture in ``tests/fixtures/rosters`` (40kdc-data conformance cases and
listgrok exports, copied with their licences: ``tests/fixtures/ATTRIBUTION.md``),
validated against the library with the bundled dataset: each case gives the same
verdict and the same error codes from every format it is exported in, the over-cap list
reports its detachment points, and no detachment or enhancement the dataset has is
reported as unknown."""

from __future__ import annotations

from pathlib import Path

import pytest

from tactica.army.formats import load_roster
from tactica.army.validation import validate
from tactica.library import load_library

from .helpers import ROSTERS

pytest.importorskip("wh40kdc")


def lists_of(case: Path) -> list[Path]:
    """The list files of a case: its inputs and its re-exported lists (not the parsed or
    resolved goldens)."""
    return sorted(f for f in case.iterdir() if f.name.startswith("input.") or (
        f.name.startswith("expected.") and not f.name.startswith(
            ("expected.parsed", "expected.roster"))))


CASES = sorted(p for p in ROSTERS.iterdir() if p.is_dir() and lists_of(p))


def verdict(path: Path) -> tuple[bool, frozenset[str], frozenset[str]]:
    lib = load_library(dataset=True)
    report = validate(load_roster(path, library=lib), lib)
    errors = frozenset(v.code for v in report.violations if v.severity == "error")
    unknown = frozenset(v.code for v in report.violations
                        if v.code in ("DETACHMENT_UNKNOWN", "ENHANCEMENT_UNKNOWN"))
    return report.legal, errors, unknown


@pytest.mark.parametrize("case", CASES, ids=lambda p: p.name)
def test_every_format_of_a_list_gives_the_same_verdict(case: Path) -> None:
    results = {f.name: verdict(f) for f in lists_of(case)}  # Rosterizer exports too
    first = next(iter(results.values()))
    assert all(r[:2] == first[:2] for r in results.values()), results
    assert all(not r[2] for r in results.values()), results


def test_the_overcap_roster_reports_the_detachment_points() -> None:
    legal, errors, _ = verdict(ROSTERS / "sm-detachment-overcap" / "input.newrecruit-json.json")
    assert not legal and "DETACHMENT_POINTS" in errors


def test_the_houndpack_war_dogs_are_characters_in_every_format() -> None:
    """Houndpack Lance grants CHARACTER to War Dogs: the text exports, which cannot say so
    themselves, now agree with the New Recruit JSON."""
    for f in lists_of(ROSTERS / "chaos-knights-houndpack"):
        legal, errors, _ = verdict(f)
        assert "WARLORD_NOT_CHARACTER" not in errors and legal, f.name


def test_a_rosterizer_export_imports_with_the_datasets_importer() -> None:
    roster = load_roster(ROSTERS / "chaos-knights-houndpack" / "input.rosterizer.json")
    assert roster.source is not None and roster.source.format == "rosterizer"
    assert (roster.faction, roster.detachments, roster.battle_size) == (
        "Chaos Knights", ("Houndpack Lance",), "Strike Force")
    assert [u.name for u in roster.units][:3] == ["War Dog Karnivore", "War Dog Karnivore",
                                                  "War Dog Executioner"]
    assert roster.units[0].enhancements[0].name == "Preyslayer's Mantle"
    assert roster.units[2].warlord


@pytest.mark.parametrize("name,content", [
    ("list.ros", b'<?xml version="1.0"?><roster name="x"/>'),
    ("list.txt", b'<?xml version="1.0"?>\n<roster name="x"></roster>'),
])
def test_battlescribe_rosters_are_refused_in_one_line(tmp_path: Path, name: str,
                                                      content: bytes) -> None:
    from tactica.army.formats import UnsupportedFormatError

    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(UnsupportedFormatError) as info:
        load_roster(path)
    message = str(info.value)
    assert "\n" not in message and "BattleScribe roster file" in message


def _list_calc(path: Path, unit: str, phase: str = "shooting") -> tuple[list[str], object]:
    from tactica.army.attack import apply_list_effects, list_attacker
    from tactica.combat import calculate
    from tactica.combat.contract.scenario import Scenario

    lib = load_library(dataset=True)
    roster = load_roster(path, library=lib)
    built = list_attacker(roster, unit, lib, phase)
    scenario = Scenario.model_validate({
        "phase": phase, "attacker": built.attacker, "target": lib.target("meq"),
        "context": {"army_faction": built.army_faction, "detachment": built.detachment}})
    applied, notes = apply_list_effects(scenario, built.candidates, built.situational)
    return notes, calculate(applied)


def test_calc_list_applies_another_factions_enhancement() -> None:
    """A Chaos Knights app list: the War Dog Brigand's Final Howl (Aura) (Houndpack
    Lance) re-rolls Wound rolls of 1, applied from the list."""
    notes, result = _list_calc(ROSTERS / "gw-app-11e" / "official_10.txt", "War Dog Brigand")
    assert "Final Howl (Aura)" in result.effects_applied  # type: ignore[attr-defined]
    assert any(n.startswith("Final Howl (Aura) (from the list): re-roll wound rolls")
               for n in notes)


def test_calc_list_leaves_a_rule_the_player_chooses_to_the_player() -> None:
    """Orks: Waaagh! is called by the player, so a list does not apply it (it is named
    with --effect when called); its note says why."""
    notes, result = _list_calc(ROSTERS / "gw-app-11e" / "official_16.txt", "Gretchin")
    assert "Waaagh!" not in result.effects_applied  # type: ignore[attr-defined]
    assert any(n.startswith("Waaagh! (from the list) not applied") and "the player uses it"
               in n for n in notes)
