"""Every faction's stratagems, detachment rules, enhancements and army rules as named
effects (issue 16): the dataset's records (``loaders.wh40kdc_rules``) compiled by
``effects.compiler``, each with one status:

* **modelled**: at least one part changes the odds; naming the rule applies the parts
  whose conditions hold (a part that does not apply is noted; if none does, the rule is
  refused with the reasons);
* **non-combat**: its effect is a move, an objective, CP, a deployment rule, battle-shock,
  fight order...: naming it lists it under ``not_calculated``;
* **not modelled**, with the reason (the dataset has no effect for it, or what the engine
  cannot express): naming it lists it under ``not_calculated``.

Every named effect keeps the conditions the record implies: its faction (the unit whose
rule it is must have one of the faction's keywords; an attacker profile with no faction
keyword at all is taken as given, a target never is), a stratagem's target
keywords, its phases (11th 15.01: a stratagem is used in the phase its WHEN names; one
used in another player's movement or charge phase is not a Fire Overwatch stratagem
unless that phase is listed).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal

from tactica.cache_registry import lasting_cache

from ..loaders.wh40kdc_rules import DatasetRules
from ..model.rules import ArmyRule, DetachmentRule, Enhancement, Stratagem
from ..names import bare, name_key, normalise
from .compiler import Compiled, compile_effect
from .dsl_conditions import Owner
from .faction_checks import FactionKeys, unit_limits
from .model import Condition, EffectKind, NamedEffect
from .record_apply import RecordApply, Status, name_options, note_gaps
from .record_readings import read_record
from .same_name import SameName, candidate_label

__all__ = ["DatasetEffect", "DatasetEffects", "Status", "dataset_effects"]


_KINDS: dict[str, EffectKind] = {"stratagem": "stratagem", "enhancement": "enhancement",
                                 "detachment_rule": "detachment rule",
                                 "army_rule": "army rule"}
_GENERIC = frozenset({"imperium", "chaos"})
ArmyRecord = Stratagem | Enhancement | DetachmentRule | ArmyRule


@dataclass(frozen=True)
class DatasetEffect:
    """One record, its compiled effect, its status and the named effect built from it."""

    record: ArmyRecord
    factions: tuple[str, ...]
    compiled: Compiled
    has_effect: bool
    effect: NamedEffect
    #: the effect is that of the same-named record of another detachment
    borrowed: bool = False
    #: the dataset's ``behavior``: passive, aura, activated (the player chooses to use
    #: it: Waaagh!, Oath of Moment) or reactive
    behavior: str | None = None
    #: what the record's notes say is not encoded or approximated
    gaps: tuple[str, ...] = ()

    @property
    def missing(self) -> tuple[str, ...]:
        """The parts of a modelled record that are not calculated: combat leaves the
        engine cannot express, effect kinds or modifier keys not read, and what the
        record's notes say is not encoded or approximated."""
        if self.status != "modelled":
            return ()
        c = self.compiled
        return tuple(dict.fromkeys(
            [*c.unmodelled, *(f"effect kind {k!r} unknown" for k in c.unknown),
             *(f"modifier key {k!r} not read" for k in c.unread), *self.gaps]))

    @property
    def options(self) -> tuple[tuple[str, str], ...]:
        """The options a player names ("Martial Ka'tah: Sustained Hits 1"), each with
        what it does."""
        c = self.compiled
        return tuple((o, c.option_terms.get(o, o)) for o in c.options)

    def described(self) -> str:
        """What the record does in the calculator, in one line: its terms (its options
        named), what is not calculated, or why it is not modelled."""
        if self.status != "modelled":
            return self.reason
        text = self.effect.terms
        if self.options:
            text = "options: " + "; ".join(o if o.endswith(d) else f"{o} ({d})"
                                           for o, d in self.options)
            fixed = [p.terms for p in self.compiled.parts if p.option is None]
            if fixed:
                text = "; ".join(dict.fromkeys(fixed)) + "; " + text
        if self.missing:
            text += "; not calculated: " + "; ".join(self.missing)
        return text

    @property
    def coverage_class(self) -> Literal["modelled", "partly", "non-combat", "not modelled"]:
        """What the record does in the calculator: modelled in full, partly (``missing``
        names the part), non-combat, or not modelled."""
        if self.status == "modelled" and self.missing:
            return "partly"
        return self.status

    @property
    def status(self) -> Status:
        return self.compiled.status if self.has_effect or self.borrowed else "not modelled"

    @property
    def reason(self) -> str:
        if not self.has_effect and not self.borrowed:
            return f"the dataset has no effect for this {self.effect.kind}"
        return self.compiled.reason


