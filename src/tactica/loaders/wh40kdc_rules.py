"""The bundled dataset's army rules as rule records: detachments, detachment rules,
stratagems, enhancements and army rules of every faction (issue 16).

The ``wh40kdc`` bundle (1.4.5) holds, per record (``wh40kdc/schemas/core/*.schema.json``):

* ``detachments``: ``detachment_points``, ``detachment_rule_id(s)``, ``stratagem_ids``,
  ``enhancement_ids``, ``granted_keywords`` (``{keyword, to_keywords, max_selected}``),
  ``restrictions.required_keywords``, ``unit_minimums``, ``game_modes``;
* ``stratagems``: ``cp_cost``, ``phases``, ``player_turn``, ``timing``, ``type``
  (battle-tactic, strategic-ploy, epic-deed, wargear), ``target_restrictions``,
  ``category`` (core or detachment) and the ``ability_id`` of its effect;
* ``enhancements``: ``cost``, ``is_unique``, ``keyword_restrictions`` (all of) or
  ``keyword_restriction_groups`` (one group, all of it), ``exclusion_keywords``;
* ``factions``: ``faction_rule_ids`` (the army rules: Oath of Moment...);
* ``abilities``: the machine-readable ``effect`` of each rule (read by
  ``tactica.effects.compiler``); the dataset has no rules text (``community_notes`` are
  curation notes), so records carry names, numbers and restrictions only.

Every record is 11th edition (``game_version.edition``); the dataslate goes in its
source note. Names printed in capitals ("ARMOUR OF CONTEMPT") are written in title case.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from tactica.cache_registry import lasting_cache

from ..model.common import Source
from ..model.rules import (
    ArmyRule,
    Detachment,
    DetachmentRule,
    Enhancement,
    GrantedKeyword,
    RuleRecord,
    Stratagem,
    StratagemCategory,
)
from ..names import name_key

__all__ = ["DatasetRules", "dataset_rules", "display_name", "without_seed_duplicates"]

Raw = Mapping[str, Any]

_CATEGORY: dict[str, StratagemCategory] = {
    "battle-tactic": "Battle Tactic",
    "strategic-ploy": "Strategic Ploy",
    "epic-deed": "Epic Deed",
    "wargear": "Wargear",
}
_SMALL = {"a", "an", "and", "at", "by", "for", "from", "in", "of", "on", "or", "the", "to",
          "with"}


def display_name(name: str) -> str:
    """A name as printed on a card: capitals become title case, small words lower.

    >>> display_name("ARMOUR OF CONTEMPT"), display_name("Oath of Moment")
    ('Armour of Contempt', 'Oath of Moment')
    """
    if not name.isupper():
        return name
    words = name.lower().split(" ")
    return " ".join(w if i and w in _SMALL else w[:1].upper() + w[1:]
                    for i, w in enumerate(words))


def _first_by_id(rows: Iterable[Raw]) -> dict[str, Raw]:
    out: dict[str, Raw] = {}
    for r in rows:
        out.setdefault(r["id"], r)
    return out


def _by_detachment(rows: Iterable[Raw]) -> dict[Any, list[Raw]]:
    """The rows of each ``detachment_id``, in their order (one pass, not one per
    detachment)."""
    out: dict[Any, list[Raw]] = {}
    for r in rows:
        out.setdefault(r.get("detachment_id"), []).append(r)
    return out


def _restrictions(raw: Raw | None) -> str | None:
    """A stratagem's ``target_restrictions`` in words."""
    if not raw:
        return None
    parts = []
    if raw.get("required_keywords"):
        parts.append("the unit has " + " and ".join(k.upper() for k in raw["required_keywords"]))
    if raw.get("required_keywords_any"):
        parts.append("the unit has " + " or ".join(
            k.upper() for k in raw["required_keywords_any"]))
    if raw.get("notes"):
        parts.append(str(raw["notes"]))
    return "; ".join(parts) or None


