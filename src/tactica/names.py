"""Name normalisation and "did you mean" suggestions for library look-ups.

Names are compared case-, accent- and punctuation-insensitively (the library brief:
"Name look-up is case-, accent- and punctuation-insensitive and suggests close names when
nothing matches").

>>> normalise("  Death-Riders ")
'death riders'
>>> normalise("Prímus"), normalise("VENGEANCE FOR THE MARTYR!")
('primus', 'vengeance for the martyr')
>>> name_key("C’tan Shard of the Nightbringer") == name_key("ctan shard of the nightbringer")
True
>>> suggest("Primsu", ["Primus", "Banehammer", "Death Riders"])
('Primus',)
>>> raise UnknownNameError("unit", "Primsu", ("Primus",))
Traceback (most recent call last):
...
UnknownNameError: no unit named 'Primsu'; did you mean: Primus?
"""

from __future__ import annotations

import difflib
import functools
import unicodedata
from collections.abc import Iterable

__all__ = ["UnknownNameError", "name_key", "normalise", "suggest"]

#: Apostrophes vanish ("C'tan" -> "ctan"); every other punctuation mark separates words.
_APOSTROPHES = frozenset("'’‘`´ʼ")
#: ``normalise`` of one ASCII character (which NFKD leaves as it is and which is never
#: combining): an apostrophe vanishes, punctuation, symbols, separators and control
#: characters become a space, the rest stay.
_ASCII = {c: None if chr(c) in _APOSTROPHES else " "
          for c in range(128) if chr(c) in _APOSTROPHES
          or unicodedata.category(chr(c))[0] in "PSZC"}


@functools.lru_cache(maxsize=1 << 16)
def normalise(name: str) -> str:
    """Casefold, strip accents, turn punctuation (curly quotes and dashes included) into
    spaces, drop apostrophes, and collapse runs of spaces.

    >>> normalise("Grenade launcher – frag")
    'grenade launcher frag'
    >>> normalise("Gene-sire’s  Reliquant")
    'gene sires reliquant'
    >>> normalise("“Straße”")
    'strasse'
    """
    if name.isascii():  # most names: the same answer by one table (``_ASCII``)
        return " ".join(name.casefold().translate(_ASCII).split())
    return _normalise_any(name)


def _normalise_any(name: str) -> str:
    """``normalise`` of any text, character by character."""
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    out: list[str] = []
    for ch in decomposed:
        if unicodedata.combining(ch):
            continue
        if ch in _APOSTROPHES:
            continue
        category = unicodedata.category(ch)
        if category[0] in "PSZC":  # punctuation, symbols, separators, control characters
            out.append(" ")
        else:
            out.append(ch)
    return " ".join("".join(out).split())


@functools.lru_cache(maxsize=1 << 16)
def name_key(name: str) -> str:
    """The look-up key: ``normalise`` without spaces, so "deathriders" finds
    "Death Riders" too.

    >>> name_key("Death Riders") == name_key("death-riders") == name_key("DEATHRIDERS")
    True
    """
    return normalise(name).replace(" ", "")


def suggest(name: str, candidates: Iterable[str], n: int = 3) -> tuple[str, ...]:
    """Up to ``n`` candidates close to ``name`` (difflib ratio on normalised names, after
    candidates that start with or contain what was typed), best first, in their own
    spelling.

    >>> suggest("death", ["Primus", "Death Riders", "Deadly Demise"])
    ('Death Riders',)
    >>> suggest("zzzz", ["Primus"])
    ()
    """
    if n < 1:
        return ()
    by_key: dict[str, str] = {}
    for candidate in candidates:
        by_key.setdefault(normalise(candidate), candidate)
    query = normalise(name)
    if not query:
        return ()
    ranked: list[str] = [k for k in by_key if k.startswith(query)]
    ranked += [k for k in by_key if query in k and k not in ranked]
    ranked += [
        k
        for k in difflib.get_close_matches(query, list(by_key), n=n, cutoff=0.6)
        if k not in ranked
    ]
    return tuple(by_key[k] for k in ranked[:n])


class UnknownNameError(LookupError):
    """Nothing in the library has this name. ``kind`` says what was looked for ("unit",
    "rule", "target"); ``suggestions`` holds close names, best first."""

    def __init__(self, kind: str, name: str, suggestions: Iterable[str] = ()) -> None:
        self.kind = kind
        self.name = name
        self.suggestions = tuple(suggestions)
        message = f"no {kind} named {name!r}"
        if self.suggestions:
            message += f"; did you mean: {', '.join(self.suggestions)}?"
        super().__init__(message)
