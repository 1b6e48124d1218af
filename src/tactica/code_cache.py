"""The code Python compiles from source text while a command starts, kept on disk.

A warm ``tactica calc`` spent about a fifth of its instructions in Python's parser and
compiler on text that is the same in every process: the methods ``dataclasses`` writes
as source for each data class imported (``__init__``, ``__repr__``, ``__eq__``,
``__hash__``, ...: about 500 functions, 170,000 characters, for tactica's, pydantic's,
typer's and annotated-types' ~100 data classes), the string annotations that
``typing.ForwardRef`` compiles (pydantic's model fields), those that
``inspect.get_annotations`` evaluates (typer reading a command's options) and the
constructors ``collections.namedtuple`` writes.

``installed`` (the console script, before the command is imported) gives those four
modules an ``exec``, ``compile`` or ``eval`` of their own (a module global, which Python
finds before the built-in of that name) that look the source text up in a table of code
objects read from the cache folder, compiling only what is not there (exactly as the
built-in would: the file name, the mode, no inherited ``__future__`` flags); when the
command ends, the table is written back if anything was added, and the modules get the
built-ins back.

Only what ``compile`` gives for the same text can be found: the table's key is the
source text with the file name and mode, and its file is named for the interpreter's
bytecode version (``importlib.util.MAGIC_NUMBER``) and optimization level (``-O``), so
the code objects it holds are those this interpreter would build. The table holds what
the code base's classes and annotations write, so it stops growing; past ``LIMIT``
entries only those used by the last command are kept. An unreadable or damaged table,
or a folder that cannot be written, is not an error (the text is compiled, as without
it); ``TACTICA_CACHE=0`` turns it off with the rest of the cache (``tactica.cache``).
The table is code the process runs, trusted as the bytecode Python keeps beside a module
is: it lives in the user's own cache folder.

>>> import pathlib, tempfile
>>> table = CodeTable(pathlib.Path(tempfile.mkdtemp()) / "code.marshal")
>>> code = table.compiled("x + 1", "<string>", "eval")
>>> eval(code, {"x": 1}), table.added
(2, 1)
>>> table.save()
>>> again = CodeTable(table.path)
>>> again.compiled("x + 1", "<string>", "eval") == code, again.added
(True, 0)
"""

from __future__ import annotations

import builtins
import contextlib
import marshal
import sys
from collections.abc import Iterator
from pathlib import Path
from types import CodeType, ModuleType
from typing import Any

from .cache import cache_dir, cache_enabled, write_atomically

__all__ = ["LIMIT", "CodeTable", "installed"]

#: Entries past which a table written back keeps only those its process used.
LIMIT = 20_000

_Key = tuple[str, str, str]


class CodeTable:
    """Code objects by (source text, file name, mode), read from and written to ``path``."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.used: set[_Key] = set()
        self.added = 0  # entries this process compiled
        self._saved = 0  # of which written back
        self._code: dict[_Key, CodeType] | None = None

    @property
    def code(self) -> dict[_Key, CodeType]:
        """The table, read from its file when first asked for (a command that compiles
        nothing reads nothing)."""
        if self._code is None:
            self._code = {}
            with contextlib.suppress(OSError, ValueError, EOFError, TypeError):
                found = marshal.loads(self.path.read_bytes())
                if isinstance(found, dict):
                    self._code = found
        return self._code

    def __len__(self) -> int:
        return len(self.code)

    def compiled(self, source: str, filename: str, mode: str) -> CodeType:
        """``compile(source, filename, mode)`` as a module without ``__future__`` imports
        calls it, from the table when there."""
        key = (source, filename, mode)
        self.used.add(key)
        code = self.code.get(key)
        if type(code) is not CodeType:
            code = builtins.compile(source, filename, mode, dont_inherit=True)
            self.code[key] = code
            self.added += 1
        return code

    def save(self) -> None:
        """Write the table back (atomically) if this process added to it."""
        if self.added == self._saved:
            return
        keep = self.code if len(self.code) <= LIMIT else \
            {k: c for k, c in self.code.items() if k in self.used}
        data = marshal.dumps(keep)
        with contextlib.suppress(OSError):
            write_atomically(self.path, lambda p: p.write_bytes(data),
                             f"code-{sys.implementation.cache_tag}-*.marshal")
        self._saved = self.added


def _table_path() -> Path:
    from importlib.util import MAGIC_NUMBER

    tag = sys.implementation.cache_tag
    return cache_dir() / f"code-{tag}-{MAGIC_NUMBER.hex()}-O{sys.flags.optimize}.marshal"


def _patches(table: CodeTable) -> dict[str, tuple[str, Any]]:
    """Module name -> (the built-in's name, its stand-in) for the four modules."""

    def exec_(source: Any, /, *args: Any, **kwargs: Any) -> None:
        if isinstance(source, str):
            source = table.compiled(source, "<string>", "exec")
        builtins.exec(source, *args, **kwargs)

    def compile_(source: Any, filename: Any, mode: str, *args: Any, **kwargs: Any) -> Any:
        if isinstance(source, str) and isinstance(filename, str) and not args and not kwargs:
            return table.compiled(source, filename, mode)
        return builtins.compile(source, filename, mode, *args, **kwargs)

    def eval_(source: Any, /, *args: Any, **kwargs: Any) -> Any:
        if isinstance(source, str):  # as the built-in: leading spaces and tabs dropped
            source = table.compiled(source.lstrip(" \t"), "<string>", "eval")
        return builtins.eval(source, *args, **kwargs)

    return {"dataclasses": ("exec", exec_), "typing": ("compile", compile_),
            "inspect": ("eval", eval_), "collections": ("eval", eval_)}


def _plain(module: ModuleType, name: str) -> bool:
    """The module finds ``name`` among the built-ins and compiles with no ``__future__``
    flags (which the stand-in could not know): only then is it given one."""
    import __future__

    return name not in vars(module) and not any(
        isinstance(v, __future__._Feature) for v in vars(module).values())


@contextlib.contextmanager
def installed() -> Iterator[CodeTable | None]:
    """The four modules compile through the table on disk for the block (nothing when
    the cache is off); the table is written back, and the built-ins given back, after."""
    if not cache_enabled():
        yield None
        return
    import collections
    import dataclasses
    import inspect
    import typing

    table = CodeTable(_table_path())
    modules = {"dataclasses": dataclasses, "typing": typing, "inspect": inspect,
               "collections": collections}
    given = []
    for module_name, (name, stand_in) in _patches(table).items():
        module = modules[module_name]
        if _plain(module, name):
            setattr(module, name, stand_in)
            given.append((module, name))
    try:
        yield table
    finally:
        for module, name in given:
            delattr(module, name)
        table.save()
