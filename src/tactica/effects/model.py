"""Named effects: a rule a player names ("Coordinated Trap") as conditions plus what it
does in engine terms (plain modifiers, context changes, mortal-wound rolls).

Each effect declares what it needs; ``NamedEffect.check`` returns every failed
condition as a sentence ("Coordinated Trap: the attacker is not a GENESTEALER CULTS
unit"), and ``NamedEffect.apply`` what it adds to the scenario.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, cast

import numpy as np

from ..combat.contract.scenario import Effect, Scenario
from ..dice import DiceExpr, FloatArray
from ..model.common import RulesVersion
from ..model.trusted import validating_all
from ..names import article, name_key

__all__ = [
    "SCENARIO_PARTS",
    "Condition",
    "EffectKind",
    "NamedEffect",
    "Outcome",
    "ScenarioView",
    "UndeclaredReadError",
    "attacker_has",
    "attacker_lacks",
    "context_flag",
    "distance_at_most",
    "in_phase",
    "led_by",
    "range_limit",
    "reads_of",
    "target_has",
]

EffectKind = Literal["stratagem", "detachment rule", "enhancement", "ability", "core rule",
                     "army rule"]


#: The parts of a scenario a condition may read: its phase, context, attacker, target.
SCENARIO_PARTS = frozenset({"phase", "context", "attacker", "target"})


class UndeclaredReadError(AssertionError):
    """A condition read a part of the scenario that its ``reads`` does not declare: a
    bug in the condition (a table would share its answer across what it reads)."""


class ScenarioView:
    """A scenario as a condition may read it (``Condition.reads``): the parts in
    ``reads`` (``None``: every attribute), each read noted in ``read``; any other
    attribute raises ``UndeclaredReadError``.

    >>> from tactica.combat.contract.scenario import Scenario
    >>> s = Scenario.model_validate({"attacker": {"weapons": [{"name": "g", "A": "1",
    ...     "skill": 3, "S": 4, "D": "1"}]}, "target": {"models": [{"T": 4, "Sv": 3, "W": 1}]}})
    >>> view = ScenarioView(s, frozenset({"phase"}), "in the shooting phase")
    >>> view.phase, sorted(view.read)
    ('shooting', ['phase'])
    >>> try:
    ...     view.target
    ... except UndeclaredReadError as exc:
    ...     print(str(exc).split(",")[0])
    in the shooting phase: reads the scenario's target
    """

    __slots__ = ("_label", "_reads", "_scenario", "read")

    def __init__(self, scenario: Scenario, reads: frozenset[str] | None, label: str) -> None:
        self._scenario, self._reads, self._label = scenario, reads, label
        self.read: set[str] = set()

    def __getattr__(self, name: str) -> Any:
        if self._reads is not None and name not in self._reads:
            raise UndeclaredReadError(
                f"{self._label}: reads the scenario's {name}, not among the parts it "
                f"declares (Condition.reads: {sorted(self._reads)})")
        self.read.add(name)
        return getattr(self._scenario, name)


def _declared(test: Callable[[Scenario], bool], reads: frozenset[str], label: str
              ) -> Callable[[Scenario], bool]:
    """``test`` run on a view of the scenario with the parts ``reads`` declares alone
    (``ScenarioView``): a read of another part raises."""
    def guarded(s: Scenario) -> bool:
        return test(cast(Scenario, ScenarioView(s, reads, label)))

    return guarded


def reads_of(condition: Condition, scenario: Scenario) -> frozenset[str]:
    """The attributes of ``scenario`` that ``condition``'s test and ``unstated`` read
    (traced: the branches this scenario takes)."""
    view = ScenarioView(scenario, None, condition.description)
    condition.test(cast(Scenario, view))
    if condition.unstated is not None:
        condition.unstated(cast(Scenario, view))
    return frozenset(view.read)


@dataclass(frozen=True)
class Condition:
    """A named requirement: ``test(scenario)`` is true when it holds; ``failure`` is the
    sentence given when it does not (after the effect's name). ``reads``: the parts of
    the scenario ``test`` reads (``SCENARIO_PARTS``, all of them unless it says fewer): a
    condition that reads no "target" holds alike against every target
    (``units.abilities`` shares its answer between targets). With every record checked
    (``model.trusted.validating_all``: the test run) ``test`` and ``unstated`` see only
    the parts declared (``ScenarioView``): a read of another raises
    ``UndeclaredReadError``, so a wrong ``reads`` fails loudly."""

    description: str
    failure: str
    test: Callable[[Scenario], bool]
    reads: frozenset[str] = SCENARIO_PARTS
    #: true when the scenario does not state what ``test`` reads (no
    #: ``context.distance``, no ``context.designated``, a state no keyword of the unit
    #: says): ``test`` then gives the default (within range, the picked unit, not in the
    #: state) and a part applied under it says "assumes ..." in the result's notes
    unstated: Callable[[Scenario], bool] | None = None
    #: the target is an enemy unit a rule picks (``context.designated`` names the rule)
    designation: bool = False

    def __post_init__(self) -> None:
        if not validating_all():
            return
        reads = self.reads & SCENARIO_PARTS
        object.__setattr__(self, "test", _declared(self.test, reads, self.description))
        if self.unstated is not None:
            object.__setattr__(self, "unstated",
                               _declared(self.unstated, reads, self.description))


def _kw(keywords: tuple[str, ...], name: str, wanted: str) -> bool:
    """``wanted`` is "A", "A B" (all words' keywords: "GENESTEALER CULTS INFANTRY" means
    both), matched against keywords and, for datasheet names, the unit's name."""
    kws = {k.upper() for k in keywords}
    return wanted.upper() in kws or name_key(wanted) == name_key(name)


def attacker_has(*any_of: str, also: str | None = None) -> Condition:
    """The attacking unit has one of ``any_of`` (keywords or its datasheet name), and
    ``also`` if given."""
    label = " or ".join(any_of) + (f" {also}" if also else "")

    def test(s: Scenario) -> bool:
        a = s.attacker
        ok = any(_kw(a.keywords, a.name, k) for k in any_of)
        return ok and (also is None or _kw(a.keywords, a.name, also))

    return Condition(f"attacker is {label}",
                     f"the attacker is not {article(label)} {label} unit", test)


def attacker_lacks(keyword: str) -> Condition:
    return Condition(f"attacker is not {keyword}",
                     f"the attacker is {article(keyword)} {keyword} unit",
                     lambda s: keyword.upper() not in {k.upper() for k in s.attacker.keywords})


def led_by(leader: str) -> Condition:
    """The attacking unit is led by ``leader`` (``context.led_by``)."""
    return Condition(
        f"led by a {leader}", f"the attacking unit is not led by a {leader} (context.led_by)",
        lambda s: any(name_key(x) == name_key(leader) for x in s.context.led_by))


def target_has(*any_of: str, character_models: bool = False) -> Condition:
    """The target unit has one of ``any_of``; with ``character_models`` a CHARACTER model
    in the target also counts (an attached leader makes it a CHARACTER unit)."""
    label = " or ".join(any_of)

    def test(s: Scenario) -> bool:
        t = s.target
        if character_models and any(g.character for g in t.models):
            return True
        return any(_kw(t.keywords, t.name, k) for k in any_of)

    return Condition(f"target is {label}", f"the target is not {article(label)} {label} unit", test)


def in_phase(*phases: str) -> Condition:
    label = " or ".join(phases)
    return Condition(f"{label} phase", f"it is used in the {label} phase",
                     lambda s: s.phase in phases)


def context_flag(name: str, description: str) -> Condition:
    """A circumstance given in the scenario's context (``context.<name>`` is true)."""
    return Condition(description, f"needs context.{name} ({description})",
                     lambda s: bool(getattr(s.context, name)))


def distance_at_most(inches: float, description: str) -> Condition:
    return Condition(
        description, f"needs context.distance of at most {inches:g}\" ({description})",
        lambda s: s.context.distance is not None and s.context.distance <= inches)


def range_limit(inches: float, description: str) -> Condition:
    """When ``context.distance`` is given, it must be at most ``inches``."""
    return Condition(
        description, f"the target is {{}}\" away, beyond {inches:g}\" ({description})",
        lambda s: s.context.distance is None or s.context.distance <= inches)


@dataclass(frozen=True)
class Outcome:
    """What a named effect contributes to one scenario."""

    modifiers: tuple[Effect, ...] = ()
    context: dict[str, object] = field(default_factory=dict)
    mortal_before: tuple[tuple[str, FloatArray], ...] = ()
    side: tuple[tuple[str, FloatArray], ...] = ()
    #: like ``side``, but only if the attack destroys a CHARACTER model of the target
    side_if_character_destroyed: tuple[tuple[str, FloatArray], ...] = ()
    notes: tuple[str, ...] = ()
    not_calculated: tuple[str, ...] = ()
    #: changes to every target model's characteristics: (stat, operation, value) with
    #: stat T, Sv, W or invuln and operation "add" or "best" (invuln: the better save)
    target_changes: tuple[tuple[str, str, int], ...] = ()


@dataclass(frozen=True)
class NamedEffect:
    """A rule usable by name in a scenario, the CLI and the API."""

    name: str
    kind: EffectKind
    source: str  # detachment, "Core", or the datasheet it comes from
    cp: int = 0
    phases: tuple[str, ...] = ("shooting", "fight")
    rules: tuple[RulesVersion, ...] = ("11th", "10th")
    conditions: tuple[Condition, ...] = ()
    terms: str = ""  # what it does in engine terms
    section: str | None = None  # rule section or seed heading it implements
    apply: Callable[[Scenario, str | None], Outcome] | None = None
    parameter: str | None = None  # what "Name: X" may say
    aliases: tuple[str, ...] = ()
    #: the phases a stratagem's WHEN names (dataset records: command, movement, ...)
    when_phases: tuple[str, ...] = ()
    #: the game modes it belongs to ("boarding actions", "combat patrol"); () = any
    game_modes: tuple[str, ...] = ()

    def check(self, scenario: Scenario) -> list[str]:
        """Every failed condition, as sentences naming the effect."""
        out = []
        if scenario.rules not in self.rules:
            out.append(f"{self.name}: not a rule of the {scenario.rules} edition rules "
                       f"(exists in {', '.join(self.rules)})")
        if scenario.phase not in self.phases:
            out.append(f"{self.name}: used in the {' or '.join(self.phases)} phase, "
                       f"not the {scenario.phase} phase")
        for c in self.conditions:
            if not c.test(scenario):
                failure = c.failure.replace("{}", f"{scenario.context.distance:g}") \
                    if "{}" in c.failure and scenario.context.distance is not None else c.failure
                out.append(f"{self.name}: {failure}")
        return out


def mods(**kwargs: object) -> tuple[Effect, ...]:
    """Plain modifiers, one per keyword: ``mods(hit=1, wound=1)``."""
    return tuple(Effect.model_validate({k: v}) for k, v in kwargs.items())


def successes_pmf(dice: int, p: float, cap: int | None = None) -> FloatArray:
    """Number of successes among ``dice`` D6, each with probability ``p``, capped.

    >>> [round(x * 64) for x in successes_pmf(6, 0.5)]
    [1, 6, 15, 20, 15, 6, 1]
    """
    out = np.array([1.0])
    for _ in range(dice):
        out = np.convolve(out, np.array([1 - p, p]))
    if cap is not None and len(out) > cap + 1:
        out = np.concatenate([out[:cap], [out[cap:].sum()]])
    return out


def mixture(*parts: tuple[float, FloatArray]) -> FloatArray:
    """A pmf that is ``pmf_i`` with probability ``p_i``."""
    n = max(len(p) for _, p in parts)
    out = np.zeros(n)
    for w, p in parts:
        out[: len(p)] += w * p
    return out


def dice_pmf(text: str) -> FloatArray:
    return DiceExpr.parse(text).pmf()
