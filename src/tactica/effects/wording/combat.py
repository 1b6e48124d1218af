"""The leaves of the dataset's effect language that change an attack, as sentences
(issue 41): roll modifiers, re-rolls, characteristics, weapon abilities granted, Feel No
Pain, invulnerable saves, damage reduction and mortal wounds
(``effect.schema.json``, 1.4.5).

Whose attacks a modifier changes follows the compiler's reading
(``compiler._defensive_target``): a bonus on the rule's unit is its own attacks', a
penalty on it (or a modifier marked ``incoming``) is that of the attacks that target it,
a penalty on an enemy unit is that of the enemy's attacks. The AP and BS/WS signs follow
the compiler too (``improve``/``add`` make AP better and a skill better).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ...model.abilities import NamedWeaponRule, UnknownAbilityError, parse_weapon_ability
from ..compiler import _defensive_target, _keyword_text, _value, _with_value
from ..dsl_tables import ENEMY_TARGETS
from .conditions import Notes, conditions, lead
from .words import (
    ROLLS,
    STATS,
    Subject,
    article,
    count_of,
    dice_text,
    inches,
    join,
    kw,
    kw_list,
    subject,
    weapon_name,
    words,
)

__all__ = ["COMBAT_LEAVES", "Ctx", "designated", "extras", "signed", "weapons"]

M = Mapping[str, Any]


@dataclass(frozen=True)
class Ctx:
    """What a leaf's words depend on besides the leaf: the aura's range, the enemy unit a
    designation picked (``designated``: "attackers" when the leaf is about the attacks
    that target it, "target" when about that unit itself, "bearer" for the bearer's
    attacks on it) and where undescribed kinds are counted."""

    notes: Notes
    aura: str | None = None
    designated: str | None = None
    noun: str = "the designated enemy unit"
    #: the models of ``noun`` ("models in that unit"; "that model" for a model)
    models: str | None = None
    #: ability ids to their names (an ``ability-grant`` of an ``ability_id``)
    names: Mapping[str, str] = field(default_factory=dict)
    #: how deep in choices (the options' numbering: (1), (a), (i))
    level: int = 0


def signed(m: M) -> int | None:
    """The modifier's value with the sign its operation gives (``subtract`` 1 -> -1), as
    the compiler reads it (``compiler._value``), so the words say what the numbers do;
    ``None`` without a value."""
    return None if m.get("value") is None else _value(m)


def weapons(m: M) -> str:
    """The weapons a modifier is limited to: "ranged weapons", "melee [PSYCHIC] weapons",
    "Kustom Krumpa"."""
    if m.get("weapon_name") or m.get("weapon"):
        return weapon_name(m.get("weapon_name") or m.get("weapon"))
    kind = m.get("attack_type") or m.get("weapon_type") or {
        "ranged-weapons": "ranged", "melee-weapons": "melee"}.get(str(m.get("applies_to")))
    adjective = f"{words(kind)} " if kind and kind != "any" else ""
    keyword = f"[{kw(m['weapon_keyword'])}] " if m.get("weapon_keyword") else ""
    return f"{adjective}{keyword}weapons"


def _attacks(m: M, by: str = "") -> str:
    """"ranged attacks made {by}", "attacks made with Kustom Krumpa {by}"; ``by``:
    "by models in the unit" or "that target the unit"."""
    what = weapons(m)
    if what.endswith("weapons"):
        text = what[: -len("weapons")] + "attacks"
        return f"{text} made {by}" if by.startswith("by ") else f"{text} {by}".rstrip()
    return f"attacks made with {what} {by}".rstrip()


_CONTEXTS = {"overwatch": "when firing Overwatch", "shooting": "when shooting",
             "melee": "in melee", "snap shooting": "when Snap Shooting",
             "dark-pact": "when it makes a Dark Pact", "vs-ranged": "against ranged attacks",
             "vs-melee": "against melee attacks"}
_STRENGTH = ("attacker-strength-greater-than-target-toughness",
             "attacker-strength-greater-than-toughness")
#: Keys every combat leaf reads through ``weapons`` or ignores as bookkeeping.
_QUIET = {"attack_type", "weapon_type", "weapon_name", "weapon", "weapon_keyword", "scope",
          "optional", "unit", "incoming", "operation", "value"}


def extras(m: M, used: set[str], notes: Notes) -> str:
    """The modifier's other keys as trailing words: a context ("when firing Overwatch"),
    a condition, a limit of uses, keywords it is limited to; any key without words of
    its own is written as its name and value."""
    out: list[str] = []
    for key, value in m.items():
        if key in used or key in _QUIET or value in (None, "", [], {}):
            continue
        if key == "context":
            out.append(_CONTEXTS.get(str(value), f"when {words(value)}"))
        elif key == "applies_when" and value in _STRENGTH:
            out.append("if the attack's Strength is greater than the target's Toughness")
        elif key in ("applies_when", "target_condition", "condition", "requires", "until"):
            if isinstance(value, Mapping):
                out.append(lead(conditions(value, notes)))
            elif key == "requires" and value == "dark-pact":
                out.append("if the unit made a Dark Pact")
            elif key == "until":
                out.append(f"until {words(value)}")
            else:
                out.append(f"{'if ' if key != 'requires' else 'requires '}{words(value)}")
        elif key == "uses":
            out.append("once" if value == 1 else f"{value} times")
        elif key in ("vs_keywords", "applies_to_keywords", "aura_target_keyword",
                     "aura_source_keyword", "applies_to_keyword"):
            out.append(f"{kw_list(value, 'or')} units only" if key != "vs_keywords"
                       else f"against {kw_list(value, 'or')} units")
        elif key == "max_units":
            out.append(f"up to {value} units")
        elif key == "applies_to":
            if value not in ("incoming-attacks", "ranged-weapons", "melee-weapons"):
                out.append(f"{kw(value)} only")
        elif value is True:
            out.append(words(key))
        elif value is False:
            out.append(f"not {words(key)}")
        else:
            out.append(f"{words(key)}: {words(value)}")
    return f" ({'; '.join(out)})" if out else ""


def _whose(node: M, m: M, ctx: Ctx, value: int | None,
           gear: bool = False) -> tuple[str, bool]:
    """The attacks a modifier of attack rolls or attack characteristics changes, in
    words, and whether they are attacks made on the rule's unit; ``gear``: a
    characteristic, said of the unit's own weapons ("melee weapons equipped by models in
    the unit") rather than of its attacks."""
    target = node.get("target")
    s = subject(target, ctx.aura)
    if ctx.designated == "attackers" and target not in ENEMY_TARGETS:
        return _attacks(m, f"that target {ctx.noun}"), False
    if ctx.designated == "bearer":
        return _attacks(m, f"by the bearer that target {ctx.noun}"), False
    own = "models in the unit"
    if ctx.designated == "target" and target not in ENEMY_TARGETS:
        s = designated(ctx)
        own = s.models

    def made_by(models: str) -> str:
        return f"{weapons(m)} equipped by {models}" if gear else _attacks(m, f"by {models}")

    defensive = _defensive_target(m, target, value)
    if target == "attacker":
        target_noun = own.removeprefix("models in ")
        return (_attacks(m, f"that target {target_noun}"), True) if defensive else \
            (made_by(own), False)
    if target in ENEMY_TARGETS:
        return (made_by(s.models), True) if defensive else \
            (_attacks(m, f"that target {s.noun}"), False)
    return (_attacks(m, f"that target {s.noun}"), True) if defensive else \
        (made_by(s.models), False)


