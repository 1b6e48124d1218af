"""Caches by value on the meta table (issue 42, part 6): random rows of the packaged
library computed as one table (its partitions through the process's batch memo, warm
from the examples before), each attacker-target pair alone (a table of that pair, from
a cold memo), and again with every cache cleared give the same rows, bit for bit; and a
sample of the rows is its ``tactica.calculate`` call (``scenario_of``).

A row's figures come out of a memo shared by every matchup of the process (``compute``:
the stages' records, the figures' ``FiguresInputs``): a record that forgot a part some
matchup's figures read would give that row another matchup's figures, with no error.
Drawn here: attackers and targets (library units and presets) from any faction, the
phases, the edition (each unit's own, or one), the distance of the shooting rows, a
named effect, and the detachments' rules.

The comparisons are ``==`` on whole rows: the same arithmetic on the same numbers (a
cache hands back the very floats computed), so equality is the property.

``QUICK`` examples in the default run; ``VOLUME`` in the slow suite.
"""

from __future__ import annotations

import math
from collections import Counter
from functools import cache

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tactica import cache_registry, calculate
from tactica.library import Library, load_library
from tactica.meta import Selection, compute, scenario_of
from tactica.meta.compute import Row, compute_partition
from tactica.meta.tasks import plan

QUICK, VOLUME = 8, 1000
_SETTINGS = settings(max_examples=QUICK, derandomize=True, deadline=None,
                     suppress_health_check=[HealthCheck.too_slow,
                                            HealthCheck.data_too_large])
#: Named effects a table may apply to every matchup (refused where they do not hold).
EFFECTS = ("Oath of Moment", "Fire Discipline", "Waaagh!", "Heroes of the Chapter")


@cache
def _lib() -> Library:
    return load_library()


@cache
def _units() -> tuple[str, ...]:
    return tuple(sorted({d.name for d in _lib().datasheets()}))


@cache
def _presets() -> tuple[str, ...]:
    return tuple(p.name for p in _lib().presets())


@st.composite
def selections(draw: st.DrawFn) -> Selection:
    """A small table: one to three attackers, one to three targets (units or presets),
    the phases, an edition, a distance, an effect, the detachments' rules."""
    units = _units()
    attackers = draw(st.lists(st.sampled_from(units), min_size=1, max_size=3, unique=True))
    targets = draw(st.lists(st.one_of(st.sampled_from(units), st.sampled_from(_presets())),
                            min_size=1, max_size=3, unique=True))
    phases = draw(st.sampled_from([("shooting", "fight"), ("shooting",), ("fight",)]))
    # a named effect refuses the rows where it does not hold: now and then; the
    # detachments' rules apply where they hold (every kind of effect, in many rows)
    effects = (draw(st.sampled_from(EFFECTS)),) if draw(st.integers(0, 4)) == 0 else ()
    return Selection(
        attackers=tuple(attackers), targets=tuple(targets), phases=phases,
        editions=draw(st.sampled_from([(), ("11th",), ("10th",)])), effects=effects,
        distance=draw(st.sampled_from([None, 3.0, 9.0, 18.0, 30.0])),
        detachment_rules=draw(st.booleans()), partition_size=2)


def _table(sel: Selection, reverse: bool = False) -> Counter[Row]:
    """Every row of ``sel``, its partitions computed in order (or reversed) through the
    process's memo."""
    parts = plan(sel, _lib())
    rows: Counter[Row] = Counter()
    for p in parts[::-1] if reverse else parts:
        rows.update(compute_partition(sel, p, _lib()))
    return rows


def cold() -> None:
    """Every cache of answers cleared (``cache_registry.clear("answers")``: the meta
    table's batch memo kept between partitions with them) and the table's fielded sides
    (``compute``'s caches, registered as data with the library, which stays loaded)."""
    cache_registry.clear("answers")
    for found in vars(compute).values():
        if hasattr(found, "cache_clear") and not isinstance(found, type):
            found.cache_clear()


def _alone(sel: Selection) -> Counter[Row]:
    """Each attacker-target pair of ``sel`` as a table of its own, from a cold memo."""
    rows: Counter[Row] = Counter()
    for a in sel.attackers:
        for t in sel.targets:
            compute.forget()
            rows.update(_table(sel.model_copy(update={"attackers": (a,), "targets": (t,)})))
    return rows


def check_rows(sel: Selection) -> None:
    together = _table(sel)  # the memo warm from the examples before
    assume(together)  # an edition none of the attackers has
    assert _table(sel, reverse=True) == together
    alone = _alone(sel)
    cold()
    cleared = _table(sel, reverse=True)
    # exact: the same arithmetic on the same numbers (a cache hands back its floats)
    assert alone == together and cleared == together
    for row in [r for r in together if r.status == "computed"][:2]:
        r = calculate(scenario_of(row.__dict__), library=_lib())
        # the row is its calculate call; that path fields the units on its own, so the
        # check is within 1e-12 (``test_traceable``)
        assert math.isclose(row.expected_damage or 0.0, r.damage.mean, rel_tol=0,
                            abs_tol=1e-12)
        assert math.isclose(row.p_destroyed or 0.0, r.p_unit_destroyed, rel_tol=0,
                            abs_tol=1e-12)


@_SETTINGS
@given(selections())
def test_a_table_gives_each_row_what_it_gives_alone_and_cleared(sel: Selection) -> None:
    check_rows(sel)


test_a_table_gives_each_row_what_it_gives_alone_and_cleared_at_volume = pytest.mark.slow(
    settings(_SETTINGS, max_examples=VOLUME)(given(selections())(check_rows)))
