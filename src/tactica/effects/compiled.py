"""What one effect tree compiles to (issue 16, issue 24): the parts the engine computes
(``Part``) and the record's whole translation (``Compiled``: parts, non-combat kinds,
what is not modelled, unknown kinds and modifier keys, the options and what each does)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Literal

from ..combat.contract.scenario import Effect
from ..dice import FloatArray
from .dsl_conditions import Attack, Owner
from .model import Condition

__all__ = ["Compiled", "Part"]


@dataclass(frozen=True)
class Part:
    """One leaf the engine computes, with whose rule it is and what it needs."""

    owner: Owner
    terms: str
    conditions: tuple[Condition, ...] = ()
    assumptions: tuple[str, ...] = ()
    attack: Attack | None = None
    option: str | None = None
    #: only the attacker's weapons with this ability or one of these names
    #: (``weapon_keyword``/``weapon_name``: a name or a list of names)
    weapon_keyword: str | None = None
    weapon_names: tuple[str, ...] = ()
    modifiers: tuple[Effect, ...] = ()
    target_changes: tuple[tuple[str, str, int], ...] = ()
    context: tuple[tuple[str, object], ...] = ()
    mortal_before: FloatArray | None = None
    side: FloatArray | None = None
    #: only attacks whose Strength is greater than the target's Toughness (``applies_when``)
    strength_over_toughness: bool = False
    #: modifier keys no reader understood (listed under ``not_calculated``)
    unread: tuple[str, ...] = ()
    #: the leaf is on the rule's bearer alone (``self``, ``bearer``), not its whole unit
    bearer: bool = False


@dataclass
class Compiled:
    """What one effect tree compiles to."""

    parts: list[Part] = field(default_factory=list)
    non_combat: Counter[str] = field(default_factory=Counter)
    unmodelled: list[str] = field(default_factory=list)
    unknown: Counter[str] = field(default_factory=Counter)
    options: list[str] = field(default_factory=list)
    #: modifier keys of combat leaves that no reader understood
    unread: Counter[str] = field(default_factory=Counter)
    #: what each option does, by its label
    option_terms: dict[str, str] = field(default_factory=dict)

    @property
    def status(self) -> Literal["modelled", "non-combat", "not modelled"]:
        if self.parts:
            return "modelled"
        if not self.unmodelled and not self.unknown:
            return "non-combat"
        return "not modelled"

    @property
    def reason(self) -> str:
        """Why the status: what is not modelled, else what the rule is about."""
        if self.status == "not modelled":
            why = list(dict.fromkeys(self.unmodelled)) + [
                f"effect kind {k!r} unknown" for k in self.unknown]
            return "; ".join(why[:3])
        if self.status == "non-combat":
            return ", ".join(k for k, _ in self.non_combat.most_common(3)) or "nothing"
        return ""