class DatasetRules:
    """Rule records of the bundle ``raw`` and, per record, the ability holding its effect
    (``effect_of``). Built once per process by ``dataset_rules``; tests pass small hand-made
    bundles of the same layout."""

    def __init__(self, raw: Raw, version: str) -> None:
        self.version = version
        self._faction = {f["id"]: f for f in raw.get("factions") or []}
        self._abilities: dict[str, Raw] = {}
        for a in raw.get("abilities") or []:
            self._abilities.setdefault(a["ability_id"], a)
        self._effect_of: dict[tuple[str, str], Raw | None] = {}
        self._restrictions: dict[str, Raw] = {}
        self.unit_keywords: frozenset[str] = frozenset(
            str(k).upper() for u in raw.get("units") or []
            for k in (*(u.get("keywords") or ()), *(u.get("faction_keywords") or ())))
        # detachments, stratagems and enhancements repeat per faction that may take them
        # (Gladius Task Force under Adeptus Astartes and every chapter): one record per id,
        # with every faction that has it
        self._det_factions: dict[str, list[str]] = {}
        dets: dict[str, Raw] = {}
        for d in raw.get("detachments") or []:
            dets.setdefault(d["id"], d)
            self._det_factions.setdefault(d["id"], []).append(d.get("faction_id") or "")
        self._modes = {d["name"]: tuple(d.get("game_modes") or ()) for d in dets.values()}
        self._det_faction_names = {d["name"]: self.factions_of(d) for d in dets.values()}
        strats = list(_first_by_id(raw.get("stratagems") or []).values())
        enhs = list(_first_by_id(raw.get("enhancements") or []).values())
        self._records: list[RuleRecord] = []
        strats_of, enhs_of = _by_detachment(strats), _by_detachment(enhs)
        self._records += [self._detachment(d, strats_of.get(d["id"], []),
                                           enhs_of.get(d["id"], [])) for d in dets.values()]
        self._records += self._detachment_rules(dets.values())
        self._records += [self._stratagem(s, dets) for s in strats]
        self._records += [self._enhancement(e, dets) for e in enhs]
        self._records += self._army_rules()

    # -- helpers --
    def _source(self, kind: str, rid: str, raw: Raw) -> Source:
        slate = (raw.get("game_version") or {}).get("dataslate")
        note = f"{kind} {rid}" + (f" ({slate})" if slate else "")
        return Source(file=f"wh40kdc {self.version}", note=note)

    def _home(self, det: Raw) -> str:
        """The faction a detachment belongs to: of those that have it, the one that is
        no other's sub-faction (Adeptus Astartes for Gladius Task Force)."""
        fids = self._det_factions.get(det["id"], [det.get("faction_id") or ""])
        roots = [f for f in fids if not (self._faction.get(f) or {}).get("parent_faction_id")]
        return self.faction_name((roots or fids)[0])

    def factions_of(self, det: Raw) -> tuple[str, ...]:
        return tuple(self.faction_name(f) for f in self._det_factions.get(det["id"], []))

    def faction_name(self, fid: str | None) -> str:
        f = self._faction.get(fid or "")
        return str(f["name"]) if f else (fid or "")

    def faction_keywords(self, faction: str) -> tuple[str, ...]:
        """The keywords of a faction (by name or id) as the dataset lists them."""
        for f in self._faction.values():
            if name_key(f["name"]) == name_key(faction) or f["id"] == faction:
                return tuple(f.get("keywords") or ())
        return ()

    def parent_of(self, faction: str) -> str | None:
        """The name of the faction ``faction`` (by name) is a sub-faction of (Adeptus
        Astartes for Blood Angels), or ``None``."""
        for f in self._faction.values():
            if name_key(f["name"]) == name_key(faction):
                parent = f.get("parent_faction_id")
                return self.faction_name(parent) if parent else None
        return None

    def _ability(self, aid: str | None) -> Raw | None:
        return None if aid is None else self._abilities.get(aid)

    def faction_names(self) -> tuple[str, ...]:
        """Every faction of the bundle, in its order."""
        return tuple(str(f["name"]) for f in self._faction.values())

    def ability(self, aid: str) -> Raw | None:
        """The dataset ability with this id (a granted ability's effect)."""
        return self._abilities.get(aid)

    def factions_for(self, record: RuleRecord) -> tuple[str, ...]:
        """Every faction that may use ``record``: its detachment's factions (a chapter
        takes its parent's detachments), an army rule's factions."""
        if isinstance(record, ArmyRule):
            return record.factions
        det = getattr(record, "detachment", None)
        found = self._det_faction_names.get(det or "")
        if found:
            return found
        faction = getattr(record, "faction", None)
        return (faction,) if faction else ()

    def game_modes(self, record: RuleRecord) -> tuple[str, ...]:
        """The game modes of the detachment a record belongs to (``combat-patrol``)."""
        det = getattr(record, "detachment", None)
        return self._modes.get(det or "", ())

    def target_restrictions(self, record: RuleRecord) -> Raw | None:
        """A stratagem's ``target_restrictions`` as the dataset has them."""
        key = getattr(record, "key", None)
        return None if key is None else self._restrictions.get(key)

    def _remember(self, kind: str, key: str, aid: str | None) -> None:
        self._effect_of[(kind, key)] = self._ability(aid)

    # -- records --
    def _detachment(self, d: Raw, strats: list[Raw], enhs: list[Raw]) -> Detachment:
        """The detachment ``d``; ``strats`` and ``enhs`` are its own stratagems and
        enhancements."""
        rule_ids = list(d.get("detachment_rule_ids") or ())
        if d.get("detachment_rule_id") and d["detachment_rule_id"] not in rule_ids:
            rule_ids.insert(0, d["detachment_rule_id"])
        rule_names = tuple(display_name(str(a["name"])) for i in rule_ids
                           if (a := self._ability(i)) is not None)
        strat_names = tuple(dict.fromkeys(display_name(s["name"]) for s in strats))
        enh_names = tuple(dict.fromkeys(e["name"] for e in enhs))
        granted = tuple(
            GrantedKeyword(keyword=g["keyword"].upper(),
                           to_keywords=tuple(k.upper() for k in g.get("to_keywords") or ()),
                           max_selected=g.get("max_selected"))
            for g in d.get("granted_keywords") or ())
        required = tuple(k.upper() for k in
                         (d.get("restrictions") or {}).get("required_keywords") or ())
        minimums = tuple((m["keyword"].upper(), int(m["min"]))
                         for m in d.get("unit_minimums") or ())
        return Detachment(
            name=d["name"], faction=self._home(d), factions=self.factions_of(d),
            points=d.get("detachment_points"), rule_names=rule_names,
            stratagems=strat_names, enhancements=enh_names, granted_keywords=granted,
            required_keywords=required, unit_minimums=minimums,
            game_modes=tuple(d.get("game_modes") or ()), rules="11th",
            source=self._source("detachment", d["id"], d), key=d["id"])

    def _detachment_rules(self, dets: Iterable[Raw]) -> list[DetachmentRule]:
        out = []
        for d in dets:
            ids = list(d.get("detachment_rule_ids") or ())
            if d.get("detachment_rule_id") and d["detachment_rule_id"] not in ids:
                ids.insert(0, d["detachment_rule_id"])
            for aid in ids:
                ability = self._ability(aid)
                if ability is None:
                    continue
                key = f"{d['id']}/{aid}"
                self._remember("detachment_rule", key, aid)
                out.append(DetachmentRule(
                    name=display_name(str(ability["name"])), detachment=d["name"], text="",
                    rules="11th", source=self._source("detachment rule", aid, ability),
                    faction=self._home(d), key=key))
        return out

    def _stratagem(self, s: Raw, dets: Mapping[str, Raw]) -> Stratagem:
        det = dets.get(s.get("detachment_id") or "")
        self._remember("stratagem", s["id"], s.get("ability_id"))
        if s.get("target_restrictions"):
            self._restrictions[s["id"]] = s["target_restrictions"]
        return Stratagem(
            name=display_name(s["name"]), cp=int(s["cp_cost"]),
            detachment="Core" if det is None else det["name"],
            category=_CATEGORY.get(s.get("type") or ""),
            restrictions=_restrictions(s.get("target_restrictions")), rules="11th",
            source=self._source("stratagem", s["id"], s),
            faction=None if det is None else self._home(det),
            phases=tuple(s.get("phases") or ()), timing=s.get("timing"),
            turn=s.get("player_turn"), key=s["id"])

    def _enhancement(self, e: Raw, dets: Mapping[str, Raw]) -> Enhancement:
        det = dets.get(e.get("detachment_id") or "")
        self._remember("enhancement", e["id"], e.get("ability_id"))
        groups: tuple[tuple[str, ...], ...] = tuple(
            tuple(k.upper() for k in g) for g in e.get("keyword_restriction_groups") or ())
        if not groups and e.get("keyword_restrictions"):
            groups = (tuple(k.upper() for k in e["keyword_restrictions"]),)
        eligibility = " or ".join(" ".join(g) for g in groups) or None
        return Enhancement(
            name=e["name"], points=e.get("cost"),
            detachment="" if det is None else det["name"], eligibility=eligibility,
            rules="11th", source=self._source("enhancement", e["id"], e),
            faction=None if det is None else self._home(det),
            keyword_groups=groups,
            excluded_keywords=tuple(k.upper() for k in e.get("exclusion_keywords") or ()),
            unique=e.get("is_unique"), game_modes=tuple(e.get("game_modes") or ()),
            key=e["id"])

    def _army_rules(self) -> list[ArmyRule]:
        factions: dict[str, list[str]] = {}
        for f in self._faction.values():
            for rid in f.get("faction_rule_ids") or ():
                factions.setdefault(rid, []).append(str(f["name"]))
        out = []
        for rid, names in factions.items():
            ability = self._ability(rid)
            if ability is None:
                continue
            self._remember("army_rule", rid, rid)
            out.append(ArmyRule(name=display_name(str(ability["name"])),
                                factions=tuple(names), rules="11th",
                                source=self._source("army rule", rid, ability), key=rid))
        return out

    # -- the answers --
    def records(self) -> tuple[RuleRecord, ...]:
        """Every record: detachments, detachment rules, stratagems, enhancements, army
        rules, in that order."""
        return tuple(self._records)

    def effect_of(self, record: RuleRecord) -> Raw | None:
        """The dataset ability that holds ``record``'s effect, or ``None``."""
        kind = getattr(record, "record", "")
        key = getattr(record, "key", None)
        return None if key is None else self._effect_of.get((kind, key))

    def detachments(self) -> tuple[Detachment, ...]:
        return tuple(r for r in self._records if isinstance(r, Detachment))


def _identity(record: RuleRecord) -> tuple[str, str, str] | None:
    name = getattr(record, "name", None)
    if name is None:
        return None
    where = getattr(record, "detachment", None) or ""
    return (str(record.record), name_key(str(name)), name_key(str(where)))


def without_seed_duplicates(records: Iterable[RuleRecord],
                            seeds: Iterable[RuleRecord]) -> tuple[RuleRecord, ...]:
    """``records`` less those a seed page already has (same kind, name and detachment):
    the seed pages stay authoritative for their own records."""
    seen = {i for r in seeds if (i := _identity(r)) is not None}
    return tuple(r for r in records if _identity(r) not in seen)


@lasting_cache(maxsize=None, kind="data")
def dataset_rules() -> DatasetRules:
    """The installed dataset's rule records, built once per process. Raises
    ``DatasetMissingError`` when ``wh40kdc`` is not installed."""
    from .wh40kdc import DatasetMissingError, installed_version

    try:
        from wh40kdc.data import raw_data
    except ImportError:
        raise DatasetMissingError() from None
    return DatasetRules(raw_data(), installed_version() or "unknown")
