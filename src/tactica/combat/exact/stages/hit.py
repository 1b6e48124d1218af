"""The hit roll (05.01 / Hit Roll): the BS or WS after characteristic changes and their
bounds, the capped hit-roll modifier, the critical-hit threshold and re-rolls.

``hit_roll`` is a pure function of one ``HitInputs`` record, which holds what it reads
and nothing else: the record is the cache key (issue 42), so no key can forget a field
the roll reads (the roll cannot reach what the record does not hold)."""

from __future__ import annotations

from typing import NamedTuple

from tactica.combat.contract.scenario import Effect
from tactica.dice import DiceExpr
from tactica.rules.base import AttackCircumstances, RuleSet

from .inputs import RerollPolicy, WeaponInputs, effects_reroll, effects_values

__all__ = ["HitInputs", "HitRoll", "hit_roll"]


class HitRoll(NamedTuple):
    torrent: bool
    snap_shooting: bool
    snap_hit_on: int
    reroll: RerollPolicy
    skill: int  # after characteristic changes and the rule set's bounds
    modifier: int  # net, capped
    critical: int
    fails_on: int  # unmodified rolls 1..fails_on always fail (indirect shooting)
    sustained: DiceExpr | None
    lethal: bool
    explanation: str
    notes: tuple[str, ...] = ()
    not_calculated: tuple[str, ...] = ()


_BIG = frozenset({"MONSTER", "VEHICLE"})


class HitInputs(NamedTuple):
    """Everything ``hit_roll`` reads (a batch makes each hit roll once for the targets
    and attackers whose records are equal)."""

    rules: RuleSet
    name: str  # the line's, in the notes
    skill: int | None
    melee: bool
    flags: frozenset[str]
    sustained: DiceExpr | None  # the first Sustained Hits' extra hits
    effects: tuple[Effect, ...]
    circumstances: AttackCircumstances
    cover: bool  # the context's (the circumstances' cover may come of indirect fire)
    plunging_fire: bool
    remained_stationary: bool
    engaged: bool
    arrived_from_reserves: bool
    target_engaged: bool
    distance: float | None
    attacker_big: bool  # MONSTER or VEHICLE
    target_big: bool

    @classmethod
    def of(cls, inp: WeaponInputs) -> HitInputs:
        """The hit roll's record of the line ``inp``."""
        w, s = inp.weapon, inp.scenario
        ctx = s.context
        return cls(inp.rules, w.name, w.skill, w.range == "Melee", inp.flags,
                   inp.kinds.sustained, inp.effects, inp.circumstances, ctx.cover,
                   ctx.plunging_fire, ctx.remained_stationary, ctx.engaged,
                   ctx.arrived_from_reserves, ctx.target_engaged, ctx.distance,
                   not _BIG.isdisjoint(s.attacker.keywords),
                   not _BIG.isdisjoint(s.target.keywords))


class _Changes(NamedTuple):
    """The BS/WS changes and hit-roll modifiers, each with a label, before Psychic."""

    skill: list[tuple[int, str]]
    hit: list[tuple[int, str]]
    notes: list[str]
    not_calculated: list[str]


def _changes(inp: HitInputs) -> _Changes:
    """Every characteristic change and hit-roll modifier that applies to the attack."""
    rules, circ = inp.rules, inp.circumstances
    skill: list[tuple[int, str]] = [(x, "effect") for x in effects_values(inp.effects, "skill")]
    penalty = rules.skill_penalty(circ)
    if penalty:
        why = "indirect shooting: cover" if circ.indirect and not inp.cover else "cover"
        skill.append((penalty, f"{why}: BS worsened by {penalty} (13.08)"))
    notes: list[str] = []
    not_calc: list[str] = []
    if inp.plunging_fire and circ.ranged:
        better = rules.plunging_fire_improvement
        if better is None:
            not_calc.append(f"Plunging Fire: no {rules.name}-edition text in the data; "
                            "not applied")
        else:
            skill.append((-better, f"Plunging Fire: BS improved by {better} (22.05)"))
    hit: list[tuple[int, str]] = [(x, "effect") for x in effects_values(inp.effects, "hit")]
    target = rules.hit_modifier_from_target(circ)
    if target:
        hit.append((target, "Stealth"))
    if "Heavy" in inp.flags and rules.heavy_applies(
            circ.ranged, inp.remained_stationary, inp.engaged, inp.arrived_from_reserves):
        hit.append((1, "Heavy"))
    elif "Heavy" in inp.flags and inp.remained_stationary:
        notes.append(f"{inp.name}: Heavy does not apply (engaged, or set up this turn)")
    if circ.indirect:
        ind = rules.indirect_shooting(circ.indirect)
        if ind.hit_modifier:
            hit.append((ind.hit_modifier, "indirect fire"))
    engaged = rules.engaged_hit_modifier(
        ranged=circ.ranged, engaged=inp.engaged, target_engaged=inp.target_engaged,
        attacker_big=inp.attacker_big, target_big=inp.target_big,
        close_quarters=bool({"Close-quarters", "Pistol"} & inp.flags))
    if engaged:
        hit.append((engaged, "engaged MONSTER/VEHICLE (10.06 / 17.03)"))
    return _Changes(skill, hit, notes, not_calc)


