"""The wound roll (05.01 / Wound Roll): S against T, the capped modifier, the
critical-wound threshold (Anti, effects) and re-rolls (Twin-linked, effects).
``wound_roll`` is a pure function of one ``WoundInputs`` record (the cache key: it holds
what the roll reads and nothing else, issue 42)."""

from __future__ import annotations

from typing import NamedTuple

from tactica.combat.contract.scenario import Effect, ModelGroup
from tactica.model.abilities import Anti
from tactica.rules.base import RuleSet

from .inputs import RerollPolicy, WeaponInputs, effects_reroll, effects_total, stronger

__all__ = ["WoundInputs", "WoundRoll", "attack_toughness", "wound_roll"]


class WoundInputs(NamedTuple):
    """Everything ``wound_roll`` reads (a batch makes each wound roll once for the
    targets whose records are equal: the same Toughness, the same Anti keywords)."""

    rules: RuleSet
    S: int
    effects: tuple[Effect, ...]
    flags: frozenset[str]
    toughness: int  # against attacks (``attack_toughness``)
    charged: bool  # Lance
    #: the line's Anti abilities whose keyword the target has, in order
    anti: tuple[Anti, ...]

    @classmethod
    def of(cls, inp: WeaponInputs) -> WoundInputs:
        """The wound roll's record of the line ``inp``."""
        target = inp.scenario.target
        anti = tuple(ab for ab in inp.kinds.anti if ab.keyword in target.keywords
                     ) if inp.kinds.anti else ()
        return cls(inp.rules, inp.weapon.S, inp.effects, inp.flags,
                   attack_toughness(target.models), inp.scenario.context.charged, anti)


class WoundRoll(NamedTuple):
    strength: int
    toughness: int
    needed: int
    modifier: int
    critical: int
    reroll: RerollPolicy
    devastating: bool
    explanation: str


def attack_toughness(groups: tuple[ModelGroup, ...]) -> int:
    """05.02.01 Multiple Toughness: an attached unit (CHARACTER and other models) uses the
    highest T among its bodyguard models; otherwise the highest T in the unit."""
    if len(groups) == 1:
        return groups[0].T
    bodyguard = [g.T for g in groups if not g.character]
    leaders = [g.T for g in groups if g.character]
    if bodyguard and leaders:
        return max(bodyguard)
    return max(g.T for g in groups)


def wound_roll(inp: WoundInputs) -> WoundRoll:
    """Wound Roll (reference facts §4.2): S (at least 1, 02.02.01) against T on the table;
    the net modifier capped at +1/-1 ([LANCE] 24.21: +1 after a charge move); an
    unmodified 6, or Y+ for [ANTI-X Y+] against X (24.03) or an effect, is a critical
    wound; [TWIN-LINKED] "you can re-roll the wound roll" re-rolls failures (§4.5)."""
    rules, effects = inp.rules, inp.effects
    strength = max(1, inp.S + effects_total(effects, "strength"))
    toughness = inp.toughness
    needed = rules.wound_roll_needed(strength, toughness)
    raw = effects_total(effects, "wound") + (1 if "Lance" in inp.flags and inp.charged else 0)
    modifier = rules.cap(raw, -rules.wound_modifier_cap, rules.wound_modifier_cap)
    critical, anti_text = 6, ""
    for ab in inp.anti:
        if ab.threshold < critical:
            critical = ab.threshold
            anti_text = f"; {ab}: critical wound on {ab.threshold}+"
    for e in inp.effects:
        if e.critical_wound_on and e.critical_wound_on < critical:
            critical = e.critical_wound_on
            anti_text = f"; critical wound on {critical}+"
    reroll = stronger("failed" if "Twin-linked" in inp.flags else None,
                      effects_reroll(effects, "wound"))
    parts = [f"S{strength} vs T{toughness}: {needed}+"]
    if raw:
        capped = f" capped {modifier:+d}" if raw != modifier else ""
        parts.append(f"modifier {raw:+d}{capped}")
    text = "; ".join(parts) + anti_text + (f"; re-roll {reroll}" if reroll else "")
    devastating = "Devastating Wounds" in inp.flags
    if devastating:
        text += ("; Devastating Wounds: a critical wound becomes mortal wounds"
                 if rules.devastating_wounds == "mortal"
                 else "; Devastating Wounds: a critical wound cannot be saved")
    return WoundRoll(strength, toughness, needed, modifier, critical, reroll, devastating,
                     text)

