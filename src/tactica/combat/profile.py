"""Resolve one weapon line against the target and circumstances into plain numbers.

Everything rules-version dependent is asked of the rule set; the result, a
``ResolvedWeapon``, is what both the exact engine and the simulator consume: attack-count
distribution, hit and wound thresholds, critical thresholds, re-roll policies, save
thresholds per allocation group and damage distributions.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, Protocol

import numpy as np

from ..dice import DiceExpr, FloatArray
from ..model.abilities import Anti, Blast, Flag, Melta, RapidFire, SustainedHits, WeaponAbility
from ..rules.base import AttackCircumstances, RuleSet
from .scenario import Effect, ModelGroup, Scenario, WeaponLine

__all__ = [
    "RerollPolicy",
    "ResolvedWeapon",
    "attack_toughness",
    "resolve_weapon",
    "save_probability",
]

RerollPolicy = Literal["ones", "failed", "any"] | None

# Abilities the engine takes in (computed) versus those it only reports.
#: Recognised abilities whose effect is positional or a choice outside one attack
#: sequence: listed under ``not_calculated`` when present.
NOT_MODELLED: dict[str, str] = {
    "Assault": "Assault (shooting after Advancing) is an eligibility rule",
    "Pistol": "Pistol / Close-quarters (shooting while engaged) is an eligibility rule",
    "Close-quarters": "Close-quarters shooting (10.06) is an eligibility rule",
    "Indirect Fire": "Indirect Fire (targets not visible) is not modelled",
    "One Shot": "One Shot (24.26): the weapon is assumed not yet fired this battle",
}


def _stronger(a: RerollPolicy, b: RerollPolicy) -> RerollPolicy:
    order = {None: 0, "ones": 1, "failed": 2, "any": 3}
    return a if order[a] >= order[b] else b


@dataclass(frozen=True)
class ResolvedWeapon:
    """One weapon line, with every number of its attack sequence decided."""

    name: str
    count: int
    attacks_pmf: FloatArray  # total attack dice of the line (all copies)
    torrent: bool
    skill: int  # effective BS/WS after characteristic changes (may exceed 6)
    hit_modifier: int  # net, capped
    critical_hit: int
    snap_shooting: bool
    hit_reroll: RerollPolicy
    sustained: DiceExpr | None
    lethal_hits: bool  # has (or was granted) Lethal Hits
    lethal_mandatory: bool
    strength: int
    toughness: int
    wound_needed: int
    wound_modifier: int
    critical_wound: int
    wound_reroll: RerollPolicy
    devastating: bool
    ap: int
    damage_pmf: FloatArray  # per normal attack, after additions/halving/reduction
    mortal_pmf: FloatArray  # per Devastating Wounds critical (rule-set dependent)
    fnp_effect: int | None
    save_modifier: int  # from effects (cover handled per group by save_probability)
    save_reroll: RerollPolicy
    circumstances: AttackCircumstances
    precision: bool
    hazardous: bool
    explanations: dict[str, str] = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    not_calculated: tuple[str, ...] = ()
    snap_hit_on: int = 6  # while snap shooting: hits on unmodified X+ (Firepoint Commander)
    mortal_afresh: bool = True  # Devastating Wounds criticals pick a model per wound (06.02)
    mortal_precision: bool = False  # ... or are allocated like attacks, with Precision


def attack_toughness(groups: tuple[ModelGroup, ...]) -> int:
    """05.02.01 Multiple Toughness: an attached unit (CHARACTER and other models) uses the
    highest T among its bodyguard models; otherwise the highest T in the unit."""
    bodyguard = [g.T for g in groups if not g.character]
    leaders = [g.T for g in groups if g.character]
    if bodyguard and leaders:
        return max(bodyguard)
    return max(g.T for g in groups)


def _shift_floor(pmf: FloatArray, shift: int, floor: int) -> FloatArray:
    """pmf of max(floor, X + shift) for X >= 0 with the given pmf."""
    out = np.zeros(max(len(pmf) + shift, floor + 1), dtype=np.float64)
    for v, p in enumerate(pmf):
        if p:
            out[max(floor, v + shift)] += p
    return out


def _power(pmf: FloatArray, n: int) -> FloatArray:
    out = np.array([1.0])
    for _ in range(n):
        out = np.convolve(out, pmf)
    return out


def _reroll_roll(expr: DiceExpr, policy: RerollPolicy) -> FloatArray:
    """A roll of ``expr`` re-rolled once under ``policy``: ``ones`` re-rolls the lowest
    possible result, ``failed``/``any`` re-roll results below the mean (the attacker's
    best single re-roll of a characteristic roll; noted in the result)."""
    pmf = expr.pmf().copy()
    if policy is None or not expr.is_random:
        return pmf
    values = np.arange(len(pmf))
    mean = float(np.dot(values, pmf))
    if policy == "ones":
        reroll = values == expr.min
    else:
        reroll = values < mean
    keep: FloatArray = np.where(reroll, 0.0, pmf)
    return keep + float(pmf[reroll].sum()) * pmf


def _damage_distribution(
    base: FloatArray, plus: FloatArray, half: bool, reduction: int
) -> FloatArray:
    """Reference facts §4.7: additions (Melta, +damage), then halving rounding up, then
    reductions, minimum 1."""
    total = np.convolve(base, plus)
    out = np.zeros(len(total), dtype=np.float64)
    for v, p in enumerate(total):
        if not p:
            continue
        d = -(-v // 2) if half else v
        d = max(1, d - reduction)
        out[d] += p
    return out


def _ability_names(abilities: tuple[WeaponAbility, ...]) -> set[str]:
    return {a.name for a in abilities if isinstance(a, Flag)}


def resolve_weapon(
    weapon: WeaponLine, scenario: Scenario, rules: RuleSet, effects: tuple[Effect, ...]
) -> ResolvedWeapon:
    """Decide every number of ``weapon``'s attack sequence (reference facts §4, §5)."""
    target = scenario.target
    ctx = scenario.context
    effects = tuple(e for e in effects if e.applies_to(weapon.name))
    abilities: tuple[WeaponAbility, ...] = weapon.abilities + tuple(
        e.grant for e in effects if e.grant is not None
    )
    flags = _ability_names(abilities)
    notes: list[str] = []
    explain: dict[str, str] = {}
    not_calc = [NOT_MODELLED[f] for f in sorted(flags) if f in NOT_MODELLED]

    ranged = scenario.phase == "shooting"
    circ = AttackCircumstances(
        ranged=ranged,
        cover=ctx.cover,
        stealth=ctx.stealth,
        ignores_cover="Ignores Cover" in flags,
        psychic="Psychic" in flags and rules.psychic_ignores_hit_modifiers,
    )
    half_range = ctx.half_range(weapon.range)

    # --- attacks (02.02.03 random A per weapon; Blast 24.05; Rapid Fire) ---------------
    unmodifiable = "Extra Attacks" in flags and rules.extra_attacks_unmodifiable
    a_bonus = 0 if unmodifiable else sum(e.attacks for e in effects if e.attacks is not None)
    a_reroll: RerollPolicy = None
    for e in effects:
        if e.reroll == "attacks":
            a_reroll = _stronger(a_reroll, e.which)
    per_copy = _shift_floor(_reroll_roll(weapon.A, a_reroll), a_bonus, 1)
    attack_parts = [f"A{weapon.A}"]
    if a_bonus:
        attack_parts.append(f"{a_bonus:+d} (effects, minimum 1)")
    if unmodifiable and any(e.attacks for e in effects):
        notes.append(f"{weapon.name}: Extra Attacks weapon, attacks not modified (10th)")
    models = target.model_count
    for ab in abilities:
        if isinstance(ab, Blast):
            bonus = ab.extra * (models // 5)
            per_copy = _shift_floor(per_copy, bonus, 1) if bonus else per_copy
            attack_parts.append(f"+{bonus} {ab} ({models} models)" if bonus
                                else f"{ab}: no bonus ({models} models)")
        elif isinstance(ab, RapidFire) and half_range:
            per_copy = np.convolve(per_copy, ab.extra.pmf())
            attack_parts.append(f"+{ab.extra} {ab} (half range)")
    attacks_pmf = _power(per_copy, weapon.count)
    explain["attacks"] = f"{weapon.count} x " + " ".join(attack_parts)

    # --- hit roll ----------------------------------------------------------------------
    torrent = "Torrent" in flags
    snap = any(e.snap_shooting for e in effects)
    hit_reroll: RerollPolicy = None
    for e in effects:
        if e.reroll == "hit":
            hit_reroll = _stronger(hit_reroll, e.which)
    if snap and hit_reroll and not rules.snap_shooting_hit_rerolls:
        notes.append(f"{weapon.name}: snap shooting, hit re-rolls not allowed (15.09)")
        hit_reroll = None
    base_skill = weapon.skill if weapon.skill is not None else 7
    skill_change = 0 if circ.psychic else sum(e.skill for e in effects if e.skill is not None)
    penalty = rules.skill_penalty(circ)
    # reference facts §5.6: effects add to the number (no floor: an unmodified 1 still
    # fails, so BS1+ differs from BS2+ only with a negative hit modifier)
    skill = base_skill + skill_change + penalty
    raw_hit = rules.hit_modifier_from_target(circ) + sum(e.hit for e in effects if e.hit)
    if "Heavy" in flags and ctx.remained_stationary:
        raw_hit += 1
    if circ.psychic:
        raw_hit = 0
    hit_mod = rules.cap(raw_hit, -rules.hit_modifier_cap, rules.hit_modifier_cap)
    crit_hit = min([6] + [e.critical_hit_on for e in effects if e.critical_hit_on])
    snap_hit_on = min([6] + [e.snap_hit_on for e in effects if e.snap_hit_on])
    if snap:
        crit_hit = 6
    if torrent:
        explain["hit"] = "Torrent: automatic hits (never critical)"
    elif snap:
        explain["hit"] = f"snap shooting: hits only on an unmodified {snap_hit_on}" + (
            "+" if snap_hit_on < 6 else "")
    else:
        parts = [f"{'WS' if weapon.range == 'Melee' else 'BS'}{base_skill}+"]
        if skill_change:
            parts.append(f"skill {skill_change:+d}")
        if penalty:
            parts.append(f"cover: BS worsened by {penalty} (13.08)")
        if raw_hit:
            capped = f" capped {hit_mod:+d}" if raw_hit != hit_mod else ""
            parts.append(f"modifier {raw_hit:+d}{capped}")
        parts.append(f"critical on {crit_hit}+")
        if hit_reroll:
            parts.append(f"re-roll {hit_reroll}")
        explain["hit"] = "; ".join(parts)

    sustained = next((a.hits for a in abilities if isinstance(a, SustainedHits)), None)
    lethal = "Lethal Hits" in flags

    # --- wound roll --------------------------------------------------------------------
    strength = max(1, weapon.S + sum(e.strength for e in effects if e.strength))
    toughness = attack_toughness(target.models)
    needed = rules.wound_roll_needed(strength, toughness)
    raw_wound = sum(e.wound for e in effects if e.wound)
    if "Lance" in flags and ctx.charged:
        raw_wound += 1
    wound_mod = rules.cap(raw_wound, -rules.wound_modifier_cap, rules.wound_modifier_cap)
    crit_wound = 6
    anti_text = ""
    for ab in abilities:
        if isinstance(ab, Anti) and ab.keyword in target.keywords and ab.threshold < crit_wound:
            crit_wound = ab.threshold
            anti_text = f"; {ab}: critical wound on {ab.threshold}+"
    for e in effects:
        if e.critical_wound_on and e.critical_wound_on < crit_wound:
            crit_wound = e.critical_wound_on
            anti_text = f"; critical wound on {crit_wound}+"
    wound_reroll: RerollPolicy = "failed" if "Twin-linked" in flags else None
    for e in effects:
        if e.reroll == "wound":
            wound_reroll = _stronger(wound_reroll, e.which)
    w_parts = [f"S{strength} vs T{toughness}: {needed}+"]
    if raw_wound:
        capped = f" capped {wound_mod:+d}" if raw_wound != wound_mod else ""
        w_parts.append(f"modifier {raw_wound:+d}{capped}")
    explain["wound"] = "; ".join(w_parts) + anti_text + (
        f"; re-roll {wound_reroll}" if wound_reroll else ""
    )

    # --- save --------------------------------------------------------------------------
    ap = min(0, weapon.AP + sum(e.ap for e in effects if e.ap))
    save_mod = sum(e.save for e in effects if e.save)
    save_reroll: RerollPolicy = None
    for e in effects:
        if e.reroll == "save":
            save_reroll = _stronger(save_reroll, e.which)

    # --- damage ------------------------------------------------------------------------
    d_reroll: RerollPolicy = None
    for e in effects:
        if e.reroll == "damage":
            d_reroll = _stronger(d_reroll, e.which)
    base_d = _reroll_roll(weapon.D, d_reroll)
    plus = np.array([1.0])
    d_parts = [f"Damage {weapon.D}"]
    for ab in abilities:
        if isinstance(ab, Melta) and half_range:
            plus = np.convolve(plus, ab.extra.pmf())
            d_parts.append(f"+{ab.extra} {ab} (half range)")
    add = sum(e.damage for e in effects if e.damage and e.damage > 0)
    if add:
        plus = np.convolve(plus, DiceExpr.parse(add).pmf())
        d_parts.append(f"+{add} (effects)")
    reduction = target.damage_reduction - sum(
        e.damage for e in effects if e.damage and e.damage < 0
    )
    if target.half_damage:
        d_parts.append("halved (round up)")
    if reduction:
        d_parts.append(f"-{reduction} (minimum 1)")
    damage_pmf = _damage_distribution(base_d, plus, target.half_damage, reduction)
    # Devastating Wounds (the rule set's variant): 11th 24.10 mortal wounds equal to the
    # weapon's D (not halved or reduced), each picking a model afresh (06.02, so no
    # Precision); 10th: the damage after modifiers, allocated like an attack
    dw_mortal = rules.devastating_wounds == "mortal"
    mortal_pmf = _damage_distribution(base_d, plus, False, 0) if dw_mortal else damage_pmf
    fnp_effect = min((e.fnp for e in effects if e.fnp), default=None)
    explain["damage"] = " ".join(d_parts)

    devastating = "Devastating Wounds" in flags
    if devastating:
        explain["wound"] += (
            "; Devastating Wounds: a critical wound becomes mortal wounds"
            if dw_mortal else "; Devastating Wounds: a critical wound cannot be saved"
        )
    precision = "Precision" in flags and any(g.character for g in target.models)
    hazardous = "Hazardous" in flags

    return ResolvedWeapon(
        name=weapon.name,
        count=weapon.count,
        attacks_pmf=attacks_pmf,
        torrent=torrent,
        skill=skill,
        hit_modifier=hit_mod,
        critical_hit=crit_hit,
        snap_shooting=snap,
        hit_reroll=hit_reroll,
        sustained=sustained,
        lethal_hits=lethal,
        lethal_mandatory=not rules.lethal_hits_optional,
        strength=strength,
        toughness=toughness,
        wound_needed=needed,
        wound_modifier=wound_mod,
        critical_wound=crit_wound,
        wound_reroll=wound_reroll,
        devastating=devastating,
        ap=ap,
        damage_pmf=damage_pmf,
        mortal_pmf=mortal_pmf,
        fnp_effect=fnp_effect,
        save_modifier=save_mod,
        save_reroll=save_reroll,
        circumstances=circ,
        precision=precision,
        hazardous=hazardous,
        explanations=explain,
        notes=tuple(notes),
        not_calculated=tuple(not_calc),
        snap_hit_on=snap_hit_on,
        mortal_afresh=dw_mortal,
        mortal_precision=precision and not dw_mortal,
    )


def _reroll_success(p: float, policy: RerollPolicy, p_one: float = 1 / 6) -> float:
    if policy is None:
        return p
    if policy == "ones":
        return p + p_one * p
    return p + (1 - p) * p  # "failed" and "any": a failed save is re-rolled


class Saves(Protocol):
    """What a save roll needs of the models it is made for (a target entry or an
    allocation group): the Sv and invulnerable save characteristics."""

    @property
    def Sv(self) -> int: ...

    @property
    def invuln(self) -> int | None: ...


def save_probability(group: Saves, w: ResolvedWeapon, rules: RuleSet) -> tuple[float, str]:
    """Saving Throw: roll + AP + modifiers (improvement capped at +1, 10th cover inside
    the cap) >= Sv, or the roll >= the invulnerable save (AP and modifiers don't apply);
    the defender uses the better; an unmodified 1 fails. Returns (P(saved), explanation)."""
    mod = w.save_modifier + rules.save_bonus(w.circumstances, group.Sv, w.ap)
    mod = min(mod, rules.save_improvement_cap)
    armour = group.Sv - w.ap - mod
    best = armour
    text = f"AP{w.ap} vs Sv{group.Sv}+" + (f" {mod:+d}" if mod else "") + f": {armour}+"
    if group.invuln is not None and group.invuln < armour:
        best = group.invuln
        text += f", invulnerable {group.invuln}++ used"
    best = max(2, best)
    p = max(0, 7 - best) / 6
    p = _reroll_success(p, w.save_reroll)
    return p, text
