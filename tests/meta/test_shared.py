"""What the table shares between matchups: every matchup goes through one batch memo
(``compute._memo``), in which a matchup's figures are kept under what the engine reads
once its lines are resolved (``combat.exact.figures.FiguresInputs``). Two matchups share a
computation only when no figure can tell them apart. Each claim is checked against
``tactica.calculate`` run on both scenarios, independently of the memo."""

from __future__ import annotations

from typing import Any

import pytest

from tactica import calculate
from tactica.combat import Scenario
from tactica.combat.batch import Figures, figures_each


def _scenario(target_keywords: list[str], abilities: list[str] | None = None,
              name: str = "Target") -> Scenario:
    return Scenario.model_validate({
        "attacker": {"name": "Gunners", "weapons": [
            {"name": "Rifle", "count": 10, "range": 24, "A": "2", "skill": 3, "S": 4,
             "AP": -1, "D": "1", "abilities": abilities or []}]},
        "target": {"name": name, "keywords": target_keywords,
                   "models": [{"name": name, "count": 10, "T": 4, "Sv": 4, "W": 1}]},
        "phase": "shooting", "rules": "11th"})


def _figures(s: Scenario) -> Figures:
    r = calculate(s)
    return Figures(r.damage.mean, r.models_destroyed.mean, r.p_unit_destroyed)


def _computed(*scenarios: Scenario) -> tuple[list[Figures | Exception], int]:
    """The scenarios' figures through one memo, and how many were computed."""
    memo: dict[Any, Any] = {}
    got = figures_each(scenarios, memo)
    return list(got), sum(1 for k in memo if k[0] == "figures")


def test_keywords_nothing_reads_are_shared() -> None:
    """No rule of this attack reads INFANTRY or a faction keyword: one computation for
    two targets that differ only there (and in their names), and calculate agrees."""
    a = _scenario(["INFANTRY", "IMPERIUM", "ASTRA MILITARUM"], name="Guardsmen")
    b = _scenario(["INFANTRY", "ORKS"], name="Gretchin")
    got, computed = _computed(a, b)
    assert computed == 1
    assert got == [_figures(a), _figures(b)]


def test_a_keyword_the_weapons_name_is_kept() -> None:
    """[ANTI-INFANTRY 2+] reads INFANTRY: a wound roll of 2+ is a critical wound (a
    wound) against one target, 4+ is needed against the other: two computations, and
    the figures differ."""
    anti = ["Anti-Infantry 2+"]
    a, b = _scenario(["INFANTRY", "ORKS"], anti), _scenario(["BEASTS", "ORKS"], anti)
    got, computed = _computed(a, b)
    assert computed == 2
    assert got == [_figures(a), _figures(b)] and got[0] != got[1]


def test_the_same_scenario_twice_is_one_computation() -> None:
    """A table may meet the same scenario twice (one unit filed under two factions):
    computed once, each row given its figures."""
    a = _scenario(["INFANTRY"])
    got, computed = _computed(a, a.model_copy(), _scenario(["INFANTRY"], name="Other"))
    assert computed == 1
    assert got == [_figures(a)] * 3


def test_with_an_effect_the_key_is_what_it_decided() -> None:
    """A named effect is decided before the key is made: Oath of Moment's re-rolls apply
    to both targets alike (its condition reads neither IMPERIUM nor ORKS), one
    computation for both; without it, another, and smaller, damage."""
    oath = ("Oath of Moment",)
    a = _scenario(["INFANTRY", "IMPERIUM"]).model_copy(update={"effects": oath})
    b = _scenario(["INFANTRY", "ORKS"]).model_copy(update={"effects": oath})
    plain = _scenario(["INFANTRY", "ORKS"])
    got, computed = _computed(a, b, plain)
    assert got == [_figures(a), _figures(b), _figures(plain)]
    assert isinstance(got[0], Figures) and isinstance(got[2], Figures)
    assert got[0] == got[1] and got[2].damage < got[0].damage
    assert computed == 2


