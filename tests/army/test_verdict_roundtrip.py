"""The three real non-GSC rosters (the official app's 11th-edition exports of an Aeldari,
a Chaos Knights and an Orks list) give the same verdict, with the same violation codes,
from every format they can be written to: a list exported for a tournament organiser is
judged as the list that was built."""

from __future__ import annotations

from pathlib import Path

import pytest

from tactica.army.formats import EXPORT_FORMATS, export_roster, load_roster, parse_roster
from tactica.army.validation import validate
from tactica.library import Library, load_library

ROSTERS = Path(__file__).resolve().parents[1] / "fixtures" / "rosters" / "gw-app-11e"


@pytest.fixture(scope="module")
def lib() -> Library:
    return load_library(dataset=True)


@pytest.mark.parametrize("name", ["official_9.txt", "official_10.txt", "official_16.txt"])
def test_every_format_gives_the_same_verdict(lib: Library, name: str) -> None:
    roster = load_roster(ROSTERS / name, library=lib)
    before = validate(roster, lib)
    for fmt in sorted(EXPORT_FORMATS):
        after = validate(parse_roster(export_roster(roster, fmt)), lib)
        assert (after.legal, sorted(after.codes())) == (before.legal, sorted(before.codes())), fmt
