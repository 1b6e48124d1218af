"""The circumstances of an attack as the doors offer them, read from the contract.

Each field of ``Context`` (the scenario's circumstances) becomes one ``Circumstance``: its
name, its kind (a flag, a number, a choice, names), bounds, help text and the words the
doors show (``scenario._said``). The CLI's options, the page's controls and the
assistant's arguments are made from this list, so a field added to the contract appears in
every door (issue 46) and none is copied by hand.

>>> cover = next(c for c in circumstances() if c.name == "cover")
>>> cover.kind, cover.flag, cover.when, cover.unless
('flag', '--cover', 'target in cover', 'not in cover')
>>> distance = next(c for c in circumstances() if c.name == "distance")
>>> distance.kind, distance.minimum, distance.maximum
('number', 0, 200)
"""

from __future__ import annotations

import functools
import types
import typing
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel
from pydantic.fields import FieldInfo

from .scenario import Context, Said

__all__ = ["Circumstance", "CircumstanceKind", "circumstances", "circumstances_table",
           "context_words"]

CircumstanceKind = Literal["flag", "either", "number", "whole", "choice", "text", "names"]


@dataclass(frozen=True)
class Circumstance:
    """One circumstance of the contract, as every door offers it.

    ``kind``: ``flag`` (true or false), ``either`` (true, false or unset), ``number``
    (a decimal), ``whole`` (an integer), ``choice`` (one of ``choices``), ``text`` or
    ``names`` (several texts). ``choice_words``: the words of each choice, ``""`` for
    unset."""

    name: str
    kind: CircumstanceKind
    help: str
    label: str
    words: str
    default: Any
    flag: str
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[str, ...] = ()
    when: str | None = None
    unless: str | None = None
    choice_words: tuple[tuple[str, str], ...] = ()


def _bound(info: FieldInfo, name: str) -> float | None:
    for m in info.metadata:
        value = getattr(m, name, None)
        if value is not None:
            return float(value) if not isinstance(value, int) else value
    return None


def _kind(annotation: Any) -> tuple[CircumstanceKind, tuple[str, ...]]:
    """The kind of a field's type (``X | None`` as ``X``, ``bool | None`` as either)."""
    args = typing.get_args(annotation)
    optional = isinstance(annotation, types.UnionType) or typing.get_origin(
        annotation) is typing.Union
    if optional:
        inner = [a for a in args if a is not type(None)]
        annotation = inner[0]
        if annotation is bool:
            return "either", ()
    origin = typing.get_origin(annotation)
    if annotation is bool:
        return "flag", ()
    if annotation is int:
        return "whole", ()
    if annotation is float:
        return "number", ()
    if origin is Literal:
        return "choice", tuple(str(a) for a in typing.get_args(annotation))
    if origin is tuple:
        return "names", ()
    if annotation is str:
        return "text", ()
    raise TypeError(f"a circumstance of an unknown type: {annotation!r}")


def _circumstance(name: str, info: FieldInfo) -> Circumstance:
    extra = info.json_schema_extra
    said = extra if isinstance(extra, Said) else Said(name.replace("_", " ").capitalize(),
                                                      name.replace("_", " "))
    kind, choices = _kind(info.annotation)
    return Circumstance(
        name=name, kind=kind, help=info.description or said.words, label=said.label,
        words=said.words, default=info.get_default(call_default_factory=True),
        flag="--" + (said.short or name.replace("_", "-")),
        minimum=_bound(info, "ge"), maximum=_bound(info, "le"), choices=choices,
        when=said.when, unless=said.unless, choice_words=said.choices)


@functools.cache
def circumstances(model: type[BaseModel] = Context) -> tuple[Circumstance, ...]:
    """Every field of ``model`` (the contract's ``Context``, or a copy of it with more
    fields) as a ``Circumstance``, in the contract's order."""
    return tuple(_circumstance(name, info) for name, info in model.model_fields.items())


def context_words() -> dict[str, str]:
    """What each circumstance is called in a sentence ("the target in cover")."""
    return {c.name: c.words for c in circumstances()}


_KIND_WORDS = {"flag": "true/false", "either": "true/false/unset", "number": "number",
               "whole": "integer", "choice": "one of", "text": "text", "names": "names"}


def circumstances_table() -> str:
    """The circumstances as a Markdown table (``docs/scenario.md`` holds it: a test
    compares): field, ``tactica calc`` flag, type, what it means."""
    rows = ["| field | `tactica calc` | type | what it means |", "|---|---|---|---|"]
    for c in circumstances():
        kind = _KIND_WORDS[c.kind]
        if c.choices:
            kind += " " + ", ".join(f'"{v}"' for v in c.choices)
        if c.minimum is not None or c.maximum is not None:
            kind += f" {c.minimum} to {c.maximum}"
        rows.append(f"| `{c.name}` | `{c.flag}` | {kind} | {c.help.replace('|', '/')} |")
    return "\n".join(rows)
