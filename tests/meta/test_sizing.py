"""Tasks sized by their cost (issue 43: the full table was 81 tasks of 6 to 35,072 rows,
which cannot balance past ~40 workers) and the local cluster started only when the size
model says it pays."""

from __future__ import annotations

from collections import Counter

import pytest

from tactica.library import Library, load_library
from tactica.meta import Selection, plan, select_units
from tactica.meta.sizing import Estimate, estimate
from tactica.meta.tasks import MIN_TASK, TASKS, task_budget
from tactica.names import name_key

pytest.importorskip("wh40kdc")


@pytest.fixture(scope="module")
def lib() -> Library:
    return load_library()


def _rows(lib: Library, sel: Selection, attackers: tuple[str, ...], edition: str) -> int:
    """A partition's rows counted from the datasheets (not the planner's code): each
    attacker against each target with a datasheet of the edition (or a preset)."""
    presets = {p.name for p in lib.presets()}
    there = sum(1 for t in sel.targets if t in presets
                or any(s.rules == edition for s in lib.datasheet_versions(t)))
    return len(attackers) * there * len(sel.phases)


def test_the_full_table_is_cut_for_64_workers(lib: Library) -> None:
    """Every unit against every unit: each task at most 2% of the rows (in fact 1/256),
    at least four tasks for each of 64 workers, every attacker in exactly one task."""
    units = select_units(lib)
    sel = Selection(attackers=units, targets=units, editions=("11th",))
    parts = plan(sel, lib)
    rows = [_rows(lib, sel, p.attackers, p.edition) for p in parts]
    total = sum(rows)
    assert total > 2_000_000
    assert len(parts) >= 4 * 64 == TASKS
    # one attacker is ~2,200 rows; a task is at most the budget or one attacker
    assert max(rows) <= max(task_budget(total), max(r // len(p.attackers)
                                                    for r, p in zip(rows, parts, strict=True)))
    assert max(rows) <= 0.02 * total
    assert Counter(a for p in parts for a in p.attackers) == Counter(
        s.name for u in units for s in lib.datasheet_versions(u) if s.rules == "11th")
    assert estimate(sel, lib, parts).matchups == total  # the size model counts the same


def test_a_faction_is_cut_into_equal_runs(lib: Library) -> None:
    """One faction against every unit: runs of equal size (±1 attacker), each within
    the budget, in name order."""
    necrons = select_units(lib, factions=("Necrons",))
    sel = Selection(attackers=necrons, targets=select_units(lib), editions=("11th",))
    parts = plan(sel, lib)
    sizes = [len(p.attackers) for p in parts]
    assert max(sizes) - min(sizes) <= 1 and len(parts) > 4
    ordered = [a for p in parts for a in p.attackers]
    assert ordered == sorted(ordered, key=name_key)


def test_a_small_table_is_not_cut_below_the_least_task(lib: Library) -> None:
    """Every unit against the ten presets (21,980 rows): the budget is ``MIN_TASK``, so
    a faction's attackers stay together up to ``partition_size``."""
    units = select_units(lib)
    sel = Selection(attackers=units, targets=tuple(p.name for p in lib.presets()))
    parts = plan(sel, lib)
    assert task_budget(21_980) == MIN_TASK
    assert max(len(p.attackers) for p in parts) == sel.partition_size


@pytest.mark.parametrize("work,workers,cores,pays", [
    (Estimate(21_980, 40), 2, 2, False),        # every unit x the presets
    (Estimate(105_000, 2_192), 2, 2, False),    # one faction x every unit: about even
    (Estimate(2_402_432, 2_192), 2, 2, True),   # every unit x every unit
    (Estimate(2_402_432, 2_192), 1, 2, False),  # one worker: only its start added
    (Estimate(2_402_432, 2_192), 4, 1, False),  # one core: no worker runs beside another
])
def test_the_local_cluster_only_when_it_pays(work: Estimate, workers: int, cores: int,
                                             pays: bool) -> None:
    assert work.cluster_pays(workers, cores) is pays
    assert (work.cluster(workers, cores) <= 0.8 * work.in_process()) is pays


def test_the_size_model_on_real_selections(lib: Library) -> None:
    """Necrons against every unit (issue 43: 26.5 CPU-s on the default local cluster
    against 16.7 in-process, about the same wall) stays in-process on two cores; every
    unit against every unit goes to the cluster; the presets table stays."""
    units = select_units(lib)
    for attackers, targets, pays in [
            (select_units(lib, factions=("Necrons",)), units, False),
            (units, units, True),
            (units, tuple(p.name for p in lib.presets()), False)]:
        sel = Selection(attackers=attackers, targets=targets, editions=("11th",))
        assert estimate(sel, lib, plan(sel, lib)).cluster_pays(2, 2) is pays
