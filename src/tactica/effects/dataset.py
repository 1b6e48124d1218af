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

import functools
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal

from ..combat.contract.scenario import Attacker, Scenario, Target
from ..loaders.wh40kdc_rules import DatasetRules
from ..model.rules import ArmyRule, DetachmentRule, Enhancement, Stratagem
from ..names import name_key, normalise
from .compiler import Compiled, Part, compile_effect
from .dsl_conditions import Owner
from .model import Condition, EffectKind, NamedEffect, Outcome

__all__ = ["DatasetEffect", "DatasetEffects", "Status", "dataset_effects"]

Status = Literal["modelled", "non-combat", "not modelled"]

_KINDS: dict[str, EffectKind] = {"stratagem": "stratagem", "enhancement": "enhancement",
                                 "detachment_rule": "detachment rule",
                                 "army_rule": "army rule"}
_GENERIC = frozenset({"IMPERIUM", "CHAOS"})
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

    @property
    def status(self) -> Status:
        return self.compiled.status if self.has_effect or self.borrowed else "not modelled"

    @property
    def reason(self) -> str:
        if not self.has_effect and not self.borrowed:
            return f"the dataset has no effect for this {self.effect.kind}"
        return self.compiled.reason


def _faction_condition(owner: Owner, keywords: frozenset[str], every: frozenset[str],
                       label: str) -> Condition:
    """The owner's unit has one of the faction's keywords. An attacker with no faction
    keyword at all (a hand-made profile) is taken as given; a target is not: a defensive
    part (an invulnerable save, Armour of Contempt) must not protect the enemy of the unit
    whose rule it is (Waaagh!'s 5+ invulnerable save is not the target's)."""
    def test(s: Scenario) -> bool:
        unit = s.attacker if owner == "attacker" else s.target
        kws = {k.upper() for k in unit.keywords}
        return bool(kws & keywords) or (owner == "attacker" and not (kws & every))

    who = "attacker" if owner == "attacker" else "target"
    return Condition(f"{who} is {label}", f"the {who} is not a {label} unit", test)


def _restriction(owner: Owner, raw: Mapping[str, Any] | None) -> tuple[Condition, ...]:
    if not raw:
        return ()
    out = []

    def unit_of(s: Scenario) -> Attacker | Target:
        return s.attacker if owner == "attacker" else s.target

    def needs(wanted: frozenset[str], every: bool) -> Condition:
        label = (" and " if every else " or ").join(sorted(wanted))

        def test(s: Scenario) -> bool:
            kws = {x.upper() for x in unit_of(s).keywords}
            return wanted <= kws if every else bool(wanted & kws)

        return Condition(f"unit is {label}", f"the unit is not a {label} unit", test)

    required = frozenset(str(k).upper() for k in raw.get("required_keywords") or ())
    anyof = frozenset(str(k).upper() for k in raw.get("required_keywords_any") or ())
    if required:
        out.append(needs(required, True))
    if anyof:
        out.append(needs(anyof, False))
    return tuple(out)


def _scoped(part: Part, s: Scenario) -> Part | None:
    """``part`` with its modifiers limited to the weapon lines it names (by weapon ability
    or weapon name); ``None`` when the attacker has none of them."""
    if part.owner != "attacker" or not (part.weapon_keyword or part.weapon_name):
        return part
    wanted = name_key(part.weapon_keyword or part.weapon_name or "")
    names = tuple(w.name for w in s.attacker.weapons
                  if (part.weapon_name and name_key(w.name) == wanted)
                  or any(name_key(str(a)).startswith(wanted) for a in w.abilities))
    if not names:
        return None
    mods = tuple(m.model_copy(update={"weapons": names}) for m in part.modifiers)
    return replace(part, modifiers=mods)


