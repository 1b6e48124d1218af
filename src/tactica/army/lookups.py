"""The library's records as a list check looks them up, indexed once per library: the
enhancements by name (as written, and without the kind the dataset appends, "Final Howl
(Aura)"), the detachment records by name and every detachment name the data knows.

A list check looks up each unit's enhancements and the army's detachments; scanning
every record of the library for each (thousands with the bundled dataset) cost more than
reading the list. A library's records do not change once loaded, so each index is built
on first use and kept as long as the library lives (``weakref``: a library dropped is
not kept alive by its indexes).
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Callable
from typing import Any, TypeVar

from ..library import Library
from ..model.rules import Detachment, DetachmentRule, Enhancement
from ..names import UnknownNameError, find, name_key
from .limits import DETACHMENT_POINTS_11TH

__all__ = ["context_names", "detachments_by_name", "enhancements_by_name",
           "known_detachments", "names_context", "plain_enhancement_name"]

T = TypeVar("T")


def _per_library(build: Callable[[Library], T]) -> Callable[[Library], T]:
    kept: weakref.WeakKeyDictionary[Library, T] = weakref.WeakKeyDictionary()

    def indexed(library: Library) -> T:
        try:
            return kept[library]
        except KeyError:
            kept[library] = value = build(library)
            return value

    indexed.__doc__ = build.__doc__
    return indexed


def plain_enhancement_name(name: str) -> str:
    """An enhancement's name without the kind the dataset appends, as a name key.

    >>> plain_enhancement_name("Final Howl (Aura)")
    'finalhowl'
    """
    return name_key(re.sub(r"\s*\([^)]*\)\s*$", "", name))


@_per_library
def enhancements_by_name(library: Library) -> tuple[dict[str, tuple[Enhancement, ...]],
                                                    dict[str, tuple[Enhancement, ...]]]:
    """The library's enhancements by name key, and by plain name key (without the kind:
    ``plain_enhancement_name``), in the library's order."""
    exact: dict[str, list[Enhancement]] = {}
    plain: dict[str, list[Enhancement]] = {}
    for e in library.enhancements():
        exact.setdefault(name_key(e.name), []).append(e)
        plain.setdefault(plain_enhancement_name(e.name), []).append(e)
    return ({k: tuple(v) for k, v in exact.items()},
            {k: tuple(v) for k, v in plain.items()})


@_per_library
def detachments_by_name(library: Library) -> dict[str, Detachment]:
    """The first detachment record of each name, by name key."""
    out: dict[str, Detachment] = {}
    for r in library.records():
        if isinstance(r, Detachment):
            out.setdefault(name_key(r.name), r)
    return out


@_per_library
def known_detachments(library: Library) -> dict[str, str]:
    """Every detachment name the data knows (the points table, the enhancements', the
    detachment rules' and the detachment records' names), by name key."""
    names = [*DETACHMENT_POINTS_11TH, *(e.detachment for e in library.enhancements())]
    names += [r.detachment for r in library.records()
              if isinstance(r, DetachmentRule) and r.detachment]
    names += [r.name for r in library.records() if isinstance(r, Detachment)]
    return {name_key(n): n for n in names}


def _contexts(document: object) -> list[tuple[str, dict[str, Any]]]:
    """A scenario's or a turn's contexts, each with its field path (``steps[1].context``)."""
    if not isinstance(document, dict):
        return []
    steps = document.get("steps")
    places = [("context", document.get("context")),
              *((f"steps[{i}].context", s.get("context"))
                for i, s in enumerate(steps if isinstance(steps, list) else ())
                if isinstance(s, dict))]
    return [(where, c) for where, c in places if isinstance(c, dict)]


def names_context(document: object) -> bool:
    """Whether a context of ``document`` names a detachment or an army faction (what
    ``context_names`` checks: the library is loaded only then)."""
    return any(c.get("detachment") or c.get("army_faction") for _, c in _contexts(document))


def context_names(document: object, library: Library
                  ) -> list[tuple[str, UnknownNameError]]:
    """The names a scenario's or a turn's contexts give that ``library`` does not know
    (``context.detachment``: none of its detachments; ``context.army_faction``: none of
    its factions), each with its field path (``steps[1].context.detachment``): the
    engine would take them silently (a stratagem of the detachment then refused as
    another detachment's, 15.01), so ``tactica.calculate`` (every door) refuses them
    with close names."""
    found = []
    for where, context in _contexts(document):
        detachment, faction = context.get("detachment"), context.get("army_faction")
        try:
            if isinstance(detachment, str) and detachment.strip():
                find("detachment", detachment, known_detachments(library).values())
        except UnknownNameError as exc:
            found.append((f"{where}.detachment", exc))
        spelled = getattr(library, "faction", None)  # the merged sources' (Library.faction)
        try:
            if isinstance(faction, str) and faction.strip() and callable(spelled):
                spelled(faction)
        except UnknownNameError as exc:
            found.append((f"{where}.army_faction", exc))
    return found
