"""A unit ability's effect record, carried on its ``Ability`` as data (issue 23).

The bundled dataset encodes most datasheet abilities in its effect language (Tactical
Precision: while attached, the unit's weapons have [LETHAL HITS]; Wall of Muscle: -1
Damage). The loader does not read that language (``tactica.effects`` compiles it): it
keeps, as JSON text, what compiling needs -- the effect tree, the record's ``behavior``
(passive, aura, activated, reactive), its ``community_notes`` and the effect trees of the
abilities the tree grants by id -- so a converted, cached datasheet carries its abilities'
effects without the raw dataset being loaded again.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from .wh40kdc_readings import mark_reason, marks_every_part, mended_effect
from .wh40kdc_records import Raw, RecordLookup

__all__ = ["effect_record", "granted_ids"]


def granted_ids(node: Any, depth: int = 0) -> list[str]:
    """The ability ids an effect tree grants or refers to (``ability-grant``'s
    ``ability_id``, ``rule-state``'s ``rule``).

    >>> granted_ids({"type": "sequence", "steps": [{"type": "ability-grant",
    ...     "modifier": {"ability_id": "stealth"}}]})
    ['stealth']
    """
    out: list[str] = []
    if depth > 12:
        return out
    if isinstance(node, Mapping):
        raw = node.get("modifier")
        m: Mapping[str, Any] = raw if isinstance(raw, Mapping) else {}
        if node.get("type") == "ability-grant" and m.get("ability_id"):
            out.append(str(m["ability_id"]))
        if node.get("type") == "rule-state" and m.get("rule"):
            out.append(str(m["rule"]))
        for v in node.values():
            out += granted_ids(v, depth + 1)
    elif isinstance(node, list):
        for v in node:
            out += granted_ids(v, depth + 1)
    return list(dict.fromkeys(out))


def effect_record(raw: Raw, ds: RecordLookup, faction: str) -> str:
    """The ability record ``raw``'s effect as JSON text (``Ability.effect``): ``effect``,
    ``behavior``, ``notes``, ``granted`` (id -> ``{"effect": tree, "name": name}``, looked
    up in ``faction`` first like the unit's own abilities), ``mark`` (why a record read as
    a defence marks an enemy instead, or a bonus is not the unit's own:
    ``wh40kdc_readings``), ``mark_all`` (the reason covers every part, not only the
    defence), and what the rule's generated text reads besides (issue 41:
    ``tactica.effects.wording``): ``scope``, ``trigger``, ``usage``, ``disputed``."""
    granted: dict[str, Raw] = {}
    for aid in granted_ids(raw.get("effect")):
        found = ds.ability(faction, aid)
        if found is not None and found.get("effect"):
            granted[aid] = {"effect": found["effect"], "name": found.get("name")}
    return json.dumps({"effect": mended_effect(raw), "behavior": raw.get("behavior"),
                       "notes": raw.get("community_notes"), "granted": granted,
                       "mark": mark_reason(raw), "mark_all": marks_every_part(raw),
                       "scope": raw.get("scope"), "trigger": raw.get("trigger"),
                       "usage": raw.get("usage"), "disputed": raw.get("dispute_notes")},
                      sort_keys=True, ensure_ascii=False)