class _Apply:
    """``NamedEffect.apply`` of a compiled record: the parts whose conditions hold."""

    def __init__(self, name: str, entry: Compiled, status: Status, reason: str,
                 record_conditions: dict[Owner, tuple[Condition, ...]],
                 phases: tuple[str, ...]) -> None:
        self.name, self.entry, self.status, self.reason = name, entry, status, reason
        self.record_conditions = record_conditions
        self.phases = phases

    def __call__(self, s: Scenario, param: str | None) -> Outcome:
        if self.status != "modelled":
            what = "not a combat rule" if self.status == "non-combat" else "not modelled"
            return Outcome(not_calculated=(f"{self.name}: {what} ({self.reason})",))
        parts = self._chosen(param)
        applied: list[Part] = []
        skipped: list[str] = []
        for part in parts:
            why = self._why_not(part, s)
            scoped = _scoped(part, s)
            if why is None and scoped is None:
                why = f"the attacker has no {part.weapon_keyword or part.weapon_name} weapon"
            if why:
                skipped.append(f"{part.terms}: {why}")
            else:
                assert scoped is not None
                applied.append(scoped)
        if not applied:
            raise ValueError(f"{self.name}: " + "; ".join(dict.fromkeys(skipped)))
        return self._outcome(applied, skipped, s)

    def _chosen(self, param: str | None) -> list[Part]:
        options = self.entry.options
        if not options:
            return list(self.entry.parts)
        if param is None:
            fixed = [p for p in self.entry.parts if p.option is None]
            if fixed:
                return fixed
            raise ValueError(f"{self.name}: name the option chosen ('{self.name}: "
                             f"{options[0]}'); options: {', '.join(options)}")
        wanted = name_key(param)
        if wanted not in {name_key(o) for o in options}:
            raise ValueError(f"{self.name}: no option {param!r}; options: {', '.join(options)}")
        return [p for p in self.entry.parts if p.option is None or name_key(p.option) == wanted]

    def _why_not(self, part: Part, s: Scenario) -> str | None:
        if part.attack == "ranged" and s.phase != "shooting":
            return "only ranged attacks"
        if part.attack == "melee" and s.phase != "fight":
            return "only melee attacks"
        failed = [c.failure for c in (*self.record_conditions[part.owner], *part.conditions)
                  if not c.test(s)]
        return "; ".join(failed) or None

    def _outcome(self, applied: list[Part], skipped: list[str], s: Scenario) -> Outcome:
        notes = [f"{self.name}: not applied: {x}" for x in skipped]
        assumed = dict.fromkeys(a for p in applied for a in p.assumptions)
        if s.context.designated is None:
            assumed.update(dict.fromkeys(
                c.description for p in applied for c in p.conditions
                if c.description.startswith("the target is the ")))
        notes += [f"{self.name}: assumes {a}" for a in assumed]
        not_calc = [f"{self.name}: part not modelled ({u})"
                    for u in dict.fromkeys(self.entry.unmodelled)]
        context: dict[str, object] = {}
        for p in applied:
            context.update(dict(p.context))
        return Outcome(
            modifiers=tuple(m for p in applied for m in p.modifiers), context=context,
            mortal_before=tuple((f"{self.name}: {p.terms}", p.mortal_before)
                                for p in applied if p.mortal_before is not None),
            side=tuple((f"{self.name}: {p.terms}", p.side) for p in applied
                       if p.side is not None),
            notes=tuple(notes), not_calculated=tuple(not_calc),
            target_changes=tuple(c for p in applied for c in p.target_changes))


