"""Whose rule a dataset record is (issue 24): the faction check and the record's own
unit-keyword limits, as conditions on a scenario.

**Faction.** Each faction of the dataset has keywords (``factions[].keywords``), the last
of them its own ("Blood Angels": IMPERIUM, ADEPTUS ASTARTES, BLOOD ANGELS). A unit
*belongs* to the factions whose own keyword it has. A record of factions F is usable by a
unit that belongs to one of F or to the parent of one of F (a chapter's army takes the
Adeptus Astartes datasheets), and to no faction outside F that is not such a parent:
shared keywords do not leak (an ULTRAMARINES unit may not use a Blood Angels
stratagem, a GREY KNIGHTS unit Oath of Moment, a KHORNE daemon a World Eaters
stratagem). A unit with none of a faction's own keywords falls back to having any of
the record's faction keywords; an attacker with no faction keyword at all (a hand-made
profile) is taken as given, a target never is (Waaagh!'s 5+ invulnerable save is not
the target's). ``context.army_faction``, when given, must be one of F or their parent.

**Unit keywords.** The dataset's ``applies_to`` on an ability (``required_keywords``: all
of them, ``excluded_keywords``: none of them) and a stratagem's
``target_restrictions`` (``required_keywords``, ``required_keywords_any``) limit the unit
the rule may be used on: Anathema Blademastery needs a VIGILATORS unit, Call to Murder a
CHARACTER that is not a MONSTER. An enhancement's bearer is a CHARACTER model; when the
attacking unit is led by one (``context.led_by``) its keywords are not the unit's, so the
limit is then taken as met; an enhancement that buffs other units (an aura) limits its
bearer only, not the units it buffs.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..combat.contract.scenario import Scenario
from ..names import article, name_key, normalise
from .dsl_conditions import Owner
from .leaf_keys import has_keyword_phrase
from .model import Condition

__all__ = ["FactionKeys", "unit_limits"]



@dataclass(frozen=True)
class FactionKeys:
    """Every faction's keywords, own keyword and parent, by faction name."""

    keywords: Mapping[str, frozenset[str]]
    own: Mapping[str, str]
    parent: Mapping[str, str | None]

    @property
    def every(self) -> frozenset[str]:
        return frozenset().union(*self.keywords.values()) if self.keywords else frozenset()

    def faction_named(self, text: str | None) -> str | None:
        """The dataset faction ``text`` names (its name, or an alias such as "Space
        Marines"), or ``None`` when it names none: an army faction the dataset does not
        know is not held against a rule."""
        if not text:
            return None
        for f in self.keywords:
            if name_key(f) == name_key(text):
                return f
        try:
            from ..loaders.wh40kdc import embedded_dataset

            found = embedded_dataset().faction(text)
        except (RuntimeError, LookupError, ImportError):
            return None
        return found if found in self.keywords else None

    def belongs(self, unit_keywords: set[str]) -> set[str]:
        """The factions whose own keyword the unit has."""
        return {f for f, k in self.own.items() if k in unit_keywords}

    def allowed(self, factions: tuple[str, ...]) -> set[str]:
        """The record's factions and their parents."""
        return set(factions) | {p for f in factions if (p := self.parent.get(f))}

    def conditions(self, owner: Owner, factions: tuple[str, ...],
                   label: str) -> tuple[Condition, ...]:
        """The owner's unit may use a record of ``factions`` (module docstring)."""
        allowed = self.allowed(factions)
        keywords = frozenset().union(*(self.keywords.get(f, frozenset()) for f in factions))
        every = self.every
        who = "attacker" if owner == "attacker" else "target"

        def test(s: Scenario) -> bool:
            unit = s.attacker if owner == "attacker" else s.target
            kws = {normalise(k) for k in unit.keywords}
            home = self.belongs(kws)
            if home:
                return bool(home & allowed) and not (home - allowed)
            return bool(kws & keywords) or (owner == "attacker" and not (kws & every))

        unit = Condition(f"{who} is {label}",
                         f"the {who} is not {article(label)} {label} unit", test)
        if owner != "attacker":
            return (unit,)

        def army(s: Scenario) -> bool:
            wanted = self.faction_named(s.context.army_faction)
            return wanted is None or wanted in allowed

        return unit, Condition(f"the army is {label}", f"the army is not {label} "
                               "(context.army_faction)", army)


def _limit(owner: Owner, words: tuple[str, ...], every: bool, lacks: bool,
           bearer: bool) -> Condition:
    who = "attacker" if owner == "attacker" else "target"
    label = (" and " if every else " or ").join(w.upper() for w in words)

    def test(s: Scenario) -> bool:
        unit = s.attacker if owner == "attacker" else s.target
        if bearer and owner == "attacker" and s.context.led_by:
            return True  # the bearer is the leader: its keywords are not the unit's
        found = [has_keyword_phrase(unit.keywords, unit.name, w) for w in words]
        if lacks:
            return not any(found)
        return all(found) if every else any(found)

    if lacks:
        return Condition(f"{who} is not {label}",
                         f"the {who} is {article(label)} {label} unit", test)
    return Condition(f"{who} is {label}", f"the {who} is not {article(label)} {label} unit", test)


def unit_limits(owner: Owner, *limits: Mapping[str, Any] | None,
                bearer: bool = False) -> tuple[Condition, ...]:
    """The conditions of ``applies_to`` / ``target_restrictions`` mappings; ``bearer``
    for an enhancement (its bearer may be the unit's leader)."""
    out: list[Condition] = []
    for raw in limits:
        if not raw:
            continue
        required = tuple(str(k) for k in raw.get("required_keywords") or ())
        anyof = tuple(str(k) for k in raw.get("required_keywords_any") or ())
        excluded = tuple(str(k) for k in raw.get("excluded_keywords") or ())
        if required:
            out.append(_limit(owner, required, True, False, bearer))
        if anyof:
            out.append(_limit(owner, anyof, False, False, bearer))
        if excluded:
            out.append(_limit(owner, excluded, False, True, bearer))
    return tuple(out)
