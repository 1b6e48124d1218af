"""The dataset's effect language -> parts of a named effect (issue 16).

The 40kdc-data ability DSL (``wh40kdc/schemas/enrichment/ability-dsl/effect.schema.json``
and ``condition.schema.json``, 1.4.5) describes an effect as a tree: structure nodes
(``sequence``, ``rules-bundle``, ``conditional``, ``choice``, ``stance-select``,
``designate-target``, ``aura``, ``named-effect``, ``select-units``...) over leaves
``{type, target, modifier}``. ``compile_effect`` walks it once and sorts every leaf:

* a **part** the engine computes: roll modifiers (hit, wound, save; ``crit-on``),
  re-rolls (``subset`` ones / all-failures, ``result_scope`` any-result), stat modifiers
  (A, S, AP, D, BS/WS on the attacks; T, Sv, W on the target), Feel No Pain, invulnerable
  saves, damage reduction, mortal wounds (a count, or ``dice`` rolled against a
  ``threshold``), weapon-ability grants (``keyword-grant`` parsed with the weapon ability
  parser) and Stealth;
* **non-combat**: what does not change the odds of one attack (movement, reserves,
  objectives, CP, battle-shock, fight order, eligibility to shoot or charge; the seed
  rules' convention in ``catalogue.NON_COMBAT``), with the reason;
* **not modelled**: a combat leaf the engine cannot express, with the reason; node
  kinds the walker does not know are counted in ``unknown``, never raised.

Whose rule a leaf is (``Owner``) follows the DSL: a leaf on the rule's own unit (``self``,
``unit``, ``bearer``...) changes its attacks, unless it is ``incoming`` or a defensive
kind (Feel No Pain, invulnerable save, damage reduction, T/Sv/W), when the rule's unit
is the target; a leaf on ``attacker`` changes the enemy's attacks on the rule's unit.
The AP sign follows the DSL (and wh40kdc's ``cruncher.from_dsl._ap_delta``): AP is
negative, ``improve`` makes it more negative, ``add`` passes the signed value.

Conditions compile against the owner: keyword, phase, attack type, attachment, charge,
advance, remaining stationary, disembarking and range conditions become ``Condition``
checks on the scenario (refused with the reason); a ``phase-is`` outside the shooting and
fight phases makes its leaves non-combat; what a scenario cannot state (objectives,
battle-shock, timing, turn) is kept as an **assumption**: naming the rule says it holds,
and the result notes it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
from pydantic import ValidationError

from ..combat.contract.scenario import Effect
from ..dice import FloatArray
from ..model.abilities import (
    RECOGNISED_WEAPON_ABILITIES,
    UnknownAbilityError,
    parse_weapon_ability,
)
from ..names import name_key
from .compiled import Compiled, Part
from .dsl_conditions import Attack, Owner, Raw, compile_condition, designated_condition
from .dsl_tables import (
    COMBAT_GRANT_WORDS,
    ENEMY_TARGETS,
    NON_COMBAT_CORE_RULES,
    NON_COMBAT_KINDS,
    NON_COMBAT_ROLLS,
    NON_COMBAT_STATS,
    OWN_TARGETS,
    REROLL_ROLLS,
    REROLL_WHICH,
    UNMODELLED_KINDS,
)
from .leaf_keys import feel_no_pain_scope, leaf_scope, weapon_names
from .model import Condition
from .mortal_dice import mortal_pmf

__all__ = ["Compiled", "Part", "compile_effect"]



@dataclass(frozen=True)
class _Ctx:
    conds: tuple[Raw, ...] = ()
    option: str | None = None
    designated: str | None = None
    assumptions: tuple[str, ...] = ()


# --- leaves --------------------------------------------------------------------------------


def _value(m: Raw, default: int = 0) -> int | None:
    v = m.get("value", default)
    if isinstance(v, bool) or not isinstance(v, int | float) or int(v) != v:
        return None
    op = m.get("operation", "add")
    if op in ("add", "improve"):
        return int(v)
    if op in ("subtract", "worsen"):
        return -int(v)
    return None


def _ap(m: Raw) -> int | None:
    v = m.get("value")
    if not isinstance(v, int) or isinstance(v, bool):
        return None
    return {"improve": -abs(v), "worsen": abs(v), "add": v, "subtract": -v}.get(
        str(m.get("operation", "add")))


def _attack_of(node: Raw) -> Attack | None:
    m = node.get("modifier") or {}
    for key in ("attack_type", "weapon_type"):
        if m.get(key) in ("ranged", "melee"):
            return m[key]  # type: ignore[no-any-return]
    return None


def _effect(**kwargs: object) -> Effect | None:
    try:
        return Effect.model_validate(kwargs)
    except ValidationError:
        return None


@dataclass
class _Leaf:
    """The result of one leaf: a part's content, or a classification."""

    owner: Owner = "attacker"
    terms: str = ""
    modifiers: tuple[Effect, ...] = ()
    target_changes: tuple[tuple[str, str, int], ...] = ()
    context: tuple[tuple[str, object], ...] = ()
    mortal_before: FloatArray | None = None
    side: FloatArray | None = None
    non_combat: str | None = None
    unmodelled: str | None = None


