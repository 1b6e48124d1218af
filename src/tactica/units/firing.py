"""Which weapons a fielded unit attacks with, as the engine's weapon lines.

* Shooting phase: every model fires all its ranged weapons, except that a model with
  Pistols picks either its Pistols or its other ranged weapons (11th 24.07 / 24.27; the
  rule set's ``pistol_choice_exempt`` keywords, MONSTER and VEHICLE in 11th, fire both).
* Fight phase: each model fights with one melee weapon plus every [EXTRA ATTACKS]
  weapon it has (24.11 "each time the bearer fights, it can make attacks with this weapon
  in addition to the weapon it selected").
* A weapon with several profiles fires one of them ("select one of its profiles").

Where the rules leave the choice to the player, the default is the one that does most
for what it costs. Of a weapon's profiles, each model fires the one with the highest
estimate of one model's expected damage against one model of the target (``Aim``: its
first non-CHARACTER model group), attacks x hit x wound x unsaved x the mean Damage capped
at that model's Wounds (the skill, S against T, the better of the save less AP and the
invulnerable save; the weapons' other abilities, modifiers and re-rolls left out), less
the profile's cost: the mortal wounds its [HAZARDOUS] roll is expected to cost the
bearer's unit (``hazard_cost``: 11th 06.03, 1 in 3 for 1 mortal wound, 3 for a MONSTER
or VEHICLE; 10th, 1 in 6 for 3). A tie goes to the profile listed first. Between weapons
(a model's Pistols or its other ranged weapons; its one melee weapon besides [EXTRA
ATTACKS]) the chosen profiles' estimates alone decide. When a cost was weighed the notes
say so (``Armament.weighed``). ``profiles`` names profiles to use instead ("Plasma
incinerator – supercharge", or "supercharge" when only one carried weapon has it).

>>> from tactica.model import WeaponProfile
>>> from tactica.dice import DiceExpr
>>> p = WeaponProfile(name="Bolt rifle", range=24, A="2", skill=3, S=4, AP=-1, D="1")
>>> round(expected_damage(p, Aim(T=4, Sv=3, W=2)), 4)    # 2 x 2/3 x 1/2 x 1/2 x 1
0.3333
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from tactica.cache_registry import lasting_cache

from ..combat.contract.scenario import Phase, WeaponLine
from ..dice import DiceExpr
from ..model.common import RulesVersion
from ..model.datasheet import Datasheet, Weapon, WeaponProfile
from ..names import name_key
from ..rules import get_ruleset
from .conditions import may_target
from .loadout import Loadout

__all__ = ["Aim", "Armament", "Choice", "NoWeaponsError", "armament", "expected_damage",
           "lines_of", "picked_lines", "unarmed", "weapon_lines"]


class NoWeaponsError(ValueError):
    """The unit has no weapon for the phase ("Arco-flagellants have no ranged weapons"):
    ``field`` is what is at fault, ``"phase"`` when none of its models has a weapon of the
    phase's kind, else ``"weapons"`` (a weapon picked by hand)."""

    def __init__(self, message: str, field: str = "weapons") -> None:
        super().__init__(message)
        self.field = field


@dataclass(frozen=True, slots=True)
class Aim:
    """What the default choice is judged against: one model of the target, and how far
    away it is (``distance``, inches; ``None``: within every weapon's range)."""

    T: int = 4
    Sv: int = 3
    W: int = 2
    invuln: int | None = None
    keywords: tuple[str, ...] = ()
    distance: float | None = None


@lasting_cache(maxsize=4096)
def _mean(d: DiceExpr) -> float:
    """``float(d.mean)``, cached by the expression's value (three small integers):
    choosing profiles for a table of many targets asks it for the same few dice
    expressions again and again."""
    return float(d.mean)


def expected_damage(p: WeaponProfile, aim: Aim) -> float:
    """One model's expected damage with profile ``p`` against ``aim`` (to choose only):
    none beyond its range (04.02, the rule set's ``in_range``), so that a weapon fires a
    profile that reaches the target, and a model its Pistols or other guns that do."""
    if aim.distance is not None and not get_ruleset("11th").in_range(p.range, aim.distance):
        return 0.0
    hit = 1.0 if p.skill is None else (7 - p.skill) / 6
    wound = (7 - get_ruleset("11th").wound_roll_needed(p.S, aim.T)) / 6
    save = min(aim.Sv - p.AP, aim.invuln if aim.invuln is not None else 7)
    unsaved = 1.0 if save >= 7 else min(1.0, max(0.0, (save - 1) / 6))
    return _mean(p.A) * hit * wound * unsaved * min(_mean(p.D), aim.W)


