"""The fielding core keeps its answers (a table of many matchups fields each unit once):
a kept answer is the one fielding afresh gives, and a datasheet that is another object
(an edited copy under the same name) is fielded from its own data."""

from __future__ import annotations

import importlib

from tactica.calculator import prepare
from tactica.library import load_seed_library
from tactica.model import Datasheet, ModelType, Source
from tactica.units import field_unit, loadout

resolving = importlib.import_module("tactica.units.resolve")  # the module, not its function


def squad(most: int) -> Datasheet:
    return Datasheet(name="Squad", rules="11th", source=Source(file="test"), model_types=(
        ModelType(name="Trooper", min=5, max=most, profile="Trooper",
                  equipment=("Bolt rifle",)),))


def test_a_kept_loadout_is_the_fresh_one_and_a_copy_is_its_own() -> None:
    small, big = squad(5), squad(10)
    first = field_unit(small)
    loadout._fielded.clear()
    assert field_unit(small) == first  # fielded afresh: the same unit
    assert field_unit(small) is field_unit(small)  # then kept
    # the same name, another datasheet: 10 models fit it, not the first one
    assert field_unit(big, 10).size == 10
    assert sum(m.count for m in field_unit(big).models) == 5


def test_a_kept_attacker_gives_the_scenario_resolved_afresh() -> None:
    """The attacker's lines depend on the target through its aim only: the same
    document prepared with the kept answers and with none kept is the same scenario."""
    lib = load_seed_library()
    docs = [{"attacker": {"unit": "Primus"}, "target": {"unit": t}, "phase": "fight"}
            for t in ("meq", "geq", "teq", "meq")]
    kept = [prepare(d, lib)[0] for d in docs]
    fresh = []
    for d in docs:
        resolving._attackers.clear()
        loadout._fielded.clear()
        fresh.append(prepare(d, lib)[0])
    assert kept == fresh
    assert kept[0] == kept[3] and kept[0] != kept[1]