class DatasetEffects:
    """The named effects of every dataset record, indexed by name (and by "Name
    (Detachment)")."""

    def __init__(self, rules: DatasetRules) -> None:
        self.entries: list[DatasetEffect] = []
        self._merged: dict[tuple[str, tuple[str, ...]], DatasetEffect] = {}
        self._rules = rules
        self._index: dict[str, list[DatasetEffect]] = {}
        self._faction_kws: dict[str, frozenset[str]] = {}
        self._behavior: dict[tuple[str, str], str | None] = {}
        compiled: list[tuple[ArmyRecord, tuple[str, ...], Compiled | None]] = []
        by_name: dict[str, list[Compiled]] = {}
        for f in rules.faction_names():
            kws = frozenset(k.upper() for k in rules.faction_keywords(f)) - _GENERIC
            self._faction_kws[f] = kws | {f.upper()}
        for record in rules.records():
            if not isinstance(record, Stratagem | Enhancement | DetachmentRule | ArmyRule):
                continue
            factions = rules.factions_for(record)
            raw = rules.effect_of(record)
            effect = None if raw is None else raw.get("effect")
            entry = None if effect is None else compile_effect(effect, record.name,
                                                               rules.ability)
            compiled.append((record, factions, entry))
            self._behavior[(record.record, record.key or "")] = (raw or {}).get("behavior")
            if entry is not None:
                by_name.setdefault(f"{record.record}/{normalise(record.name)}", []).append(entry)
        self._every = frozenset().union(*self._faction_kws.values())
        for record, factions, entry in compiled:
            borrowed = entry is None and self._borrow(by_name.get(
                f"{record.record}/{normalise(record.name)}", []))
            self.entries.append(self._entry(
                record, factions, entry or borrowed or Compiled(), entry is not None,
                rules.target_restrictions(record), borrowed=bool(borrowed)))
        self._by_record: dict[tuple[str, str], DatasetEffect] = {}
        for e in self.entries:
            for key in self._keys(e):
                self._index.setdefault(key, []).append(e)
            self._by_record[(e.record.record, e.record.key or "")] = e

    @staticmethod
    def _borrow(others: list[Compiled]) -> Compiled | None:
        """The effect of the same-named record of another detachment (Armour of Contempt
        is one card in every detachment that has it), when every such record agrees."""
        if not others:
            return None
        terms = {tuple(p.terms for p in c.parts) for c in others}
        return others[0] if len(terms) == 1 and others[0].parts else None

    def _entry(self, record: ArmyRecord,
               factions: tuple[str, ...], compiled: Compiled, has_effect: bool,
               restrictions: Mapping[str, Any] | None, borrowed: bool = False
               ) -> DatasetEffect:
        kind = _KINDS[record.record]
        usable = has_effect or borrowed
        status: Status = compiled.status if usable else "not modelled"
        reason = compiled.reason if usable else f"the dataset has no effect for this {kind}"
        keywords = frozenset().union(*(self._faction_kws.get(f, frozenset()) for f in factions))
        label = " or ".join(f.upper() for f in factions) or "faction"
        record_conditions: dict[Owner, tuple[Condition, ...]] = {}
        for owner in ("attacker", "target"):
            conds: tuple[Condition, ...] = ()
            if keywords:
                conds = (_faction_condition(owner, keywords, self._every, label),)
            record_conditions[owner] = conds + _restriction(owner, restrictions)
        phases = record.phases if isinstance(record, Stratagem) else ()
        combat_phases = tuple(p for p in phases if p in ("shooting", "fight"))
        source = getattr(record, "detachment", None) or ", ".join(factions) or "Core"
        terms = "; ".join(dict.fromkeys(p.terms for p in compiled.parts)) if \
            status == "modelled" else f"{status}: {reason}"
        named = NamedEffect(
            name=record.name, kind=kind, source=source,
            cp=record.cp if isinstance(record, Stratagem) else 0,
            phases=combat_phases or ("shooting", "fight"), rules=("11th",),
            conditions=(), terms=terms, section="15.01" if kind == "stratagem" else None,
            apply=_Apply(record.name, compiled, status, reason, record_conditions, phases),
            parameter=" | ".join(compiled.options) or None, when_phases=phases,
            game_modes=self._rules.game_modes(record))
        behavior = self._behavior.get((record.record, record.key or ""))
        return DatasetEffect(record, factions, compiled, has_effect, named, borrowed, behavior)

    def _restrictions_of(self, entry: DatasetEffect) -> Mapping[str, Any] | None:
        return self._rules.target_restrictions(entry.record)

    def _keys(self, entry: DatasetEffect) -> list[str]:
        keys = [normalise(entry.record.name)]
        bare = re.sub(r"\s*\((upgrade|aura)\)\s*$", "", entry.record.name, flags=re.I)
        if bare != entry.record.name:  # a list says "Snarling Rivalry" for "... (Upgrade)"
            keys.append(normalise(bare))
        where = getattr(entry.record, "detachment", None)
        if where:
            keys.append(normalise(f"{entry.record.name} ({where})"))
        return keys

    # -- look-ups --
    def every_faction_keyword(self) -> frozenset[str]:
        return self._every

    def find(self, name: str, detachment: str | None = None) -> DatasetEffect | None:
        """The record named ``name`` ("Armour of Contempt" or "Armour of Contempt (Gladius
        Task Force)"): of several, the one of ``detachment``, else a modelled one."""
        found = self._index.get(normalise(name), [])
        if not found:
            return None
        if detachment is not None:
            mine = [e for e in found
                    if name_key(getattr(e.record, "detachment", "") or "") == name_key(detachment)]
            found = mine or found
        rank = {"modelled": 0, "non-combat": 1, "not modelled": 2}
        best = min(found, key=lambda e: rank[e.status])
        same = [e for e in found if e.effect.terms == best.effect.terms]
        factions = tuple(dict.fromkeys(f for e in same for f in e.factions))
        if len(same) == 1 or factions == best.factions:
            return best
        # one name, one effect, several detachments (Armour of Contempt): any of their
        # factions may use it
        key = (normalise(name), factions)
        if key not in self._merged:
            self._merged[key] = self._entry(best.record, factions, best.compiled,
                                            best.has_effect, self._restrictions_of(best),
                                            best.borrowed)
        return self._merged[key]

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
            assumed += [c.description for p in e.compiled.parts for c in p.conditions
                        if c.description.startswith("the target is the ")]
            if e.behavior in ("activated", "reactive"):
                assumed.append("the player uses it (it is not always on)")
            out.setdefault(e.record.name, tuple(dict.fromkeys(assumed)))
        return out

    def names(self) -> list[str]:
        return list(dict.fromkeys(e.record.name for e in self.entries))

    def coverage(self) -> dict[str, Counter[str]]:
        """Per faction (every faction that may use a record): records and statuses."""
        out: dict[str, Counter[str]] = {}
        for e in self.entries:
            for f in e.factions or ("Core",):
                c = out.setdefault(f, Counter())
                c["records"] += 1
                c[e.status] += 1
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


@functools.cache
def dataset_effects() -> DatasetEffects | None:
    """The named effects of the installed dataset, built once; ``None`` without it."""
    from ..loaders.wh40kdc import DatasetMissingError
    from ..loaders.wh40kdc_rules import dataset_rules

    try:
        rules = dataset_rules()
    except DatasetMissingError:
        return None
    return DatasetEffects(rules)
