"""Facts the seed pages lack (reference_facts.md §1), as a packaged data file, and how
they complete a datasheet. Read only when the seed pages are parsed (a command that finds
tactica's cache filled imports none of this).

Every fact carries its source; a seed value always wins (``apply_facts``).
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from pydantic import Field

from tactica.cache_registry import lasting_cache

from .facts import read_data_yaml
from .model.common import Frozen, Source
from .model.datasheet import CompositionLine, DamagedProfile, Datasheet, ModelProfile
from .names import name_key

__all__ = [
    "FACTS_FILE",
    "DamagedFact",
    "Fact",
    "KeywordsFact",
    "ModelFacts",
    "ReferenceFacts",
    "UnitFacts",
    "apply_facts",
    "load_reference_facts",
]

#: The packaged data file (relative to the ``tactica`` package).
FACTS_FILE = "data/reference_facts.yaml"

_STATS = ("M", "T", "Sv", "InSv", "W", "Ld", "OC")
T = TypeVar("T")


# --- reference facts (reference_facts.md §1) ---------------------------------------------


class ModelFacts(Frozen):
    """One model type's stat line (numbers before the ``+``; ``None`` = none)."""

    name: str
    M: int | None = None
    T: int | None = None
    Sv: int | None = None
    InSv: int | None = None
    W: int | None = None
    Ld: int | None = None
    OC: int | None = None
    source: str


class Fact(Frozen, Generic[T]):
    """One fact of the reference file and where it comes from."""

    value: T
    source: str


class DamagedFact(Frozen):
    """The damaged threshold of §1 ("Damaged at 1-8 wounds left"); modifiers stay on the page."""

    min_wounds: int = Field(ge=1)
    max_wounds: int = Field(ge=1)
    text: str


class KeywordsFact(Frozen):
    """Keywords for a page that lost them (003: inferred, rules_inventory.md §A4)."""

    faction_keywords: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()


class UnitFacts(Frozen):
    """The facts of one unit: which seed page they complete and what they add."""

    name: str
    seed: str
    untitled: bool = False
    models: tuple[ModelFacts, ...] = ()
    leader_of: Fact[tuple[str, ...]] | None = None
    composition: Fact[tuple[CompositionLine, ...]] | None = None
    damaged: Fact[DamagedFact] | None = None
    keywords: Fact[KeywordsFact] | None = None


class ReferenceFacts(Frozen):
    """The contents of ``data/reference_facts.yaml``."""

    sources: tuple[str, ...] = ()
    units: tuple[UnitFacts, ...]

    def for_seed(self, seed_file: str) -> UnitFacts | None:
        """The facts that complete the seed page named ``seed_file`` (a file name)."""
        return next((u for u in self.units if u.seed == seed_file), None)

    def for_unit(self, name: str) -> UnitFacts | None:
        key = name_key(name)
        return next((u for u in self.units if name_key(u.name) == key), None)


@lasting_cache(maxsize=None, kind="data")
def load_reference_facts() -> ReferenceFacts:
    """The packaged reference facts (reference_facts.md §1), validated."""
    return ReferenceFacts.model_validate(read_data_yaml(FACTS_FILE))


def _facts_source(citation: str) -> Source:
    return Source(file=f"tactica/{FACTS_FILE}", note=citation)


def _singular_key(name: str) -> str:
    """Model names compared without a plural "s" ("Death Riders" ~ "Death Rider")."""
    key = name_key(name)
    return key[:-1] if key.endswith("s") else key


