"""Faction records read against their own notes (issue 41): a limit the record's
``community_notes`` state and its effect code leaves out, put back in the dataset's own
words before the compiler reads the record.

The bundled dataset (wh40kdc 1.4.5) says in many notes that part of a rule "is not
encoded": the weapon it upgrades (Plasma Accelerator Rifle: "Applies to one Plasma Rifle
selected in the Declare Battle Formations step; the weapon-name scoping is not
encoded"), the kind of unit it is for (Debt to the Soul Forge: "When a HERETIC ASTARTES
DAEMON VEHICLE unit invokes its contract ... The DAEMON VEHICLE restriction and the
optional invoke are noted rather than gated in the tree"), the distance to the target
(Close-Quarters Excruciation: "attacks ... against eligible targets within 12"; the range
gate is not encoded"), a picked enemy unit (Fanatical Hail: "not restricted to the single
chosen target"), a player's choice (Cabal of Sorcerers: each PSYKER performs one of the
rituals, the record applies all three). Read as they stand, the records apply the
bonus everywhere the limit would have excluded. ``READINGS`` gives each such record,
by its ``ability_id``, the limit in the keys the effect compiler reads (``weapon_name``,
``applies_to_keyword(s)``, ``exclude_keyword``, a ``condition`` node: an enemy unit within
range, "<rule> target", a state; a ``condition`` in words for what a scenario cannot
state, which the compiler notes as an assumption), and what is still not calculated.
``tests/effects/test_record_limits.py`` sweeps every record whose notes say such a limit
is not encoded: each is read here, or left with the reason.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..loaders.wh40kdc_attack_readings import mend_leaves

__all__ = ["READINGS", "Reading", "read_record"]

Mends = tuple[tuple[str, Mapping[str, Any]], ...]


@dataclass(frozen=True)
class Reading:
    """What a record's notes add to its effect code."""

    #: (leaf tag, modifier keys) added to the leaves the tag names (``"*"``: every
    #: combat leaf; a roll or stat: "hit", "ap"; "hit+" a bonus to it; a granted
    #: keyword: "Ignores Cover")
    mends: Mends = ()
    #: a condition over the whole effect (the kind of unit the rule is for)
    wrap: Mapping[str, Any] | None = None
    #: the effect's steps are options, one of which the player picks
    choice: bool = False
    #: what the notes say that is still not calculated (``None``: the notes' own gaps)
    gaps: tuple[str, ...] | None = None


def _within(inches: int) -> dict[str, Any]:
    """An enemy unit (for one attack, the target) within ``inches`` (``context.distance``)."""
    return {"type": "opponent-unit-within-range", "parameters": {"range_inches": inches}}


def _any_keyword(*words: str) -> dict[str, Any]:
    """The rule's own unit has one of ``words``."""
    return {"operator": "or", "operands": [
        {"type": "unit-has-keyword", "parameters": {"keyword": w}} for w in words]}


def _weapons(*names: str, one: str | None = None) -> Reading:
    """The upgrade of the named weapons only; ``one``: of one such weapon, which a line
    of several carries in full (a weapon line is not split)."""
    gaps = (f"it upgrades one {one}: a line of several {one}s is upgraded in full",) \
        if one else ()
    return Reading(mends=(("*", {"weapon_name": list(names)}),), gaps=gaps)


