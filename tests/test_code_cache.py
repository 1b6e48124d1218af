"""The code compiled from source text at start-up, kept on disk (``tactica.code_cache``):
what the table gives is what Python's own compiler gives for the same text, and a
command run through the console script prints the same report with the table as the
command line run in this process.
"""

from __future__ import annotations

import dataclasses
import inspect
import os
import subprocess
import sys
import typing
from pathlib import Path
from types import ModuleType

import pytest
from typer.testing import CliRunner

from tactica import code_cache
from tactica.code_cache import CodeTable, installed

_SOURCES = [  # (source, mode) as dataclasses, typing and inspect compile them
    ("def __create_fn__():\n def __init__(self, x:int):\n  self.x=x\n return __init__", "exec"),
    ("list[int] | None", "eval"),
    ("Annotated[str | None, typer.Option(help='x')]", "eval"),
]


def _compile(source: str, mode: str) -> object:
    """What a module without ``__future__`` imports (dataclasses, typing, inspect) gets;
    this module's own ``annotations`` flag left out."""
    return compile(source, "<string>", mode, dont_inherit=True)


def _codes(cls: type) -> dict[str, object]:
    return {name: getattr(cls, name).__code__ for name in
            ("__init__", "__repr__", "__eq__", "__setattr__", "__delattr__", "__hash__",
             "__lt__")}


def _classes() -> type:
    @dataclasses.dataclass(frozen=True, order=True)
    class Shot:
        weapon: str
        attacks: int = 1
        tags: tuple[str, ...] = dataclasses.field(default_factory=tuple)
        note: str | None = dataclasses.field(default=None, compare=False)

    return Shot


def test_the_table_gives_the_code_the_compiler_gives(tmp_path: Path) -> None:
    table = CodeTable(tmp_path / "code.marshal")
    for source, mode in _SOURCES:
        assert table.compiled(source, "<string>", mode) == _compile(source, mode)
    table.save()
    again = CodeTable(table.path)  # read back from the file (marshal)
    for source, mode in _SOURCES:
        code = again.compiled(source, "<string>", mode)
        assert code == _compile(source, mode)
        assert code.co_filename == "<string>"
    assert again.added == 0


def test_data_classes_written_through_the_table_are_the_same(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TACTICA_CACHE_DIR", str(tmp_path))
    plain = _classes()
    with installed() as first:  # compiled, then kept
        filled = _classes()
    assert first is not None and first.added >= 6 and first.path.exists()
    with installed() as second:  # read from the file
        warm = _classes()
    assert second is not None and second.added == 0
    for cls in (filled, warm):
        assert _codes(cls) == _codes(plain)
        assert cls.__init__.__annotations__ == plain.__init__.__annotations__
        a, b = cls("Bolt Rifle", 2, ("Heavy",)), cls("Bolt Rifle", 2, ("Heavy",), "x")
        assert a == b and hash(a) == hash(b) and a < cls("Plasma", 1)
        assert repr(a) == ("_classes.<locals>.Shot(weapon='Bolt Rifle', attacks=2, "
                           "tags=('Heavy',), note=None)")
        with pytest.raises(dataclasses.FrozenInstanceError):
            a.attacks = 3  # type: ignore[misc]
    # the modules have the built-ins back
    assert not {"exec", "compile", "eval"} & (set(vars(dataclasses)) | set(vars(typing))
                                              | set(vars(inspect)))


def test_string_annotations_through_the_table(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TACTICA_CACHE_DIR", str(tmp_path))

    def f(a: list[int] | None, b: int) -> dict[str, int]:
        return {}

    f.__annotations__["b"] = " int"  # as the built-in eval, leading spaces are dropped

    def g(a: list[int] | None) -> dict[str, int]:  # strings: ``from __future__``
        return {}

    expected = inspect.get_annotations(f, eval_str=True)
    hints = typing.get_type_hints(g)
    with pytest.raises(SyntaxError):  # the compiler's own refusal
        typing.get_type_hints(f)
    for _ in range(2):
        with installed():
            assert inspect.get_annotations(f, eval_str=True) == expected
            assert typing.get_type_hints(g) == hints
            with pytest.raises(SyntaxError):  # the same, through the table
                typing.get_type_hints(f)
            assert typing.ForwardRef("list[int]")._evaluate(  # type: ignore[attr-defined]
                globals(), None, frozenset()) == list[int]


def test_a_damaged_table_is_compiled_again_and_replaced(tmp_path: Path) -> None:
    path = tmp_path / "code.marshal"
    for junk in (b"not marshal at all", b"", b"\xe9\x00\x00\x00\x00"):
        path.write_bytes(junk)
        table = CodeTable(path)
        assert table.compiled("1 + 1", "<string>", "eval") == _compile("1 + 1", "eval")
        table.save()
        assert len(CodeTable(path)) == 1


def test_past_the_limit_only_what_the_command_used_is_kept(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "code.marshal"
    old = CodeTable(path)
    for i in range(5):
        old.compiled(f"{i} + 1", "<string>", "eval")
    old.save()
    monkeypatch.setattr(code_cache, "LIMIT", 5)
    table = CodeTable(path)
    table.compiled("0 + 1", "<string>", "eval")  # used, from the file
    table.compiled("x", "<string>", "eval")  # added: 6 entries, past the limit
    table.save()
    assert set(CodeTable(path).code) == {("0 + 1", "<string>", "eval"),
                                         ("x", "<string>", "eval")}


def test_off_with_the_cache_and_never_for_a_module_with_future_flags(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TACTICA_CACHE", "0")
    with installed() as table:
        assert table is None and "exec" not in vars(dataclasses)
    module = ModuleType("m")
    exec("from __future__ import annotations", vars(module))
    assert not code_cache._plain(module, "exec")
    assert code_cache._plain(ModuleType("n"), "exec")


def test_the_console_script_with_the_table_prints_the_same_report() -> None:
    """A fresh process (the table filled, then read) prints byte for byte what the command
    line prints in this process, where the classes were built without it (the seed
    pages alone, ``--no-dataset``: a small library, quick to read)."""
    from tactica.cli.app import app
    from tactica.source_choice import configured_sources, use_sources

    args = ["--no-dataset", "calc", "--attacker", "Neophyte Hybrids", "--target", "meq"]
    before = configured_sources()
    try:
        here = CliRunner().invoke(app, args)
    finally:
        use_sources(before[0], dataset=before[1])
    assert here.exit_code == 0, here.output
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    outputs = []
    for _ in range(2):
        run = subprocess.run([sys.executable, "-m", "tactica", *args], capture_output=True,
                             text=True, env=env, check=True)
        outputs.append(run.stdout)
    assert "models destroyed" in here.output
    assert outputs == [here.output, here.output]
    assert list(Path(os.environ["TACTICA_CACHE_DIR"]).glob("code-*.marshal"))
