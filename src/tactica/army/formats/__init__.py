"""Army-list formats: read and write the lists players paste around.

The formats are the entries of ``registry.FORMATS`` (its key, the name players know it
by, its reader, its writer if any, how a text of it is recognised): the app's text
(``gw-text``), New Recruit's text, WTC and JSON, List Forge's text and JSON, Rosterizer
JSON (read only), and this package's own JSON. BattleScribe ``.ros`` / ``.rosz`` files are
refused in one line (``battlescribe.py``).

``detect_format`` names the format of a text, or raises ``UnsupportedFormatError`` saying
what the text is and why it is refused (Rosterizer JSON; the 40kdc-data conformance
documents, which are resolved rosters rather than list exports). ``parse_roster`` raises
``RosterParseError`` with the line number (or JSON path) of anything it cannot read:
nothing is dropped silently.

Export then import gives the same army for the fields a format carries
(``carried_view``, over ``army_view``: ``formats/carried.py``; ``NOT_CARRIED`` lists what
each format cannot carry, such as which units start embarked, which only this package's
own JSON records). An export that loses a field the roster sets says so:
``export_warnings`` names each such field and the units concerned. Through its own
format a roster comes back whole (``roundtrip_view``).

>>> from tactica.army.roster import Roster, RosterUnit
>>> r = Roster(name="Demo", faction="Genestealer Cults", battle_size="Strike Force",
...            detachments=("Host of Ascension",), declared_points=70,
...            units=(RosterUnit(id="u1", name="Primus", points=70, warlord=True),))
>>> detect_format(export_roster(r, "gw-text"))
'gw-text'
>>> roundtrip_view(parse_roster(export_roster(r, "gw-text"))) == roundtrip_view(
...     r.model_copy(update={"embarkation_recorded": False}))
True
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from tactica.errors import one_line
from tactica.inputs import loads
from tactica.library import Library
from tactica.textfile import check_readable, decode, read_text_file

from ..roster import Roster
from ._common import ExportRefusedError, RosterParseError, UnsupportedFormatError
from .battlescribe import refuse_battlescribe
from .carried import (
    NOT_CARRIED,
    army_view,
    carried_view,
    export_warnings,
    first_difference,
    lost_fields,
)
from .registry import (
    EXPORT_FORMATS,
    FORMATS,
    FORMATS_BY_KEY,
    IMPORT_FORMATS,
    ListFormat,
    Sample,
    export_formats,
    format_names,
    formats_help,
    import_formats,
    register,
)

__all__ = [
    "EXPORT_FORMATS",
    "FORMATS",
    "IMPORT_FORMATS",
    "MAX_LINES",
    "NOT_CARRIED",
    "ExportRefusedError",
    "ListFormat",
    "RosterParseError",
    "UnsupportedFormatError",
    "army_view",
    "carried_view",
    "detect_format",
    "export_formats",
    "export_roster",
    "export_warnings",
    "format_names",
    "formats_help",
    "import_formats",
    "load_roster",
    "lost_fields",
    "parse_roster",
    "register",
    "roundtrip_view",
]



def _sample(stripped: str) -> Sample:
    if stripped[0] not in "{[":
        return Sample(None, tuple(line.strip() for line in stripped.splitlines()
                                  if line.strip()))
    try:
        doc = loads(stripped)
    except RecursionError:
        raise UnsupportedFormatError("JSON nested too deeply: not an army list") from None
    except ValueError as exc:  # JSONDecodeError, or a lone surrogate
        raise UnsupportedFormatError(f"not valid JSON ({exc})") from None
    if not isinstance(doc, dict):
        raise UnsupportedFormatError("JSON that is not an object: not an army list")
    return Sample(doc, ())


def _refuse_json(doc: dict[str, Any]) -> UnsupportedFormatError:
    if "faction_raw_name" in doc or "detachment_raw_names" in doc:
        return UnsupportedFormatError(
            "40kdc-data parsed-roster document (expected.parsed.json): a conformance "
            "result, not an army-list export")
    if "faction_id" in doc and "units" in doc:
        return UnsupportedFormatError(
            "40kdc-data resolved roster (roster JSON): data already resolved against the "
            "40kdc dataset's ids, not an army-list export")
    return UnsupportedFormatError("JSON of an unknown kind: not a supported army-list format")


def detect_format(text: str) -> str:
    """The format of ``text`` (see the module table), or ``UnsupportedFormatError``."""
    stripped = text.lstrip("\ufeff").strip()
    if not stripped:
        raise UnsupportedFormatError("empty file")
    sample = _sample(stripped)
    for fmt in FORMATS:
        if fmt.detect is not None and fmt.detect(sample):
            return fmt.key
    if sample.doc is not None:
        raise _refuse_json(sample.doc)
    texts = ", ".join(f.name for f in FORMATS if f.detect is not None
                      and not f.key.endswith("json"))
    raise UnsupportedFormatError(
        f"unrecognised first line {sample.first!r}: not {texts}")


#: The longest list read, in lines (real exports have a few hundred): reading and
#: checking a list stays well under a second (benchmarks/README.md).
MAX_LINES = 5000


def parse_roster(text: str | bytes, fmt: str | None = None, *, file: str | None = None,
                 library: Library | None = None) -> Roster:
    """Read a list in ``fmt`` (detected when ``None``). ``library`` only helps the
    11th-edition app layout tell model lines from wargear lines. A list of more than
    ``MAX_LINES`` lines is refused at its first line past the bound; a text of no format
    is refused naming ``file``. Bytes are decoded as a file's are (``textfile``)."""
    note = None
    if isinstance(text, bytes):
        text, note = decode(text, file or "list")
    elif not isinstance(text, str):
        hint = "; for a file, load_roster(path)" if isinstance(text, os.PathLike) else ""
        raise UnsupportedFormatError(f"parse_roster reads a list's text (str), not "
                                     f"{type(text).__name__}{hint}")
    roster = _read(text, fmt, file, library)
    if note is None:
        return roster
    return roster.model_copy(update={"notes": (*roster.notes, f"{file or 'list'}: {note}")})


