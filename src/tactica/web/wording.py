"""Player-facing wording for the pages: where a datasheet or rule was read, and the
loaders' notes, in the player's words — no file names, spec references or field paths.

The library keeps exact provenance (``Source.file`` is a seed page's file name, a
catalogue's or the dataset's name; notes cite the project's reference facts); the pages
say the same thing the way a player names it: "Primus datasheet (seed page)",
"40kdc-data 1.4.5", "BSData catalogue (gsc)".
"""

from __future__ import annotations

import re

from ..service import Source, context_words

__all__ = ["CONTEXT_WORDS", "player_text", "source_label"]

_SEED_FILE = re.compile(r"^\d{3}_[0-9a-f]{16}\.txt$")
_DATASET = re.compile(r"^wh40kdc\b\s*(.*)$")

#: (pattern, replacement), applied in order to every note shown on a page.
_REWRITES: tuple[tuple[re.Pattern[str], str], ...] = (
    # "from reference_facts.md §1 (wh40kdc 40kdc-data, 11th edition launch)"
    (re.compile(r"reference_facts\.md §[\d.]+ \(wh40kdc 40kdc-data, ([^)]*)\)"),
     r"40kdc-data (\1)"),
    (re.compile(r"\s*\((?:reference_facts\.md|reference facts|inventory) §[^)]*\)"), ""),
    (re.compile(r"\b(?:\w+\.md|reference facts|inventory) §[\w.]+(?: \[\w+\])?"),
     "the reference data"),
    (re.compile(r"\bthe \d{3} page\b"), "the seed page"),
    (re.compile(r"\bwh40kdc (\d+\.\d+(?:\.\d+)?)"), r"40kdc-data \1"),
    (re.compile(r"\b\d{3}_[0-9a-f]{16}\.txt(?::\d+)?"), "the seed page"),
    (re.compile(r"^line \d+: "), ""),
    (re.compile(r"\s*\((?:context|target|attacker)\.[\w.]+[^)]*\)"), ""),
    # "needs context.charged (ended a charge move)" -> "needs: ended a charge move"
    (re.compile(r"needs context\.\w+(?: of at most [^(]*)? \(([^)]*)\)"), r"needs: \1"),
)

#: What a circumstance of the scenario is called at the table (the contract's words,
#: ``context_words``).
CONTEXT_WORDS = context_words()
_CONTEXT_FIELD = re.compile(r"\bcontext\.(\w+)")


def source_label(source: Source, unit: str | None = None) -> str:
    """Where a record was read, as a player names it.

    >>> source_label(Source(file="000_0f632543a676f819.txt", line=550), "Primus")
    'Primus datasheet (seed page)'
    >>> source_label(Source(file="wh40kdc 1.4.5"))
    '40kdc-data 1.4.5'
    >>> source_label(Source(file="gsc.json", line=12))
    'BSData catalogue (gsc)'
    """
    file = source.file
    if _SEED_FILE.match(file):
        return f"{unit} datasheet (seed page)" if unit else "seed page"
    dataset = _DATASET.match(file)
    if dataset:
        return f"40kdc-data {dataset.group(1)}".strip()
    if file.endswith(".json"):
        return f"BSData catalogue ({file.removesuffix('.json')})"
    return file


def player_text(text: str) -> str:
    """A loader's note without file names, spec references or field paths.

    >>> player_text("Primus: M, T, W from reference_facts.md §1 (wh40kdc 40kdc-data, "
    ...             "11th edition launch)")
    'Primus: M, T, W from 40kdc-data (11th edition launch)'
    >>> player_text("line 275: the 9th-edition text was skipped as obsolete (inventory §0 '9E')")
    'the 9th-edition text was skipped as obsolete'
    >>> player_text("Coordinated Trap: needs context.charged (ended a charge move)")
    'Coordinated Trap: needs: ended a charge move'
    >>> player_text("11th datasheet from seed pages; also in wh40kdc 1.4.5")
    '11th datasheet from seed pages; also in 40kdc-data 1.4.5'
    """
    for pattern, replacement in _REWRITES:
        text = pattern.sub(replacement, text)
    return _CONTEXT_FIELD.sub(
        lambda m: CONTEXT_WORDS.get(m.group(1), m.group(1).replace("_", " ")), text)