def _defensive_target(m: Raw, target: object, value: int | None) -> bool:
    """Whether a modifier of attack rolls or characteristics changes attacks made *on* the
    rule's unit: it says ``incoming``; it is on the ``attacker`` or on enemy units (an
    aura worsening the enemy's BS); or it is a penalty on the rule's own unit, which the
    dataset uses for "subtract 1 from the Wound roll of attacks that target this unit"
    (Hulking Brutes) -- no rule here penalises its own unit's attacks."""
    if m.get("incoming") is True or m.get("applies_to") == "incoming-attacks":
        return True
    if target == "attacker":  # a penalty on the attacker; a bonus is the unit's own
        return value is None or value < 0
    if target in ENEMY_TARGETS and target != "defender":
        return True
    return value is not None and value < 0 and m.get("incoming") is not False


def _roll_modifier(node: Raw, m: Raw) -> _Leaf:
    roll = str(m.get("roll"))
    if roll in NON_COMBAT_ROLLS:
        return _Leaf(non_combat=NON_COMBAT_ROLLS[roll])
    target = node.get("target")
    op = m.get("operation", "add")
    defensive = _defensive_target(m, target, _value(m))
    crit = m.get("critical_on") if op != "crit-on" else m.get("value")
    if (op == "crit-on" or "critical_on" in m) and roll in ("hit", "wound") \
            and isinstance(crit, int):
        e = _effect(**{f"critical_{roll}_on": crit})
        return _Leaf("attacker", f"critical {roll}s on {crit}+", (e,)) if e else \
            _Leaf(unmodelled=f"critical {roll} threshold {crit}")
    value = _value(m)
    if roll in ("hit", "wound") and value is not None:
        e = _effect(**{roll: value})
        if e is not None:
            return _Leaf("target" if defensive else "attacker", f"{value:+d} to {roll} rolls"
                         + (" of attacks on the unit" if defensive else ""), (e,))
    if roll == "damage" and value is not None and not defensive:
        e = _effect(damage=value)
        if e is not None:
            return _Leaf("attacker", f"{value:+d} Damage", (e,))
    if roll in ("save", "saving-throw") and value is not None:
        e = _effect(save=value)
        own = target in OWN_TARGETS and m.get("incoming") is not False
        if e is not None:
            return _Leaf("target" if own else "attacker", f"{value:+d} to save rolls", (e,))
    return _Leaf(unmodelled=f"{roll} roll modifier ({op})")


def _reroll(node: Raw, m: Raw) -> _Leaf:
    roll = str(m.get("roll"))
    if roll in NON_COMBAT_ROLLS:
        return _Leaf(non_combat=NON_COMBAT_ROLLS[roll])
    which = REROLL_WHICH.get(str(m.get("subset") or m.get("result_scope")))
    stage = REROLL_ROLLS.get(roll)
    if stage is None or which is None:
        return _Leaf(unmodelled=f"re-roll of {roll} rolls")
    owner: Owner = "target" if stage == "save" else "attacker"
    e = _effect(reroll=stage, which=which)
    assert e is not None
    return _Leaf(owner, f"re-roll {stage} rolls ({which})", (e,))


