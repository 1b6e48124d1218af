"""The keys of a leaf's ``modifier`` beyond what it does (issue 24): the conditions and
limits the dataset writes on the modifier itself, and the keys each leaf kind reads.

The 40kdc-data effect schema (``effect.schema.json``, 1.4.5) leaves ``modifier`` open
(``additionalProperties: true``), and the records put conditions there: ``applies_when``
("attacker-strength-greater-than-target-toughness"), ``condition`` (a condition node or a
named circumstance), ``vs_keywords`` (the enemy unit has one of them),
``applies_to_keyword(s)`` (the rule's own unit has one of them), ``requires`` (a weapon
ability such as Torrent, or a circumstance: a Dark Pact made), ``context`` (vs-ranged,
vs-melee, shooting...), ``anti_keyword``/``anti_threshold`` (an [ANTI-X N+] grant),
``until``, ``vs_target``, ``while``, ``excluded_target_keywords``, ``range_inches``
(checked against ``context.distance`` when given). ``leaf_scope`` turns
them into checks on the scenario, an attack type, a weapon filter, an extra grant, or an
**assumption** (what a scenario cannot state: applied, and the result says so).

A key no reader here nor in ``compiler`` reads is returned in ``unread``: the part is
still applied, the key is listed under ``not_calculated`` and counted by
``tactica data report --coverage``; nothing is dropped silently.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..combat.contract.scenario import Scenario
from ..model.abilities import UnknownAbilityError, parse_weapon_ability
from ..names import article, name_key, normalise
from .dsl_conditions import (
    Attack,
    Owner,
    Raw,
    compile_condition,
    mortal_wound_trigger,
    side_of,
    who,
    within,
)
from .model import Condition

__all__ = ["LeafScope", "feel_no_pain_scope", "has_keyword_phrase", "leaf_scope",
           "weapon_names"]

#: Keys every combat leaf reader understands (what the leaf does, whom, which attacks).
_COMMON = frozenset({"operation", "value", "attack_type", "weapon_type", "weapon_keyword",
                     "weapon_name", "incoming", "scope", "type", "applies_to"})
#: Keys each leaf kind reads besides the common ones.
READ: dict[str, frozenset[str]] = {
    "roll-modifier": frozenset({"roll", "critical_on"}),
    "re-roll": frozenset({"roll", "subset", "result_scope"}),
    "stat-modifier": frozenset({"stat"}),
    "bs-modifier": frozenset({"stat"}),
    "keyword-grant": frozenset({"keywords", "keyword", "keyword_id", "parameters"}),
    "ability-grant": frozenset({"grant_type", "ability_id"}),
    "feel-no-pain": frozenset({"threshold"}),
    "invulnerable-save": frozenset({"invuln_sv", "threshold"}),
    "damage-reduction": frozenset({"reduction", "amount"}),
    "mortal-wounds": frozenset({"dice", "threshold", "comparison", "mortal_per_success",
                                "count", "amount", "per_roll", "table", "target_scope",
                                "range_inches", "range"}),
    "_cover": frozenset(),
}
#: Keys this module reads as conditions.
CONDITION_KEYS = frozenset({
    "range_inches", "applies_when", "condition", "vs_keywords", "applies_to_keyword",
    "applies_to_keywords", "requires", "context", "anti_keyword", "anti_threshold", "until",
    "vs_target", "while", "excluded_target_keywords", "exclude_keyword", "excludes_keyword"})
_S_OVER_T = ("attacker-strength-greater-than-target-toughness",
             "attacker-strength-greater-than-toughness")
_RANGED = frozenset({"vs-ranged", "ranged", "shooting", "vs-shooting"})
_MELEE = frozenset({"vs-melee", "melee", "fight", "vs-fight"})


@dataclass(frozen=True)
class LeafScope:
    """What a leaf's modifier keys add to its part."""

    checks: tuple[Condition, ...] = ()
    assumptions: tuple[str, ...] = ()
    attack: Attack | None = None
    #: only weapons with this ability ("Torrent": ``requires``)
    weapon_keyword: str | None = None
    #: only attacks whose Strength is greater than the target's Toughness
    strength_over_toughness: bool = False
    #: weapon abilities granted besides the leaf's own ([ANTI-CHAOS 5+])
    grants: tuple[str, ...] = ()
    unread: tuple[str, ...] = ()


def has_keyword_phrase(keywords: Sequence[str], name: str, phrase: str) -> bool:
    """Whether a unit matches ``phrase``: one of its keywords, its name, or several of its
    keywords written together ("Astra Militarum Infantry" = ASTRA MILITARUM and INFANTRY).

    >>> has_keyword_phrase(("Astra Militarum", "Infantry"), "Cadians", "Astra Militarum Infantry")
    True
    >>> has_keyword_phrase(("Infantry",), "Cadians", "Monster")
    False
    """
    kws = {normalise(k) for k in keywords}
    wanted = normalise(phrase)
    if wanted in kws or name_key(phrase) == name_key(name):
        return True
    rest = f" {wanted} "
    for k in sorted(kws, key=len, reverse=True):
        rest = rest.replace(f" {k} ", " ")
    return bool(wanted) and not rest.strip()


