"""Effects in a scenario: plain modifiers pass through; named rules are looked up.

Named effects (stratagems, detachment rules, enhancements, abilities by name) register
in ``NAMED_EFFECTS``; a name that is not registered is refused with the field named.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .scenario import Effect, Scenario

__all__ = ["NAMED_EFFECTS", "NamedEffectError", "NamedEffects", "resolve_effects"]


class NamedEffectError(ValueError):
    """A named effect that is unknown or whose conditions fail."""


@dataclass(frozen=True)
class NamedEffects:
    """What the named effects of a scenario amount to, besides their modifiers."""

    applied: tuple[str, ...] = ()
    cp: int = 0
    notes: tuple[str, ...] = ()
    not_calculated: tuple[str, ...] = ()


#: name (normalised) -> function(scenario) -> (modifiers, cp, notes, not_calculated)
NAMED_EFFECTS: dict[
    str, Callable[[Scenario], tuple[tuple[Effect, ...], int, tuple[str, ...], tuple[str, ...]]]
] = {}


def _norm(name: str) -> str:
    return " ".join("".join(c for c in name.casefold() if c.isalnum() or c.isspace()).split())


def resolve_effects(scenario: Scenario) -> tuple[tuple[Effect, ...], NamedEffects]:
    """Plain effects plus the modifiers of every named effect."""
    effects = list(scenario.plain_effects)
    applied: list[str] = []
    notes: list[str] = []
    not_calc: list[str] = []
    cp = 0
    for i, entry in enumerate(scenario.effects):
        if not isinstance(entry, str):
            continue
        fn = NAMED_EFFECTS.get(_norm(entry))
        if fn is None:
            raise NamedEffectError(f"effects.{i}: unknown effect {entry!r}")
        mods, cost, n, nc = fn(scenario)
        effects.extend(mods)
        applied.append(entry)
        cp += cost
        notes.extend(n)
        not_calc.extend(nc)
    return tuple(effects), NamedEffects(tuple(applied), cp, tuple(notes), tuple(not_calc))
