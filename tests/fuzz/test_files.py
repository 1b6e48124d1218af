"""Files named on the command line: read in the encoding found or refused in one line
with the project's own sentence (``tactica.textfile``), before the engine is imported
for the plain forms (``tactica.launch``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tactica.textfile import UnreadableFileError, read_text_file

_TEXT = "++ Army Roster ++\nOrk Boyz – Nob with Big choppa (café)\n"


@pytest.mark.parametrize(("codec", "note"), [
    ("utf-8", None), ("utf-8-sig", None), ("utf-16", None), ("cp1252", "Windows-1252")])
def test_a_list_in_another_encoding_is_read_with_a_note(tmp_path: Path, codec: str,
                                                        note: str | None) -> None:
    path = tmp_path / "army.txt"
    path.write_bytes(_TEXT.encode(codec))
    text, said = read_text_file(path)
    assert text == _TEXT
    assert (said is None) if note is None else (note in (said or ""))


def test_bytes_outside_windows_1252_are_read_as_latin_1(tmp_path: Path) -> None:
    path = tmp_path / "army.txt"
    path.write_bytes(b"Boyz \x81\xe9")  # 0x81 has no Windows-1252 character
    text, said = read_text_file(path)
    assert text == "Boyz \x81é" and "Latin-1" in (said or "")


@pytest.mark.parametrize(("make", "words"), [
    (lambda p: p / "missing.txt", "no such file"),
    (lambda p: p, "is a folder, not a file"),
    (lambda p: (p / "a.bin").write_bytes(b"\x7fELF\x00\x01") and p / "a.bin",
     "not a text file"),
])
def test_an_unreadable_file_is_refused_in_the_players_words(tmp_path: Path, make: object,
                                                             words: str) -> None:
    path = make(tmp_path)  # type: ignore[operator]
    with pytest.raises(UnreadableFileError) as info:
        read_text_file(path)
    assert str(info.value).startswith(f"{path}: {words}")
    assert "Errno" not in str(info.value) and "\n" not in str(info.value)


@pytest.mark.parametrize("argv", [["calc", "{missing}"], ["list", "show", "{missing}"],
                                  ["list", "validate", "{folder}"]])
def test_the_command_line_refuses_a_missing_file_in_one_line(tmp_path: Path,
                                                             argv: list[str]) -> None:
    args = [a.format(missing=tmp_path / "nope.txt", folder=tmp_path) for a in argv]
    # a narrow terminal: the line is not wrapped
    run = subprocess.run([sys.executable, "-m", "tactica", *args], capture_output=True,
                         text=True, env={"COLUMNS": "30", "PATH": "/usr/bin:/bin",
                                         "PYTHONPATH": ":".join(sys.path)}, check=False)
    assert run.returncode == 2
    lines = run.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {args[-1]}: ")
    assert "Traceback" not in run.stderr


@pytest.mark.parametrize("name", ["army\ud800.txt", "army\x00.txt"])
def test_a_name_no_file_can_have_is_refused_in_the_players_words(name: str) -> None:
    # the property suite's command-line kind: a lone surrogate made stat() raise
    # "'utf-8' codec can't encode character '\ud800'"; a NUL, "embedded null byte"
    with pytest.raises(UnreadableFileError) as info:
        read_text_file(name)
    assert "not a file name" in str(info.value) and "codec" not in str(info.value)
    str(info.value).encode("utf-8")  # printable
