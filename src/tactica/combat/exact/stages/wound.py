"""The wound roll (05.01 / Wound Roll): S against T, the capped modifier, the
critical-wound threshold (Anti, effects) and re-rolls (Twin-linked, effects)."""

from __future__ import annotations

from typing import NamedTuple

from tactica.combat.contract.scenario import ModelGroup
from tactica.model.abilities import Anti

from .inputs import RerollPolicy, WeaponInputs, stronger

__all__ = ["WoundRoll", "attack_toughness", "wound_roll", "wound_roll_key"]


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


def wound_roll(inp: WeaponInputs) -> WoundRoll:
    """Wound Roll (reference facts §4.2): S (at least 1, 02.02.01) against T on the table;
    the net modifier capped at +1/-1 ([LANCE] 24.21: +1 after a charge move); an
    unmodified 6, or Y+ for [ANTI-X Y+] against X (24.03) or an effect, is a critical
    wound; [TWIN-LINKED] "you can re-roll the wound roll" re-rolls failures (§4.5)."""
    rules, target, ctx = inp.rules, inp.scenario.target, inp.scenario.context
    strength = max(1, inp.weapon.S + inp.total("strength"))
    toughness = attack_toughness(target.models)
    needed = rules.wound_roll_needed(strength, toughness)
    raw = inp.total("wound") + (1 if "Lance" in inp.flags and ctx.charged else 0)
    modifier = rules.cap(raw, -rules.wound_modifier_cap, rules.wound_modifier_cap)
    critical, anti_text = 6, ""
    for ab in inp.abilities:
        if isinstance(ab, Anti) and ab.keyword in target.keywords and ab.threshold < critical:
            critical = ab.threshold
            anti_text = f"; {ab}: critical wound on {ab.threshold}+"
    for e in inp.effects:
        if e.critical_wound_on and e.critical_wound_on < critical:
            critical = e.critical_wound_on
            anti_text = f"; critical wound on {critical}+"
    reroll = stronger("failed" if "Twin-linked" in inp.flags else None, inp.reroll("wound"))
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


def wound_roll_key(inp: WeaponInputs) -> tuple[object, ...]:
    """Everything ``wound_roll(inp)`` reads, as a key (a batch makes each wound roll
    once for the targets of the same Toughness and keywords that matter): the rule set,
    S, the effects that apply to the line, its flags, the target's Toughness against
    attacks (``attack_toughness``), whether it charged (Lance), and each Anti ability
    with whether the target has its keyword. Keep it in step with ``wound_roll``."""
    target = inp.scenario.target
    anti = tuple((ab, ab.keyword in target.keywords) for ab in inp.kinds.anti
                 ) if inp.kinds.anti else ()
    return ("wound", inp.rules, inp.weapon.S, inp.effects, inp.flags,
            attack_toughness(target.models), inp.scenario.context.charged, anti)
