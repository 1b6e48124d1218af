"""Transport capacity: the datasheet's capacity text read into rules, and the space a
unit takes up.

The two seed transports (rules_inventory.md §A2, §A5):

* Banehammer (001): "a transport capacity of 26 ASTRA MILITARUM INFANTRY models. Each
  HEAVY WEAPONS TEAM model and VETERAN HEAVY WEAPONS TEAM model takes up the space of 2
  models. Each OGRYN model takes up the space of 3 models. It cannot transport ARTILLERY
  models."
* Tyrannocyte (004): "a transport capacity of 20 TYRANIDS INFANTRY models, or 1 TYRANIDS
  MONSTER model with a Wounds characteristic of 12 or less. Each INFANTRY model with a
  Wounds characteristic of more than 1 takes up the space of 3 models."

The 11th-edition dataset writes only "Transport capacity: 12 models"; that reads as a
capacity with no keyword restriction.

>>> rules = parse_transport("This model has a transport capacity of 26 ASTRA MILITARUM "
...     "INFANTRY models. Each OGRYN model takes up the space of 3 models. It cannot "
...     "transport ARTILLERY models.")
>>> rules.capacity, rules.keywords, rules.spaces, rules.excluded
(26, 'ASTRA MILITARUM INFANTRY', (('OGRYN', 3),), ('ARTILLERY',))
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from ..model.datasheet import Datasheet, ModelProfile
from ..names import name_key

__all__ = ["TransportRules", "covers", "model_wounds", "parse_transport"]

_KW = r"(?:[A-Z][A-Z'’\-]*\s+)+?"
_CAPACITY = re.compile(r"transport capacity(?:\s+of|:)\s*(\d+)\s+(.*?)\s*models?\b",
                       re.IGNORECASE)
_WOUNDS = re.compile(rf"Each ({_KW})models? with a Wounds characteristic of more than "
                     r"(\d+) takes up the space of (\d+) models")
_SPACES = re.compile(rf"Each ({_KW})models?(?: and ({_KW})models?)? takes up the space of "
                     r"(\d+) models")
_EXCLUDED = re.compile(r"cannot transport ((?:[A-Z][A-Z'’\-]*(?:,\s*|\s+or\s+|\s+))+)models")
_ALTERNATIVE = re.compile(rf"or (\d+) ({_KW})models? with a Wounds characteristic of (\d+) "
                          r"or less")


@dataclass(frozen=True)
class TransportRules:
    """A transport's capacity read from its text: ``keywords`` is the phrase every
    passenger model must have ("ASTRA MILITARUM INFANTRY"; ``None``: any model),
    ``spaces`` the models that take more than one space, ``wound_spaces`` a
    (keywords, more-than-W, spaces) rule, ``excluded`` the keywords that cannot embark,
    ``alternative`` a (count, keywords, max W) load allowed instead."""

    capacity: int | None
    keywords: str | None = None
    spaces: tuple[tuple[str, int], ...] = ()
    wound_spaces: tuple[str, int, int] | None = None
    excluded: tuple[str, ...] = ()
    alternative: tuple[int, str, int] | None = None


def _phrase(text: str | None) -> str:
    return " ".join((text or "").split())


def parse_transport(text: str) -> TransportRules:
    """Read a capacity text (see the module text for the forms understood)."""
    body = " ".join(text.split())
    capacity, keywords = None, None
    found = _CAPACITY.search(body)
    if found:
        capacity = int(found.group(1))
        keywords = _phrase(found.group(2)) or None
    wound_spaces = None
    wounds = _WOUNDS.search(body)
    if wounds:
        wound_spaces = (_phrase(wounds.group(1)), int(wounds.group(2)), int(wounds.group(3)))
        body = body.replace(wounds.group(0), "")
    spaces = []
    for m in _SPACES.finditer(body):
        for group in (m.group(1), m.group(2)):
            if group:
                spaces.append((_phrase(group), int(m.group(3))))
    excluded: tuple[str, ...] = ()
    ex = _EXCLUDED.search(body)
    if ex:
        excluded = tuple(p for p in (_phrase(x) for x in re.split(r",|\bor\b", ex.group(1))) if p)
    alternative = None
    alt = _ALTERNATIVE.search(body)
    if alt:
        alternative = (int(alt.group(1)), _phrase(alt.group(2)), int(alt.group(3)))
    return TransportRules(capacity, keywords, tuple(spaces), wound_spaces, excluded, alternative)


def covers(phrase: str, keywords: Iterable[str]) -> bool:
    """Whether the words of ``phrase`` are a run of whole keywords the unit has
    ("GENESTEALER CULTS INFANTRY" = GENESTEALER CULTS + INFANTRY), case-insensitive.

    >>> covers("GENESTEALER CULTS INFANTRY", ["INFANTRY", "GENESTEALER CULTS"])
    True
    >>> covers("ASTRA MILITARUM INFANTRY", ["INFANTRY", "GENESTEALER CULTS"])
    False
    """
    have = {" ".join(k.upper().split()) for k in keywords}
    words = phrase.upper().split()
    reachable = [True] + [False] * len(words)
    for i in range(len(words)):
        if not reachable[i]:
            continue
        for j in range(i + 1, len(words) + 1):
            if " ".join(words[i:j]) in have:
                reachable[j] = True
    return bool(words) and reachable[-1]


def _singular(name: str) -> str:
    key = name_key(name)
    return key[:-1] if key.endswith("s") else key


def _profile(sheet: Datasheet, model: str | None) -> ModelProfile | None:
    if model is not None:
        key = _singular(model)
        found = next((p for p in sheet.models if _singular(p.name) == key), None)
        if found is not None:
            return found
    return sheet.models[0] if len(sheet.models) == 1 else None


def model_wounds(sheet: Datasheet, models: int,
                 entries: Iterable[tuple[str | None, int]] = ()) -> list[tuple[int | None, int]]:
    """(W, count) for the models of a unit of ``models`` models: from the list's model
    entries where they name a model profile, else spread over the composition lines
    (each line's minimum, the rest to the first line with room), else the highest W."""
    named = [(p, c) for n, c in entries if (p := _profile(sheet, n)) is not None]
    if named and sum(c for _, c in named) == models:
        return [(p.W, c) for p, c in named]
    if len(sheet.models) == 1:
        return [(sheet.models[0].W, models)]
    lines = sheet.composition
    if lines and sum(line.min for line in lines) <= models <= sum(line.max for line in lines):
        extra = models - sum(line.min for line in lines)
        out = []
        for line in lines:
            add = min(extra, line.max - line.min)
            extra -= add
            profile = _profile(sheet, line.model)
            if line.min + add:
                out.append((profile.W if profile else None, line.min + add))
        return out
    known = [p.W for p in sheet.models if p.W is not None]
    return [(max(known) if known else None, models)]
