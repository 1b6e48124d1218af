"""Bad input in one line: a pydantic ``ValidationError`` (or any of the project's own
errors) as ``PLACE: what is wrong``, the place being the field path of the document.

pydantic's own message is several lines and ends with a documentation URL; a player needs
the field and what it allows. ``one_line`` keeps the first problem (and says how many more
there are):

>>> from pydantic import BaseModel, ConfigDict, Field
>>> class W(BaseModel):
...     model_config = ConfigDict(extra="forbid")
...     count: int = Field(ge=1)
>>> class S(BaseModel):
...     weapons: list[W]
>>> try:
...     S.model_validate({"weapons": [{"count": 1}, {"count": 0, "cuont": 2}]})
... except ValueError as exc:
...     print(one_line(exc))
weapons[1].count: Input should be greater than or equal to 1 (and 1 more problem)
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from .inputs import printable

__all__ = ["DocumentError", "MissingExtraError", "ScenarioError", "error_words", "field_parts",
           "field_path", "needs_extra", "one_line", "refusing_documents"]

#: Longest quoted user text in a message (a pasted list or scenario may be huge).
_QUOTE = 80


def field_parts(loc: Sequence[int | str]) -> list[int | str]:
    """A validation error's ``loc`` without pydantic's union-member tags
    (``function-after[...]``, a class name, the ``plain``/``unit`` member of a side):
    the fields of the document as its writer wrote them.

    >>> field_parts(("body", "effects", 0, "function-after[_one_kind(), Effect]", "name"))
    ['body', 'effects', 0, 'name']
    """
    out: list[int | str] = []
    for i, part in enumerate(loc):
        if i and loc[i - 1] in ("attacker", "target") and part in ("plain", "unit"):
            continue  # the union member (a plain side or a library unit), not a field
        if isinstance(part, str) and ("[" in part or (
                part[:1].isupper() and part not in ("A", "S", "AP", "D", "T", "W", "Sv",
                                                    "OC", "M"))):
            continue  # a union member's tag, not a field of the document
        out.append(part)
    return out


def field_path(loc: Sequence[int | str]) -> str:
    """``("weapons", 1, "count")`` -> ``weapons[1].count``; pydantic's union-member tags
    (``field_parts``) are left out."""
    out = ""
    for part in field_parts(loc):
        out += f"[{part}]" if isinstance(part, int) else f".{part}" if out else part
    return out or "document"


#: pydantic's type messages in the player's words ("Input should be a valid integer,
#: unable to parse string as an integer" -> "should be a whole number").
_TYPE_WORDS = {"integer": "a whole number", "number": "a number", "boolean": "true or false",
               "string": "text", "list": "a list", "dictionary": "an object ({...})",
               "array": "a list", "tuple": "a list"}


def error_words(error: Any) -> str:
    """A pydantic error's message in the player's words (``should be a whole number``,
    ``unknown field (check its spelling)``), the same at every door."""
    msg = str(error.get("msg", "invalid"))
    msg = msg.removeprefix("Value error, ").removeprefix("Assertion failed, ")
    if msg.startswith("Input should be a valid "):
        kind = msg.removeprefix("Input should be a valid ").split(",")[0].split()[0]
        if kind in _TYPE_WORDS:
            msg = f"should be {_TYPE_WORDS[kind]}"
    if error.get("type") == "extra_forbidden":
        msg = "unknown field (check its spelling)"
    return " ".join(msg.split())


def one_line(exc: BaseException) -> str:
    """One line for ``exc``: a ``ValidationError`` as ``path: problem``, any other error
    as its message with line breaks folded."""
    # pydantic is imported only where it is used (``tactica --help`` starts without it):
    # an exception cannot be its ValidationError unless it was imported already
    core = sys.modules.get("pydantic_core")
    if core is not None and isinstance(exc, core.ValidationError):
        errors = exc.errors(include_url=False)
        if not errors:
            return "invalid input"
        first = errors[0]
        text = printable(f"{field_path(first.get('loc', ()))}: {error_words(first)}")
        more = len({field_path(e.get("loc", ())) for e in errors[1:]}
                   - {field_path(first.get("loc", ()))})
        if more:
            text += f" (and {more} more problem{'s' if more > 1 else ''})"
        return text
    text = printable(" ".join(str(exc).split()))
    return text if len(text) < 600 else text[:600] + "…"


def quote(text: str) -> str:
    """``text`` quoted for a message, cut to a readable length."""
    return repr(text if len(text) <= _QUOTE else text[:_QUOTE] + "…")


class MissingExtraError(LookupError):
    """A door whose optional stack (an extra of the package) is not installed."""


@contextmanager
def needs_extra(extra: str, what: str, also: Sequence[str] = ()) -> Iterator[None]:
    """Import a door's stack inside this block: a package missing from it is refused in one
    line naming the extra to install (``pip install "tactica[web]"``).

    >>> import sys
    >>> sys.modules["no_such_stack"] = None  # type: ignore[assignment]
    >>> with needs_extra("web", "tactica serve"):
    ...     import no_such_stack
    Traceback (most recent call last):
    tactica.errors.MissingExtraError: tactica serve needs the web extra: pip install "tactica[web]"

    A module of tactica's own that is missing is a bug, not an extra: it is raised as is.
    ``also`` names the extra's packages imported later, where they are used: each is looked
    for here (not imported), so a partial install is refused at once too.
    """
    import importlib.util

    message = f'{what} needs the {extra} extra: pip install "tactica[{extra}]"'
    if any(importlib.util.find_spec(name) is None for name in also):
        raise MissingExtraError(message)
    try:
        yield
    except ModuleNotFoundError as exc:
        top = (exc.name or "").partition(".")[0]
        if top in ("", "tactica"):
            raise
        raise MissingExtraError(message) from None


class ScenarioError(ValueError):
    """A scenario the engine cannot compute; the message names the field. The base of
    every refusal of a request to compute (``DocumentError``, ``units.resolve.UnitError``),
    so that ``except tactica.ScenarioError`` catches whatever ``tactica.calculate`` refuses,
    as ``tactica.calculate_many`` returns it."""


class DocumentError(ScenarioError):
    """A document (a scenario, a turn) that its contract refuses, in one line naming the
    field (``loc``: the first problem's place, ``"document"`` for the whole)."""

    def __init__(self, message: str, loc: str = "document") -> None:
        super().__init__(message)
        self.loc = loc


@contextmanager
def refusing_documents() -> Iterator[None]:
    """pydantic's ``ValidationError`` raised inside as tactica's own ``DocumentError``,
    one line (``one_line``): what ``tactica.calculate`` raises for a bad document.

    >>> from pydantic import BaseModel
    >>> class Doc(BaseModel):
    ...     count: int
    >>> with refusing_documents():
    ...     Doc.model_validate({"count": "many"})
    Traceback (most recent call last):
    tactica.errors.DocumentError: count: should be a whole number
    """
    try:
        yield
    except ValueError as exc:
        core = sys.modules.get("pydantic_core")
        if core is None or not isinstance(exc, core.ValidationError):
            raise
        errors = exc.errors(include_url=False)
        loc = field_path(errors[0].get("loc", ())) if errors else "document"
        raise DocumentError(one_line(exc), loc) from None
