"""Look-ups every shell answers the same way: a rule by name with whether the calculator
models it, and the library's units by faction and keyword.

``rule_entries`` is what ``tactica rule`` shows: every stratagem, enhancement,
detachment rule, army rule, core rule and datasheet ability of that name
(``Library.find_rules``), each with its record as data, and the calculator's status
(``tactica.lookup.entries``). Without a library it answers from the index of rules by
name on disk (``tactica.lookup.rule_index``: the configured sources, built once), so a
look-up does not load the library; ``rule_notes`` gives the calculator's own notes on a
rule it computes, per rules version. A dataset record without published text carries
its effect code in plain English (``RuleEntry.generated``, marked ``GENERATED``;
``ability_text`` for a datasheet's ability).

>>> from tactica.library import load_seed_library
>>> [e.kind for e in rule_entries("Primed and Readied", library=load_seed_library())]
['stratagem']
>>> rule_entries("Primed and Readied", library=load_seed_library())[0].cp
2
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..names import UnknownNameError, name_key, suggest
from .entries import GENERATED, RuleEntry, Rules, entries_of, own_ability_status
from .unit_index import find_units

if TYPE_CHECKING:
    from ..effects.rule_text import GeneratedText
    from ..index import Library
    from ..model.datasheet import Ability

__all__ = ["GENERATED", "RuleEntry", "ability_text", "find_units", "own_ability_status",
           "rule_entries", "rule_notes", "sources_missing"]

_VERSIONS: tuple[Rules, ...] = ("11th", "10th")


def _found(name: str, library: Library | None
           ) -> tuple[list[RuleEntry], dict[str, str], Library | None]:
    """Every entry called ``name`` (all versions), the calculator's notes per version,
    and the library it came from (``None``: the index)."""
    if library is None:
        from .rule_index import configured_index

        index = configured_index()
        if index is not None:
            entries, notes = index.get(name_key(name)) or ([], {})
            return entries, notes, None
        from ..library import load_library

        library = load_library()
    from ..rules.notes import rule_note

    try:
        entries = entries_of(library, name)
    except UnknownNameError:
        entries = []
    notes = {v: n for v in _VERSIONS if (n := rule_note(name, v)) is not None}
    return entries, notes, library


def rule_entries(name: str, rules: Rules | None = None,
                 library: Library | None = None) -> list[RuleEntry]:
    """The rules called ``name`` (module text), the ``rules`` version's where there is
    one, else the others (check ``.rules``); ``UnknownNameError`` with close names when
    none is. A core ability the calculator computes but the library has no record of (an
    11th-edition weapon ability) is one ``core_rule`` entry with its note
    (``published=False``). ``library``: look in this library (default: the configured
    sources, through the index)."""
    entries, notes, lib = _found(name, library)
    if entries:
        exact = [e for e in entries if rules is None or e.rules == rules]
        return exact or entries
    versions = (rules,) if rules else _VERSIONS
    chosen = [(v, notes[v]) for v in versions if v in notes]
    if not chosen:
        from .rule_index import configured_index

        index = configured_index() if lib is None else None
        names = index.names() if index is not None else \
            (lib if lib is not None else _library()).rule_names()
        raise UnknownNameError("rule", name, suggest(name, names))
    return [RuleEntry(name=name, kind="core_rule", rules=v, calculator=f"modelled: {n}",
                      record={"text": n}, published=False) for v, n in chosen]


def rule_notes(name: str, rules: Rules | None = None,
               library: Library | None = None) -> list[str]:
    """The calculator's notes on the rule called ``name`` (which edition's text it
    follows), for ``rules`` or both versions (11th first); empty for a rule it does not
    compute itself."""
    notes = _found(name, library)[1]
    return [notes[v] for v in ((rules,) if rules else _VERSIONS) if v in notes]


def ability_text(ability: Ability) -> GeneratedText | None:
    """A datasheet ability's text generated from the dataset's effect code, with the
    dataset's notes (``None`` when it has published text or no effect code): what
    ``tactica sheet`` and the web's datasheet show, marked ``GENERATED``."""
    from ..effects.rule_text import ability_text as generated

    return generated(ability)


def sources_missing() -> tuple[str, ...]:
    """What the configured sources lack (the dataset not installed: how to install it),
    from the index when there is one, so that a refused look-up loads no library."""
    from .rule_index import configured_index

    index = configured_index()
    if index is not None:
        return tuple(index.missing())
    return tuple(getattr(_library(), "missing", ()))


def _library() -> Library:
    from ..library import load_library

    return load_library()
