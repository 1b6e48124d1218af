"""An independent expected-value calculation for the record tests (issue 24).

Written from the core rules (11th 05.x: Hit roll, Wound roll, saving throw; an unmodified
1 always fails, a critical always succeeds, modifiers to the Hit and Wound rolls capped at
+1/-1; [SUSTAINED HITS X], [LETHAL HITS], [ANTI-X N+]), in exact fractions, one attack
die at a time, with no code of the engine: the record tests compare the engine's mean
with this, given the modifiers each test reads from the record by hand.

Damage 1 against W1 models with enough models that nothing is lost to overkill: the mean
number of unsaved wounds is the mean damage and models destroyed.

Issue 41 adds hit-roll modifiers from several sources (``hit_mods``: an effect, [HEAVY]
while stationary, Stealth) summed *before* the cap (02.02.01: "can never be modified by
more than -1/+1"), and readers of the raw records (``nodes``, ``keyword_tests``,
``distances``) so that a test finds the records of a class without the compiler.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction as F
from typing import Any

SIXTH = F(1, 6)


def _clamp(v: int) -> int:
    return max(-1, min(1, v))


def _roll(need: int, mod: int, crit: int, reroll: str | None) -> tuple[F, F]:
    """(P(critical success), P(plain success)) of one D6 needing ``need``+ with modifier
    ``mod`` (capped +-1), criticals on an unmodified ``crit``+, re-rolling "ones" or
    "failed" dice once."""
    def face(r: int) -> str:
        if r >= crit:
            return "crit"
        if r != 1 and r + _clamp(mod) >= need:
            return "hit"
        return "miss"

    once = {"crit": F(0), "hit": F(0), "miss": F(0)}
    for r in range(1, 7):
        once[face(r)] += SIXTH
    out = dict(once)
    for r in range(1, 7):
        again = (reroll == "ones" and r == 1) or (reroll == "failed" and face(r) == "miss")
        if again:
            out[face(r)] -= SIXTH
            for k in out:
                out[k] += SIXTH * once[k]
    return out["crit"], out["hit"]


def wound_need(s: int, t: int) -> int:
    """05.03: 2+ if S >= 2T, 3+ if S > T, 4+ if S = T, 5+ if S < T, 6+ if 2S <= T."""
    if s >= 2 * t:
        return 2
    if s > t:
        return 3
    if s == t:
        return 4
    return 6 if 2 * s <= t else 5


@dataclass(frozen=True)
class Attack:
    """One weapon line's attacks against one target, and every modifier a record gives."""

    attacks: int
    skill: int
    S: int
    AP: int
    T: int
    Sv: int
    invuln: int | None = None
    hit_mod: int = 0
    #: more hit-roll modifiers, of other sources: summed with ``hit_mod``, then capped
    hit_mods: tuple[int, ...] = ()
    wound_mod: int = 0
    save_mod: int = 0
    reroll_hit: str | None = None
    reroll_wound: str | None = None
    crit_hit: int = 6
    crit_wound: int = 6
    sustained: int = 0
    lethal: bool = False
    S_mod: int = 0
    AP_mod: int = 0
    #: +A per model, for ``models`` models
    A_mod: int = 0
    models: int = 10
    #: Feel No Pain of the target (each unsaved wound of D1 is then lost on a failure)
    fnp: int | None = None

    def unsaved(self) -> F:
        """The mean number of unsaved wounds."""
        ch, h = _roll(self.skill, self.hit_mod + sum(self.hit_mods), self.crit_hit,
                      self.reroll_hit)
        need = wound_need(self.S + self.S_mod, self.T)
        cw, w = _roll(need, self.wound_mod, self.crit_wound, self.reroll_wound)
        pw = cw + w
        wounds = h * pw + ch * ((1 if self.lethal else pw) + self.sustained * pw)
        ap = min(0, self.AP + self.AP_mod)
        armour = self.Sv - ap
        saves = [n for n in (armour, self.invuln) if n is not None]
        need_save = min(saves)
        p_save = F(sum(1 for r in range(2, 7) if r + self.save_mod >= need_save), 6)
        lost = 1 if self.fnp is None else F(self.fnp - 1, 6)
        return (self.attacks + self.A_mod * self.models) * wounds * (1 - p_save) * lost


def mortal_mean(dice: int, threshold: int, per: int = 1) -> F:
    """``dice`` D6, each ``threshold``+ inflicting ``per`` mortal wounds."""
    return dice * F(7 - threshold, 6) * per


def mortal_lost(count: F | int, fnp: int | None = None) -> F:
    """The mean wounds lost to ``count`` mortal wounds (on models with enough wounds
    left), each ignored on a ``fnp``+ (reference facts §4.7)."""
    return F(count) * (1 if fnp is None else F(fnp - 1, 6))


