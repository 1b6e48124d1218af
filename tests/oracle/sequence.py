"""Brute-force oracle for short sequences (``tactica.combat.sequence``): every die rolled.

A witness for ``tactica.combat.turn``, written from the sequence contract
(``docs/sequence.md``), never from the engine. It keeps an exact distribution (Fractions)
over *worlds*: the oracle's per-model target state (``bruteforce.State``, with the one
counter it tracks), the units whose charge succeeded, and the per-model state of the unit
the target fights back against. The steps are taken in the order listed (the generated
sequences list them in the fight order: the charging unit first):

* an attack step pushes each world's target state through the step's weapon lines with
  ``bruteforce``'s die-by-die resolution (its Devastating Wounds after the step's normal
  damage); a fight step of a unit that declared a charge happens only where it succeeded;
* a charge step splits each world: the 2D6 faces counted (36 rolls), one re-roll of the
  whole roll when it falls short;
* a fight back counts the target's living models per entry (each model is its own
  ``bruteforce.Model``), gives each weapon line its models (the lines listed first keep
  theirs longest) and resolves those attacks die by die against the fought unit's state;
  a weapon line is carried one per model when its count is the unit's size, else by the
  entry its ``carried_by`` names, else by the only entry;
* 05.04.04: a destroyed unit is not attacked, not charged and does not fight (a world
  whose target, or fought unit, has no model left skips the step).

The counters (attacks, hits, wounds, unsaved, attacker mortal wounds) are tracked one per
run, as in ``bruteforce``.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from itertools import product
from typing import NamedTuple

from oracle.bruteforce import COUNTERS, ONE, Alive, Keep, State, Target, _run, keeping
from tactica.combat.contract.scenario import Attacker, ModelGroup, Scenario
from tactica.combat.contract.sequence import Sequence, Step

__all__ = ["SequenceOracle", "sequence_brute_force"]


class World(NamedTuple):
    target: State
    charged: frozenset[str]
    victim: tuple[int, ...] | None


class SequenceOracle(NamedTuple):
    pmfs: dict[str, dict[int, Fraction]]
    p_unit_destroyed: Fraction
    p_charge: dict[int, Fraction]
    losses: dict[int, Fraction] | None  # models the fought unit lost


def _run_from(scenario: Scenario, start: State, keep: Keep) -> list[tuple[State, Fraction]]:
    """One step's weapon lines from ``start``, every die enumerated (``bruteforce``)."""
    dist = _run(scenario, {}, keep, start)
    return [(s._replace(dw_weapon=-1, order=()), p) for s, p in dist.probabilities()]


def _charge(step: Step) -> Fraction:
    assert step.distance is not None
    made = sum(1 for a, b in product(range(1, 7), repeat=2)
               if a + b + step.charge_modifier >= step.distance)
    p = Fraction(made, 36)
    return p + (1 - p) * p if step.reroll_charge or step.command_reroll else p


def _counts(step: Step, entries: tuple[ModelGroup, ...], alive: Alive) -> tuple[int, ...]:
    """Weapons per line for the living models of each entry (``alive`` per model, in the
    order listed): within an entry the first line's models are the last removed."""
    bounds, start = [], 0
    for e in entries:
        bounds.append(sum(1 for a in alive[start:start + e.count] if a > 0))
        start += e.count
    left = list(bounds)
    size = sum(e.count for e in entries)
    assert step.attacker is not None
    out = []
    for line in step.attacker.weapons:
        if line.count == size and len(entries) > 1:
            per = {j: e.count for j, e in enumerate(entries)}
        elif line.name in step.carried_by:
            owner = step.carried_by[line.name]
            assert isinstance(owner, str)
            per = {next(j for j, e in enumerate(entries) if e.name == owner): line.count}
        else:
            assert len(entries) == 1
            per = {0: line.count}
        n = 0
        for j, c in per.items():
            n += min(c, left[j])
            left[j] = max(0, left[j] - c)
        out.append(n)
    return tuple(out)


def _scaled(attacker: Attacker, counts: tuple[int, ...]) -> Attacker | None:
    lines = tuple(line.model_copy(update={"count": c})
                  for line, c in zip(attacker.weapons, counts, strict=True) if c)
    return attacker.model_copy(update={"weapons": lines}) if lines else None


