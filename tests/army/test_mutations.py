"""Lists never lose a line: mutated real exports (``tests/fixtures/rosters``, copied with
their licences: ``tests/fixtures/ATTRIBUTION.md``; and ``tests/army/fixtures``) are read
exactly or refused with a located error.

Every line of every export is deleted, duplicated and swapped with the next, and the file
is cut at seven points. Each mutated file must give either

* a ``RosterParseError`` that names its line (text formats) or JSON path, or an
  ``UnsupportedFormatError`` (a file cut before it says what it is); or
* a roster in which no unit has gained an item, enhancement or Warlord that no unit of
  that name has in the original (a unit line deleted must not hand its lines to the unit
  above), and no more units are missing than lines deleted (nothing dropped). A swap may
  move a line to another unit (the file then says so), and a cut in mid-line leaves a
  shorter last item, so these are checked for losses only.

New Recruit / List Forge JSON is mutated by giving fields wrong types and absurd numbers:
each gives a roster or an error naming its JSON path, never another exception.

The default run reads every ``SAMPLE``-th mutation of each text file (every kind of
mutation among them); the slow suite reads them all.
"""

from __future__ import annotations

import itertools
import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from tactica.army.formats import RosterParseError, UnsupportedFormatError, parse_roster
from tactica.army.roster import Roster, RosterUnit
from tactica.library import load_seed_library

from .helpers import FIXTURES, ROSTERS

_TEXT = sorted([*ROSTERS.glob("*/input*.txt"), *ROSTERS.glob("*/expected.newrecruit-*.txt"),
                *ROSTERS.glob("gw-app-11e/*.txt"), *FIXTURES.glob("*.txt")])
_JSON = sorted([*ROSTERS.glob("*/input*newrecruit-json.json"),
                *ROSTERS.glob("*/expected.newrecruit-json.json"), *ROSTERS.glob("*/input.json")])

_LIBRARY = load_seed_library()
#: The default run's share of each text file's mutations: every SAMPLE-th one.
SAMPLE = 3  # odd: the deletions and duplications alternate


def _mutations(text: str) -> Iterator[tuple[str, str, int]]:
    """(name, mutated text, lines deleted)."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.strip():
            yield f"delete line {i + 1}", "\n".join(lines[:i] + lines[i + 1:]), 1
            yield f"duplicate line {i + 1}", "\n".join(lines[:i + 1] + lines[i:]), 0
    for i in range(len(lines) - 1):
        swapped = [*lines[:i], lines[i + 1], lines[i], *lines[i + 2:]]
        yield f"swap lines {i + 1}/{i + 2}", "\n".join(swapped), 0
    for k in range(1, 8):
        keep = len(lines) * k // 8
        yield f"cut after line {keep}", "\n".join(lines[:keep]), len(lines) - keep
        yield f"cut mid-line at {len(text) * k // 8}", text[:len(text) * k // 8], len(lines)


def _items(unit: RosterUnit) -> set[str]:
    return ({w.name for w in unit.all_wargear()} | {e.name or "" for e in unit.model_entries}
            | {f"enhancement {e.name}" for e in unit.enhancements}
            | ({"Warlord"} if unit.warlord else set()))


def _problems(original: Roster, mutated: Roster, deleted: int, name: str) -> list[str]:
    by_name: dict[str, list[set[str]]] = {}
    for u in original.units:
        by_name.setdefault(u.name, []).append(_items(u))
    out = []
    for u in mutated.units if not name.startswith(("swap", "cut mid-line")) else ():
        mine = _items(u)
        if not any(mine <= theirs for theirs in by_name.get(u.name, [])):
            out.append(f"{name}: {u.name} reads {sorted(mine)}, more than the file gives it")
    if len(original.units) - len(mutated.units) > deleted:
        out.append(f"{name}: {len(original.units) - len(mutated.units)} units lost")
    return out


def _located(exc: RosterParseError, lines: int) -> bool:
    return exc.where is not None or (exc.line is not None and 1 <= exc.line <= lines + 1)


@pytest.mark.parametrize("path", _TEXT, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_mutated_text_lists_are_read_exactly_or_refused_at_a_line(path: Path) -> None:
    _check_mutations(path, every=SAMPLE)


@pytest.mark.slow
@pytest.mark.parametrize("path", _TEXT, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_mutation_of_a_text_list_is_read_exactly_or_refused_at_a_line(
        path: Path) -> None:
    _check_mutations(path, every=1)


def _check_mutations(path: Path, every: int) -> None:
    """Every ``every``-th mutation of the file at ``path`` (the module text)."""
    text = path.read_text(encoding="utf-8")
    original = parse_roster(text, library=_LIBRARY)
    problems: list[str] = []
    outcomes: Counter[str] = Counter()
    kinds: set[str] = set()
    for name, mutated, deleted in itertools.islice(_mutations(text), 0, None, every):
        kinds.add(name.split(" ")[0])
        try:
            roster = parse_roster(mutated, file="m.txt", library=_LIBRARY)
        except RosterParseError as exc:
            outcomes["refused"] += 1
            if not _located(exc, mutated.count("\n") + 1):
                problems.append(f"{name}: error without a line: {exc}")
            continue
        except UnsupportedFormatError:
            outcomes["unsupported"] += 1
            continue
        outcomes["read"] += 1
        problems += _problems(original, roster, deleted, name)
    assert outcomes["read"] and outcomes["refused"], outcomes  # the probe reached both ways
    assert kinds == {"delete", "duplicate", "swap", "cut"}, kinds  # a sample has them all
    assert problems == []


def test_a_deleted_unit_line_is_an_error_not_a_merge() -> None:
    """The WTC compact export of the Houndpack Lance list: deleting the Karnivore's unit
    line leaves its enhancement line under the header, and the header's ENHANCEMENT and
    NUMBER OF UNITS no longer match; New Recruit simple: the section's points."""
    wtc = (ROSTERS / "chaos-knights-houndpack" / "input.newrecruit-wtc-compact.txt")
    lines = wtc.read_text(encoding="utf-8").splitlines()
    unit = next(i for i, line in enumerate(lines) if line.startswith("Char1:"))
    with pytest.raises(RosterParseError) as caught:
        parse_roster("\n".join(lines[:unit] + lines[unit + 1:]), file="w.txt")
    assert caught.value.line == unit + 1  # the orphaned "Enhancement:" line moved up
    simple = (ROSTERS / "cd-daemonic-incursion" / "expected.newrecruit-simple.txt")
    lines = simple.read_text(encoding="utf-8").splitlines()
    hounds = next(i for i, line in enumerate(lines) if line.startswith("Flesh Hounds ["))
    with pytest.raises(RosterParseError, match=r"795 pts.*720"):
        parse_roster("\n".join(lines[:hounds] + lines[hounds + 1:]), file="s.txt")


