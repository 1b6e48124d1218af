"""Rule sets, one per rules version, found by name through one registry."""

from __future__ import annotations

from ..model.common import RulesVersion
from .base import AttackCircumstances, RuleSet
from .eleventh import Eleventh
from .tenth import Tenth

__all__ = ["RULESETS", "AttackCircumstances", "RuleSet", "get_ruleset"]

RULESETS: dict[str, RuleSet] = {"11th": Eleventh(), "10th": Tenth()}


def get_ruleset(name: RulesVersion | str = "11th") -> RuleSet:
    """The rule set for ``"11th"`` (default) or ``"10th"``."""
    try:
        return RULESETS[name]
    except KeyError:
        raise ValueError(f"unknown rules version {name!r}; known: 11th, 10th") from None
