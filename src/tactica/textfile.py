"""A text file the player names (a scenario, an army list), read or refused in one line
with what to do: a missing file, a folder, a file that cannot be read, a binary file, a
file too large. The encoding is found: UTF-8 (with or without a byte order mark),
UTF-16 with its byte order mark, else Windows-1252 (Latin-1 for its five unassigned
bytes), said in a note. Standard library only: the command line checks its file with
this before it imports the engine.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> (folder / "list.txt").write_bytes("Ork Boyz – caf\\u00e9".encode("cp1252"))
15
>>> read_text_file(folder / "list.txt")
('Ork Boyz – café', 'read as Windows-1252, not UTF-8 (save the file as UTF-8 to be sure of every name)')
>>> read_text_file(folder / "nope.txt")
Traceback (most recent call last):
...
tactica.textfile.UnreadableFileError: ...nope.txt: no such file (check its name and folder)
"""  # noqa: E501

from __future__ import annotations

import codecs
import os
from pathlib import Path

__all__ = ["MAX_BYTES", "UnreadableFileError", "check_readable", "check_text_head", "decode",
           "read_text_file"]

#: Files larger than this are refused (a list or a scenario is a few kilobytes; a
#: BattleScribe catalogue some megabytes).
MAX_BYTES = 64 * 1024 * 1024

_BOMS = ((codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"),
         (codecs.BOM_UTF16_BE, "utf-16"))


class UnreadableFileError(ValueError):
    """A file that cannot be read as text; the message names it and says what to do."""


def check_readable(path: str | Path) -> Path:
    """``path`` when it names a regular file this process can read and not too large;
    else ``UnreadableFileError`` in the player's words."""
    p = Path(path)
    try:
        st = p.stat()
    except FileNotFoundError:
        raise UnreadableFileError(f"{p}: no such file (check its name and folder)") from None
    except NotADirectoryError:
        raise UnreadableFileError(f"{p}: no such file (a part of the path is a file, "
                                  "not a folder)") from None
    except PermissionError:
        raise UnreadableFileError(f"{p}: cannot be read (permission denied)") from None
    except OSError as exc:
        raise UnreadableFileError(f"{p}: cannot be read ({exc.strerror or exc})") from None
    except ValueError:  # a lone surrogate or a NUL: no file can have this name
        raise UnreadableFileError(f"{str(p)!a}: not a file name (a character no file "
                                  "name can hold)") from None
    if p.is_dir():
        raise UnreadableFileError(f"{p}: is a folder, not a file (give the file inside it)")
    if st.st_size > MAX_BYTES:
        raise UnreadableFileError(f"{p}: too large ({st.st_size / 1e6:.0f} MB; at most "
                                  f"{MAX_BYTES / 1e6:.0f} MB)")
    if not os.access(p, os.R_OK):
        raise UnreadableFileError(f"{p}: cannot be read (permission denied)")
    return p


def check_text_head(path: str | Path) -> None:
    """Refuse a binary file from its first bytes (``decode``'s test) without reading it
    all; a zip archive (a BattleScribe ``.rosz``) is left to the reader that names it."""
    p = Path(path)
    try:
        with p.open("rb") as f:
            head = f.read(8192)
    except OSError as exc:
        raise UnreadableFileError(f"{p}: cannot be read ({exc.strerror or exc})") from None
    if head.startswith(b"PK") or any(head.startswith(bom) for bom, _ in _BOMS):
        return
    if b"\x00" in head:
        raise UnreadableFileError(f"{p}: not a text file (it holds binary data); give "
                                  "the list or scenario as text or JSON")


def decode(data: bytes, name: str = "file") -> tuple[str, str | None]:
    """The text of ``data`` and a note when it was not UTF-8 (``read_text_file``);
    ``UnreadableFileError`` for binary data."""
    for bom, codec in _BOMS:
        if data.startswith(bom):
            try:
                return data.decode(codec).lstrip("\ufeff"), None
            except UnicodeDecodeError:
                raise UnreadableFileError(f"{name}: not valid {codec.upper()} text after "
                                          "its byte order mark; save it as UTF-8") from None
    if b"\x00" in data[:8192]:
        raise UnreadableFileError(f"{name}: not a text file (it holds binary data); give "
                                  "the list or scenario as text or JSON")
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError:
        pass
    note = "read as Windows-1252, not UTF-8 (save the file as UTF-8 to be sure of every name)"
    try:
        return data.decode("cp1252"), note
    except UnicodeDecodeError:
        return data.decode("latin-1"), note.replace("Windows-1252", "Latin-1")


def read_text_file(path: str | Path) -> tuple[str, str | None]:
    """The text of the file at ``path`` and a note when its encoding was not UTF-8;
    ``UnreadableFileError`` (one line, with what to do) when it cannot be read."""
    p = check_readable(path)
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise UnreadableFileError(f"{p}: cannot be read ({exc.strerror or exc})") from None
    return decode(data, str(p))