def test_a_unit_line_inside_the_wtc_header_is_an_error() -> None:
    """The closing "+++" line deleted: the unit lines after it are not header lines."""
    wtc = (ROSTERS / "chaos-knights-houndpack" / "input.newrecruit-wtc-compact.txt")
    lines = wtc.read_text(encoding="utf-8").splitlines()
    close = max(i for i, line in enumerate(lines) if line.startswith("+++"))
    with pytest.raises(RosterParseError, match="closing '\\+\\+\\+' line is missing") as caught:
        parse_roster("\n".join(lines[:close] + lines[close + 1:]), file="w.txt")
    assert caught.value.line is not None and caught.value.line > close


def _json_mutations(doc: object) -> Iterator[tuple[str, str]]:
    paths: list[list[str | int]] = []

    def walk(node: object, path: list[str | int]) -> None:
        paths.append(path)
        if isinstance(node, dict):
            for key, value in node.items():
                walk(value, [*path, key])
        elif isinstance(node, list):
            for i, value in enumerate(node):
                walk(value, [*path, i])

    walk(doc, [])
    for path in paths[1::3]:
        for value in (None, "3", 10**21, [], {}, False, "\ud800"):
            copy = json.loads(json.dumps(doc))
            node = copy
            for key in path[:-1]:
                node = node[key]
            node[path[-1]] = value
            yield f"{path}={value!r}", json.dumps(copy)
    yield "1,000-deep", '{"roster": {"forces": ' + "[" * 1000 + "]" * 1000 + "}}"


@pytest.mark.slow
@pytest.mark.parametrize("path", _JSON, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_mutated_json_lists_are_read_or_refused_at_a_path(path: Path) -> None:
    doc = json.loads(path.read_text(encoding="utf-8"))
    problems = []
    for name, text in _json_mutations(doc):
        try:
            parse_roster(text, file="m.json")
        except RosterParseError as exc:
            if exc.where is None and exc.line is None:
                problems.append(f"{name}: error without a path: {exc}")
        except UnsupportedFormatError:
            pass
    assert problems == []


@pytest.mark.parametrize("path", _TEXT, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_export_reads_with_the_full_library(path: Path) -> None:
    """With the library's model names (seed pages and dataset), a model line named as its
    unit ("• 3x Nurglings" under "Nurglings") is still the unit's own."""
    from tactica.library import load_library

    roster = parse_roster(path.read_text(encoding="utf-8"), library=load_library())
    assert roster.units