def _plural(roll: str) -> str:
    for word in ("roll", "throw", "test"):
        if word in roll.split():
            return roll.replace(word, word + "s", 1)
    return roll + "s"


def designated(ctx: Ctx) -> Subject:
    """The unit a designation or a selection picked, as a leaf's subject."""
    return Subject(ctx.noun, ctx.models or f"models in {ctx.noun}", enemy=True)


def _subject(node: M, ctx: Ctx) -> Subject:
    if ctx.designated == "target" and node.get("target") not in ENEMY_TARGETS:
        return designated(ctx)
    return subject(node.get("target"), ctx.aura)


def _change(value: int, what: str) -> str:
    return f"add {value} to {what}" if value >= 0 else f"subtract {-value} from {what}"


def roll_modifier(node: M, m: M, ctx: Ctx) -> str:
    roll = str(m.get("roll"))
    name = ROLLS.get(roll, f"{words(roll)} roll")
    op = str(m.get("operation", "add"))
    value = signed(m)
    crit = m.get("value") if op == "crit-on" else m.get("critical_on")
    used = {"roll", "critical_on"}
    attack_roll = roll in ("hit", "wound", "damage")
    whose, _ = _whose(node, m, ctx, value) if attack_roll else ("", False)
    s = _subject(node, ctx)
    if crit is not None and roll in ("hit", "wound"):
        text = f"a {name} of an unmodified {crit}+ scores a Critical {roll.title()}, for {whose}"
    elif op == "guarantee-crit":
        text = f"the {name} scores a Critical {roll.title()}, for {whose}"
    elif op == "ignore-modifiers":
        what = "any roll or characteristic" if roll in ("any", "all") else f"the {name}"
        text = f"ignore any modifiers to {what}" + (f" for {whose}" if whose else
                                                     f" made for {s.noun}")
    elif op == "ignore-engagement-penalty":
        text = f"ignore the penalty to the {name} for shooting while within Engagement Range" \
            f", for {whose or s.noun}"
    elif op == "set" and roll in ("any", "all"):
        text = f"change one roll made for {s.noun} to an unmodified {m.get('value')}"
    elif op == "set":
        text = f"the {name} succeeds on a {m.get('value')}+" + (f", for {whose}" if whose
                                                                 else f" for {s.noun}")
    elif value is not None and roll == "damage":
        text = _change(value, f"the Damage characteristic of {whose}")
    elif value is not None and attack_roll:
        text = _change(value, f"the {name} for {whose}")
    elif value is not None and roll in ("save", "saving-throw"):
        whose = f"{s.models}" if not s.enemy else f"{s.noun}"
        text = _change(value, f"saving throws made for {whose}")
    elif value is not None:
        text = _change(value, f"{_plural(name)} made for {s.noun}")
    else:
        text = f"{words(op)} {_plural(name)} made for {s.noun}" + (
            f": {words(m['value'])}" if "value" in m else "")
    return text + extras(m, used, ctx.notes)


