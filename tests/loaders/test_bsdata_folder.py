"""A ``--data`` folder is all or nothing per file: a catalogue that cannot be read refuses
the folder (one line per such file, exit 2), or with ``--skip-bad`` is skipped with a
warning naming it; never skipped silently, which would leave its units to the bundled
dataset's older points and profiles. Nesting is bounded before it can exhaust the
interpreter's recursion."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tactica.cli import commands
from tactica.inputs import InputError, check_depth
from tactica.loaders.bsdata import FolderRefusedError, load_bsdata, read_folder
from tactica.loaders.bsdata_files import MAX_NESTING, read_file
from tactica.loaders.errors import LoadError

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "bsdata"
TESTERS = "Xenos - Testers.json"


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "data"
    shutil.copytree(FIXTURES, folder)
    return folder


def _corrupt(folder: Path) -> Path:
    """The faction catalogue cut in half, as a failed download leaves it."""
    path = folder / TESTERS
    text = path.read_bytes()
    path.write_bytes(text[: len(text) // 2])
    return path


def test_a_clean_folder_loads_every_catalogue(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    read, refused = read_folder(folder)
    assert refused == []
    assert sorted(f.path.name for f in read) == sorted(p.name for p in FIXTURES.glob("*.json"))


def test_a_corrupt_catalogue_refuses_its_folder(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    _corrupt(folder)
    with pytest.raises(FolderRefusedError) as caught:
        load_bsdata([folder])
    assert [Path(e.source).name for e in caught.value.refused] == [TESTERS]
    assert "--skip-bad" in str(caught.value)
    assert "\n" not in str(caught.value)
    assert caught.value.lines()[0].endswith("not a readable JSON file "
                                            + caught.value.refused[0].problem.split("file ", 1)[1])


def test_skip_bad_loads_the_rest_and_says_what_it_skipped(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    _corrupt(folder)
    source = load_bsdata([folder], skip_bad=True)
    skipped = [n for n in source.report().notes if n.startswith("skipped")]
    assert skipped == [f"skipped {TESTERS}: " + read_folder(folder)[1][0].problem]


def test_the_command_line_refuses_the_folder_one_line_per_file(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    _corrupt(folder)
    (folder / "Extra.json").write_text("[1, 2", encoding="utf-8")
    result = CliRunner().invoke(commands.app, ["--data", str(folder), "units"])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 3  # one per refused file, then the verdict
    assert lines[0].startswith("error: --data") and "Extra.json" in lines[0]
    assert TESTERS in lines[1]
    assert "--skip-bad" in lines[2] and "Traceback" not in result.output


def test_the_command_line_with_skip_bad_warns_per_file_and_goes_on(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    _corrupt(folder)
    result = CliRunner().invoke(commands.app, ["--data", str(folder), "--skip-bad", "--no-dataset",
                                      "units"])
    assert result.exit_code == 0, result.output
    assert f"warning: skipped {folder / TESTERS}" in result.output


def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth


@pytest.mark.parametrize("depth", [MAX_NESTING + 1, 5_000, 200_000])
def test_deep_nesting_is_a_load_error_not_a_recursion_error(tmp_path: Path,
                                                            depth: int) -> None:
    path = tmp_path / "deep.json"
    path.write_text(json.dumps({"catalogue": {"id": "x", "deep": json.loads(
        _nested(min(depth, 900)))}}) if depth < 900 else '{"catalogue": ' + _nested(depth) + "}",
        encoding="utf-8")
    with pytest.raises(LoadError, match="nested more than"):
        read_file(path)


def test_nesting_is_counted_as_json_nests() -> None:
    # an independent count: the deepest run of unmatched brackets in the text
    text = json.dumps({"a": [1, {"b": [[], {"c": 2}]}], "d": {}, "e": "[[[[[[["})
    depth = best = 0
    for ch in text.replace("[[[[[[[", ""):  # brackets inside a string do not nest
        depth += ch in "[{"
        depth -= ch in "]}"
        best = max(best, depth)
    assert best == 5
    check_depth(text, limit=best)
    with pytest.raises(InputError):
        check_depth(text, limit=best - 1)


def test_a_file_read_twice_is_decoded_once_until_it_changes(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    path = folder / TESTERS
    assert read_file(path) is read_file(path)
    body = json.loads(path.read_text(encoding="utf-8"))
    body["catalogue"]["name"] = "Xenos - Renamed"
    path.write_text(json.dumps(body), encoding="utf-8")
    assert read_file(path).name == "Xenos - Renamed"
