"""One cell of a matchup: one unit attacking one enemy unit in one phase, exactly.

The scenario is the one ``tactica calc --list`` builds for a unit of a list: the unit's
weapons as the list equips them, its leaders in ``context.led_by``, the army's faction and
detachment, its and its leaders' abilities that are combat rules, then the list's
detachment rules and enhancements whose conditions hold against this target
(``tactica.army.attack.apply_list_effects``), then any stratagem named for the unit (also
applied only where its conditions hold). The fight is after a charge (``charged``); with a
charge distance the fight happens only if the charge roll (2D6, 11th/10th turn rules)
reaches it, so every expectation is multiplied by P(charge) and P(destroyed) likewise (the
mixture of the two outcomes).

The numbers come from ``tactica.combat.exact.engine.calculate_exact_from`` (the target's final
state distribution, which gives the points destroyed of each model entry:
``tactica.plan.points``); they are those of ``tactica.calculate`` on the same scenario.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any, Literal

import numpy as np

from ..army.attack import with_unit_rules
from ..combat.contract.result import Result
from ..combat.contract.scenario import Context, Scenario, ScenarioError, Target
from ..combat.exact.allocation import StateSpace, build_groups
from ..combat.exact.engine import Initial, calculate_exact, calculate_exact_from
from ..combat.exact.profile import range_note
from ..combat.turn.charge import charge_probability
from ..effects.candidates import apply_candidates
from ..rules.turn import get_turn_rules
from .army import Armed, Pending, Phase, Side, SideUnit, units_hint
from .points import points_destroyed

__all__ = ["Cell", "Conditions", "Status", "compute_cell", "pair_scenario"]

Status = Literal["ok", "cannot attack", "cannot be attacked", "refused"]


@dataclass(frozen=True)
class Conditions:
    """The table situation every cell assumes. ``charge``: inches to charge before a
    fight (``None``: the unit is in combat after a successful charge); ``stratagems``:
    unit label -> named effects for that unit's attacks. ``distance``: inches between
    the shooter and its target in every shooting cell, ``distances`` for one pair (my
    unit, the enemy unit: labels or names, whichever side shoots), ``unit_distances``
    for one unit and every unit of the other side; a ranged weapon beyond its range
    makes no attacks (04.02). ``None``: every target within range. The fight plan reads
    the same distances as the charge's (``charge_modifiers``, ``charge_rerolls``: a
    unit's modifier to its charge rolls and its re-roll of them)."""

    charge: float | None = None
    stationary: bool = False
    half_range: bool = False
    cover: bool = False
    stratagems: dict[str, tuple[str, ...]] = field(default_factory=dict)
    distance: float | None = None
    distances: dict[tuple[str, str], float] = field(default_factory=dict)
    unit_distances: dict[str, float] = field(default_factory=dict)
    charge_modifiers: dict[str, int] = field(default_factory=dict)
    charge_rerolls: tuple[str, ...] = ()

    def check(self, units: Iterable[SideUnit], rules: str) -> None:
        """Refuse a stratagem named for a unit no side has, or a name no rule has
        (``UnknownNameError`` / ``UnknownEffectError``, naming ``stratagems``, with close
        names or else the units)."""
        from ..effects import find_effect
        from ..names import UnknownNameError, suggest

        known = sorted({u.label for u in units})
        for label, names in self.stratagems.items():
            if label not in known:
                error = UnknownNameError("unit", label, suggest(label, known))
                hint = "" if error.suggestions else units_hint("the", known)
                error.args = (f"stratagems: {error}{hint}",)
                raise error
            for name in names:
                try:
                    find_effect(name, rules)
                except LookupError as exc:
                    exc.args = (f"stratagems: {exc}",)
                    raise

    def for_sides(self, mine: Side, enemy: Side) -> Conditions:
        """These conditions with each pair of ``distances`` named by the units' labels
        (a unit's name finds it when one unit has it: ``Side.unit``; an unknown one is
        refused with ``UnknownNameError``); likewise the units of ``unit_distances``
        (of either side: mine first), ``charge_modifiers`` and ``charge_rerolls`` (mine)."""
        if not (self.distances or self.unit_distances or self.charge_modifiers
                or self.charge_rerolls):
            return self
        pairs = {(mine.unit(a, "distances").label, enemy.unit(t, "distances").label): inches
                 for (a, t), inches in self.distances.items()}
        units = {_either(mine, enemy, u): inches for u, inches in self.unit_distances.items()}
        return replace(self, distances=pairs, unit_distances=units,
                       charge_modifiers={mine.unit(u, "charge_modifiers").label: m
                                         for u, m in self.charge_modifiers.items()},
                       charge_rerolls=tuple(mine.unit(u, "reroll_charges").label
                                            for u in self.charge_rerolls))

    def between(self, attacker: str, target: str) -> float | None:
        """The inches between two units by label (``distances`` either way round, else
        either unit's ``unit_distances``, else ``distance``)."""
        found = self.distances.get((attacker, target), self.distances.get((target, attacker)))
        if found is None:
            found = self.unit_distances.get(attacker, self.unit_distances.get(target))
        return self.distance if found is None else found

    def charge_roll(self, label: str) -> tuple[int, bool]:
        """The modifier to the charge rolls of the unit labelled ``label`` and whether it
        re-rolls them."""
        return self.charge_modifiers.get(label, 0), label in self.charge_rerolls

    def context(self, armed: Armed, phase: Phase, distance: float | None = None) -> Context:
        built = armed.built
        toughness = next((m.T for m in built.sheet.models if m.T is not None), None)
        return Context(led_by=built.led_by, army_faction=built.army_faction,
                       detachment=built.detachment, attacker_toughness=toughness,
                       charged=phase == "fight", remained_stationary=self.stationary,
                       within_half_range=True if self.half_range else None,
                       cover=self.cover and phase == "shooting",
                       distance=distance if phase == "shooting" else None)


