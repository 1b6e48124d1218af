"""From list to maths: a unit as built in an army list, as the calculator's attacker.

``list_attacker(roster, name, library, phase)`` finds the unit (by name, ``NAME#2`` for
the second of that name, or its id ``u3``) and builds:

* weapon lines from its wargear (model entries and unit items) matched to the
  datasheet's weapons by name. Items that are no weapon of the datasheet (a Cult Icon) are
  named in the notes. Shooting: a model fires its non-Pistol ranged weapons, and its Pistol
  only if it has no other ranged weapon, as each model can shoot either (24.27 Pistol; a
  MONSTER or VEHICLE fires both). Fight: each model fights with one melee weapon of its
  items, plus its Extra Attacks weapons (24.11).
* the attached leader and support units (24.22): their weapons join the unit's (the
  attached unit attacks as one), their names go into ``led_by``, and their abilities that
  are named effects (Cult Demagogue) become candidate effects;
* enhancements on the unit or its leaders, and the detachment rules of the army's
  detachments, as candidate named effects (``tactica.effects``).

``apply_list_effects(scenario, candidates)`` adds each candidate whose conditions the
scenario meets and explains the others (A Perfect Ambush needs the unit to have arrived
from Reserves: ``--arrived``), so a list never makes the calculation fail. Detachment
rules whose trigger a scenario cannot state (``SITUATIONAL``: Integrated Tactics needs a
target picked by an ASTRA MILITARUM unit) are explained, not applied.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..combat.contract.scenario import Attacker, Scenario, WeaponLine
from ..library import Library
from ..model.common import RulesVersion
from ..model.datasheet import Datasheet, Weapon
from ..names import UnknownNameError, name_key, suggest
from ..units.editions import edition_note
from ..units.firing import Aim, NoWeaponsError, weapon_lines
from ..units.leaders import check_leaders, unit_keywords
from ..units.loadout import FieldedModels, Loadout, WargearError, field_unit
from .listed_wargear import enhancements_listed_as_wargear, read_as_enhancements
from .roster import Roster, RosterUnit, WargearItem

__all__ = ["SITUATIONAL", "ListAttacker", "apply_list_effects", "find_unit", "list_attacker",
           "unit_abilities", "with_unit_rules"]

#: Detachment rules whose trigger the scenario cannot state: they are not applied from a
#: list, only named (``--effect``) by a player who knows they apply.
SITUATIONAL: dict[str, str] = {
    "Integrated Tactics": "only against the enemy unit an ASTRA MILITARUM unit picked",
    "Psionic Parasitism": "only for the TYRANIDS unit that fed this turn",
}


@dataclass(frozen=True)
class ListAttacker:
    """The attacking unit as built: the ``Attacker``, its datasheet, the leaders attached
    (``led_by``), the named effects the list suggests (``candidates``) and notes."""

    attacker: Attacker
    sheet: Datasheet
    unit: RosterUnit
    led_by: tuple[str, ...]
    candidates: tuple[str, ...]
    notes: tuple[str, ...]
    army_faction: str | None
    detachment: str | None
    #: candidates applied only when named: what each assumes (``SITUATIONAL`` and the
    #: dataset rules whose trigger a scenario cannot state)
    situational: dict[str, str] | None = None


def find_unit(roster: Roster, name: str) -> tuple[RosterUnit, list[str]]:
    """The unit called ``name`` ("NAME#N" picks the N-th of that name; a unit id works
    too). Raises ``UnknownNameError`` with the list's unit names as suggestions."""
    notes: list[str] = []
    match = re.match(r"^(.*?)\s*#\s*(\d+)$", name)
    base, nth = (match.group(1), int(match.group(2))) if match else (name, None)
    if any(u.id == name for u in roster.units):
        return roster.unit(name), notes
    found = [u for u in roster.units if name_key(u.name) == name_key(base)]
    if not found:
        raise UnknownNameError("unit in the list", name,
                               suggest(name, [u.name for u in roster.units]))
    if nth is not None:
        if not 1 <= nth <= len(found):
            raise UnknownNameError("unit in the list", name,
                                   [f"{base}#{i}" for i in range(1, len(found) + 1)])
        return found[nth - 1], notes
    if len(found) > 1:
        notes.append(f"the list has {len(found)} {found[0].name} units; using the first "
                     f"({found[0].id}); pick another with \"{found[0].name}#2\"")
    return found[0], notes


