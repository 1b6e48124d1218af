"""Conditional defences and weapon abilities, typed (issue "Units as fielded", step 6).

Datasheets limit some rules to some attacks (a weapon ability limited to some targets is
``model.abilities.Limited``, decided by the engine):

* a weapon that may only target units with some keywords ("can only target MONSTER and
  VEHICLE units");
* an invulnerable save that holds only against ranged (or melee) attacks ("5+
  invulnerable save against ranged attacks").

>>> c = TargetCondition(none_of=("MONSTER", "VEHICLE"))
>>> c.holds(("INFANTRY",)), c.holds(("VEHICLE", "WALKER")), str(c)
(True, False, 'not against MONSTER/VEHICLE')
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator

from .common import Frozen

__all__ = ["ConditionalSave", "TargetCondition"]


class TargetCondition(Frozen):
    """Holds for a target with one of ``any_of`` (if given) and none of ``none_of``."""

    any_of: tuple[str, ...] = ()
    none_of: tuple[str, ...] = ()

    @field_validator("any_of", "none_of")
    @classmethod
    def _upper(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(k.strip().upper() for k in v)

    def holds(self, keywords: tuple[str, ...] | list[str]) -> bool:
        have = {k.upper() for k in keywords}
        if self.any_of and not have & set(self.any_of):
            return False
        return not have & set(self.none_of)

    def __str__(self) -> str:
        words = []
        if self.any_of:
            words.append("only against " + "/".join(self.any_of))
        if self.none_of:
            words.append("not against " + "/".join(self.none_of))
        return " and ".join(words) or "always"


class ConditionalSave(Frozen):
    """An invulnerable save of ``value``+ that holds only against ``against`` attacks."""

    kind: Literal["invuln"] = "invuln"
    value: int = Field(ge=2, le=6)
    against: Literal["ranged", "melee"]

    def __str__(self) -> str:
        return f"{self.value}+ invulnerable save against {self.against} attacks"
