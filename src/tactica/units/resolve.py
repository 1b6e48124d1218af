"""Unit references -> the version-1 scenario the engine reads (scenario contract v2).

An attacker ``UnitRef`` becomes the weapon lines its models fire (``firing``) plus those
of its attached leaders; its own and its leaders' abilities that are named effects (Cult
Demagogue) join the effects when their conditions hold. A target ``UnitRef`` becomes its
model groups (one per stat line), an attached leader a CHARACTER group of its own
(allocated last, 06.01). Every refusal is a ``UnitError`` naming the side and the unit.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from ..cache_registry import LastingMemo, lasting_cache
from ..combat.contract.result import Resolved
from ..combat.contract.scenario import (
    Attacker,
    Context,
    Phase,
    Scenario,
    ScenarioError,
    Target,
    WeaponLine,
)
from ..effects.candidates import ability_effects, apply_candidates
from ..facts import TargetPreset
from ..model.common import RulesVersion, Source
from ..model.datasheet import Datasheet, ModelProfile
from ..model.trusted import constructed
from ..model.wargear import equipment_text
from ..names import UnknownNameError, name_key, suggest
from .abilities import HeldAbilities, apply_held, apply_pending_defences, held_by, judgement
from .defences import Held, stat_line, target_groups
from .editions import edition_note, preset_note
from .firing import Aim, Armament, Choice, NoWeaponsError, armament, lines_of, picked_lines
from .firing import unarmed as why_unarmed
from .leaders import LeaderError, check_leaders, unit_keywords
from .loadout import Loadout, WargearError, field_unit
from .scenario import ScenarioDocument, UnitRef

__all__ = ["FieldedTarget", "UnitError", "UnitLibrary", "preset_target", "resolve",
           "resolve_against", "resolve_attacker", "resolve_target"]


class UnitError(ScenarioError):
    """A unit reference that cannot be fielded; the message starts with the side."""


class UnitLibrary(Protocol):
    """What resolution asks of the library (``Library``, ``SourcedLibrary``)."""

    def datasheet(self, name: str, rules: RulesVersion | None = None) -> Datasheet: ...

    def presets(self) -> tuple[TargetPreset, ...]: ...


@dataclass(slots=True)
class _Side:
    sheet: Datasheet
    loadouts: list[tuple[Datasheet, Loadout]] = field(default_factory=list)
    defaults: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    picked: list[str] = field(default_factory=list)
    #: the target's abilities with parts that wait for the attack (units.abilities)
    pending: list[tuple[Held, tuple[str, ...]]] = field(default_factory=list)
    #: weapon line names by the datasheet whose models fire them
    lines_of: dict[str, tuple[str, ...]] = field(default_factory=dict)

    #: ``texts()``, once the side is complete (a table reuses a fielded side)
    _texts: tuple[str, ...] | None = None
    #: an attacking side's named effects among its abilities (``resolve_against``)
    effects: tuple[str, ...] | None = None
    #: ``_led``'s answers per context (by value), on an attacking side
    contexts: dict[Context, Context] = field(default_factory=dict)
    #: an attacking side's abilities (``abilities.held_by`` of its datasheets), kept
    held: HeldAbilities | None = None

    def texts(self) -> tuple[str, ...]:
        if self._texts is not None:
            return self._texts
        if self.picked:
            return tuple(self.picked)
        out = []
        for s, lo in self.loadouts:
            whose = f" ({s.name})" if s is not self.sheet and s.name != lo.models[0].model else ""
            out += [f"{m.count} {m.model}{whose}: {equipment_text(m.equipment) or 'nothing'}"
                    for m in lo.models]
        return tuple(out)

    def done(self) -> _Side:
        """The side complete (fielded, its lines picked): its texts kept from now on."""
        self._texts = None
        self._texts = self.texts()
        return self


#: A target unit as fielded (``resolve_target``'s second answer), for ``resolve_against``.
FieldedTarget = _Side


def _sheet(lib: UnitLibrary, name: str, rules: RulesVersion, where: str) -> Datasheet:
    try:
        return lib.datasheet(name, rules)
    except UnknownNameError as exc:
        if where == "target.unit":  # a target may be a standard one too ("meq")
            exc = UnknownNameError("unit", name, suggest(
                name, [*(p.name for p in lib.presets()), *exc.suggestions]))
        raise UnitError(f"{where}: {exc}") from None


def _field(ref: UnitRef, lib: UnitLibrary, rules: RulesVersion, where: str) -> _Side:
    sheet = _sheet(lib, ref.unit, rules, f"{where}.unit")
    try:
        own = field_unit(sheet, ref.models, ref.wargear)
    except WargearError as exc:  # the field at fault: models or wargear
        raise UnitError(f"{where}.{exc.field}: {exc}") from None
    side = _Side(sheet, [(sheet, own)], [f"{sheet.name} {d}" for d in own.defaults],
                 [*own.notes])
    leaders = [_sheet(lib, name, rules, f"{where}.led_by") for name in ref.led_by]
    roles: list[str | None] = [None] * len(leaders)
    if ref.support is not None:
        leaders.append(_sheet(lib, ref.support, rules, f"{where}.support"))
        roles.append("support")
    side.notes[:0] = [n for s in (sheet, *leaders) if (n := edition_note(s, rules))]
    try:
        check_leaders(sheet, leaders, roles=roles, rules=rules)
    except LeaderError as exc:
        raise UnitError(f"{where}.led_by: {exc}") from None
    for leader in leaders:
        try:
            fielded = field_unit(leader)
        except WargearError as exc:
            raise UnitError(f"{where}.led_by: {exc}") from None
        side.loadouts.append((leader, fielded))
        side.defaults += [f"{leader.name} {d}" for d in fielded.defaults
                          if not d.startswith("models")]
        side.notes += fielded.notes
    return side


def _own_part(weapon: str, profile: str) -> str | None:
    """The key of a profile's own part of its name, its weapon's name left out
    ("Plasma Incinerator – Supercharge": ``supercharge``), or ``None`` without one."""
    wkey, pkey = name_key(weapon), name_key(profile)
    return pkey[len(wkey):] if pkey.startswith(wkey) and len(pkey) > len(wkey) else None


def _full_profiles(names: tuple[str, ...], side: _Side) -> tuple[str, ...]:
    """The profiles asked for, each by its full name: a profile of a weapon the side's
    models carry, named in full or by its own part ("Supercharge") when only one carried
    weapon has a profile of that name; names compared ignoring case and punctuation.
    Any other name is refused in one line (an ambiguous one with its candidates)."""
    if not names:
        return names
    carried = [(w.name, p.name) for s, lo in side.loadouts for w in s.weapons
               if any(name_key(w.name) == name_key(e) for g in lo.models for e in g.equipment)
               for p in w.profiles]
    full = {name_key(p): p for _, p in carried}
    out = []
    for name in names:
        key = name_key(name)
        found = [full[key]] if key in full else sorted(
            {p for w, p in carried if _own_part(w, p) == key})
        if len(found) > 1:
            raise UnitError(f"attacker.profiles: {name!r} is a profile of several weapons the "
                            f"models carry: {', '.join(found)}; give each one meant by its "
                            f"full name")
        if not found:
            listed = ", ".join(sorted(set(full.values()))) or "none"
            raise UnitError(f"attacker.profiles: no weapon the models carry has a profile "
                            f"{name!r}; the profiles: {listed}")
        out.append(found[0])
    return tuple(out)


@dataclass(slots=True)
class _Armed:
    """An attacker fielded for one phase against targets with given keywords: all of
    ``resolve_attacker`` but the choice of profiles, which the aim's numbers decide
    (``against``). ``answers`` keeps each distinct choice's answer."""

    side: _Side
    #: the hand-picked lines (``UnitRef.weapons``), else each datasheet's armament
    picked: tuple[WeaponLine, ...]
    arms: tuple[Armament, ...]
    keywords: tuple[str, ...]
    abilities: tuple[str, ...]
    answers: dict[tuple[Choice, ...], tuple[Attacker, _Side]] = field(default_factory=dict)
    #: the answer against each aim's numbers (T, Sv, W, invuln, distance); under
    #: ``None`` when no armament has a choice (``Armament.fixed``: the same answer
    #: against every aim)
    by_aim: dict[tuple[int, int, int, int | None, float | None] | None,
                 tuple[Attacker, _Side]] = field(default_factory=dict)
    #: no armament has a choice (worked out from ``arms``)
    aimless: bool = field(init=False)

    def __post_init__(self) -> None:
        self.aimless = all(arm.fixed is not None for arm in self.arms)

    def choices(self, aim: Aim) -> tuple[Choice, ...]:
        return tuple(arm.choose(aim) for arm in self.arms)

    def against(self, aim: Aim) -> tuple[Attacker, _Side]:
        """The answer against ``aim`` (its keywords are the armament's), kept: once per
        aim's numbers (once for all of them when nothing is chosen), built once per
        distinct choice."""
        numbers = None if self.aimless else (aim.T, aim.Sv, aim.W, aim.invuln,
                                             aim.distance)
        out = self.by_aim.get(numbers)
        if out is None:
            chosen = self.choices(aim)
            ckey = chosen  # by value (a profile's hash is worked out once)
            out = self.answers.get(ckey)
            if out is None:
                out = self.answers[ckey] = self.answer(chosen)
            self.by_aim[numbers] = out
        return out

    def answer(self, chosen: tuple[Choice, ...]) -> tuple[Attacker, _Side]:
        """The attacker firing ``chosen`` (``choices``), and its side."""
        lines = list(self.picked)
        side = replace(self.side, lines_of={}, contexts={})
        for arm, choice in zip(self.arms, chosen, strict=True):
            mine = lines_of(choice)
            side.lines_of[arm.sheet.name] = tuple(line.name for line in mine)
            lines += mine
            if weighed := arm.weighed(choice):  # a cost counted: say so (its own list)
                side.notes = [*side.notes, *weighed]
        try:
            attacker = Attacker(name=side.sheet.name, keywords=self.keywords,
                                weapons=tuple(lines), abilities=self.abilities)
        except ValueError as exc:
            raise UnitError(f"attacker: {side.sheet.name}: {exc}") from None
        return attacker, side