def hazard_cost(p: WeaponProfile, rules: RulesVersion = "11th",
                keywords: tuple[str, ...] = ()) -> float:
    """What firing ``p`` once is expected to cost the bearer's unit, in mortal wounds:
    [HAZARDOUS] (11th 06.03: a hazard roll fails on 1-2, 1 mortal wound, 3 for a MONSTER or
    VEHICLE; 10th: a 1, 3 mortal wounds), from the rule set. To choose only.

    >>> from tactica.model import WeaponProfile
    >>> from tactica.model.abilities import parse_weapon_ability
    >>> p = WeaponProfile(name="Plasma – supercharge", range=24, A="1", skill=3, S=8,
    ...                   AP=-3, D="2", abilities=(parse_weapon_ability("Hazardous"),))
    >>> round(hazard_cost(p), 4), round(hazard_cost(p, "10th"), 4)
    (0.3333, 0.5)
    """
    if not p.has("Hazardous"):
        return 0.0
    rs = get_ruleset(rules)
    return rs.hazard_fails_on / 6 * rs.hazard_mortal_wounds(keywords)


def _candidates(w: Weapon, chosen: Sequence[str]) -> tuple[WeaponProfile, ...]:
    """The profiles of ``w`` to choose among: the first named in ``chosen``, else all."""
    keys = {name_key(c) for c in chosen}
    named = [p for p in w.profiles if name_key(p.name) in keys]
    return (named[0],) if named else w.profiles


def _best_profile(profiles: tuple[WeaponProfile, ...], costs: tuple[float, ...],
                  aim: Aim) -> int:
    """Of one weapon's ``profiles`` (``_candidates``), the one that does most for what it
    costs (expected damage less ``costs``: the bearer's expected losses to [HAZARDOUS]; on
    a tie, the first, so Standard before Supercharge): its index. At a distance, those
    that reach the target first; when none does, the one chosen within range."""
    if len(profiles) == 1:  # nothing to choose (most weapons)
        return 0
    if aim.distance is None:
        return max(range(len(profiles)),
                   key=lambda i: expected_damage(profiles[i], aim) - costs[i])
    near = replace(aim, distance=None)
    return max(range(len(profiles)),
               key=lambda i: (expected_damage(profiles[i], aim) - costs[i],
                              expected_damage(profiles[i], near) - costs[i]))


def _is_pistol(p: WeaponProfile) -> bool:
    return p.has("Pistol") or p.has("Close-quarters")


@lasting_cache(maxsize=4096)
def _by_key(sheet: Datasheet) -> Mapping[str, tuple[Weapon, ...]]:
    """The datasheet's weapons by their names' keys (``name_key``), in its order
    (read-only: cached by the datasheet's value)."""
    out: dict[str, tuple[Weapon, ...]] = {}
    for w in sheet.weapons:
        out[name_key(w.name)] = (*out.get(name_key(w.name), ()), w)
    return MappingProxyType(out)


