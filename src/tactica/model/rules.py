"""Rules records: stratagems, detachment rules, enhancements, core rules, FAQs, errata."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from .common import Frozen, RulesVersion, Source

__all__ = [
    "ArmyRule",
    "CoreRule",
    "Detachment",
    "DetachmentRule",
    "Enhancement",
    "Errata",
    "FaqEntry",
    "GrantedKeyword",
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
    # --- from the bundled dataset (issue 16); the seed pages leave them empty ---------
    faction: str | None = None
    phases: tuple[str, ...] = ()
    timing: str | None = None  # once-per-phase, once-per-turn, once-per-battle
    turn: str | None = None  # your-turn, opponent-turn, either
    key: str | None = None  # the dataset's id


class DetachmentRule(Frozen):
    """A detachment's army rule ("A Perfect Ambush", Host of Ascension)."""

    record: Literal["detachment_rule"] = "detachment_rule"
    name: str
    detachment: str | None
    text: str
    rules: RulesVersion
    source: Source
    faction: str | None = None
    key: str | None = None


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
    faction: str | None = None
    #: the bearer needs every keyword of one of these groups (dataset restrictions)
    keyword_groups: tuple[tuple[str, ...], ...] = ()
    excluded_keywords: tuple[str, ...] = ()
    unique: bool | None = None
    game_modes: tuple[str, ...] = ()
    key: str | None = None


class GrantedKeyword(Frozen):
    """A keyword a detachment gives to some units ("CHARACTER to up to 3 WAR DOG")."""

    keyword: str
    to_keywords: tuple[str, ...]
    max_selected: int | None = None


class Detachment(Frozen):
    """A detachment: its faction, detachment points (11th: what it costs of the army's
    allowance), rules, stratagems and enhancements by name, granted keywords and the
    keywords every unit needs (``required_keywords``: "Blade of Ultramar": ULTRAMARINES)."""

    record: Literal["detachment"] = "detachment"
    name: str
    faction: str
    #: every faction whose armies may take it (a chapter takes its parent's detachments)
    factions: tuple[str, ...] = ()
    points: int | None = Field(default=None, ge=0)
    rule_names: tuple[str, ...] = ()
    stratagems: tuple[str, ...] = ()
    enhancements: tuple[str, ...] = ()
    granted_keywords: tuple[GrantedKeyword, ...] = ()
    required_keywords: tuple[str, ...] = ()
    unit_minimums: tuple[tuple[str, int], ...] = ()
    game_modes: tuple[str, ...] = ()
    rules: RulesVersion
    source: Source
    key: str | None = None


class ArmyRule(Frozen):
    """A faction's army rule ("Oath of Moment") and the factions that have it."""

    record: Literal["army_rule"] = "army_rule"
    name: str
    factions: tuple[str, ...]
    rules: RulesVersion
    source: Source
    key: str | None = None


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


RuleRecord = (Stratagem | DetachmentRule | Enhancement | CoreRule | FaqEntry | Errata
              | Detachment | ArmyRule)
