"""The registry of army-list formats: one entry per format, the one place every door lists
them from (issue 46, item 5).

An entry (``ListFormat``) holds the format's key (``gw-text``), the name players know it
by ("the Warhammer 40,000 app's text"), its reader, its writer when it has one, and how a
text of it is recognised (``detect``: given the text's first line and lines, or its JSON
document). A new format is one module (its reader and writer) and one entry in
``FORMATS``; ``IMPORT_FORMATS``, ``EXPORT_FORMATS``, ``detect_format`` and every door's
help and choices follow.

The detections are exclusive: a text is recognised by one format at most
(``tests/army/test_format_registry.py``), so their order does not matter.

>>> [f.key for f in FORMATS][:3]
['gw-text', 'newrecruit-text', 'wtc']
>>> FORMATS_BY_KEY["rosterizer"].write is None
True
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, overload

from tactica.errors import one_line
from tactica.library import Library

from ..roster import Roster, RosterSource
from ._common import RosterParseError
from .gw_text import dump_gw_text, parse_gw_text
from .listforge import TITLE as _LISTFORGE_TITLE
from .listforge import dump_listforge_text, parse_listforge_text
from .newrecruit_json import dump_newrecruit_json, parse_newrecruit_json
from .newrecruit_text import dump_newrecruit_text, dump_wtc, parse_newrecruit_text, parse_wtc
from .rosterizer import is_rosterizer, parse_rosterizer

__all__ = [
    "EXPORT_FORMATS",
    "FORMATS",
    "FORMATS_BY_KEY",
    "IMPORT_FORMATS",
    "ListFormat",
    "Reader",
    "Sample",
    "Writer",
    "export_formats",
    "format_names",
    "formats_help",
    "import_formats",
    "read_tactica_json",
    "register",
]

#: Read a text (the file's name for messages, the library to tell model lines apart).
Reader = Callable[[str, "str | None", "Library | None"], Roster]
#: Write a roster as text.
Writer = Callable[[Roster], str]


@dataclass(frozen=True)
class Sample:
    """What detection looks at: a JSON text's document (``None`` for other text), else the
    text's non-blank lines, stripped."""

    doc: Any
    lines: tuple[str, ...]

    @property
    def first(self) -> str:
        return self.lines[0] if self.lines else ""


@dataclass(frozen=True)
class ListFormat:
    """One army-list format: ``key`` as typed (``--format``, ``--to``), ``name`` as players
    call it, ``read`` and ``write`` (``None``: cannot), ``detect`` (``None``: never guessed,
    only read when asked for by key), ``not_carried`` (what its text leaves out: an
    export that would lose it says so, ``carried.export_warnings``)."""

    key: str
    name: str
    read: Reader | None
    write: Writer | None = None
    detect: Callable[[Sample], bool] | None = None
    #: the fields of ``carried.army_view`` a text written in this format cannot carry
    not_carried: tuple[str, ...] = ()

    def label(self) -> str:
        """``key`` and the player's name: ``gw-text (the Warhammer 40,000 app's text)``."""
        return f"{self.key} ({self.name})"


def read_tactica_json(text: str, file: str | None, library: Library | None) -> Roster:
    """This package's own roster document (``Roster`` as JSON)."""
    del library
    try:
        roster = Roster.model_validate_json(text)
    except ValueError as exc:
        raise RosterParseError(one_line(exc), None, file, "$") from None
    source = roster.source or RosterSource(format="tactica-json")
    return roster.model_copy(update={"source": source.model_copy(update={"file": file})})


_NR_SIMPLE = re.compile(r"^.+ - .* - \[\d+ pts\]\s*$")
_GW_TITLE = re.compile(r"^.+\(\d[\d,]*\s*points\)\s*$", re.I)


def _tactica_doc(s: Sample) -> bool:
    return isinstance(s.doc, dict) and s.doc.get("format") == "tactica-roster"


def _forces_doc(s: Sample) -> bool:
    """New Recruit's JSON layout (List Forge writes it too)."""
    return (isinstance(s.doc, dict) and not _tactica_doc(s)
            and isinstance(s.doc.get("roster"), dict) and "forces" in s.doc["roster"])


def _by_listforge(s: Sample) -> bool:
    return "list forge" in str(s.doc.get("generatedBy") or "").lower()


def _plus(s: Sample) -> bool:
    return s.doc is None and s.first.startswith("+++")


def _bullets(s: Sample) -> bool:
    return any(line.startswith("•") for line in s.lines)


def _nr_text(s: Sample) -> bool:
    return s.doc is None and not _plus(s) and bool(_NR_SIMPLE.match(s.first))


def _lf_text(s: Sample) -> bool:
    return (s.doc is None and not _plus(s) and not _nr_text(s)
            and bool(_LISTFORGE_TITLE.match(s.first)) and " - " in s.first)