_WHICH = {"ones": "of 1", "all-failures": "failed", "any-result": ""}


def reroll(node: M, m: M, ctx: Ctx) -> str:
    roll = str(m.get("roll"))
    name = _plural(ROLLS.get(roll, f"{words(roll)} roll"))
    which = str(m.get("subset") or m.get("result_scope") or "any-result")
    if which == "ones":
        what = f"{name} of 1"
    elif which == "all-failures":
        what = f"failed {name}"
    else:
        what = name
    s = _subject(node, ctx)
    used = {"roll", "subset", "result_scope"}
    if roll in ("hit", "wound", "damage", "attacks", "attacks-characteristic",
                "weapon-attacks"):
        whose, _ = _whose(node, m, ctx, None)
        text = f"re-roll {what} for {whose}"
    elif roll in ("save", "saving-throw"):
        text = f"re-roll {what} made for {s.models}"
    elif roll in ("any", "all"):
        failed = "failed rolls" if which == "all-failures" else what
        text = f"re-roll one roll made for {s.noun}" if which == "any-result" else \
            f"re-roll {failed} made for {s.noun}"
    else:
        text = f"re-roll {what} made for {s.noun}"
    return text + extras(m, used, ctx.notes)


_WEAPON_STATS = {"A", "S", "AP", "D", "Damage", "Range", "R", "range"}


def _stat_name(stat: str) -> str:
    return STATS.get(stat, words(stat))