def _reaches_others(effect: Any) -> bool:
    """Whether an effect tree buffs units other than its bearer's (an aura, every
    friendly unit): an enhancement's ``applies_to`` then limits the bearer only (Target
    Augury Web: a TECHMARINE gives Lethal Hits to a VEHICLE near it)."""
    if isinstance(effect, Mapping):
        if effect.get("target") in ("friendly-within-aura", "all-friendly") or \
                effect.get("type") == "aura":
            return True
        return any(_reaches_others(v) for v in effect.values())
    if isinstance(effect, list):
        return any(_reaches_others(v) for v in effect)
    return False


def _faction_keys(rules: DatasetRules) -> FactionKeys:
    keywords: dict[str, frozenset[str]] = {}
    own: dict[str, str] = {}
    parent: dict[str, str | None] = {}
    for f in rules.faction_names():
        listed = [normalise(k) for k in rules.faction_keywords(f)]
        keywords[f] = frozenset(listed) - _GENERIC | {normalise(f)}
        own[f] = listed[-1] if listed else normalise(f)
        parent[f] = rules.parent_of(f)
    return FactionKeys(keywords, own, parent)


class DatasetEffects:
    """The named effects of every dataset record, indexed by name (and by "Name
    (Detachment)")."""

    def __init__(self, rules: DatasetRules) -> None:
        self.entries: list[DatasetEffect] = []
        self._merged: dict[tuple[str, tuple[str, ...]], DatasetEffect] = {}
        self._rules = rules
        self._index: dict[str, list[DatasetEffect]] = {}
        self._behavior: dict[tuple[str, str], str | None] = {}
        compiled: list[tuple[ArmyRecord, tuple[str, ...], Compiled | None]] = []
        by_name: dict[str, list[tuple[tuple[str, ...], Compiled]]] = {}
        self._factions = _faction_keys(rules)
        self._limits: dict[tuple[str, str], Mapping[str, Any] | None] = {}
        self._gaps: dict[tuple[str, str], tuple[str, ...]] = {}
        for record in rules.records():
            if not isinstance(record, Stratagem | Enhancement | DetachmentRule | ArmyRule):
                continue
            factions = rules.factions_for(record)
            raw = rules.effect_of(record)
            effect, gaps = read_record((raw or {}).get("ability_id"), None if raw is None
                                       else raw.get("effect"),
                                       note_gaps((raw or {}).get("community_notes")))
            entry = None if effect is None else name_options(
                record.name, compile_effect(effect, record.name, rules.ability))
            compiled.append((record, factions, entry))
            self._behavior[(record.record, record.key or "")] = (raw or {}).get("behavior")
            limit = (raw or {}).get("applies_to")
            if isinstance(record, Enhancement) and _reaches_others(effect):
                limit = None  # the bearer's keywords, not those of the units it buffs
            self._limits[(record.record, record.key or "")] = limit
            self._gaps[(record.record, record.key or "")] = gaps
            if entry is not None:
                by_name.setdefault(f"{record.record}/{normalise(record.name)}", []).append(
                    (factions, entry))
        for record, factions, entry in compiled:
            borrowed = entry is None and self._borrow([
                c for fs, c in by_name.get(f"{record.record}/{normalise(record.name)}", [])
                if self._family(fs) & self._family(factions)])
            self.entries.append(self._entry(
                record, factions, entry or borrowed or Compiled(), entry is not None,
                rules.target_restrictions(record), borrowed=bool(borrowed)))
        self._by_record: dict[tuple[str, str], DatasetEffect] = {}
        for e in self.entries:
            for key in self._keys(e):
                self._index.setdefault(key, []).append(e)
            self._by_record[(e.record.record, e.record.key or "")] = e

    def _family(self, factions: tuple[str, ...]) -> set[str]:
        """The factions and their parents (a chapter's family is the Adeptus Astartes)."""
        return self._factions.allowed(factions)

    @staticmethod
    def _borrow(others: list[Compiled]) -> Compiled | None:
        """The effect of the same-named record of another detachment of the same faction
        or family (Armour of Contempt is one card in every Adeptus Astartes detachment
        that has it), when every such record agrees; never another faction's (issue 24:
        an Agents of the Imperium record does not borrow a Space Marine one)."""
        if not others:
            return None
        terms = {tuple(p.terms for p in c.parts) for c in others}
        return others[0] if len(terms) == 1 and others[0].parts else None

    def _entry(self, record: ArmyRecord,
               factions: tuple[str, ...], compiled: Compiled, has_effect: bool,
               restrictions: Mapping[str, Any] | None, borrowed: bool = False,
               detachments: tuple[str, ...] | None = None) -> DatasetEffect:
        kind = _KINDS[record.record]
        usable = has_effect or borrowed
        status: Status = compiled.status if usable else "not modelled"
        reason = compiled.reason if usable else f"the dataset has no effect for this {kind}"
        label = " or ".join(f.upper() for f in factions) or "faction"
        limits = (self._limits.get((record.record, record.key or "")), restrictions)
        record_conditions: dict[Owner, tuple[Condition, ...]] = {}
        for owner in ("attacker", "target"):
            conds: tuple[Condition, ...] = ()
            if any(f in self._factions.keywords for f in factions):
                conds = self._factions.conditions(owner, factions, label)
            record_conditions[owner] = conds + unit_limits(
                owner, *limits, bearer=isinstance(record, Enhancement))
        phases = record.phases if isinstance(record, Stratagem) else ()
        combat_phases = tuple(p for p in phases if p in ("shooting", "fight"))
        source = getattr(record, "detachment", None) or ", ".join(factions) or "Core"
        if detachments is None:
            own = getattr(record, "detachment", None)
            detachments = (own,) if own and own != "Core" else ()
        gaps = self._gaps.get((record.record, record.key or ""), ()) if has_effect else ()
        terms = "; ".join(dict.fromkeys(p.terms for p in compiled.parts)) if \
            status == "modelled" else f"{status}: {reason}"
        named = NamedEffect(
            name=record.name, kind=kind, source=source,
            cp=record.cp if isinstance(record, Stratagem) else 0,
            phases=combat_phases or ("shooting", "fight"), rules=("11th",),
            conditions=(), terms=terms, section="15.01" if kind == "stratagem" else None,
            apply=RecordApply(record.name, compiled, status, reason, record_conditions, phases,
                              detachments, gaps),
            parameter=" | ".join(compiled.options) or None, when_phases=phases,
            game_modes=self._rules.game_modes(record))
        behavior = self._behavior.get((record.record, record.key or ""))
        return DatasetEffect(record, factions, compiled, has_effect, named, borrowed, behavior,
                             gaps)

    def _restrictions_of(self, entry: DatasetEffect) -> Mapping[str, Any] | None:
        return self._rules.target_restrictions(entry.record)

    def _keys(self, entry: DatasetEffect) -> list[str]:
        keys = [normalise(entry.record.name)]
        plain = bare(entry.record.name)
        if plain != entry.record.name:  # a list says "Snarling Rivalry" for "... (Upgrade)"
            keys.append(normalise(plain))
        where = getattr(entry.record, "detachment", None)
        if where:
            keys.append(normalise(f"{entry.record.name} ({where})"))
        return keys

    # -- look-ups --
    def every_faction_keyword(self) -> frozenset[str]:
        return self._factions.every

    def find(self, name: str, detachment: str | None = None) -> DatasetEffect | None:
        """The record named ``name`` ("Armour of Contempt" or "Armour of Contempt (Gladius
        Task Force)"): of several, the one of ``detachment``; several that do the same
        are one rule any of their factions may use; several that differ are resolved by
        the scenario's army (``same_name``)."""
        found = self._index.get(normalise(name), [])
        if not found:
            return None
        if detachment is not None:
            mine = [e for e in found
                    if name_key(getattr(e.record, "detachment", "") or "") == name_key(detachment)]
            found = mine or found
        groups: dict[tuple[str, str], list[DatasetEffect]] = {}
        for e in found:
            groups.setdefault((e.status, e.effect.terms), []).append(e)
        merged = [self._merge(name, same) for same in groups.values()]
        if len(merged) == 1:
            return merged[0]
        key = (normalise(name), ("?", *(e.record.key or "" for e in found)))
        if key not in self._merged:
            self._merged[key] = self._same_name(name, [
                (m, same) for m, same in zip(merged, groups.values(), strict=True)])
        return self._merged[key]

    def _merge(self, name: str, same: list[DatasetEffect]) -> DatasetEffect:
        """Records of one name that do the same (Armour of Contempt in every detachment
        that has it): one rule any of their factions and detachments may use."""
        best = same[0]
        factions = tuple(dict.fromkeys(f for e in same for f in e.factions))
        if len(same) == 1:
            return best
        dets = tuple(dict.fromkeys(d for e in same if (d := getattr(
            e.record, "detachment", None)) and d != "Core"))
        key = (normalise(name), factions + dets)
        if key not in self._merged:
            self._merged[key] = self._entry(best.record, factions, best.compiled,
                                            best.has_effect, self._restrictions_of(best),
                                            best.borrowed, dets)
        return self._merged[key]

    def _same_name(self, name: str,
                   groups: list[tuple[DatasetEffect, list[DatasetEffect]]]) -> DatasetEffect:
        first = groups[0][0]
        phases = tuple(dict.fromkeys(p for g, _ in groups for p in g.effect.phases))
        cps = {g.effect.cp for g, _ in groups}
        named = replace(first.effect, source="several detachments or factions",
                        phases=phases, cp=cps.pop() if len(cps) == 1 else 0,
                        terms="one of: " + " | ".join(
                            f"{candidate_label(e)}: {g.effect.terms}" for g, es in groups
                            for e in es[:1]),
                        apply=SameName(name, groups, self._factions), parameter=" | ".join(
                            dict.fromkeys(o for g, _ in groups for o in g.compiled.options))
                        or None)
        return replace(first, effect=named)

    def of_record(self, record: object) -> DatasetEffect | None:
        """The named effect built from this dataset record (``tactica rule`` shows its
        status)."""
        kind, key = getattr(record, "record", ""), getattr(record, "key", None)
        return None if key is None else self._by_record.get((str(kind), str(key)))

    def listing(self, faction: str | None = None,
                detachment: str | None = None) -> list[DatasetEffect]:
        """The records a faction may use (its own, its parent's detachments, its army
        rules), optionally only one detachment's (and the faction's army rules)."""
        out = []
        for e in self.entries:
            if faction is not None and name_key(faction) not in {name_key(f)
                                                                 for f in e.factions}:
                continue
            where = getattr(e.record, "detachment", None)
            if detachment is not None and where is not None and \
                    name_key(where) != name_key(detachment):
                continue
            if detachment is not None and where is None and faction is None:
                continue
            out.append(e)
        return out

    def list_rules(self, faction: str | None,
                   detachments: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
        """The detachment rules of ``detachments`` and the army rules of ``faction`` (what
        an army list brings), each with what naming it assumes (the target an Oath of
        Moment picked, being within an aura...): name -> assumptions."""
        out: dict[str, tuple[str, ...]] = {}
        picked = [e for d in detachments for e in self.listing(detachment=d)
                  if e.effect.kind == "detachment rule"]
        if faction:
            picked += [e for e in self.listing(faction=faction) if e.effect.kind == "army rule"]
        for e in picked:
            assumed = [a for p in e.compiled.parts for a in p.assumptions]
            # what holds unless the scenario says otherwise: the picked unit, the target
            # within a distance (a state a unit is not in is not assumed)
            assumed += [c.description for p in e.compiled.parts for c in p.conditions
                        if c.designation or c.description.startswith("the target is within")]
            if e.behavior in ("activated", "reactive"):
                assumed.append("the player uses it (it is not always on)")
            out.setdefault(e.record.name, tuple(dict.fromkeys(assumed)))
        return out

    def names(self) -> list[str]:
        return list(dict.fromkeys(e.record.name for e in self.entries))

    def coverage(self) -> dict[str, Counter[str]]:
        """Per faction (every faction that may use a record): records and what they do
        (``coverage_class``: modelled in full, partly, non-combat, not modelled)."""
        out: dict[str, Counter[str]] = {}
        for e in self.entries:
            for f in e.factions or ("Core",):
                c = out.setdefault(f, Counter())
                c["records"] += 1
                c[e.coverage_class] += 1
                c["with effect"] += int(e.has_effect)
                c["borrowed"] += int(e.borrowed)
                c["not modelled (with effect)"] += int(e.has_effect and e.status ==
                                                       "not modelled")
        return out

    def unknown_kinds(self) -> Counter[str]:
        out: Counter[str] = Counter()
        for e in self.entries:
            out.update(e.compiled.unknown)
        return out

    def unread_keys(self) -> Counter[str]:
        """Modifier keys of combat leaves no reader understands, with how many records
        have them (each such record lists them under ``not_calculated``)."""
        out: Counter[str] = Counter()
        for e in self.entries:
            out.update(set(e.compiled.unread))
        return out


@lasting_cache(maxsize=None, kind="data")
def dataset_effects() -> DatasetEffects | None:
    """The named effects of the installed dataset, built once; ``None`` without it."""
    from ..loaders.bulk import collector_paused
    from ..loaders.wh40kdc import DatasetMissingError
    from ..loaders.wh40kdc_rules import dataset_rules

    with collector_paused():
        try:
            rules = dataset_rules()
        except DatasetMissingError:
            return None
        return DatasetEffects(rules)