def _stat_modifier(node: Raw, m: Raw) -> _Leaf:
    stat = str(m.get("stat"))
    if stat in NON_COMBAT_STATS:
        return _Leaf(non_combat=NON_COMBAT_STATS[stat])
    target = node.get("target")
    on_enemy = target in ENEMY_TARGETS
    # an AP change on the attacker: "worsen"/"subtract" is a penalty on the enemy's
    # attacks, "add"/"improve" a bonus to the unit's own (Bonded Heroes, Crossfire)
    ap_sign = -1 if m.get("operation") in ("worsen", "subtract") else 1
    defensive = _defensive_target(m, target, _value(m) if stat != "AP" else (
        ap_sign if target == "attacker" else None))
    if stat == "AP":
        delta = _ap(m)
        if delta is not None and not defensive and m.get("operation") in ("add", "subtract"):
            delta = -abs(delta)  # a rule on its own unit's attacks improves them
        e = None if delta is None else _effect(ap=delta)
        if e is not None and delta is not None:
            word = "worsened" if delta > 0 else "improved"
            return _Leaf("target" if defensive else "attacker",
                         f"AP {word} by {abs(delta)}" + (" for attacks on the unit"
                                                         if defensive else ""), (e,))
    if not m:
        return _Leaf(unmodelled="the dataset's modifier is empty")
    value = _value(m)
    if value is None and stat in ("T", "Sv", "W") and m.get("operation") == "set" \
            and isinstance(m.get("value"), int):
        return _Leaf("attacker" if on_enemy else "target", f"{stat} {m['value']}",
                     target_changes=((stat, "set", int(m["value"])),))
    if value is None:
        return _Leaf(unmodelled=f"{stat} set or scaled ({m.get('operation')})")
    if stat in ("A", "S", "D"):
        key = {"A": "attacks", "S": "strength", "D": "damage"}[stat]
        e = _effect(**{key: value})
        if e is not None:
            return _Leaf("target" if defensive else "attacker",
                         f"{value:+d} {stat}" + (" for attacks on the unit" if defensive
                                                 else ""), (e,))
    if stat in ("BS", "WS"):
        op = m.get("operation", "add")
        # "add" improves, "subtract" worsens (Benefit of Cover: subtract 1 on the attacker
        # is 13.08's BS worsened by 1); on the rule's own unit any change but "worsen"
        # improves, on an enemy's any but "improve" worsens, however the sign is written
        # (Coordinate to Engage "add -1": "improved"; EMP Grenades "add 1": "worsens")
        own = target in OWN_TARGETS and m.get("incoming") is not True and op != "worsen"
        enemy = on_enemy and op != "improve"
        defensive = defensive and not own
        skill = -abs(value) if own or (op in ("improve", "add") and not enemy) else abs(
            value) if enemy or op in ("worsen", "subtract") else value
        e = _effect(skill=skill)
        if e is not None:
            word = "improved" if skill < 0 else "worsened"
            return _Leaf("target" if defensive else "attacker",
                         f"{stat} {word} by {abs(skill)}", (e,))
    if stat in ("T", "Sv", "W"):
        # on the rule's own unit: it is the target; on an enemy: the enemy is the target
        change = -value if stat == "Sv" else value  # Sv +1 means a better save
        return _Leaf("attacker" if on_enemy else "target", f"{stat} {change:+d}",
                     target_changes=((stat, "add", change),))
    return _Leaf(unmodelled=f"{stat} modifier")


def _keyword_text(w: Any) -> str:
    """A granted keyword in rulebook words: "Sustained Hits 1" as written, or a
    ``{keyword_id, parameters}`` reference ("sustained-hits", {"value": 1})."""
    if isinstance(w, str):
        text = w
    elif isinstance(w, Mapping):
        text = str(w.get("name") or w.get("keyword_id") or "")
        params = w.get("parameters") or {}
        text += "".join(f" {v}" for v in params.values() if isinstance(v, str | int))
    else:
        text = str(w)
    if "-" in text and " " not in text.strip():
        text = text.replace("-", " ")
    return text