def _armed(ref: UnitRef, lib: UnitLibrary, rules: RulesVersion, phase: Phase,
           keywords: tuple[str, ...]) -> _Armed:
    """The attacker fielded for ``phase`` against a target with ``keywords``."""
    side = _field(ref, lib, rules, "attacker")
    picked: list[WeaponLine] = []
    if ref.weapons:
        try:
            picked = picked_lines(side.loadouts, phase, ref.weapons, keywords, rules)
        except NoWeaponsError as exc:
            raise UnitError(f"attacker.weapons: {exc}") from None
        side.defaults = [d for d in side.defaults if "wargear" not in d]
        side.picked = [f"{line.count} x {line.name} (picked by hand)" for line in picked]
    profiles = _full_profiles(ref.profiles, side)
    arms = []
    refusals: list[NoWeaponsError] = []
    for sheet, loadout in side.loadouts if not ref.weapons else ():
        try:
            arms.append(armament(sheet, loadout, phase, rules, keywords, profiles,
                                 side.notes))
        except NoWeaponsError as exc:
            refusals.append(exc)
    if not picked and not arms:
        raise UnitError(why_unarmed(refusals, side.loadouts, phase, rules))
    keywords = unit_keywords(s for s, _ in side.loadouts)
    abilities = tuple(dict.fromkeys(str(a) for s, _ in side.loadouts for a in s.abilities))
    return _Armed(side, tuple(picked), tuple(arms), keywords, abilities)


