"""A command line refused in one line: exit code 2, one ``error:`` line on stderr, no
traceback (shared by the command-line tests of flags and of list mistakes)."""

from __future__ import annotations

from typer.testing import CliRunner

from tactica.cli import commands

__all__ = ["one_line"]


def one_line(args: list[str]) -> str:
    """The one ``error:`` line ``tactica ARGS`` prints on stderr."""
    result = CliRunner().invoke(commands.app, args)
    assert result.exit_code == 2, result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ") and "Traceback" not in result.output
    return lines[0]