def _with_value(word: Any, m: Raw) -> Any:
    """``{keyword: "Sustained Hits", value: 1}`` -> "Sustained Hits 1"; ``{keyword:
    "Anti-Infantry", value: 3}`` -> "Anti-Infantry 3+" (the value is the ability's)."""
    value = m.get("value")
    if not isinstance(word, str) or isinstance(value, bool) or not isinstance(value, int | str):
        return word
    if any(ch.isdigit() for ch in word):
        return word
    suffix = "+" if name_key(word).startswith("anti") and "+" not in str(value) else ""
    return f"{word} {value}{suffix}"


def _keyword_grant(node: Raw, m: Raw) -> _Leaf:
    words = list(m.get("keywords") or ()) + ([_with_value(m["keyword"], m)]
                                             if m.get("keyword") else [])
    if node.get("target") in ENEMY_TARGETS:
        return _Leaf(non_combat="a marker on an enemy unit")
    grants: list[Effect] = []
    unknown: list[str] = []
    for w in words:
        text = _keyword_text(w)
        if text.casefold() == "stealth":
            return _Leaf("target", "the unit has Stealth", context=(("stealth", True),))
        try:
            ability = parse_weapon_ability(text)
        except UnknownAbilityError:
            unknown.append(text)
            continue
        e = _effect(grant=ability)
        if e is not None:
            grants.append(e)
    if not grants:
        weaponish = [u for u in unknown if any(
            name_key(u).startswith(name_key(r)) for r in RECOGNISED_WEAPON_ABILITIES)]
        if not weaponish and unknown:
            return _Leaf(non_combat="keywords")
        return _Leaf(unmodelled=f"weapon ability {', '.join(unknown) or '?'} not in the engine")
    names = ", ".join(str(g.grant) for g in grants)
    return _Leaf("attacker", f"weapons gain [{names}]", tuple(grants))


def _grant(node: Raw, m: Raw) -> _Leaf:
    kind = str(m.get("grant_type") or "")
    crit = {"critical-hit-on": m.get("value"), "melee-critical-hit-on-5-plus": 5}.get(kind)
    if isinstance(crit, int):
        e = _effect(critical_hit_on=crit)
        return _Leaf("attacker", f"critical hits on {crit}+", (e,)) if e else _Leaf(
            unmodelled=f"critical hits on {crit}+")
    if "psychic" in kind or "channelling" in kind:
        return _Leaf(non_combat="psychic tests")
    if kind.casefold() == "stealth":
        return _Leaf("target", "the unit has Stealth", context=(("stealth", True),))
    if any(w in kind.casefold() for w in COMBAT_GRANT_WORDS) and not any(
            w in kind.casefold() for w in ("heal", "restore", "range", "hazard")):
        return _Leaf(unmodelled=f"ability {kind!r}")
    return _Leaf(non_combat="abilities (" + (kind.replace("-", " ") or "granted") + ")")


def _defensive(node: Raw, m: Raw) -> _Leaf:
    kind = node.get("type")
    if node.get("target") in ENEMY_TARGETS:
        return _Leaf(unmodelled=f"{kind} for an enemy unit")
    if kind == "feel-no-pain":
        t, scope = m.get("threshold"), m.get("scope")
        if scope in ("mortal", "psychic-and-mortal") and isinstance(t, int):  # fnp_mortal
            e = _effect(fnp_mortal=t)  # (against Psychic Attacks: leaf_keys lists it)
            return _Leaf("target", f"Feel No Pain {t}+ against mortal wounds", (e,)) \
                if e else _Leaf(unmodelled="Feel No Pain value")
        if scope not in (None, "all", "any") or not isinstance(t, int):
            return _Leaf(unmodelled=f"Feel No Pain against {scope} only")
        e = _effect(fnp=t)
        return _Leaf("target", f"Feel No Pain {t}+", (e,)) if e else _Leaf(
            unmodelled="Feel No Pain value")
    if kind == "invulnerable-save":
        t = m.get("invuln_sv", m.get("threshold"))
        if not isinstance(t, int) or not 2 <= t <= 6:
            return _Leaf(unmodelled="invulnerable save value")
        return _Leaf("target", f"{t}+ invulnerable save", target_changes=(("invuln", "best", t),))
    r = m.get("reduction", m.get("value", m.get("amount")))
    e = _effect(damage=-r) if isinstance(r, int) and r > 0 else None
    return _Leaf("target", f"-{r} Damage for attacks on the unit", (e,)) if e else _Leaf(
        unmodelled="damage reduction value")