def test_the_work_kept_between_partitions_changes_no_row(
        seed_selection: Any, seed_lib: Any, monkeypatch: Any) -> None:
    """The process keeps its batch memo between partitions (``compute._memo``): each
    partition computed after all the others, in reverse, gives the rows it gives in a
    process that kept nothing; and past its limit the memo is emptied before
    the next partition (it never holds more than that plus one partition's work)."""
    from tactica.meta import compute, plan

    parts = plan(seed_selection, seed_lib)
    assert len(parts) > 1
    alone = []
    for p in parts:
        compute.forget()
        alone.append(compute.compute_partition(seed_selection, p, seed_lib))
    compute.forget()
    kept = [compute.compute_partition(seed_selection, p, seed_lib) for p in parts[::-1]]
    assert kept[::-1] == alone
    one_part = len(compute._memo)
    assert one_part > 0
    monkeypatch.setattr(compute._memo, "limit", 1)
    sizes = []
    for p in parts:
        compute.compute_partition(seed_selection, p, seed_lib)
        sizes.append(len(compute._memo))
    assert max(sizes) < one_part  # each partition's own work only, never the others'
    compute.forget()


def test_a_partition_runs_with_rare_collections_and_puts_them_back(
        seed_selection: Any, seed_lib: Any, monkeypatch: Any) -> None:
    """While a partition is computed the collector's first generation waits for
    ``GEN0_RARE`` allocations (``loaders.bulk.rare_collections``); after it (and after
    a refusal inside) the thresholds are the caller's again; a caller that raised them
    further keeps its own."""
    import gc

    from tactica.loaders.bulk import GEN0_RARE
    from tactica.meta import compute, plan

    part = plan(seed_selection, seed_lib)[0]
    seen: list[tuple[int, ...]] = []
    real = compute._compute

    def spy(scenarios: Any) -> Any:
        seen.append(gc.get_threshold())
        return real(scenarios)

    monkeypatch.setattr(compute, "_compute", spy)
    before = gc.get_threshold()
    try:
        gc.set_threshold(700, 10, 10)
        compute.compute_partition(seed_selection, part, seed_lib)
        assert seen[-1] == (GEN0_RARE, 10, 10)
        assert gc.get_threshold() == (700, 10, 10)
        gc.set_threshold(10 * GEN0_RARE, 5, 5)
        compute.compute_partition(seed_selection, part, seed_lib)
        assert seen[-1] == gc.get_threshold() == (10 * GEN0_RARE, 5, 5)

        def refuse(scenarios: Any) -> Any:
            raise RuntimeError("refused")

        gc.set_threshold(700, 10, 10)
        monkeypatch.setattr(compute, "_compute", refuse)
        with pytest.raises(RuntimeError):
            compute.compute_partition(seed_selection, part, seed_lib)
        assert gc.get_threshold() == (700, 10, 10)
    finally:
        gc.set_threshold(*before)


def test_a_partition_leaves_nothing_for_the_collector_to_walk(
        seed_selection: Any, seed_lib: Any) -> None:
    """What a partition leaves behind (the work kept for the next partitions, the rows)
    is frozen out of the collector's way (``gc.freeze``) before the caller's threshold
    is back: no collection is due at once, and a collection after it walks none of it.
    Without the freeze the partition's survivors stand in the first generation, over the
    threshold (the collector paused: nothing else moves them)."""
    import gc

    from tactica.meta import compute, plan

    parts = plan(seed_selection, seed_lib)
    compute.forget()
    running = gc.isenabled()
    gc.disable()  # nothing collected meanwhile: the counts are the partition's own
    try:
        rows = compute.compute_partition(seed_selection, parts[0], seed_lib)
        young = gc.get_count()[0]
        tracked = {id(o) for o in gc.get_objects()}
    finally:
        if running:
            gc.enable()
    assert rows
    assert young < 100 < gc.get_threshold()[0]  # a few objects made since, not the work
    assert id(rows) not in tracked and not any(id(r) in tracked for r in rows)
    compute.forget()
