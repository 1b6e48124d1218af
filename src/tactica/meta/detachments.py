"""Each faction's detachment rules in the meta table (``Selection.detachment_rules``).

A faction's detachments are those the dataset lists for it (``effects.dataset_effects``:
each detachment's ``detachment rule`` records); a detachment's rules are what an army
list of that detachment brings to its units' attacks (``army.attack.list_attacker``):
the dataset's records and the seed catalogue's rules of that detachment's name. Each
matchup gets one row per detachment: the rules whose conditions hold against that
target in that phase are applied as named effects, with ``context.detachment`` set to
the detachment (``tactica calc --detachment``), so the row's document
(``compute.scenario_of``) reproduces it; every other rule is listed with why in the
row's ``detachment_not_applied``: not a combat rule, not modelled, a condition that does
not hold, or one a scenario cannot state (a rule the player chooses to use, an aura...:
name it with ``--effect`` to count it). A modelled rule's parts that are not calculated
are listed there too. The faction's army rules (Oath of Moment) are not detachment rules
and are not applied: name them with ``--effect``.

Only a faction's own detachments are listed (a chapter's table does not add its parent
faction's).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tactica.cache_registry import lasting_cache

from ..combat.contract.scenario import Scenario
from ..effects import dataset_effects, list_effects
from ..effects.candidates import apply_candidates
from ..names import name_key

__all__ = ["Detachment", "applied_rules", "faction_detachments"]

#: ``apply_candidates``' word for where a candidate came from (in its notes).
_ORIGIN = "detachment rule"


@dataclass(frozen=True)
class Detachment:
    """One detachment: its name, its rules' names (in the dataset's order), those a
    scenario cannot state (name -> why) and what of each rule is not calculated."""

    name: str
    rules: tuple[str, ...]
    situational: dict[str, str] = field(default_factory=dict, hash=False, compare=False)
    missing: dict[str, tuple[str, ...]] = field(default_factory=dict, hash=False,
                                                compare=False)


def _dataset_faction(faction: str) -> str:
    from ..loaders.wh40kdc import embedded_dataset

    return embedded_dataset().faction(faction) or faction


@lasting_cache(maxsize=128, kind="data")
def faction_detachments(faction: str) -> tuple[Detachment, ...]:
    """The detachments of ``faction`` (the table's faction name) that have a detachment
    rule, in the dataset's order; none without the dataset."""
    data = dataset_effects()
    if data is None:
        return ()
    own = name_key(_dataset_faction(faction))
    names: dict[str, list[str]] = {}
    for e in data.entries:
        where = getattr(e.record, "detachment", None)
        if e.effect.kind != "detachment rule" or not where or where == "Core":
            continue
        if own in {name_key(f) for f in e.factions}:
            names.setdefault(where, [])
    out = []
    for where in names:
        rules = [e.name for e in list_effects(detachment=where) if e.kind == "detachment rule"]
        assumed = data.list_rules(None, (where,))
        rules += list(assumed)
        missing: dict[str, tuple[str, ...]] = {}
        for rule in assumed:
            found = data.find(rule, where)
            if found is not None and found.missing:
                missing[rule] = found.missing
        out.append(Detachment(
            where, tuple(dict.fromkeys(rules)),
            {k: "it assumes " + "; ".join(v) for k, v in assumed.items() if v}, missing))
    return tuple(out)


def applied_rules(scenario: Scenario, detachment: Detachment
                  ) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The rules of ``detachment`` that apply to ``scenario`` (named effects, in order)
    and each other one with why, and the parts of the applied ones not calculated."""
    s = scenario.model_copy(update={"context": scenario.context.model_copy(
        update={"detachment": detachment.name})})
    before = len(s.effects)
    after, notes = apply_candidates(s, detachment.rules, _ORIGIN, detachment.situational)
    applied = tuple(str(e) for e in after.effects[before:])
    done = {name_key(a) for a in applied}
    not_applied = [n for n in notes if not any(n.startswith(f"{a} ({_ORIGIN})")
                                               for a in applied)]
    not_applied += [f"{rule}: not calculated: {part}"
                    for rule, parts in detachment.missing.items()
                    if name_key(rule) in done for part in parts]
    return applied, tuple(not_applied)
