"""The army-building differences between editions are knobs of the rule sets
(``rules.tenth``, ``rules.eleventh``), each as its edition's text says, and the list
checks (``army.validation``) read them: no branch on the edition is left in ``army/``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import tactica.army
from tactica.army.validation import validate
from tactica.library import load_seed_library
from tactica.rules import get_ruleset
from tactica.rules.eleventh import Eleventh
from tactica.rules.tenth import Tenth

from .helpers import army, unit

TENTH, ELEVENTH = get_ruleset("10th"), get_ruleset("11th")
SIZES = ("Incursion", "Strike Force", "Onslaught")


def test_detachments() -> None:
    """10th Muster Armies: "select one Detachment rule" (exactly one, no detachment
    points); BSData wh40k-11e Army Roster: one or more, within a detachment-point budget
    of 2 / 3 / 4 by battle size."""
    assert TENTH.detachments_allowed == (1, 1) and TENTH.detachment_budget is None
    assert ELEVENTH.detachments_allowed == (1, None)
    assert ELEVENTH.detachment_budget is not None
    assert [ELEVENTH.detachment_budget[s] for s in SIZES] == [2, 3, 4]


def test_enhancements() -> None:
    """10th Muster Armies: up to 3 enhancements in every battle size; BSData wh40k-11e:
    Incursion 2, Strike Force and Onslaught 4."""
    assert [TENTH.enhancement_limit[s] for s in SIZES] == [3, 3, 3]
    assert [ELEVENTH.enhancement_limit[s] for s in SIZES] == [2, 4, 4]


@pytest.mark.parametrize(("rules", "size", "keywords", "limit"), [
    ("10th", "Strike Force", set(), 3),  # the Rule of Three
    ("10th", "Incursion", set(), 3),
    ("10th", "Strike Force", {"BATTLELINE"}, 6),
    ("10th", "Incursion", {"DEDICATED TRANSPORT"}, 6),
    ("10th", "Onslaught", {"EPIC HERO", "BATTLELINE"}, 1),
    ("11th", "Strike Force", set(), 3),  # BSData wh40k-11e: as 10th ...
    ("11th", "Onslaught", {"BATTLELINE"}, 6),
    ("11th", None, set(), 3),
    ("11th", "Incursion", set(), 2),  # ... but Incursion 2, 4 BATTLELINE
    ("11th", "Incursion", {"BATTLELINE"}, 4),
    ("11th", "Incursion", {"EPIC HERO"}, 1),
])
def test_rule_of_three(rules: str, size: str | None, keywords: set[str], limit: int) -> None:
    assert get_ruleset(rules).unit_repeat_limit(size, keywords) == limit


def test_leader_and_support_units() -> None:
    """24.22 (seed 000): "one leader unit and one support unit"; 10th Leader: one
    Leader unit (every attached unit counts as one)."""
    assert ELEVENTH.support_units and not TENTH.support_units


def test_the_checks_read_the_knobs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Turn a knob and the list checks follow: the minimal legal list with a second
    Primus is refused when the edition allows one unit of each datasheet; a 10th-edition
    list of two detachments is legal once the edition allows two."""
    lib = load_seed_library()
    roster = army(unit("u3", "Primus"))
    assert validate(roster, lib).legal
    monkeypatch.setattr(Eleventh, "unit_repeat_limit", lambda self, size, kws: 1)
    assert {v.code for v in validate(roster, lib).violations} == {"UNIT_REPEAT_LIMIT"}
    monkeypatch.undo()
    tenth = army(rules="10th", detachments=("Host of Ascension", "Final Day"))
    assert {v.code for v in validate(tenth, lib).violations} == {"DETACHMENT_COUNT"}
    monkeypatch.setattr(Tenth, "detachments_allowed", (1, 2))
    assert validate(tenth, lib).legal


#: A comparison with an edition's name ("10th", "11th"): the branch the knobs replace
#: (comparing two editions, a datasheet's with the list's, is not a branch on one).
_BRANCH = re.compile(r"""[!=]=\s*["']1[01]th["']|["']1[01]th["']\s*[!=]=""")


def test_no_edition_branch_is_left_in_army() -> None:
    root = Path(tactica.army.__file__).parent
    found = [f"{path.relative_to(root)}:{n}: {line.strip()}"
             for path in sorted(root.rglob("*.py"))
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if _BRANCH.search(line)]
    assert found == []