#: ability_id -> its reading, each checked against the record's notes (quoted).
READINGS: dict[str, Reading] = {
    # "Applies to one Plasma Rifle ...; the weapon-name scoping is not encoded."
    "plasma-accelerator-rifle-experimental-prototype-cadre":
        _weapons("Plasma rifle", one="plasma rifle"),
    # "Applies to one Airbursting Fragmentation Projector ..."
    "supernova-launcher-experimental-prototype-cadre":
        _weapons("Airbursting fragmentation projector",
                 one="airbursting fragmentation projector"),
    # "Applies to one T'au Flamer ..."
    "thermoneutronic-projector-experimental-prototype-cadre":
        _weapons("T’au flamer", one="T’au flamer"),
    # "Applies only to inferno bolt pistols, inferno boltguns, inferno combi-bolters and
    # inferno combi-weapons equipped by models in the unit"
    "infernal-fusillade-rubricae-phalanx": _weapons(
        "Inferno bolt pistol", "Inferno boltgun", "Inferno combi-bolter",
        "Inferno combi-weapon"),
    # "Applies only to the unit's malefic curse weapon"
    "embroiling-energies-prism-of-zadophon": _weapons("Malefic Curse"),
    # "Applies only to the bearer's infernal cannon"
    "warp-tainted-shells-prism-of-zadophon": _weapons("Infernal cannon"),
    # "When a HERETIC ASTARTES DAEMON VEHICLE unit invokes its contract on a Dark Pact";
    # naming the rule says it is invoked
    "debt-to-the-soul-forge": Reading(
        mends=(("*", {"applies_to_keyword": "Daemon Vehicle"}),), gaps=()),
    # "the +1 Hit / +1 Wound bonus applies only to WRAITH CONSTRUCT attacks against that
    # marked unit (attacker-keyword restriction not modeled)"
    "shepherds-of-the-dead": Reading(
        mends=(("+", {"applies_to_keyword": "Wraith Construct"}),)),
    # "only attacks made by Adeptus Custodes Character models gain the bonus"
    "slayer-of-champions-auric-champions": Reading(
        mends=(("wound+", {"applies_to_keyword": "Character"}),)),
    # "+1 to Hit applies to NECRONS attacks (excluding MONSTER models) targeting a unit
    # within range of an objective marker; the [ASSAULT] grant applies only to NECRONS
    # VEHICLE and MOUNTED (excluding TITANIC) ranged weapons"
    "relentless-onslaught": Reading(mends=(
        ("hit+", {"exclude_keyword": "Monster"}),
        ("Assault", {"applies_to_keywords": ["Vehicle", "Mounted"],
                     "exclude_keyword": "Titanic"})), gaps=()),
    # "the +1 Armour Penetration applies only to DESTROYER CULT ranged attacks that
    # target the closest eligible target"
    "annihilation-protocol": Reading(mends=(
        ("ap", {"applies_to_keyword": "Destroyer Cult",
                "condition": "the target to be the closest eligible target"}),)),
    # "the restriction to Adeptus Arbites, Inquisitor, Inquisitorial Agents and Ordo
    # Hereticus models ... not modeled"
    "root-out-heresy": Reading(mends=(("*", {"applies_to_keywords": [
        "Adeptus Arbites", "Inquisitor", "Inquisitorial Agents", "Ordo Hereticus"]}),),
        gaps=("its [SUSTAINED HITS 1] is only against Chaos units of 5 or more models "
              "(the model count is not checked)",)),
    # "Applies only to attacks made by Emperor's Children models against eligible
    # targets within 12"; the range gate is not encoded."
    "close-quarters-excruciation-court-of-the-phoenician": Reading(
        mends=(("*", {"condition": _within(12)}),), gaps=()),
    # "Applies only while the attacking model is within 12" of the bearer's unit (range
    # condition not encoded)."
    "radiant-mantle-talons-of-the-emperor": Reading(
        mends=(("*", {"condition": _within(12)}),), gaps=()),
    # "Applies only to ranged attacks against enemy units within 9""
    "point-blank-ambush-kauyon": Reading(mends=(("*", {"condition": _within(9)}),)),
    # "Improvements apply only to attacks against enemy units more than 12" away"
    "strike-from-the-shadows-vanguard-spearhead": Reading(mends=(
        ("bs", {"condition": {"operator": "not", "operands": [_within(12)]}}),
        ("ap", {"condition": {"operator": "not", "operands": [_within(12)]}}))),
    # "Ranged attacks only, against enemy units within 6" that are also within range of
    # an objective marker (target conditions not encoded)"
    "rites-of-fire-bringers-of-flame": Reading(mends=(("*", {
        "attack_type": "ranged", "condition": _within(6),
        "while": "the target is within range of an objective marker"}),)),
    # "Applies only to attacks that target the closest enemy unit"
    "combat-debarkation-montka": Reading(mends=(("*", {
        "condition": "the target to be the closest enemy unit"}),), gaps=()),
    # "Applies only to ranged attacks against units within 9" of a friendly Kroot or
    # Vespid Stingwings unit; the proximity gate is not encoded"
    "guided-by-unity-auxiliary-cadre": Reading(mends=(("*", {
        "condition": "the target to be within 9\" of a friendly Kroot or Vespid "
                     "Stingwings unit"}),), gaps=()),
    # "its ranged attacks may re-roll hit rolls against one selected enemy unit; modeled
    # as a re-roll of failed hits, not restricted to the single chosen target"
    "fanatical-hail-xenocult-masses": Reading(mends=(("*", {"condition": {
        "type": "target-has-keyword",
        "parameters": {"keyword": "Fanatical Hail target"}}}),), gaps=()),
    # "While active, models in the unit can only target Psyker units with their attacks
    # (restriction not encoded)": its abilities are for attacks on a PSYKER unit
    "witch-hunters-null-maiden-vigil": Reading(
        mends=(("*", {"vs_keywords": ["Psyker"]}),), gaps=()),
    # "When a hidden PATHFINDER TEAM or STEALTH BATTLESUITS unit is targeted ...; the
    # 'hidden' precondition is not gated here"
    "autoreactive-camouflage-advanced-acquisition-cadre": Reading(mends=(("*", {
        "condition": {"type": "unit-has-keyword", "parameters": {"keyword": "Hidden"}}}),),
        gaps=()),
    # "Ignores Cover is kept for completeness": the published rule gives it only when the
    # Observer unit has the MARKERLIGHT keyword, a unit a scenario does not hold
    "for-the-greater-good": Reading(mends=(("Ignores Cover", {
        "condition": "the Observer unit to have the MARKERLIGHT keyword (its Ignores "
                     "Cover)"}),), gaps=()),
    # "Save +1 (to a max of 3+) applies only when the WALKER/REGIMENT model already has
    # Benefit of Cover for another reason ... Applies to ASTRA MILITARUM WALKER and
    # REGIMENT models": the other reason is ``context.cover`` (the keyword test on
    # "benefit-of-cover" reads it), the models' kind a condition here
    "masters-of-camouflage": Reading(
        wrap=_any_keyword("Walker", "Regiment"),
        gaps=("the improved save is not limited to 3+",)),
    # the three rituals of the army rule: each PSYKER unit performs one (the player
    # names it: "Cabal of Sorcerers: 2")
    "cabal-of-sorcerers": Reading(choice=True, gaps=()),
}


