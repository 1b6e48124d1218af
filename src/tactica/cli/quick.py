"""Command lines answered without the command-line framework (issue 25: a look-up at the
table should cost well under a second, while parsing any command line with typer, and the
pydantic models it checks every option with, costs more than the look-up itself):

* ``tactica rule NAME`` (``--rules 10th|11th`` before or after the name), answered exactly
  as the ``rule`` command does: the same function (``tactica.cli.rule_view.show_rule``),
  the same one-line errors and exit codes;
* ``tactica units [--faction F] [--rules V]`` (issue 40), answered as the ``units``
  command does (``tactica.cli.unit_view.show_units``: the unit index kept on disk);
* ``tactica --help``: the text typer renders, kept in tactica's cache folder
  (``tactica.cache``) for this terminal. The file is named for everything the rendering
  reads: the command line's code (``tactica.cli``), typer's and rich's installed files, the
  program name, whether the output is a terminal and its size and encoding, and the
  environment variables that change colours, width or language. The first ``--help`` of
  a terminal is rendered by typer (``help_text``) and written; later ones print the file
  (files of other code are removed).

``quick(argv)`` returns the exit code of such a command line, ``None`` for any other,
which then goes to ``tactica.cli.main``.

>>> parse_rule(["rule", "Lethal Hits", "--rules", "10th"])
('Lethal Hits', '10th')
>>> parse_rule(["rule", "Lethal Hits", "--json"]) is None  # not this command: typer's
True
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

__all__ = ["help_text", "parse_rule", "parse_units", "quick"]

_VERSIONS = ("10th", "11th")


def _options(words: Sequence[str], names: Sequence[str]
             ) -> tuple[dict[str, str], list[str]] | None:
    """The values of the options ``names`` (``--name VALUE`` or ``--name=VALUE``, each at
    most once, a value not starting with ``-``) and the other words; ``None`` for a line
    typer should read (an option twice, one without its value)."""
    found: dict[str, str] = {}
    rest: list[str] = []
    i = 0
    while i < len(words):
        word = words[i]
        name, equals, value = word.partition("=")
        if name in names:
            if not equals:
                if i + 1 >= len(words):
                    return None
                value, i = words[i + 1], i + 1
            if name in found or value.startswith("-"):
                return None
            found[name] = value
        else:
            rest.append(word)
        i += 1
    return found, rest


def parse_units(argv: Sequence[str]) -> tuple[str | None, str | None] | None:
    """``(faction, rules)`` of ``units [--faction F] [--rules V]``, or ``None`` for
    anything else (typer says what is wrong with it).

    >>> parse_units(["units", "--faction", "Orks"]), parse_units(["units", "--rules=10th"])
    (('Orks', None), (None, '10th'))
    >>> parse_units(["units", "--rules", "9th"]) is None  # typer refuses it
    True
    """
    if not argv or argv[0] != "units":
        return None
    parsed = _options(argv[1:], ("--faction", "--rules"))
    if parsed is None or parsed[1] or parsed[0].get("--rules", "10th") not in _VERSIONS:
        return None
    return parsed[0].get("--faction"), parsed[0].get("--rules")


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


#: Environment variables that change how rich and typer render (colours, width, terminal,
#: language), by prefix.
_RENDER_ENV = ("COLUMNS", "LINES", "TERM", "COLORTERM", "NO_COLOR", "FORCE_COLOR", "TTY_",
               "JUPYTER", "TYPER", "_TYPER", "GITHUB_ACTIONS", "PY_COLORS", "CLICOLOR",
               "LANG", "LC_", "LANGUAGE", "TERMINAL_WIDTH", "PYTHONIOENCODING")


def _help_path() -> Path | None:
    """Where the help text for this terminal is kept (module text); ``None`` with the
    cache off."""
    import hashlib
    import importlib.util
    import os

    from ..service import cache_dir, cache_enabled, code_stamp, files_stamp

    if not cache_enabled():
        return None
    out = sys.stdout
    sizes = []  # rich asks stdin, stdout and stderr for the terminal's size
    for fd in (0, 1, 2):
        try:
            sizes.append(tuple(os.get_terminal_size(fd)))
        except (OSError, ValueError):
            sizes.append(())
    packages = []
    for name in ("typer", "rich"):
        spec = importlib.util.find_spec(name)
        origin = None if spec is None else spec.origin
        packages.append(files_stamp([Path(origin).parent], (".py",)) if origin else name)
    env = sorted((k, v) for k, v in os.environ.items() if k.startswith(_RENDER_ENV))
    code = hashlib.sha256("\n".join([code_stamp(("cli",)), *packages]).encode())
    spec = getattr(sys.modules.get("__main__"), "__spec__", None)  # "python -m tactica"
    parts = [Path(sys.argv[0]).name, str(getattr(spec, "name", None)), sys.platform,
             str(out.isatty()), str(sizes), str(getattr(out, "encoding", None)), str(env)]
    terminal = hashlib.sha256("\n".join(parts).encode()).hexdigest()[:16]
    return cache_dir() / f"help-{code.hexdigest()[:12]}-{terminal}.txt"


class _Tee:
    """``sys.stdout`` as rich sees it (terminal, size, encoding), its text kept too."""

    def __init__(self, out: TextIO) -> None:
        self._out, self.parts = out, list[str]()

    def write(self, text: str | bytes) -> int:
        if isinstance(text, bytes):  # click writes an empty ``b""`` to flush
            text = text.decode(getattr(self._out, "encoding", None) or "utf-8")
        self.parts.append(text)
        return self._out.write(text)

    def __getattr__(self, name: str) -> object:
        return getattr(self._out, name)


def help_text() -> str:
    """``tactica --help`` rendered by typer (printed as it is rendered), as text."""
    from . import main

    tee = _Tee(sys.stdout)
    sys.stdout = tee
    try:
        sys.argv[1:] = ["--help"]
        main()
    except SystemExit as exc:
        if exc.code not in (0, None):
            raise
    finally:
        sys.stdout = tee._out
    return "".join(tee.parts)


def _help() -> int:
    import contextlib

    from ..service import write_atomically

    path = _help_path()
    if path is not None:
        with contextlib.suppress(OSError, UnicodeError):
            sys.stdout.write(path.read_text(encoding="utf-8"))
            sys.stdout.flush()
            return 0
    text = help_text()
    if path is not None:
        with contextlib.suppress(OSError):  # one file per terminal; other code's removed
            write_atomically(path, lambda t: t.write_text(text, encoding="utf-8"),
                             stale=path.name)
            code = path.name.split("-")[1]
            for old in path.parent.glob("help-*.txt"):
                if old.name.split("-")[1] != code:
                    old.unlink(missing_ok=True)
    return 0


def quick(argv: Sequence[str]) -> int | None:
    """Answer ``argv`` if it is a command line answered here (module text): the exit
    code; ``None`` otherwise."""
    if list(argv) == ["--help"]:
        return _help()
    units = parse_units(argv)
    if units is not None:
        return _units(*units)
    parsed = parse_rule(argv)
    if parsed is None:
        return None
    from rich.console import Console

    from ..service import UnknownNameError, one_line, start_up_done
    from .rule_view import show_rule, unknown_rule

    start_up_done()  # the collector resumes (paused by the console script)
    err = Console(stderr=True, highlight=False, soft_wrap=True)
    try:
        show_rule(Console(highlight=False, soft_wrap=False), parsed[0],
                  parsed[1])  # type: ignore[arg-type]
    except UnknownNameError as exc:
        return unknown_rule(Console(stderr=True, highlight=False), exc)
    except (ValueError, LookupError, OSError) as exc:  # as every command: one line
        err.print(f"error: {one_line(exc)}", markup=False)
        return 2
    sys.stdout.flush()
    return 0


def _units(faction: str | None, rules: str | None) -> int:
    """``tactica units [--faction F] [--rules V]``, as the ``units`` command answers it
    (``tactica.cli.unit_view``): the exit code."""
    from rich.console import Console

    from ..service import UnknownNameError, one_line, start_up_done
    from .unit_view import show_units, unknown_faction

    start_up_done()  # the collector resumes (paused by the console script)
    try:
        show_units(Console(highlight=False, soft_wrap=False), faction,
                   rules)  # type: ignore[arg-type]
    except UnknownNameError as exc:
        return unknown_faction(Console(stderr=True, highlight=False), exc)
    except (ValueError, LookupError, OSError) as exc:  # as every command: one line
        Console(stderr=True, highlight=False, soft_wrap=True).print(
            f"error: {one_line(exc)}", markup=False)
        return 2
    sys.stdout.flush()
    return 0