def _weapon(sheet: Datasheet, item: str, melee: bool | None = None) -> Weapon | None:
    """The datasheet's weapon called ``item``; of two of that name (the Avatar of
    Khaine's ranged and melee The Wailing Doom), the one with a profile of the phase."""
    key = name_key(item)
    found = [w for w in sheet.weapons if name_key(w.name) == key
             or name_key(w.name).rstrip("s") == key.rstrip("s")]
    of_phase = [w for w in found if any(p.is_melee == melee for p in w.profiles)]
    chosen = of_phase or found
    return chosen[0] if chosen else None


def _models(sheet: Datasheet, count: int, items: tuple[WargearItem, ...],
            notes: list[str]) -> list[FieldedModels]:
    """``count`` models sharing ``items`` as models: a list gives the group's totals
    ("15x Hybrid firearm, 2x Mining laser, 2x Seismic cannon"), not who carries what, so
    an item most models have is given to the first models and each rarer one to the next
    models from the last back (the heavy weapons to the models whose guns they replaced);
    extra copies go round again."""
    weapons: list[tuple[str, int]] = []
    for item in items:
        weapon = _weapon(sheet, item.name)
        if weapon is None:
            notes.append(f"{item.name}: not a weapon of {sheet.name}'s datasheet")
        else:
            weapons.append((weapon.name, item.count))
    held: list[list[str]] = [[] for _ in range(count)]
    end = count  # rare items fill the models from the last one back, one after another
    for name, c in weapons:
        for k in range(count):
            held[k] += [name] * (c // count)
        rest = c % count
        if 2 * rest >= count:
            seats = range(rest)
        else:
            seats = range(end - rest, end) if end - rest >= 0 else range(count - rest, count)
            end = seats.start
        for k in seats:
            held[k].append(name)
    per_model = [tuple(h) for h in held]
    merged: dict[tuple[str, ...], int] = {}
    for kit in per_model:
        merged[kit] = merged.get(kit, 0) + 1
    return [FieldedModels(model=sheet.name, profile=sheet.models[0].name if sheet.models
                          else sheet.name, count=n, equipment=kit)
            for kit, n in merged.items()]


def _unit_lines(sheet: Datasheet, unit: RosterUnit, phase: str, suffix: str,
                notes: list[str], aim: Aim | None = None) -> list[WeaponLine]:
    """The weapon lines of ``unit`` as the units core fires a library unit
    (``tactica.units.weapon_lines``: Pistols or the other guns, one melee weapon plus
    Extra Attacks, the best profile): its list wargear as its models' equipment, or,
    with none in the list, the datasheet's default loadout at the list's size."""
    if not unit.all_wargear():
        try:
            loadout = field_unit(sheet, unit.models)
        except WargearError:
            loadout = field_unit(sheet)
        notes.append(f"{sheet.name}: no wargear in the list; the datasheet's default loadout")
    else:
        groups: list[FieldedModels] = []
        if unit.wargear:
            rest = unit.models - sum(e.count for e in unit.model_entries)
            groups += _models(sheet, max(rest, 1), unit.wargear, notes)
        for entry in unit.model_entries:
            groups += _models(sheet, entry.count, entry.wargear, notes)
        if not groups:
            return []
        loadout = Loadout(unit=sheet.name, models=tuple(groups))
    try:
        lines = weapon_lines(sheet, loadout, "fight" if phase == "fight" else "shooting",
                             sheet.rules, aim=aim,
                             notes=notes)
    except NoWeaponsError:
        return []
    return [line.model_copy(update={"name": line.name + suffix}) for line in lines]


def _firing_deck(roster: Roster, transport: RosterUnit, sheet: Datasheet, library: Library,
                 attacker: Attacker, notes: list[str]) -> tuple[Attacker, list[str]]:
    """24.14 Firing Deck: the units the list embarks in the transport add their ranged
    weapons (as the list equips them) to its attack, up to X models' worth; their
    enhancements (Cartographic Data-leech) become candidate effects."""
    from .firing_deck import firing_deck_size, with_firing_deck

    passengers = roster.embarked(transport.id)
    if not passengers:
        return attacker, []
    x = firing_deck_size(sheet)
    candidates: list[str] = []
    for unit in passengers:
        psheet = library.datasheet(unit.name, roster.rules)
        lines = _unit_lines(psheet, unit, "shooting", "", notes)
        candidates += [e.name for e in unit.enhancements]
        for leader in roster.attached(unit.id):
            candidates += [e.name for e in leader.enhancements]
        room = x - sum(w.count for w in attacker.weapons if w.firing_deck)
        if room <= 0 or not lines:
            notes.append(f"{psheet.name}: no room or no ranged weapon for the Firing Deck")
            continue
        try:
            attacker, more = with_firing_deck(attacker, room, psheet.name, tuple(lines))
        except ValueError as exc:
            notes.append(str(exc))
            continue
        notes.extend(more)
        attacker = attacker.model_copy(update={"firing_deck": x})
    return attacker, candidates


def list_attacker(roster: Roster, name: str, library: Library, phase: str,
                  aim: Aim | None = None) -> ListAttacker:
    """The unit ``name`` of ``roster`` as an attacker (module text), each weapon's profile
    picked against ``aim`` (the target, ``tactica.units.aim_for``) as the calculator picks
    a library unit's; without one, against the rule set's default. Raises
    ``UnknownNameError`` for a unit not in the list or not in the library, and
    ``ValueError`` when it has no weapon for the phase."""
    from ..effects import list_effects
    from ..effects.candidates import ability_effects

    listed = enhancements_listed_as_wargear(roster, library)  # as price and validate
    roster = read_as_enhancements(roster, listed)
    unit, notes = find_unit(roster, name)
    notes += [f"{item}: listed as wargear, read as the {det} enhancement"
              for uid, item, det in listed if uid in (unit.id, unit.attached_to)]
    if unit.attached_to is not None:
        body = roster.unit(unit.attached_to)
        notes.append(f"{unit.name} is attached to {body.name}: the attached unit attacks")
        unit = body
    sheet = library.datasheet(unit.name, roster.rules)
    lines = _unit_lines(sheet, unit, phase, "", notes, aim)
    led_by: list[str] = []
    candidates: list[str] = []
    bearers = [unit]
    attached = [(leader, library.datasheet(leader.name, roster.rules))
                for leader in roster.attached(unit.id)]
    notes += [n for s in (sheet, *(s for _, s in attached))
              if (n := edition_note(s, roster.rules))]
    check_leaders(sheet, [s for _, s in attached],  # LeaderError, a ValueError
                  roles=[u.attach_role for u, _ in attached], rules=roster.rules)
    for leader, lsheet in attached:
        led_by.append(lsheet.name)
        bearers.append(leader)
        lines += _unit_lines(lsheet, leader, phase, f" ({lsheet.name})", notes, aim)
        candidates += ability_effects(lsheet, damaged=False)
    for bearer in bearers:
        candidates += [e.name for e in bearer.enhancements]
    for detachment in roster.detachments:
        candidates += [e.name for e in list_effects(detachment=detachment)
                       if e.kind == "detachment rule"]
    situational = _dataset_rules(roster, candidates)
    if not lines:
        what = "melee" if phase == "fight" else "ranged"
        raise ValueError(f"{unit.name} has no {what} weapon in the list")
    rules = [str(a) for a in sheet.abilities]
    for leader in roster.attached(unit.id):
        rules += [str(a) for a in library.datasheet(leader.name, roster.rules).abilities]
    keywords = unit_keywords((sheet, *(s for _, s in attached)))
    attacker = Attacker(name=unit.name, keywords=keywords,
                        weapons=tuple(lines), abilities=tuple(dict.fromkeys(rules)))
    if phase == "shooting" and sheet.ability("Firing Deck") is not None:
        attacker, more = _firing_deck(roster, unit, sheet, library, attacker, notes)
        candidates += more
    return ListAttacker(attacker=attacker, sheet=sheet, unit=unit, led_by=tuple(led_by),
                        candidates=tuple(dict.fromkeys(candidates)), notes=tuple(notes),
                        army_faction=roster.faction,
                        detachment=roster.detachments[0] if roster.detachments else None,
                        situational=situational)


def _dataset_rules(roster: Roster, candidates: list[str]) -> dict[str, str]:
    """Every faction's rules (issue 16): add the dataset detachment rules of the list's
    detachments and its faction's army rules to ``candidates``; those that assume what a
    scenario cannot state are returned as situational (name: why)."""
    from ..effects import dataset_effects

    data = dataset_effects()
    if data is None:
        return {}
    faction = roster.faction
    if faction is not None:
        from ..loaders.wh40kdc import embedded_dataset

        faction = embedded_dataset().faction(faction) or faction
    from ..effects import UnknownEffectError, find_effect

    out: dict[str, str] = {}
    for name, assumed in data.list_rules(faction, roster.detachments).items():
        try:
            effect, _ = find_effect(name, roster.rules)
        except UnknownEffectError:
            continue
        if getattr(effect.apply, "status", None) is None:
            continue  # a seed rule of that name: the seed page is authoritative
        if name not in candidates:
            candidates.append(name)
        if assumed:
            out[name] = "it assumes " + "; ".join(assumed)
    return out


def apply_list_effects(scenario: Scenario, candidates: tuple[str, ...],
                       situational: dict[str, str] | None = None
                       ) -> tuple[Scenario, list[str]]:
    """``scenario`` with every candidate effect whose conditions hold; a note for each
    other one (not a combat rule, a condition that needs context, or a ``situational``
    rule a scenario cannot state)."""
    from ..effects.candidates import apply_candidates

    chosen = {name_key(d) for d in scenario.context.designated or ()}
    pending = {k: v for k, v in (situational or {}).items() if name_key(k) not in chosen}
    return apply_candidates(scenario, candidates, "from the list", {**SITUATIONAL, **pending})


def unit_abilities(sheet: Datasheet, leaders: tuple[str, ...] | list[str], library: Library,
                   rules: RulesVersion | None = None
                   ) -> tuple[list[str], list[Datasheet], list[str]]:
    """The named effects among the abilities of a unit and its attached ``leaders``
    (24.22: the attached unit attacks as one; a leader's Damaged profile is its own), their
    datasheets, and a note for each leader the library does not have."""
    from ..effects.candidates import ability_effects

    own, sheets, notes = ability_effects(sheet), [sheet], []
    for leader in leaders:
        try:
            found = library.datasheet(leader, rules)
        except LookupError:
            notes.append(f"leader {leader!r} is not in the library: its abilities are not "
                         "applied")
            continue
        sheets.append(found)
        own += ability_effects(found, damaged=False)
    return list(dict.fromkeys(own)), sheets, notes


def with_unit_rules(scenario: Scenario, abilities: tuple[str, ...] | list[str],
                    sheets: tuple[Datasheet, ...] | list[Datasheet],
                    candidates: tuple[str, ...] = (),
                    situational: dict[str, str] | None = None, pending: tuple[Any, ...] = ()
                    ) -> tuple[Scenario, list[str]]:
    """``scenario`` with the attacker's own rules, in the one order every door uses: its
    abilities that are named effects (those that apply: an ability is not a choice), the
    abilities the engine models from its datasheets, the target's defences that wait for
    the attacker (``pending``), then the list's candidates (enhancements, detachment
    rules: ``apply_list_effects``)."""
    from ..effects.candidates import apply_candidates
    from ..units.abilities import apply_attacker_abilities, apply_pending_defences

    notes: list[str] = []
    if abilities:
        scenario, more = apply_candidates(scenario, tuple(abilities), "ability",
                                          report_skipped=False)
        notes += more
    scenario = apply_attacker_abilities(scenario, list(sheets))
    if pending:
        scenario = apply_pending_defences(scenario, list(pending))
    scenario, more = apply_list_effects(scenario, tuple(candidates), situational)
    return scenario, notes + more
