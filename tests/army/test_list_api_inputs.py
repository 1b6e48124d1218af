"""The list functions of the Python API given the wrong kind of thing (a path, bytes,
``None``) refuse with tactica's own ``UnsupportedFormatError`` in one line saying what
they read, never an ``AttributeError`` from inside."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tactica.army.formats import UnsupportedFormatError, load_roster, parse_roster

from .helpers import ROSTERS

LIST = ROSTERS / "gw-app-11e" / "official_9.txt"


@pytest.mark.parametrize(("given", "words"), [
    (LIST, "load_roster"), (None, "NoneType"), (5, "int"),
])
def test_parse_roster_says_it_reads_text(given: Any, words: str) -> None:
    with pytest.raises(UnsupportedFormatError) as info:
        parse_roster(given)
    message = str(info.value)
    assert "text" in message and words in message and "\n" not in message


def test_parse_roster_reads_bytes_as_a_file_is_read() -> None:
    """Bytes (a file read in binary, a clipboard) are decoded as a file's are."""
    as_bytes = parse_roster(LIST.read_bytes())
    as_text = parse_roster(LIST.read_text(encoding="utf-8"))
    assert as_bytes.units == as_text.units and as_bytes.name == as_text.name


def test_load_roster_still_reads_a_path() -> None:
    assert load_roster(Path(LIST)).units == parse_roster(LIST.read_text(encoding="utf-8")).units


def test_a_nameless_configuration_entry_is_noted_as_such() -> None:
    """New Recruit JSON whose Battle Size entry lost its name: kept as a note that says
    what it is, not ": Strike Force (2000 Point limit)"."""
    import json

    path = ROSTERS / "chaos-knights-houndpack" / "input.newrecruit-json.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    first = doc["roster"]["forces"][0]["selections"][0]
    assert first["name"] == "Battle Size"
    del first["name"]
    roster = parse_roster(json.dumps(doc))
    assert "configuration entry with no name: Strike Force (2000 Point limit)" in roster.notes
    assert not any(n.startswith(":") for n in roster.notes)


TEXT_LISTS = sorted(p for p in ROSTERS.rglob("*.txt") if "•" in p.read_text(encoding="utf-8"))


@pytest.mark.parametrize("bullet", ["-", "*"])
@pytest.mark.parametrize("path", TEXT_LISTS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_list_whose_bullets_a_chat_app_rewrote_reads_the_same(path: Path,
                                                                 bullet: str) -> None:
    """Pasted through a chat or a forum, "•" often comes back as "-" or "*" (Markdown
    lists): the list reads as the app wrote it."""
    text = path.read_text(encoding="utf-8")
    again = parse_roster(text.replace("•", bullet))
    first = parse_roster(text)
    assert again.model_dump(exclude={"source"}) == first.model_dump(exclude={"source"})