#: A list's bullet as a chat, a forum or a Markdown editor rewrites the app's "•": a
#: "-", "*" or another bullet sign at a line's start, followed by a space.
_OTHER_BULLET = re.compile(r"(?m)^([ \t]*)[-*·◦▪‣●](?=[ \t])")


def _read(text: str, fmt: str | None, file: str | None, library: Library | None) -> Roster:
    text = text.lstrip("\ufeff")
    if not text.lstrip().startswith(("{", "[")):  # a text list: its bullets as written
        text = _OTHER_BULLET.sub("\\1•", text)
    if text.count("\n") >= MAX_LINES:
        raise RosterParseError(f"a list of more than {MAX_LINES} lines (real lists have a "
                               "few hundred)", MAX_LINES + 1, file)
    try:
        kind = fmt or detect_format(text)
    except UnsupportedFormatError as exc:  # the file named, as for a line not read
        if file is None:
            raise
        raise UnsupportedFormatError(f"{file}: {exc}") from None
    try:
        return _parse(text, kind, file, library)
    except ValidationError as exc:  # a value a reader passed on unchecked: one line still
        raise RosterParseError(one_line(exc), None, file, "the roster") from None


def _parse(text: str, kind: str, file: str | None, library: Library | None) -> Roster:
    fmt = FORMATS_BY_KEY.get(kind)
    if fmt is None or fmt.read is None:
        raise UnsupportedFormatError(
            f"unknown format {kind!r}; known: {', '.join(IMPORT_FORMATS)}")
    return fmt.read(text, file, library)


def load_roster(path: str | Path, fmt: str | None = None,
                library: Library | None = None) -> Roster:
    """Read the list in file ``path`` (UTF-8, or the encoding found: ``textfile``, with a
    note on the roster); a file that cannot be read is refused in one line."""
    p = check_readable(path)
    refuse_battlescribe(p)
    text, note = read_text_file(p)
    roster = parse_roster(text, fmt, file=str(p), library=library)
    if note is None:
        return roster
    return roster.model_copy(update={"notes": (*roster.notes, f"{p.name}: {note}")})


def export_roster(roster: Roster, fmt: str) -> str:
    """Write ``roster`` in ``fmt`` (a key of ``EXPORT_FORMATS``). The text written is read
    back before it is returned: a roster the format cannot write so that it reads back the
    same (for the fields the format carries, ``carried_view``) is refused with
    ``ExportRefusedError`` saying what would change, never written wrong."""
    try:
        writer = EXPORT_FORMATS[fmt]
    except KeyError:
        raise UnsupportedFormatError(
            f"cannot export {fmt!r}; formats: {', '.join(EXPORT_FORMATS)}") from None
    text = writer(roster)
    try:
        again = parse_roster(text)
    except (RosterParseError, UnsupportedFormatError) as exc:
        raise ExportRefusedError(f"{fmt} cannot write this list so that it reads back "
                                 f"({exc})") from None
    difference = first_difference(carried_view(roster, fmt), carried_view(again, fmt))
    if difference is not None:
        raise ExportRefusedError(f"{fmt} cannot write this list so that it reads back: "
                                 f"{difference}")
    return text


def roundtrip_view(roster: Roster) -> dict[str, Any]:
    """What must survive export then import: the canonical roster without ``source`` and
    ``notes`` (which describe the file, not the army)."""
    return roster.canonical().model_dump(mode="json", exclude={"source", "notes"})
