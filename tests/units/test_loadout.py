"""A unit as fielded from hand-made datasheets: seating, defaults and one test per kind of
wargear constraint (per N models, per model name, a flat maximum, any number, what a
model must carry to swap, shared budgets and their per-item limit), each refusal naming
the unit and the constraint."""

from __future__ import annotations

import pytest

from tactica.model import Datasheet, ModelType, Source, WargearBudget, WargearOption
from tactica.units import WargearError, field_unit

SRC = Source(file="test")


def squad(*options: WargearOption, budgets: tuple[WargearBudget, ...] = ()) -> Datasheet:
    """1 Sergeant (bolt pistol, chainsword) + 4-9 Troopers (bolt rifle, knife)."""
    return Datasheet(
        name="Squad", rules="11th", source=SRC, wargear=options, wargear_budgets=budgets,
        model_types=(
            ModelType(name="Sergeant", min=1, max=1, profile="Sergeant",
                      equipment=("Bolt pistol", "Chainsword"), leader_model=True),
            ModelType(name="Trooper", min=4, max=9, profile="Trooper",
                      equipment=("Bolt rifle", "Knife"))))


def groups(sheet: Datasheet, n: int | None = None, wargear: tuple[str, ...] = ()
           ) -> list[tuple[str, int, tuple[str, ...]]]:
    return [(m.model, m.count, m.equipment) for m in field_unit(sheet, n, wargear).models]


def test_default_loadout_at_minimum_size_and_seating() -> None:
    """No choices: the datasheet's equipment; 5 models = the Sergeant + 4 Troopers; 10
    models seat the champion at its minimum and the rest as Troopers."""
    s = squad()
    assert groups(s) == [("Sergeant", 1, ("Bolt pistol", "Chainsword")),
                         ("Trooper", 4, ("Bolt rifle", "Knife"))]
    assert groups(s, 10)[1][1] == 9
    assert field_unit(s).defaults == ("wargear: the datasheet's default loadout",
                                      "models: the minimum, 5")


def test_unit_size_outside_the_composition_is_refused() -> None:
    with pytest.raises(WargearError, match=r"^Squad has 5-10 models; 11 asked for$"):
        field_unit(squad(), 11)


def test_per_n_models() -> None:
    """"For every 5 models, 1 Trooper's bolt rifle can be replaced with a plasma gun":
    2 in 10 models, 1 in 5."""
    s = squad(WargearOption(replaces=("Bolt rifle",), choices=(("Plasma gun",),),
                            per_models=5))
    assert ("Trooper", 2, ("Knife", "Plasma gun")) in groups(s, 10, ("plasma gun:2",))
    with pytest.raises(WargearError, match=r"^Squad: at most 1 Plasma gun in 5 models$"):
        field_unit(s, 5, ["Plasma gun:2"])


def test_per_model_name() -> None:
    """"The Sergeant's chainsword can be replaced with a power fist": only the Sergeant,
    and only one of him."""
    s = squad(WargearOption(replaces=("Chainsword",), choices=(("Power fist",),),
                            model="Sergeant", any_number=True))
    assert groups(s, 5, ("Power fist",))[0] == ("Sergeant", 1, ("Bolt pistol", "Power fist"))
    with pytest.raises(WargearError, match=r"^Squad: at most 1 Power fist on the Sergeant"):
        field_unit(s, 5, ["Power fist:2"])


def test_flat_maximum() -> None:
    """"Up to 2 Troopers can each be equipped with a vox-caster" (max 2, any unit size)."""
    s = squad(WargearOption(choices=(("Vox-caster",),), max=2))
    assert sum(c for _, c, e in groups(s, 10, ("Vox-caster:2",)) if "Vox-caster" in e) == 2
    with pytest.raises(WargearError, match=r"^Squad: at most 2 Vox-casters in 10 models$"):
        field_unit(s, 10, ["Vox-caster:3"])


def test_option_without_limits_is_once() -> None:
    """An option with no "any number", no "for every N" and no maximum: one model."""
    s = squad(WargearOption(choices=(("Banner",),)))
    with pytest.raises(WargearError, match=r"at most 1 Banner in 10 models"):
        field_unit(s, 10, ["Banner:2"])


def test_any_number_and_what_must_be_carried() -> None:
    """"Any number of Troopers can replace their knife with a bayonet": all 9 Troopers;
    the Sergeant carries no knife, so a 10th is refused naming what is needed."""
    s = squad(WargearOption(replaces=("Knife",), choices=(("Bayonet",),), any_number=True))
    assert ("Trooper", 9, ("Bolt rifle", "Bayonet")) in groups(s, 10, ("Bayonet:9",))
    with pytest.raises(WargearError, match=r"only 9 models carrying Knife can"):
        field_unit(s, 10, ["Bayonet:10"])


def test_choice_of_bundles_and_a_named_bundle() -> None:
    """A choice of bundles: "Power weapon + Plasma pistol" names one bundle exactly; the
    single name "Plasma pistol" picks the smallest bundle that has it."""
    s = squad(WargearOption(replaces=("Bolt pistol", "Chainsword"), model="Sergeant",
                            choices=(("Power weapon", "Plasma pistol"), ("Plasma pistol",))))
    assert groups(s, 5, ("power weapon + plasma pistol",))[0][2] == ("Power weapon",
                                                                    "Plasma pistol")
    assert groups(s, 5, ("Plasma pistol",))[0][2] == ("Plasma pistol",)


def test_shared_budget_and_duplicate_limit() -> None:
    """"Up to 2 special weapons per 10 models, at most 1 of each": 2 flamers in 10 models
    break the per-item limit; a flamer and a melta gun are fine; 3 in total break the
    shared allowance."""
    option = WargearOption(replaces=("Bolt rifle",), any_number=True,
                           choices=(("Flamer",), ("Melta gun",), ("Plasma gun",)))
    s = squad(option, budgets=(WargearBudget(items=("Flamer", "Melta gun", "Plasma gun"),
                                             count=2, per_models=10, duplicate_limit=1),))
    field_unit(s, 10, ["Flamer", "Melta gun"])
    with pytest.raises(WargearError, match=r"^Squad: at most 1 Flamer in 10 models$"):
        field_unit(s, 10, ["Flamer:2"])
    with pytest.raises(WargearError, match=r"at most 2 of Flamer, Melta gun, Plasma gun "
                                           r"between them in 10 models"):
        field_unit(s, 10, ["Flamer", "Melta gun", "Plasma gun"])


def test_unknown_choice_lists_what_the_options_give() -> None:
    s = squad(WargearOption(replaces=("Knife",), choices=(("Bayonet",),), any_number=True))
    with pytest.raises(WargearError, match=r"no wargear option gives 'Lascannon'; the "
                                           r"options give: Bayonet"):
        field_unit(s, 5, ["Lascannon"])


def test_names_match_hyphens_dashes_case_and_accents() -> None:
    """Issue step 7: "vox caster", "VOX–CASTER" and "vóx-caster" name the Vox-caster."""
    s = squad(WargearOption(choices=(("Vox-caster",),), max=2))
    for spelling in ("vox caster", "VOX–CASTER", "vóx-caster"):
        assert any("Vox-caster" in e for _, _, e in groups(s, 10, (spelling,)))
