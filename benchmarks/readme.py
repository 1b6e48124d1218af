"""The benchmarks README: each script owns one section between its own markers."""

from __future__ import annotations

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
