"""The bundled 11th-edition dataset: the ``wh40kdc`` package (40kdc-data) -> datasheets.

``wh40kdc`` (pinned: ``PINNED_VERSION``, the optional extra ``tactica[data]``) ships its
dataset as one JSON bundle (``wh40kdc/_bundle.json``, read with the package's own
``wh40kdc.data.raw_data``): units, weapons, weapon keywords, abilities, leader
attachments and unit compositions, each record stamped with a ``game_version``. Code is
MIT, schema content CC0, enrichment data CC BY 4.0; ``ATTRIBUTION`` is the credit line the
licence asks for ("Powered by 40kdc-data", https://40kdc.alpacasoft.dev).

``Wh40kdcDataset`` indexes the units by name when it is built (cheap) and converts a unit
only when it is asked for (``datasheet``); ``datasheets``/``report`` convert them all.
Every conversion decision below follows the record layout of wh40kdc 1.4.5 (its
``wh40kdc/data/dataset.py`` and ``entities.py``):

* Records are keyed by ``(faction_id, id)``: the same id exists in several factions with
  different values, and a unit resolves its weapons and abilities in its own faction first,
  then in any faction (``UnitView.weapons``/``abilities``: "own faction first ...
  first-wins for a genuinely cross-faction id").
* Weapon ``type`` is per weapon while ``range`` is per profile: a spear with a ranged and
  a ``Melee`` profile becomes two ``Weapon`` values of the same name (ranged, melee), so
  ``Weapon.is_melee`` stays true to every profile. Skill is ``BS`` for a ranged profile
  and ``WS`` for a melee one; ``BS: null`` is N/A (Torrent). Profiles of a multi-profile
  weapon are named ``"<weapon> – <profile>"`` like the seed pages ("Grenade launcher –
  frag").
* Weapon keywords are ``{keyword_id, parameters}``; they are written in rulebook words
  ("Anti-Infantry 2+", "Sustained Hits D3") and parsed by ``parse_weapon_ability``.
  Keywords the model does not know (Cleave, Hunter, Conversion, ...) and keywords limited
  to some targets (``excluded_target_keywords``, ``required_target_keywords_any``) are
  left out and reported as unsupported.
* Points entries ``{cost, models[, models_max][, unit_count_min, unit_count_max]}``:
  a size range becomes one bracket per size (``brackets_for_sizes``); ``unit_count_*``
  become ``EscalatingPoints`` tiers ("your 1st to 3rd units cost").
* Composition comes from ``unit_compositions``; each composition line gets a model
  profile of its own name (``profile_name``, else the profile whose name matches or
  starts it, else the only one), so "Neophyte Leader" has a stat line like the seed facts.
* Leader attachments name bodyguard unit ids; they become unit names of the leader's
  faction (``eligible_bodyguard_keywords`` are added as written).
* Ability ``community_notes`` are curation notes, not rules text: abilities carry names
  (and parsed parameters: "Deadly Demise D6+2") only.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping, Sequence
from importlib import metadata
from typing import Any, Literal

from ..model.common import RulesVersion, Source
from ..model.datasheet import (
    Ability,
    CompositionLine,
    DamagedProfile,
    Datasheet,
    EscalatingPoints,
    ModelProfile,
    PointsBracket,
    PointsTier,
    TransportCapacity,
    Weapon,
    WeaponProfile,
)
from ..names import UnknownNameError, name_key, suggest
from .report import (
    IssueLog,
    LoadReport,
    UnitRejected,
    UnitReport,
    brackets_for_sizes,
    build,
    core_ability,
    model_profile,
    weapon_abilities,
    weapon_profile,
)

__all__ = [
    "ATTRIBUTION",
    "INSTALL_HINT",
    "PINNED_VERSION",
    "DatasetMissingError",
    "Wh40kdcDataset",
    "dataset_available",
    "embedded_dataset",
    "installed_version",
]

#: The dataset version the conversion rules above were written against (pyproject pins it).
PINNED_VERSION = "1.4.5"

#: The credit the 40kdc-data licence asks for (README "Licensing": "Powered by 40kdc-data"
#: and a link), with the licences of the parts tactica uses.
ATTRIBUTION = (
    "Powered by 40kdc-data (https://40kdc.alpacasoft.dev): the wh40kdc dataset by Alpaca "
    "Software and the 40kdc community contributors; code MIT, schema content CC0, "
    "enrichment data CC BY 4.0 (https://creativecommons.org/licenses/by/4.0/)"
)

#: What to do when the dataset is needed but not installed.
INSTALL_HINT = (
    f"the bundled 11th-edition dataset is not installed: pip install 'tactica[data]' "
    f"(wh40kdc=={PINNED_VERSION})"
)

Raw = Mapping[str, Any]
AbilityKind = Literal["core", "faction", "unit", "wargear", "damaged"]

_ABILITY_KINDS: dict[str, AbilityKind] = {"core": "core", "faction": "faction"}
_CONDITIONAL = ("excluded_target_keywords", "required_target_keywords_any")
_DAMAGED = re.compile(r"^damaged:?\s*(\d+)\s*[-–]\s*(\d+)\s+wounds? remaining", re.IGNORECASE)
_EDITIONS: dict[str, RulesVersion] = {"11th": "11th", "10th": "10th"}


class DatasetMissingError(RuntimeError):
    """The ``wh40kdc`` package is not installed; the message says how to install it."""

    def __init__(self) -> None:
        super().__init__(INSTALL_HINT)


def installed_version() -> str | None:
    """The installed ``wh40kdc`` version, or ``None`` when it is not installed."""
    try:
        return metadata.version("wh40kdc")
    except metadata.PackageNotFoundError:
        return None


def dataset_available() -> bool:
    """Whether the bundled dataset can be loaded (the package imports)."""
    try:
        import wh40kdc.data  # noqa: F401
    except ImportError:
        return False
    return True


@functools.cache
def embedded_dataset() -> Wh40kdcDataset:
    """The installed dataset, indexed once per process. Raises ``DatasetMissingError``."""
    try:
        from wh40kdc.data import raw_data
    except ImportError:
        raise DatasetMissingError() from None
    return Wh40kdcDataset(raw_data(), installed_version() or "unknown")


def _keyed(records: Iterable[Raw], key: str = "id") -> dict[tuple[str, str], Raw]:
    """``(faction_id, id)`` -> record, first wins (wh40kdc ``Collection`` dedupe)."""
    out: dict[tuple[str, str], Raw] = {}
    for r in records:
        out.setdefault((r.get("faction_id") or "", r[key]), r)
    return out


def _first_by_id(records: Iterable[Raw], key: str = "id") -> dict[str, Raw]:
    out: dict[str, Raw] = {}
    for r in records:
        out.setdefault(r[key], r)
    return out


def _singular(name: str) -> str:
    key = name_key(name)
    return key[:-1] if key.endswith("s") else key


class Wh40kdcDataset:
    """The dataset as a datasheet source: a cheap name index, lazy per-unit conversion.

    ``raw`` is the bundle (``wh40kdc.data.raw_data()``); tests pass small hand-made
    bundles of the same layout.
    """

    kind: Literal["dataset"] = "dataset"

    def __init__(self, raw: Raw, version: str = PINNED_VERSION) -> None:
        self.version = version
        self.label = f"wh40kdc {version}"
        self.notes: tuple[str, ...] = ()
        if version != PINNED_VERSION:
            self.notes = (
                f"wh40kdc {version} is installed; the conversion was written for "
                f"{PINNED_VERSION} (pip install 'tactica[data]')",
            )
        self._units: list[Raw] = list(raw.get("units") or [])
        self._weapons = _keyed(raw.get("weapons") or [])
        self._weapons_any = _first_by_id(raw.get("weapons") or [])
        self._abilities = _keyed(raw.get("abilities") or [], "ability_id")
        self._abilities_any = _first_by_id(raw.get("abilities") or [], "ability_id")
        self._keyword_names = {k["id"]: k["name"] for k in raw.get("weapon_keywords") or []}
        self._compositions = {
            (c.get("faction_id") or "", c["unit_id"]): c for c in raw.get("unit_compositions") or []
        }
        self._leaders: dict[str, list[Raw]] = {}
        for la in raw.get("leader_attachments") or []:
            self._leaders.setdefault(la["leader_id"], []).append(la)
        self._faction_names: dict[str, str] = {}
        self._faction_aliases: dict[str, str] = {}
        for f in raw.get("factions") or []:
            self._faction_names[f["id"]] = f["name"]
            for alias in (f["name"], *(f.get("aliases") or ())):
                self._faction_aliases[name_key(alias)] = f["name"]
        self._unit_by_faction_id = _keyed(self._units)
        # names: the first unit of a name keeps it; later units of the same name (another
        # faction's copy, e.g. Ministorum Priest) are "Name (Faction)". Every unit also
        # answers to "Name (Faction)".
        self._display: list[str] = []
        self._by_key: dict[str, int] = {}
        self._aliases: dict[str, str] = {}
        for i, unit in enumerate(self._units):
            base = unit["name"]
            qualified = f"{base} ({self.faction_name(unit)})"
            display = qualified if name_key(base) in self._by_key else base
            self._display.append(display)
            self._by_key[name_key(display)] = i
            if display != qualified:
                self._aliases[qualified] = display
        for alias, display in self._aliases.items():
            self._by_key.setdefault(name_key(alias), self._by_key[name_key(display)])
        self._converted: dict[int, tuple[Datasheet | None, UnitReport]] = {}

    # -- the index (no conversion) --
    def names(self) -> tuple[str, ...]:
        """Every unit name, in dataset order."""
        return tuple(self._display)

    def aliases(self) -> dict[str, str]:
        """Other names of units: ``"Primus (Genestealer Cults)" -> "Primus"``."""
        return dict(self._aliases)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self._index(name) is not None

    def __len__(self) -> int:
        return len(self._units)

    def _index(self, name: str) -> int | None:
        return self._by_key.get(name_key(name))

    def faction_name(self, unit: Raw) -> str:
        fid = unit.get("faction_id") or ""
        return self._faction_names.get(fid, fid)

    def factions_of(self, name: str) -> tuple[str, ...]:
        """The faction the dataset files the unit under (its ``faction_id``)."""
        index = self._index(name)
        return () if index is None else (self.faction_name(self._units[index]),)

    def faction(self, name: str) -> str | None:
        """The dataset's spelling of a faction name or alias ("Space Marines" ->
        "Adeptus Astartes"), or ``None``."""
        return self._faction_aliases.get(name_key(name))

    def factions(self) -> tuple[str, ...]:
        """Every faction that has units, in dataset order."""
        return tuple(dict.fromkeys(self.faction_name(u) for u in self._units))

    # -- conversion --
    def _convert(self, index: int) -> tuple[Datasheet | None, UnitReport]:
        if index not in self._converted:
            unit = self._units[index]
            self._converted[index] = _UnitConverter(self, unit, self._display[index]).run()
        return self._converted[index]

    def datasheet(self, name: str) -> Datasheet | None:
        """The named unit's datasheet (converted on first use), ``None`` if the unit was
        rejected (see ``unit_report``). Raises ``UnknownNameError`` for an unknown name."""
        return self._convert(self._require(name))[0]

    def unit_report(self, name: str) -> UnitReport:
        return self._convert(self._require(name))[1]

    def _require(self, name: str) -> int:
        index = self._index(name)
        if index is None:
            raise UnknownNameError("unit", name, suggest(name, self.names()))
        return index

    def datasheets(self) -> tuple[Datasheet, ...]:
        """Every unit converted (rejected units left out), in dataset order."""
        out = []
        for index in range(len(self._units)):
            sheet = self._convert(index)[0]
            if sheet is not None:
                out.append(sheet)
        return tuple(out)

    def report(self) -> LoadReport:
        """Converts every unit and says what happened to each."""
        entries = tuple(self._convert(i)[1] for i in range(len(self._units)))
        return LoadReport(source=self.label, units=entries, notes=self.notes)

    # -- look-ups used by the converter --
    def weapon(self, faction: str, wid: str) -> Raw | None:
        return self._weapons.get((faction, wid)) or self._weapons_any.get(wid)

    def ability(self, faction: str, aid: str) -> Raw | None:
        return (
            self._abilities.get((faction, aid))
            or self._abilities.get(("", aid))
            or self._abilities_any.get(aid)
        )

    def keyword_name(self, kid: str) -> str:
        return self._keyword_names.get(kid, kid.replace("-", " ").title())

    def composition(self, faction: str, uid: str) -> Raw | None:
        return self._compositions.get((faction, uid))

    def leader_attachments(self, uid: str) -> list[Raw]:
        return self._leaders.get(uid, [])

    def unit_name(self, faction: str, uid: str) -> str | None:
        unit = self._unit_by_faction_id.get((faction, uid))
        if unit is None:
            unit = next((u for u in self._units if u["id"] == uid), None)
        return None if unit is None else str(unit["name"])


class _UnitConverter:
    """Converts one unit record; collects its issues in ``log``."""

    def __init__(self, ds: Wh40kdcDataset, unit: Raw, display: str) -> None:
        self.ds = ds
        self.unit = unit
        self.name = display
        self.faction_id: str = unit.get("faction_id") or ""
        self.log = IssueLog()
        version = unit.get("game_version") or {}
        self.source = Source(
            file=ds.label,
            note=(
                f"unit {self.faction_id}/{unit.get('id')}; edition {version.get('edition')}, "
                f"dataslate {version.get('dataslate')}; 40kdc-data, CC BY 4.0"
            ),
        )

    def run(self) -> tuple[Datasheet | None, UnitReport]:
        faction = self.ds.faction_name(self.unit)
        try:
            sheet = self._datasheet()
        except UnitRejected as exc:
            self.log.rejected(exc.record, exc.message)
            return None, self.log.finish(self.name, faction)
        return sheet, self.log.finish(self.name, faction)

    def _datasheet(self) -> Datasheet:
        u = self.unit
        edition = (u.get("game_version") or {}).get("edition")
        rules = _EDITIONS.get(str(edition))
        if rules is None:
            raise UnitRejected("unit", f"edition {edition!r} is not 10th or 11th")
        profiles = self._profiles()
        composition, models = self._composition(profiles)
        notes: list[str] = []
        if self.name != u["name"]:
            notes.append(f"named {self.name!r}: another faction has a unit {u['name']!r}")
        if u.get("is_legend"):
            notes.append("Legends datasheet")
        for mode in u.get("game_modes") or ():
            notes.append(f"game mode: {mode}")
        if u.get("points_provisional"):
            notes.append("points are provisional in the dataset")
        for ck in u.get("conditional_keywords") or ():
            condition = ", ".join(
                f"{k.removeprefix('required_').replace('_', ' ')} {v}"
                for k, v in ck.items()
                if k != "keyword"
            )
            self.log.unsupported("keywords", f"{ck.get('keyword')} only with {condition}")
        abilities, damaged = self._abilities()
        data: dict[str, Any] = {
            "name": self.name,
            "rules": rules,
            "faction_keywords": tuple(u.get("faction_keywords") or ()),
            "keywords": tuple(u.get("keywords") or ()),
            "models": models,
            "weapons": self._weapons(),
            "abilities": abilities,
            "composition": composition,
            "points": self._points(),
            "leader_of": self._leader_of(),
            "transport": self._transport(),
            "damaged": damaged,
            "source": self.source,
        }
        data["notes"] = (*notes, *self.log.notes())
        sheet = build(Datasheet, data, self.log, "datasheet")
        if sheet is None:
            raise UnitRejected("datasheet", "does not validate")
        return sheet

    # -- stat lines and composition --
    def _profiles(self) -> list[ModelProfile]:
        out: list[ModelProfile] = []
        for p in self.unit.get("profiles") or ():
            record = f"profile {p.get('name')!r}"
            data = {
                "name": p.get("name"),
                **{k: p.get(k) for k in ("M", "T", "Sv", "W", "Ld", "OC")},
                "InSv": p.get("invuln_sv"),
                "source": self.source,
            }
            for key, against in (("invuln_sv_ranged", "ranged"), ("invuln_sv_melee", "melee")):
                if p.get(key) is not None:
                    self.log.unsupported(
                        record, f"{p[key]}+ invulnerable save against {against} attacks only"
                    )
            profile = model_profile(data, self.log, record)
            if profile is not None:
                out.append(profile)
        if not out:
            raise UnitRejected("profiles", "no valid stat line")
        return out

    def _profile_for(self, model: Raw, profiles: list[ModelProfile]) -> ModelProfile:
        wanted = model.get("profile_name") or model["name"]
        for p in profiles:
            if name_key(p.name) == name_key(wanted) or _singular(p.name) == _singular(wanted):
                return p
        if len(profiles) == 1:
            return profiles[0]
        starts = [p for p in profiles if name_key(wanted).startswith(_singular(p.name))]
        if starts:
            return max(starts, key=lambda p: len(p.name))
        self.log.suspect(
            f"composition {model['name']!r}",
            f"no stat line of that name; given {profiles[0].name!r}'s",
        )
        return profiles[0]

    def _composition(
        self, profiles: list[ModelProfile]
    ) -> tuple[tuple[CompositionLine, ...], tuple[ModelProfile, ...]]:
        comp = self.ds.composition(self.faction_id, self.unit["id"])
        count = self.unit.get("model_count") or {}
        if comp is None:
            if len(profiles) == 1 and count:
                line = build(
                    CompositionLine,
                    {"model": profiles[0].name, "min": count.get("min"), "max": count.get("max")},
                    self.log,
                    "composition",
                )
                return ((line,) if line else ()), tuple(profiles)
            self.log.unsupported("composition", "none in the dataset")
            return (), tuple(profiles)
        lines: list[CompositionLine] = []
        models: list[ModelProfile] = []
        used: set[str] = set()
        for m in comp.get("models") or ():
            line = build(
                CompositionLine,
                {"model": m["name"], "min": m.get("min"), "max": m.get("max")},
                self.log,
                f"composition {m.get('name')!r}",
            )
            if line is None:
                continue
            lines.append(line)
            profile = self._profile_for(m, profiles)
            used.add(profile.name)
            if name_key(profile.name) != name_key(line.model):
                profile = profile.model_copy(update={"name": line.model})
            if all(name_key(p.name) != name_key(profile.name) for p in models):
                models.append(profile)
        models += [p for p in profiles if p.name not in used]
        low, high = sum(c.min for c in lines), sum(c.max for c in lines)
        if count and (low, high) != (count.get("min"), count.get("max")):
            self.log.suspect(
                "composition",
                f"{low}-{high} models by composition, {count.get('min')}-{count.get('max')} "
                "by model_count; composition kept",
            )
        return tuple(lines), tuple(models)

    # -- weapons --
    def _weapons(self) -> tuple[Weapon, ...]:
        out: list[Weapon] = []
        for wid in dict.fromkeys(self.unit.get("weapon_ids") or ()):
            raw = self.ds.weapon(self.faction_id, wid)
            if raw is None:
                self.log.repaired(f"weapon {wid!r}", "not in the dataset; left out")
                continue
            out += self._weapon(raw)
        if not out:
            self.log.suspect("weapons", "none in the dataset")
        return tuple(out)

    def _weapon(self, raw: Raw) -> list[Weapon]:
        name = str(raw["name"])
        converted: list[tuple[bool, str, WeaponProfile]] = []
        for p in raw.get("profiles") or ():
            melee = p.get("range") == "Melee"
            profile = self._weapon_profile(name, p, melee)
            if profile is not None:
                converted.append((melee, str(p.get("name") or name), profile))
        if raw.get("type") == "ranged" and converted and all(m for m, _, _ in converted):
            self.log.suspect(f"weapon {name!r}", "typed ranged but every profile is Melee")
        out: list[Weapon] = []
        for melee in (False, True):
            group = [(n, p) for m, n, p in converted if m == melee]
            if not group:
                continue
            named = tuple(
                p.model_copy(update={"name": _profile_name(name, n, len(group))}) for n, p in group
            )
            weapon = build(Weapon, {"name": name, "profiles": named}, self.log, f"weapon {name!r}")
            if weapon is not None:
                out.append(weapon)
        return out

    def _weapon_profile(self, weapon: str, p: Raw, melee: bool) -> WeaponProfile | None:
        record = f"weapon {weapon!r}" + (f" profile {p['name']!r}" if p.get("name") else "")
        stats = p.get("stats") or {}
        texts = [t for k in p.get("keywords") or () for t in self._keyword(k, record)]
        abilities = weapon_abilities(texts, self.log, record)
        skill = stats.get("WS" if melee else "BS")
        if skill is None and (melee or not any(a.kind == "flag" and a.name == "Torrent"
                                               for a in abilities)):
            self.log.repaired(record, f"left out: no {'WS' if melee else 'BS'}")
            return None
        for restriction in (p.get("target_restrictions") or {}).values():
            self.log.unsupported(record, f"may only target {', '.join(restriction)} units")
        rng = p.get("range")
        data = {
            "name": weapon,
            "range": "Melee" if melee else rng,
            "A": stats.get("A"),
            "skill": skill,
            "S": stats.get("S"),
            "AP": stats.get("AP"),
            "D": stats.get("D"),
            "abilities": abilities,
            "source": self.source,
        }
        return weapon_profile(data, self.log, record)

    def _keyword(self, kw: Raw, record: str) -> list[str]:
        """The ability texts of one weapon keyword (usually one; "Anti-MONSTER/VEHICLE 4+"
        is the rulebook's two abilities, Anti-Monster 4+ and Anti-Vehicle 4+)."""
        kid = str(kw.get("keyword_id"))
        params: Raw = kw.get("parameters") or {}
        name = self.ds.keyword_name(kid)
        if kid == "anti":
            target, threshold = params.get("target_keyword"), params.get("threshold")
            if target is None or threshold is None:
                self.log.repaired(record, "left out: Anti without target keyword or threshold")
                return []
            targets = [t.strip() for t in str(target).split("/") if t.strip()]
            text = ", ".join(f"Anti-{t} {threshold}+" for t in targets)
            required = params.get("required_target_keywords_any")
            if (required is None or {name_key(r) for r in required} <= {
                name_key(t) for t in targets
            }) and not params.get("excluded_target_keywords"):
                return [f"Anti-{t} {threshold}+" for t in targets]  # Anti-X: only against X
        elif "value" in params:
            text = f"{name} {params['value']}"
        else:
            text = name
        limits = {k: params[k] for k in _CONDITIONAL if params.get(k)}
        if limits:
            words = []
            if "required_target_keywords_any" in limits:
                words.append("only against " + "/".join(limits["required_target_keywords_any"]))
            if "excluded_target_keywords" in limits:
                words.append("not against " + "/".join(limits["excluded_target_keywords"]))
            self.log.unsupported(record, f"ability {text!r} {' and '.join(words)}: left out")
            return []
        return [text]

    # -- abilities, leader, transport --
    def _abilities(self) -> tuple[tuple[Ability, ...], DamagedProfile | None]:
        out: list[Ability] = []
        damaged = None
        for aid in dict.fromkeys(self.unit.get("ability_ids") or ()):
            raw = self.ds.ability(self.faction_id, aid)
            if raw is None:
                self.log.repaired(f"ability {aid!r}", "not in the dataset; left out")
                continue
            name = str(raw["name"])
            kind = _ABILITY_KINDS.get(str(raw.get("ability_type")), "unit")
            match = _DAMAGED.match(name)
            if match is not None:
                damaged = self._damaged(name, raw, int(match.group(1)), int(match.group(2)))
                kind = "damaged"
            out.append(core_ability(name, kind, None, self.source))
        return tuple(out), damaged

    def _damaged(self, name: str, raw: Raw, low: int, high: int) -> DamagedProfile | None:
        effect = (raw.get("effect") or {}).get("effect") or {}
        modifier = effect.get("modifier") or {}
        hit = 0
        if effect.get("type") == "roll-modifier" and modifier.get("roll") == "hit":
            value = int(modifier.get("value") or 0)
            hit = -value if modifier.get("operation") == "subtract" else value
        return build(
            DamagedProfile,
            {"min_wounds": low, "max_wounds": high, "hit_modifier": hit, "text": name,
             "source": self.source},
            self.log,
            f"ability {name!r}",
        )

    def _leader_of(self) -> tuple[str, ...]:
        names: list[str] = []
        for la in self.ds.leader_attachments(self.unit["id"]):
            for uid in la.get("eligible_bodyguard_ids") or ():
                found = self.ds.unit_name(self.faction_id, uid)
                if found is None:
                    self.log.repaired("leader", f"bodyguard id {uid!r} is not a unit; left out")
                else:
                    names.append(found)
            names += list(la.get("eligible_bodyguard_keywords") or ())
        return tuple(dict.fromkeys(names))

    def _transport(self) -> TransportCapacity | None:
        cap = self.unit.get("transport_capacity")
        if not cap:
            return None
        text = f"Transport capacity: {cap.get('capacity')} models"
        if cap.get("exclusion_keywords"):
            text += f" (not {', '.join(cap['exclusion_keywords'])} models)"
        return build(
            TransportCapacity,
            {"capacity": cap.get("capacity"), "keywords": (), "text": text,
             "source": self.source},
            self.log,
            "transport",
        )

    # -- points --
    def _points(self) -> tuple[PointsBracket, ...] | EscalatingPoints:
        entries: Sequence[Raw] = self.unit.get("points") or ()
        if not entries:
            self.log.repaired("points", "none in the dataset; left empty")
            return ()
        tiers: dict[tuple[int, int | None], dict[int, int]] = {}
        for e in entries:
            first = e.get("unit_count_min") or 1
            last = e.get("unit_count_max")
            low = e.get("models")
            high = e.get("models_max") or low
            if not isinstance(low, int) or not isinstance(high, int) or high < low:
                self.log.repaired("points", f"left out: bracket {dict(e)} has no model count")
                continue
            prices = tiers.setdefault((first, last), {})
            for size in range(low, high + 1):
                prices[size] = e.get("cost")
        if not tiers:
            return ()
        if list(tiers) == [(1, None)]:
            return brackets_for_sizes(tiers[(1, None)], self.log)
        made = []
        for (first, last), prices in sorted(tiers.items(), key=lambda t: t[0][0]):
            tier = build(
                PointsTier,
                {"first": first, "last": last,
                 "brackets": brackets_for_sizes(prices, self.log, f"points (units {first}+)")},
                self.log,
                "points",
            )
            if tier is not None:
                made.append(tier)
        escalating = build(EscalatingPoints, {"tiers": made}, self.log, "points")
        return () if escalating is None else escalating


def _profile_name(weapon: str, profile: str, count: int) -> str:
    """``"Grenade launcher – frag"`` for a profile of a multi-profile weapon; the weapon's
    name where the profile repeats it or is just "Melee"."""
    if name_key(profile) in (name_key(weapon), "melee", "ranged", ""):
        return weapon
    return f"{weapon} – {profile}" if count > 1 or profile else weapon

