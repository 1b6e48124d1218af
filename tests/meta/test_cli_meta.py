"""``tactica meta``, ``tactica meta query`` and ``tactica meta plot`` from the command
line (the seed library: ``--no-dataset``)."""

from __future__ import annotations

import importlib
import socket
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tactica.cli import commands
from tactica.meta import load


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(commands.app, ["--no-dataset", *args])
    return result.exit_code, result.output


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("meta") / "t"
    code, text = _run("meta", "-o", str(out), "--unit", "Primus", "--unit", "Neophyte Hybrids",
                      "--target", "meq", "--target", "Death Riders", "--phase", "fight")
    assert code == 0, text
    assert "in-process" in text
    return out


def test_the_flags_make_the_rows(folder: Path) -> None:
    df = load(folder)
    assert set(df.attacker) == {"Primus", "Neophyte Hybrids"}
    assert set(df.phase) == {"fight"}
    # Death Riders is a 10th-edition page: a target for the 10th-edition units only
    assert set(df[df.edition == "11th"].target) == {"meq"}
    assert set(df[df.edition == "10th"].target) == {"meq", "Death Riders"}


def test_rerun_skips_what_is_written(folder: Path) -> None:
    code, text = _run("meta", "-o", str(folder), "--unit", "Primus", "--unit",
                      "Neophyte Hybrids", "--target", "meq", "--target", "Death Riders",
                      "--phase", "fight")
    assert code == 0 and "0 written now" in text and "already written: skipped" in text


def test_query_prints_a_table_or_csv(folder: Path) -> None:
    code, text = _run("meta", "query", "-o", str(folder), "--csv",
                      "SELECT attacker, target FROM meta ORDER BY attacker, target")
    assert code == 0, text
    assert text.splitlines() == ["attacker,target", "Neophyte Hybrids,Death Riders",
                                 "Neophyte Hybrids,meq", "Primus,meq"]
    code, text = _run("meta", "query", "-o", str(folder), "SELECT count(*) AS n FROM meta")
    assert code == 0 and "3" in text


@pytest.mark.parametrize("kind,name", [("bars", "b.png"), ("heatmap", "h.svg")])
def test_plot_writes_the_picture(folder: Path, tmp_path: Path, kind: str, name: str) -> None:
    out = tmp_path / name
    extra = ["--metric", "models_destroyed", "--phase", "fight"]
    code, text = _run("meta", "plot", kind, "-o", str(folder), "-f", str(out), *extra)
    assert code == 0, text
    data = out.read_bytes()
    if name.endswith(".png"):
        assert data.startswith(b"\x89PNG")
    else:
        assert b"<svg" in data[:2000]


@pytest.mark.parametrize("args,needle", [
    (["meta", "--unit", "Primsu"], "did you mean: Primus"),
    (["meta", "--faction", "Orcs"], "faction"),
    (["meta", "--rules", "9th"], "--rules"),
    (["meta", "query", "-o", "/nonexistent-meta", "SELECT 1"], "no meta table"),
    (["meta", "plot", "bars", "-o", "/nonexistent-meta", "-f", "x.png"], "no meta table"),
])
def test_bad_input_is_one_line(args: list[str], needle: str) -> None:
    code, text = _run(*args)
    assert code == 2
    lines = [line for line in text.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:") and needle in lines[0]


@pytest.mark.parametrize("sql", ["", " ", ";", "/* */", ";\n-- nothing"])
def test_a_query_with_no_statement_is_one_line(folder: Path, sql: str) -> None:
    """DuckDB runs nothing and returns no result (issue 47: an AttributeError)."""
    code, text = _run("meta", "query", "-o", str(folder), sql)
    assert code == 2, text
    lines = [line for line in text.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: SQL") and "no statement" in lines[0]


def _silent_server() -> tuple[socket.socket, int]:
    """A port that accepts connections and never says a word (not a Dask scheduler)."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    return server, server.getsockname()[1]


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])  # closed again: nothing listens there


def test_a_scheduler_that_cannot_be_reached_is_one_line_leaving_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Malformed, refused, or a server that is not Dask's: refused in one line before
    anything is written (Dask alone waited 30 s, then left ``_selection.json`` and a
    progress line above the error; issue 47, 4)."""
    meta_run = importlib.import_module("tactica.meta.run")  # the module, not its run()
    monkeypatch.setattr(meta_run, "_HANDSHAKE", 0.5)  # the deadline is not what is tested
    silent, port = _silent_server()
    with silent:
        for address, words in [
                ("nonsense", "not a Dask scheduler's address; write tcp://HOST:PORT"),
                ("tcp://127.0.0.1:99999", "not a Dask scheduler's address"),
                (f"tcp://127.0.0.1:{_closed_port()}", "connection refused"),
                (f"tcp://127.0.0.1:{port}", "no Dask scheduler answered there")]:
            out = tmp_path / "t"
            code, text = _run("meta", "-o", str(out), "--unit", "Primus", "--target", "meq",
                              "--scheduler", address)
            lines = [line for line in text.splitlines() if line.strip()]
            assert code == 2 and len(lines) == 1, text
            assert lines[0].startswith(f"error: --scheduler {address!r}: ") and words in lines[0]
            assert not out.exists()


def test_plot_refuses_other_formats(folder: Path, tmp_path: Path) -> None:
    code, text = _run("meta", "plot", "bars", "-o", str(folder), "-f", str(tmp_path / "x.jpg"))
    assert code == 2 and ".png or .svg" in text
