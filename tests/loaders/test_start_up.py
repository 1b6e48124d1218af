"""The collector paused while a command starts (``tactica.loaders.bulk``): paused by the
console script only, resumed once, with what start-up built frozen out of its way."""

from __future__ import annotations

import gc
import subprocess
import sys

import pytest

from tactica.loaders import bulk


def test_start_up_pauses_then_resumes_with_the_start_up_frozen() -> None:
    assert gc.isenabled()
    frozen = gc.get_freeze_count()
    try:
        bulk.pause_start_up()
        assert not gc.isenabled()
        kept = [object() for _ in range(3)]  # noqa: F841 - built during "start-up"
        bulk.start_up_done()
        assert gc.isenabled()
        assert gc.get_freeze_count() > frozen
        bulk.start_up_done()  # a second call (the app's callback after a command): nothing
        assert gc.isenabled()
    finally:
        # what start_up_done froze (the test runner's live objects) stays frozen, as the
        # run's own freezes leave them (tests/conftest.py): gc.unfreeze() here would put
        # the whole run's modules and library back in every full collection's walk
        gc.enable()


def test_nothing_is_paused_or_frozen_without_the_console_script() -> None:
    frozen = gc.get_freeze_count()
    bulk.start_up_done()
    assert gc.isenabled() and gc.get_freeze_count() == frozen


def test_a_command_runs_with_the_collector_running() -> None:
    """The console script resumes the collector before the command's own work: a
    long-running command (``serve``, ``meta``) must not run without it."""
    before = ("import tactica.cli.app as app\n"
              "seen = []\n"
              "schema_of = app.schema_of\n"
              "def spy(kind):\n"
              "    seen.append(gc.isenabled()); return schema_of(kind)\n"
              "app.schema_of = spy\n")
    after = "print('\\nRUNNING', seen, gc.isenabled(), gc.get_freeze_count() > 0)\n"
    assert _schema_command_in_a_process(before, after) == "RUNNING [True] True True"


def test_a_command_that_ends_early_gives_the_collector_back(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """``tactica --version`` exits in its option's callback, before any command runs: the
    console script resumes the collector itself (a caller in the same process)."""
    from tactica.launch import main

    monkeypatch.setattr("sys.argv", ["tactica", "--version"])
    try:
        with pytest.raises(SystemExit):
            main()
        assert gc.isenabled()
        assert "tactica" in capsys.readouterr().out
    finally:
        gc.enable()  # what was frozen stays frozen (see the test above)


def test_the_console_script_freezes_what_a_command_made_before_the_exit() -> None:
    """The interpreter collects while it tears its modules down; the console script
    freezes the heap at exit first (``atexit``), so those collections do not walk what
    the command made. A handler registered before the command runs after the script's
    (``atexit`` runs them last in, first out) and sees the objects made after start-up
    frozen: the list built after the command, still alive, is among them."""
    before = ("import atexit\n"
              "late = []\n"
              "atexit.register(lambda: print('\\nAT EXIT', gc.is_tracked(late),"
              " gc.get_freeze_count() > 0, any(o is late for o in gc.get_objects())))\n")
    after = "late = [[] for _ in range(3)]\ngc.collect()\n"
    # frozen objects are in the permanent generation, which get_objects() does not list
    assert _schema_command_in_a_process(before, after) == "AT EXIT True True False"


def _schema_command_in_a_process(before: str, after: str) -> str:
    """The last line printed by a Python process that runs ``before``, then the console
    script on ``tactica schema scenario``, then ``after`` (``gc`` and ``sys`` imported)."""
    code = ("import gc, sys\n" + before + "sys.argv = ['tactica', 'schema', 'scenario']\n"
            "from tactica.launch import main\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n" + after)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    return out.rstrip().splitlines()[-1]
