"""How stratagems may be used in one scenario (11th 15.01, the seed pages' WHEN lines).

A scenario is one unit's attacks in one phase, so:

* **once per phase**: the same stratagem named twice is refused ("You cannot use the same
  Stratagem more than once per phase", core rules, Stratagems);
* **WHEN**: a stratagem is used in the phase its WHEN names. The shooting/fight phase is
  checked by each named effect (``NamedEffect.phases``); Fire Overwatch (15.08) happens in
  the opponent's Movement or Charge phase, so with Fire Overwatch named only stratagems
  whose WHEN allows those phases may be used: Command Re-roll ("Any phase", 15.02) and the
  dataset stratagems whose phases include movement or charge. Every other seed stratagem's
  WHEN names the Shooting or Fight phase (its seed page);
* **game mode**: a Boarding Actions stratagem (the seed pages' Boarding Actions and Cult
  Unveiled stratagems) is refused outside ``context.game_mode`` "boarding actions"; a
  Combat Patrol detachment's (dataset ``game_modes``) outside "combat patrol".

The 15.01 limit on one unit being affected by several stratagems is not checked: its
published text is not in the shared material (see the issue's report).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..combat.contract.scenario import Scenario
from ..names import normalise
from .model import NamedEffect

__all__ = ["BOARDING_ACTIONS_SOURCES", "OVERWATCH_ALLOWED", "stratagem_use_problems"]

#: Seed sources whose stratagems are Boarding Actions ones (seed 000/002 headings).
BOARDING_ACTIONS_SOURCES = frozenset({"boarding actions", "cult unveiled"})
#: Stratagems usable while resolving Fire Overwatch whatever their phases say.
OVERWATCH_ALLOWED = frozenset({"fire overwatch", "command re roll"})


def _modes(effect: NamedEffect) -> tuple[str, ...]:
    if effect.game_modes:
        return tuple(m.replace("-", " ") for m in effect.game_modes)
    return ("boarding actions",) if normalise(effect.source) in BOARDING_ACTIONS_SOURCES else ()


def stratagem_use_problems(scenario: Scenario,
                           used: Sequence[tuple[int, NamedEffect]]) -> list[str]:
    """Every refusal for the stratagems ``used`` (their index in ``scenario.effects``)."""
    out: list[str] = []
    strats = [(i, e) for i, e in used if e.kind == "stratagem"]
    seen: dict[str, int] = {}
    for i, e in strats:
        key = normalise(e.name)
        if key == "command re roll":  # once per roll (15.02), checked with the roll
            continue
        if key in seen:
            out.append(f"effects.{i}: {e.name}: already used in this phase (effects."
                       f"{seen[key]}); the same stratagem can be used once per phase")
        seen.setdefault(key, i)
    overwatch = any(normalise(e.name) == "fire overwatch" for _, e in strats)
    for i, e in strats:
        if overwatch and normalise(e.name) not in OVERWATCH_ALLOWED and not (
                {"movement", "charge"} & set(e.when_phases)):
            phases = "/".join(e.when_phases or e.phases)
            out.append(f"effects.{i}: {e.name}: used in the {phases} phase, not during "
                       "Fire Overwatch (the opponent's Movement or Charge phase)")
        modes = _modes(e)
        if modes and scenario.context.game_mode not in modes:
            out.append(f"effects.{i}: {e.name}: a {' / '.join(modes)} stratagem; "
                       f"context.game_mode is {scenario.context.game_mode}")
    return out