@dataclass(frozen=True)
class Cell:
    """One attacker against one target in one phase. ``points`` are expected points
    destroyed, ``per_100`` the same per 100 points of the attacker; ``p_charge`` the
    chance the charge reaches (fight cells with a charge distance)."""

    attacker: str
    target: str
    phase: Phase
    status: Status
    reason: str = ""
    models_destroyed: float = 0.0
    p_destroyed: float = 0.0
    damage: float = 0.0
    points: float = 0.0
    per_100: float = 0.0
    p_charge: float | None = None
    target_models: int = 0
    target_points: int = 0
    effects: tuple[str, ...] = ()
    cp: int = 0
    notes: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return self.status == "ok"


def pair_scenario(armed: Armed, target: Target, phase: Phase, rules: str,
                  conditions: Conditions, label: str, target_label: str | None = None,
                  pending: Pending = ()) -> tuple[Scenario, list[str]]:
    """The scenario of ``armed`` (the unit labelled ``label``) attacking ``target`` (the
    unit labelled ``target_label``) (the module text), with notes. ``pending``: the
    target's defences that wait for the attacker (``SideUnit.pending``), applied after
    the attacker's abilities as the calculator applies them."""
    distance = conditions.distance if target_label is None else \
        conditions.between(label, target_label)
    scenario = Scenario(rules=rules, phase=phase, attacker=armed.built.attacker,
                        target=target, context=conditions.context(armed, phase, distance))
    scenario, notes = with_unit_rules(scenario, armed.abilities, armed.sheets,
                                      armed.built.candidates, armed.built.situational,
                                      tuple(pending))
    named = conditions.stratagems.get(label, ())
    if named:
        scenario, more = apply_candidates(scenario, named, "named for this unit")
        notes += more
    return scenario, notes


def _either(mine: Side, enemy: Side, name: str) -> str:
    """The label of the unit named ``name`` in ``mine``, else in ``enemy`` (refused with
    both sides' close names, or their units, naming ``distances``)."""
    from ..names import UnknownNameError, suggest
    from .army import UnknownUnitError

    try:
        return mine.unit(name).label
    except UnknownNameError as first:
        try:
            return enemy.unit(name).label
        except UnknownNameError as second:
            labels = [u.label for u in (*mine.units, *enemy.units)]
            close = [*first.suggestions, *second.suggestions] or suggest(name, labels)
            raise UnknownUnitError(f"{mine.name} or {enemy.name}", name, close, labels,
                                   "distances") from None


def fresh(target: Target) -> Initial:
    """The undamaged target as a state distribution (no unsaved attacks yet)."""
    return {StateSpace(build_groups(target)).initial: np.ones(1)}