def _mortal(node: Raw, m: Raw) -> _Leaf:
    """Mortal wounds as a distribution (``mortal_dice``: 6D6 is six dice)."""
    try:
        pmf, terms = mortal_pmf(m)
    except ValueError as exc:
        return _Leaf(unmodelled=str(exc))
    if node.get("target") in ENEMY_TARGETS or node.get("target") in (None, "attacker"):
        return _Leaf("attacker", terms + " to the target before the attacks",
                     mortal_before=pmf)
    return _Leaf("attacker", terms + " to your unit", side=pmf)


_LEAVES: dict[str, Callable[[Raw, Raw], _Leaf]] = {
    "_cover": lambda n, m: _Leaf("target", "the unit has the Benefit of Cover",
                                 context=(("cover", True),)),
    "roll-modifier": _roll_modifier, "re-roll": _reroll, "stat-modifier": _stat_modifier,
    "bs-modifier": lambda n, m: _stat_modifier(n, {**m, "stat": "BS"}),
    "keyword-grant": _keyword_grant, "ability-grant": _grant, "feel-no-pain": _defensive,
    "invulnerable-save": _defensive, "damage-reduction": _defensive, "mortal-wounds": _mortal,
}
# --- the walk ------------------------------------------------------------------------------


def compile_effect(effect: Raw | None, name: str,
                   resolve: Callable[[str], Raw | None] | None = None) -> Compiled:
    """Compile one ability's ``effect`` tree; ``name`` is the rule's name (designations),
    ``resolve`` looks up a granted ability's effect by id (``ability-grant`` of an
    ``ability_id``)."""
    out = Compiled()
    if effect is not None:
        _walk(effect, _Ctx(), out, name, resolve, depth=0)
    return out


def _walk(node: Any, ctx: _Ctx, out: Compiled, name: str,
          resolve: Callable[[str], Raw | None] | None, depth: int) -> None:
    if not isinstance(node, Mapping) or depth > 12:
        return
    kind = str(node.get("type"))

    def go(child: Any, c: _Ctx = ctx) -> None:
        _walk(child, c, out, name, resolve, depth + 1)

    if kind in ("sequence", "rules-bundle"):
        for step in node.get("steps") or ():
            go(step)
    elif kind == "conditional":
        cond = node.get("condition")
        go(node.get("effect"), replace(ctx, conds=(*ctx.conds, cond))
           if isinstance(cond, Mapping) else ctx)
    elif kind in ("choice", "stance-select"):
        for i, opt in enumerate(node.get("options") or ()):
            _option(opt, i, ctx, out, lambda n, c: go(n, c))
    elif kind == "designate-target":
        applies = node.get("applies") or {}
        go(applies.get("effect"), replace(ctx, designated=name))
    elif kind in ("named-effect", "select-units", "for-each-unit", "select-objective",
                  "for-each-objective"):
        go(node.get("effect"))
    elif kind == "aura" and isinstance((node.get("modifier") or {}).get("effect"), Mapping):
        go(node["modifier"]["effect"], replace(ctx, assumptions=(
            *ctx.assumptions, "within range of the aura")))
    elif kind == "ability-grant" and (node.get("modifier") or {}).get("ability_id") and resolve:
        granted = resolve(str(node["modifier"]["ability_id"]))
        if granted is not None and granted.get("effect"):
            go(granted["effect"])
        else:
            out.non_combat["abilities"] += 1
    elif kind == "dice-gated":
        _dice_gated(node, ctx, out, name, resolve, depth)
    elif kind == "risk-reward":  # Dark Pacts: the reward chosen; the risk not weighed
        go(node.get("reward"))
        risk = node.get("risk") or {}
        fail = ((risk.get("on_fail") or {}).get("modifier") or {})
        out.unmodelled.append(f"the risk taken for it (a {risk.get('test', '?')} test"
                              + (f"; on a failure {fail.get('count')} mortal wounds to the unit"
                                 if fail.get("count") else "") + ")")
    elif kind == "auto-result" and ((node.get("modifier") or {}).get("test") or str(
            (node.get("modifier") or {}).get("roll")) not in ("hit", "wound", "save", "damage")):
        out.non_combat["tests passed automatically"] += 1
    elif kind == "rule-state" and (node.get("modifier") or {}).get("rule_kind") == "core-rule" \
            and (node.get("modifier") or {}).get("rule") in NON_COMBAT_CORE_RULES:
        out.non_combat[str(node["modifier"]["rule"]).replace("-", " ")] += 1
    elif kind == "rule-state" and (node.get("modifier") or {}).get("rule") == "benefit-of-cover":
        _leaf({"type": "_cover", "target": node.get("target")}, ctx, out)
    elif kind == "rule-state" and resolve is not None and resolve(
            str((node.get("modifier") or {}).get("rule"))):
        granted = resolve(str(node["modifier"]["rule"]))
        go((granted or {}).get("effect"))
    elif kind in _LEAVES:
        _leaf(node, ctx, out)
    elif kind in NON_COMBAT_KINDS:
        out.non_combat[NON_COMBAT_KINDS[kind]] += 1
    elif kind in UNMODELLED_KINDS:
        out.unmodelled.append(UNMODELLED_KINDS[kind])
    else:
        out.unknown[kind] += 1


