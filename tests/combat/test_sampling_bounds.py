"""The Monte Carlo method's bounds (``combat.contract.sampling``) are one for every door:
the contract refuses a document past them, the sampled engines refuse a scenario built
past them without the contract's validation (a copy, a unit fielded into lines), and the
command line, the assistant and the web page state the same numbers (issue 47, 3)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pydantic import ValidationError
from typer.testing import CliRunner

from tactica.assistant.arguments import MAX_TRIALS as ASSISTANT_TRIALS
from tactica.cli import commands
from tactica.combat import calculate
from tactica.combat.contract.sampling import MAX_SEED, MAX_TRIAL_LINES, MAX_TRIALS
from tactica.combat.contract.scenario import Scenario, ScenarioError
from tactica.combat.contract.sequence import Sequence
from tactica.combat.sampled.engine import simulate
from tactica.combat.turn.sampled import simulate_sequence
from tactica.errors import one_line

LINE = {"name": "Bolt rifle", "count": 10, "A": "1", "skill": 3, "S": 4, "AP": -1, "D": "1"}
TARGET = {"models": [{"count": 10, "T": 4, "Sv": 3, "W": 2}]}


def _doc(lines: int = 1, **more: object) -> dict[str, object]:
    return {"attacker": {"weapons": [{**LINE, "name": f"g{i}"} for i in range(lines)]},
            "target": TARGET, "method": "monte-carlo", **more}


@pytest.mark.parametrize(("more", "words"), [
    ({"trials": 10_000_000}, ["trials", "less than or equal to 1000000"]),
    ({"trials": 99}, ["trials", "greater than or equal to 100"]),
    ({"seed": 2**70}, ["seed", f"less than or equal to {MAX_SEED}"]),
    ({"seed": -1}, ["seed", "greater than or equal to 0"]),
    ({"trials": 1_000_000, "lines": 11},
     ["trials: 1,000,000 trials of 11 weapon lines", f"at most {MAX_TRIAL_LINES:,}"]),
    ({"lines": 101}, ["attacker.weapons"]),  # the default 100,000 trials: the line bound
])
def test_the_contract_refuses_past_the_bound(more: dict[str, int], words: list[str]) -> None:
    lines = more.pop("lines", 1)
    with pytest.raises(ValidationError) as exc:
        Scenario.model_validate(_doc(lines, **more))
    line = one_line(exc.value)
    for word in words:
        assert word in line, line


def test_the_largest_attacker_runs_at_the_default_trials() -> None:
    Scenario.model_validate(_doc(100))  # 100 lines x 100,000 trials: at the bound
    Scenario.model_validate(_doc(10, trials=MAX_TRIALS, seed=MAX_SEED))


def test_the_engines_refuse_a_copy_past_the_bound() -> None:
    """A scenario copied with new trials is not validated again (the command line's
    ``--monte-carlo`` on a file): the engine checks it."""
    base = Scenario.model_validate(_doc(11, trials=100))
    for update, words in [({"trials": 1_000_000}, "11 weapon lines"),
                          ({"trials": 10_000_000}, "trials: 10,000,000; from 1 to"),
                          ({"seed": 2**70}, "seed: ")]:
        with pytest.raises(ScenarioError, match=words):
            simulate(base.model_copy(update=update))


def test_a_sequence_counts_every_steps_lines() -> None:
    step = {"phase": "shooting", "attacker": {"weapons": [LINE] * 6}}
    doc = {"target": TARGET, "steps": [step, step], "method": "monte-carlo"}
    Sequence.model_validate({**doc, "trials": 800_000})  # 12 lines: 9.6 million
    with pytest.raises(ValidationError, match="900,000 trials of 12 weapon lines"):
        Sequence.model_validate({**doc, "trials": 900_000})
    seq = Sequence.model_validate({**doc, "trials": 100})
    with pytest.raises(ScenarioError, match="12 weapon lines"):
        simulate_sequence(seq, trials=900_000)


def test_within_the_bound_it_runs() -> None:
    result = calculate(_doc(2, trials=1_000, seed=MAX_SEED))
    assert result.trials == 1_000 and result.seed == MAX_SEED


def test_every_door_states_the_same_bound(tmp_path: Path) -> None:
    assert ASSISTANT_TRIALS == MAX_TRIALS
    page = (Path(commands.__file__).parents[1] / "web" / "templates" / "calc.html").read_text(
        encoding="utf-8")
    assert re.search(rf'id="trials"[^>]*max="{MAX_TRIALS}"', page)
    assert re.search(rf'id="seed"[^>]*min="0" max="{MAX_SEED}"', page)
    runner = CliRunner()
    base = ["calc", "--attacker", "Neophyte Hybrids", "--target", "meq"]
    for flag, value in [("--monte-carlo", "10000000"), ("--seed", str(2**70))]:
        result = runner.invoke(commands.app, [*base, "--monte-carlo", "1000", flag, value])
        assert result.exit_code == 2, result.output
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and flag in lines[0], result.stderr
