"""A matchup's headline figures (expected damage, expected models destroyed, P(unit
destroyed)) without the result document, for tables of many matchups
(``batch.figures_each``, ``tactica.meta``).

The figures are a pure function of one ``FiguresInputs`` record (issue 42): what the
calculation reads once the weapon lines are resolved: each line's numbers
(``profile.ResolvedWeapon.numbers``: not its name and texts, nor its Strength and
Toughness, which only the wound roll read), the target's allocation groups (not their
names), the effects that act outside the lines (Command Re-roll, 15.02; mortal wounds
before the attacks, 06.02; Feel No Pain) and the rules version. They are computed from
the record alone (``_figures``: the lines, groups and effects made again from it, the
scenario a constant one), so the record cannot forget a part they read: it is the key
of the run's memo. Two attackers whose lines roll alike against a target (a Bolt rifle
on two datasheets, an Anti-X weapon against a target without X, an S5 and an S6 weapon
into T4) share one calculation: the same arithmetic on the same numbers, so the same
floats as apart.

>>> from tactica.combat.contract.scenario import Scenario
>>> s = Scenario.model_validate({
...   "attacker": {"weapons": [{"name": "Bolt rifle", "count": 10, "A": "1", "skill": 3,
...                             "S": 4, "AP": -1, "D": "1"}]},
...   "target": {"models": [{"count": 10, "T": 4, "Sv": 3, "W": 2}]}})
>>> renamed = s.model_copy(update={"attacker": s.attacker.model_copy(update={
...     "weapons": [s.attacker.weapons[0].model_copy(update={"name": "Auto bolt rifle"})]})})
>>> memo = {}
>>> figures_exact(s, memo) == figures_exact(renamed, memo) == figures_exact(renamed)
True
>>> sum(1 for k in memo if k[0] == "figures")  # one calculation for both names
1
"""

from __future__ import annotations

from dataclasses import fields
from operator import attrgetter
from typing import Any, NamedTuple

import numpy as np

from tactica.dice import DiceExpr
from tactica.rules import get_ruleset

from ..contract.result import distribution_mean
from ..contract.scenario import Effect, Scenario, ScenarioError
from .allocation import Group
from .effects import NamedEffects
from .engine import _lethal_search, _prepare, _Prepared, _states
from .one_group import _ENABLED
from .profile import ResolvedWeapon
from .readout import read_out
from .threads import one_blas_thread

__all__ = ["FiguresInputs", "figures_exact"]

#: One effect's part that acts outside the lines: Command Re-roll (15.02), mortal wounds
#: before the attacks (06.02), Feel No Pain and Feel No Pain against mortal wounds.
_EffectPart = tuple[str | None, DiceExpr | None, int | None, int | None]
#: The part of an effect that acts on the lines alone (left out of the record).
_NO_PART: _EffectPart = (None, None, None, None)


#: Every field of an allocation group but its name (read by no figure), from the class.
_GROUP_FIELDS = tuple(f.name for f in fields(Group) if f.name != "name")
_group_fields = attrgetter(*_GROUP_FIELDS)


class FiguresInputs(NamedTuple):
    """Everything ``figures_exact`` reads of a prepared scenario once its lines are
    resolved (see the module docstring; the target's keywords only decide which models
    are CHARACTERs, ``readout``, which none of the three figures reads)."""

    rules: str  # the rules version
    fast_path: bool  # the one-group fast path on (``one_group._ENABLED``)
    #: each line's numbers (``ResolvedWeapon.numbers``: made once per resolved line,
    #: cached on it; a batch shares its lines, ``profile.resolve_weapon``)
    lines: tuple[tuple[Any, ...], ...]
    #: the target's allocation groups, every field but the name (``_GROUP_FIELDS``)
    groups: tuple[tuple[Any, ...], ...]
    #: the effects' parts that act outside the lines, in order (``_EffectPart``; an
    #: effect on the lines alone is read through them)
    effects: tuple[_EffectPart, ...]
    #: the named effects' mortal wounds before the attacks: each pmf's shape, type and
    #: bytes
    mortal_before: tuple[tuple[tuple[int, ...], str, bytes], ...]

    @classmethod
    def of(cls, prep: _Prepared) -> FiguresInputs:
        return cls(prep.scenario.rules, _ENABLED.get(), tuple(w.numbers for w in prep.weapons),
                   tuple(_group_fields(g) for g in prep.groups),
                   tuple(part for part in ((e.command_reroll, e.mortal_wounds, e.fnp,
                                            e.fnp_mortal) for e in prep.effects)
                         if part != _NO_PART),
                   tuple((pmf.shape, pmf.dtype.str, pmf.tobytes())
                         for _, pmf in prep.named.mortal_before))