def _option(opt: Any, i: int, ctx: _Ctx, out: Compiled,
            go: Callable[[Any, _Ctx], None]) -> None:
    """One option of a ``choice`` (a bare effect node, as the schema has it) or of a
    ``stance-select`` (``{name, effect}``), compiled and named: by its ``name`` when it
    has one, else by what it does ("Sustained Hits 1", "re-roll hit rolls (failed)");
    ``Compiled.option_terms`` keeps what each does, so either names it."""
    if not isinstance(opt, Mapping):
        return
    named = opt.get("name") if "effect" in opt and "type" not in opt else None
    node = opt.get("effect") if named is not None else opt
    outer_conds = {check.description for raw in ctx.conds for owner in ("attacker", "target")
                   for check in compile_condition(raw, owner).checks}
    start, first = len(out.parts), len(out.options)
    before = Counter(out.non_combat)
    go(node, replace(ctx, option=None))
    parts = out.parts[start:]
    inner = out.options[first:]  # a choice inside this option (Code Chivalric's deeds)
    del out.options[first:]
    about = ", ".join(k for k in (out.non_combat - before)) or "no combat effect"
    does = "; ".join(dict.fromkeys(_option_terms(p, outer_conds) for p in parts
                                   if p.option is None))
    if inner:
        outer = str(named or opt.get("label") or f"option {i + 1}")
        for label in inner:
            out.options.append(f"{outer}: {label}")
            out.option_terms[f"{outer}: {label}"] = out.option_terms.pop(label, label) + (
                f"; {does}" if does else "")
        out.parts[start:] = [replace(p, option=f"{outer}: {p.option}" if p.option else outer)
                             for p in parts]
        if does:
            out.options.append(outer)
            out.option_terms[outer] = does
        return
    does = does or f"option {i + 1} ({about})"
    label = str(named or opt.get("label") or does)
    if label in out.options:
        label = f"{label} (option {i + 1})"
    out.options.append(label)
    out.option_terms[label] = does
    out.parts[start:] = [replace(p, option=label) for p in parts]


def _option_terms(p: Part, outer: set[str]) -> str:
    """What an option's part does, with its attack type and its own conditions (not
    those of the whole choice, ``outer``): "re-roll hit rolls (ones), ranged attacks"."""
    text = _short(p.terms) + (f", {p.attack} attacks" if p.attack else "")
    when = [c.description for c in p.conditions if c.description not in outer]
    when += list(p.assumptions)
    if p.strength_over_toughness:
        when.append("Strength greater than Toughness")
    return text + (f", if {' and '.join(when)}" if when else "")


def _short(terms: str) -> str:
    """"weapons gain [Sustained Hits 1]" -> "Sustained Hits 1"."""
    if terms.startswith("weapons gain [") and terms.endswith("]"):
        return terms[len("weapons gain ["):-1]
    return terms