def resolve_attacker(ref: UnitRef, lib: UnitLibrary, rules: RulesVersion, phase: Phase,
                     aim: Aim | None = None) -> tuple[Attacker, _Side]:
    """The attacker's weapon lines: its models' and its leaders'."""
    aim = aim or Aim()
    armed = _armed(ref, lib, rules, phase, aim.keywords)
    return armed.answer(armed.choices(aim))


def _profile(sheet: Datasheet, name: str) -> ModelProfile:
    found = stat_line(sheet, name)
    if found is None:
        raise UnitError(f"target: {sheet.name}: the data gives no stat line for its "
                        f"{name} models")
    return found


def resolve_target(ref: UnitRef, lib: UnitLibrary, rules: RulesVersion,
                   phase: Phase = "shooting") -> tuple[Target, _Side]:
    """The target's model groups; an attached leader's are CHARACTER groups. A standard
    target's name (``meq``) is the unit it names at its model count, fielded from that
    unit's datasheet (``preset_target``)."""
    preset = next((p for p in lib.presets() if name_key(p.name) == name_key(ref.unit)), None)
    if preset is None:
        side = _field(ref, lib, rules, "target")
        return _target(side, phase), side
    plain = not ref.wargear and not ref.led_by and ref.support is None
    sheet = _stand_in(preset, lib, rules)
    notes = [n for n in (preset_note(preset, rules),) if n]
    if sheet is not None:
        count = preset.models if ref.models is None else ref.models
        try:
            side = _field(ref.model_copy(update={"unit": sheet.name, "models": count}),
                          lib, rules, "target")
        except UnitError as exc:
            if not plain or ref.models is None:
                raise
            notes.append(_odd_size_note(preset, str(exc).partition(": ")[2]))
        else:
            return _target(side, phase), side
    if not plain:  # the unit's wargear and leaders need its datasheet
        side = _field(ref, lib, rules, "target")
        return _target(side, phase), side
    target = preset.to_target(ref.models, phase)
    return target, _Side(Datasheet(name=target.name, rules=rules,
                                   source=Source(file="target presets")), notes=notes)