def stat_modifier(node: M, m: M, ctx: Ctx) -> str:
    stat = str(m.get("stat") or "")
    if not m or not stat:
        s = _subject(node, ctx)
        return f"a characteristic of {s.noun} changes (the effect code does not say which)"
    op = str(m.get("operation", "add"))
    used = {"stat", "factor"}
    if stat in ("BS", "WS"):
        return _skill(node, m, ctx, stat) + extras(m, used, ctx.notes)
    if stat in _WEAPON_STATS:
        return _weapon_stat(node, m, ctx, stat, op) + extras(m, used, ctx.notes)
    s = _subject(node, ctx)
    name = _stat_name(stat)
    value = signed(m)
    unit = '"' if stat == "M" or "range" in stat.casefold() else ""
    if op == "set":
        plus = "+" if stat in ("Sv", "Ld", "InvSv") else ""
        text = f"{s.models} {s.models_have} {article(name)} characteristic of " \
            f"{m.get('value')}{unit}{plus}"
    elif value is not None and stat == "Sv":
        word = "improve" if value > 0 else "worsen"
        text = f"{word} the Save characteristic of {s.models} by {abs(value)}"
    elif value is not None:
        text = _change(value, f"the {name} characteristic of {s.models}").replace(
            f"add {abs(value)} ", f"add {abs(value)}{unit} ").replace(
            f"subtract {abs(value)} ", f"subtract {abs(value)}{unit} ")
    elif op == "multiply":
        text = f"multiply the {name} characteristic of {s.models} by " \
            f"{m.get('factor', m.get('value'))}"
    else:
        text = f"{words(op)} the {name} characteristic of {s.models}" + (
            f" ({words(m['value'])})" if "value" in m else "")
    return text + extras(m, used, ctx.notes)


def _weapon_stat(node: M, m: M, ctx: Ctx, stat: str, op: str) -> str:
    name = _stat_name(stat)
    target = node.get("target")
    if stat == "AP":
        v = m.get("value")
        sign = -1 if op in ("worsen", "subtract") else 1
        whose, defensive = _whose(node, m, ctx, sign if target == "attacker" else None,
                                  gear=True)
        if isinstance(v, int) and not isinstance(v, bool) and op in (
                "add", "subtract", "improve", "worsen"):
            word = "worsen" if defensive or (op == "worsen" and target in ENEMY_TARGETS) \
                else "improve"
            return f"{word} the Armour Penetration characteristic of {whose} by {abs(v)}"
        return f"{words(op)} the Armour Penetration characteristic of {whose}" + (
            f" ({words(v)})" if v is not None else "")
    value = signed(m)
    whose, _ = _whose(node, m, ctx, value, gear=True)
    unit = '"' if name == "Range" else ""
    if op == "set":
        return f"the {name} characteristic of {whose} is {dice_text(m.get('value'))}{unit}"
    if op == "multiply":
        factor = m.get("factor", m.get("value"))
        verb = {2: "double", 3: "triple"}.get(factor) if isinstance(factor, int) else None
        return f"{verb} the {name} characteristic of {whose}" if verb else \
            f"multiply the {name} characteristic of {whose} by {factor}"
    if value is not None:
        text = _change(value, f"the {name} characteristic of {whose}")
        return text.replace(f"add {abs(value)} ", f"add {abs(value)}{unit} ") if unit else text
    return f"{words(op)} the {name} characteristic of {whose}" + (
        f" ({words(m['value'])})" if "value" in m else "")


def _skill(node: M, m: M, ctx: Ctx, stat: str) -> str:
    name = _stat_name(stat)
    s = _subject(node, ctx)
    what = f"{weapons(m)} equipped by {s.models}"
    op = m.get("operation", "add")
    v = m.get("value")
    if op == "set":
        return f"the {name} characteristic of {what} is {v}+"
    if isinstance(v, int) and not isinstance(v, bool):
        word = "improve" if op in ("add", "improve") else "worsen"
        return f"{word} the {name} characteristic of {what} by {abs(v)}"
    return f"{words(op)} the {name} characteristic of {what}"


