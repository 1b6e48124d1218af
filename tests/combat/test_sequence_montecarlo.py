"""The Monte Carlo twin of a sequence (``combat.turn_mc``) against the exact evaluation:
the same sequences, every mean within five standard errors of the exact mean, every pmf
within 0.02 in total variation (40,000 trials, fixed seeds)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from tactica.combat import calculate
from tactica.combat.contract.result import Distribution
from tactica.combat.contract.sequence import Sequence, SequenceResult
from tactica.combat.turn.exact import calculate_sequence
from tactica.combat.turn.sampled import simulate_sequence

from .test_sequence import CONTEXT, GOLIATH, GROTS, HERO, HERO_MODELS, KNIVES, NEOPHYTES, TARGET

TRIALS = 40_000

DEATH_RIDERS = {"name": "Death Riders", "weapons": [
    {"name": "Lance", "count": 3, "range": "Melee", "A": "3", "skill": 3, "S": 5, "AP": -1,
     "D": "2", "abilities": ["Lance"]}]}
MARINE_KNIVES = {"name": "Intercessors", "weapons": [
    {"name": "Close combat weapon", "count": 5, "range": "Melee", "A": "3", "skill": 3,
     "S": 4, "D": "1"}]}

SEQUENCES: dict[str, dict[str, Any]] = {
    "two shooting steps": {"rules": "11th", "target": TARGET, "steps": [
        {"phase": "shooting", "attacker": NEOPHYTES, "context": CONTEXT},
        {"phase": "shooting", "attacker": GOLIATH, "context": CONTEXT}]},
    "shoot, charge with a re-roll, fight, fight back": {"rules": "10th", "target": TARGET,
        "steps": [
        {"phase": "shooting", "attacker": NEOPHYTES, "context": CONTEXT},
        {"phase": "charge", "unit": "Death Riders", "distance": 8, "reroll_charge": True},
        {"phase": "fight", "attacker": DEATH_RIDERS, "context": {"charged": True},
         "models": [{"name": "Death Rider", "count": 3, "T": 5, "Sv": 4, "W": 3}]},
        {"phase": "fight", "fights_back": True,
         "attacker": MARINE_KNIVES | {"weapons": [
             MARINE_KNIVES["weapons"][0] | {"count": 6}]}}]},
    "the target fights first": {"rules": "11th", "target": GROTS, "steps": [
        {"phase": "charge", "unit": "Hero", "distance": 6},
        {"phase": "fight", "attacker": HERO, "models": HERO_MODELS},
        {"phase": "fight", "fights_back": True, "attacker": KNIVES, "fights_first": True}]},
}


def _close(exact: Distribution, sampled: Distribution, what: str) -> None:
    x = np.asarray(exact.pmf)
    sd = math.sqrt(max(0.0, float(np.dot(np.arange(len(x)) ** 2, x)) - exact.mean ** 2))
    assert abs(sampled.mean - exact.mean) <= 5 * sd / math.sqrt(TRIALS) + 1e-9, what
    y = np.asarray(sampled.pmf)
    n = max(len(x), len(y))
    tv = 0.5 * float(np.abs(np.pad(x, (0, n - len(x))) - np.pad(y, (0, n - len(y)))).sum())
    assert tv <= 0.02, what


@pytest.mark.parametrize("name", list(SEQUENCES))
def test_monte_carlo_twin_agrees_with_the_exact_turn(name: str) -> None:
    seq = Sequence.model_validate(SEQUENCES[name])
    exact = calculate_sequence(seq)
    sampled = simulate_sequence(seq, TRIALS, seed=3)
    assert sampled.method == "monte-carlo" and sampled.trials == TRIALS
    for f in ("attacks", "hits", "wounds", "unsaved", "damage", "models_destroyed"):
        _close(getattr(exact, f), getattr(sampled, f), f)
    assert [s.step for s in sampled.steps] == [s.step for s in exact.steps]
    for e, m in zip(exact.steps, sampled.steps, strict=True):
        assert abs(e.p_happens - m.p_happens) <= 0.01, e.step
        _close(e.models_destroyed, m.models_destroyed, f"step {e.step} models destroyed")
        if e.attacker_losses is not None:
            assert m.attacker_losses is not None
            _close(e.attacker_losses, m.attacker_losses, f"step {e.step} losses")


def test_a_sequence_document_asks_for_monte_carlo() -> None:
    doc = {**SEQUENCES["the target fights first"], "method": "monte-carlo", "trials": 1000,
           "seed": 5}
    first, again = calculate(doc), calculate(doc)
    assert isinstance(first, SequenceResult) and first.method == "monte-carlo"
    assert first == again  # the same seed, the same result