def _gw_text(s: Sample) -> bool:
    if _plus(s):
        return _bullets(s)
    return (s.doc is None and not _nr_text(s) and not _lf_text(s)
            and bool(_GW_TITLE.match(s.first)))


_LIST_ONLY = ("embarked_in",)
_TEXT = (*_LIST_ONLY, "attached_to", "markers", "force_disposition")

#: Every format, in the order players are shown them.
FORMATS: list[ListFormat] = [
    ListFormat("gw-text", "the Warhammer 40,000 app's text", parse_gw_text, dump_gw_text,
               _gw_text, (*_LIST_ONLY, "force")),
    ListFormat("newrecruit-text", "New Recruit text",
               parse_newrecruit_text, dump_newrecruit_text, _nr_text,
               (*_TEXT, "detachment_points")),
    ListFormat("wtc", "WTC compact text", lambda t, f, _: parse_wtc(t, f),
               dump_wtc, lambda s: _plus(s) and not _bullets(s),
               (*_TEXT, "detachment_points", "force")),
    ListFormat("wtc-full", "WTC full text", lambda t, f, _: parse_wtc(t, f),
               lambda r: dump_wtc(r, full=True), None,
               (*_TEXT, "detachment_points", "force")),
    ListFormat("newrecruit-json", "New Recruit JSON",
               lambda t, f, _: parse_newrecruit_json(t, f), dump_newrecruit_json,
               lambda s: _forces_doc(s) and not _by_listforge(s),
               (*_LIST_ONLY, "attached_to", "force_disposition")),
    ListFormat("listforge-text", "List Forge text",
               lambda t, f, _: parse_listforge_text(t, f), dump_listforge_text, _lf_text,
               (*_TEXT, "detachment_points", "force")),
    ListFormat("listforge-json", "List Forge JSON",
               lambda t, f, _: parse_newrecruit_json(t, f), None,
               lambda s: _forces_doc(s) and _by_listforge(s)),
    ListFormat("rosterizer", "Rosterizer JSON", lambda t, f, _: parse_rosterizer(t, f), None,
               lambda s: is_rosterizer(s.doc) and not _tactica_doc(s) and not _forces_doc(s)),
    ListFormat("tactica-json", "tactica's own JSON", read_tactica_json,
               lambda r: r.model_dump_json(indent=2) + "\n", _tactica_doc),
]

#: The formats by key (kept in step by ``register``).
FORMATS_BY_KEY: dict[str, ListFormat] = {f.key: f for f in FORMATS}


def register(fmt: ListFormat) -> None:
    """Add a format (or replace the one with its key): every list of formats shows it."""
    if fmt.key in FORMATS_BY_KEY:
        FORMATS[:] = [fmt if f.key == fmt.key else f for f in FORMATS]
    else:
        FORMATS.append(fmt)
    FORMATS_BY_KEY[fmt.key] = fmt


def import_formats() -> tuple[ListFormat, ...]:
    """The formats that can be read, in the order shown."""
    return tuple(f for f in FORMATS if f.read is not None)


def export_formats() -> tuple[ListFormat, ...]:
    """The formats that can be written, in the order shown."""
    return tuple(f for f in FORMATS if f.write is not None)


def formats_help(write: bool = False) -> str:
    """The formats read (``write``: written) as a help text lists them: each key with the
    name players know it by."""
    return ", ".join(f.label() for f in (export_formats() if write else import_formats()))


def format_names() -> str:
    """The names players know the formats read by, for a sentence ("a list exported by
    ...")."""
    names = [f.name for f in import_formats() if f.detect is not None]
    return ", ".join(names[:-1]) + " or " + names[-1] if len(names) > 1 else "".join(names)


class _ImportKeys(Sequence[str]):
    """The keys of the formats that can be read, read from the registry when asked."""

    def _keys(self) -> tuple[str, ...]:
        return tuple(f.key for f in import_formats())

    @overload
    def __getitem__(self, i: int) -> str: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[str]: ...
    def __getitem__(self, i: int | slice) -> str | Sequence[str]:
        return self._keys()[i]

    def __len__(self) -> int:
        return len(self._keys())

    def __repr__(self) -> str:
        return repr(self._keys())


class _Writers(Mapping[str, Writer]):
    """Each format that can be written, by key: its writer (read from the registry)."""

    def __getitem__(self, key: str) -> Writer:
        fmt = FORMATS_BY_KEY.get(key)
        if fmt is None or fmt.write is None:
            raise KeyError(key)
        return fmt.write

    def __iter__(self) -> Iterator[str]:
        return iter([f.key for f in export_formats()])

    def __len__(self) -> int:
        return len(export_formats())


#: The keys of the formats read (``--format``), in the order shown.
IMPORT_FORMATS: Sequence[str] = _ImportKeys()
#: The writer of each format written (``--to``), by key, in the order shown.
EXPORT_FORMATS: Mapping[str, Writer] = _Writers()