#: Abilities a unit has (not a weapon's), as the rules name them.
_UNIT_ABILITIES = {"stealth", "infiltrators", "scouts", "deep strike", "lone operative",
                   "fights first", "leader", "deadly demise", "firing deck", "hover",
                   "feel no pain", "hard to kill", "smokescreen"}


def _weapon_ability(text: str) -> bool:
    if text.casefold() in _UNIT_ABILITIES:
        return False
    try:
        found = parse_weapon_ability(text)
    except (UnknownAbilityError, ValueError):
        return False
    return not isinstance(found, NamedWeaponRule)


def keyword_grant(node: M, m: M, ctx: Ctx) -> str:
    raw = list(m.get("keywords") or ()) + ([_with_value(m["keyword"], m)]
                                           if m.get("keyword") else [])
    texts = [_keyword_text(w) for w in raw]
    s = _subject(node, ctx)
    used = {"keywords", "keyword", "value"}
    if node.get("target") in ENEMY_TARGETS and ctx.designated != "attackers":
        return f"{s.noun} {s.verb('gains', 'gain')} the {kw_list(texts)} keyword" + (
            "s" if len(texts) > 1 else "") + extras(m, used, ctx.notes)
    weapon = [t for t in texts if _weapon_ability(t)]
    other = [t for t in texts if t not in weapon]
    out = []
    if weapon:
        owner = f"equipped by {s.models}" if ctx.designated != "attackers" else \
            f"equipped by models in the unit, against {ctx.noun}"
        what = f"{weapons(m)} {owner}"
        out.append(f"{what} have " + join([f"[{t.upper()}]" for t in weapon]))
    abilities = [t for t in other if t.casefold() in _UNIT_ABILITIES]
    keywords = [t for t in other if t not in abilities]
    if abilities:
        out.append(f"{s.noun} {s.has} the {join([t.title() for t in abilities])} abilit"
                   + ("ies" if len(abilities) > 1 else "y"))
    if keywords:
        out.append(f"{s.noun} {s.verb('gains', 'gain')} the {kw_list(keywords)} keyword"
                   + ("s" if len(keywords) > 1 else ""))
    if not out:
        out.append(f"{s.noun} {s.verb('gains', 'gain')} a keyword (the effect code names none)")
    return "; ".join(out) + extras(m, used, ctx.notes)


_FNP_SCOPE = {"mortal": "mortal wounds", "psychic": "Psychic Attacks",
              "psychic-and-mortal": "Psychic Attacks and mortal wounds"}


def feel_no_pain(node: M, m: M, ctx: Ctx) -> str:
    s = _subject(node, ctx)
    against = m.get("scope") or m.get("against_attack_type")
    text = f"{s.models} {s.models_have} the Feel No Pain {m.get('threshold')}+ ability"
    if against not in (None, "all", "any"):
        text += f" against {_FNP_SCOPE.get(str(against), words(against))}"
    return text + extras(m, {"threshold", "scope", "against_attack_type"}, ctx.notes)


def invulnerable_save(node: M, m: M, ctx: Ctx) -> str:
    s = _subject(node, ctx)
    t = m.get("invuln_sv", m.get("threshold"))
    text = f"{s.models} {s.models_have} a {t}+ invulnerable save"
    if m.get("attack_type") in ("ranged", "melee"):
        text += f" against {m['attack_type']} attacks"
    return text + extras(m, {"invuln_sv", "threshold"}, ctx.notes)


def damage_reduction(node: M, m: M, ctx: Ctx) -> str:
    s = _subject(node, ctx)
    r = m.get("reduction", m.get("value", m.get("amount")))
    attack = _attacks(m).replace("attacks", "attack", 1)
    article = "an" if attack[:1] in "aeiou" else "a"
    lead_in = f"each time {article} {attack} is allocated to a model in {s.noun}"
    if r == "half":
        change = "halve the Damage characteristic of that attack"
    elif r == "to-zero":
        change = "change the Damage characteristic of that attack to 0"
    else:
        change = f"subtract {r} from the Damage characteristic of that attack"
    return f"{lead_in}, {change}" + extras(m, {"reduction", "amount"}, ctx.notes)


