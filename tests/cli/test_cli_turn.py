"""``tactica calc`` on a sequence file and ``tactica turn`` from flags (packaged library:
the seed pages, the reference facts and the installed dataset)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tactica.cli import commands
from tactica.cli.turn import parse_step
from tactica.combat.contract.sequence import Sequence
from tactica.combat.turn.exact import calculate_sequence

runner = CliRunner()
WIDE = {"COLUMNS": "200"}

SEQUENCE = {"rules": "10th", "target_leadership": 7,
            "target": {"name": "Grots", "models": [{"count": 2, "T": 3, "Sv": 7, "W": 1}]},
            "steps": [{"phase": "charge", "unit": "Hero", "distance": 7},
                      {"phase": "fight", "attacker": {"name": "Hero", "weapons": [
                          {"name": "Sword", "range": "Melee", "A": "1", "skill": 2, "S": 3,
                           "D": "1"}]}}]}


def test_calc_reads_a_sequence_file(tmp_path: Path) -> None:
    path = tmp_path / "turn.json"
    path.write_text(json.dumps(SEQUENCE), encoding="utf-8")
    res = runner.invoke(commands.app, ["calc", str(path), "--json"], env=WIDE)
    assert res.exit_code == 0, res.stderr
    doc = json.loads(res.stdout)
    want = calculate_sequence(Sequence.model_validate(SEQUENCE))
    assert [s["phase"] for s in doc["steps"]] == ["charge", "fight"]
    assert doc["models_destroyed"]["pmf"] == list(want.models_destroyed.pmf)
    human = runner.invoke(commands.app, ["calc", str(path)], env=WIDE)
    assert human.exit_code == 0 and "Step by step" in human.stdout
    assert "charge 58.3%" in human.stdout  # 21/36
    sampled = runner.invoke(commands.app, ["calc", str(path), "--json", "--monte-carlo",
                                           "2000", "--seed", "1"], env=WIDE)
    assert sampled.exit_code == 0, sampled.stderr
    mc = json.loads(sampled.stdout)
    assert mc["method"] == "monte-carlo" and mc["trials"] == 2000
    assert abs(mc["steps"][0]["p_charge"] - 21 / 36) < 0.05


def test_a_bad_sequence_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    bad = {**SEQUENCE, "steps": [{"phase": "charge", "unit": "Hero"}]}
    path.write_text(json.dumps(bad), encoding="utf-8")
    res = runner.invoke(commands.app, ["calc", str(path)], env=WIDE)
    assert res.exit_code == 2
    assert "steps[0]" in res.stderr and "distance" in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1


def test_turn_from_flags_seed_and_dataset_units() -> None:
    """A seed unit shoots, another charges 7" (21/36) and the target fights back."""
    res = runner.invoke(commands.app, [
        "turn", "--step", "Neophyte Hybrids:shooting", "--step", "Death Riders:charge@7",
        "--target", "Intercessor Squad", "--distance", "10", "--fight-back", "--json"],
        env=WIDE)
    assert res.exit_code == 0, res.stderr
    doc = json.loads(res.stdout)
    phases = [(s["unit"], s["phase"], s["fights_back"]) for s in doc["steps"]]
    assert phases == [("Neophyte Hybrids", "shooting", False), ("Death Riders", "charge", False),
                      ("Death Riders", "fight", False), ("Intercessor Squad", "fight", True)]
    assert doc["steps"][1]["p_charge"] == pytest.approx(21 / 36)
    # the squad's survivors fight back, a Sergeant x1 + Intercessors x4 as 5 models: an
    # independent simulator of the turn (issue 22) gives 0.473 Death Riders lost
    assert doc["steps"][3]["attacker_losses"]["mean"] == pytest.approx(0.473, abs=0.005)
    assert abs(sum(doc["models_destroyed"]["pmf"]) - 1) < 1e-9