def _merge_models(
    seed: tuple[ModelProfile, ...], facts: tuple[ModelFacts, ...]
) -> tuple[tuple[ModelProfile, ...], list[str]]:
    """Fill the seed's model profiles from the facts (seed values win); add model types
    the seed lacks. Returns the profiles and notes naming what came from where."""
    notes: list[str] = []
    used: set[int] = set()
    merged: list[ModelProfile] = []
    for profile in seed:
        key = _singular_key(profile.name)
        matches = [i for i, f in enumerate(facts) if i not in used and _singular_key(f.name) == key]
        index = matches[0] if matches else None
        if index is None and len(seed) == 1 and len(facts) == 1:
            index = 0  # one model type on each side: the same model under another name
        if index is None:
            merged.append(profile)
            continue
        used.add(index)
        fact = facts[index]
        update: dict[str, int] = {}
        for stat in _STATS:
            ours, theirs = getattr(profile, stat), getattr(fact, stat)
            if ours is None and theirs is not None:
                update[stat] = theirs
            elif ours is not None and theirs is not None and ours != theirs:
                notes.append(f"{profile.name}: seed {stat} {ours} kept (reference file: {theirs})")
        if update:
            notes.append(f"{profile.name}: {', '.join(update)} from {fact.source}")
            profile = ModelProfile.model_validate({**profile.model_dump(), **update})
        merged.append(profile)
    for i, fact in enumerate(facts):
        if i in used:
            continue
        values = {stat: getattr(fact, stat) for stat in _STATS}
        merged.append(ModelProfile(name=fact.name, source=_facts_source(fact.source), **values))
        filled = [s for s in _STATS if values[s] is not None]
        notes.append(f"{fact.name}: {', '.join(filled)} from {fact.source}")
    return tuple(merged), notes


def apply_facts(sheet: Datasheet, facts: UnitFacts) -> Datasheet:
    """Complete ``sheet`` with ``facts`` (reference_facts.md §1). A value the seed page
    gives always wins; every fact taken from the reference file is named in ``notes``.

    A 10th-layout page completed with §1's 11th-edition stat lines gets the note "page
    layout is 10th; stat line from 11th data" (the datasheet keeps ``rules="10th"``).
    """
    notes = list(sheet.notes)
    update: dict[str, Any] = {}
    if facts.untitled and name_key(sheet.name) != name_key(facts.name):
        update["name"] = facts.name
        was = f" (loaded as {sheet.name!r})" if sheet.name.strip() else ""
        notes.append(f"name from reference_facts.md §1: the page has no title{was}")
    models, model_notes = _merge_models(sheet.models, facts.models)
    if model_notes:
        update["models"] = models
        notes.extend(model_notes)
        if sheet.rules == "10th":
            notes.append("page layout is 10th; stat line from 11th data (reference_facts.md §1)")
    if facts.leader_of and not sheet.leader_of:
        update["leader_of"] = facts.leader_of.value
        notes.append(f"leader of: from {facts.leader_of.source}")
    if facts.composition and not sheet.composition:
        update["composition"] = facts.composition.value
        notes.append(f"composition: from {facts.composition.source}")
    if facts.damaged and sheet.damaged is None:
        d = facts.damaged.value
        update["damaged"] = DamagedProfile(
            min_wounds=d.min_wounds,
            max_wounds=d.max_wounds,
            text=d.text,
            source=_facts_source(facts.damaged.source),
        )
        notes.append(f"damaged threshold: from {facts.damaged.source}")
    if facts.keywords:
        kw = facts.keywords.value
        if kw.keywords and not sheet.keywords:
            update["keywords"] = kw.keywords
            notes.append(f"keywords: from {facts.keywords.source}")
        if kw.faction_keywords and not sheet.faction_keywords:
            update["faction_keywords"] = kw.faction_keywords
            notes.append(f"faction keywords: from {facts.keywords.source}")
    if not update:
        return sheet
    update["notes"] = tuple(notes)
    # validate again: keyword upper-casing and the composition checks apply to the facts too
    return Datasheet.model_validate({**sheet.model_dump(), **update})


def _profile_for(sheet: Datasheet, model: str) -> ModelProfile:
    key = _singular_key(model)
    found = next((p for p in sheet.models if _singular_key(p.name) == key), None)
    if found is None and len(sheet.models) == 1:
        found = sheet.models[0]
    if found is None:
        raise ValueError(f"{sheet.name}: no model profile for composition line {model!r}")
    return found


