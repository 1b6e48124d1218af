"""Factions in the players' words: the faction keyword a datasheet carries ("ADEPTUS
ASTARTES", "ASURYANI", "LEGIONES DAEMONICA") is not what a player calls the army ("Space
Marines", "Aeldari", "Chaos Daemons"). ``player_faction`` gives both, from the bundled
dataset's table of factions: each faction's name, its aliases (the name players use when
the dataset's differs: "Space Marines" for Adeptus Astartes) and its keywords, the last
of which is the faction keyword of its own units (``["Aeldari", "Asuryani"]``).

Every door can use it: the web's faction picker and datasheet index, the command line,
the assistant. A keyword no faction of the dataset has (HARLEQUINS, YNNARI, or any
keyword without the dataset installed) keeps its own words, in title case.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from tactica.cache_registry import lasting_cache

from ..names import name_key

__all__ = ["PlayerFaction", "player_faction"]


@dataclass(frozen=True, slots=True)
class PlayerFaction:
    """A faction as players name it, with what the data calls it.

    ``name``: the players' name ("Space Marines"); ``keyword``: the faction keyword on its
    datasheets ("ADEPTUS ASTARTES"); ``dataset``: the dataset's faction, under which its
    army rules and detachments are filed ("Adeptus Astartes"; ``None`` when the dataset has
    no such faction); ``part_of``: the players' name of the faction it belongs to ("Space
    Marines" for Blood Angels), if any."""

    name: str
    keyword: str
    dataset: str | None = None
    part_of: str | None = None


def _words(keyword: str) -> str:
    """A keyword in title case, apostrophes kept inside words.

    >>> _words("EMPEROR’S CHILDREN"), _words("T’AU EMPIRE")
    ('Emperor’s Children', 'T’au Empire')
    """
    return " ".join(w.capitalize() for w in keyword.split())


def _table(factions: list[Mapping[str, Any]]) -> dict[str, PlayerFaction]:
    """Look-up key (of the keyword, the dataset's name, each alias) -> the faction."""
    by_id = {str(f["id"]): f for f in factions}

    def spoken(f: Mapping[str, Any]) -> str:
        aliases = [str(a) for a in f.get("aliases") or ()]
        return aliases[0] if aliases else str(f["name"])

    out: dict[str, PlayerFaction] = {}
    for f in factions:
        keywords = [str(k) for k in f.get("keywords") or ()] or [str(f["name"])]
        parent = by_id.get(str(f.get("parent_faction_id") or ""))
        found = PlayerFaction(name=spoken(f), keyword=keywords[-1].upper(),
                              dataset=str(f["name"]),
                              part_of=None if parent is None else spoken(parent))
        for text in (f["name"], *(f.get("aliases") or ()), keywords[-1]):
            out.setdefault(name_key(str(text)), found)
    return out


@lasting_cache(maxsize=None, kind="data")
def _dataset_table() -> Mapping[str, PlayerFaction]:
    """The dataset's factions by name and alias (read-only: cached)."""
    try:
        from wh40kdc.data import raw_data
    except ImportError:  # no dataset: keywords keep their own words
        return MappingProxyType({})
    return MappingProxyType(_table(list(raw_data().get("factions") or ())))


def player_faction(name: str) -> PlayerFaction:
    """The faction ``name`` stands for, as players name it: ``name`` is a faction keyword
    (any case), the dataset's faction name or one of its aliases.

    >>> f = player_faction("ADEPTUS ASTARTES")
    >>> f.name, f.keyword, f.dataset
    ('Space Marines', 'ADEPTUS ASTARTES', 'Adeptus Astartes')
    >>> [player_faction(k).name for k in ("ASURYANI", "LEGIONES DAEMONICA", "HERETIC ASTARTES")]
    ['Aeldari', 'Chaos Daemons', 'Chaos Space Marines']
    >>> player_faction("BLOOD ANGELS").part_of, player_faction("space marines").keyword
    ('Space Marines', 'ADEPTUS ASTARTES')
    >>> player_faction("HARLEQUINS")
    PlayerFaction(name='Harlequins', keyword='HARLEQUINS', dataset=None, part_of=None)
    """
    found = _dataset_table().get(name_key(name))
    if found is not None:
        return found
    return PlayerFaction(name=_words(name.strip()), keyword=name.strip().upper())