def compute_cell(unit: SideUnit, enemy: SideUnit, phase: Phase, rules: str,
                 conditions: Conditions, memo: dict[Any, Any] | None = None) -> Cell:
    """The cell of ``unit`` attacking ``enemy`` in ``phase`` (never raises: a unit that
    cannot attack, or a scenario the exact engine refuses, is a cell saying why).
    ``memo``: the engine's work shared by the cells of one matrix
    (``tactica.combat.batch``), used when the target's models all cost the same (the
    points destroyed are then that cost times the models destroyed)."""
    base = Cell(attacker=unit.label, target=enemy.label, phase=phase, status="ok",
                target_points=enemy.points)
    armed, target = unit.attack.get(phase), enemy.target.get(phase)
    if not isinstance(armed, Armed):
        return _with(base, status="cannot attack", reason=armed or "no weapons")
    if not isinstance(target, Target):
        return _with(base, status="cannot be attacked", reason=target or "no models")
    armed = unit.armed(phase, target,  # its profiles picked against this target
                       conditions.between(unit.label, enemy.label) if phase == "shooting"
                       else None)
    if not isinstance(armed, Armed):
        return _with(base, status="cannot attack", reason=armed)
    try:
        scenario, notes = pair_scenario(armed, target, phase, rules, conditions, unit.label,
                                        enemy.label, enemy.pending.get(phase, ()))
        result, points = _exact(scenario, enemy, memo if memo is not None else {})
    except (ScenarioError, ValueError) as exc:
        return _with(base, status="refused", reason=" ".join(str(exc).split()))
    p = 1.0
    if phase == "fight" and conditions.charge is not None:
        p = charge_probability(conditions.charge, 0, False, get_turn_rules(rules))
    points *= p
    return _with(base, models_destroyed=p * result.models_destroyed.mean,
                 p_destroyed=p * result.p_unit_destroyed, damage=p * result.damage.mean,
                 points=points, per_100=100.0 * points / unit.points if unit.points else 0.0,
                 p_charge=p if phase == "fight" and conditions.charge is not None else None,
                 target_models=sum(g.count for g in target.models),
                 effects=result.effects_applied, cp=result.cp_spent,
                 notes=_notes(scenario, notes, result))


def _notes(scenario: Scenario, notes: list[str], result: Result) -> tuple[str, ...]:
    """A cell's notes: the rules applied (the attacker's own abilities, the target's
    defences, as fielded: Fire Dragons' re-rolls against a VEHICLE), the effects' notes,
    the result's and the lines out of range, each once."""
    applied = (*scenario.attacker.rules_applied, *scenario.target.rules_applied)
    said = " ".join(result.notes)
    return tuple(dict.fromkeys((*(f"applied: {r}" for r in applied if r not in said),
                                *notes, *result.notes, *_beyond(scenario, result))))


def _beyond(scenario: Scenario, result: Result) -> list[str]:
    """The result's word on the lines out of range (04.02), for the cell's notes."""
    d = scenario.context.distance
    lines = {range_note(w.name, d) for w in scenario.attacker.weapons} if d is not None else ()
    return [n for n in result.not_calculated if n in lines]


def _exact(scenario: Scenario, enemy: SideUnit, memo: dict[Any, Any]) -> tuple[Result, float]:
    """The result and the expected points destroyed. A scenario met before in ``memo``
    (the same attacker, effects and target: two copies of a unit) is not computed again."""
    key = ("tactica.plan cell", scenario.model_dump_json())
    costs = {ppm for _, ppm in enemy.entry_points}
    if key not in memo:
        if len(costs) == 1:
            memo[key] = (calculate_exact(scenario, memo), None)
        else:
            memo[key] = calculate_exact_from(scenario, fresh(scenario.target))
    result, final = memo[key]
    if final is None:
        if len(costs) == 1:
            return result, costs.pop() * result.models_destroyed.mean
        result, final = memo[key] = calculate_exact_from(scenario, fresh(scenario.target))
    return result, points_destroyed(scenario.target.models, enemy.entry_points, final)


def _with(cell: Cell, **changes: object) -> Cell:
    return replace(cell, **changes)  # type: ignore[arg-type]