def _dropped(changes: list[tuple[int, str]], kept: tuple[int, ...], what: str) -> list[str]:
    """The labels of the changes not in ``kept`` (as a multiset), for the notes."""
    left = list(kept)
    out = []
    for x, label in changes:
        if x in left:
            left.remove(x)
        else:
            source = label.split(":")[0]
            out.append(f"BS/WS worsened by {x} ({source})" if what == "BS/WS"
                       else f"{x:+d} to hit ({source})")
    return out


def _restrictions(inp: HitInputs, snap: bool, notes: list[str]
                  ) -> tuple[RerollPolicy, int]:
    """The hit re-roll allowed and the unmodified rolls that always fail: snap shooting
    (15.09: no re-rolls in 11th) and indirect shooting (10.07: no re-rolls, 1-5 or 1-3
    fail)."""
    rules, circ = inp.rules, inp.circumstances
    reroll = effects_reroll(inp.effects, "hit")
    if snap and reroll and not rules.snap_shooting_hit_rerolls:
        notes.append(f"{inp.name}: snap shooting, hit re-rolls not allowed (15.09)")
        reroll = None
    fails_on = 1
    if circ.indirect:
        ind = rules.indirect_shooting(circ.indirect)
        fails_on = ind.fails_on
        if reroll and not ind.rerolls_allowed:
            notes.append(f"{inp.name}: indirect shooting, hit rolls cannot be re-rolled (10.07)")
            reroll = None
    return reroll, fails_on


def _critical(inp: HitInputs, notes: list[str]) -> int:
    """The critical-hit threshold: 6, an effect's, or [CONVERSION] beyond 12"."""
    critical = min([6] + [e.critical_hit_on for e in inp.effects if e.critical_hit_on])
    if "Conversion" in inp.flags:
        conv = inp.rules.conversion_critical_hit(inp.distance)
        if conv is not None:
            critical = min(critical, conv)
        notes.append(f"{inp.name}: Conversion " + (
            f"critical hits on {conv}+ (the target is more than 12\" away)" if conv
            else "not triggered (the target is not more than 12\" away, or no distance)"))
    return critical


def hit_roll(inp: HitInputs) -> HitRoll:
    """Hit Roll (reference facts §4.1, §6.1): an unmodified 1 fails, an unmodified roll
    at or above the critical threshold hits; otherwise roll + modifier (net, capped at
    +1/-1) >= BS/WS. The BS/WS is the characteristic after every change (effects, cover,
    Plunging Fire), kept within the rule set's bounds (11th 02.02.01: 2+..6+). [PSYCHIC]
    ignores what the rule set says (11th: the harmful modifiers). Indirect shooting (10.07
    / 10th Indirect Fire) and snap shooting (15.09) restrict the roll."""
    rules, circ = inp.rules, inp.circumstances
    notes: list[str] = []
    torrent = "Torrent" in inp.flags
    snap = bool(inp.effects) and any(e.snap_shooting for e in inp.effects)
    reroll, fails_on = _restrictions(inp, snap, notes)
    ch = _changes(inp)
    notes += ch.notes
    choice = rules.psychic(circ, tuple(x for x, _ in ch.skill), tuple(x for x, _ in ch.hit))
    skill_changes, hit_modifiers, ignored = (choice.skill_changes, choice.hit_modifiers,
                                             choice.ignored)
    if ignored:
        dropped = _dropped(ch.skill, skill_changes, "BS/WS")
        dropped += _dropped(ch.hit, hit_modifiers, "to hit")
        notes.append(f"{inp.name}: Psychic, ignored " + ", ".join(dropped)
                     + " (the modifiers that lower the hit chance, 24.29)")
    base = inp.skill if inp.skill is not None else 7
    raw_skill = base + sum(skill_changes)
    skill = rules.bound_skill(raw_skill)
    raw_hit = sum(hit_modifiers)
    modifier = rules.cap(raw_hit, -rules.hit_modifier_cap, rules.hit_modifier_cap)
    critical = _critical(inp, notes)
    snap_hit_on = min([6] + [e.snap_hit_on for e in inp.effects if e.snap_hit_on]
                      ) if inp.effects else 6
    if snap:
        critical = 6
    if torrent:
        text = "Torrent: automatic hits (never critical)"
    elif snap:
        text = f"snap shooting: hits only on an unmodified {snap_hit_on}" + (
            "+" if snap_hit_on < 6 else "")
    else:
        parts = [f"{'WS' if inp.melee else 'BS'}{base}+"]
        kept = list(skill_changes)
        for x, label in ch.skill:
            if x in kept:
                kept.remove(x)
                parts.append(f"skill {x:+d}" if label == "effect" else label)
        if skill != raw_skill:
            parts.append(f"BS/WS {raw_skill}+ kept within the bounds: {skill}+ (02.02.01)")
        if raw_hit:
            capped = f" capped {modifier:+d}" if raw_hit != modifier else ""
            parts.append(f"modifier {raw_hit:+d}{capped}")
        if fails_on > 1:
            parts.append(f"indirect shooting: unmodified 1-{fails_on} fail (10.07)")
        parts.append(f"critical on {critical}+")
        if reroll:
            parts.append(f"re-roll {reroll}")
        text = "; ".join(parts)
    return HitRoll(torrent=torrent, snap_shooting=snap, snap_hit_on=snap_hit_on,
                   reroll=reroll, skill=skill, modifier=modifier, critical=critical,
                   fails_on=fails_on, sustained=inp.sustained, lethal="Lethal Hits" in inp.flags,
                   explanation=text, notes=tuple(notes),
                   not_calculated=tuple(ch.not_calculated))

