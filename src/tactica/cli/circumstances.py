"""The calculator's circumstance options, made from the scenario contract.

``with_circumstances`` adds one option per field of the contract's ``Context`` (through the
service's ``circumstances``) to a command: its flag, type, bounds and help text are the
contract's, so a field added there is an option here with nothing copied by hand
(issue 46). The command receives them as keyword arguments under the fields' names;
``context_of`` gathers them.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable
from typing import Annotated, Any, Literal, TypeVar

import typer

from ..service import Circumstance, circumstances

__all__ = ["circumstance_options", "context_of", "with_circumstances"]

F = TypeVar("F", bound=Callable[..., Any])


def _option(c: Circumstance) -> tuple[Any, Any]:
    """The annotation (type and ``typer.Option``) and the default of ``c``'s option."""
    text = c.help
    if c.kind == "flag":
        return Annotated[bool, typer.Option(c.flag, help=text)], False
    if c.kind == "either":
        off = "--no-" + c.flag.removeprefix("--")
        return Annotated[bool | None, typer.Option(f"{c.flag}/{off}", help=text)], None
    if c.kind in ("number", "whole"):
        kind: Any = float if c.kind == "number" else int
        return Annotated[kind | None, typer.Option(
            c.flag, min=c.minimum, max=c.maximum, help=text)], None
    if c.kind == "choice":
        choice: Any = Literal[c.choices]
        default = c.default
        return Annotated[choice | None, typer.Option(c.flag, help=text)], default
    if c.kind == "names":
        return Annotated[list[str] | None, typer.Option(c.flag, help=text + " (repeat)")], None
    return Annotated[str | None, typer.Option(c.flag, help=text)], None


def circumstance_options(fields: Iterable[Circumstance], skip: Iterable[str] = ()
                         ) -> list[inspect.Parameter]:
    """The options of ``fields`` not in ``skip`` (those the command takes its own way),
    as keyword parameters named as the fields."""
    out = []
    for c in fields:
        if c.name in skip:
            continue
        annotation, default = _option(c)
        out.append(inspect.Parameter(c.name, inspect.Parameter.KEYWORD_ONLY,
                                     annotation=annotation, default=default))
    return out


def with_circumstances(skip: Iterable[str] = (),
                       fields: Iterable[Circumstance] | None = None) -> Callable[[F], F]:
    """Add the contract's circumstances (or ``fields``) as options of a command whose
    function takes ``**circumstances``; ``skip``: fields the command sets another way."""
    def add(fn: F) -> F:
        signature = inspect.signature(fn, eval_str=True)
        own = [p for p in signature.parameters.values()
               if p.kind is not inspect.Parameter.VAR_KEYWORD]
        more = circumstance_options(circumstances() if fields is None else fields, skip)
        fn.__signature__ = signature.replace(  # type: ignore[attr-defined]
            parameters=[*own, *more])
        fn.__annotations__ = {**{p.name: p.annotation for p in own},
                              **{p.name: p.annotation for p in more}, "return": None}
        return fn
    return add


def context_of(values: dict[str, Any]) -> dict[str, Any]:
    """The circumstances given (the options at their defaults left out), by field."""
    known = {c.name: c for c in circumstances()}
    return {name: tuple(v) if isinstance(v, list) else v for name, v in values.items()
            if name in known and v is not None and v != known[name].default
            and v != []}
