"""The benchmarks README: each script owns one section between its own markers."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

README = Path(__file__).with_name("README.md")


def markers(name: str) -> tuple[str, str]:
    """The start and end markers of section ``name`` (``<!-- engine:start -->``...)."""
    return f"<!-- {name}:start -->", f"<!-- {name}:end -->"


def write_section(name: str, block: str, path: Path = README, *, appended: str = "") -> None:
    """Put ``block`` between the markers of section ``name`` in ``path``. When the markers
    are missing, the section is appended at the end, after ``appended`` (a heading)."""
    start, end = markers(name)
    section = f"{start}\n{block}\n{end}"
    old = path.read_text(encoding="utf-8") if path.exists() else "# Benchmarks\n"
    if start in old and end in old:
        before, rest = old.split(start, 1)
        after = rest.split(end, 1)[1]
        new = before + section + after
    else:
        new = old.rstrip("\n") + "\n\n" + appended + section + "\n"
    path.write_text(new, encoding="utf-8")


def table_command(doc: str, table: Callable[[int], str], write: Callable[[str], None],
                  runs: int, runs_help: str, argv: list[str] | None = None) -> int:
    """The command line of a benchmark that prints one table: ``--runs N`` (default
    ``runs``) and ``--no-write``; the table is printed and, unless told not to, written
    into its README section by ``write``. ``doc``: the script's docstring (its first
    paragraph describes the command)."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=runs, help=runs_help)
    parser.add_argument("--no-write", action="store_true", help="do not update README.md")
    args = parser.parse_args(argv)
    text = table(max(1, args.runs))
    print(text)
    if not args.no_write:
        write(text)
    return 0
