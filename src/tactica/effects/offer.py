"""The rules on offer for one attack: what the attacker's own army may use (issue 46).

An attack may use the core stratagems, its army's rules (Oath of Moment for an ADEPTUS
ASTARTES unit, Waaagh! for ORKS) and its detachment's rule, stratagems and enhancements:
the chosen detachment's, or each of its faction's detachments when none is chosen. Never
another faction's: a faction's rule is offered only to a unit of that faction (its
faction keywords), and a faction's defensive rule ("target is GENESTEALER CULTS": A
Deadly Snare) only when the target is of that faction. Each rule on offer carries the
conditions that do not hold for this attack (``NamedEffect.check``), so a door shows
what holds and what would not.

The page's "Rules in play", ``tactica effects --for UNIT`` and the assistant read this
one answer.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..combat.contract.scenario import Scenario
from ..names import name_key
from . import dataset_effects
from .catalogue import EFFECTS
from .model import NamedEffect

__all__ = ["Offer", "rules_on_offer"]

#: The kinds a detachment brings (a chosen detachment narrows them to its own).
DETACHMENT_KINDS = frozenset({"detachment rule", "stratagem", "enhancement"})
#: The seed catalogue's factions (its five datasheets are Genestealer Cults).
_SEED_FACTIONS = frozenset({"genestealer cults"})


@dataclass(frozen=True)
class Offer:
    """A rule the attacker's army may use on this attack, and the conditions that do not
    hold for it (empty: it applies as the scenario stands)."""

    effect: NamedEffect
    failures: tuple[str, ...]

    @property
    def holds(self) -> bool:
        return not self.failures


def _factions(keywords: tuple[str, ...], known: frozenset[str]) -> set[str]:
    return {name_key(k) for k in keywords} & known


def _faction_side(e: NamedEffect, known: frozenset[str]) -> tuple[str, str] | None:
    """The side ("attacker" or "target") and faction a seed effect's conditions name,
    or ``None`` for a rule of no faction (Core)."""
    for c in e.conditions:
        side, _, what = c.description.partition(" is ")
        if side in ("attacker", "target") and name_key(what) in known:
            return side, name_key(what)
    return None


def _seed_offers(s: Scenario, known: frozenset[str], mine: set[str], theirs: set[str],
                 detachment: str | None) -> list[NamedEffect]:
    own = {name_key(k) for k in (s.attacker.name, *s.attacker.keywords, *s.context.led_by)}
    out = []
    for e in EFFECTS:
        if s.rules not in e.rules:
            continue
        owner = _faction_side(e, known)
        leader = any(c.description.startswith("led by") for c in e.conditions)
        if leader and owner is None:  # a leader's ability (Cult Demagogue): to its army's
            owner = ("attacker", name_key(next(iter(_SEED_FACTIONS))))  # "needs: led by"
        if e.kind == "ability" and name_key(e.source) not in own and owner is None:
            continue  # a datasheet's ability (Damaged) to that unit (or its leader's) alone
        if owner is None and e.source != "Core" and e.kind != "ability":
            continue
        if owner is not None and owner[1] not in (mine if owner[0] == "attacker" else theirs):
            continue
        if detachment is not None and e.kind in DETACHMENT_KINDS and e.source != "Core" \
                and name_key(e.source) != name_key(detachment):
            continue
        out.append(e)
    return out


def rules_on_offer(s: Scenario, detachment: str | None = None) -> list[Offer]:
    """The rules the attacker's army may use on ``s`` (module text): the core rules, the
    seed catalogue's and the dataset's rules of the attacker's factions (and the target's
    factions' defensive ones), ``detachment``'s only when one is chosen."""
    data = dataset_effects()
    known = frozenset(name_key(k) for k in (
        *_SEED_FACTIONS, *(data.every_faction_keyword() if data is not None else ())))
    mine = _factions(s.attacker.keywords, known)
    theirs = _factions(s.target.keywords, known)
    chosen = _seed_offers(s, known, mine, theirs, detachment)
    seen = {name_key(e.name) for e in chosen}
    for faction in sorted(mine) if data is not None else ():
        for entry in data.listing(faction=faction, detachment=detachment):  # type: ignore[union-attr]
            e = entry.effect
            if entry.status == "modelled" and name_key(e.name) not in seen \
                    and s.rules in e.rules:
                seen.add(name_key(e.name))
                chosen.append(e)
    return [Offer(e, tuple(e.check(s))) for e in chosen]
