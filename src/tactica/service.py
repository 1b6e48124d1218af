"""The service: the one entry point every door (``cli/``, ``web/``, ``assistant/``) calls.

A door parses its input, calls what this module offers and renders the answer; it imports
no other part of the core (``tests/test_architecture.py``), so the same question gets the
same answer from every door. What is offered, by topic:

- calculate: ``calculate`` (a scenario or a sequence document, units by name or by
  profile), ``calculate_many`` (one attacker against many targets), ``prepare`` (a
  document's units fielded: what was chosen), ``headline``;
- the documents: the scenario contract (``Scenario``, ``Context``, ...), the results;
- units: ``field_unit``, ``resolve_attacker``, look-ups (``find_units``, ``unit_rows``),
  the presets (``load_presets``);
- rules: ``rules_on_offer`` (an attacker's own army's rules in a phase), named effects,
  rules by name (``rule_entries``);
- army lists: ``parse_roster``, ``load_roster``, ``price_roster``, ``validate``,
  ``export_roster`` (the formats, from one registry: ``import_formats``,
  ``export_formats``, ``formats_help``, ``format_names``);
- army against army: ``matchup``, ``plan``, ``read_side``, ``solve``;
- the meta table: ``select_units``, ``run``, ``query``, ``browse``, the plots;
- the library and its sources (``load_library``, ``use_sources``), the cache folder;
- errors and names: tactica's error types (one line each); the one look-up of names
  (``find``, ``name_key``, ``suggest`` ranked by ``rank``, ``normalise``, ``bare``).

Every name is imported on first use (``tactica units`` answers without loading the
engine; the meta and web stacks load only for their doors).
"""
# ruff: noqa: I001  (the names offered are grouped by topic, not sorted)

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    # Calculate: a scenario, a sequence (a turn), or one attacker against many targets
    from .calculator import (
        calculate_many as calculate_many, prepare as prepare,
    )
    from .combat import (
        Result as Result,
    )
    from .summary import (
        headline as headline,
    )
    from .units.sequence import (
        resolve_sequence as resolve_sequence, SequenceDocument as SequenceDocument,
    )
    # The documents: the scenario contract, its units by name, the results
    from .combat.contract.circumstances import (
        Circumstance as Circumstance, circumstances as circumstances,
        context_words as context_words,
    )
    from .combat.contract.result import (
        Resolved as Resolved,
    )
    from .combat.contract.sampling import (
        MAX_SEED as MAX_SEED, MAX_TRIAL_LINES as MAX_TRIAL_LINES, MAX_TRIALS as MAX_TRIALS,
        Seed as Seed, Trials as Trials,
    )
    from .combat.contract.scenario import (
        Attacker as Attacker, Context as Context, Effect as Effect, EffectEntry as EffectEntry,
        MAX_MODELS as MAX_MODELS, Phase as Phase, Scenario as Scenario, Strength as Strength,
        Target as Target, WeaponLine as WeaponLine,
    )
    from .combat.contract.sequence import (
        Sequence as Sequence, SequenceResult as SequenceResult,
    )
    from .units.scenario import (
        document_loc as document_loc, ScenarioDocument as ScenarioDocument, UnitRef as UnitRef,
    )
    # Units: fielded from the library with their choices, look-ups and presets
    from .army.attack import (
        apply_list_effects as apply_list_effects, list_attacker as list_attacker,
        unit_abilities as unit_abilities, with_unit_rules as with_unit_rules,
    )
    from .army.firing_deck import (
        firing_deck_size as firing_deck_size, with_firing_deck as with_firing_deck,
    )
    from .facts import (
        load_presets as load_presets,
    )
    from .lookup.search import (
        search_units as search_units,
    )
    from .lookup.unit_index import (
        ordinal as ordinal, points_text as points_text, source_text as source_text,
        unit_cells as unit_cells, unit_rows as unit_rows, units_missing as units_missing,
    )
    from .model.abilities import (
        RECOGNISED_WEAPON_ABILITIES as RECOGNISED_WEAPON_ABILITIES,
    )
    from .model.datasheet import (
        CompositionLine as CompositionLine, Datasheet as Datasheet, Weapon as Weapon,
        WeaponProfile as WeaponProfile,
    )
    from .model.wargear import (
        equipment_text as equipment_text, WargearOption as WargearOption,
    )
    from .units import (
        check_leaders as check_leaders, field_unit as field_unit, LeaderError as LeaderError,
        Loadout as Loadout, resolve_attacker as resolve_attacker, WargearError as WargearError,
    )
    from .units.abilities import (
        apply_attacker_abilities as apply_attacker_abilities,
        armed_with_abilities as armed_with_abilities,
    )
    from .units.audit import (
        fielding_audit as fielding_audit,
    )
    from .units.carriers import (
        carriers as carriers,
    )
    from .units.leaders import (
        leaders_of as leaders_of, leads_anything as leads_anything,
    )
    from .units.loadout import (
        check_size as check_size, loadout_lines as loadout_lines, sizes as sizes,
    )
    from .units.resolve import (
        aim_for as aim_for, aim_of as aim_of, UnitError as UnitError,
    )
    # Rules: named effects, the rules on offer, look-ups by name
    from .effects import (
        dataset_effects as dataset_effects, detachment_known as detachment_known,
        EFFECTS as EFFECTS, list_effects as list_effects, rule_owners as rule_owners,
        NamedEffect as NamedEffect, NON_COMBAT as NON_COMBAT,
    )
    from .effects.candidates import (
        ability_effects as ability_effects, apply_candidates as apply_candidates,
    )
    from .effects.offer import (
        rules_on_offer as rules_on_offer,
    )
    from .effects.unit_abilities import (
        coverage as coverage,
    )
    from .lookup import (
        ability_text as ability_text, find_units as find_units, GENERATED as GENERATED,
        rule_entries as rule_entries, rule_notes as rule_notes,
        sources_missing as sources_missing,
    )
    from .lookup.entries import (
        RuleEntry as RuleEntry, Rules as Rules,
    )
    from .model.rules import (
        ArmyRule as ArmyRule, CoreRule as CoreRule, Detachment as Detachment,
        DetachmentRule as DetachmentRule, Enhancement as Enhancement, Errata as Errata,
        FaqEntry as FaqEntry, RuleRecord as RuleRecord, Stratagem as Stratagem,
    )
    # Army lists: read, price, validate, export
    from .army.formats import (
        detect_format as detect_format, EXPORT_FORMATS as EXPORT_FORMATS,
        export_formats as export_formats, format_names as format_names,
        formats_help as formats_help, import_formats as import_formats,
        IMPORT_FORMATS as IMPORT_FORMATS, ListFormat as ListFormat,
        export_roster as export_roster,
        export_warnings as export_warnings, load_roster as load_roster,
        parse_roster as parse_roster, RosterParseError as RosterParseError,
        UnsupportedFormatError as UnsupportedFormatError,
    )
    from .army.lookups import (
        context_names as context_names, known_detachments as known_detachments,
    )
    from .army.pricing import (
        price_roster as price_roster, PriceBreakdown as PriceBreakdown, resolve as resolve,
    )
    from .army.roster import (
        Roster as Roster,
    )
    from .army.validation import (
        validate as validate, ValidationReport as ValidationReport,
    )
    # Army against army: the matrix and the plan
    from .plan import (
        Conditions as Conditions, Matchup as Matchup, matchup as matchup,
        matchup_sides as matchup_sides, Plan as Plan, plan as plan, read_side as read_side,
        SideError as SideError, solve as solve,
    )
    from .plan.request import (
        field_kind as field_kind, MatchupRequest as MatchupRequest,
        PlanRequest as PlanRequest, RequestError as RequestError, WORDS as WORDS,
    )
    from .plan.plot import (
        cell_value as cell_value, plan_svg as plan_svg, plot_matchup as plot_matchup,
        plot_plan as plot_plan,
        VALUES as VALUES,
    )
    # The meta table (the meta extra): selection, run, query, plots
    from .meta import (
        load as load, run as run,
    )
    from .meta.plot import (
        bars as bars, draw as draw, heatmap as heatmap, PlotFilters as PlotFilters,
    )
    from .meta.progress import (
        progress_for as progress_for,
    )
    from .meta.query import (
        Browse as Browse, browse as browse, BROWSE_FILTERS as BROWSE_FILTERS, choices as choices,
        query as query, QueryError as QueryError, SORTABLE as SORTABLE,
    )
    from .meta.run import (
        check_address as check_address, RunReport as RunReport, SchedulerError as SchedulerError,
    )
    from .meta.tasks import (
        select_units as select_units, Selection as Selection,
    )
    # The library and its sources, the cache folder, the version
    from .cache import (
        cache_dir as cache_dir, cache_enabled as cache_enabled, code_stamp as code_stamp,
        files_stamp as files_stamp, write_atomically as write_atomically,
    )
    from .library import (
        Library as Library, load_library as load_library, load_seed_library as load_seed_library,
        record_name as record_name,
    )
    from .loaders.bsdata import (
        read_folder as read_folder,
    )
    from .loaders.bsdata_files import (
        read_file as read_file,
    )
    from .loaders.bulk import (
        start_up_done as start_up_done,
    )
    from .loaders.report import (
        LoadReport as LoadReport,
    )
    from .loaders.wh40kdc import (
        embedded_dataset as embedded_dataset, INSTALL_HINT as INSTALL_HINT,
    )
    from .loaders.wh40kdc_credit import (
        ATTRIBUTION as ATTRIBUTION, installed_version as installed_version,
    )
    from .loaders.wh40kdc_factions import (
        player_faction as player_faction, PlayerFaction as PlayerFaction,
    )
    from .model.common import (
        RulesVersion as RulesVersion, Source as Source,
    )
    from .source_choice import (
        configured_sources as configured_sources, skip_bad_files as skip_bad_files,
        use_sources as use_sources,
    )
    from .sources import (
        SeedSource as SeedSource,
    )
    from .version import (
        __version__ as __version__,
    )
    # Errors and names: tactica's refusals, name matching and suggestions, input bounds
    from .errors import (
        DocumentError as DocumentError, error_words as error_words, field_parts as field_parts,
        needs_extra as needs_extra, one_line as one_line,
    )
    from .inputs import (
        check_depth as check_depth, InputError as InputError, loads as loads,
        printable as printable, surrogates_in as surrogates_in,
    )
    from .loaders.errors import (
        LoadError as LoadError,
    )
    from .names import (
        bare as bare, find as find, name_key as name_key, normalise as normalise,
        rank as rank, suggest as suggest,
        UnknownNameError as UnknownNameError,
    )
    from .textfile import (
        decode as decode, read_text_file as read_text_file,
    )
    from .units.resolve import UnitLibrary

