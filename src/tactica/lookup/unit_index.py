"""The library's units on disk, so that ``tactica units [--faction F] [--rules V]`` reads
one small file instead of loading the library (issue 40: a look-up within 0.3 s of CPU;
converting and merging every faction's datasheets costs a second or more).

``configured_unit_index()`` is the index of the sources the command line is set to
(``tactica.source_choice``), one JSON file in tactica's cache folder (named for the code
and the sources it was built from, as the index of rules is: ``index_files``), holding
per datasheet, in the library's order (``Library.datasheets``), the cells of its row in the
``tactica units`` table (``unit_cells``: name, faction keywords, rules version, points,
source), its rules version and the look-up keys of the factions it is listed under; and
how a faction's name is read: by the sources' factions and their aliases
(``SourcedLibrary.faction_spellings``) or, for the seed pages alone, by the faction
keywords (``lookup.find_units``). ``unit_rows`` answers from it exactly as ``find_units``
answers from the library (``tests/test_unit_index.py``). The first look-up after a change
builds it (every datasheet converted and merged, once); with the cache off, or a folder
that cannot be written, the look-up loads the library.

The row's texts are made here (``points_text``, ``source_text``), where both the index
and the command line's table (``tactica.cli.render``) read them.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path, PurePath
from typing import TYPE_CHECKING, Any

from tactica.cache_registry import lasting_cache

from ..cache import cache_dir, cache_enabled, write_atomically
from ..names import UnknownNameError, name_key, suggest
from ..source_choice import configured_sources, skip_bad_files
from .index_files import keep_newest, sources_digest

if TYPE_CHECKING:
    from collections.abc import Iterable

    from ..index import Library
    from ..model.common import Source
    from ..model.datasheet import Datasheet, EscalatingPoints, PointsBracket
    from .entries import Rules

__all__ = ["UnitIndex", "build_unit_index", "configured_unit_index", "find_units",
           "keep_unit_index", "ordinal", "points_text", "source_text", "unit_cells",
           "unit_index_path", "unit_rows", "units_missing"]

_PREFIX = "units-"
#: The cells of one row of the ``tactica units`` table.
Cells = tuple[str, str, str, str, str]


def source_text(source: Source) -> str:
    """A source as ``file:line`` with the file's base name (seed pages are read from the
    installed package, whose directory says nothing).

    >>> from tactica.model.common import Source
    >>> source_text(Source(file="/x/tactica/data/seeds/000_0f63.txt", line=550))
    '000_0f63.txt:550'
    """
    name = PurePath(source.file).name or source.file
    return f"{name}:{source.line}" if source.line is not None else name


def ordinal(n: int) -> str:
    """``1`` -> ``"1st"``, ``4`` -> ``"4th"``, ``22`` -> ``"22nd"``.

    >>> [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '23rd']
    """
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _brackets(brackets: Iterable[PointsBracket]) -> str:
    return ", ".join(
        f"{b.models} model{'s' if b.models != 1 else ''}: {b.points} pts" for b in brackets
    )


def points_text(points: tuple[PointsBracket, ...] | EscalatingPoints) -> str:
    """Points in one line; escalating costs (the Tyrannocyte's "YOUR 1ST TO 3RD UNITS
    COST") name the units each tier covers.

    >>> from tactica.model import EscalatingPoints, PointsBracket, PointsTier
    >>> points_text((PointsBracket(models=5, points=70), PointsBracket(models=10, points=140)))
    '5 models: 70 pts, 10 models: 140 pts'
    >>> points_text(EscalatingPoints(tiers=(
    ...     PointsTier(first=1, last=3, brackets=(PointsBracket(models=1, points=80),)),
    ...     PointsTier(first=4, brackets=(PointsBracket(models=1, points=90),)))))
    'units 1st–3rd: 1 model: 80 pts; units 4th+: 1 model: 90 pts'
    """
    if isinstance(points, tuple):
        return _brackets(points) if points else "-"
    parts = []
    for tier in points.tiers:
        if tier.last is None:
            which = f"{ordinal(tier.first)}+"
        elif tier.last == tier.first:
            which = ordinal(tier.first)
        else:
            which = f"{ordinal(tier.first)}–{ordinal(tier.last)}"
        parts.append(f"units {which}: {_brackets(tier.brackets)}")
    return "; ".join(parts)


def unit_cells(sheet: Datasheet) -> Cells:
    """A datasheet's row of the ``tactica units`` table: name, faction keywords, rules
    version, points, source."""
    return (sheet.name, ", ".join(sheet.faction_keywords) or "-", sheet.rules,
            points_text(sheet.points), source_text(sheet.source))


class UnitIndex:
    """The index's data (``build_unit_index``'s JSON), answering as ``find_units``."""

    def __init__(self, data: dict[str, Any]) -> None:
        self._rows: list[list[Any]] = data["rows"]  # [cells, rules, faction keys]
        self._by_keywords: bool = data["by_keywords"]
        self._spellings: dict[str, str] = data["spellings"]
        self._factions: list[str] = data["factions"]
        self.missing: tuple[str, ...] = tuple(data["missing"])

    def rows(self, faction: str | None = None, rules: Rules | None = None) -> list[Cells]:
        """The rows of the units of ``faction`` (every unit without one) in ``rules``
        (both versions without); ``UnknownNameError`` for a faction no source has."""
        key = None if faction is None else self._faction_key(faction)
        found = [tuple(cells) for cells, version, keys in self._rows
                 if (rules is None or version == rules) and (key is None or key in keys)]
        if key is not None and self._by_keywords and not found:
            raise UnknownNameError("faction", str(faction),
                                   suggest(str(faction), self._factions))
        return found

    def _faction_key(self, faction: str) -> str:
        key = name_key(faction)
        if self._by_keywords:
            return key
        found = self._spellings.get(key)
        if found is None:
            raise UnknownNameError("faction", faction, suggest(faction, self._factions))
        return found


def _index_data(library: Library) -> dict[str, Any]:
    """What the index holds for ``library`` (module text): the faction keys of a unit
    whose sources file it under factions are those of ``faction_datasheets`` (the same
    merged datasheets as ``datasheets``: kept by the library)."""
    sheets = library.datasheets()
    spellings: Any = getattr(library, "faction_spellings", None)
    by_faction: Any = getattr(library, "faction_datasheets", None)
    # each datasheet's faction keys, found by the object itself (the library keeps one
    # per unit and version: those of ``datasheets`` are those of ``faction_datasheets``)
    keys: dict[int, list[str]] = {id(s): [] for s in sheets}
    by_keywords = not (callable(spellings) and callable(by_faction))
    if not by_keywords:
        factions = list(library.factions())  # type: ignore[attr-defined, unused-ignore]
        for f in factions:
            for sheet in by_faction(f):
                if id(sheet) in keys and name_key(f) not in keys[id(sheet)]:
                    keys[id(sheet)].append(name_key(f))
        read = {key: name_key(spelled) for key, spelled in spellings().items()}
    else:  # the seed pages alone: by the faction keywords (``find_units``)
        for sheet in sheets:
            keys[id(sheet)] = list(dict.fromkeys(name_key(k) for k in sheet.faction_keywords))
        factions = sorted({k.title() for s in sheets for k in s.faction_keywords})
        read = {}
    return {"rows": [[unit_cells(s), s.rules, keys[id(s)]] for s in sheets],
            "by_keywords": by_keywords, "spellings": read,
            "factions": factions, "missing": list(getattr(library, "missing", ()))}


def unit_index_path(paths: tuple[str, ...], dataset: bool, skip_bad: bool) -> Path:
    """Where the index of the units of these sources is kept (module text)."""
    digest = sources_digest("units index 1", paths, dataset, skip_bad)
    return cache_dir() / f"{_PREFIX}{digest}.json"


def build_unit_index(library: Library, path: Path) -> UnitIndex:
    """The index of ``library``'s units, written to ``path`` (atomically; of the other
    unit index files in that folder the newest few are kept). Raises ``OSError`` when the
    folder cannot be written."""
    data = _index_data(library)
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    write_atomically(path, lambda t: t.write_text(text, encoding="utf-8"), stale=path.name)
    keep_newest(path, f"{_PREFIX}*.json")
    return UnitIndex(data)


def keep_unit_index(library: Library, paths: tuple[str, ...], dataset: bool) -> None:
    """The index of ``library``'s units (of the sources ``paths`` and ``dataset``)
    written when there is none (the index of rules, built from the same library, asks);
    a folder that cannot be written is left as it is."""
    path = unit_index_path(paths, dataset, skip_bad_files())
    if not path.exists():
        with contextlib.suppress(OSError):
            build_unit_index(library, path)


def configured_unit_index() -> UnitIndex | None:
    """The index of the sources the command line is set to, built on first use; ``None``
    with the cache off or when it can be neither read nor written."""
    if not cache_enabled():
        return None
    paths, dataset = configured_sources()
    return _unit_index(unit_index_path(paths, dataset, skip_bad_files()), paths, dataset)


@lasting_cache(maxsize=None, kind="data")
def _unit_index(path: Path, paths: tuple[str, ...], dataset: bool) -> UnitIndex | None:
    with contextlib.suppress(OSError, ValueError, KeyError, TypeError):
        return UnitIndex(json.loads(path.read_bytes()))
    from ..library import load_library

    with contextlib.suppress(OSError):
        return build_unit_index(load_library(paths, dataset=dataset), path)
    return None


def unit_rows(faction: str | None = None, rules: Rules | None = None,
              library: Library | None = None) -> list[Cells]:
    """The ``tactica units`` table's rows: the units of ``faction`` (every unit without
    one) in ``rules`` (both versions without), as ``find_units`` finds them
    (``UnknownNameError`` for a faction no unit has). ``library``: from this library
    (default: the configured sources, through the index)."""
    if library is None:
        index = configured_unit_index()
        if index is not None:
            return index.rows(faction, rules)
        from ..library import load_library

        library = load_library()
    sheets = library.datasheets(rules) if faction is None else \
        find_units(library, faction=faction, rules=rules)
    return [unit_cells(s) for s in sheets]


def find_units(library: Library | None = None, faction: str | None = None,
               keyword: str | None = None, rules: Rules | None = None
               ) -> tuple[Datasheet, ...]:
    """The library's datasheets, optionally one faction's (the units a source files
    under it, else those with the faction keyword) and only those with ``keyword``
    (a keyword or faction keyword; case and punctuation ignored). ``UnknownNameError``
    for a faction or keyword no unit has.

    >>> from tactica.library import load_seed_library
    >>> [d.name for d in find_units(load_seed_library(), keyword="character")]
    ['Primus']
    """
    from ..model.datasheet import Datasheet

    if library is None:
        from ..library import load_library

        library = load_library()
    lib = library
    by_faction = getattr(lib, "faction_datasheets", None)
    if faction is not None and callable(by_faction):  # only that faction's converted
        sheets = tuple(d for d in by_faction(faction, rules) if isinstance(d, Datasheet))
    else:
        sheets = lib.datasheets(rules)
    if faction is not None and not callable(by_faction):
        key = name_key(faction)
        sheets = tuple(d for d in sheets if any(name_key(k) == key for k in d.faction_keywords))
        if not sheets:
            known = {k.title() for d in lib.datasheets() for k in d.faction_keywords}
            raise UnknownNameError("faction", faction, suggest(faction, sorted(known)))
    if keyword is not None:
        key = name_key(keyword)
        every = {k for d in sheets for k in (*d.keywords, *d.faction_keywords)}
        if key not in {name_key(k) for k in every}:
            raise UnknownNameError("keyword", keyword, suggest(keyword, sorted(every)))
        sheets = tuple(d for d in sheets
                       if key in {name_key(k) for k in (*d.keywords, *d.faction_keywords)})
    return sheets


def units_missing() -> tuple[str, ...]:
    """What the configured sources lack (the dataset not installed: how to install it),
    from the unit index when there is one."""
    index = configured_unit_index()
    if index is not None:
        return index.missing
    from ..library import load_library

    return tuple(getattr(load_library(), "missing", ()))