def _dice_gated(node: Raw, ctx: _Ctx, out: Compiled, name: str,
                resolve: Callable[[str], Raw | None] | None, depth: int) -> None:
    """"Roll a D6: on a 4+ ...": mortal wounds on success are mixed with "none" by the
    probability of the roll; any other gated effect is not modelled (its chance would
    have to weigh the whole attack)."""
    sub = Compiled()
    _walk(node.get("on_success"), ctx, sub, name, resolve, depth + 1)
    threshold = node.get("threshold")
    mortal_only = bool(sub.parts) and all(
        not p.modifiers and not p.target_changes and not p.context for p in sub.parts)
    if not (mortal_only and str(node.get("dice")) == "D6" and isinstance(threshold, int)
            and node.get("on_fail") is None):
        if sub.parts:
            out.unmodelled.append("a dice roll decides whether it applies")
        out.non_combat.update(sub.non_combat)
        out.unmodelled.extend(sub.unmodelled)
        out.unknown.update(sub.unknown)
        return
    low = node.get("comparison") == "lte"
    p = threshold / 6 if low else (7 - threshold) / 6
    roll = f"D6 {'≤' if low else '≥'} {threshold}"
    for part in sub.parts:
        def mixed(pmf: FloatArray | None) -> FloatArray | None:
            if pmf is None:
                return None
            out_pmf = p * np.asarray(pmf, dtype=np.float64)
            out_pmf[0] += 1 - p
            return out_pmf

        out.parts.append(replace(part, terms=f"on a {roll}: {part.terms}",
                                 mortal_before=mixed(part.mortal_before),
                                 side=mixed(part.side)))


def _leaf(node: Raw, ctx: _Ctx, out: Compiled) -> None:
    node, conds, left = feel_no_pain_scope(node, ctx.conds)
    out.unmodelled.extend(left)
    try:
        leaf = _LEAVES[str(node["type"])](node, node.get("modifier") or {})
    except (ValueError, TypeError, KeyError) as exc:  # a malformed leaf: counted, not raised
        leaf = _Leaf(unmodelled=f"{node['type']} not readable ({exc})")
    if leaf.non_combat is not None:
        out.non_combat[leaf.non_combat] += 1
        return
    if leaf.unmodelled is not None:
        out.unmodelled.append(leaf.unmodelled)
        return
    checks: list[Condition] = []
    assumed = list(ctx.assumptions)
    attack = _attack_of(node)
    s_over_t = False
    for raw in conds:
        p = raw.get("parameters") or {}
        if (raw.get("type") == "attack-stat-compare" and (p.get("attacker_stat"), p.get(
                "comparison"), p.get("target_stat")) == ("S", "greater-than", "T")) or (
                p.get("comparison") == "strength-greater-than-toughness"):
            s_over_t = True  # Hulking Brutes: only attacks with S greater than T
            continue
        c = compile_condition(raw, leaf.owner)
        if c.outside is not None:
            out.non_combat[f"effects in {c.outside}"] += 1
            return
        checks.extend(c.checks)
        if c.assumption:
            assumed.append(c.assumption)
        attack = c.attack or attack
    if ctx.designated:
        checks.append(designated_condition(ctx.designated))
    m = node.get("modifier") or {}
    scope = leaf_scope(str(node["type"]), m, leaf.owner)
    out.unread.update(scope.unread)
    grants = tuple(e for g in scope.grants if (e := _effect(grant=g)) is not None)
    terms = leaf.terms + "".join(f", [{g.grant}]" for g in grants)
    out.parts.append(Part(
        owner=leaf.owner, terms=terms, conditions=(*checks, *scope.checks),
        assumptions=(*assumed, *scope.assumptions), attack=scope.attack or attack,
        option=ctx.option,
        weapon_keyword=str(m["weapon_keyword"]) if m.get("weapon_keyword") else
        scope.weapon_keyword,
        weapon_names=weapon_names(m.get("weapon_name")),
        modifiers=leaf.modifiers + grants, target_changes=leaf.target_changes,
        context=leaf.context, mortal_before=leaf.mortal_before, side=leaf.side,
        strength_over_toughness=scope.strength_over_toughness or s_over_t,
        unread=scope.unread, bearer=node.get("target") in ("self", "bearer")))
