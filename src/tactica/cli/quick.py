"""Command lines answered without the command-line framework: ``tactica rule NAME``
(``--rules 10th|11th`` before or after the name), a look-up at the table that should cost
well under a second (issue 25), while parsing any command line with typer (and the
pydantic models it checks every option with) costs more than the look-up itself.

``quick(argv)`` answers such a command line exactly as the ``rule`` command does (the same
function, ``tactica.cli.rule_view.show_rule``, the same one-line errors and exit codes) and
returns ``None`` for any other command line, which then goes to ``tactica.cli.main``.

>>> parse_rule(["rule", "Lethal Hits", "--rules", "10th"])
('Lethal Hits', '10th')
>>> parse_rule(["rule", "Lethal Hits", "--json"]) is None  # not this command: typer's
True
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

__all__ = ["parse_rule", "quick"]

_VERSIONS = ("10th", "11th")


def parse_rule(argv: Sequence[str]) -> tuple[str, str | None] | None:
    """``(name, rules)`` of ``rule NAME [--rules V]``, or ``None`` for anything else (an
    option the command does not have, a value it refuses, ``--help``: typer says so)."""
    if not argv or argv[0] != "rule":
        return None
    rest = list(argv[1:])
    rules = None
    for i, word in enumerate(rest):
        if word.startswith("--rules="):
            rules, rest = word.partition("=")[2], rest[:i] + rest[i + 1:]
            break
        if word == "--rules" and i + 1 < len(rest):
            rules, rest = rest[i + 1], rest[:i] + rest[i + 2:]
            break
    if len(rest) != 1 or rest[0].startswith("-") or (rules is not None and
                                                      rules not in _VERSIONS):
        return None
    return rest[0], rules


def quick(argv: Sequence[str]) -> int | None:
    """Answer ``argv`` if it is a command line answered here (module text): the exit
    code; ``None`` otherwise."""
    parsed = parse_rule(argv)
    if parsed is None:
        return None
    from rich.console import Console

    from ..errors import one_line
    from ..names import UnknownNameError
    from .rule_view import show_rule

    err = Console(stderr=True, highlight=False, soft_wrap=True)
    try:
        show_rule(Console(highlight=False, soft_wrap=False), parsed[0],
                  parsed[1])  # type: ignore[arg-type]
    except UnknownNameError as exc:
        Console(stderr=True, highlight=False).print(f"error: {exc}", markup=False)
        from ..library import load_library

        for hint in getattr(load_library(), "missing", ()):  # the dataset not installed
            Console(stderr=True, highlight=False).print(f"note: {hint}", markup=False)
        return 2
    except (ValueError, LookupError, OSError) as exc:  # as every command: one line
        err.print(f"error: {one_line(exc)}", markup=False)
        return 2
    sys.stdout.flush()
    return 0