#: Each name offered, by the module that defines it (imported on first use).
_LAZY: dict[str, tuple[str, ...]] = {
    # Calculate: a scenario, a sequence (a turn), or one attacker against many targets
    ".calculator": ("calculate_many", "prepare"),
    ".combat": ("Result",),
    ".summary": ("headline",),
    ".units.sequence": ("resolve_sequence", "SequenceDocument"),
    # The documents: the scenario contract, its units by name, the results
    ".combat.contract.circumstances": ("Circumstance", "circumstances", "context_words"),
    ".combat.contract.result": ("Resolved",),
    ".combat.contract.sampling": ("MAX_SEED", "MAX_TRIAL_LINES", "MAX_TRIALS", "Seed", "Trials"),
    ".combat.contract.scenario": (
        "Attacker", "Context", "Effect", "EffectEntry", "MAX_MODELS", "Phase", "Scenario",
        "Strength", "Target", "WeaponLine",
    ),
    ".combat.contract.sequence": ("Sequence", "SequenceResult"),
    ".units.scenario": ("document_loc", "ScenarioDocument", "UnitRef"),
    # Units: fielded from the library with their choices, look-ups and presets
    ".army.attack": ("apply_list_effects", "list_attacker", "unit_abilities",
                     "with_unit_rules"),
    ".army.firing_deck": ("firing_deck_size", "with_firing_deck"),
    ".facts": ("load_presets",),
    ".lookup.search": ("search_units",),
    ".lookup.unit_index": (
        "ordinal", "points_text", "source_text", "unit_cells", "unit_rows", "units_missing",
    ),
    ".model.abilities": ("RECOGNISED_WEAPON_ABILITIES",),
    ".model.datasheet": ("CompositionLine", "Datasheet", "Weapon", "WeaponProfile"),
    ".model.wargear": ("equipment_text", "WargearOption"),
    ".units": (
        "check_leaders", "field_unit", "LeaderError", "Loadout", "resolve_attacker",
        "WargearError",
    ),
    ".units.abilities": ("apply_attacker_abilities", "armed_with_abilities"),
    ".units.audit": ("fielding_audit",),
    ".units.carriers": ("carriers",),
    ".units.leaders": ("leaders_of", "leads_anything"),
    ".units.loadout": ("check_size", "loadout_lines", "sizes"),
    ".units.resolve": ("aim_for", "aim_of", "UnitError"),
    # Rules: named effects, the rules on offer, look-ups by name
    ".effects": ("dataset_effects", "detachment_known", "EFFECTS", "list_effects",
                 "NamedEffect", "NON_COMBAT", "rule_owners"),
    ".effects.candidates": ("ability_effects", "apply_candidates"),
    ".effects.offer": ("rules_on_offer",),
    ".effects.unit_abilities": ("coverage",),
    ".lookup": (
        "ability_text", "find_units", "GENERATED", "rule_entries", "rule_notes",
        "sources_missing",
    ),
    ".lookup.entries": ("RuleEntry", "Rules"),
    ".model.rules": (
        "ArmyRule", "CoreRule", "Detachment", "DetachmentRule", "Enhancement", "Errata",
        "FaqEntry", "RuleRecord", "Stratagem",
    ),
    # Army lists: read, price, validate, export
    ".army.formats": (
        "detect_format", "EXPORT_FORMATS", "export_formats", "format_names", "formats_help",
        "import_formats", "IMPORT_FORMATS", "ListFormat", "export_roster", "export_warnings",
        "load_roster", "parse_roster",
        "RosterParseError", "UnsupportedFormatError",
    ),
    ".army.lookups": ("context_names", "known_detachments"),
    ".army.pricing": ("price_roster", "PriceBreakdown", "resolve"),
    ".army.roster": ("Roster",),
    ".army.validation": ("validate", "ValidationReport"),
    # Army against army: the matrix and the plan
    ".plan": (
        "Conditions", "Matchup", "matchup", "matchup_sides", "Plan", "plan", "read_side",
        "SideError", "solve",
    ),
    ".plan.request": ("field_kind", "MatchupRequest", "PlanRequest", "RequestError",
                      "WORDS"),
    ".plan.plot": ("cell_value", "plan_svg", "plot_matchup", "plot_plan", "VALUES"),
    # The meta table (the meta extra): selection, run, query, plots
    ".meta": ("load", "run"),
    ".meta.plot": ("bars", "draw", "heatmap", "PlotFilters"),
    ".meta.progress": ("progress_for",),
    ".meta.query": (
        "Browse", "browse", "BROWSE_FILTERS", "choices", "query", "QueryError", "SORTABLE",
    ),
    ".meta.run": ("check_address", "RunReport", "SchedulerError"),
    ".meta.tasks": ("select_units", "Selection"),
    # The library and its sources, the cache folder, the version
    ".cache": ("cache_dir", "cache_enabled", "code_stamp", "files_stamp", "write_atomically"),
    ".library": ("Library", "load_library", "load_seed_library", "record_name"),
    ".loaders.bsdata": ("read_folder",),
    ".loaders.bsdata_files": ("read_file",),
    ".loaders.bulk": ("start_up_done",),
    ".loaders.report": ("LoadReport",),
    ".loaders.wh40kdc": ("embedded_dataset", "INSTALL_HINT"),
    ".loaders.wh40kdc_credit": ("ATTRIBUTION", "installed_version"),
    ".loaders.wh40kdc_factions": ("player_faction", "PlayerFaction"),
    ".model.common": ("RulesVersion", "Source"),
    ".source_choice": ("configured_sources", "skip_bad_files", "use_sources"),
    ".sources": ("SeedSource",),
    ".version": ("__version__",),
    # Errors and names: tactica's refusals, name matching and suggestions, input bounds
    ".errors": ("DocumentError", "error_words", "field_parts", "needs_extra", "one_line"),
    ".inputs": ("check_depth", "InputError", "loads", "printable", "surrogates_in"),
    ".loaders.errors": ("LoadError",),
    ".names": ("bare", "find", "name_key", "normalise", "rank", "suggest", "UnknownNameError"),
    ".textfile": ("decode", "read_text_file"),
}