_SCOPES = {"one-engaged-enemy": "one enemy unit within Engagement Range of it",
           "one-visible-enemy": "one visible enemy unit",
           "one-enemy-in-engagement-range": "one enemy unit within Engagement Range of it"}


def mortal_wounds(node: M, m: M, ctx: Ctx) -> str:
    target = node.get("target")
    dist = m.get("range_inches", m.get("range"))
    aura = inches(dist) if dist is not None else ctx.aura
    s = subject(target, aura) if ctx.designated != "target" or target in ENEMY_TARGETS \
        else Subject(ctx.noun, ctx.noun, enemy=True)
    who = _SCOPES.get(str(m.get("target_scope")), words(m["target_scope"])) if m.get(
        "target_scope") else s.noun
    if target == "enemy-within-aura" and not m.get("target_scope"):
        who = f"each enemy unit within {aura}" if aura else "each enemy unit within range"
    used = {"count", "amount", "dice", "comparison", "threshold", "mortal_per_success",
            "target_scope", "range", "range_inches", "bonus", "dice_per", "per_roll"}
    count = m.get("count", m.get("amount"))
    if isinstance(count, str | int) and not isinstance(count, bool) and m.get("bonus"):
        count = f"{dice_text(count)}+{m['bonus']}"
    per = m.get("per_roll") or (f"{m['threshold']}+" if m.get("threshold") and (
        m.get("dice") or m.get("mortal_per_success")) else None)
    if per is not None and (m.get("dice") or count):
        dice = dice_text(m.get("dice") or count)
        if m.get("dice_per"):
            dice = f"one D6 per {words(m['dice_per'])}"
        each = m.get("mortal_per_success", 1)
        mortal = count_of(each, "mortal wound")
        text = f"roll {dice}: for each {per}, {who} {_suffers(who)} {mortal}"
    elif count is not None or m.get("dice"):
        many = count if count is not None else m["dice"]
        text = f"{who} {_suffers(who)} {count_of(many, 'mortal wound')}"
    else:
        text = f"{who} {_suffers(who)} mortal wounds"
        used.discard("threshold")
    return text + extras(m, used, ctx.notes)


def _suffers(who: str) -> str:
    plural = who.endswith("units") or " units " in who
    return "suffer" if plural else "suffers"


def auto_result(node: M, m: M, ctx: Ctx) -> str:
    s = _subject(node, ctx)
    what = m.get("roll") or m.get("test")
    name = ROLLS.get(str(what), f"{words(what)} roll" if m.get("roll") else f"{words(what)} test")
    result = m.get("result")
    if result == "pass":
        text = f"{s.noun} automatically {s.verb('passes', 'pass')} the {name}"
    else:
        text = f"change one {name} made for {s.noun} to an unmodified {result}"
    return text + extras(m, {"roll", "test", "result"}, ctx.notes)


def modifier_immunity(node: M, m: M, ctx: Ctx) -> str:
    s = _subject(node, ctx)
    scope = m.get("scope") or "rolls and characteristics"
    return f"{s.noun} {s.verb('ignores', 'ignore')} any modifiers to its {words(scope)}" + \
        extras(m, {"scope"}, ctx.notes)


def bs_modifier(node: M, m: M, ctx: Ctx) -> str:
    return stat_modifier(node, {**m, "stat": "BS"}, ctx)


COMBAT_LEAVES = {
    "roll-modifier": roll_modifier, "re-roll": reroll, "stat-modifier": stat_modifier,
    "bs-modifier": bs_modifier, "keyword-grant": keyword_grant,
    "feel-no-pain": feel_no_pain, "invulnerable-save": invulnerable_save,
    "damage-reduction": damage_reduction, "mortal-wounds": mortal_wounds,
    "auto-result": auto_result, "modifier-immunity": modifier_immunity,
}
