"""A bad value in a ``tactica turn``, ``calc --effect`` or ``effects`` flag is one line
naming the flag as the player typed it (``--step 'Boyz:charge@-1'``, ``--effect 'Oath of
Momnt'``), never the document's inner path (``steps[0].distance``, ``effects.0``), and
what is allowed; exit code 2. A step of 0 models is refused, not read as the default."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from cli_refusal import one_line
from tactica.cli import commands
from tactica.combat.contract.sequence import Sequence, Step

runner = CliRunner()
TURN = ["turn", "--target", "meq"]
CALC = ["calc", "--attacker", "Boyz", "--target", "meq"]


@pytest.mark.parametrize(("args", "words"), [
    ([*TURN, "--step", "Boyz:fight:0"], ["--step", "'Boyz:fight:0'", "1 or more"]),
    ([*TURN, "--step", "Boyz:charge@-1"], ["--step", "'Boyz:charge@-1'", "0 to 48"]),
    ([*TURN, "--step", "Boyz:charge@nan"], ["--step", "'Boyz:charge@nan'", "0 to 48"]),
    ([*TURN, "--step", "Boyz:charge@inf"], ["--step", "'Boyz:charge@inf'", "0 to 48"]),
    ([*TURN, "--step", "Boyz:charge@49"], ["--step", "'Boyz:charge@49'", "0 to 48"]),
    ([*TURN, "--step", "Boys:fight"], ["--step", "'Boys:fight'", "Boyz"]),
    (["turn", "--step", "Boyz:fight", "--target", "meqq"], ["--target", "'meqq'", "meq"]),
    (["turn", "--step", "Boyz:fight", "--target", "Boyz", "--target-models", "30"],
     ["--target-models", "10-20"]),
    ([*TURN, "--step", "Boyz:shooting", "--rules", "9th"], ["--rules", "'11th', '10th'"]),
    ([*TURN, "--step", "Boyz:shooting", "--distance", "-5"], ["--distance", "0"]),
    ([*TURN, "--step", "Boyz:shooting", "--target-models", "0"], ["--target-models", "1"]),
    ([*TURN, "--step", "Boyz:shooting", "--target-models", "201"],
     ["--target-models", "200"]),
    ([*TURN, "--step", "Boyz:shooting", "--leadership", "0"], ["--leadership", "2"]),
    ([*TURN, "--step", "Boyz:shooting", "--leadership", "13"], ["--leadership", "12"]),
])
def test_a_bad_turn_flag_is_named_as_given(args: list[str], words: list[str]) -> None:
    line = one_line(args)
    for word in words:
        assert word in line, line
    assert "steps[" not in line and "target_leadership" not in line


def test_the_turn_bounds_are_the_contracts() -> None:
    """The door's bounds (charge distance, Leadership) are the sequence contract's."""
    from tactica.cli.turn import CHARGE_INCHES, LEADERSHIP

    def bounds(model: type, name: str) -> tuple[float, float]:
        meta = model.model_fields[name].metadata  # type: ignore[attr-defined]
        ge = next(m.ge for m in meta if hasattr(m, "ge"))
        le = next(m.le for m in meta if hasattr(m, "le"))
        return ge, le

    assert bounds(Step, "distance") == CHARGE_INCHES
    assert bounds(Sequence, "target_leadership") == LEADERSHIP


@pytest.mark.parametrize(("effects", "bad"), [
    (["Oath of Momnt"], "Oath of Momnt"),
    (["hit=1", "Oath of Momnt"], "Oath of Momnt"),
    (["Oath of Moment"], "Oath of Moment"),  # a Space Marine rule, Boyz are no Marines
])
def test_a_refused_effect_names_the_flag_and_its_value(effects: list[str], bad: str) -> None:
    args = list(CALC)
    for e in effects:
        args += ["--effect", e]
    line = one_line(args)
    assert f"--effect {bad!r}" in line, line
    assert "effects." not in line


def test_an_unknown_faction_names_the_flag_and_close_names() -> None:
    pytest.importorskip("wh40kdc")
    line = one_line(["effects", "--faction", "Orcs"])
    assert line.startswith("error: --faction: ") and "'Orcs'" in line and "Orks" in line


def test_an_unknown_detachment_suggests_the_datasets_detachments() -> None:
    pytest.importorskip("wh40kdc")
    line = one_line(["effects", "--detachment", "Gladius"])
    assert line.startswith("error: --detachment: ") and "Gladius Task Force" in line


@pytest.mark.parametrize("target", ["meq", "Boyz"])
def test_a_target_too_large_for_the_contract_names_the_flag(target: str) -> None:
    """Up to the contract's 200 models (``MAX_MODELS``); beyond, the flag is named, never
    the document's ``target.models``."""
    line = one_line(["calc", "--attacker", "Boyz", "--target", target,
                      "--target-models", "201"])
    assert "--target-models" in line and "200" in line and "target.models" not in line


def test_rules_on_offer_refuse_an_unknown_detachment() -> None:
    pytest.importorskip("wh40kdc")
    line = one_line(["effects", "--for", "Boyz", "--detachment", "War Hord"])
    assert line.startswith("error: --detachment: ") and "'War Hord'" in line
    assert "War Horde" in line


def test_rules_on_offer_say_when_the_detachment_offers_nothing() -> None:
    """Another faction's detachment: none of its rules is offered, and a note says so
    rather than an empty table that looks like an answer."""
    pytest.importorskip("wh40kdc")
    result = runner.invoke(commands.app, ["effects", "--for", "Boyz", "--detachment",
                                          "Gladius Task Force"], env={"COLUMNS": "300"})
    assert result.exit_code == 0, result.output
    assert "note: no rule of Gladius Task Force is on offer to Boyz" in \
        " ".join(result.stderr.split())


@pytest.mark.parametrize(("spec", "words"), [
    ("Neophyte Hybrids:0", "1 or more"), ("Neophyte Hybrids:\u00b2", "1 or more"),
    ("Neophyte Hybrid", "Neophyte Hybrids"),
])
def test_a_bad_embarked_unit_names_the_flag(spec: str, words: str) -> None:
    line = one_line(["calc", "--attacker", "Goliath Truck", "--target", "geq",
                      "--embarked", spec])
    assert "--embarked" in line and repr(spec) in line and words in line, line
