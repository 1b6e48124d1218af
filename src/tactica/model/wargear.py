"""Unit composition and wargear: the model types of a datasheet, what each carries, and
the options that change it.

A datasheet's "UNIT COMPOSITION" and "WARGEAR OPTIONS" sections read:

    1 Intercessor Sergeant, 4-9 Intercessors.
    Every model is equipped with: bolt pistol; bolt rifle; close combat weapon.
    - For every 5 models in this unit, 1 model can be equipped with 1 Astartes grenade
      launcher.
    - The Intercessor Sergeant's bolt rifle can be replaced with one of the following:
      hand flamer, plasma pistol, ...

``ModelType`` is one composition line with its default equipment; ``WargearOption`` one
option bullet (what is replaced, by what, and by how many models); ``WargearBudget`` a
shared allowance ("up to 2 of the following per 10 models"). Equipment is named by weapon
name (``Weapon.name``), repeated for twin mounts ("2 heavy bolters").

>>> o = WargearOption(choices=(("Astartes grenade launcher",),), per_models=5)
>>> o.describe()
'1 in 5 models can be equipped with Astartes grenade launcher'
>>> WargearOption(replaces=("Bolt rifle",), choices=(("Plasma pistol",), ("Hand flamer",)),
...               model="Intercessor Sergeant").describe()
"The Intercessor Sergeant's Bolt rifle can be replaced with one of: Plasma pistol; Hand flamer"
"""

from __future__ import annotations

from collections import Counter

from pydantic import Field, model_validator

from .common import Frozen

__all__ = ["ModelType", "WargearBudget", "WargearOption", "equipment_text", "loadout_text"]


def _possessive(name: str) -> str:
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def _plural(name: str) -> str:
    return name if name.endswith("s") else f"{name}s"


def equipment_text(items: tuple[str, ...] | list[str]) -> str:
    """``("Heavy bolter", "Heavy bolter", "Lascannon")`` -> ``"2 Heavy bolter, Lascannon"``.

    >>> equipment_text(("Heavy bolter", "Heavy bolter", "Lascannon"))
    '2 Heavy bolter, Lascannon'
    """
    counts = Counter(items)
    return ", ".join(f"{n} {name}" if n > 1 else name for name, n in counts.items())


class ModelType(Frozen):
    """One composition line: ``min``-``max`` models named ``name``, each with the stat line
    ``profile`` (a ``ModelProfile.name`` of the datasheet) and ``equipment`` by default.
    ``leader_model`` marks the unit's champion (the Sergeant), seated first."""

    name: str
    min: int = Field(ge=0)
    max: int = Field(ge=0)
    profile: str
    equipment: tuple[str, ...] = ()
    leader_model: bool = False
    mends: tuple[str, ...] = Field(
        default=(), description="what the loader added to the data's default equipment, "
        "and why")

    @model_validator(mode="after")
    def _order(self) -> ModelType:
        if self.max < self.min:
            raise ValueError(f"model {self.name}: max {self.max} < min {self.min}")
        return self


