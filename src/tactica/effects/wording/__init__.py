"""A rule's text in plain English, generated from the dataset's effect code (issue 41).

The bundled dataset carries no published rules text: each ability, stratagem,
enhancement, detachment rule and army rule is an effect tree of the 40kdc-data ability
DSL (``effect.schema.json``, 1.4.5) with curation notes. ``describe_record`` writes that
tree as sentences a player reads:

>>> oath = {"type": "designate-target", "duration": "until-next-command-phase",
...         "select": {"count": 1, "scope": "enemy-unit", "timing": "start-of-command-phase"},
...         "applies": {"to": "attackers-of-target", "effect": {
...             "type": "re-roll", "target": "unit",
...             "modifier": {"roll": "hit", "subset": "all-failures"}}}}
>>> print(describe_record({"effect": oath, "behavior": "activated"}).text)
... # doctest: +NORMALIZE_WHITESPACE
At the start of your Command phase, select one enemy unit. Re-roll failed Hit rolls for
attacks that target the designated enemy unit, until your next Command phase.

It is a pure function of the record (its ``effect``, ``behavior``, ``scope``,
``trigger`` and ``usage``; the names of the abilities it grants by id, when given): it
computes no odds and reads no library. The doors show its text marked as generated
(``tactica.lookup.GENERATED``), beside the record's notes (``effects.rule_text``).
Structure nodes are written here, the leaves in ``combat`` (what changes an attack),
``grants`` (abilities granted) and ``other`` (moves, objectives, CP...), the conditions
in ``conditions``; a node kind none of them knows is written as "(effect not described:
KIND)" and named in ``RuleText.undescribed``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from ...names import article
from .combat import COMBAT_LEAVES, Ctx, extras
from .conditions import Notes, conditions, lead
from .other import OTHER_LEAVES
from .words import (
    event_text,
    inches,
    kw_all,
    kw_list,
    lower_first,
    timing_text,
    upper_first,
    words,
)

__all__ = ["RuleText", "describe_effect", "describe_record"]

Raw = Mapping[str, Any]
_LEAVES = {**COMBAT_LEAVES, **OTHER_LEAVES}
_DEPTH = 16


@dataclass(frozen=True)
class RuleText:
    """A record's generated text and the node or condition kinds it could not put in
    words (each also written as "(effect not described: KIND)")."""

    text: str
    undescribed: tuple[str, ...] = ()


def describe_effect(effect: Any, names: Mapping[str, str] | None = None) -> RuleText:
    """The effect tree alone in words (``describe_record`` with no record around it)."""
    return describe_record({"effect": effect}, names)


def describe_record(record: Raw, names: Mapping[str, str] | None = None) -> RuleText:
    """The record's effect in sentences, with its usage ("Once per battle"), trigger and,
    for a rule the player uses, how long it lasts. ``names``: ability ids to names (the
    record's own ``granted`` names are read too)."""
    notes = Notes()
    known = dict(_granted_names(record))
    known.update(names or {})
    ctx = Ctx(notes, aura=_aura(record.get("scope")), names=known)
    sentences = _describe(record.get("effect"), ctx, 0)
    if not sentences:
        sentences = ["(the dataset gives no effect code for it)"]
    first = sentences[0]
    opening = _opening(record)
    if opening and not first.casefold().startswith(opening.casefold()):
        sentences[0] = f"{opening}, {lower_first(first)}"
    text = ". ".join(upper_first(s.strip()) for s in sentences if s.strip())
    text = _lasting(record, text)
    if not text.endswith((".", "!", "?", ")")):
        text += "."
    return RuleText(text, tuple(notes.undescribed))


def _granted_names(record: Raw) -> dict[str, str]:
    granted = record.get("granted")
    if not isinstance(granted, Mapping):
        return {}
    return {str(k): str(v["name"]) for k, v in granted.items()
            if isinstance(v, Mapping) and v.get("name")}


def _aura(scope: Any) -> str | None:
    """The aura's range of a record's ``scope`` ("aura-6", "aura-custom" with
    ``range_inches``)."""
    if not isinstance(scope, Mapping):
        return None
    where = str(scope.get("range") or "")
    if where.startswith("aura-") and where[5:].isdigit():
        return inches(int(where[5:]))
    if scope.get("range_inches") is not None:
        return inches(scope["range_inches"])
    return None


_USAGE = {"once-per-turn": "once per turn", "once-per-phase": "once per phase",
          "once-per-battle-round": "once per battle round",
          "once-per-opponent-turn": "once per opponent's turn",
          "once-per-command-phase": "once per Command phase"}


def _opening(record: Raw) -> str:
    """"Once per battle, when an enemy unit ends a move within 9\" of this unit"."""
    parts: list[str] = []
    usage = record.get("usage")
    if isinstance(usage, Mapping) and usage.get("frequency"):
        freq = str(usage["frequency"])
        text = _USAGE.get(freq, words(freq))
        if freq == "n-per-battle":
            count = usage.get("count", 1)
            text = {1: "once per battle", 2: "twice per battle"}.get(
                count, f"{count} times per battle")
        if usage.get("per") in ("unit", "model"):
            text += f" per {usage['per']}"
        parts.append(upper_first(text))
    trigger = record.get("trigger")
    if isinstance(trigger, Mapping):
        said = event_text(trigger)
        if trigger.get("condition"):
            said = ", ".join(x for x in (said, lead(conditions(trigger["condition"], Notes())))
                             if x)
        if said:
            parts.append(said + (" (optional)" if trigger.get("optional") else ""))
    return ", ".join(parts)


_LASTING = {"phase": "until the end of the phase", "turn": "until the end of the turn",
            "battle-round": "until the end of the battle round",
            "until-next-command-phase": "until your next Command phase",
            "until-start-next-turn": "until the start of your next turn"}


def _lasting(record: Raw, text: str) -> str:
    """A rule the player uses (``activated``, a stratagem) lasts as its ``scope`` says;
    added when the text does not say so already."""
    scope = record.get("scope")
    used = record.get("behavior") == "activated" or record.get("ability_type") == "stratagem"
    if not used or not isinstance(scope, Mapping):
        return text
    lasting = _LASTING.get(str(scope.get("duration")))
    if lasting is None or "until " in text:
        return text
    return text.rstrip(".") + f", {lasting}"


# --- the walk ------------------------------------------------------------------------------


def _map(value: Any) -> Raw:
    """A node's field that should be an object, or an empty one."""
    return value if isinstance(value, Mapping) else {}


def _describe(node: Any, ctx: Ctx, depth: int) -> list[str]:
    """The sentences of one node (each without its full stop)."""
    if not isinstance(node, Mapping) or depth > _DEPTH:
        return []
    kind = str(node.get("type"))
    structure = _STRUCTURES.get(kind)
    if structure is not None:
        return structure(node, ctx, depth + 1)
    leaf = _LEAVES.get(kind)
    if leaf is None:
        ctx.notes.undescribed.append(kind)
        return [f"(effect not described: {kind})"]
    m = node.get("modifier")
    text = leaf(node, m if isinstance(m, Mapping) else {}, ctx)
    scaling = node.get("scaling")
    if isinstance(scaling, Mapping):
        text += f" (per {scaling.get('per', 1)} {words(scaling.get('of') or 'models')})"
    return [text]


def _one(node: Any, ctx: Ctx, depth: int) -> str:
    """A node as one sentence (its sentences joined by semicolons)."""
    return "; ".join(_describe(node, ctx, depth))


def _conditional(node: Raw, ctx: Ctx, depth: int) -> list[str]:
    conds = conditions(node.get("condition"), ctx.notes)
    effect = node.get("effect")
    attacks = [c for c in conds if c.kind == "attack"]
    if len(attacks) == 1:  # "for ranged attacks" said in the leaves ("ranged attacks made by")
        limited = _with_attack(effect, attacks[0].value)
        if limited is not None:
            effect = limited
            conds = [c for c in conds if c.kind != "attack"]
    inner = _describe(effect, ctx, depth)
    opening = lead(conds)
    if node.get("on_fail"):
        inner = ["; ".join(inner) + "; otherwise, " + _one(node["on_fail"], ctx, depth)]
    if not opening:
        return inner
    if len(inner) == 1:
        return [f"{opening}, {lower_first(inner[0])}"]
    return [f"{opening}: " + "; ".join(lower_first(s) for s in inner)]


_WEAPON_STATS = {"A", "S", "AP", "D", "BS", "WS"}


def _with_attack(node: Any, kind: str) -> Raw | None:
    """``node`` with its leaves limited to ``kind`` (ranged or melee) attacks, or ``None``
    when a leaf cannot say it (it is not about attacks, or names other weapons)."""
    if not isinstance(node, Mapping):
        return None
    t = node.get("type")
    m = _map(node.get("modifier"))
    about_attacks = (t in ("roll-modifier", "re-roll") and m.get("roll") in (
        "hit", "wound", "damage")) or (t == "stat-modifier" and m.get("stat") in
                                       _WEAPON_STATS) or t == "bs-modifier" or (
        t == "keyword-grant" and node.get("target") in (None, "unit", "self", "bearer"))
    if about_attacks:
        said = m.get("attack_type") or m.get("weapon_type")
        if said or m.get("weapon_name") or m.get("weapon"):
            return node if said == kind else None
        return {**node, "modifier": {**m, "attack_type": kind}}
    if t in ("sequence", "rules-bundle"):
        steps = [_with_attack(step, kind) for step in node.get("steps") or ()]
        return None if any(x is None for x in steps) else {**node, "steps": steps}
    if t == "conditional":
        inner = _with_attack(node.get("effect"), kind)
        return None if inner is None else {**node, "effect": inner}
    return None


def _sequence(node: Raw, ctx: Ctx, depth: int) -> list[str]:
    return [s for step in node.get("steps") or () for s in _describe(step, ctx, depth)]


_ROMAN = ("i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x")


def _mark(level: int, i: int) -> str:
    """The number of the ``i``-th option (from 1) of a choice nested ``level`` deep: (1),
    (a), (i)."""
    if level == 1:
        return f"({'abcdefghijklmnopqrstuvwxyz'[(i - 1) % 26]})"
    if level == 2:
        return f"({_ROMAN[(i - 1) % 10]})"
    return f"({i})"


def _options(options: Any, ctx: Ctx, depth: int) -> str:
    """"(1) Name: what it does; (2) ..." (nested choices: (a), then (i))."""
    out = []
    inner = replace(ctx, level=ctx.level + 1)
    for i, opt in enumerate(options or (), 1):
        if not isinstance(opt, Mapping):
            continue
        named = opt.get("name") or opt.get("label")
        node = opt.get("effect") if "type" not in opt else opt
        said = _one(node, inner, depth)
        need = opt.get("requirement")
        if isinstance(need, Mapping):
            said = f"needs {_requirement(need, ctx)}: {lower_first(said)}"
        out.append(f"{_mark(ctx.level, i)} " + (f"{named}: {lower_first(said)}" if named
                                                 else said))
    return "; ".join(out)


def _requirement(need: Raw, ctx: Ctx) -> str:
    if isinstance(need.get("any_of"), list):
        return " or ".join(_requirement(n, ctx) for n in need["any_of"] if isinstance(n, Mapping))
    return lead(conditions(need, ctx.notes)).removeprefix("if ")


def _choice(node: Raw, ctx: Ctx, depth: int) -> list[str]:
    prompt = node.get("choice_prompt")
    opening = lower_first(str(prompt)) if prompt else "choose one"
    return [f"{opening}: {_options(node.get('options'), ctx, depth)}"]


def _stance(node: Raw, ctx: Ctx, depth: int) -> list[str]:
    when = timing_text(node["select"]) if node.get("select") else ""
    scope = node.get("scope")
    who = " for your army" if scope == "army" else " for the unit" if scope == "unit" else ""
    opening = f"{when}, select one of the following{who}" if when else \
        f"select one of the following{who}"
    return [f"{opening}: {_options(node.get('options'), ctx, depth)}"]


def _selection(select: Raw, ctx: Ctx) -> str:
    """"select one enemy unit within 12\" (one that ...)"."""
    count = select.get("count", select.get("max_count", 1))
    up_to = "up to " if "max_count" in select and "count" not in select and count != 1 else ""
    number = {1: "one", 2: "two", 3: "three"}.get(count, str(count)) if isinstance(
        count, int) else words(count)
    scope = str(select.get("scope") or select.get("owner") or "enemy")
    side = "friendly" if "friendly" in scope else "enemy"
    keywords = select.get("keywords")
    if keywords:
        side += f" {kw_list(keywords, 'or')}" if select.get("keyword_match") == "any" else \
            f" {kw_all(keywords)}"
    unit = "unit" if count == 1 else "units"
    if select.get("target_kind") == "model":
        unit = "model" if count == 1 else "models"
    text = f"select {up_to}{number} {side} {unit}"
    if select.get("excluded_keywords"):
        text += f" (excluding {kw_list(select['excluded_keywords'], 'and')} units)"
    dist = select.get("within_inches", select.get("range_inches"))
    if dist is not None:
        text += f" within {inches(dist)}"
    if select.get("engagement_relation"):
        text += " within Engagement Range of this unit"
    if isinstance(select.get("eligibility"), Mapping):
        text += ", " + lead(conditions(select["eligibility"], ctx.notes))
    when = select.get("timing")
    return f"{timing_text(when)}, {text}" if when else text


def _designate(node: Raw, ctx: Ctx, depth: int) -> list[str]:
    select = _map(node.get("select"))
    applies = _map(node.get("applies"))
    to = str(applies.get("to") or "target")
    mode = {"attackers-of-target": "attackers", "bearer-attacks-target": "bearer"}.get(
        to, "target")
    friendly = "friendly" in str(select.get("scope"))
    noun = "the designated friendly unit" if friendly else "the designated enemy unit"
    inner = _describe(applies.get("effect"), replace(ctx, designated=mode, noun=noun,
                                                     models=None), depth)
    lasting = _LASTING.get(str(node.get("duration")))
    if node.get("duration") == "battle":
        lasting = "until the end of the battle"
    effect = "; ".join(inner) + (f", {lasting}" if lasting and inner else "")
    out = [_selection(select, ctx)]
    if effect:
        out.append(effect)
    return out


def _persistent(node: Raw, ctx: Ctx, depth: int) -> list[str]:
    select = _map(node.get("select"))
    consumer = _map(node.get("consumer"))
    relation = consumer.get("relation")
    if relation == "attacks-selected-unit":
        inner = _one(consumer.get("effect"), replace(
            ctx, designated="bearer", noun="the selected unit"), depth)
        effect = inner
    else:
        effect = "while the bearer is within range of the selected marker, " + lower_first(
            _one(consumer.get("effect"), ctx, depth))
    lasting = " (for the rest of the battle)" if node.get("duration") == "battle" else ""
    return [_selection(select, ctx), effect + lasting]


def _select_units(node: Raw, ctx: Ctx, depth: int) -> list[str]:
    selector = _map(node.get("selector"))
    count = selector.get("count", selector.get("max_count", 1))
    noun = "the selected unit" if count == 1 else "each selected unit"
    if selector.get("target_kind") == "model":
        noun = "the selected model" if count == 1 else "each selected model"
    models = noun if selector.get("target_kind") == "model" else None
    inner = _one(node.get("effect"), replace(ctx, designated="target", noun=noun,
                                             models=models), depth)
    return [f"{_selection(selector, ctx)}: {lower_first(inner)}"]


def _for_each(node: Raw, ctx: Ctx, depth: int) -> list[str]:
    selector = _map(node.get("selector"))
    owner = "enemy" if selector.get("owner") == "enemy" else "friendly"
    kinds = f" {kw_all(selector['keywords'])}" if selector.get("keywords") else ""
    what = "model" if selector.get("target_kind") == "model" else "unit"
    text = f"for each {owner}{kinds} {what}"
    dist = selector.get("within_inches", selector.get("range_inches"))
    if dist is not None:
        text += f" within {inches(dist)}"
    if selector.get("engagement_relation"):
        text += " within Engagement Range of this unit"
    if selector.get("member_of"):
        text += " in this unit"
    noun = f"that {what}"
    inner = _one(node.get("effect"), replace(ctx, designated="target", noun=noun,
                                             models=noun if what == "model" else None), depth)
    return [f"{text}: {lower_first(inner)}"]


def _named(node: Raw, ctx: Ctx, depth: int) -> list[str]:
    name = str(node.get("name") or "it")
    kind = f" ({words(node['kind']).title()})" if node.get("kind") else ""
    inner = _one(node.get("effect"), ctx, depth)
    opening = f"{name}{kind}"
    if isinstance(node.get("trigger"), Mapping):
        opening = f"{event_text(node['trigger'])}, you can use {opening}"
    elif node.get("optional"):
        opening = f"you can use {opening}"
    return [f"{opening}: {lower_first(inner)}" if inner else opening]


def _aura_node(node: Raw, ctx: Ctx, depth: int) -> list[str]:
    m = _map(node.get("modifier"))
    dist = inches(m["range"]) if m.get("range") is not None else ctx.aura
    if m.get("range_bonus") is not None:
        return [f"add {inches(m['range_bonus'])} to the range of this unit's "
                f"{words(m.get('of') or 'aura')} abilities"]
    enemy = node.get("target") == "enemy-within-aura"
    limit = m.get("recipient_filter") or m.get("eligible") or {}
    keywords = f" {kw_all(limit['required_keywords'])}" if isinstance(
        limit, Mapping) and limit.get("required_keywords") else ""
    excluded = f" (other than {kw_list(limit['excluded_keywords'], 'or')} units)" if \
        isinstance(limit, Mapping) and limit.get("excluded_keywords") else ""
    who = f"{'an enemy' if enemy else 'a friendly'}{keywords} unit{excluded}"
    opening = f"while {who} is within {dist or 'range'} of this unit"
    source = m.get("emitter_filter")
    if isinstance(source, Mapping) and source.get("required_keywords"):
        opening += f" (if this unit is {kw_all(source['required_keywords'])})"
    inner = _describe(m.get("effect"), replace(ctx, designated="target", noun="that unit",
                                               models=None, aura=dist), depth)
    if not inner:
        return [opening + extras(m, {"range", "recipient_filter", "eligible",
                                     "emitter_filter", "effect"}, ctx.notes)]
    joiner = ", " if len(inner) == 1 else ": "
    return [opening + joiner + "; ".join(lower_first(s) for s in inner)]


def _dice_gated(node: Raw, ctx: Ctx, depth: int) -> list[str]:
    dice = str(node.get("dice") or "D6").upper()
    threshold = node.get("threshold")
    comparison = node.get("comparison") or "gte"
    test = node.get("test")
    if threshold == "leadership" or (isinstance(test, Mapping) and test.get("kind")):
        what = words(test.get("kind")).title() if isinstance(test, Mapping) and test.get(
            "kind") else "Leadership"
        opening = f"take a {what} test ({dice}): if it is passed"
    else:
        result = {"gte": f"{threshold}+", "lte": f"{threshold} or less",
                  "eq": f"{threshold}", "gt": f"more than {threshold}",
                  "lt": f"less than {threshold}"}.get(str(comparison), f"{threshold}+")
        opening = f"roll {'one D6' if dice == 'D6' else dice}: on a {result}"
    text = f"{opening}, {lower_first(_one(node.get('on_success'), ctx, depth))}"
    if isinstance(node.get("on_fail"), Mapping):
        text += f"; otherwise, {lower_first(_one(node['on_fail'], ctx, depth))}"
    return [text]


def _dice_table(node: Raw, ctx: Ctx, depth: int) -> list[str]:
    rows = []
    for outcome in node.get("outcomes") or ():
        if not isinstance(outcome, Mapping):
            continue
        results = [int(r) for r in outcome.get("results") or () if isinstance(r, int)]
        when = f"{results[0]}" if len(results) == 1 else \
            f"{min(results)}-{max(results)}" if results else "?"
        rows.append(f"{when}: {lower_first(_one(outcome.get('effect'), ctx, depth))}")
    return [f"roll {str(node.get('dice') or 'D6').upper()}: " + "; ".join(rows)]


def _risk(node: Raw, ctx: Ctx, depth: int) -> list[str]:
    reward = _one(node.get("reward"), ctx, depth)
    risk = _map(node.get("risk"))
    test = words(risk.get("test") or "leadership").title()
    fail = _one(risk.get("on_fail"), ctx, depth) if risk.get("on_fail") else ""
    text = f"{reward}; then take a {test} test" + (f": if it is failed, {lower_first(fail)}"
                                                    if fail else "")
    return [text]


def _orders(node: Raw, ctx: Ctx, depth: int) -> list[str]:
    dist = f" within {inches(node['range'])}" if node.get("range") is not None else ""
    return [f"issue one of these Orders to a friendly unit{dist}: "
            f"{_options(node.get('options'), ctx, depth)}"]


def _leader_grant(node: Raw, ctx: Ctx, depth: int) -> list[str]:
    leader = _map(node.get("leader_filter"))
    grant = _map(node.get("grant"))
    listed = kw_list(leader["keywords"], "or") if leader.get("keywords") else ""
    who = f"{article(listed)} {listed} model" if listed else "a Leader"
    inner = _one(grant.get("effect"), replace(ctx, designated="target", noun="that model",
                                              models="that model"), depth)
    return [f"while {who} is leading this unit, {lower_first(inner)}"]


def _menu(node: Raw, ctx: Ctx, depth: int) -> list[str]:
    rows = []
    for action in node.get("actions") or ():
        if not isinstance(action, Mapping):
            continue
        cost = _map(action.get("cost"))
        token = cost.get("resource_label") or words(cost.get("pool_id") or "token")
        price = f" ({cost.get('amount', 1)} {token})" if cost else ""
        said = _one(action.get("effect"), ctx, depth)
        lasting = f", {words(action['duration'])}" if action.get("duration") else ""
        rows.append(f"{action.get('label') or words(action.get('id'))}{price}: "
                    f"{lower_first(said)}{lasting}")
    return ["spend a token to use one of: " + "; ".join(rows)]


def _pool(node: Raw, ctx: Ctx, depth: int) -> list[str]:
    pool = _map(node.get("pool"))
    dice = f"{pool.get('count', '')}{str(pool.get('die') or 'D6').upper()}"
    most = node.get("max_activations")
    limit = f"; use up to {most} of these" if most else ""
    return [f"roll {dice}{limit}: {_options(node.get('options'), ctx, depth)}"]


def _region(node: Raw, ctx: Ctx, depth: int) -> list[str]:
    m = _map(node.get("modifier"))
    consumer = _map(m.get("consumer"))
    region = words(((consumer.get("state_ref") or {}).get("region_id")) or "region")
    gate = _map(consumer.get("beneficiary_gate"))
    who = f"{kw_list(gate['keywords'], gate.get('operator') or 'and')} units" if gate.get(
        "keywords") else "units"
    base = _map(consumer.get("default_branch"))
    better = _map(consumer.get("qualified_branch"))
    inside = replace(ctx, designated="target", noun="those units", models=None)
    said = lower_first(_one(base.get("effect"), inside, depth))
    text = f"for {who} wholly within the {region}: {said}"
    if better.get("effect"):
        cond = lead(conditions(consumer.get("qualified_condition"), ctx.notes))
        text += f"; {cond or 'for some of them'}, instead " + lower_first(
            _one(better["effect"], inside, depth))
    return [text]


_STRUCTURES = {
    "conditional": _conditional, "sequence": _sequence, "rules-bundle": _sequence,
    "choice": _choice, "stance-select": _stance, "designate-target": _designate,
    "persistent-designation": _persistent, "select-units": _select_units,
    "for-each-unit": _for_each, "named-effect": _named, "aura": _aura_node,
    "dice-gated": _dice_gated, "dice-table": _dice_table, "risk-reward": _risk,
    "issue-orders": _orders, "leader-model-ability-grant": _leader_grant,
    "resource-action-menu": _menu, "dice-pool-allocation": _pool,
    "named-region-state": _region,
}
