"""Every roster fixture of ``../shared/data/rosters`` (40kdc-data conformance cases, see
PROVENANCE.md; real data: needs ``wh40kdc`` and ``../shared``) validated against the
library with the bundled dataset: each case gives the same verdict and the same error
codes from every format it is exported in, the over-cap list reports its detachment
points, and no detachment or enhancement the dataset has is reported as unknown."""

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


CASES = sorted(p for p in ROSTERS.iterdir() if p.is_dir() and lists_of(p)) \
    if ROSTERS.is_dir() else []


def verdict(path: Path) -> tuple[bool, frozenset[str], frozenset[str]]:
    lib = load_library(dataset=True)
    report = validate(load_roster(path, library=lib), lib)
    errors = frozenset(v.code for v in report.violations if v.severity == "error")
    unknown = frozenset(v.code for v in report.violations
                        if v.code in ("DETACHMENT_UNKNOWN", "ENHANCEMENT_UNKNOWN"))
    return report.legal, errors, unknown


@pytest.mark.parametrize("case", CASES, ids=lambda p: p.name)
def test_every_format_of_a_list_gives_the_same_verdict(case: Path) -> None:
    files = [f for f in lists_of(case) if "rosterizer" not in f.name]
    results = {f.name: verdict(f) for f in files}
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
        if "rosterizer" in f.name:
            continue
        legal, errors, _ = verdict(f)
        assert "WARLORD_NOT_CHARACTER" not in errors and legal, f.name