def _as_choice(effect: Any) -> Any:
    """``effect`` with its ``sequence`` of steps (under its conditions) made a ``choice``
    of them."""
    if not isinstance(effect, dict):
        return effect
    if effect.get("type") == "sequence":
        return {"type": "choice", "options": list(effect.get("steps") or ())}
    if effect.get("type") == "conditional":
        return {**effect, "effect": _as_choice(effect.get("effect"))}
    return effect


def read_record(ability_id: str | None, effect: Any,
                gaps: tuple[str, ...]) -> tuple[Any, tuple[str, ...]]:
    """The record's effect with the limits its notes give (``READINGS``), and what is
    still not calculated (``gaps``: the notes' own, unless the reading says).

    >>> tree = {"type": "stat-modifier", "target": "bearer",
    ...         "modifier": {"stat": "A", "operation": "add", "value": 1}}
    >>> mended, left = read_record(
    ...     "plasma-accelerator-rifle-experimental-prototype-cadre", tree, ("x",))
    >>> mended["modifier"]["weapon_name"], "weapon_name" in tree["modifier"]
    (['Plasma rifle'], False)
    """
    reading = READINGS.get(ability_id or "")
    if reading is None or effect is None:
        return effect, gaps
    out = copy.deepcopy(effect)
    mend_leaves(out, reading.mends)
    if reading.choice:
        out = _as_choice(out)
    if reading.wrap is not None:
        out = {"type": "conditional", "condition": copy.deepcopy(dict(reading.wrap)),
               "effect": out}
    return out, (gaps if reading.gaps is None else reading.gaps)
