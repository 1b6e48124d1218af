"""Command lines answered without typer (``tactica.cli.quick``): ``tactica rule NAME``
with the same output, errors and exit codes as the ``rule`` command run through the
command line, ``tactica --help`` with the text typer renders (kept per terminal), and any
other command line left to typer."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tactica.cli.app import app
from tactica.cli.errors import LAZY
from tactica.cli.quick import _help_path, parse_rule, quick
from tactica.source_choice import configured_sources, use_sources

runner = CliRunner()


@pytest.fixture(autouse=True)
def seeds_only() -> object:
    before = configured_sources()
    use_sources((), dataset=False)  # the seed pages: a small library, built quickly
    yield None
    use_sources(before[0], dataset=before[1])


@pytest.mark.parametrize("argv", [
    ["rule", "Primed and Readied"],
    ["rule", "Lethal Hits"],
    ["rule", "--rules", "11th", "deep strike"],
    ["rule", "deep strike", "--rules=10th"],
    ["rule", "Cult Demagogue"],
    ["rule", "Primed and Reddied"],  # unknown: did you mean
])
def test_the_quick_path_prints_what_the_command_prints(
        argv: list[str], capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "100")
    code = quick(argv)
    out, err = capsys.readouterr()
    typer_side = runner.invoke(app, ["--no-dataset", *argv], env={"COLUMNS": "100"})
    assert code == typer_side.exit_code
    assert out == typer_side.stdout
    assert err == typer_side.stderr
    assert (code, bool(err)) in ((0, False), (2, True))


@pytest.mark.parametrize("argv", [
    [], ["rule"], ["rule", "--help"], ["rule", "A", "B"], ["rule", "A", "--rules", "9th"],
    ["rule", "A", "--json"], ["sheet", "Primus"], ["--no-dataset", "rule", "A"],
])
def test_any_other_command_line_goes_to_typer(argv: list[str]) -> None:
    assert parse_rule(argv) is None
    assert quick(argv) is None


def test_the_console_script_answers_a_look_up(capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    from tactica.launch import main

    monkeypatch.setattr("sys.argv", ["tactica", "rule", "Primed and Readied"])
    with pytest.raises(SystemExit) as info:
        main()
    assert info.value.code == 0
    assert "Primed and Readied – 2CP" in capsys.readouterr().out


def test_the_help_is_typer_s_and_kept_for_this_terminal(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TACTICA_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("COLUMNS", "90")
    monkeypatch.setattr("sys.argv", ["tactica"])
    monkeypatch.setenv("TACTICA_CACHE", "0")  # no file: typer renders it
    assert quick(["--help"]) == 0
    rendered = capsys.readouterr().out
    monkeypatch.delenv("TACTICA_CACHE")
    path = _help_path()
    assert path is not None and not path.exists()
    assert quick(["--help"]) == 0  # rendered by typer, written
    assert capsys.readouterr().out == rendered and path.exists()
    assert quick(["--help"]) == 0  # read from the file
    assert capsys.readouterr().out == rendered
    for word in ("Usage:", "--no-dataset", "--data", "rule", *LAZY):
        assert word in rendered
    monkeypatch.setenv("COLUMNS", "120")  # another terminal width: another file
    assert _help_path() != path


def test_a_name_nothing_has_says_what_the_sources_lack(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    # the dataset asked for but not installed: the look-up (through a new index) and
    # the command both say how to install it, as every command does
    import tactica.library as library
    from tactica.loaders import wh40kdc
    from tactica.loaders.wh40kdc import INSTALL_HINT

    def missing() -> None:
        raise wh40kdc.DatasetMissingError()

    monkeypatch.setenv("TACTICA_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(wh40kdc, "embedded_dataset", missing)
    monkeypatch.setattr(wh40kdc, "installed_version", lambda: None)
    use_sources((), dataset=True)
    # a library cache of this test's own (the run's, put back after it, keeps the library
    # it has loaded: clearing it would load that again)
    monkeypatch.setattr(library, "_load_sourced_library",
                        functools.cache(library._load_sourced_library.__wrapped__))
    assert quick(["rule", "Frobnicate"]) == 2
    assert f"note: {INSTALL_HINT}" in " ".join(capsys.readouterr().err.split())
    typer_side = runner.invoke(app, ["rule", "Frobnicate"])
    assert typer_side.exit_code == 2
    assert f"note: {INSTALL_HINT}" in " ".join(typer_side.stderr.split())
