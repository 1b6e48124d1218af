"""Bad input on the command line: one line on stderr, exit code 2.

Every ``tactica`` command runs under ``OneLineGroup`` (the typer group class of the app):
a usage error (an unknown option, a value out of range, an extra argument) prints
``error: Invalid value for '--models': ...`` without the usage block; the project's own
errors and pydantic's ``ValidationError`` (a scenario field, a list line, a catalogue
record) print ``error: PLACE: problem`` (``tactica.errors.one_line``). User and data
text is printed as plain text, never as rich markup.
"""

from __future__ import annotations

import ast
import importlib
import re
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

import typer
from rich.console import Console
from typer.core import TyperGroup

from ..service import one_line

__all__ = ["EXIT_BAD_INPUT", "OneLineGroup", "fail"]

#: Exit code for input that is refused (click's usage-error code).
EXIT_BAD_INPUT = 2

#: click's exception classes, as typer raises them (recent typer versions bundle click):
#: found from ``typer.BadParameter`` so that both layouts work.
_click: Any = importlib.import_module(typer.BadParameter.__module__)
_NO_ARGS: Any = getattr(_click, "NoArgsIsHelpError", ())

#: What a flag that takes no value may be followed by by mistake ("--charged yes").
FLAG_WORDS = frozenset({"yes", "no", "true", "false", "on", "off", "y", "n", "1", "0"})


def fail(message: str) -> NoReturn:
    """Print ``error: message`` (as plain text) on stderr and exit with code 2."""
    Console(stderr=True, highlight=False, soft_wrap=True).print(
        f"error: {' '.join(message.split())}", markup=False)
    raise typer.Exit(EXIT_BAD_INPUT)


#: click's sentence for a word that is not a command of a group.
_NO_SUCH_COMMAND = re.compile(r"No such command (?P<name>'.*'|\".*\")\.")

def _not_a_command(exc: Any, text: str) -> str:
    """A file where a command was expected (``tactica list FILE``: the subcommand
    forgotten; ``tactica FILE``): what to type instead. Another word that is no command of
    ``tactica list`` (which click has no close name for): the commands there are."""
    found = _NO_SUCH_COMMAND.match(text)
    ctx = getattr(exc, "ctx", None)
    if found is None or ctx is None:
        return text
    name = ast.literal_eval(found["name"])
    commands = list(ctx.command.list_commands(ctx))
    quoted = shlex.quote(name)
    is_file = Path(name).is_file()
    if not is_file and "Did you mean" in text:  # click's close name
        return text
    if "show" in commands:  # tactica list ...
        if not is_file:
            return f"{text} (commands: {', '.join(commands)})"
        return (f"{name} is a file, not a command: to read the list, type tactica list show "
                f"{quoted} (or price, validate, convert --to FORMAT)")
    if is_file and "calc" in commands and "list" in commands:  # tactica FILE
        return (f"{name} is a file, not a command: to read it, type tactica calc {quoted} "
                f"(a scenario) or tactica list show {quoted} (an army list)")
    return text


def _usage_line(exc: Any) -> str:
    text = str(exc.format_message()).replace("Value error, ", "")
    text = _not_a_command(exc, text)
    extra = getattr(exc, "message", "")
    if "unexpected extra argument" in text.lower():
        words = extra.rsplit("(", 1)[-1].rstrip(")").split()
        if words and all(w.casefold() in FLAG_WORDS for w in words):
            text += " (flags such as --charged take no value: remove " + \
                ", ".join(repr(w) for w in words) + ")"
    return text


def _os_line(exc: BaseException) -> str | None:
    """An error of the system on a file (a folder missing, a file where a folder was
    wanted) as ``FILE: reason``, without its ``[Errno N]``."""
    if isinstance(exc, OSError) and exc.filename is not None and exc.strerror:
        return f"{exc.filename}: {exc.strerror}"
    return None


class OneLineGroup(TyperGroup):
    """The app's command group: its errors are one line (module text)."""

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             windows_expand_args: bool = True, **extra: Any) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, windows_expand_args,
                                **extra)
        err = Console(stderr=True, highlight=False, soft_wrap=True)
        try:
            code = super().main(args, prog_name, complete_var, False, windows_expand_args,
                                **extra)
        except _NO_ARGS as exc:
            exc.show()
            sys.exit(exc.exit_code)
        except _click.UsageError as exc:
            err.print(f"error: {_usage_line(exc)}", markup=False)
            sys.exit(EXIT_BAD_INPUT)
        except _click.ClickException as exc:
            err.print(f"error: {exc.format_message()}", markup=False)
            sys.exit(exc.exit_code)
        except typer.Abort:
            err.print("aborted", markup=False)
            sys.exit(1)
        except (ValueError, LookupError, OSError) as exc:  # the project's errors, pydantic's
            err.print(f"error: {_os_line(exc) or one_line(exc)}", markup=False)
            sys.exit(EXIT_BAD_INPUT)
        sys.exit(code if isinstance(code, int) else 0)


#: Commands loaded when used: name -> (module, attribute: a command function or a
#: ``typer.Typer`` group, its one-line help). ``tactica --help`` lists them from here
#: without importing them (so it starts quickly); ``tactica.cli`` fills it.
LAZY: dict[str, tuple[str, str, str]] = {}


class LazyGroup(OneLineGroup):
    """``OneLineGroup`` whose ``LAZY`` commands are imported when one is run (or its own
    help asked for); the group's help lists them by their one-line help."""

    def list_commands(self, ctx: Any) -> list[str]:
        return [*super().list_commands(ctx), *(n for n in LAZY if n not in self.commands)]

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        found = super().get_command(ctx, cmd_name)
        if found is not None or cmd_name not in LAZY:
            return found
        # for the group's help: a stand-in with the one-line help, nothing imported
        from typer.core import TyperCommand

        return TyperCommand(cmd_name, help=LAZY[cmd_name][2], callback=None)

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        name, cmd, rest = super().resolve_command(ctx, args)
        if name in LAZY and name not in self.commands:
            cmd = self._load(name)
        return name, cmd, rest

    def _load(self, name: str) -> Any:
        import typer.main

        from ..service import start_up_done

        module, attribute, _ = LAZY[name]
        found = getattr(importlib.import_module(module), attribute)
        start_up_done()  # the collector resumes (paused by the console script)
        if isinstance(found, typer.Typer):  # a group, even of one command
            command: Any = typer.main.get_group(found)
        else:
            single = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
            single.command(name)(found)
            command = typer.main.get_command(single)
        command.name = name
        self.add_command(command, name)
        return command