# --- reading the raw records (no code of the compiler) -------------------------------------


def nodes(tree: Any) -> Iterator[Mapping[str, Any]]:
    """Every mapping in a record's effect tree, depth first."""
    if isinstance(tree, Mapping):
        yield tree
        for v in tree.values():
            yield from nodes(v)
    elif isinstance(tree, list):
        for v in tree:
            yield from nodes(v)


def keyword_tests(tree: Any) -> list[tuple[str, str]]:
    """(kind, keyword) of each ``unit-has-keyword`` / ``target-has-keyword`` test."""
    return [(str(n["type"]), str((n.get("parameters") or {})["keyword"])) for n in nodes(tree)
            if n.get("type") in ("unit-has-keyword", "target-has-keyword")
            and (n.get("parameters") or {}).get("keyword")]


#: ``unit-within-range-of`` one of these: an enemy unit, for one attack its target.
ENEMY = ("enemy", "visible-enemy", "current-ranged-attack-target", "triggering-enemy-unit")


#: The leaves that change an attack: a roll of the attack, a characteristic of the
#: attack or of the target, a weapon ability, a defence (the Benefit of Cover too),
#: mortal wounds.
_ROLLS = ("hit", "wound", "save", "saving-throw", "damage")
_STATS = ("A", "S", "AP", "D", "BS", "WS", "T", "Sv", "W")


def combat_leaf(node: Mapping[str, Any]) -> bool:
    m = node.get("modifier") if isinstance(node.get("modifier"), Mapping) else {}
    kind = node.get("type")
    return (kind in ("roll-modifier", "re-roll") and m.get("roll") in _ROLLS) or (
        kind == "stat-modifier" and m.get("stat") in _STATS) or kind in (
        "bs-modifier", "keyword-grant", "feel-no-pain", "invulnerable-save",
        "damage-reduction", "mortal-wounds") or (
        kind == "rule-state" and m.get("rule") == "benefit-of-cover")


def _flat(c: Any, negated: bool = False) -> Iterator[tuple[Mapping[str, Any], bool]]:
    """The simple conditions of a condition node, each with whether it is negated."""
    if not isinstance(c, Mapping):
        return
    if c.get("operator"):
        for o in c.get("operands") or ():
            yield from _flat(o, negated != (c["operator"] == "not"))
    else:
        yield c, negated != bool(c.get("negated"))


def _elsewhere(c: Any) -> bool:
    """A condition that holds in a phase other than the Shooting and Fight phases only
    (a ``phase-is`` command, movement...): what is under it is no attack's."""
    return any(n.get("type") == "phase-is" and not negated and (n.get("parameters") or {})
               .get("phase") not in ("shooting", "fight") for n, negated in _flat(c))


def conditions(tree: Any) -> Iterator[tuple[Mapping[str, Any], bool]]:
    """(condition node, negated) of every condition over a leaf that changes an attack
    (``combat_leaf``): the conditions of each ``conditional`` whose effect has one (not
    under a condition of another phase, ``_elsewhere``), and a combat leaf's own
    ``condition`` key; negated under a ``not`` (or ``negated``)."""
    if isinstance(tree, list):
        for v in tree:
            yield from conditions(v)
        return
    if not isinstance(tree, Mapping):
        return
    if "condition" in tree and "effect" in tree:
        if _elsewhere(tree["condition"]):
            return
        if any(combat_leaf(x) for x in nodes(tree["effect"])):
            yield from _flat(tree["condition"])
    m = tree.get("modifier")
    if combat_leaf(tree) and isinstance(m, Mapping):
        yield from _flat(m.get("condition"))
    for key, v in tree.items():
        if key != "condition":
            yield from conditions(v)


def distances(tree: Any) -> list[tuple[float, bool]]:
    """(inches, negated) of each condition on the distance to an enemy unit over a leaf
    that changes an attack (``conditions``): an ``opponent-unit-within-range`` or
    ``unit-within-range-of`` an enemy with a number of inches, or a combat leaf's
    ``range_inches``."""
    out: list[tuple[float, bool]] = []
    for c, negated in conditions(tree):
        p = c.get("parameters") or {}
        kind = c.get("type")
        inches = next((p[k] for k in ("range_inches", "range", "within_inches")
                       if isinstance(p.get(k), int | float) and not isinstance(p[k], bool)
                       and p[k] > 0), None)
        near = (kind == "opponent-unit-within-range" and not p.get("target_qualifier")) or (
            kind == "unit-within-range-of" and p.get("target_type") in ENEMY)
        if near and inches is not None:
            out.append((float(inches), negated))
    for n in nodes(tree):
        m = n.get("modifier")
        if combat_leaf(n) and isinstance(m, Mapping) and isinstance(
                m.get("range_inches"), int | float) and m["range_inches"] > 0:
            out.append((float(m["range_inches"]), False))
    return out