def _any_of(owner: Owner, own: bool, words: Sequence[str], lacks: bool = False) -> Condition:
    unit = who(owner, own)
    label = " or ".join(w.upper() for w in words)

    def test(s: Scenario) -> bool:
        kws, name = side_of(s, owner, own)
        found = any(has_keyword_phrase(kws, name, w) for w in words)
        return not found if lacks else found

    if lacks:
        return Condition(f"{unit} is not {label}",
                         f"the {unit} is {article(label)} {label} unit", test,
                         frozenset({unit}))
    return Condition(f"{unit} is {label}",
                     f"the {unit} is not {article(label)} {label} unit", test,
                     frozenset({unit}))


def _words(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    return [str(v) for v in value or () if isinstance(v, str)]


def _text(value: Any) -> str:
    return str(value).replace("-", " ").replace("_", " ")


def _condition_key(value: Any, owner: Owner) -> tuple[list[Condition], list[str],
                                                       Attack | None]:
    if isinstance(value, Mapping):
        c = compile_condition(value, owner)
        if c.outside is not None:
            return [], [f"only in {c.outside}"], None
        return list(c.checks), ([c.assumption] if c.assumption else []), c.attack
    return [], [_text(value)], None


def _requires(value: Any) -> tuple[str | None, str | None]:
    """(weapon ability, assumption) of a ``requires`` value."""
    text = str(value)
    try:
        parse_weapon_ability(text)
    except UnknownAbilityError:
        return None, f"requires {_text(text)}"
    return text, None


def leaf_scope(kind: str, m: Raw, owner: Owner) -> LeafScope:
    """The conditions and limits on a combat leaf's modifier ``m``, read for ``owner``."""
    checks: list[Condition] = []
    assumed: list[str] = []
    attack: Attack | None = None
    weapon: str | None = None
    s_over_t = False
    grants: list[str] = []
    when = m.get("applies_when")
    if when is not None:
        if str(when) in _S_OVER_T:
            s_over_t = True
        else:
            assumed.append(_text(when))
    if m.get("condition") is not None:
        more, said, attack = _condition_key(m["condition"], owner)
        checks += more
        assumed += said
    if m.get("vs_keywords"):
        checks.append(_any_of(owner, False, _words(m["vs_keywords"])))
    if m.get("excluded_target_keywords"):
        checks.append(_any_of(owner, False, _words(m["excluded_target_keywords"]), lacks=True))
    for key in ("applies_to_keyword", "applies_to_keywords"):
        if m.get(key):
            checks.append(_any_of(owner, True, _words(m[key])))
    for key in ("exclude_keyword", "excludes_keyword"):
        if m.get(key):
            checks.append(_any_of(owner, True, _words(m[key]), lacks=True))
    if m.get("requires") is not None:
        weapon, needed = _requires(m["requires"])
        assumed += [needed] if needed else []
    context = m.get("context")
    if context is not None:
        key = str(context).casefold()
        attack = "ranged" if key in _RANGED else "melee" if key in _MELEE else attack
        if attack is None or key not in _RANGED | _MELEE:
            assumed.append(f"while {_text(context)}")
    inches = m.get("range_inches")
    if isinstance(inches, int | float) and not isinstance(inches, bool) and inches > 0:
        checks.append(within(float(inches)))  # not given: assumed, and noted
    if m.get("anti_keyword") and isinstance(m.get("anti_threshold"), int):
        grants.append(f"Anti-{m['anti_keyword']} {m['anti_threshold']}+")
    for key, word in (("until", "until"), ("vs_target", "against"), ("while", "while")):
        if m.get(key) is not None:
            assumed.append(f"{word} {_text(m[key])}")
    known = _COMMON | READ.get(kind, frozenset()) | CONDITION_KEYS
    unread = tuple(k for k in m if k not in known)
    return LeafScope(tuple(checks), tuple(assumed), attack, weapon, s_over_t, tuple(grants),
                     unread)


def weapon_names(value: Any) -> tuple[str, ...]:
    """A leaf's ``weapon_name``: one name, or several (Infernal Fusillade's inferno
    weapons, ``effects.record_readings``)."""
    if isinstance(value, str):
        return (value,) if value else ()
    return tuple(str(v) for v in value or () if isinstance(v, str) and v)


def feel_no_pain_scope(node: Raw, conds: tuple[Raw, ...]
                       ) -> tuple[Raw, tuple[Raw, ...], tuple[str, ...]]:
    """A ``feel-no-pain`` leaf under "each time the unit suffers a mortal wound"
    (``mortal_wound_trigger``) as one of ``scope`` mortal (Catalytic Biofortification:
    against mortal wounds only, not the attacks' damage), the conditions left, and what
    is not calculated of it (against Psychic Attacks, ``psychic-and-mortal``)."""
    if node.get("type") != "feel-no-pain":
        return node, conds, ()
    mortal, conds = mortal_wound_trigger(conds)
    if mortal:
        node = {**node, "modifier": {**(node.get("modifier") or {}), "scope": "mortal"}}
    if (node.get("modifier") or {}).get("scope") == "psychic-and-mortal":
        return node, conds, ("its Feel No Pain against Psychic Attacks (only that against "
                             "mortal wounds is calculated)",)
    return node, conds, ()
