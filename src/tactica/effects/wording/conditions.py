"""The dataset's conditions as the words that open a rule's sentence (issue 41):
``{"operator": "and", "operands": [phase-is shooting, player-turn-is your,
target-has-keyword INFANTRY]}`` -> "In your Shooting phase, if the target has the
INFANTRY keyword" (``condition.schema.json``, 1.4.5).

A condition becomes ``Cond``\\ s: a phase, a turn, a moment ("at the start of the Fight
phase"), an attack type, or an "if" clause with its negation; ``lead`` writes them in
that order. A condition kind this module has no words for is written from its
identifier and parameters and named in ``Notes.undescribed``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from .words import (
    STATS,
    article,
    inches,
    join,
    kw,
    kw_list,
    phase_text,
    subject,
    timing_text,
    turn_text,
    weapon_name,
    words,
)

__all__ = ["Cond", "Notes", "conditions", "lead"]

Kind = Literal["phase", "turn", "moment", "attack", "if"]
P = Mapping[str, Any]


@dataclass
class Notes:
    """What a description could not put in words: the kinds written from their
    identifiers alone (counted by the dataset sweep)."""

    undescribed: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Cond:
    """One clause: ``value`` (a phase's name, a turn, a moment, an attack type, or the
    clause) and ``negative``, its negation as an "if" clause."""

    kind: Kind
    value: str
    negative: str

    @property
    def clause(self) -> str:
        """The clause as it reads after "if"."""
        if self.kind == "phase":
            return f"it is {phase_text(self.value)}"
        if self.kind == "turn":
            return f"it is {self.value}"
        if self.kind == "attack":
            return f"the attack is {article(self.value)} attack"
        return self.value


def _if(pos: str, neg: str) -> Cond:
    return Cond("if", pos, neg)


def _who(p: P, default: str = "the unit") -> str:
    s = p.get("subject")
    if s in (None, "unit", "self", "selected-friendly-unit"):
        return default if s != "selected-friendly-unit" else "the selected unit"
    if s == "candidate":
        return "the unit"
    return subject(s).noun


def _keyword(p: P, who: str) -> Cond:
    raw = str(p.get("keyword") or kw_list(p.get("keywords") or ()))
    special = {"below-starting-strength": ("is below its Starting Strength",
                                           "is not below its Starting Strength"),
               "below-half-strength": ("is Below Half-strength", "is not Below Half-strength"),
               "battle-shocked": ("is Battle-shocked", "is not Battle-shocked")}
    if raw.casefold() in special:
        pos, neg = special[raw.casefold()]
        return _if(f"{who} {pos}", f"{who} {neg}")
    if raw.casefold().endswith(" target"):
        name = raw[: -len(" target")]
        return _if(f"{who} is your {name} target", f"{who} is not your {name} target")
    return _if(f"{who} has the {kw(raw)} keyword", f"{who} does not have the {kw(raw)} keyword")


def _within(p: P) -> Cond:
    dist = p.get("range", p.get("within_inches", p.get("range_inches")))
    what = p.get("target_type")
    keyword = p.get("keyword") or (kw_list(p["keywords"]) if p.get("keywords") else None)
    if what in ("friendly", "friendly-keyword") or (what is None and keyword):
        other = f"a friendly {kw(keyword)} unit" if keyword else "a friendly unit"
    elif what in ("closest-eligible", "current-ranged-attack-target"):
        other = "the closest eligible target" if what == "closest-eligible" else "the target"
    elif what is None:
        other = "another unit"
    else:
        other = words(what).replace("friendly ", "a friendly ", 1) if str(what).startswith(
            "friendly") else f"the {words(what)}"
    if p.get("exclude_keyword"):
        other += f" (other than {kw(p['exclude_keyword'])})"
    where = f"within {inches(dist)} of {other}" if dist is not None else f"near {other}"
    if str(what) == "closest-eligible" and dist is None:
        where = "the target is the closest eligible target"
        return _if(where, "the target is not the closest eligible target")
    who = _who(p)
    return _if(f"{who} is {where}", f"{who} is not {where}")


def _enemy_within(p: P) -> Cond:
    dist = p.get("range", p.get("range_inches", p.get("within_inches")))
    if p.get("weapon_name"):
        where = f"within range of its {weapon_name(p['weapon_name'])}"
    elif p.get("range_multiplier") == 0.5:
        where = "within half the weapon's range"
    elif dist is not None:
        where = f"within {inches(dist)}"
    else:
        where = "within range"
    who = "the closest eligible enemy unit" if p.get("target_qualifier") else "an enemy unit"
    return _if(f"{who} is {where}" + (" and visible" if p.get("visible") else ""),
               f"no enemy unit is {where}")


def _engagement(p: P) -> Cond:
    state = str(p.get("state") or "engaged")
    who = _who(p)
    if state in ("engaged", "within-engagement-range", "in-engagement-range",
                 "engaged-with-unit"):
        return _if(f"{who} is within Engagement Range of an enemy unit",
                   f"{who} is not within Engagement Range of any enemy units")
    if state in ("unengaged", "not-in-engagement-range", "not-within-enemy-engagement-range"):
        return _if(f"{who} is not within Engagement Range of any enemy units",
                   f"{who} is within Engagement Range of an enemy unit")
    if state == "embarked":
        return _if(f"{who} is embarked within a TRANSPORT", f"{who} is not embarked")
    return _if(f"{who} is {words(state)}", f"{who} is not {words(state)}")


def _hit(p: P) -> Cond:
    who = _who(p, "the target")
    kind = p.get("attack_type")
    attacks = f"{words(kind)} attacks" if kind else "attacks"
    weapon = f" made with its {weapon_name(p['weapon_name'])}" if p.get("weapon_name") else ""
    return _if(f"{who} was hit by one or more of the unit's {attacks}{weapon}",
               f"{who} was not hit by the unit's {attacks}{weapon}")


def _destroyed(p: P) -> Cond:
    side = {"enemy": "an enemy unit", "friendly": "a friendly unit", "self": "the unit"}.get(
        str(p.get("side")), "a unit")
    if p.get("keyword"):
        side = side.replace(" unit", f" {kw(p['keyword'])} unit")
    window = {"this-phase": " this phase", "phase": " this phase", "this-turn": " this turn",
              "battle": " this battle", "this-attack": " by that attack"}.get(
        str(p.get("window")), "")
    was = "was destroyed" if p.get("side") != "self" else "is destroyed"
    return _if(f"{side} {was}{window}", f"no such unit {was}{window}")


def _compare(p: P) -> Cond:
    if p.get("comparison") == "strength-greater-than-toughness":
        return _if("the attack's Strength is greater than the target's Toughness",
                   "the attack's Strength is not greater than the target's Toughness")
    stat = p.get("attacker_stat")
    other = p.get("target_stat", p.get("value"))
    comp = words(p.get("comparison") or "equal-to")
    left = f"the attack's {STATS[str(stat)]}" if str(stat) in ("S", "D", "AP", "A") else \
        words(stat)
    right = f"the target's {STATS.get(other, words(other))}" if isinstance(other, str) \
        else str(other)
    return _if(f"{left} is {comp} {right}", f"{left} is not {comp} {right}")


def _battle_round(p: P) -> Cond:
    lo, hi = p.get("min", p.get("round")), p.get("max")
    if lo is not None and hi is not None:
        text = f"it is battle round {lo} to {hi}"
    elif lo is not None:
        text = f"it is battle round {lo}" + (" or later" if "round" not in p else "")
    else:
        text = f"it is battle round {hi} or earlier"
    return _if(text, text.replace("it is", "it is not", 1))


def _plain(pos: str, neg: str) -> Callable[[P], Cond]:
    """A clause about the unit named by ``subject`` (``{who}`` in the words)."""
    def make(p: P) -> Cond:
        who = _who(p)
        return _if(pos.format(who=who), neg.format(who=who))
    return make


def _first(p: P) -> Any:
    for v in p.values():
        if isinstance(v, str):
            return v
    return "it"


def _disposition(p: P) -> Cond:
    who = _who(p)
    if p.get("comparison") == "same-unit":
        other = subject(p.get("other")).noun
        return _if(f"{who} is {other}", f"{who} is not {other}")
    what = str(p.get("disposition") or "")
    if what in ("friendly", "enemy"):
        text = f"{who} is {'a friendly' if what == 'friendly' else 'an enemy'} unit"
        if p.get("model_count_min"):
            text += f" of {p['model_count_min']} or more models"
        return _if(text, text.replace(" is ", " is not ", 1))
    return _if(f"{who} {words(what)}" if what.startswith("fell") else f"{who} is {words(what)}",
               f"{who} is not {words(what)}")


_SIMPLE: dict[str, Callable[[P], Cond]] = {
    "unit-has-keyword": lambda p: _keyword(p, "the unit"),
    "target-has-keyword": lambda p: _keyword(p, "the target"),
    "unit-within-range-of": _within, "opponent-unit-within-range": _enemy_within,
    "engagement-state": _engagement, "was-hit-by-attack": _hit,
    "units-destroyed": _destroyed, "attack-stat-compare": _compare,
    "battle-round": _battle_round,
    "is-attached": lambda p: _if(
        f"this model is leading {article(kw(p['keyword']))} unit", "this model is not "
        f"leading {article(kw(p['keyword']))} unit") if p.get("keyword") else _if(
        "a Leader is attached to the unit", "no Leader is attached to the unit"),
    "unit-below-starting-strength": _plain("{who} is below its Starting Strength",
                                           "{who} is at its Starting Strength"),
    "unit-below-half-strength": _plain("{who} is Below Half-strength",
                                       "{who} is not Below Half-strength"),
    "charged-this-turn": _plain("{who} made a Charge move this turn",
                                "{who} did not make a Charge move this turn"),
    "advanced-this-turn": _plain("{who} Advanced this turn", "{who} did not Advance "
                                 "this turn"),
    "remained-stationary": _plain("{who} Remained Stationary this turn",
                                  "{who} moved this turn"),
    "disembarked-from-transport": _plain("{who} disembarked from a TRANSPORT this turn",
                                         "{who} did not disembark this turn"),
    "is-battle-shocked": _plain("{who} is Battle-shocked", "{who} is not Battle-shocked"),
    "has-fought-this-phase": _plain("{who} has fought this phase",
                                    "{who} has not fought this phase"),
    "has-lost-wounds": _plain("{who} has lost one or more wounds",
                              "{who} has lost no wounds"),
    "made-ingress-move-this-turn": _plain("{who} made an Ingress move this turn",
                                          "{who} did not make an Ingress move this turn"),
    "model-is-leader": lambda p: _if(
        f"the model is {words(p['leader_type']).title()}" if p.get("leader_type") else
        "the model is leading the unit", "the model is not leading the unit"),
    "within-range-of-objective": lambda p: _if(
        f"{_who(p)} is within range of " + ("your home objective marker" if p.get(
            "objective") == "home" else "an objective marker" + (
            " you control" if p.get("controlled") or p.get("controlled_by") else "")),
        f"{_who(p)} is not within range of an objective marker"),
    "controls-objective": lambda p: _if("you control the objective marker",
                                        "you do not control the objective marker"),
    "disposition-matches": _disposition,
    "destroyed-by-attack-type": lambda p: _if(
        "the model was destroyed by " + (f"{article(words(p['attack_type']))} attack" if p.get(
            "attack_type") not in (None, "any") else "an attack"),
        "the model was not destroyed by an attack"),
    "faction-rule-active": lambda p: _if(f"{words(_first(p)).title()} is active",
                                         f"{words(_first(p)).title()} is not active"),
    "unit-has-tag": lambda p: _if(f"{_who(p)} is {words(_first(p))}",
                                  f"{_who(p)} is not {words(_first(p))}"),
    "terrain-area-control": lambda p: _if(
        f"the unit is {words(p.get('relation') or 'within')} the "
        f"{words(p.get('area') or 'area')}", "the unit is not in that area"),
    "region-membership": lambda p: _if(
        "the unit is wholly within the " + words(
            (p.get("state_ref") or {}).get("region_id") or "region"),
        "the unit is not wholly within that region"),
    "units-destroyed-comparison": lambda p: _if(
        "at least as many enemy units as friendly ones were destroyed this turn",
        "fewer enemy units than friendly ones were destroyed this turn"),
    "target-within-half-weapon-range": lambda p: _if(
        "the target is within half the weapon's range",
        "the target is not within half the weapon's range"),
    "target-is-visible": lambda p: _if("the target is visible", "the target is not visible"),
    "token-count-at-or-above": lambda p: _if(
        f"you have at least {p.get('threshold', 1)} {words(p.get('pool_id') or 'tokens')}",
        f"you have fewer than {p.get('threshold', 1)} {words(p.get('pool_id') or 'tokens')}"),
    "territory-control": lambda p: _if(f"you control your {words(p.get('zone') or 'zone')}",
                                       "you do not control it"),
    "objective-majority": lambda p: _if(
        "you control more objective markers than your opponent",
        "you do not control more objective markers than your opponent"),
    "wounds-remaining-at-or-below": lambda p: _if(
        f"the model has {p.get('threshold')} or fewer wounds remaining",
        f"the model has more than {p.get('threshold')} wounds remaining"),
    "uniform-ranged-loadout": lambda p: _if(
        f"every {kw(p.get('model_keyword') or 'model')} model in the unit has the same "
        "ranged weapons", "the unit's models have different ranged weapons"),
    "wounds-lost-from-attack": lambda p: _if("the unit lost one or more wounds to those "
                                             "attacks", "the unit lost no wounds to them"),
    "unit-was-in-engagement-range-of": lambda p: _if(
        "the unit was within Engagement Range of that enemy unit at the start of the phase",
        "the unit was not within Engagement Range of it at the start of the phase"),
    "candidate-eligible-in-ability-window": lambda p: _if(
        "the unit could have been selected for " + words(
            (p.get("source_ability") or {}).get("ability_id") or "that ability").title()
        + " at the end of your opponent's previous turn",
        "the unit could not have been selected for it"),
    "pair": lambda p: _if(f"two of the dice show the same result of {p.get('min_value')}+",
                          "no two dice show the same result"),
    "triple": lambda p: _if(
        f"three of the dice show the same result of {p.get('min_value')}+",
        "no three dice show the same result"),
}





def _simple(c: P, notes: Notes) -> Cond:
    kind = str(c.get("type"))
    raw = c.get("parameters")
    p: P = raw if isinstance(raw, Mapping) else {
        k: v for k, v in c.items() if k not in ("type", "negated")}
    if kind == "phase-is":
        phase = str(p.get("phase") or "")
        if phase in ("opponent-movement", "reserves"):
            text = phase_text(phase)
            return _if(f"it is {text}", f"it is not {text}")
        return Cond("phase", words(phase).title(), f"it is not {phase_text(phase)}")
    if kind == "player-turn-is":
        turn = turn_text(p.get("turn"))
        if turn.startswith("battle round"):
            return _if(f"it is {turn}", f"it is not {turn}")
        return Cond("turn", turn, f"it is not {turn}")
    if kind == "timing-is":
        moment = timing_text(p.get("timing"))
        return Cond("moment", moment, f"not {moment}")
    if kind == "attack-is-type":
        if p.get("comparison"):
            return _compare(p)
        attack = str(p.get("attack_type") or "")
        if attack in ("ranged", "melee"):
            return Cond("attack", attack, "the attack is a " + (
                "melee" if attack == "ranged" else "ranged") + " attack")
        what = "a Psychic Attack" if attack == "psychic" else f"{article(words(attack))} attack"
        return _if(f"the attack is {what}", f"the attack is not {what}")
    if kind in _SIMPLE:
        return _SIMPLE[kind](p)
    notes.undescribed.append(f"condition {kind}")
    text = f"{words(kind)}" + "".join(f" ({words(k)} {words(v)})" for k, v in p.items())
    return _if(text, f"not ({text})")


def conditions(c: Any, notes: Notes) -> list[Cond]:
    """The clauses of a condition node (an ``and`` gives several)."""
    if not isinstance(c, Mapping):
        return []
    op = c.get("operator")
    operands = [o for o in c.get("operands") or () if isinstance(o, Mapping)]
    if op is None:
        one = _simple(c, notes)
        return [_negated(one)] if c.get("negated") is True else [one]
    if op == "and":
        return [x for o in operands for x in conditions(o, notes)]
    parts = [conditions(o, notes) for o in operands]
    if op == "not":
        inner = [x for p in parts for x in p]
        if len(inner) == 1:
            return [_negated(inner[0])]
        return [_if("not (" + " and ".join(x.clause for x in inner) + ")",
                    " and ".join(x.clause for x in inner))]
    return [_any(parts)]


def _negated(c: Cond) -> Cond:
    if c.kind == "attack":
        other = "melee" if c.value == "ranged" else "ranged"
        return Cond("attack", other, c.value)
    return _if(c.negative, c.clause)


def _any(parts: list[list[Cond]]) -> Cond:
    """``or`` of clauses: phases stay a phase ("the Shooting or Fight phase"), anything
    else becomes one "if" clause with "or"."""
    flat = [p[0] for p in parts if len(p) == 1]
    if len(flat) == len(parts) and flat and all(c.kind == "phase" for c in flat):
        names = join([c.value for c in flat], "or")
        return Cond("phase", names, f"it is not the {names} phase")
    if len(flat) == len(parts) and flat and all(c.kind == "moment" for c in flat):
        moments = join(list(dict.fromkeys(c.value for c in flat)), "or")
        return Cond("moment", moments, f"not {moments}")
    if len(flat) == len(parts) and flat and all(c.kind == "attack" for c in flat):
        kinds = {c.value for c in flat}
        if kinds == {"ranged", "melee"}:
            return _if("the attack is a ranged or melee attack", "the attack is neither")
    texts = merged([join(merged([x.clause for x in p], "and")) for p in parts if p], "or")
    if len(texts) == 1:
        m = _HAS.fullmatch(texts[0])
        if m is not None and " or " in m["kw"]:
            names = m["kw"].replace(" or ", " nor ")
            return _if(texts[0], f"{m['who']} has neither the {names} keyword")
        return _if(texts[0], f"not ({texts[0]})")
    return _if("either " + join(texts, "or"), "none of: " + "; ".join(texts))


_HAS = re.compile(r"(?P<who>.+?) has the (?P<kw>[^a-z]+?(?: (?:or|and) [^a-z]+?)*) keywords?")


_HAS_NOT = re.compile(r"(?P<who>.+?) does not have the (?P<kw>[^a-z]+?) keyword")


def merged(clauses: list[str], joiner: str) -> list[str]:
    """Keyword clauses about the same unit said once: ["the unit has the MOUNTED
    keyword", "the unit has the VEHICLE keyword"] -> ["the unit has the MOUNTED or
    VEHICLE keyword"] (``joiner`` "or"; "and": "... the SKITARII and INFANTRY
    keywords"; keywords it must all lack: "has neither the MONSTER nor VEHICLE
    keyword")."""
    found: dict[tuple[str, bool], list[str]] = {}
    out: list[str | tuple[str, bool]] = []
    for clause in clauses:
        m = _HAS.fullmatch(clause)
        lacks = None if m is not None or joiner != "and" else _HAS_NOT.fullmatch(clause)
        one = m or lacks
        if one is None or " or " in one["kw"] or " and " in one["kw"]:
            out.append(clause)
            continue
        key = (one["who"], lacks is not None)
        if key not in found:
            found[key] = []
            out.append(key)
        found[key].append(one["kw"])
    return [item if isinstance(item, str) else _keywords(item[0], found[item], joiner, item[1])
            for item in out]


def _keywords(who: str, names: list[str], joiner: str, lacking: bool) -> str:
    names = list(dict.fromkeys(names))
    if lacking and len(names) == 2:
        return f"{who} has neither the {names[0]} nor {names[1]} keyword"
    if lacking and len(names) > 2:
        return f"{who} has none of the {join(names, 'or')} keywords"
    if lacking:
        return f"{who} does not have the {names[0]} keyword"
    plural = "s" if joiner == "and" and len(names) > 1 else ""
    return f"{who} has the {join(names, joiner)} keyword{plural}"


def lead(conds: list[Cond]) -> str:
    """The opening of a sentence: "In your Shooting phase, at the start of the phase, for
    ranged attacks, if the target has the INFANTRY keyword" (empty for no clause)."""
    phases = [c.value for c in conds if c.kind == "phase"]
    turns = [c.value for c in conds if c.kind == "turn"]
    parts: list[str] = []
    if phases:
        names = join(list(dict.fromkeys(phases)))
        whose = "your opponent's" if turns and "opponent" in turns[0] else \
            "your" if turns else "the"
        parts.append(f"in {whose} {names} phase")
    elif turns:
        parts.append(f"in {turns[0]}")
    parts += list(dict.fromkeys(c.value for c in conds if c.kind == "moment"))
    attacks = list(dict.fromkeys(c.value for c in conds if c.kind == "attack"))
    if attacks:
        parts.append(f"for {join(attacks, 'or')} attacks")
    ifs = merged(list(dict.fromkeys(c.value for c in conds if c.kind == "if")), "and")
    if ifs:
        parts.append("if " + join(ifs))
    return ", ".join(parts)