def _odd_size_note(preset: TargetPreset, why: str) -> str:
    """The note of a preset at a size its unit is not fielded at (``geq`` at 5 models)."""
    return (f"{preset.name}: {why}: the preset's own stat line, the unit's defences, is "
            f"used at that size (the unit's other abilities left out)")


def _stand_in(preset: TargetPreset, lib: UnitLibrary,
              rules: RulesVersion | None) -> Datasheet | None:
    """The datasheet of the unit ``preset`` names, or ``None`` when the library has no
    such unit (then the preset's own data stands in for it)."""
    try:
        return lib.datasheet(preset.unit, rules)
    except UnknownNameError:  # a unit every source rejected, too
        return None


def preset_target(preset: TargetPreset, lib: UnitLibrary, models: int | None = None,
                  rules: RulesVersion | None = None, phase: Phase = "shooting") -> Target:
    """The standard target ``preset`` (``meq``): the unit it names, at the preset's model
    count unless ``models`` is given, exactly as the library fields that unit by its name
    (``sheet_target``: every defensive characteristic, an invulnerable save against
    ranged attacks only included, is the datasheet's). A library without that unit (the
    seed pages alone) gets the preset's data (``TargetPreset.to_target``), which the tests
    check against the unit, and so does a size the unit is not fielded at (``geq`` at 5
    models: ``resolve_target`` notes it)."""
    sheet = _stand_in(preset, lib, rules)
    if sheet is not None:
        try:
            return sheet_target(sheet, preset.models if models is None else models, phase)
        except UnitError:
            if models is None:
                raise
    return preset.to_target(models, phase)  # as above: a size its unit is not fielded at


def _target(side: _Side, phase: Phase) -> Target:
    keywords = unit_keywords(s for s, _ in side.loadouts)
    try:
        fielded = target_groups(side.loadouts, side.sheet, phase, keywords)
    except LookupError as exc:
        raise UnitError(f"target: {exc}") from None
    side.pending = fielded.pending
    held = {name_key(h.ability.name) for h in fielded.held}
    demise = side.sheet.ability("Deadly Demise")
    try:
        target = Target(name=side.sheet.name, keywords=keywords, models=tuple(fielded.groups),
                        abilities=tuple(dict.fromkeys(str(a) for s, _ in side.loadouts
                                                      for a in s.abilities
                                                      if name_key(a.name) not in held)),
                        damage_reduction=min(6, fielded.damage_reduction),
                        rules_applied=tuple(fielded.applied),
                        rules_not_applied=tuple(fielded.not_applied),
                        deadly_demise=demise.parameter if demise is not None else None)
    except ValueError as exc:
        raise UnitError(f"target: {side.sheet.name}: {exc}") from None
    return target


def sheet_target(sheet: Datasheet, models: int | None = None,
                 phase: Phase = "shooting") -> Target:
    """The target ``sheet`` fields at ``models`` models with its default loadout (what
    ``Library.target`` answers). Raises ``UnitError`` (a ``ValueError``) without the side's
    prefix."""
    try:
        own = field_unit(sheet, models)
    except WargearError as exc:
        raise UnitError(str(exc)) from None
    try:
        return _target(_Side(sheet, [(sheet, own)]), phase)
    except UnitError as exc:
        raise UnitError(str(exc).removeprefix("target: ")) from None


@lasting_cache(maxsize=1024)
def _aim(target: Target, distance: float | None = None) -> Aim:
    """What the attacker's profiles are judged against (``aim_of``), cached by the
    target's value (its hash worked out once)."""
    g = next((g for g in target.models if not g.character), target.models[0])
    return Aim(T=g.T, Sv=g.Sv, W=g.W, invuln=g.invuln, keywords=target.keywords,
               distance=distance)