def _weapons_of(sheet: Datasheet, equipment: Sequence[str], melee: bool) -> list[Weapon]:
    """The weapons of ``equipment`` for one phase. A name the datasheet gives a ranged
    and a melee weapon (Nazdreg's Kustom Blasta X: two records, one item each) shares
    its copies between them: one each, not both in each phase."""
    out: list[Weapon] = []
    held: dict[str, int] = {}  # copies per item, in the order first held
    for item in equipment:
        key = name_key(item)
        held[key] = held.get(key, 0) + 1
    index = _by_key(sheet)
    for key, copies in held.items():
        same = index.get(key, ())
        found = next((w for w in same if w.is_melee == melee), None)
        if found is not None:
            out += [found] * max(1, copies // len(same))
    return out


def _usable(sheet: Datasheet, equipment: Sequence[str], phase: Phase,
            keywords: tuple[str, ...]) -> tuple[Weapon, ...]:
    """The weapons one model may use in the phase against a target with ``keywords``
    (the profiles that may not target them left out; a weapon with none, too)."""
    weapons: list[Weapon] = []
    for w in _weapons_of(sheet, equipment, phase == "fight"):
        usable = tuple(p for p in w.profiles if may_target(p, keywords))
        if len(usable) == len(w.profiles):
            weapons.append(w)  # the weapon as it is (no copy)
        elif usable:
            weapons.append(w.model_copy(update={"profiles": usable}))
    return tuple(weapons)


@dataclass(frozen=True, slots=True)
class _Options:
    """What one model may fire in a phase, decided once per armament (the aim decides
    the rest, ``_fires``): per usable weapon its profiles to choose among
    (``_candidates``) and what each costs the bearer (``hazard_cost``)."""

    profiles: tuple[tuple[WeaponProfile, ...], ...]
    costs: tuple[tuple[float, ...], ...]
    #: per profile whether it is an [EXTRA ATTACKS] weapon (fight) or a Pistol (shooting)
    apart: tuple[tuple[bool, ...], ...]

    @classmethod
    def of(cls, sheet: Datasheet, weapons: Sequence[Weapon], profiles: Sequence[str],
           rules: RulesVersion, phase: Phase) -> _Options:
        keywords = (*sheet.keywords, *sheet.faction_keywords)
        candidates = tuple(_candidates(w, profiles) for w in weapons)
        apart = (lambda p: p.has("Extra Attacks")) if phase == "fight" else _is_pistol
        return cls(candidates, tuple(tuple(hazard_cost(p, rules, keywords) for p in ps)
                                     for ps in candidates),
                   tuple(tuple(map(apart, ps)) for ps in candidates))


def _fires(options: _Options, phase: Phase, aim: Aim, exempt: bool) -> list[WeaponProfile]:
    """The profiles one model uses in the phase, of its usable weapons (``_usable``,
    their ``_Options``)."""
    chosen: list[tuple[WeaponProfile, bool]] = []  # each weapon's pick, and if apart
    for ps, costs, apart in zip(options.profiles, options.costs, options.apart, strict=True):
        i = _best_profile(ps, costs, aim)
        chosen.append((ps[i], apart[i]))
    picks = [p for p, _ in chosen]
    if phase == "fight":  # apart: [EXTRA ATTACKS]
        extra = [p for p, x in chosen if x]
        main = [p for p, x in chosen if not x]
        best = main[0] if len(main) == 1 else max(main, key=lambda p: expected_damage(p, aim)) \
            if main else None
        return ([best] if best is not None else []) + extra
    if exempt:
        return picks
    pistols = [p for p, x in chosen if x]  # apart: Pistols
    other = [p for p, x in chosen if not x]
    if not pistols or not other:
        return picks
    return max((other, pistols), key=lambda ps: sum(expected_damage(p, aim) for p in ps))


#: What a unit fires, chosen: (line name, profile, how many models fire it), in order.
Choice = tuple[tuple[str, WeaponProfile, int], ...]


@dataclass(frozen=True, slots=True)
class Armament:
    """A loadout's usable weapons for one phase against targets with given keywords
    (``armament``): all of ``weapon_lines`` but the choice, which only the aim's numbers
    decide (``choose``). A table of many targets fields the attacker once per phase."""

    sheet: Datasheet
    phase: Phase
    rules: RulesVersion
    profiles: tuple[str, ...]
    exempt: bool
    #: each model group's count and usable weapons
    groups: tuple[tuple[int, tuple[Weapon, ...]], ...]
    #: each model group's ``_Options`` (``groups``' weapons), made once
    options: tuple[_Options, ...]
    #: the choice whatever the aim (``_aimless``), else ``None``
    fixed: Choice | None = None
    #: each profile the options hold, by identity, as the first of them equal to it
    #: (``_firsts``): equal profiles fire as one line, found without hashing each one
    #: field by field for every aim
    firsts: dict[int, WeaponProfile] = field(default_factory=dict, compare=False)

    def choose(self, aim: Aim) -> Choice:
        """The profiles fired against ``aim`` and by how many models (the lines' order;
        equal profiles as one line, under the first of them)."""
        if self.fixed is not None:
            return self.fixed
        counts: dict[int, list[Any]] = {}  # the first equal profile's id -> [it, count]
        for (n, _), group in zip(self.groups, self.options, strict=True):
            for p in _fires(group, self.phase, aim, self.exempt):
                first = self.firsts[id(p)]
                got = counts.get(id(first))
                if got is None:
                    counts[id(first)] = [first, n]
                else:
                    got[1] += n
        return tuple((p.name, p, n) for p, n in counts.values())

    def weighed(self, choice: Choice) -> list[str]:
        """What ``choice`` (``choose``'s) weighed besides damage, one note per weapon
        fired whose profiles differ in cost ([HAZARDOUS], ``hazard_cost``): the profile
        chosen, the one passed over and the cost counted, so a player sees why."""
        fired = {id(p) for _, p, _ in choice}
        out: dict[str, None] = {}
        for (_, weapons), options in zip(self.groups, self.options, strict=True):
            for w, ps, costs in zip(weapons, options.profiles, options.costs, strict=True):
                i = next((i for i, p in enumerate(ps) if id(self.firsts[id(p)]) in fired), None)
                if i is None or len(set(costs)) < 2:
                    continue  # not fired (Pistols set aside), or nothing but damage weighed
                out[_weighed_note(w, ps, costs, i)] = None
        return list(out)


def _weighed_note(w: Weapon, ps: tuple[WeaponProfile, ...], costs: tuple[float, ...],
                  i: int) -> str:
    """The note of ``Armament.weighed`` for weapon ``w`` whose profile ``i`` was chosen.

    >>> from tactica.model.abilities import parse_weapon_ability
    >>> std = WeaponProfile(name="Plasma gun – standard", range=24, A="1", skill=3, S=7,
    ...                     AP=-2, D="1")
    >>> sc = std.model_copy(update={"name": "Plasma gun – supercharge", "S": 8, "D": "2",
    ...                             "abilities": (parse_weapon_ability("Hazardous"),)})
    >>> gun = Weapon(name="Plasma gun", profiles=(std, sc))
    >>> import textwrap
    >>> print(textwrap.fill(_weighed_note(gun, (std, sc), (0.0, 1 / 3), 0), 80))
    Plasma gun: standard chosen over supercharge, whose Hazardous is expected to
    cost the unit 0.33 mortal wounds per model firing it, counted against its
    expected damage (name it as the profile to fire it)
    """
    def short(p: WeaponProfile) -> str:
        own = p.name[len(w.name):] if p.name.casefold().startswith(w.name.casefold()) else ""
        return own.strip(" –—-:") or p.name

    def cost(j: int) -> str:
        return (f"Hazardous is expected to cost the unit {costs[j]:.2f} mortal wounds per "
                f"model firing it")

    others = [j for j in range(len(ps)) if j != i]
    over = " and ".join(short(ps[j]) for j in others)
    costly = [j for j in others if costs[j] > costs[i]]
    if len(costly) == 1:
        return (f"{w.name}: {short(ps[i])} chosen over {over}, whose {cost(costly[0])}, "
                f"counted against its expected damage (name it as the profile to fire it)")
    if costly:
        return (f"{w.name}: {short(ps[i])} chosen over {over}; "
                + "; ".join(f"{short(ps[j])}'s {cost(j)}" for j in costly)
                + ", counted against its expected damage")
    return (f"{w.name}: {short(ps[i])} chosen over {over} though its {cost(i)} (counted "
            f"against its expected damage)")


def _firsts(options: tuple[_Options, ...]) -> dict[int, WeaponProfile]:
    """Each profile of ``options`` by identity, as the first of them equal to it."""
    first: dict[WeaponProfile, WeaponProfile] = {}
    return {id(p): first.setdefault(p, p) for o in options for ps in o.profiles for p in ps}


def armament(sheet: Datasheet, unit: Loadout, phase: Phase, rules: RulesVersion = "11th",
             keywords: tuple[str, ...] = (), profiles: Sequence[str] = (),
             notes: list[str] | None = None) -> Armament:
    """What ``unit`` may attack with in ``phase`` against a target with ``keywords``;
    ``NoWeaponsError`` if nothing. A weapon that may not target it is left out, and
    ``notes`` says so."""
    for w in {w.name: w for g in unit.models
              for w in _weapons_of(sheet, g.equipment, phase == "fight")}.values():
        barred = [p for p in w.profiles if not may_target(p, keywords)]
        if len(barred) == len(w.profiles) and notes is not None and barred[0].may_target:
            notes.append(f"{sheet.name}: {w.name} can only target "
                         f"{'/'.join(barred[0].may_target.any_of)} units; not used")
    exempt_keywords = get_ruleset(rules).pistol_choice_exempt
    exempt = any(sheet.has_keyword(k) for k in exempt_keywords)
    groups = tuple((g.count, _usable(sheet, g.equipment, phase, keywords))
                   for g in unit.models)
    if not any(weapons for _, weapons in groups):  # a model with a weapon fires one
        what = "melee" if phase == "fight" else "ranged"
        none = "" if sheet.weapons else " (the data lists none)"
        raise NoWeaponsError(f"{sheet.name} {'have' if unit.size > 1 else 'has'} no {what} "
                             f"weapons{none}", "phase")
    options = tuple(_Options.of(sheet, weapons, profiles, rules, phase)
                    for _, weapons in groups)
    arm = Armament(sheet, phase, rules, tuple(profiles), exempt, groups, options,
                   firsts=_firsts(options))
    if all(_aimless(options, phase, exempt) for options in arm.options):
        arm = replace(arm, fixed=arm.choose(Aim()))
    return arm


def _aimless(options: _Options, phase: Phase, exempt: bool) -> bool:
    """Whether a model's profiles (``_fires``) are the same whatever the aim: no weapon
    with a choice of profiles (one, or one named: ``_candidates``), and then no choice
    between weapons (in the fight one weapon besides [EXTRA ATTACKS]; in the shooting
    phase not both Pistols and other weapons, unless ``exempt``)."""
    if any(len(ps) > 1 for ps in options.profiles):
        return False
    apart = [x[0] for x in options.apart]  # [EXTRA ATTACKS] in the fight, else Pistols
    if phase == "fight":
        return sum(not x for x in apart) <= 1
    return exempt or all(apart) or not any(apart)


def lines_of(choice: Choice) -> list[WeaponLine]:
    """The weapon lines of a choice (``Armament.choose``)."""
    return [WeaponLine(name=name, count=n, range=p.range, A=p.A, skill=p.skill, S=p.S,
                       AP=p.AP, D=p.D, abilities=p.abilities)
            for name, p, n in choice]


def weapon_lines(sheet: Datasheet, unit: Loadout, phase: Phase, rules: RulesVersion = "11th",
                 aim: Aim | None = None, profiles: Sequence[str] = (),
                 notes: list[str] | None = None) -> list[WeaponLine]:
    """The weapon lines ``unit`` attacks with in ``phase``; ``NoWeaponsError`` if none.
    A weapon that may not target the target is left out, and ``notes`` says so."""
    aim = aim or Aim()
    return lines_of(armament(sheet, unit, phase, rules, aim.keywords, profiles,
                             notes).choose(aim))


def _carriers(sheet: Datasheet, loadout: Loadout, weapon: Weapon) -> dict[str, int]:
    """Model type -> how many of ``weapon`` its models carry in ``loadout``."""
    out: dict[str, int] = {}
    for g in loadout.models:
        copies = sum(1 for e in g.equipment if name_key(e) == name_key(weapon.name))
        if copies:
            out[g.model] = out.get(g.model, 0) + copies * g.count
    return out


def _pick(sides: Sequence[tuple[Datasheet, Loadout]], spec: str
          ) -> tuple[Datasheet, Loadout, Weapon, WeaponProfile, str]:
    name, _, count_text = spec.partition(":")
    key = name_key(name)
    for sheet, loadout in sides:
        for w in sheet.weapons:
            for p in w.profiles:
                if key in (name_key(w.name), name_key(p.name)):
                    return sheet, loadout, w, p, count_text
    sheet = sides[0][0]
    names = sorted({w.name for s, _ in sides for w in s.weapons})
    raise NoWeaponsError(f"{sheet.name} has no weapon {name.strip()!r}; it has: "
                         + ", ".join(names))


def picked_lines(sides: Sequence[tuple[Datasheet, Loadout]], phase: Phase,
                 specs: Sequence[str], target_keywords: tuple[str, ...] = (),
                 rules: RulesVersion = "11th") -> list[WeaponLine]:
    """Weapon lines picked by hand instead of the loadout's default choice: each spec
    ``NAME`` or ``NAME:COUNT`` names a weapon or a profile ("Grenade launcher – frag") of
    the first of ``sides`` (the unit, then its leaders, as fielded) that has it, fired by
    COUNT of the models that carry it (default: all of them). What the models do not carry
    is refused, and so are more uses than the rules allow: one profile of a weapon at a
    time (the profiles of one weapon share its carriers), one melee weapon per model in
    the fight besides [EXTRA ATTACKS] (24.11), a model's Pistols or its other ranged
    weapons (24.27; MONSTER and VEHICLE fire both)."""
    out: list[WeaponLine] = []
    used: dict[tuple[str, str], int] = {}
    fighting: dict[str, int] = {}
    shooting: dict[tuple[str, bool], int] = {}
    for spec in specs:
        sheet, loadout, w, p, count_text = _pick(sides, spec)
        if p.is_melee != (phase == "fight"):
            kind = "a melee" if p.is_melee else "a ranged"
            raise NoWeaponsError(f"{sheet.name}: {p.name} is {kind} weapon, not for the "
                                 f"{phase} phase")
        carried = sum(_carriers(sheet, loadout, w).values())
        if carried == 0:
            raise NoWeaponsError(f"{sheet.name}: no model carries {w.name} (as fielded: "
                                 + "; ".join(f"{g.count} {g.model}: "
                                             + (", ".join(g.equipment) or "nothing")
                                             for g in loadout.models) + ")")
        left = carried - used.get((sheet.name, w.name), 0)
        count = left
        if count_text.strip():
            text = count_text.strip()
            if not (text.isascii() and text.isdigit() and int(text) >= 1):
                raise NoWeaponsError(f"{spec!r}: COUNT in NAME:COUNT is a whole number from "
                                     f"1 to {carried} (the {w.name}s the models carry)")
            count = int(text)
        if count > left or count == 0:
            raise NoWeaponsError(
                f"{sheet.name}: {count or 'more'} {w.name} asked for; the models carry "
                f"{carried}" + (", and one profile of a weapon attacks at a time"
                                if left < carried else ""))
        used[(sheet.name, w.name)] = carried - left + count
        if not may_target(p, target_keywords):
            assert p.may_target is not None
            raise NoWeaponsError(f"{sheet.name}: {p.name} can only target "
                                 f"{'/'.join(p.may_target.any_of)} units")
        _check_choice(sheet, loadout, p, count, phase, rules, fighting, shooting)
        out.append(WeaponLine(name=p.name, count=count, range=p.range, A=p.A, skill=p.skill,
                              S=p.S, AP=p.AP, D=p.D, abilities=p.abilities))
    return out


def _check_choice(sheet: Datasheet, loadout: Loadout, p: WeaponProfile, count: int,
                  phase: Phase, rules: RulesVersion, fighting: dict[str, int],
                  shooting: dict[tuple[str, bool], int]) -> None:
    """24.11: one melee weapon per model (plus [EXTRA ATTACKS]); 24.27: a model fires its
    Pistols or its other ranged weapons, unless MONSTER or VEHICLE."""
    if phase == "fight":
        if p.has("Extra Attacks"):
            return
        fighting[sheet.name] = fighting.get(sheet.name, 0) + count
        if fighting[sheet.name] > loadout.size:
            raise NoWeaponsError(f"{sheet.name}: each model fights with one melee weapon "
                                 f"(besides Extra Attacks); {fighting[sheet.name]} picked "
                                 f"for {loadout.size} models")
        return
    if any(sheet.has_keyword(k) for k in get_ruleset(rules).pistol_choice_exempt):
        return
    pistol = _is_pistol(p)
    shooting[(sheet.name, pistol)] = max(shooting.get((sheet.name, pistol), 0), count)
    both = shooting.get((sheet.name, True), 0) + shooting.get((sheet.name, False), 0)
    if shooting.get((sheet.name, True)) and shooting.get((sheet.name, False)) and \
            both > loadout.size:
        raise NoWeaponsError(f"{sheet.name}: a model shoots its Pistols or its other ranged "
                             f"weapons, not both; {both} models' worth picked for "
                             f"{loadout.size} models")


def unarmed(refusals: Sequence[NoWeaponsError], loadouts: Sequence[tuple[Datasheet, Loadout]],
            phase: Phase, rules: RulesVersion) -> str:
    """Why a unit cannot attack, naming the field at fault (a ``UnitError``'s message):
    ``phase`` when no model has a weapon of its kind, saying which phase its weapons
    attack in when the other has some (a melee-only unit asked to shoot); else
    ``attacker``."""
    text = "; ".join(str(e) for e in refusals)
    if not refusals or any(e.field != "phase" for e in refusals):
        return f"attacker: {text}"
    other: Phase = "fight" if phase == "shooting" else "shooting"
    for sheet, loadout in loadouts:
        try:
            armament(sheet, loadout, other, rules)
        except NoWeaponsError:
            continue
        kind = "melee" if other == "fight" else "ranged"
        return f"phase: {text}; its {kind} weapons attack in the {other} phase"
    return f"phase: {text}"
