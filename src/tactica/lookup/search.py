"""Finding a unit from what a player types: its name, or words of its keywords and
faction, misspelt or in the plural, ranked as every "did you mean" is ranked
(``tactica.names.rank``: the plain name first, "Intercessors" finding Intercessor Squad
before Assault Intercessors with Jump Packs).

>>> from tactica.library import load_seed_library
>>> [f.sheet.name for f in search_units("primsu", load_seed_library())]
['Primus']
>>> [(f.sheet.name, f.matched) for f in search_units("character", load_seed_library())]
[('Primus', 'keywords')]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from ..names import Query, name_key, normalise, rank

if TYPE_CHECKING:
    from ..index import Library
    from ..model.datasheet import Datasheet
    from .entries import Rules

__all__ = ["Found", "search_units"]


@dataclass(frozen=True)
class Found:
    """A unit found, and by what: its name, or its keywords and faction keywords (every
    word typed is one of them)."""

    sheet: Datasheet
    matched: Literal["name", "keywords"]


def _words(sheet: Datasheet) -> list[str]:
    return [w for k in (*sheet.keywords, *sheet.faction_keywords) for w in normalise(k).split()]


def search_units(query: str, library: Library | None = None, faction: str | None = None,
                 keyword: str | None = None, rules: Rules | None = None
                 ) -> tuple[Found, ...]:
    """The units ``query`` finds, best first: those whose name holds every word of it
    (ranked by ``rank``), then those whose keywords and faction keywords hold every word
    of it (in the library's order), then the names it matches in part (``rank``). Each name
    once: the ``rules`` edition's datasheet, else the 11th's where the library has both.
    ``faction`` and ``keyword`` narrow the search as ``find_units`` does (and are refused
    the same way, with close names, when no unit has them)."""
    from . import find_units

    by_name: dict[str, Datasheet] = {}
    for sheet in sorted(find_units(library, faction, keyword, rules),
                        key=lambda d: d.rules != "11th"):
        by_name.setdefault(name_key(sheet.name), sheet)
    typed = Query(query)
    names = rank(query, [d.name for d in by_name.values()])
    whole = [n for n in names if _whole(typed, n)]
    found = [Found(by_name[name_key(n)], "name") for n in whole]
    named = {name_key(n) for n in names}
    found += [Found(sheet, "keywords") for key, sheet in by_name.items()
              if key not in named and typed.finds_every(_words(sheet))]
    found += [Found(by_name[name_key(n)], "name") for n in names if n not in whole]
    return tuple(found)


def _whole(typed: Query, name: str) -> bool:
    """Whether ``name`` holds everything typed (each word, or the whole without spaces)."""
    return typed.key in name_key(name) or typed.finds_every(normalise(name).split())