_FROM = {name: module for module, names in _LAZY.items() for name in names}

__all__ = sorted([*_FROM, "calculate", "load_answer_modules", "warm_up"])


def __getattr__(name: str) -> Any:
    """A name offered, imported on first use (PEP 562)."""
    module = _FROM.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module, "tactica"), name)
    globals()[name] = value
    return value


def calculate(scenario: Scenario | dict[str, Any] | str,
              library: UnitLibrary | None = None) -> Result:
    """A scenario or a sequence document (a ``Scenario``, its dict or its JSON text; units
    by name or by profile) computed; a bad document is refused with tactica's
    ``DocumentError`` (one line) — ``tactica.calculate``, the same for every door."""
    from . import calculate as calculate_document

    return calculate_document(scenario, library)


def load_answer_modules() -> None:
    """Import the modules a server's first answers use (the engine, fielding, the rules on
    offer, the headline), so that a server can freeze them before its first request."""
    for name in ("tactica.calculator", "tactica.units", "tactica.units.loadout",
                 "tactica.units.resolve", "tactica.effects.offer", "tactica.summary"):
        importlib.import_module(name)


def warm_up() -> Library:
    """Load what every call needs: the library (seed pages, the bundled dataset, any
    ``--data`` catalogues), every faction's rules as named effects, and the engine; a
    server calls it before its first answer."""
    from .effects import dataset_effects
    from .library import load_library

    library = load_library()
    dataset_effects()
    from . import calculator  # noqa: F401  (the engine's modules)

    return library
