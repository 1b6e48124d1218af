"""Rules by name on the web page and the API: the look-up ``tactica rule`` makes
(``tactica.lookup.rule_entries``), so that both doors give the same entries.

With the app's default library (the sources the command line configured) the look-up
reads the index of rules by name kept on disk (``tactica.lookup.rule_index``), exactly as
``tactica rule NAME`` does; an app given its own library (``create_app(library=...)``)
looks in that library with the same function. Either way an entry carries the
calculator's status of the rule, and a rule the calculator computes without a record of
its text (an 11th-edition weapon ability) is an entry with the calculator's note alone.
"""

from __future__ import annotations

from pathlib import PurePath
from typing import TYPE_CHECKING

from ..service import RuleEntry, RulesVersion, Source, rule_entries, rule_notes
from .wording import source_label

if TYPE_CHECKING:
    from fastapi import Request

    from ..service import Library

__all__ = ["found_rules", "rule_source_label", "rules_notes"]


def _library(request: Request) -> Library | None:
    """The app's own library, or ``None`` when it is the configured sources' (the index
    of rules by name answers, as for the command line)."""
    if request.app.state.rules_from_index:
        return None
    library: Library = request.app.state.library()
    return library


def found_rules(request: Request, name: str, rules: RulesVersion | None) -> list[RuleEntry]:
    """The rules called ``name``, as ``tactica rule NAME [--rules V]`` finds them
    (``UnknownNameError`` with close names when none is)."""
    return rule_entries(name, rules, library=_library(request))


def rules_notes(request: Request, name: str, rules: RulesVersion | None) -> list[str]:
    """The calculator's own notes on the rule (which edition's text it follows)."""
    return rule_notes(name, rules, library=_library(request))


def rule_source_label(entry: RuleEntry) -> str | None:
    """Where the entry's text was read, as a player names it (``wording.source_label``).

    >>> from tactica.lookup import RuleEntry
    >>> rule_source_label(RuleEntry(name="X", kind="stratagem", rules="11th",
    ...                             calculator="", record={}, source="wh40kdc 1.4.5"))
    '40kdc-data 1.4.5'
    """
    if entry.source is None:
        return None
    file, _, line = entry.source.rpartition(":")
    if not file or not line.isdigit():
        file, line = entry.source, ""
    return source_label(Source(file=PurePath(file).name or file,
                               line=int(line) if line else None))
