"""The Monte Carlo method's bounds: one for every door (the command line, the web, the
assistant, Python), as the contract states them and the sampled engines check them.

* ``trials``: 100 to ``MAX_TRIALS`` (its totals take 56 bytes a trial: a million trials
  hold about 60 MB);
* ``trials`` x the weapon lines rolled (a scenario's lines; every step's lines in a
  sequence) at most ``MAX_TRIAL_LINES``: a million trials of ten lines, or the default
  100,000 trials of the contract's largest attacker (100 lines);
* ``seed``: 0 to ``MAX_SEED``, the largest integer every JSON reader keeps exactly (a
  seed shown on the web page or read back from a result gives the same draws).

A document states its trials and seed (``Trials``, ``Seed``); its lines are known once
its units are fielded, so the sampled engines check the product (``check_trial_lines``)
on the scenario they are given, however it was built.

>>> check_trial_lines(1_000_000, 10)
>>> check_trial_lines(1_000_000, 11)
Traceback (most recent call last):
...
ValueError: trials: 1,000,000 trials of 11 weapon lines; at most 10,000,000 line-trials (...)
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

__all__ = ["DEFAULT_TRIALS", "MAX_SEED", "MAX_TRIALS", "MAX_TRIAL_LINES", "Seed", "Trials",
           "check_sampling", "check_trial_lines"]

#: Trials when a document names none.
DEFAULT_TRIALS = 100_000
#: The most trials a document may ask for.
MAX_TRIALS = 1_000_000
#: The most trials x weapon lines one calculation may roll.
MAX_TRIAL_LINES = 10_000_000
#: The largest seed: 2**53 - 1, the largest integer a JSON number keeps exactly everywhere.
MAX_SEED = 2**53 - 1

Trials = Annotated[int | None, Field(
    ge=100, le=MAX_TRIALS,
    description=f"Monte Carlo trials (default {DEFAULT_TRIALS:,}; trials x weapon lines "
    f"at most {MAX_TRIAL_LINES:,})")]
Seed = Annotated[int | None, Field(ge=0, le=MAX_SEED, description="Monte Carlo seed "
                                   "(default 0)")]


def check_trial_lines(trials: int, lines: int) -> None:
    """Refuse (``ValueError`` naming ``trials``) more than ``MAX_TRIAL_LINES`` line-trials."""
    if trials * lines > MAX_TRIAL_LINES:
        most = max(100, MAX_TRIAL_LINES // max(1, lines))
        raise ValueError(f"trials: {trials:,} trials of {lines} weapon lines; at most "
                         f"{MAX_TRIAL_LINES:,} line-trials (at most {most:,} trials of "
                         f"{lines} lines)")


def check_sampling(trials: int, seed: int, lines: int) -> None:
    """Refuse (``ValueError`` naming the field) trials, a seed or line-trials out of
    bounds: what the engines check on a scenario built without the contract's
    validation (a copy with ``trials`` set, a unit fielded into weapon lines)."""
    if not 1 <= trials <= MAX_TRIALS:
        raise ValueError(f"trials: {trials:,}; from 1 to {MAX_TRIALS:,}")
    if not 0 <= seed <= MAX_SEED:
        raise ValueError(f"seed: {seed}; from 0 to {MAX_SEED:,} (2**53 - 1)")
    check_trial_lines(trials, lines)
