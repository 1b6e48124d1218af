"""Shared pieces of the army-list tests: the seed library, hand-made datasheets for rules
the five seed units cannot show, and a minimal legal Genestealer Cults list to break.

The hand-made datasheets are test constructs (named "Test ..."), not real units: they give
a keyword the seeds lack (OGRYN, EPIC HERO, TYRANIDS INFANTRY...) and nothing else.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tactica.army.roster import Roster, RosterUnit
from tactica.library import Library, load_seed_library
from tactica.model import (
    CompositionLine,
    Datasheet,
    Enhancement,
    ModelProfile,
    PointsBracket,
    RuleRecord,
    Source,
)

#: Real army-list exports copied into the repository with their licences
#: (``tests/fixtures/ATTRIBUTION.md``).
ROSTERS = Path(__file__).resolve().parents[1] / "fixtures" / "rosters"
FIXTURES = Path(__file__).resolve().parent / "fixtures"

GSC = ("GENESTEALER CULTS",)
AM = ("ASTRA MILITARUM",)
TYR = ("TYRANIDS",)


def sheet(name: str, faction: tuple[str, ...], keywords: tuple[str, ...], points: int,
          models: tuple[int, int] = (1, 1), wounds: int = 1,
          leader_of: tuple[str, ...] = ()) -> Datasheet:
    """A test datasheet: one model type, ``models`` = (min, max), one bracket per size."""
    low, high = models
    return Datasheet(
        name=name, rules="11th", faction_keywords=faction, keywords=keywords,
        models=(ModelProfile(name=name, T=4, Sv=4, W=wounds),),
        composition=(CompositionLine(model=name, min=low, max=high),),
        points=tuple(PointsBracket(models=n, points=points) for n in range(low, high + 1)),
        leader_of=leader_of, source=Source(file="tests/army/helpers.py"))


def seed_plus(*extra: Datasheet, records: tuple[RuleRecord, ...] = ()) -> Library:
    """The seed library with extra datasheets and rule records."""
    seed = load_seed_library()
    return Library((*seed.datasheets(), *extra), (*seed.records(), *records))


def enhancement(name: str, detachment: str, eligibility: str | None, points: int = 10
                ) -> Enhancement:
    return Enhancement(name=name, points=points, detachment=detachment,
                       eligibility=eligibility, rules="11th",
                       source=Source(file="tests/army/helpers.py"))


def unit(uid: str, name: str, **fields: Any) -> RosterUnit:
    return RosterUnit(id=uid, name=name, **fields)


def base_units() -> tuple[RosterUnit, ...]:
    """A Primus (the Warlord) leading 10 Neophyte Hybrids: 70 + 90 points."""
    return (unit("u1", "Primus", warlord=True, attached_to="u2"),
            unit("u2", "Neophyte Hybrids", models=10))


def army(*extra: RosterUnit, units: tuple[RosterUnit, ...] | None = None,
         **fields: Any) -> Roster:
    """The minimal legal list (Host of Ascension, Strike Force, 11th) plus ``extra``."""
    data: dict[str, Any] = {
        "name": "Test list", "faction": "Genestealer Cults",
        "detachments": ("Host of Ascension",), "battle_size": "Strike Force",
        "units": (*(base_units() if units is None else units), *extra)}
    data.update(fields)
    return Roster.model_validate(data)