def _run_sequence(seq: Sequence, counter: str) -> tuple[
        dict[World, Fraction], dict[int, Fraction], Target | None]:
    keep = keeping(counter)
    base = Target.of(seq.scenario(0, _any_attacker(seq), seq.target))
    worlds: dict[World, Fraction] = {World(State(alive=base.start), frozenset(), None): ONE}
    charging = {st.label for st in seq.steps if st.phase == "charge"}
    p_charge: dict[int, Fraction] = {}
    victim_target: Target | None = None
    for i, st in enumerate(seq.steps):
        new: dict[World, Fraction] = defaultdict(Fraction)
        if st.phase == "charge":
            q = _charge(st)
            p_charge[i] = Fraction(0)  # P(the charge is made: declared and the roll reaches)
            for w, p in worlds.items():
                if not any(w.target.alive):  # a destroyed unit cannot be charged
                    new[w] += p
                    continue
                new[w._replace(charged=w.charged | {st.label})] += p * q
                new[w] += p * (1 - q)
                p_charge[i] += p * q
        elif st.fights_back:
            assert st.attacker is not None and st.against is not None
            victim = next(s for s in seq.steps if s.label == st.against and s.models)
            victim_scenario = Scenario(rules=seq.rules, phase="fight", attacker=st.attacker,
                                       target={"name": st.against, "models": victim.models,
                                               "keywords": victim.attacker.keywords
                                               if victim.attacker else ()})
            victim_target = Target.of(victim_scenario)
            for w, p in worlds.items():
                if st.against in charging and st.against not in w.charged:
                    new[w] += p
                    continue
                attacker = _scaled(st.attacker, _counts(st, seq.target.models, w.target.alive))
                start = w.victim if w.victim is not None else victim_target.start
                if attacker is None or not any(start):
                    new[w._replace(victim=start)] += p
                    continue
                sc = victim_scenario.model_copy(update={"attacker": attacker})
                for s, q in _run_from(sc, State(alive=start), keeping("none")):
                    new[w._replace(victim=s.alive)] += p * q
        else:
            assert st.attacker is not None
            sc = seq.scenario(i, st.attacker, seq.target)
            for w, p in worlds.items():
                if (st.phase == "fight" and st.label in charging
                        and st.label not in w.charged) or not any(w.target.alive):
                    new[w] += p
                    continue
                for s, q in _run_from(sc, w.target, keep):
                    new[w._replace(target=s)] += p * q
        worlds = dict(new)
    return worlds, p_charge, victim_target


def _any_attacker(seq: Sequence) -> Attacker:
    return next(st.attacker for st in seq.steps if st.attacker is not None)


def sequence_brute_force(seq: Sequence) -> SequenceOracle:
    """Exact distributions of a short sequence (one target entry fights back)."""
    runs = {c: _run_sequence(seq, c) for c in COUNTERS}
    final, p_charge, victim = runs["unsaved"]
    base = Target.of(seq.scenario(0, _any_attacker(seq), seq.target))
    pmfs: dict[str, dict[int, Fraction]] = {}
    names = {"attacker_mw": "attacker_mortal_wounds"}
    for c in COUNTERS:
        acc: dict[int, Fraction] = defaultdict(Fraction)
        for w, p in runs[c][0].items():
            acc[getattr(w.target, c)] += p
        pmfs[names.get(c, c)] = dict(acc)
    damage: dict[int, Fraction] = defaultdict(Fraction)
    killed: dict[int, Fraction] = defaultdict(Fraction)
    dead = Fraction(0)
    for w, p in final.items():
        damage[sum(base.start) - sum(w.target.alive)] += p
        k = sum(1 for a in w.target.alive if a == 0)
        killed[k] += p
        dead += p if k == base.model_count else 0
    pmfs["damage"], pmfs["models_destroyed"] = dict(damage), dict(killed)
    losses: dict[int, Fraction] | None = None
    if victim is not None:
        losses = defaultdict(Fraction)
        for w, p in final.items():
            alive = w.victim if w.victim is not None else victim.start
            losses[sum(1 for a in alive if a == 0)] += p
        losses = dict(losses)
    return SequenceOracle(pmfs, dead, p_charge, losses)
