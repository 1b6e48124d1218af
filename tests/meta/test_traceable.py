"""Every figure of the table is one ``tactica.calculate`` call: the row's document
(``scenario_of``) reproduces it; matchups computed once for several rows (the same
scenario under other names) give each row the figures of its own call."""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd
import pytest

from tactica import calculate
from tactica.library import Library, load_library
from tactica.meta import Selection, load, run, scenario_of
from tactica.meta.compute import compute_partition
from tactica.meta.tasks import plan
from tactica.model.datasheet import EscalatingPoints, PointsBracket


def _check_rows(df: pd.DataFrame, lib: Library) -> int:
    checked = 0
    for _, row in df.iterrows():
        doc = scenario_of(row)
        if row["status"] == "refused":
            with pytest.raises(ValueError):
                calculate(doc, library=lib)
            continue
        r = calculate(doc, library=lib)
        assert math.isclose(row["expected_damage"], r.damage.mean, rel_tol=0, abs_tol=1e-12)
        assert math.isclose(row["models_destroyed"], r.models_destroyed.mean, rel_tol=0,
                            abs_tol=1e-12)
        assert math.isclose(row["p_destroyed"], r.p_unit_destroyed, rel_tol=0,
                            abs_tol=1e-12)
        checked += 1
    return checked


def test_seed_rows_are_their_calculate_calls(seed_selection: Selection, seed_lib: Library,
                                             tmp_path: Path) -> None:
    run(seed_selection, tmp_path, lib=seed_lib)
    df = load(tmp_path)
    assert _check_rows(df.sample(n=40, random_state=7), seed_lib) > 0


def test_library_rows_are_their_calculate_calls_and_points(tmp_path: Path) -> None:
    lib = load_library()
    units = ("Intercessor Squad", "Neophyte Hybrids", "Leman Russ Battle Tank")
    sel = Selection(attackers=units, targets=("meq", "tank", "geq", *units))
    run(sel, tmp_path, lib=lib)
    df = load(tmp_path)
    assert _check_rows(df, lib) == len(df) - (df.status == "refused").sum() > 0
    for _, row in df.iterrows():
        sheet = lib.datasheet(row["attacker"], row["edition"])
        brackets = sheet.points
        if isinstance(brackets, EscalatingPoints):  # the first unit of its datasheet
            brackets = next(t.brackets for t in brackets.tiers if t.first == 1)
        smallest: PointsBracket = min(brackets, key=lambda b: b.models)
        # the attacker is fielded at its smallest size, priced from the datasheet record
        assert (row["attacker_models"], row["attacker_points"]) == (smallest.models,
                                                                    smallest.points)
        if row["status"] == "computed" and not pd.isna(row["target_points"]):
            share = row["target_points"] * row["models_destroyed"] / row["target_models"]
            assert row["points_destroyed"] == pytest.approx(share, abs=1e-12)
            assert row["points_per_100"] == pytest.approx(
                100 * share / row["attacker_points"], abs=1e-12)
    # a preset is priced as the unit it stands for (meq: Intercessor Squad, 5 models)
    meq = df[df.target == "meq"].iloc[0]
    intercessors = lib.datasheet("Intercessor Squad", "11th").points
    assert isinstance(intercessors, tuple)
    assert meq["target_points"] == next(b.points for b in intercessors if b.models == 5)


def test_same_scenario_under_other_names_is_computed_once(seed_lib: Library) -> None:
    """Two copies of a datasheet under other names: their matchups are the original's
    scenarios, so the batch memo computes each once (its figures kept under what the
    engine reads, no name); every row still has its figures."""
    from tactica.meta import compute

    primus = seed_lib.datasheet("Primus")
    twins = [primus.model_copy(update={"name": n}) for n in ("Primus Twin", "Primus Triplet")]
    lib = Library([*seed_lib.datasheets(), *twins], seed_lib.records())
    sel = Selection(attackers=("Primus", "Primus Twin", "Primus Triplet"),
                    targets=("meq", "geq", "teq"), dataset=False, partition_size=8)
    (part,) = plan(sel, lib)
    compute.forget()
    rows = compute_partition(sel, part, lib)
    assert len(rows) == 3 * 3 * 2
    computed = [r for r in rows if r.status == "computed"]
    figures = sum(1 for k in compute._memo if k[0] == "figures")
    compute.forget()
    assert figures == len(computed) // 3  # one unit's worth of matchups
    by_unit = {}
    for r in computed:
        by_unit.setdefault(r.attacker, []).append((r.phase, r.target, r.expected_damage))
    assert by_unit["Primus"] == by_unit["Primus Twin"] == by_unit["Primus Triplet"]


def test_targets_defences_that_wait_for_the_attack_are_in_the_rows(tmp_path: Path) -> None:
    """A target whose own abilities have parts that wait for the attack (a Broodlord's,
    an Aegis Defence Line's) is fielded once for the whole table, and those parts are
    still applied to each matchup as ``calculate`` applies them (they once were not:
    Dark Reapers into a Broodlord in the fight gave P(destroyed) 0.000265 instead of
    calculate's 0.0000523)."""
    from tactica.units import UnitRef, resolve_target

    lib = load_library()
    targets = ("Broodlord", "Aegis Defence Line")
    for name in targets:  # the case this test is for: something waits for the attack
        assert resolve_target(UnitRef(unit=name), lib, "11th", "fight")[1].pending
    sel = Selection(attackers=("Dark Reapers", "Lemartes"), targets=targets,
                    editions=("11th",))
    run(sel, tmp_path, lib=lib)
    df = load(tmp_path)
    assert _check_rows(df, lib) == len(df) == 8
