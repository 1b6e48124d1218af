"""One ``wh40kdc`` unit record -> a ``Datasheet`` (the conversion rules are listed in
``tactica.loaders.wh40kdc``; this module applies them to one unit)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Literal

from ..model.common import RulesVersion, Source
from ..model.conditions import ConditionalSave, TargetCondition
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
from ..model.wargear import ModelType
from ..names import name_key
from .report import (
    IssueLog,
    UnitRejected,
    UnitReport,
    brackets_for_sizes,
    build,
    core_ability,
    model_profile,
    weapon_abilities,
    weapon_profile,
)
from .wh40kdc_effects import effect_record
from .wh40kdc_leaders import leader_lists
from .wh40kdc_readings import mark_reason, mended_effect
from .wh40kdc_records import Raw, RecordLookup
from .wh40kdc_wargear import WargearReader

__all__ = ["UnitConverter"]

AbilityKind = Literal["core", "faction", "unit", "wargear", "damaged"]

_ABILITY_KINDS: dict[str, AbilityKind] = {"core": "core", "faction": "faction"}
_CONDITIONAL = ("excluded_target_keywords", "required_target_keywords_any")
_DAMAGED = re.compile(r"^damaged:?\s*(\d+)\s*[-–]\s*(\d+)\s+wounds? remaining", re.IGNORECASE)
_EDITIONS: dict[str, RulesVersion] = {"11th": "11th", "10th": "10th"}
#: ``attachment_role`` (schema: "leader", "support" or null) -> ``Datasheet.attach_role``
_ROLES: dict[str, Literal["leader", "support"]] = {"leader": "leader", "support": "support"}


def _singular(name: str) -> str:
    key = name_key(name)
    return key[:-1] if key.endswith("s") else key


class UnitConverter:
    """Converts one unit record; collects its issues in ``log``."""

    def __init__(self, ds: RecordLookup, unit: Raw, display: str) -> None:
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
        wargear = WargearReader(self.ds, u, self.log)
        rows = list((self.ds.composition(self.faction_id, u["id"]) or {}).get("models") or ())
        if not rows and composition:
            rows = [{"name": c.model, "min": c.min, "max": c.max} for c in composition]
        types = wargear.model_types(rows, {c.model: c.model for c in composition}
                                    if len(models) > 1 else {c.model: models[0].name
                                                             for c in composition})
        tiers, types = self._tiers(types, models)
        if tiers:
            composition = tuple(CompositionLine(model=t.name, min=t.min, max=t.max)
                                for t in types)
        self._check_size(composition, tiers)
        options = wargear.wargear(types, rows)
        types = wargear.mend(types, options)
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
        leader_of, leader_keywords = self._leader_of()
        data: dict[str, Any] = {
            "name": self.name,
            "rules": rules,
            "faction_keywords": tuple(u.get("faction_keywords") or ()),
            "keywords": tuple(u.get("keywords") or ()),
            "models": models,
            "weapons": self._weapons(),
            "abilities": abilities,
            "composition": composition,
            "tiers": tiers,
            "points": self._points(),
            "leader_of": leader_of,
            "leader_keywords": leader_keywords,
            "attach_role": _ROLES.get(str(u.get("attachment_role"))),
            "transport": self._transport(),
            "damaged": damaged,
            "model_types": types,
            "wargear": options,
            "wargear_budgets": wargear.budgets(),
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
            data["conditional_saves"] = tuple(
                ConditionalSave(value=p[key], against=against)
                for key, against in (("invuln_sv_ranged", "ranged"), ("invuln_sv_melee", "melee"))
                if isinstance(p.get(key), int) and 2 <= p[key] <= 6)
            profile = model_profile(data, self.log, record)
            if profile is not None:
                out.append(profile)
        if not out:
            raise UnitRejected("profiles", "no valid stat line")
        return out

    def _profile_for(self, model: Raw, profiles: list[ModelProfile]) -> ModelProfile | None:
        wanted = model.get("profile_name") or model["name"]
        for p in profiles:
            if name_key(p.name) == name_key(wanted) or _singular(p.name) == _singular(wanted):
                return p
        if len(profiles) == 1:
            return profiles[0]
        starts = [p for p in profiles if name_key(wanted).startswith(_singular(p.name))]
        if starts:
            return max(starts, key=lambda p: len(p.name))
        ends = [p for p in profiles if _singular(p.name).endswith(_singular(wanted))]
        if len(ends) == 1:  # the row "Nob" wears the stat line "Boss Nob"
            self.log.repaired(f"composition {model['name']!r}",
                              f"given the stat line {ends[0].name!r}, whose name ends with it")
            return ends[0]
        self.log.suspect(
            f"composition {model['name']!r}",
            "no stat line of that name in the data: these models cannot be a target",
        )
        return None

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
            if count.get("min") and count.get("max"):
                return self._guessed_composition(profiles, count["min"], count["max"]), tuple(
                    profiles)
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
            if profile is None:
                continue
            used.add(profile.name)
            if name_key(profile.name) != name_key(line.model):
                profile = profile.model_copy(update={"name": line.model})
            if all(name_key(p.name) != name_key(profile.name) for p in models):
                models.append(profile)
        models += [p for p in profiles if p.name not in used]
        return tuple(lines), tuple(models)

    def _guessed_composition(self, profiles: list[ModelProfile], low: int, high: int
                             ) -> tuple[CompositionLine, ...]:
        """No composition for several stat lines: the unit's ``model_count`` shared out
        evenly between them (the first the larger shares), a guess the notes say."""
        n = len(profiles)
        lines = tuple(CompositionLine(model=p.name, min=low // n + (i < low % n),
                                      max=high // n + (i < high % n))
                      for i, p in enumerate(profiles))
        self.log.suspect("composition", "none in the dataset; a guess: "
                         + ", ".join(f"{c.min}-{c.max} {c.model}" for c in lines))
        return lines

    def _check_size(self, lines: Sequence[CompositionLine],
                    tiers: Sequence[Sequence[CompositionLine]] = ()) -> None:
        count = self.unit.get("model_count") or {}
        low, high = sum(c.min for c in lines), sum(c.max for c in lines)
        if tiers:
            low = min(sum(c.min for c in t) for t in tiers)
            high = max(sum(c.max for c in t) for t in tiers)
        if count and lines and (low, high) != (count.get("min"), count.get("max")):
            self.log.suspect(
                "composition",
                f"{low}-{high} models by composition, {count.get('min')}-{count.get('max')} "
                "by model_count; composition kept",
            )

    def _tiers(self, types: tuple[ModelType, ...], models: tuple[ModelProfile, ...]
               ) -> tuple[tuple[tuple[CompositionLine, ...], ...], tuple[ModelType, ...]]:
        """The composition's tiers (``unit_compositions[].tiers``: a legal unit matches
        one), named by model type, and the types with the tiers' envelope as their range.
        A tier model that is no row is the one row no tier names (Boyz: the tiers' "Boss
        Nob" is the row "Nob"), else a new type like the row it ends with (Nobz: a "Boss
        Nob" beside the "Nob" row), with its own stat line if there is one."""
        comp = self.ds.composition(self.faction_id, self.unit["id"]) or {}
        raw: Sequence[Raw] = comp.get("tiers") or ()
        if not raw:
            return (), types
        named = [str(m["name"]) for t in raw for m in t.get("models") or ()]
        strangers = list(dict.fromkeys(n for n in named if all(t.name != n for t in types)))
        unseated = [t for t in types if t.name not in named]
        rename: dict[str, str] = {}
        out = list(types)
        for name in strangers:
            if len(strangers) == 1 and len(unseated) == 1:
                rename[name] = unseated[0].name
                self.log.repaired("composition", f"tier model {name!r} read as the row "
                                  f"{unseated[0].name!r}, which no tier names")
                continue
            base = next((t for t in types if name_key(name).endswith(_singular(t.name))), None)
            if base is None:
                raise UnitRejected("composition", f"tier model {name!r} is no model of the "
                                   "unit")
            profile = next((p.name for p in models if name_key(p.name) == name_key(name)),
                           base.profile)
            out.append(base.model_copy(update={"name": name, "profile": profile,
                                               "leader_model": True}))
            self.log.repaired("composition", f"tier model {name!r}: a model like the "
                              f"{base.name!r} row, with the {profile!r} stat line")
        tiers = []
        for t in raw:
            lines = [build(CompositionLine, {"model": rename.get(str(m["name"]), m["name"]),
                                             "min": m.get("min"), "max": m.get("max")},
                           self.log, "composition tier") for m in t.get("models") or ()]
            tiers.append(tuple(line for line in lines if line is not None))
        low: dict[str, int] = {}
        high: dict[str, int] = {}
        for tier in tiers:
            counts = {c.model: c for c in tier}
            for kind in out:
                c = counts.get(kind.name)
                low[kind.name] = min(low.get(kind.name, 1 << 30), c.min if c else 0)
                high[kind.name] = max(high.get(kind.name, 0), c.max if c else 0)
        dropped = [t.name for t in out if high[t.name] == 0]
        if dropped:
            self.log.repaired("composition", f"{', '.join(dropped)}: in no tier; left out")
        kept = tuple(t.model_copy(update={"min": low[t.name], "max": high[t.name]})
                     for t in out if high[t.name] > 0)
        return tuple(tiers), kept

    # -- weapons --
    def _weapons(self) -> tuple[Weapon, ...]:
        out: list[Weapon] = []
        ids = [str(i) for i in dict.fromkeys(self.unit.get("weapon_ids") or ())]
        for wid in ids:
            raw = self.ds.weapon(self.faction_id, wid)
            if raw is None:
                self.log.repaired(f"weapon {wid!r}", "not in the dataset; left out")
                continue
            out += self._weapon(self._launch_record(wid, raw, ids))
        if not out:
            self.log.suspect("weapons", "none in the dataset")
        return tuple(out)

    def _launch_record(self, wid: str, raw: Raw, ids: Sequence[str]) -> Raw:
        """A provisional record of a weapon the unit also has as its own copy (Intercessor
        Squad: 'astartes-grenade-launcher', pre-launch provisional, beside the launch
        record 'astartes-grenade-launcher-intercessor-squad') takes the copy's profiles:
        one weapon, one stat line, under the name the options use."""
        if "provisional" not in str((raw.get("game_version") or {}).get("dataslate")):
            return raw
        uid = str(self.unit["id"])
        copies = [i for i in ids if i.startswith(f"{wid}-") and uid in i[len(wid):]]
        copy = self.ds.weapon(self.faction_id, copies[0]) if len(copies) == 1 else None
        if copy is None:
            return raw
        self.log.repaired(f"weapon {wid!r}", f"a provisional record: the stat lines of the "
                          f"unit's {copies[0]!r} used")
        return {**copy, "name": raw["name"]}

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
        restrictions = p.get("target_restrictions") or {}
        may_target = None
        if restrictions.get("required_keywords_any"):
            may_target = TargetCondition(any_of=tuple(restrictions["required_keywords_any"]))
        for key in set(restrictions) - {"required_keywords_any"}:
            self.log.unsupported(record, f"target restriction {key!r}: not read")
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
            "may_target": may_target,
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
                return [f"Anti-{t} {threshold}+" for t in targets]  # only against X
        elif "value" in params:
            text = f"{name} {params['value']}"
        elif "target_keyword" in params:  # [HUNTER X]
            text = f"{name} {params['target_keyword']}"
        else:
            text = name
        limits = {k: params[k] for k in _CONDITIONAL if params.get(k)}
        if limits:
            words = []
            if "required_target_keywords_any" in limits:
                words.append("only against " + "/".join(limits["required_target_keywords_any"]))
            if "excluded_target_keywords" in limits:
                words.append("not against " + "/".join(limits["excluded_target_keywords"]))
            return [f"{text} ({' and '.join(words)})"]  # model.abilities.Limited
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
            ability = core_ability(name, kind, None, self.source)
            if raw.get("effect") and kind == "unit":
                ability = ability.model_copy(update={"effect": effect_record(
                    raw, self.ds, self.faction_id)})
            out.append(ability)
            fnp = _feel_no_pain(raw)
            if fnp is not None and kind == "unit":
                # Lifewards, Ogryn Bodyguard: the unit's own Feel No Pain, by another name
                out.append(core_ability(f"Feel No Pain {fnp}+", "core", name, self.source))
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

    def _leader_of(self) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]:
        """The bodyguard unit names and keyword sets (``wh40kdc_leaders``)."""
        return leader_lists(self.ds, self.unit["id"], self.faction_id, self.log)

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
            cost = e.get("cost")
            if not isinstance(low, int) or not isinstance(high, int) or high < low:
                self.log.repaired("points", f"left out: bracket {dict(e)} has no model count")
                continue
            if not isinstance(cost, int):
                self.log.repaired("points", f"left out: bracket {dict(e)} has no cost")
                continue
            prices = tiers.setdefault((first, last), {})
            for size in range(low, high + 1):
                prices[size] = cost
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
    for dash in (" - ", " – ", " — "):  # "Plasma Incinerator - Supercharge" repeats the name
        head, sep, rest = profile.partition(dash)
        if sep and name_key(head) == name_key(weapon) and rest.strip():
            profile = rest.strip()
            break
    return f"{weapon} – {profile}" if count > 1 or profile else weapon


def _feel_no_pain(raw: Raw) -> int | None:
    """The threshold of an ability whose effect is, without condition, a Feel No Pain of
    the unit or the model itself (``{"type": "feel-no-pain", "target": "unit",
    "modifier": {"threshold": 4}}``), else ``None``; not for one the player uses when
    chosen, nor one ``wh40kdc_readings`` lists or mends (Null Rod: "the Feel No Pain 4+
    ability against mortal wounds and Psychic Attacks")."""
    effect = raw.get("effect") or {}
    threshold = (effect.get("modifier") or {}).get("threshold")
    if effect.get("type") != "feel-no-pain" or effect.get("target") not in ("unit", "self"):
        return None
    if raw.get("behavior") not in (None, "passive", "aura") or mark_reason(raw) is not None \
            or mended_effect(raw) != effect:
        return None  # used when chosen, or read otherwise by its published rule (a Feel
        # No Pain only against Psychic Attacks, of some models only, for another unit)
    return threshold if isinstance(threshold, int) and 2 <= threshold <= 6 else None

