"""Rules records: stratagems, detachment rules, enhancements, core rules, FAQs, errata."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from .common import Frozen, RulesVersion, Source

__all__ = [
    "CoreRule",
    "DetachmentRule",
    "Enhancement",
    "Errata",
    "FaqEntry",
    "RuleRecord",
    "Stratagem",
    "StratagemCategory",
]

StratagemCategory = Literal["Battle Tactic", "Strategic Ploy", "Epic Deed", "Wargear"]


class Stratagem(Frozen):
    """A stratagem. ``detachment`` is ``"Core"`` for core stratagems and ``"Boarding
    Actions"`` for that game mode; ``category`` is ``None`` where the page gives none
    (11th-edition core stratagems show only "Core")."""

    record: Literal["stratagem"] = "stratagem"
    name: str
    cp: int = Field(ge=0, le=5)
    detachment: str
    category: StratagemCategory | None = None
    section: str | None = None
    flavour: str | None = None
    when: str | None = None
    target: str | None = None
    effect: str | None = None
    restrictions: str | None = None
    rules: RulesVersion
    source: Source


class DetachmentRule(Frozen):
    """A detachment's army rule ("A Perfect Ambush", Host of Ascension)."""

    record: Literal["detachment_rule"] = "detachment_rule"
    name: str
    detachment: str | None
    text: str
    rules: RulesVersion
    source: Source


class Enhancement(Frozen):
    """An enhancement: points, detachment, who may take it, and its rule text."""

    record: Literal["enhancement"] = "enhancement"
    name: str
    points: int | None = Field(default=None, ge=0)
    detachment: str
    eligibility: str | None = None
    flavour: str | None = None
    text: str | None = None
    rules: RulesVersion
    source: Source


class CoreRule(Frozen):
    """A core rule or core/faction ability text, with its section number (11th) or
    ``None`` (10th pages are unnumbered)."""

    record: Literal["core_rule"] = "core_rule"
    section: str | None = None
    title: str
    text: str
    rules: RulesVersion
    source: Source


class FaqEntry(Frozen):
    record: Literal["faq"] = "faq"
    topic: str | None = None
    question: str
    answer: str
    rules: RulesVersion
    source: Source


class Errata(Frozen):
    record: Literal["errata"] = "errata"
    target: str | None = None
    text: str
    rules: RulesVersion
    source: Source


RuleRecord = Stratagem | DetachmentRule | Enhancement | CoreRule | FaqEntry | Errata