@one_blas_thread
def figures_exact(scenario: Scenario, memo: dict[Any, Any] | None = None
                  ) -> tuple[float, float, float]:
    """``calculate_exact``'s damage mean, models-destroyed mean and P(unit destroyed),
    the same floats, without the result document (``readout.assemble``); with a batch's
    ``memo``, cached there under the scenario's ``FiguresInputs`` (tagged "figures"). A
    refusal (a state space too large ...) is the scenario's own, naming its lines."""
    memo = {} if memo is None else memo
    prep = _prepare(scenario, memo)
    key = ("figures", FiguresInputs.of(prep))
    got: tuple[float, float, float] | None = memo.get(key)
    if got is None:
        try:
            got = memo[key] = _figures(key[1], memo)
        except ScenarioError:
            _computed(prep, memo)  # the same refusal, naming the scenario's lines
            raise
    return got


def _figures(rec: FiguresInputs, memo: dict[Any, Any]) -> tuple[float, float, float]:
    """The figures of ``rec``, computed from it alone: the prepared scenario made again
    from the record (``_reduced``) with the fast path as it says. ``memo``: the run's,
    whose every entry is cached under what it reads (so shared with the full
    calculations of the run)."""
    token = _ENABLED.set(rec.fast_path)
    try:
        return _computed(_reduced(rec, memo), memo)
    finally:
        _ENABLED.reset(token)


def _computed(prep: _Prepared, memo: dict[Any, Any]) -> tuple[float, float, float]:
    """The three figures of ``prep``: ``calculate_exact`` without the result document."""
    choice, found = _lethal_search(prep.scenario, memo=memo, prep=prep)
    done = found if found is not None else _states(prep, choice, True, memo, None)
    out = read_out(done.space, done.final, prep.scenario.target.keywords)
    return (distribution_mean(out.damage),
            distribution_mean(out.killed, length=len(out.killed)), out.p_dead)


def _reduced(rec: FiguresInputs, memo: dict[Any, Any]) -> _Prepared:
    """A prepared scenario of ``rec``'s parts and nothing else: the lines of its numbers
    (``ResolvedWeapon.from_numbers``), the groups of its fields (no names), the effects
    of its parts, its mortal wounds before the attacks (each made once per run: cached
    in ``memo`` under the record's parts, read only), and a constant scenario (no
    keywords: read by no figure) in place of the scenario's."""
    weapons = tuple(_line(numbers, memo) for numbers in rec.lines)
    parts = memo.get(("figures parts", rec.groups, rec.effects, rec.mortal_before))
    if parts is None:
        parts = memo["figures parts", rec.groups, rec.effects, rec.mortal_before] = (
            tuple(Group(name="", **dict(zip(_GROUP_FIELDS, g, strict=True)))
                  for g in rec.groups),
            tuple(_effect(*part) for part in rec.effects),
            NamedEffects(mortal_before=tuple(
                ("mortal wounds before the attacks",
                 np.frombuffer(content, dtype=dtype).reshape(shape))
                for shape, dtype, content in rec.mortal_before)))
    groups, effects, named = parts
    return _Prepared(_CONSTANT, get_ruleset(rec.rules), effects, named, weapons, groups)


def _line(numbers: tuple[Any, ...], memo: dict[Any, Any]) -> ResolvedWeapon:
    """The line of these ``numbers`` (named "line": a name is read by no figure),
    cached in the run's ``memo`` (read only: shared)."""
    key = ("figures line", numbers)
    line: ResolvedWeapon | None = memo.get(key)
    if line is None:
        line = memo[key] = ResolvedWeapon.from_numbers(numbers, "line")
    return line


def _effect(command_reroll: str | None, mortal_wounds: DiceExpr | None, fnp: int | None,
            fnp_mortal: int | None) -> Effect:
    """An effect of these parts alone (valid already: the parts of a validated effect,
    which sets one)."""
    parts = {"command_reroll": command_reroll, "mortal_wounds": mortal_wounds, "fnp": fnp,
             "fnp_mortal": fnp_mortal}
    return Effect.model_validate({k: v for k, v in parts.items() if v is not None})


#: The scenario of every reduced calculation (``_reduced``): the same for every record,
#: so no figure can depend on the scenario's own parts.
_CONSTANT = Scenario.model_validate({
    "attacker": {"weapons": [{"name": "none", "count": 1, "A": "1", "skill": 6, "S": 1,
                              "AP": 0, "D": "1"}]},
    "target": {"models": [{"count": 1, "T": 1, "Sv": 6, "W": 1}]}})