#: The attackers as ``resolve`` fields them (it changes neither part of an answer),
#: cached by value: the reference's field values, rules, phase, restricting keywords of
#: the target and the datasheets its names are in the library (all ``_armed`` reads of
#: the library): the attacker armed, or why it cannot be (``UnitError``'s message). The
#: weapon lines depend on the target only through its ``Aim``, and on the aim's numbers
#: only through the choice of profiles: a table of many matchups fields each attacker
#: once per phase and builds its lines once per distinct choice.
_attackers: LastingMemo[tuple[object, ...], _Armed | str] = LastingMemo(4096)


def _sheets_of(ref: UnitRef, lib: UnitLibrary, rules: RulesVersion
               ) -> tuple[Datasheet, ...] | None:
    """The datasheets of the unit, its leaders and its support, or ``None`` when a name
    cannot be found (the attacker's resolution then says why)."""
    names = (ref.unit, *ref.led_by, *((ref.support,) if ref.support else ()))
    try:
        return tuple(lib.datasheet(n, rules) for n in names)
    except (UnknownNameError, ValueError, LookupError):
        return None


@lasting_cache(maxsize=4096)
def _restricting(sheets: tuple[Datasheet, ...]) -> frozenset[str]:
    """The keywords some weapon of the unit or of its leaders may only (or may not)
    target (``conditions.may_target``)."""
    return frozenset(k for s in sheets for w in s.weapons for p in w.profiles
                     if p.may_target is not None
                     for k in (*p.may_target.any_of, *p.may_target.none_of))


def _attacker(ref: UnitRef, lib: UnitLibrary, rules: RulesVersion, phase: Phase, aim: Aim
              ) -> tuple[Attacker, _Side]:
    """``resolve_attacker``, its answer cached (``_attackers``). The target's keywords
    reach the weapon lines only through ``may_target`` (which keywords a weapon may or
    may not target): the aim is a key with those of its keywords alone; its numbers
    reach them only through the profiles chosen: targets alike in both share the answer
    (the same weapon lines, the same notes)."""
    sheets = _sheets_of(ref, lib, rules)
    words = _restricting(sheets) if sheets is not None else frozenset()
    keywords = tuple(k for k in aim.keywords if k.upper() in words) if words else ()

    def made() -> _Armed | str:
        try:
            armed = _armed(ref, lib, rules, phase, keywords)
        except UnitError as exc:
            return str(exc)
        armed.side.done()
        return armed

    if sheets is None:  # a name the library does not know: refused, nothing cached
        armed = made()
    else:
        # the reference by its fields' values (a tuple compares in C; the model's own
        # ``__eq__`` costs microseconds, and every matchup of a table looks it up)
        armed = _attackers.cached((tuple(ref.__dict__.values()), rules, phase, keywords,
                                   sheets), made)
    if isinstance(armed, str):
        raise UnitError(armed)
    return armed.against(aim)  # the choice reads the aim's numbers only


def _led(context: Context, side: _Side) -> Context:
    """``context`` with the attacking unit's leaders and its Toughness (cached per
    context's value on a side cached by ``_attacker``: a table asks for the same again
    and again)."""
    led = side.contexts.get(context)
    if led is None:
        leaders = tuple(s.name for s, _ in side.loadouts[1:])
        update: dict[str, object] = {
            "led_by": tuple(dict.fromkeys((*context.led_by, *leaders)))}
        if context.attacker_toughness is None:
            update["attacker_toughness"] = next(
                (m.T for m in side.sheet.models if m.T is not None), None)
        led = context.model_copy(update=update)
        if len(side.contexts) >= 64:
            side.contexts.clear()
        side.contexts[context] = led
    return led


def resolve(doc: ScenarioDocument, lib: UnitLibrary) -> tuple[Scenario, Resolved, list[str]]:
    """The version-1 scenario of ``doc``, what its units resolved into, and notes."""
    target = doc.target
    if isinstance(target, UnitRef):
        return resolve_against(doc, lib, *resolve_target(target, lib, doc.rules, doc.phase))
    return resolve_against(doc, lib, target, None)


#: The scenario's fields ``resolve_against`` takes from the document as they are.
_DOC_FIELDS = tuple(k for k in Scenario.model_fields if k not in ("attacker", "target",
                                                                  "context"))
def _doc_fields(doc: ScenarioDocument) -> dict[str, Any]:
    """The document's ``_DOC_FIELDS`` (made afresh: cheaper than hashing the document
    as a key)."""
    values = doc.__dict__
    return {k: values[k] for k in _DOC_FIELDS}