@pytest.mark.parametrize("bad", ["Death Riders", "Death Riders:charge", "X:melee", "X:fight:a"])
def test_bad_step_flags(bad: str) -> None:
    res = runner.invoke(commands.app, ["turn", "--step", bad, "--target", "meq"], env=WIDE)
    assert res.exit_code == 2
    assert "--step" in res.stderr


def test_parse_step() -> None:
    assert parse_step("Goliath Rockgrinder:fight") == ("Goliath Rockgrinder", "fight", None,
                                                       None)


def _sample_by_faction(per_faction: int = 3) -> list[str]:
    """The first units of every faction of the packaged library (seed pages and dataset)."""
    from tactica.library import load_library

    lib = load_library()
    by_faction: dict[str, list[str]] = {}
    for name in lib.names():
        sheet = lib.datasheet(name)
        by_faction.setdefault((sheet.faction_keywords or ("",))[0], []).append(name)
    return [n for names in by_faction.values() for n in names[:per_faction]]


@pytest.mark.slow
def test_a_turn_with_units_of_every_faction() -> None:
    """Three units of every faction shoot (when they have ranged weapons), charge 7" and
    fight 10 Intercessors, who fight back: every distribution is a pmf, the charge is the
    2D6 table's 21/36, and the charger's losses are a distribution over its models."""
    import typer

    from tactica.cli.turn import sequence_document
    from tactica.combat import calculate
    from tactica.combat.contract.sequence import SequenceResult

    names = _sample_by_faction()
    assert len(names) > 60
    unarmed = []
    for name in names:
        doc = None
        for steps in ([f"{name}:shooting", f"{name}:charge@7"], [f"{name}:charge@7"]):
            try:
                doc = sequence_document(steps, "Intercessor Squad", 10, fight_back=True)
                break
            except typer.BadParameter as exc:
                assert "no ranged weapons" in str(exc) or "no melee weapons" in str(exc)
        if doc is None:  # the data lists no melee weapon for it
            unarmed.append(name)
            continue
        result = calculate(doc)
        assert isinstance(result, SequenceResult)
        for dist in (result.damage, result.models_destroyed, result.attacks):
            assert abs(sum(dist.pmf) - 1) < 1e-9, name
        charge = next(s for s in result.steps if s.phase == "charge")
        # declared while the target is alive (p_happens), made on 7+: 21/36
        assert charge.p_charge == pytest.approx(charge.p_happens * 21 / 36), name
        back = result.steps[-1]
        assert back.fights_back and back.attacker_losses is not None, name
        assert abs(sum(back.attacker_losses.pmf) - 1) < 1e-9, name
    # only units whose datasheet lists no melee weapon are left out
    from tactica.library import load_library

    lib = load_library()
    assert all(not any(w.is_melee for w in lib.datasheet(n).weapons) for n in unarmed)
    assert len(unarmed) < len(names) / 2


def test_the_readme_example_sequence() -> None:
    path = Path(__file__).resolve().parents[2] / "examples" / "turn_neophytes_death_riders.json"
    res = runner.invoke(commands.app, ["calc", str(path), "--json"], env=WIDE)
    assert res.exit_code == 0, res.stderr
    doc = json.loads(res.stdout)
    # Command Re-roll on the 7" charge: 21/36 + (15/36)(21/36); 1 CP
    assert doc["steps"][1]["p_charge"] == pytest.approx(21 / 36 + 15 / 36 * 21 / 36)
    # the Command Re-roll's 1 CP is spent only when the first roll falls short (15/36)
    assert doc["cp_spent"] == 0 and doc["battle_shock"]["leadership"] == 6
    assert doc["cp_expected"] == pytest.approx(doc["steps"][1]["p_happens"] * 15 / 36)
    # the fight back follows the survivors: 0.107 Death Riders lost (issue 22)
    assert doc["steps"][3]["attacker_losses"]["mean"] == pytest.approx(0.107, abs=0.0015)
