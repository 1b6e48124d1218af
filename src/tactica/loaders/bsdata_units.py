"""One BattleScribe root entry (a unit or a single-model unit) -> a ``Datasheet``.

The conversion reads the entry the way the 11e catalogues are built (Genestealer Cults,
Library - Tyranids, Unaligned Forces, battleScribeVersion 2.03):

* Profiles by ``typeName``: ``Unit`` (M, T, Sv, W, LD, OC, InSv), ``Ranged Weapons`` /
  ``Melee Weapons`` (Range, A, BS/WS, S, AP, D, Keywords), ``Abilities`` (Description),
  ``Transport`` (Capacity). Values are text: ``6"``, ``5+``, ``N/A``, ``-``.
* Composition: model entries (``type: model``) below the unit, counted by the nearest
  enclosing group with ``min``/``max`` selection constraints ("9-19 Neophyte Hybrids"),
  else by their own constraints ("Neophyte Leader" 1-1). A root entry of type ``model``
  is a one-model unit. Each composition line gets a stat line of its own name.
* Weapons: every weapon profile below the unit (Crusade and enhancement groups skipped,
  see ``bsdata_files.SKIPPED_GROUPS``). A multi-profile weapon's profiles are written
  ``➤ Grenade launcher - frag``; they become ``Grenade launcher – frag`` like the seed
  pages. Keywords are rulebook words, parsed with ``parse_weapon_ability``.
* Abilities: ``Abilities`` profiles of the unit (``unit``) or of its wargear
  (``wargear``); rules of the unit and its models from the game system (``core``: "Deep
  Strike", "Deadly Demise" + "D3") or a catalogue (``faction``). The ``Leader`` profile
  lists the units it can lead ("- **^^Acolyte Hybrids^^**"); ``Damaged: 1-8 Wounds
  Remaining`` profiles become the damaged threshold.
* Points: the entry's ``pts`` cost, model entries' ``pts`` costs times their number, and
  the ``pts`` modifiers whose conditions count the unit's models ("set 145 when more than
  10 models"), evaluated for every allowed size. The increment whose local condition counts
  earlier units of the same entry in the force ("at least 2 before this one") is the
  escalating cost of 11th edition: those units (the 3rd on) pay more. Other points
  modifiers depend on the roster (Boarding Actions, Incursion) and are reported.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from ..dice import DiceError
from ..model.abilities import UnknownAbilityError, parse_weapon_ability
from ..model.common import RulesVersion, Source
from ..model.datasheet import (
    Ability,
    CompositionLine,
    DamagedProfile,
    Datasheet,
    EscalatingPoints,
    ModelProfile,
    PointsBracket,
    TransportCapacity,
    Weapon,
    WeaponProfile,
)
from ..names import name_key
from .bsdata_files import BSFile, BSIndex, Missing, Node, text_of
from .bsdata_points import PointsReader
from .bsdata_wargear import read_wargear
from .report import (
    IssueLog,
    UnitRejected,
    UnitReport,
    build,
    core_ability,
    dice,
    model_profile,
    weapon_abilities,
    weapon_profile,
)

__all__ = ["UnitConverter", "plain", "unit_name"]

Raw = Mapping[str, Any]
LeaderResolver = Callable[[str], tuple[str, ...]]

_WEAPON_TYPES = {"Ranged Weapons": False, "Melee Weapons": True}
_SKIPPED_CATEGORIES = frozenset({"Leader", "Reference", "Crucible"})
_SKILL = re.compile(r"^([2-6])\+$")
_BARE_SKILL = re.compile(r"^([2-6])$")
_INT = re.compile(r"^[+-]?\d+$")
_RANGE = re.compile(r'^(\d+)\s*(?:"|”|in)?$')
_DAMAGED = re.compile(r"^damaged:?\s*(\d+)\s*[-–]\s*(\d+)\s+wounds? remaining", re.IGNORECASE)
_LEGENDS = re.compile(r"\s*\[legends\]\s*$", re.IGNORECASE)


def plain(text: str) -> str:
    """Rules text without the BattleScribe markdown (``**bold**``, ``^^KEYWORD^^``).

    >>> plain("- **^^Acolyte Hybrids^^**")
    '- Acolyte Hybrids'
    """
    out = text.replace("**", "").replace("^^", "").replace("\u00a0", " ")
    return re.sub(r"(?<!\w)\*(\S[^*]*?)\*(?!\w)", r"\1", out).strip()


def unit_name(raw_name: str) -> tuple[str, bool]:
    """The datasheet name of an entry and whether it is a Legends datasheet
    ("Tectonic Fragdrill [Legends]" -> "Tectonic Fragdrill", True)."""
    stripped = _LEGENDS.sub("", raw_name)
    return stripped.strip(), stripped != raw_name


@dataclass(slots=True)
class _Slot:
    """A model entry found below the unit: its group (with bounds) and stat line."""

    node: Node
    group: Node | None
    profile: ModelProfile | None
    bounds: tuple[int | None, int | None]


@dataclass(slots=True)
class _Collected:
    slots: list[_Slot] = field(default_factory=list)
    weapons: list[Weapon] = field(default_factory=list)
    abilities: list[Ability] = field(default_factory=list)
    leader: list[str] = field(default_factory=list)
    transport: TransportCapacity | None = None
    damaged: DamagedProfile | None = None
    root_profiles: list[ModelProfile] = field(default_factory=list)
    weapon_nodes: dict[str, list[str]] = field(default_factory=dict)


class UnitConverter:
    """Converts one root entry. ``leaders`` turns a name from a Leader list into unit
    names (a keyword such as "Acolyte Hybrids" names several units)."""

    def __init__(
        self,
        index: BSIndex,
        root: Node,
        name: str,
        rules: RulesVersion,
        catalogue: BSFile,
        leaders: LeaderResolver,
        points_type: str | None,
    ) -> None:
        self.index = index
        self.root = root
        self.name = name
        self.rules = rules
        self.catalogue = catalogue
        self.leaders = leaders
        self.log = IssueLog()
        self.source = Source(
            file=root.file.path.name,
            note=(
                f"entry {root.id} {root.raw.get('name')!r}; {catalogue.name} rev "
                f"{catalogue.revision} (BSData); {rules} edition"
            ),
        )
        self.got = _Collected()
        self.pricing = PointsReader(root, points_type, self.log)

    def run(self, faction: str | None) -> tuple[Datasheet | None, UnitReport]:
        try:
            sheet = self._datasheet()
        except UnitRejected as exc:
            self.log.rejected(exc.record, exc.message)
            return None, self.log.finish(self.name, faction)
        return sheet, self.log.finish(self.name, faction)

    # -- the walk --
    def _datasheet(self) -> Datasheet:
        root = self.root
        self._visit(root, depth=0, group=None)
        composition, models = self._composition()
        keywords: list[str] = []
        faction_keywords: list[str] = []
        for c in root.categories:
            cat = str(c.get("name", "")).strip()
            if cat.startswith("Faction: "):
                faction_keywords.append(cat.removeprefix("Faction: "))
            elif cat and cat not in _SKIPPED_CATEGORIES and not cat.startswith("Allies: "):
                keywords.append(cat)
        notes: list[str] = []
        raw_name = str(root.raw.get("name", ""))
        if unit_name(raw_name)[1]:
            notes.append("Legends datasheet")
        if self.name != unit_name(raw_name)[0]:
            notes.append(f"named {self.name!r}: another entry is called {raw_name!r}")
        data: dict[str, Any] = {
            "name": self.name,
            "rules": self.rules,
            "faction_keywords": tuple(dict.fromkeys(faction_keywords)),
            "keywords": tuple(dict.fromkeys(keywords)),
            "models": models,
            "weapons": tuple(self.got.weapons),
            "abilities": tuple(self.got.abilities),
            "composition": composition,
            "points": self._points(composition),
            "leader_of": tuple(dict.fromkeys(self.got.leader)),
            "transport": self.got.transport,
            "damaged": self.got.damaged,
            "source": self.source,
        }
        if self.root.type != "model" and self.got.slots:
            types, options = read_wargear(
                self.index, self.root, [(s.node, s.group) for s in self.got.slots],
                composition, self.got.weapon_nodes)
            if types and all(t.equipment for t in types):  # else: the derived loadout
                data.update(model_types=types, wargear=options)
        if not self.got.weapons:
            self.log.suspect("weapons", "none in the entry")
        data["notes"] = (*notes, *self.log.notes())
        sheet = build(Datasheet, data, self.log, "datasheet")
        if sheet is None:
            raise UnitRejected("datasheet", "does not validate")
        return sheet

    def _visit(self, node: Node, depth: int, group: Node | None) -> None:
        is_model = node.type == "model"
        unit_profile: ModelProfile | None = None
        weapon_profiles: list[tuple[Raw, bool]] = []
        for profile, _ in self.index.profiles(node):
            kind = str(profile.get("typeName", ""))
            if kind == "Unit":
                made = self._model_profile(profile)
                if made is not None and unit_profile is None:
                    unit_profile = made
            elif kind in _WEAPON_TYPES:
                weapon_profiles.append((profile, _WEAPON_TYPES[kind]))
            elif kind == "Transport":
                self._transport(profile)
            elif "Abilities" in kind:
                self._ability_profile(profile, "unit" if depth == 0 or is_model else "wargear")
        if weapon_profiles:
            self._weapons(node, weapon_profiles)
        if depth == 0 or is_model:
            for rule_name, _rule, where in self.index.rules(node):
                if _weapon_rule(rule_name):
                    continue  # the glossary of a weapon keyword an ability mentions
                rule_kind: Literal["core", "faction"] = (
                    "core" if where.kind == "gameSystem" else "faction"
                )
                self._add_ability(core_ability(rule_name, rule_kind, None, self.source))
        if is_model:
            self.got.slots.append(
                _Slot(node=node, group=group, profile=unit_profile,
                      bounds=node.bounds(self.root.id))
            )
        elif unit_profile is not None:
            self.got.root_profiles.append(unit_profile)
        for child in self.index.children(node):
            if isinstance(child, Missing):
                self.log.repaired(
                    f"entry {child.name!r}", f"link target {child.target_id} not loaded; left out"
                )
                continue
            bounded = child.type == "group" and child.bounds(self.root.id) != (None, None)
            self._visit(child, depth + 1, child if bounded else group)

    # -- stat lines and composition --
    def _model_profile(self, profile: Raw) -> ModelProfile | None:
        name = str(profile.get("name", "")).strip()
        record = f"profile {name!r}"
        values: dict[str, Any] = {"name": name, "source": self.source}
        for stat, key in (("M", "M"), ("T", "T"), ("Sv", "Sv"), ("W", "W"), ("LD", "Ld"),
                          ("OC", "OC"), ("InSv", "InSv")):
            text = text_of(profile, stat)
            if text is None and stat == "LD":
                text = text_of(profile, "Ld")
            if text is None or text in ("", "-", "N/A"):
                values[key] = None
                continue
            number = text.rstrip('"”+').strip()
            if not _INT.match(number):
                self.log.repaired(record, f"left out: {stat} {text!r} is not a number")
                return None
            values[key] = int(number)
        return model_profile(values, self.log, record)

    def _slot_profile(self, slot: _Slot) -> ModelProfile | None:
        if slot.profile is not None:
            return slot.profile
        candidates = self.got.root_profiles or [s.profile for s in self.got.slots if s.profile]
        return candidates[0] if len(candidates) == 1 else None

    def _lines(self) -> list[tuple[str, int, int, ModelProfile | None]]:
        """``(model, min, max, stat line)`` per composition line of a multi-model unit."""
        lines: list[tuple[str, int, int, ModelProfile | None]] = []
        seen: set[str] = set()
        for slot in self.got.slots:
            group = slot.group
            if group is not None and group.id not in seen:
                seen.add(group.id)
                members = [s for s in self.got.slots if s.group is not None
                           and s.group.id == group.id]
                names = {p.name for s in members if (p := self._slot_profile(s)) is not None}
                low, high = group.bounds(self.root.id)
                if len(names) <= 1:
                    profile = self._slot_profile(members[0])
                    label = profile.name if profile is not None else members[0].node.name
                    lines.append((label, low or 0, high if high is not None else low or 0,
                                  profile))
                    continue
                self.log.unsupported(
                    f"composition {group.name!r}",
                    f"models of {len(names)} stat lines share one {low}-{high} limit; "
                    "each is counted by its own limits",
                )
                seen.add(f"split:{group.id}")
            if group is not None and f"split:{group.id}" not in seen:
                continue  # counted with its group
            low, high = slot.bounds
            if high is None and group is not None:
                high = group.bounds(self.root.id)[1]
            lines.append((slot.node.name, low or 0, high if high is not None else max(low or 0, 1),
                          self._slot_profile(slot)))
        return lines

    def _composition(
        self,
    ) -> tuple[tuple[CompositionLine, ...], tuple[ModelProfile, ...]]:
        lines: list[tuple[str, int, int, ModelProfile | None]] = []
        if self.root.type == "model":
            profile = (self.got.slots[0].profile if self.got.slots else None) or (
                self.got.root_profiles[0] if self.got.root_profiles else None
            )
            lines.append((profile.name if profile else self.name, 1, 1, profile))
        else:
            lines += self._lines()
        composition: list[CompositionLine] = []
        models: list[ModelProfile] = []
        for line_name, low, high, profile in lines:
            line = build(CompositionLine, {"model": line_name, "min": low, "max": high},
                         self.log, f"composition {line_name!r}")
            if line is None:
                continue
            composition.append(line)
            if profile is None:
                self.log.repaired(f"composition {line_name!r}", "no stat line for this model")
                continue
            if name_key(profile.name) != name_key(line_name):
                profile = profile.model_copy(update={"name": line_name})
            if all(name_key(m.name) != name_key(profile.name) for m in models):
                models.append(profile)
        if not models:
            found = self.got.root_profiles or [s.profile for s in self.got.slots if s.profile]
            if not found:
                raise UnitRejected("profiles", "no valid stat line")
            models = list(dict.fromkeys(found))
        if not composition or sum(c.max for c in composition) < 1:
            self.log.repaired("composition", "no model count in the entry; left out")
            composition = []
        return tuple(composition), tuple(models)

    # -- weapons --
    def _weapons(self, node: Node, profiles: list[tuple[Raw, bool]]) -> None:
        by_melee: dict[bool, list[WeaponProfile]] = {False: [], True: []}
        for raw, melee in profiles:
            made = self._weapon_profile(node, raw, melee, len(profiles))
            if made is not None:
                by_melee[melee].append(made)
        for made_profiles in by_melee.values():
            if not made_profiles:
                continue
            name = node.name if len(profiles) > 1 else made_profiles[0].name
            weapon = build(Weapon, {"name": name, "profiles": tuple(made_profiles)}, self.log,
                           f"weapon {name!r}")
            if weapon is None:
                continue
            names = self.got.weapon_nodes.setdefault(node.id, [])
            if weapon.name not in names:
                names.append(weapon.name)
            if weapon not in self.got.weapons:
                self.got.weapons.append(weapon)

    def _weapon_profile(
        self, node: Node, raw: Raw, melee: bool, count: int
    ) -> WeaponProfile | None:
        raw_name = str(raw.get("name", "")).lstrip("➤ ").strip()
        head, sep, tail = raw_name.partition(" - ")
        name = raw_name
        if sep and (count > 1 or name_key(head) == name_key(node.name)):
            name = f"{head.strip()} – {tail.strip()}"
        record = f"weapon {name!r}"
        skill_key = "WS" if melee else "BS"
        texts = [k.strip() for k in (text_of(raw, "Keywords") or "").split(",")]
        abilities = weapon_abilities([t for t in texts if t and t != "-"], self.log, record)
        values: dict[str, Any] = {"name": name, "abilities": abilities, "source": self.source}
        rng = text_of(raw, "Range") or ""
        if melee or rng.casefold() == "melee":
            values["range"] = "Melee"
        elif match := _RANGE.match(rng):
            values["range"] = int(match.group(1))
        else:
            self.log.repaired(record, f"left out: Range {rng!r}")
            return None
        skill = text_of(raw, skill_key) or ""
        if match := _SKILL.match(skill):
            values["skill"] = int(match.group(1))
        elif match := _BARE_SKILL.match(skill):
            values["skill"] = int(match.group(1))
            self.log.repaired(record, f"{skill_key} {skill!r} read as {skill}+")
        elif skill in ("N/A", "-", "") and not melee and any(
            getattr(a, "name", None) == "Torrent" for a in abilities
        ):
            values["skill"] = None
        else:
            self.log.repaired(record, f"left out: {skill_key} {skill!r}")
            return None
        for stat in ("A", "D"):
            text = text_of(raw, stat) or ""
            try:
                values[stat] = dice(text)
            except DiceError:
                self.log.repaired(record, f"left out: {stat} {text!r} is not a dice expression")
                return None
        for stat in ("S", "AP"):
            text = text_of(raw, stat) or ""
            if not _INT.match(text):
                self.log.repaired(record, f"left out: {stat} {text!r} is not a number")
                return None
            values[stat] = int(text)
        return weapon_profile(values, self.log, record)

    # -- abilities --
    def _add_ability(self, ability: Ability) -> None:
        if all(name_key(a.name) != name_key(ability.name) for a in self.got.abilities):
            self.got.abilities.append(ability)

    def _ability_profile(self, profile: Raw, kind: Literal["unit", "wargear"]) -> None:
        name = str(profile.get("name", "")).strip()
        text = plain(text_of(profile, "Description") or "")
        if name_key(name) == name_key("Leader"):
            self._leader(text)
            return
        damaged = _DAMAGED.match(name)
        if damaged is not None:
            self._damaged(name, text, int(damaged.group(1)), int(damaged.group(2)))
            self._add_ability(Ability(name=name, kind="damaged", text=text or None,
                                      source=self.source))
            return
        self._add_ability(core_ability(name, kind, text or None, self.source))

    def _leader(self, text: str) -> None:
        names = [line.strip().lstrip("-■•*").strip() for line in text.splitlines()
                 if line.strip()[:1] in ("-", "■", "•", "*")]
        if not names and ":" in text:  # "... the following units: Raveners"
            tail = text.rsplit(":", 1)[1]
            names = [n.strip() for n in re.split(r",|\band\b", tail) if n.strip()]
        if not names:
            self.log.unsupported("leader", f"no list of units in {text!r}")
        for name in names:
            resolved = self.leaders(name.rstrip(".*"))
            if not resolved:
                self.log.suspect("leader", f"{name!r} is no unit or keyword of the catalogue")
                resolved = (name,)
            self.got.leader.extend(resolved)

    def _damaged(self, name: str, text: str, low: int, high: int) -> None:
        hit = re.search(r"subtract (\d+) from the hit roll", text, re.IGNORECASE)
        oc = re.search(r"subtract (\d+) from (?:its|this model.s) objective control", text,
                       re.IGNORECASE)
        self.got.damaged = build(
            DamagedProfile,
            {"min_wounds": low, "max_wounds": high,
             "hit_modifier": -int(hit.group(1)) if hit else 0,
             "oc_modifier": -int(oc.group(1)) if oc else 0,
             "text": text or name, "source": self.source},
            self.log,
            f"ability {name!r}",
        )

    def _transport(self, profile: Raw) -> None:
        text = plain(text_of(profile, "Capacity") or "")
        match = re.search(r"transport capacity of (\d+)", text, re.IGNORECASE)
        self.got.transport = build(
            TransportCapacity,
            {"capacity": int(match.group(1)) if match else None, "text": text,
             "source": self.source},
            self.log,
            "transport",
        )

    # -- points --
    def _points(
        self, composition: Sequence[CompositionLine]
    ) -> tuple[PointsBracket, ...] | EscalatingPoints:
        return self.pricing.points(composition, [self._line_cost(line) for line in composition])

    def _line_cost(self, line: CompositionLine) -> int:
        """Points per model of a line: its model entry's own ``pts`` (the root entry's cost
        is the unit's, counted once by ``PointsReader``)."""
        if self.root.type == "model":
            return 0
        for slot in self.got.slots:
            profile = self._slot_profile(slot)
            if slot.node.name == line.model or (
                profile is not None and name_key(profile.name) == name_key(line.model)
            ):
                return self.pricing.cost(slot.node)
        return 0


def _weapon_rule(name: str) -> bool:
    """Whether a rule is a weapon ability ("Sustained Hits", "Anti"): BSData links those
    rules to a unit whose ability text names them; they are not the unit's abilities."""
    try:
        parse_weapon_ability(name)
    except UnknownAbilityError:
        return name_key(name) in ("anti", "sustainedhits", "rapidfire", "melta")
    return True
