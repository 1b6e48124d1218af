"""The packaged seed pages parsed: every page loaded with ``load_seed_page``, its
datasheet completed from the reference facts (reference_facts.md §1), its rule records
kept (``SeedSnapshot``). What ``tactica.library.load_seed_library`` builds when tactica's
cache is empty or off; a command that finds the cache filled imports none of this.
"""

from __future__ import annotations

import functools
import importlib.resources

from pydantic import TypeAdapter

from .facts import TargetPreset, load_presets
from .index import Library
from .loaders.seed_page import load_seed_page
from .model.common import Frozen
from .model.datasheet import Datasheet
from .model.rules import RuleRecord
from .reference_facts import apply_facts, load_reference_facts

__all__ = ["SeedSnapshot", "parse_seed_pages", "records_adapter"]


def _seed_pages() -> list[importlib.resources.abc.Traversable]:
    folder = importlib.resources.files("tactica").joinpath("data", "seeds")
    return sorted((p for p in folder.iterdir() if p.name.endswith(".txt")), key=lambda p: p.name)


class SeedSnapshot(Frozen):
    """What ``load_seed_library`` builds from the seed pages, as kept in tactica's cache
    (``tactica.cache``: the pages are parsed once, not in every command)."""

    datasheets: tuple[Datasheet, ...]
    records: tuple[RuleRecord, ...]
    aliases: dict[str, str]
    #: The target presets (``data/target_presets.yaml``), kept here too so that a command
    #: reads no YAML once the cache is filled.
    presets: tuple[TargetPreset, ...] = ()

    def library(self) -> Library:
        return Library(self.datasheets, self.records, presets=self.presets or None,
                       aliases=self.aliases)


@functools.cache
def records_adapter() -> TypeAdapter[tuple[RuleRecord, ...]]:
    return TypeAdapter(tuple[RuleRecord, ...])


def parse_seed_pages() -> SeedSnapshot:
    facts = load_reference_facts()
    sheets: list[Datasheet] = []
    records: list[RuleRecord] = []
    aliases: dict[str, str] = {}
    for page_file in _seed_pages():
        with importlib.resources.as_file(page_file) as path:
            page = load_seed_page(path)
        records.extend(page.records)
        if page.datasheet is None:
            continue
        sheet = page.datasheet
        unit_facts = facts.for_seed(page_file.name)
        if unit_facts is not None:
            completed = apply_facts(sheet, unit_facts)
            if completed.name != sheet.name and sheet.name.strip():
                aliases[sheet.name] = completed.name
            sheet = completed
        sheets.append(sheet)
    return SeedSnapshot(datasheets=tuple(sheets), records=tuple(records), aliases=aliases,
                        presets=load_presets())
