"""The ``tactica`` console script: the file a command names is checked first (``textfile``:
a missing file, a folder, a binary file refused in one line, exit code 2), before the
command line and the engine are imported (a second or more on a loaded machine); then
a rule look-up is answered without the command-line framework (``tactica.cli.quick``), and
any other command line goes to ``tactica.cli.main``.

Only the plain form is checked this early, the file right after its command
(``tactica calc FILE``, ``tactica list show FILE``); any other form is checked by the
command itself, with the same sentence.

>>> preflight(["list", "show", "/nonexistent/army.txt"])
'/nonexistent/army.txt: no such file (check its name and folder)'
>>> preflight(["calc", "yes"]) is None  # a flag's value by mistake: the command says so
True
"""

from __future__ import annotations

import atexit
import gc
import os
import sys
from collections.abc import Sequence

from .textfile import UnreadableFileError, check_readable, check_text_head

__all__ = ["main", "preflight"]

#: Commands whose first argument is a file, and the list commands (``list show FILE``).
_FILE_FIRST = frozenset({"calc"})
_LIST_COMMANDS = frozenset({"show", "price", "validate", "convert"})
#: What a flag that takes no value may be followed by by mistake (``cli.errors``).
_FLAG_WORDS = frozenset({"yes", "no", "true", "false", "on", "off", "y", "n", "1", "0"})


def _named_file(argv: Sequence[str]) -> str | None:
    if "--help" in argv or "-h" in argv or len(argv) < 2:
        return None
    if argv[0] in _FILE_FIRST:
        candidate = argv[1]
    elif argv[0] == "list" and len(argv) > 2 and argv[1] in _LIST_COMMANDS:
        candidate = argv[2]
    else:
        return None
    if candidate.startswith("-") or candidate.casefold() in _FLAG_WORDS:
        return None
    return candidate


def preflight(argv: Sequence[str]) -> str | None:
    """The refusal of the file ``argv`` names (in the plain form), or None."""
    path = _named_file(argv)
    if path is None:
        return None
    try:
        check_text_head(check_readable(path))
    except UnreadableFileError as exc:
        return " ".join(str(exc).split())
    return None


def main() -> None:
    """Run the command line, its file checked first (the garbage collector paused while
    the command's code is imported: ``loaders.bulk.pause_start_up``; resumed by the
    command, or here when it ends before, so that a caller in the same process gets it
    back)."""
    from .loaders.bulk import pause_start_up, start_up_done

    # numpy's OpenBLAS starts a thread per core at import, and they spin before they
    # sleep: a third of a warm ``calc``'s CPU. A command's arrays are small (BLAS runs
    # them on one thread anyway) and its workers are processes of their own, so one
    # thread, unless the user says otherwise (must be set before numpy is imported).
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    # at exit the interpreter collects again and again while it tears its modules down,
    # walking everything a long command made (``tactica meta --targets presets``: 1.6 s
    # CPU after its last file was written): frozen first, nothing of it is walked
    atexit.unregister(gc.freeze)  # once, however often a caller runs a command
    atexit.register(gc.freeze)
    pause_start_up()
    argv = sys.argv[1:]
    try:
        if argv == ["--help"]:  # the kept help text (cli.quick): nothing to compile
            _run(argv)
            return
        # the methods dataclasses writes and the string annotations compiled from the
        # table of code kept in the cache folder, not parsed in every process (code_cache)
        from .code_cache import installed

        with installed():
            _run(argv)
    finally:
        start_up_done()


def _run(argv: list[str]) -> None:
    refusal = preflight(argv)
    if refusal is not None:
        print(f"error: {refusal}", file=sys.stderr)
        raise SystemExit(2)
    from .cli.quick import quick

    code = quick(argv)  # a rule look-up, without the command-line framework
    if code is not None:
        raise SystemExit(code)
    from .cli import main as run

    run()
