"""The dataset's ``ability-grant`` leaves as sentences (issue 41): an ability granted by
id ("the unit has the Lone Operative ability"), or by a ``grant_type`` identifier of the
dataset's own ("shoot-after-fall-back"). The common identifiers have words here; the
others are written as their identifier's words in quotes, as the dataset names them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .combat import Ctx, designated, extras
from .words import Subject, dice_text, inches, join, subject, words

__all__ = ["ability_grant", "ability_name", "can", "leaf_subject"]

M = Mapping[str, Any]


def leaf_subject(node: M, ctx: Ctx) -> Subject:
    """The unit a leaf is about (the picked unit, inside a designation or a selection)."""
    if ctx.designated == "target" and node.get("target") in (None, "unit", "self"):
        return designated(ctx)
    return subject(node.get("target"), ctx.aura)


def can(s: Subject) -> str:
    return f"{s.noun} can"


def ability_name(aid: Any, ctx: Ctx) -> str:
    """An ability by id: its name when the record gave it, else the id's words."""
    return ctx.names.get(str(aid)) or words(aid).title()


#: ``grant_type`` identifiers with words of their own ({s}: the unit, {can}: "the unit
#: can", {has}: "has"/"have", {amount}: the modifier's amount).
_GRANTS = {
    "ingress-move": "{can} make an Ingress move", "perform-ingress-move":
    "{can} make an Ingress move", "battle-shock-test": "{s} must take a Battle-shock test",
    "charge-after-advance": "{can} declare a charge in a turn in which it Advanced",
    "shoot-after-advance": "{can} shoot in a turn in which it Advanced",
    "shoot-after-fall-back": "{can} shoot in a turn in which it Fell Back",
    "shoot-after-fallback": "{can} shoot in a turn in which it Fell Back",
    "charge-after-fall-back": "{can} declare a charge in a turn in which it Fell Back",
    "charge-after-fallback": "{can} declare a charge in a turn in which it Fell Back",
    "shoot-after-advance-or-fall-back": "{can} shoot in a turn in which it Advanced or "
    "Fell Back", "charge-after-advance-or-fall-back": "{can} declare a charge in a turn in "
    "which it Advanced or Fell Back", "charge-eligibility-after-advance-or-fall-back":
    "{can} declare a charge in a turn in which it Advanced or Fell Back",
    "advance-and-charge": "{can} declare a charge in a turn in which it Advanced",
    "heal-wounds": "one model in {s} regains up to {amount} lost wounds",
    "shoot-as-if-shooting-phase": "{can} shoot as if it were your Shooting phase",
    "reactive-charge": "{can} declare a charge as a reaction",
    "must-start-in-reserves": "{s} must start the battle in Reserves",
    "place-into-strategic-reserves": "{s} can be placed into Strategic Reserves",
    "enter-strategic-reserves": "{s} can be placed into Strategic Reserves",
    "redeploy-to-strategic-reserves": "{s} can be placed into Strategic Reserves",
    "lone-operative": "{s} {has} the Lone Operative ability",
    "stealth": "{s} {has} the Stealth ability", "infiltrators": "{s} {has} the "
    "Infiltrators ability", "deep-strike": "{s} {has} the Deep Strike ability",
    "scouts-6": "{s} {has} the Scouts 6\" ability",
    "reserves-limit-exempt": "{s} does not count towards the limit on units in Reserves",
    "reserves-limit-exempt-with-cargo": "{s} and the units embarked within it do not count "
    "towards the limit on units in Reserves",
    "advance-6-instead-of-roll": "{s} Advances 6\" instead of rolling",
    "no-advance-roll": "{s} Advances without rolling a dice",
    "charge-ineligible": "{s} cannot declare a charge",
    "declare-charge": "{can} declare a charge",
    "remove-battle-shock": "{s} is no longer Battle-shocked",
    "becomes-battle-shocked": "{s} becomes Battle-shocked",
    "embark-after-fight": "{can} embark within a friendly TRANSPORT after it has fought",
    "embark-at-end-of-fight-phase": "{can} embark within a friendly TRANSPORT at the end "
    "of the Fight phase", "shoot-after-action": "{can} shoot in a turn in which it started "
    "an Action", "charge-after-disembark": "{can} declare a charge after disembarking",
    "return-destroyed-models": "destroyed models return to {s}",
    "issue-orders": "{can} issue Orders", "extra-order": "{can} issue one more Order",
    "snap-shooting": "{can} shoot using Snap Shooting",
}

