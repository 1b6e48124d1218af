"""Bounds on what comes in, checked at the boundary before any work: JSON nested no
deeper than ``MAX_DEPTH`` (checked on the text, before it is decoded: Python's decoder
recurses once per level and a few thousand ``[`` would end in a ``RecursionError``),
and text without lone surrogates (they cannot be written out as UTF-8: a name holding
one would break the JSON of the result) or control characters.

>>> loads('{"a": [1, 2, {"b": "[[[["}]}')
{'a': [1, 2, {'b': '[[[['}]}
>>> loads("[" * 100 + "]" * 100)
Traceback (most recent call last):
...
tactica.inputs.InputError: document: nested deeper than 64 levels (JSON arrays and objects)
>>> clean_text("Bolt rifle")
'Bolt rifle'
>>> clean_text("Bolt\\x00rifle")
Traceback (most recent call last):
...
ValueError: text holds a control character (U+0000) at character 5; plain text only
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

__all__ = ["MAX_DEPTH", "InputError", "check_depth", "checked_texts", "clean_text", "loads",
           "no_surrogates", "printable", "surrogates_in"]

#: JSON arrays and objects nested deeper than this are refused (a scenario or a list
#: file needs some 10; pydantic's own JSON reader stops at 200).
MAX_DEPTH = 64

#: A JSON string (its escapes included), to be skipped when counting brackets.
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = re.compile(r"[\[\]{}]")
#: Lone surrogates and control characters (C0, DEL, C1) but tab, line feed and return.
_BAD = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")
_SURROGATE = re.compile("[\ud800-\udfff]")


class InputError(ValueError):
    """Input refused at the boundary (too deeply nested, text that is not plain)."""


def check_depth(text: str | bytes, place: str = "document", limit: int = MAX_DEPTH) -> None:
    """Refuse ``text`` (JSON) whose arrays and objects nest deeper than ``limit``,
    counting the brackets outside its strings (before decoding it)."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    if text.count("[") + text.count("{") <= limit:
        return  # cannot nest that deep (the common case: no scan)
    depth = 0
    for m in _BRACKETS.finditer(_STRING.sub("", text)):
        if m.group() in "[{":
            depth += 1
            if depth > limit:
                raise InputError(f"{place}: nested deeper than {limit} levels (JSON "
                                 "arrays and objects)")
        else:
            depth -= 1


def loads(text: str | bytes, place: str = "document") -> Any:
    """``json.loads`` of ``text`` once its nesting is checked (``check_depth``); raises
    ``InputError`` or ``json.JSONDecodeError`` (both ``ValueError``)."""
    check_depth(text, place)
    return json.loads(text)


def clean_text(value: str) -> str:
    """``value`` when it is plain text: no lone surrogate, no control character but
    tab and line breaks; else ``ValueError`` naming the character and where it is."""
    m = _BAD.search(value)
    if m is None:
        return value
    ch = m.group()
    what = "a lone surrogate" if "\ud800" <= ch <= "\udfff" else "a control character"
    raise ValueError(f"text holds {what} (U+{ord(ch):04X}) at character {m.start() + 1}; "
                     "plain text only")


def no_surrogates(value: str) -> str:
    """``value`` when it holds no lone surrogate (it can be written out as UTF-8); else
    ``ValueError`` (a list's names: its other characters are the file's own)."""
    m = _SURROGATE.search(value)
    if m is None:
        return value
    raise ValueError(f"text holds a lone surrogate (U+{ord(m.group()):04X}) at character "
                     f"{m.start() + 1}; plain text only")


def surrogates_in(value: Any, place: str = "") -> None:
    """Refuse (``InputError``) a decoded JSON ``value`` with a lone surrogate in any of
    its texts or keys, naming where it is from ``place`` (``name``, ``units[2].name``).

    >>> try:
    ...     surrogates_in({"units": ["Boyz", {"name": "Nob\\ud800"}]})
    ... except InputError as exc:
    ...     print(exc)
    units[1].name: text holds a lone surrogate (U+D800) at character 4; plain text only
    """
    if isinstance(value, str):
        try:
            no_surrogates(value)
        except ValueError as exc:
            raise InputError(f"{place or 'text'}: {exc}") from None
    elif isinstance(value, dict):
        for key, item in value.items():
            inner = printable(f"{place}.{key}" if place else str(key))
            surrogates_in(key, inner)
            surrogates_in(item, inner)
    elif isinstance(value, list | tuple):
        for i, item in enumerate(value):
            surrogates_in(item, f"{place}[{i}]")


def checked_texts(value: Any, check: Callable[[str], str]) -> Any:
    """A model field's ``value`` after ``check`` (``clean_text`` or ``no_surrogates``)
    passed it: a text, or each text in a tuple; anything else as it is. The one field
    validator of the models that take text from outside.

    >>> checked_texts(("Boyz", 3), clean_text)
    ('Boyz', 3)
    """
    if isinstance(value, str):
        return check(value)
    if isinstance(value, tuple):
        for item in value:
            if isinstance(item, str):
                check(item)
    return value


def printable(text: str) -> str:
    """``text`` with its lone surrogates and control characters written as escapes
    (``\\ud800``): a message quoting the input can always be printed and sent.

    >>> printable("Boyz\\ud800\\x07")
    'Boyz\\\\ud800\\\\x07'
    """
    return _BAD.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)