def resolve_against(doc: ScenarioDocument, lib: UnitLibrary, target: Target,
                    tside: _Side | None) -> tuple[Scenario, Resolved, list[str]]:
    """``resolve`` with the target fielded already (``resolve_target``'s answer, its side
    ``None`` for a target given as model groups): a table of many matchups fields each
    target once. ``doc.target`` is not read."""
    scenario, aside, more = _against(doc, lib, target, tside)
    notes: list[str] = []
    resolved: dict[str, tuple[str, ...]] = {"defaults": ()}
    if tside is not None:
        resolved.update(target_models=tside.texts(), defaults=tuple(tside.defaults))
        notes += tside.notes
    if aside is not None:
        resolved.update(attacker_models=aside.texts(),
                        defaults=(*aside.defaults, *resolved["defaults"]))
        notes += aside.notes
    # built from parts valid already (the fielded units' tuples; the texts, tuples of
    # strings): constructed, not validated again
    return scenario, constructed(Resolved, {
        "attacker": scenario.attacker.weapons, "target": scenario.target.models,
        "attacker_models": resolved.get("attacker_models", ()),
        "target_models": resolved.get("target_models", ()),
        "defaults": resolved["defaults"]}), notes + more


def scenario_against(doc: ScenarioDocument, lib: UnitLibrary, target: Target,
                     tside: _Side | None) -> Scenario:
    """``resolve_against``'s scenario alone (what a table of many matchups computes:
    the same scenario, without the texts that say what the units resolved into)."""
    return _against(doc, lib, target, tside)[0]


def _against(doc: ScenarioDocument, lib: UnitLibrary, target: Target, tside: _Side | None
             ) -> tuple[Scenario, _Side | None, list[str]]:
    """``resolve_against``'s scenario, the attacker's side (``None`` for an attacker
    given as weapon lines) and the notes of the abilities applied by name."""
    notes: list[str] = []
    aside: _Side | None = None
    attacker = doc.attacker
    context = doc.context
    abilities: tuple[str, ...] = ()
    if isinstance(attacker, UnitRef):
        attacker, aside = _attacker(attacker, lib, doc.rules, doc.phase,
                                    _aim(target, context.distance))
        context = _led(context, aside)
        if aside.effects is None:
            named = ability_effects(aside.sheet)
            for s, _ in aside.loadouts[1:]:
                named += ability_effects(s, damaged=False)
            aside.effects = tuple(named)
        abilities = aside.effects
    data = {**_doc_fields(doc), "attacker": attacker, "target": target, "context": context}
    held, lines = (None, None) if aside is None else (_held_of(aside), aside.lines_of)
    if held is not None and not abilities and held.names:
        # the abilities judged before the scenario is made (from its parts: the plain
        # scenario only when they are judged afresh), so it is made once, with them
        judged, added = judgement(held, doc.phase, attacker, context, target, lines,
                                  lambda: Scenario.trusted(data))
        # made from parts valid already: only the checks of them together run (24.14)
        scenario = Scenario.trusted({**data, "attacker": judged,
                                     "effects": (*data["effects"], *added)})
    else:
        scenario = Scenario.trusted(data)
        if abilities:
            scenario, notes = apply_candidates(scenario, list(abilities), "ability",
                                               report_skipped=False)
        if held is not None:
            scenario = apply_held(scenario, held, lines)
    if tside is not None:
        scenario = apply_pending_defences(scenario, tside.pending)
    return scenario, aside, notes


def _held_of(side: _Side) -> HeldAbilities:
    """The attacking side's abilities (``held_by`` of its datasheets), kept on it."""
    if side.held is None:
        side.held = held_by([s for s, _ in side.loadouts])
    return side.held


def aim_for(ref: UnitRef, lib: UnitLibrary, rules: RulesVersion,
            phase: Phase = "shooting", distance: float | None = None) -> Aim | None:
    """What an attacker's default profiles are judged against when it attacks the unit
    ``ref`` names (fielded as the calculator fields it) ``distance`` inches away, or
    ``None`` when that unit cannot be fielded (the calculator then refuses the target
    with its own reason)."""
    try:
        found, _ = resolve_target(ref, lib, rules, phase)
    except (UnitError, ValueError, LookupError):
        return None
    return aim_of(found, distance)


def aim_of(target: Target, distance: float | None = None) -> Aim:
    """What an attacker's default profiles are judged against when it attacks ``target``
    (its first non-CHARACTER model group) ``distance`` inches away, as ``resolve``
    judges them."""
    return _aim(target, distance)