class WargearOption(Frozen):
    """One wargear option: a model's ``replaces`` (empty: nothing, the option adds) can be
    exchanged for one of ``choices`` (each a bundle of weapon names).

    Who may take it: only ``model`` models (``None``: any model); ``per_models`` N: one
    model per N in the unit ("for every 5 models"); ``max`` caps the takes; ``any_number``
    lets every eligible model take it; otherwise (none of these) one model may.
    """

    replaces: tuple[str, ...] = ()
    choices: tuple[tuple[str, ...], ...] = Field(min_length=1)
    model: str | None = None
    per_models: int | None = Field(default=None, ge=1)
    max: int | None = Field(default=None, ge=0)
    any_number: bool = False
    text: str | None = None

    def cap(self, unit_models: int, eligible: int) -> int:
        """How many models of a ``unit_models`` unit may take this option, ``eligible``
        of them being allowed to (wh40kdc ``option_cap``'s rule: ``any_number`` -> every
        eligible model; ``per_models`` -> floor(n / N), clamped by ``max``; else ``max``,
        default 1).

        >>> WargearOption(choices=(("x",),), per_models=5).cap(10, 10)
        2
        >>> WargearOption(choices=(("x",),), per_models=5, max=1).cap(10, 10)
        1
        >>> WargearOption(choices=(("x",),), any_number=True, model="Sgt").cap(10, 1)
        1
        """
        if self.any_number:
            cap = eligible if self.max is None else min(eligible, self.max * eligible)
        elif self.per_models:
            cap = unit_models // self.per_models
            if self.max is not None:
                cap = min(cap, self.max)
        else:
            cap = 1 if self.max is None else self.max
        return max(0, min(cap, eligible))

    def describe(self) -> str:
        """The option in a datasheet's words."""
        who = f"The {_possessive(self.model)}" if self.model else "This model's"
        if self.any_number:
            who = (f"Any number of {_plural(self.model)}'" if self.model
                   else "Any number of models'")
        choices = "; ".join(equipment_text(c) for c in self.choices)
        one_of = "one of: " if len(self.choices) > 1 else ""
        if self.replaces:
            head = f"{who} {equipment_text(self.replaces)}"
            if self.per_models:
                head = f"1 in {self.per_models} models' {equipment_text(self.replaces)}"
            limit = f" (at most {self.max})" if self.max is not None and not self.any_number else ""
            return f"{head} can be replaced with {one_of}{choices}{limit}"
        if self.per_models:
            subject = f"1 in {self.per_models} {_plural(self.model or 'model')}"
        elif self.any_number:
            subject = f"Any number of {_plural(self.model or 'model')}"
        elif self.model:
            subject = f"The {self.model}"
        else:
            subject = "This unit" if self.max is None else f"Up to {self.max} models"
        return f"{subject} can be equipped with {one_of}{choices}"


class WargearBudget(Frozen):
    """A shared allowance: the unit has at most ``count`` of ``items`` between them per
    ``per_models`` models (``0``: per unit), and at most ``duplicate_limit`` of any one."""

    items: tuple[str, ...] = Field(min_length=1)
    count: int = Field(ge=0)
    per_models: int = Field(default=0, ge=0)
    duplicate_limit: int | None = Field(default=None, ge=0)

    def cap(self, unit_models: int) -> int:
        """How many of the items a unit of ``unit_models`` may have between them.

        >>> WargearBudget(items=("x",), count=2, per_models=10).cap(10)
        2
        """
        if self.per_models:
            return unit_models * self.count // self.per_models
        return self.count

    def duplicate_cap(self, unit_models: int) -> int | None:
        if self.duplicate_limit is None:
            return None
        if self.per_models:
            return unit_models * self.duplicate_limit // self.per_models
        return self.duplicate_limit

    def describe(self) -> str:
        per = f" per {self.per_models} models" if self.per_models else ""
        dup = (f", at most {self.duplicate_limit} of any one"
               if self.duplicate_limit is not None else "")
        return f"Up to {self.count} of {', '.join(self.items)}{per}{dup}"


def loadout_text(types: tuple[ModelType, ...], options: tuple[WargearOption, ...],
                 budgets: tuple[WargearBudget, ...] = ()) -> list[str]:
    """The composition and wargear in a datasheet's words, one line each.

    >>> loadout_text((ModelType(name="Primus", min=1, max=1, profile="Primus",
    ...                         equipment=("Cult bonesword",)),), ())
    ['Every model is equipped with: Cult bonesword.']
    """
    lines: list[str] = []
    equipments = {t.equipment for t in types}
    if len(equipments) == 1 and types and types[0].equipment:
        lines.append(f"Every model is equipped with: {equipment_text(types[0].equipment)}.")
    else:
        for t in types:
            who = f"The {t.name} is" if t.max == 1 else f"Every {t.name} is"
            lines.append(f"{who} equipped with: {equipment_text(t.equipment) or 'nothing'}.")
    single = sum(t.max for t in types) == 1
    lone = {t.name for t in types if t.max == 1}
    for o in options:
        if o.any_number and o.model in lone:  # "The Sergeant's", not "Any number of"
            o = o.model_copy(update={"any_number": False})
        text = o.describe()
        if single:
            text = (text.replace("Any number of models'", "This model's")
                    .replace("Any number of models", "This model")
                    .replace("This unit can", "This model can"))
        lines.append(f"- {text}.")
    lines += [f"- {b.describe()}." for b in budgets]
    return lines
