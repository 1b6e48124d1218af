"""The sequence contract (``docs/sequence.md``): several steps against one target unit.

A sequence is ``{"rules", "target", "steps": [...]}``; each step is one unit acting in one
phase: ``shooting`` or ``fight`` (its weapon lines attack the target), ``charge`` (the unit
rolls to reach the target ``distance`` inches away; its fight steps happen only if it
does), or a ``fight`` step with ``fights_back`` (the target's surviving models fight the
unit ``against`` with the weapon lines given). Its result has the top-level fields of a
scenario's result for the whole sequence, plus ``steps``.

>>> s = Sequence.model_validate({"rules": "10th",
...   "target": {"models": [{"count": 5, "T": 4, "Sv": 3, "W": 2}]},
...   "steps": [{"phase": "shooting", "attacker": {"name": "Neophytes", "weapons": [
...       {"name": "Autogun", "count": 8, "A": "2", "skill": 4, "S": 3, "D": "1"}]}},
...     {"phase": "charge", "unit": "Neophytes", "distance": 7}]})
>>> [st.label for st in s.steps], s.steps[1].distance
(['Neophytes', 'Neophytes'], 7.0)
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from tactica.model.common import RulesVersion

from .result import Distribution, NamedDistribution, Resolved, Result, WeaponSummary, _Out
from .sampling import DEFAULT_TRIALS, Seed, Trials, check_trial_lines
from .scenario import (
    MAX_MODELS,
    Attacker,
    Context,
    EffectEntry,
    ModelGroup,
    Scenario,
    Target,
    _Strict,
)

__all__ = ["BattleShock", "Sequence", "SequenceResult", "Step", "StepResult", "TurnDistribution"]

#: At most this many steps in one sequence.
MAX_STEPS = 12
StepPhase = Literal["shooting", "charge", "fight"]
_PHASE_ORDER = {"shooting": 0, "charge": 1, "fight": 2}


class Step(_Strict):
    """One unit acting in one phase. ``unit`` names it (default: the attacker's name);
    ``models`` are its models, needed when the target fights back against it;
    ``carried_by`` says which of its model groups carries each weapon line, or how many of
    it each carries (``{"Sergeant": 1, "Intercessor": 4}``); losses then reduce that
    line. Without it a line is matched to the models (``turn.line_shares``)."""

    phase: StepPhase
    unit: str | None = Field(default=None, max_length=200)
    attacker: Attacker | None = None
    context: Context = Context()
    effects: tuple[EffectEntry, ...] = Field(default=(), max_length=50)
    distance: float | None = Field(default=None, ge=0, le=48,
                                   description="charge: inches the charge roll must reach")
    charge_modifier: int = Field(default=0, ge=-6, le=6)
    reroll_charge: bool = Field(default=False, description="the unit can re-roll charge rolls")
    command_reroll: bool = Field(default=False,
                                 description="Command Re-roll on the charge roll (1 CP)")
    fights_back: bool = Field(default=False, description="the target's surviving models "
                              "fight the unit 'against' with the weapon lines given")
    against: str | None = Field(default=None, max_length=200)
    models: tuple[ModelGroup, ...] = Field(default=(), max_length=20)
    carried_by: dict[str, str | dict[str, Annotated[int, Field(ge=1, le=MAX_MODELS)]]] = Field(
        default_factory=dict, max_length=100)
    fights_first: bool = Field(default=False, description="the unit has Fights First")

    @property
    def label(self) -> str:
        if self.unit is not None:
            return self.unit
        return self.attacker.name if self.attacker is not None else "unit"

    @model_validator(mode="after")
    def _kind(self) -> Step:
        self.check_kind(self.attacker is not None)
        return self

    def check_kind(self, has_attacker: bool) -> None:
        """What each phase's step needs (``ValueError`` saying what is missing)."""
        if self.phase == "charge":
            if self.distance is None:
                raise ValueError("a charge step needs 'distance' (inches to the target)")
            if has_attacker or self.fights_back:
                raise ValueError("a charge step names its 'unit' and has no weapons")
            if self.unit is None:
                raise ValueError("a charge step needs 'unit' (the unit that charges)")
        else:
            if not has_attacker:
                raise ValueError(f"a {self.phase} step needs 'attacker' (its weapon lines)")
            if self.distance is not None:
                raise ValueError("'distance' belongs to a charge step")
        if self.fights_back and self.phase != "fight":
            raise ValueError("'fights_back' is a fight step")


class Sequence(_Strict):
    """Steps against one target, in the order of the turn (shooting, charges, fights)."""

    rules: RulesVersion = "11th"
    method: Literal["exact", "monte-carlo"] = "exact"
    trials: Trials = None
    seed: Seed = None
    target: Target
    steps: tuple[Step, ...] = Field(min_length=1, max_length=MAX_STEPS)
    target_leadership: int | None = Field(
        default=None, ge=2, le=12, description="the target's best Ld (battle-shock)")

    @model_validator(mode="after")
    def _trial_lines(self) -> Sequence:
        """Monte Carlo: trials x every step's weapon lines within the bound
        (``sampling.MAX_TRIAL_LINES``)."""
        if self.method == "monte-carlo":
            check_trial_lines(self.trials or DEFAULT_TRIALS, self.lines)
        return self

    @property
    def lines(self) -> int:
        """The weapon lines of every step."""
        return sum(len(st.attacker.weapons) for st in self.steps if st.attacker is not None)

    @model_validator(mode="after")
    def _order(self) -> Sequence:
        last = 0
        for i, st in enumerate(self.steps):
            k = _PHASE_ORDER[st.phase]
            if k < last:
                raise ValueError(f"steps.{i}: a {st.phase} step after a later phase's "
                                 "step (order: shooting, charge, fight)")
            last = k
        return self

    def scenario(self, i: int, attacker: Attacker, target: Target) -> Scenario:
        """The single scenario of step ``i`` for ``attacker`` against ``target``."""
        st = self.steps[i]
        return Scenario(rules=self.rules, phase="fight" if st.phase == "fight" else "shooting",
                        attacker=attacker, target=target, context=st.context,
                        effects=st.effects)


class BattleShock(_Out):
    """The target's battle-shock test after the turn (taken in its Command phase)."""

    leadership: int
    p_tested: float = Field(description="P(the target is below half strength, not destroyed)")
    p_battle_shocked: float = Field(description="P(it takes the test and fails it)")


class StepResult(_Out):
    """One step: its own dice (``attacks``, ``hits``, ``wounds``: 0 when it does not
    happen), and the target after it (``unsaved``, ``damage``, ``models_destroyed`` and
    ``p_unit_destroyed`` count from the start of the sequence)."""

    step: int = Field(description="index in the sequence's steps")
    unit: str
    phase: StepPhase
    fights_back: bool = False
    p_happens: float = Field(description="P(the step happens: its unit is engaged (its "
                             "charge was made), has models left and its target is alive)")
    p_charge: float | None = Field(default=None, description="charge: P(the charge is made); "
                                   "p_happens is P(it is declared: the target is alive)")
    attacks: Distribution
    hits: Distribution
    wounds: Distribution
    unsaved: Distribution
    damage: Distribution
    models_destroyed: Distribution
    p_unit_destroyed: float
    attacker_mortal_wounds: Distribution
    attacker_losses: Distribution | None = Field(
        default=None, description="fight back: models the unit fought loses, in total")
    weapons: tuple[WeaponSummary, ...] = ()
    notes: tuple[str, ...] = ()
    not_calculated: tuple[str, ...] = ()
    effects_applied: tuple[str, ...] = ()
    cp_spent: int = Field(default=0, description="CP spent whatever the dice (a charge's "
                          "Command Re-roll is in cp_expected)")
    cp_expected: float = Field(default=0.0, description="CP expected: cp_spent plus a "
                               "charge's Command Re-roll times P(it is used)")
    other_mortal_wounds: tuple[NamedDistribution, ...] = ()
    resolved: Resolved | None = Field(
        default=None, description="what the step's named unit resolved into")


class TurnDistribution(Distribution):
    """A distribution of the whole turn's dice; ``exact`` is false where it is a mixture
    of parted worlds (its mean is exact; the notes say so)."""

    exact: bool = True


class SequenceResult(Result):
    """A scenario result for the whole sequence, plus one result per step."""

    attacks: TurnDistribution
    hits: TurnDistribution
    wounds: TurnDistribution
    attacker_mortal_wounds: TurnDistribution
    cp_expected: float = Field(default=0.0, description="CP expected over the turn "
                               "(cp_spent plus the Command Re-rolls of charges times P(used))")
    steps: tuple[StepResult, ...] = ()
    battle_shock: BattleShock | None = None
