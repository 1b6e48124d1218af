"""``validate``: an item a list gives a unit that its datasheet has neither as a weapon,
an ability nor a wargear option (two lascannons on Dire Avengers) is a warning,
``WARGEAR_UNKNOWN``, naming the item and the datasheet, never passed over in silence (the
calculator leaves such an item out: ``army.attack``). The real exports raise it only
where the list's data and the library's differ."""

from __future__ import annotations

from pathlib import Path

import pytest

from tactica.army.formats import load_roster, parse_roster
from tactica.army.validation import validate
from tactica.library import load_library

from .helpers import ROSTERS

pytest.importorskip("wh40kdc")

AELDARI = ROSTERS / "gw-app-11e" / "official_9.txt"


def _unknown(report_text: str) -> list[tuple[str, str]]:
    lib = load_library()
    report = validate(parse_roster(report_text, library=lib), lib)
    return [(v.unit or "", v.message) for v in report.violations if v.code == "WARGEAR_UNKNOWN"]


def test_an_item_the_datasheet_does_not_have_is_a_warning() -> None:
    text = AELDARI.read_text(encoding="utf-8")
    assert "2x Avenger shuriken catapult" in text
    found = _unknown(text.replace("2x Avenger shuriken catapult", "2x Lascannon"))
    assert found == [("Dire Avengers", "Lascannon is not a weapon, ability or wargear option "
                                       "of the Dire Avengers datasheet: not checked, and left "
                                       "out of the calculations")]
    lib = load_library()
    report = validate(parse_roster(text.replace("2x Avenger shuriken catapult",
                                                "2x Lascannon"), library=lib), lib)
    assert report.legal  # a warning: the list's data may be newer than the library's


def test_the_unchanged_list_has_no_such_warning() -> None:
    assert _unknown(AELDARI.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("path", sorted(p for p in ROSTERS.rglob("input*") if p.is_file()),
                         ids=lambda p: f"{p.parent.name}/{p.name}")
def test_real_lists_are_warned_only_for_items_the_library_lacks(path: Path) -> None:
    lib = load_library()
    report = validate(load_roster(path, library=lib), lib)
    flagged = {v.message.split(" is not ")[0] for v in report.violations
               if v.code == "WARGEAR_UNKNOWN"}
    assert flagged <= {"Gitstikka"}  # Tankbustas' 11th-edition item the dataset lacks