_DONE = {"advance": "Advanced", "fall-back": "Fell Back", "shoot": "shot",
         "action": "started an Action", "normal": "made a Normal move"}
_ACTS = {"shoot": "shoot", "charge": "declare a charge", "action": "start an Action"}


def _act_after_move(s: Subject, m: M) -> str:
    acts = [_ACTS.get(str(a), words(a)) for a in m.get("acts") or ("shoot", "charge")]
    moves = [_DONE.get(str(v), words(v)) for v in m.get("moves") or ("advance",)]
    text = f"{s.noun} can {join(acts)} in a turn in which it {join(moves, 'or')}"
    if m.get("acts_if_soul_forge"):
        more = [_ACTS.get(str(a), words(a)) for a in m["acts_if_soul_forge"]]
        text += f" ({join(more)} if it is a SOUL FORGE unit)"
    return text


def _detection_grant(s: Subject, m: M) -> str:
    value = m.get("value")
    less = m.get("operation") == "subtract"
    change = f"{'subtract' if less else 'add'} {inches(value)} {'from' if less else 'to'}" \
        if value is not None else "change"
    who = s.noun
    if m.get("target_scope"):
        who = {"one-visible-enemy": "one visible enemy unit", "one-enemy": "one enemy unit"}.get(
            str(m["target_scope"]), words(m["target_scope"]))
    if m.get("range_inches") is not None:
        who += f" within {inches(m['range_inches'])}"
    elif m.get("range") is not None:
        who += f" within {inches(m['range'])}"
    return f"{change} the range at which {who} can be detected"


_SPECIAL_GRANTS: dict[str, Callable[[Subject, M], str]] = {
    "act-after-move": _act_after_move, "detection-range-modifier": _detection_grant,
    "ranged-weapon": lambda s, m: f"{s.noun} {s.has} a ranged weapon (on its datasheet)",
    "weapon": lambda s, m: f"{s.noun} {s.has} a {words(m.get('weapon') or 'weapon').title()}",
    "mobile": lambda s, m: f"{s.noun} {s.has} the Mobile ability",
    "reinforcement-any-of-turns-1-to-3": lambda s, m: f"{s.noun} can arrive from Reserves "
    "in any of battle rounds 1 to 3",
}
_SPECIAL_KEYS = {"acts", "moves", "acts_if_soul_forge", "value", "operation", "unit",
                 "target_scope", "range_inches", "range", "weapon"}


def ability_grant(node: M, m: M, ctx: Ctx) -> str:
    s = leaf_subject(node, ctx)
    used = {"grant_type", "ability_id", "amount"}
    aid = m.get("ability_id")
    if aid:
        if aid == "benefit-of-cover":
            return f"{s.noun} {s.has} the Benefit of Cover" + extras(m, used, ctx.notes)
        size = f" {m['capacity']}" if m.get("capacity") is not None else ""
        text = f"{s.noun} {s.has} the {ability_name(aid, ctx)}{size} ability"
        return text + extras(m, used | {"capacity", "rules_bundle"}, ctx.notes)
    kind = str(m.get("grant_type") or "")
    special = _SPECIAL_GRANTS.get(kind)
    if special is not None:
        return special(s, m) + extras(m, used | _SPECIAL_KEYS, ctx.notes)
    crit = {"critical-hit-on": m.get("value"), "melee-critical-hit-on-5-plus": 5}.get(kind)
    if crit is not None:
        used.add("value")
        return f"a Hit roll of an unmodified {crit}+ scores a Critical Hit, for attacks " \
            f"made by {s.models}" + extras(m, used, ctx.notes)
    template = _GRANTS.get(kind) or _GRANTS.get(kind.casefold())
    if template is not None:
        text = template.format(s=s.noun, can=can(s), has=s.has,
                               amount=dice_text(m.get("amount", m.get("value", 1))))
        if kind == "heal-wounds":
            used.add("value")
        return text + extras(m, used, ctx.notes)
    if not kind:
        return f"{s.noun} {s.verb('gains', 'gain')} an ability (the effect code does not " \
            "name it)" + extras(m, used, ctx.notes)
    return f"{s.noun} {s.verb('gains', 'gain')} \"{words(kind)}\"" + extras(m, used, ctx.notes)
