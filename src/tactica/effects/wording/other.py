"""The leaves of the dataset's effect language outside an attack's odds, as sentences
(issue 41): moves, reserves and deployment, objectives, CP and stratagems, battle-shock,
fight order, returning models, abilities granted, markers and resources
(``effect.schema.json``, 1.4.5).

Abilities granted (``ability-grant``) are written by ``grants``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .combat import Ctx, extras, signed
from .grants import ability_grant, ability_name, can, leaf_subject
from .words import Subject, count_of, dice_text, inches, join, kw, kw_list, subject, words

__all__ = ["OTHER_LEAVES"]

M = Mapping[str, Any]
Leaf = Callable[[M, M, Ctx], str]


_MOVES = {"reactive": "a reactive move", "redeploy": "a redeployment", "scout": "a Scout move",
          "normal": "a Normal move", "shoot-and-scoot": "a move after shooting",
          "surge": "a surge move", "consolidation": "a Consolidation move",
          "pile-in": "a Pile-in move", "advance": "an Advance move",
          "infiltrate": "an Infiltrators deployment"}


def movement(node: M, m: M, ctx: Ctx) -> str:
    s = leaf_subject(node, ctx)
    kind = m.get("move_type")
    dist = m.get("distance")
    used = {"move_type", "distance", "to_reserves", "replaces_default", "passthrough",
            "applies_to_moves", "name"}
    what = _MOVES.get(str(kind), f"a {words(kind)} move") if kind else None
    if what and dist is not None and kind in ("normal", "advance") and not isinstance(
            dist, str) and not m.get("replaces_default"):
        text = f"add {inches(dist)} to {s.noun}'s {words(kind).title()} moves" if dist >= 0 \
            else f"subtract {inches(-dist)} from {s.noun}'s {words(kind).title()} moves"
    elif what and m.get("to_reserves"):
        text = f"{s.noun} can be placed into Strategic Reserves"
    elif what:
        up_to = f" of up to {dice_text(dist)}\"" if dist is not None else ""
        text = f"{can(s)} make {what}{up_to}"
        if m.get("replaces_default"):
            text += " instead of the usual distance"
    elif m.get("to_reserves"):
        text = f"{s.noun} can be placed into Strategic Reserves"
    else:
        text = f"{s.noun} can move"
    if m.get("passthrough"):
        text += f", moving through {words(m['passthrough'])}"
    if m.get("applies_to_moves"):
        text += f" (when making {words(m['applies_to_moves'])} moves)"
    return text + extras(m, used, ctx.notes)


def leadership(node: M, m: M, ctx: Ctx) -> str:
    s = leaf_subject(node, ctx)
    test = m.get("test")
    name = "Battle-shock tests" if test in (None, "battle-shock") else f"{words(test)} tests"
    op = m.get("operation")
    used = {"test", "operation", "value", "result_modifier"}
    value = signed(m)
    if op in ("force", "force-test", "battle-shock-test"):
        text = f"{s.noun} must take a {name[:-1]}"
    elif op == "re-roll":
        text = f"{can(s)} re-roll {name}"
    elif op in ("remove", "clear-status"):
        text = f"{s.noun} {s.verb('is', 'are')} no longer Battle-shocked"
    elif value is not None and test is None and op in ("improve", "worsen"):
        text = f"{op} the Leadership characteristic of {s.models} by {abs(value)}"
    elif value is not None and test is None:
        text = (f"add {value} to" if value > 0 else f"subtract {-value} from") + \
            f" the Leadership characteristic of {s.models}"
    elif value is not None:
        text = (f"add {value} to" if value > 0 else f"subtract {-value} from") + \
            f" {name} taken for {s.noun}"
    elif isinstance(m.get("result_modifier"), int):
        v = m["result_modifier"]
        text = f"{s.noun} must take a {name[:-1]}, " + (
            f"subtracting {-v} from it" if v < 0 else f"adding {v} to it")
    else:
        text = f"{s.noun} {s.verb('takes', 'take')} {name}"
    return text + extras(m, used, ctx.notes)


def resurrection(node: M, m: M, ctx: Ctx) -> str:
    s = leaf_subject(node, ctx)
    kind = m.get("type")
    count = m.get("count", m.get("wounds"))
    used = {"type", "count", "wounds", "wounds_remaining", "timing", "placement"}
    if kind == "wounds" or (m.get("wounds") is not None and "count" not in m):
        what = "all of its lost wounds" if count in ("full", "all") else \
            count_of(count if count is not None else 1, "lost wound")
        text = f"{_one_model(s)} regains {what}"
    elif m.get("wounds_remaining") is not None and "count" not in m:
        text = f"the destroyed model is set up again with {_wounds(m['wounds_remaining'])}"
    else:
        n = "every destroyed model" if count == "all" else count_of(
            count if count is not None else 1, "destroyed model")
        text = f"return {n} to {s.noun}"
        if m.get("wounds_remaining") is not None:
            text += f", with {_wounds(m['wounds_remaining'])}"
    if m.get("timing"):
        text += f", {words(m['timing'])}".replace("end of phase", "at the end of the phase")
    if m.get("placement") == "closest-to-destruction":
        text += ", as close as possible to where it was destroyed"
    elif m.get("placement"):
        text += f" ({words(m['placement'])})"
    return text + extras(m, used, ctx.notes)


def _one_model(s: Subject) -> str:
    """"one model in the unit", or the model itself ("the bearer")."""
    return f"one model in {s.noun}" if s.models.startswith("models") else s.models


def _wounds(value: Any) -> str:
    if value in ("full", "all"):
        return "its full wounds"
    return count_of(value, "wound") + " remaining"


def objective_control(node: M, m: M, ctx: Ctx) -> str:
    s = leaf_subject(node, ctx)
    op = m.get("operation")
    value = signed(m)
    used = {"operation", "value", "stat", "sticky"}
    if op == "set":
        text = f"{s.models} {s.models_have} an Objective Control characteristic of " \
            f"{m.get('value')}"
    elif op == "multiply":
        text = f"multiply the Objective Control characteristic of {s.models} by {m.get('value')}"
    elif op == "halve":
        text = f"halve the Objective Control characteristic of {s.models}"
    elif op == "secure" or (m.get("sticky") and value is None):
        text = f"objective markers {s.noun} controls stay under your control even if it " \
            "leaves them"
    elif value is not None:
        text = (f"add {value} to" if value >= 0 else f"subtract {-value} from") + \
            f" the Objective Control characteristic of {s.models}"
    else:
        text = f"the Objective Control characteristic of {s.models} changes"
    if m.get("sticky") and op not in (None, "secure"):
        text += "; objective markers it controls stay under your control"
    return text + extras(m, used, ctx.notes)


#: ``restriction`` identifiers with words of their own.
_RESTRICTIONS = {
    "worsen-incoming-ap": "worsen the Armour Penetration characteristic of attacks that "
    "target {s} by {value}",
    "must-target-designated-unit": "{s} must target the designated unit",
    "must-be-warlord": "{s} must be your WARLORD", "cannot-be-warlord":
    "{s} cannot be your WARLORD", "reinforcement-denial": "enemy units cannot be set up "
    "from Reserves within {range} of {s}", "unique-unit-limit": "your army can include "
    "only one of {s}", "cannot-receive-enhancements": "{s} cannot be given Enhancements",
    "army-composition-rule": "an army-building rule applies to {s}",
    "increased-detection-range": "add {value}\" to the range at which {s} can be "
    "detected", "reduced-detection-range": "subtract {value}\" from the range at which "
    "{s} can be detected",
}


def attack_restriction(node: M, m: M, ctx: Ctx) -> str:
    s = leaf_subject(node, ctx)
    what = m.get("restriction") or m.get("restriction_type") or m.get("grant_type") \
        or m.get("action") or m.get("attack_type")
    used = {"restriction", "restriction_type", "grant_type", "action", "attack_type"}
    if what == "targeting-range-limit" and m.get("range") is not None:
        used.add("range")
        text = f"{s.noun} can only be targeted by ranged attacks from within {inches(m['range'])}"
    elif what in ("no-charge", "cannot-declare-charge", "charge"):
        text = f"{s.noun} cannot declare a charge"
    elif what == "cannot-be-targeted":
        text = f"{s.noun} cannot be targeted" + (
            f" by {subject(m['by']).noun}" if m.get("by") else "")
        used.add("by")
    elif m.get("weapon_name") and not what:
        text = f"{s.noun} can only shoot with its {words(m['weapon_name']).title()} in " \
            "this phase"
    elif what in _RESTRICTIONS:
        used |= {"value", "range"}
        text = _RESTRICTIONS[str(what)].format(
            s=s.noun, is_=s.verb("is", "are"), value=m.get("value", 1),
            range=inches(m["range"]) if m.get("range") is not None else "range")
    elif what:
        text = f"restriction on {s.noun}: {words(what)}"
    else:
        text = f"{s.noun} {s.verb('is', 'are')} restricted (the effect code does not say how)"
    return text + extras(m, used, ctx.notes)


def rule_state(node: M, m: M, ctx: Ctx) -> str:
    s = leaf_subject(node, ctx)
    rule = words(m.get("rule") or "a rule")
    kind = m.get("rule_kind")
    name = rule.title() if kind in ("ability", "faction-rule", "core-rule") else kw(rule)
    if kind == "keyword":
        what = f"the {name} keyword"
    elif m.get("rule") == "benefit-of-cover":
        what = "the Benefit of Cover"
    elif kind == "core-rule" and m.get("rule") in ("charge", "fall-back", "advance"):
        what = {"charge": "declare a charge", "fall-back": "Fall Back", "advance": "Advance"}[
            str(m["rule"])]
        verb = "can" if m.get("direction") == "granted" else "cannot"
        return f"{s.noun} {verb} {what}" + extras(m, {"rule", "rule_kind", "direction"},
                                                  ctx.notes)
    else:
        what = f"the {name} rule" if kind != "ability" else f"the {name} ability"
    if m.get("direction") == "suppressed":
        text = f"{s.noun} {s.verb('loses', 'lose')} {what}" if kind in ("ability", "keyword") \
            else f"{what} does not apply to {s.noun}"
    else:
        text = f"{s.noun} {s.verb('has', 'have')} {what}" if kind in (
            "ability", "keyword") or m.get("rule") == "benefit-of-cover" else \
            f"{what} applies to {s.noun}"
    return text + extras(m, {"rule", "rule_kind", "direction"}, ctx.notes)


def deep_strike(node: M, m: M, ctx: Ctx) -> str:
    s = leaf_subject(node, ctx)
    text = f"{s.noun} {s.has} the Deep Strike ability"
    far = m.get("min_distance", m.get("min_distance_from_enemy", m.get("range")))
    if far is not None:
        text += f": it can be set up more than {inches(far)} horizontally away from all " \
            "enemy models"
    return text + extras(m, {"min_distance", "min_distance_from_enemy", "range"}, ctx.notes)


def cp_refund(node: M, m: M, ctx: Ctx) -> str:
    what = m.get("stratagem") or m.get("applies_to_stratagem")
    strat = f"the {words(what).title()} Stratagem" if what else "a Stratagem"
    if m.get("type") == "stratagem-for-0cp":
        text = "you can use a Stratagem on this unit for 0CP"
    elif m.get("amount") is not None:
        text = f"you gain {m['amount']}CP back after using {strat}"
    else:
        text = f"you can use {strat} for 0CP"
    return text + extras(m, {"stratagem", "applies_to_stratagem", "type", "amount"}, ctx.notes)


def cp_gain(node: M, m: M, ctx: Ctx) -> str:
    amount = m.get("amount")
    if m.get("type"):
        text = f"you gain CP ({words(m['type'])})"
    elif isinstance(amount, int) and amount < 0:
        text = f"your opponent loses {-amount}CP"
    else:
        text = f"you gain {amount if amount is not None else 1}CP"
    return text + extras(m, {"amount", "type"}, ctx.notes)


def stratagem_cost(node: M, m: M, ctx: Ctx) -> str:
    op = m.get("operation")
    which = f"the {words(m['stratagem']).title()} Stratagem" if m.get("stratagem") else \
        "Stratagems"
    about = {"stratagems-targeting-bearer": f"{which} that target {leaf_subject(node, ctx).noun}",
             "triggering-stratagem-use": which}.get(str(m.get("applies_to")), which)
    if op == "set-to":
        text = f"{about} cost {m.get('set_to')}CP"
    else:
        text = f"{about} cost {m.get('amount', 1)}CP " + (
            "more" if op == "increase" else "less")
    if m.get("target") is None and leaf_subject(node, ctx).enemy and "target" not in about:
        text = f"for {leaf_subject(node, ctx).noun}, {text}"
    return text + extras(m, {"operation", "stratagem", "applies_to", "set_to", "amount"},
                         ctx.notes)


def resource(node: M, m: M, ctx: Ctx, verb: str) -> str:
    pool = m.get("resource_label") or m.get("pool_id") or m.get("resource") or "tokens"
    amount = m.get("amount", m.get("value"))
    used = {"resource_label", "pool_id", "resource", "amount", "value", "count_mode",
            "count_by_battle_size"}
    if m.get("count_by_battle_size"):
        amount = ", ".join(f"{v} ({words(k)})" for k, v in m["count_by_battle_size"].items())
    elif m.get("count_mode"):
        amount = f"a number ({words(m['count_mode'])}) of"
    what = words(pool).replace(" pool", "")
    if m.get("operation") == "multiply":
        return f"{what} costs are multiplied by {m.get('value')}" + extras(
            m, used | {"operation"}, ctx.notes)
    return f"{verb} {dice_text(amount) if amount is not None else 'some'} {what}" + extras(
        m, used, ctx.notes)


def _fixed(text: str, keys: tuple[str, ...] = ()) -> Leaf:
    """A leaf whose words only name its unit (``{s}``, ``{can}``, ``{has}``, ``{is}``)."""
    def leaf(node: M, m: M, ctx: Ctx) -> str:
        s = leaf_subject(node, ctx)
        said = text.format(s=s.noun, can=can(s), has=s.has, models=s.models,
                           is_=s.verb("is", "are"), **{k: words(m.get(k)) for k in keys})
        return said + extras(m, set(keys), ctx.notes)
    return leaf


def _uplift(word: str) -> Callable[[M, M, Ctx], str]:
    def leaf(node: M, m: M, ctx: Ctx) -> str:
        s = leaf_subject(node, ctx)
        value = signed(m) if "operation" in m else m.get("value")
        if isinstance(value, int) and not isinstance(value, bool):
            text = (f"add {value}" if value >= 0 else f"subtract {-value}") + \
                (" to " if value >= 0 else " from ") + f"{word} for {s.noun}"
        else:
            text = f"{word} for {s.noun} change"
        return text + extras(m, {"operation", "value", "roll_modifier"}, ctx.notes)
    return leaf


def _battle_shock(node: M, m: M, ctx: Ctx) -> str:
    s = leaf_subject(node, ctx)
    text = f"{s.noun} {s.verb('takes', 'take')} Battle-shock tests"
    if m.get("dice"):
        text += f" on {dice_text(m['dice'])}"
    value = signed(m) if "operation" in m else m.get("roll_modifier")
    if isinstance(value, int) and not isinstance(value, bool):
        text = f"{s.noun} must take a Battle-shock test, " + (
            f"adding {value} to it" if value >= 0 else f"subtracting {-value} from it")
    elif not m.get("dice"):
        text = f"{s.noun} must take a Battle-shock test"
    return text + extras(m, {"dice", "operation", "value", "roll_modifier"}, ctx.notes)


def _tag(node: M, m: M, ctx: Ctx) -> str:
    s = leaf_subject(node, ctx)
    tag = words(m.get("tag") or "marked")
    if m.get("operation") == "remove":
        return f"{s.noun} {s.verb('is', 'are')} no longer {tag}" + extras(
            m, {"tag", "operation"}, ctx.notes)
    return f"{s.noun} {s.verb('is', 'are')} {tag}" + extras(m, {"tag", "operation"}, ctx.notes)


def _keyword_to(node: M, m: M, ctx: Ctx) -> str:
    s = leaf_subject(node, ctx)
    text = f"{s.noun} {s.verb('gains', 'gain')} the {kw(m.get('keyword') or '')} keyword"
    if m.get("to_keywords"):
        text = f"{kw_list(m['to_keywords'], 'and')} units from your army gain the " \
            f"{kw(m.get('keyword') or '')} keyword"
    return text + extras(m, {"keyword", "to_keywords"}, ctx.notes)


def _destruction(node: M, m: M, ctx: Ctx) -> str:
    s = leaf_subject(node, ctx)
    count = m.get("count")
    which = f"{kw(m['model_keyword'])} models" if m.get("model_keyword") else "models"
    if count == "all":
        text = f"every {which[:-1]} in {s.noun} is destroyed"
    elif count is not None:
        text = f"{count_of(count, which[:-1])} in {s.noun} {'is' if str(count) == '1' else 'are'}" \
            " destroyed"
    elif m.get("model_filter"):
        text = f"the {words(m['model_filter']).title()} model in {s.noun} is destroyed"
    else:
        text = f"{s.noun} {s.verb('is', 'are')} destroyed"
    return text + extras(m, {"count", "model_keyword", "model_filter"}, ctx.notes)


def _detection(node: M, m: M, ctx: Ctx) -> str:
    s = leaf_subject(node, ctx)
    v = signed(m) or 0
    return (f"add {inches(v)} to" if v >= 0 else f"subtract {inches(-v)} from") + \
        f" the range at which {s.noun} can be detected" + extras(m, {"operation", "value"},
                                                               ctx.notes)


def _objective_tag(node: M, m: M, ctx: Ctx) -> str:
    tag = words(m.get("tag") or "marked")
    return f"the objective marker is {tag}" + extras(m, {"tag"}, ctx.notes)


def _disembark(node: M, m: M, ctx: Ctx) -> str:
    s = leaf_subject(node, ctx)
    after = m.get("after")
    text = f"units can disembark from {s.noun}" if node.get("type") == \
        "disembark-after-move" else f"{can(s)} disembark"
    if after:
        text += f" after it has made {'a' if after != 'advance' else 'an'} " \
            f"{words(after).title()} move" if after not in ("deployment", "before-move") \
            else (" after it is set up" if after == "deployment" else " before it moves")
    if m.get("can_charge") is True:
        text += ", and they can still declare a charge"
    elif m.get("can_charge") is False:
        text += ", but they cannot declare a charge"
    if m.get("min_enemy_distance"):
        text += f", more than {inches(m['min_enemy_distance'])} from enemy models"
    return text + extras(m, {"after", "can_charge", "min_enemy_distance"}, ctx.notes)


def _fallback(node: M, m: M, ctx: Ctx) -> str:
    s = leaf_subject(node, ctx)
    acts = m.get("act") or m.get("actions")
    if m.get("can_charge") is True and not acts:
        acts = "charge"
    what = {"shoot": "shoot", "charge": "declare a charge", "shoot-and-charge":
            "shoot and declare a charge"}.get(str(acts), words(acts) if acts else
                                              "shoot and declare a charge")
    return f"{s.noun} can {what} in a turn in which it Fell Back" + extras(
        m, {"act", "actions", "can_charge"}, ctx.notes)


def _resource_spend(n: M, m: M, c: Ctx) -> str:
    return resource(n, m, c, "spend")


def _resource_gain(n: M, m: M, c: Ctx) -> str:
    return resource(n, m, c, "gain")


def _flyover(node: M, m: M, ctx: Ctx) -> str:
    s = leaf_subject(node, ctx)
    return f"roll {dice_text(m.get('dice', 'D6'))}: for each {m.get('threshold', 4)}+, " \
        f"{s.noun} suffers {count_of(m.get('mortal_wounds', 1), 'mortal wound')}" + extras(
            m, {"dice", "threshold", "mortal_wounds"}, ctx.notes)


def _targeting(node: M, m: M, ctx: Ctx) -> str:
    s = leaf_subject(node, ctx)
    kind = m.get("attack_type")
    attacks = f"{kind} attacks" if kind in ("ranged", "melee") else "attacks"
    where = f"within {inches(m['range'])}" if m.get("range") is not None else \
        "within range (the effect code gives no distance)"
    return f"{s.noun} can only be targeted by {attacks} made from {where}" + extras(
        m, {"attack_type", "range", "gate"}, ctx.notes)


_POOL_ROLLS = {"save": "saving", "desperate-escape": "Desperate Escape", "any": "any"}


OTHER_LEAVES: dict[str, Leaf] = {
    "ability-grant": ability_grant, "movement-modifier": movement,
    "leadership-modifier": leadership, "resurrection": resurrection,
    "objective-control-modifier": objective_control, "attack-restriction": attack_restriction,
    "rule-state": rule_state, "deep-strike": deep_strike, "cp-refund": cp_refund,
    "cp-gain": cp_gain, "stratagem-cost-modifier": stratagem_cost,
    "resource-gain": _resource_gain, "resource-spend": _resource_spend,
    "fallback-and-act": _fallback, "disembark-after-move": _disembark, "disembark": _disembark,
    "fight-on-death": _fixed("if a model in {s} is destroyed, it can fight before it is "
                             "removed"),
    "shoot-on-death": _fixed("if a model in {s} is destroyed, it can shoot before it is "
                             "removed"),
    "fight-first": _fixed("{s} {has} the Fights First ability"),
    "unit-keyword": lambda n, m, c: f"{leaf_subject(n, c).noun} {leaf_subject(n, c).has} the "
    f"{ability_name(m.get('keyword_id') or 'keyword', c)} ability" + extras(
        m, {"keyword_id"}, c.notes),
    "unit-keyword-grant": _keyword_to, "unit-tag": _tag, "objective-tag": _objective_tag,
    "targeting-permission": _targeting,
    "charge-roll-modifier": _uplift("Charge rolls made"),
    "battle-shock-test": _battle_shock,
    "engagement-passthrough": _fixed("{s} can move within Engagement Range of enemy units "
                                     "during its moves"),
    "unit-attachment": _fixed("{s} can be attached to another unit (as the rules for "
                              "attaching units say)"),
    "model-destruction": _destruction, "detection-range-modifier": _detection,
    "set-battle-shock": _fixed("{s} {is_} Battle-shocked"),
    "remove-battle-shock": _fixed("{s} {is_} no longer Battle-shocked"),
    "strategic-reserves-arrival": _fixed("{s} can arrive from Strategic Reserves"),
    "heal-wounds": lambda n, m, c: f"{_one_model(leaf_subject(n, c))} regains "
    f"{count_of(m.get('amount', 1), 'lost wound')}" + extras(m, {"amount"}, c.notes),
    "pool-add-die": _fixed("add a dice to the {pool_id}", ("pool_id",)),
    "stratagem-targeting-permission": _fixed(
        "{s} can be targeted by Stratagems despite: {exception}", ("exception",)),
    "terrain-area-tag": _fixed("the area of terrain {s} is in becomes {tag}", ("tag",)),
    "fight-eligibility-extension": _fixed("{s} can fight if it is within {range}\" of an "
                                          "enemy unit (beyond Engagement Range)", ("range",)),
    "replace-roll-from-pool": lambda n, m, c: "replace one " + join(
        [_POOL_ROLLS.get(str(r), words(r).title()) for r in m.get("rolls") or ("any",)],
        "or") + f" roll made for {leaf_subject(n, c).noun} with a dice from the "
    f"{words(m.get('pool_id') or 'pool')}" + extras(m, {"rolls", "pool_id"}, c.notes),
    "cp-on-destroy": _fixed("you gain {amount}CP when {s} destroys an enemy {enemy_keyword} "
                            "unit", ("amount", "enemy_keyword")),
    "unit-division": _fixed("{s} can be split into units of {resulting_model_counts} models",
                            ("resulting_model_counts",)),
    "resource-clear": _fixed("discard your unspent {resource_label}s",
                             ("resource_label", "pool_id", "scope")),
    "desperate-escape": _fixed("{s} must take Desperate Escape tests"),
    "recovery-pool": _fixed("{s} can each roll {dice} for their Reanimation Protocols, "
                            "regaining lost wounds or returning destroyed models", ("dice",)),
    "transport-capacity-conversion": _fixed(
        "every {models_per_group} {model_keyword} models take up {spaces_per_group} space in "
        "a TRANSPORT", ("models_per_group", "model_keyword", "spaces_per_group")),
    "tracking-token": _fixed("place {count} {token} token next to the target",
                             ("count", "token")),
    "hazard-rolls": _fixed("{s} must take Hazardous tests"),
    "flyover": _flyover,
    "no-effect": _fixed("nothing happens"),
}
