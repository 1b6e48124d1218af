"""The packaged unit library and the sources a command reads: the seed datasheets, their
rule records, the reference facts, the standard target presets, and (``load_library``)
the bundled dataset and ``--data`` catalogues merged by ``tactica.sources``.

``load_library()`` reads every packaged seed page (``tactica/data/seeds/*.txt``) the first
time it is called, fills in what the pages lack from ``data/reference_facts.yaml``
(reference_facts.md §1; a seed value always wins) and adds the target presets of
``data/target_presets.yaml`` (reference_facts.md §2). The index itself (``Library``: look
up by name, suggestions) is ``tactica.index``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tactica.cache_registry import lasting_cache

from .facts import PRESETS_FILE, TargetPreset, load_presets
from .index import RULES_PREFERENCE, Library, UnitAbility, record_name
from .model.common import Frozen
from .model.datasheet import Datasheet
from .source_choice import configured_sources, skip_bad_files, use_sources
from .units.resolve import sheet_target as target_from_datasheet

if TYPE_CHECKING:
    from .model.rules import RuleRecord
    from .reference_facts import (
        FACTS_FILE,
        DamagedFact,
        Fact,
        KeywordsFact,
        ModelFacts,
        ReferenceFacts,
        UnitFacts,
        apply_facts,
        load_reference_facts,
    )
    from .seed_pages import SeedSnapshot

__all__ = [
    "FACTS_FILE",
    "PRESETS_FILE",
    "RULES_PREFERENCE",
    "DamagedFact",
    "Fact",
    "KeywordsFact",
    "Library",
    "ModelFacts",
    "ReferenceFacts",
    "TargetPreset",
    "UnitAbility",
    "UnitFacts",
    "apply_facts",
    "configured_sources",
    "load_library",
    "load_presets",
    "load_reference_facts",
    "load_seed_library",
    "record_name",
    "target_from_datasheet",
    "use_sources",
]

#: The reference facts' names, kept here for callers: read from ``tactica.reference_facts``
#: on first use (only the seed pages' parse needs them, not a command with the cache).
_REFERENCE_FACTS = frozenset({"FACTS_FILE", "DamagedFact", "Fact", "KeywordsFact", "ModelFacts",
                              "ReferenceFacts", "UnitFacts", "apply_facts",
                              "load_reference_facts"})


def __getattr__(name: str) -> Any:
    if name in _REFERENCE_FACTS:
        from . import reference_facts

        return getattr(reference_facts, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# --- the packaged library ------------------------------------------------------------


class SeedCache(Frozen):
    """``SeedSnapshot`` as kept in the cache, its rule records as their JSON text: they
    are nine tenths of the file, and validated only when a command first asks for a rule
    (a calculation asks for none)."""

    datasheets: tuple[Datasheet, ...]
    aliases: dict[str, str]
    presets: tuple[TargetPreset, ...]
    records_json: str

    @classmethod
    def of(cls, snapshot: SeedSnapshot) -> SeedCache:
        from .seed_pages import records_adapter

        records = records_adapter().dump_json(snapshot.records).decode("utf-8")
        return cls(datasheets=snapshot.datasheets, aliases=snapshot.aliases,
                   presets=snapshot.presets, records_json=records)

    def library(self) -> Library:
        def records() -> tuple[RuleRecord, ...]:
            from .seed_pages import parse_seed_pages, records_adapter

            try:
                return records_adapter().validate_json(self.records_json)
            except ValueError:  # a damaged cache: the pages are parsed again
                return parse_seed_pages().records

        return Library(self.datasheets, records, presets=self.presets or None,
                       aliases=self.aliases)


@lasting_cache(maxsize=None, kind="data")
def load_seed_library() -> Library:
    """The packaged library, built on first use and cached: every seed page loaded with
    ``load_seed_page``, its datasheet completed from the reference facts (§1), plus the
    target presets (§2). Load errors propagate (``LoadError`` names page and line).

    The parsed pages are kept in tactica's on-disk cache (``tactica.cache``, keyed by the
    pages, the facts and the loaders' code; ``TACTICA_CACHE=0`` turns it off)."""
    from .cache import cache_dir, cache_enabled, cache_key, write_atomically

    if cache_enabled():
        path = cache_dir() / f"seeds-{cache_key('seed pages')}.json"
        try:
            return SeedCache.model_validate_json(path.read_bytes()).library()
        except (OSError, ValueError):  # absent or unreadable: parse the pages
            pass
    from .seed_pages import parse_seed_pages  # the pages parsed: only without the cache

    if not cache_enabled():
        return parse_seed_pages().library()
    snapshot = parse_seed_pages()
    kept = SeedCache.of(snapshot)
    with contextlib.suppress(OSError):
        write_atomically(path, lambda t: t.write_text(kept.model_dump_json(),
                                                      encoding="utf-8"),
                         stale="seeds-*.json")
    return snapshot.library()


# --- several sources (issue 6): seed pages + --data catalogues + bundled dataset ---------
# ``load_library()`` with no arguments is what the command line uses without options: the
# seed pages and the bundled dataset (a ``tactica.sources.SourcedLibrary``; issue 11: the
# Python API resolves the same unit names as ``tactica calc``). ``use_sources`` (which
# the command line calls for ``tactica --data PATH`` / ``--no-dataset``) changes that
# default; ``dataset=False`` with no paths is the seed library above. Each is cached per
# set of sources. The choice itself lives in ``tactica.source_choice`` (read without
# loading the library: the index of rules by name).


def load_library(
    data_paths: Sequence[str | Path] | None = None, *, dataset: bool | None = None
) -> Library:
    """The unit library. Without arguments: the configured sources (``use_sources``), by
    default the seed pages and the bundled dataset, as the command line has them. With
    ``data_paths`` or ``dataset``: seed pages, those catalogues and (with ``dataset``) the
    bundled dataset merged (``tactica.sources.build_library``), cached per set of sources;
    no paths and ``dataset=False`` is the seed library alone (``load_seed_library``)."""
    configured = configured_sources()
    paths = configured[0] if data_paths is None else tuple(str(p) for p in data_paths)
    use_dataset = configured[1] if dataset is None else dataset
    if not paths and not use_dataset:
        return load_seed_library()
    return _load_sourced_library(paths, use_dataset, skip_bad_files())


@lasting_cache(maxsize=None, kind="data")
def _load_sourced_library(paths: tuple[str, ...], dataset: bool, skip_bad: bool) -> Library:
    from .sources import build_library

    return build_library(paths, dataset=dataset, seeds=load_seed_library(), skip_bad=skip_bad)
