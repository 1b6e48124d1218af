"""Trusted constructors (``tactica.model.trusted``): the one place that makes records
without validation. They copy their input, and the test run (``TACTICA_VALIDATE_ALL``,
set in ``conftest.py``) validates every record they make again and compares, failing
loudly on a difference. The scenario's checks of its parts together are written once, in
the contract (``together_refusal``), and caches hand out read-only values."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

import tactica
from tactica.combat.contract.scenario import ModelGroup, Scenario, together_refusal
from tactica.model.common import Frozen
from tactica.model.trusted import (
    TrustedMismatchError,
    constructed,
    made,
    updated,
    validate_all,
    validating_all,
)


class Point(Frozen):
    x: int
    tags: tuple[str, ...] = ()


@dataclasses.dataclass(frozen=True, init=False)
class Norm:
    """A record whose ``__init__`` normalises: ``made`` on a negative value differs."""

    x: int

    def __init__(self, x: int) -> None:
        object.__setattr__(self, "x", abs(x))


@pytest.fixture
def checking() -> Iterator[None]:
    was = validating_all()
    validate_all(True)
    yield
    validate_all(was)


def test_the_test_run_validates_everything() -> None:
    assert validating_all()


def test_the_input_is_copied() -> None:
    values: dict[str, Any] = {"x": 1, "tags": ("a",)}
    p = constructed(Point, values)
    values["x"] = 2
    assert p.x == 1 and p.__dict__ is not values
    changes: dict[str, Any] = {"x": 3}
    q = updated(p, changes)
    changes["x"] = 4
    assert (q.x, p.x) == (3, 1)
    raw = {"x": 5}
    n = made(Norm, raw)
    raw["x"] = 6
    assert n.x == 5 and n.__dict__ is not raw


@pytest.mark.usefixtures("checking")
@pytest.mark.parametrize(("values", "words"), [
    ({"x": 1, "tags": ["a"]}, "tags"),  # a list where validation makes a tuple
    ({"x": "1", "tags": ()}, "x"),  # a string where validation makes an int
    ({"x": "one", "tags": ()}, "validation refuses"),
])
def test_a_bypass_that_validation_does_not_match_fails_loudly(values: dict[str, Any],
                                                             words: str) -> None:
    with pytest.raises(TrustedMismatchError, match=words):
        constructed(Point, values)
    with pytest.raises(TrustedMismatchError):
        updated(Point(x=1), values)


@pytest.mark.usefixtures("checking")
def test_cross_field_checks_are_run_on_a_bypass() -> None:
    """A model validator (ModelGroup: wounds lost below W) refuses what was bypassed."""
    values = ModelGroup(name="m", count=1, T=4, Sv=3, W=2).__dict__
    with pytest.raises(TrustedMismatchError, match="wounds_lost 2 must be below W 2"):
        constructed(ModelGroup, {**values, "wounds_lost": 2})


@pytest.mark.usefixtures("checking")
def test_made_is_checked_against_init() -> None:
    assert made(Norm, {"x": 1}).x == 1
    with pytest.raises(TrustedMismatchError, match="Norm"):
        made(Norm, {"x": -1})


def test_without_the_switch_nothing_is_checked() -> None:
    was = validating_all()
    validate_all(False)
    try:
        assert constructed(Point, {"x": 1, "tags": ["a"]}).tags == ["a"]
    finally:
        validate_all(was)


LINE = {"name": "Autogun", "count": 5, "A": "1", "skill": 4, "S": 3, "AP": 0, "D": "1"}
DOC = {"attacker": {"firing_deck": 5, "weapons": [{**LINE, "firing_deck": True}]},
       "target": {"models": [{"count": 5, "T": 4, "Sv": 3, "W": 2}]}}


def test_the_scenario_checks_its_parts_together_once() -> None:
    """24.14 Firing Deck in the fight phase: the contract's validator and
    ``Scenario.trusted`` refuse it alike (``together_refusal``, written once)."""
    good = Scenario.model_validate(DOC)
    assert Scenario.trusted(dict(good.__dict__)) == good
    fight = {**good.__dict__, "phase": "fight"}
    assert together_refusal(good.attacker, "fight", "exact", None) is not None
    with pytest.raises(ValidationError, match="shooting phase only") as a:
        Scenario.model_validate({**DOC, "phase": "fight"})
    with pytest.raises(ValidationError, match="shooting phase only") as b:
        Scenario.trusted(fight)
    assert a.value.errors()[0]["msg"] == b.value.errors()[0]["msg"]
    many = {**good.__dict__, "method": "monte-carlo", "trials": 1_000_000,
            "attacker": good.attacker.model_copy(update={"weapons": (LINE_OBJ,) * 11})}
    with pytest.raises(ValidationError, match="11 weapon lines"):
        Scenario.trusted(many)


LINE_OBJ = Scenario.model_validate({"attacker": {"weapons": [LINE]},
                                    "target": DOC["target"]}).attacker.weapons[0]


#: Where a record could be made past validation: only ``model/trusted.py`` may.
_BYPASS = re.compile(r"model_construct\(|\b__new__\(|__dict__\s*=(?!=)|setattr_\(")


def test_bypasses_live_in_one_module() -> None:
    root = Path(tactica.__file__).parent
    found = [f"{p.relative_to(root)}:{n}" for p in sorted(root.rglob("*.py"))
             if p.relative_to(root).as_posix() != "model/trusted.py"
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if _BYPASS.search(line) and "``" not in line]
    assert found == []


def test_caches_hand_out_read_only_values() -> None:
    from tactica.effects.dataset_names import _names
    from tactica.library import load_seed_library
    from tactica.loaders.wh40kdc_factions import _dataset_table
    from tactica.meta.tasks import _factions
    from tactica.units.firing import _by_key

    lib = load_seed_library()
    sheet = lib.datasheets()[0]
    for cached in (_by_key(sheet), _names(), _dataset_table(), _factions(lib)):
        with pytest.raises(TypeError):
            cached["x"] = ()  # type: ignore[index]
        assert cached is not None
    assert all(isinstance(v, tuple) for v in _by_key(sheet).values())
