"""A BattleScribe unit's models and wargear -> ``ModelType``/``WargearOption`` values.

The 11e catalogues build wargear out of selection entries (Genestealer Cults "Acolyte
Hybrids with Autopistols"):

* Each model entry (``type: model``) below the unit is a model *variant* ("Acolyte
  Hybrid w/ Auto Pistol", "... w/ Heavy Mining Tool" max 6); the weapon entries below it
  with ``min`` 1 (scope parent) are what it carries, as is the ``defaultSelectionEntryId``
  of a group below it whose ``min`` is 1.
* Variants counted by one group are one composition line: the group's default variant
  (its ``defaultSelectionEntryId``, else the first) gives the line's equipment; every
  other variant is an option "a model's equipment can be replaced with the variant's",
  at most the variant's ``max`` models.
* Inside a model, the other members of a group with a default are a choice replacing the
  default ("any number"); a weapon with ``min`` 0 outside such a group is an option
  adding it (at most its ``max``).

Hand-written: no library reads BattleScribe wargear constraints into this shape.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..model.datasheet import CompositionLine
from ..model.wargear import ModelType, WargearOption
from .bsdata_files import BSIndex, Missing, Node

__all__ = ["read_wargear"]


def _carried(index: BSIndex, node: Node, root_id: str, weapons: Mapping[str, list[str]],
             model: str, options: list[WargearOption], depth: int = 0) -> list[str]:
    """What a model (``node``) carries by default; its options go into ``options``."""
    out: list[str] = []
    if depth > 6:
        return out
    for child in index.children(node):
        if isinstance(child, Missing) or child.type == "model":
            continue
        low, high = child.bounds(root_id)
        names = weapons.get(child.id, [])
        if names:
            if (low or 0) >= 1:
                out += names * max(1, low or 1)
            elif high:
                options.append(WargearOption(choices=(tuple(names),), model=model, max=high))
            continue
        if child.type == "group":
            default = child.raw.get("defaultSelectionEntryId")
            members = [c for c in index.children(child) if not isinstance(c, Missing)]
            first = next((m for m in members if weapons.get(m.id)
                          and (m.id == default or (m.link or {}).get("id") == default)), None)
            if first is not None and (low or 0) >= 1:
                out += weapons[first.id]
                alts = tuple(tuple(weapons[m.id]) for m in members
                             if m is not first and weapons.get(m.id))
                if alts:
                    options.append(WargearOption(replaces=tuple(weapons[first.id]),
                                                 choices=alts, model=model, any_number=True))
                continue
        if child.type != "group" and (low or 0) < 1:
            continue  # an optional upgrade (a bundle taken instead): not carried
        out += _carried(index, child, root_id, weapons, model, options, depth + 1)
    return out


def read_wargear(index: BSIndex, root: Node, slots: Sequence[tuple[Node, Node | None]],
                 lines: Sequence[CompositionLine], weapons: Mapping[str, list[str]]
                 ) -> tuple[tuple[ModelType, ...], tuple[WargearOption, ...]]:
    """``slots``: each model entry with the group that counts it; ``lines``: the unit's
    composition; ``weapons``: entry id -> the weapon names that entry adds."""
    types: list[ModelType] = []
    options: list[WargearOption] = []
    counted: dict[str, list[Node]] = {}  # the converter's composition lines, in order
    for node, group in slots:
        counted.setdefault(group.id if group is not None else node.id, []).append(node)
    if len(counted) != len(lines):
        return (), ()
    for line, (key, members) in zip(lines, counted.items(), strict=True):
        group = next((g for n, g in slots if g is not None and g.id == key), None)
        default_id = group.raw.get("defaultSelectionEntryId") if group is not None else None
        members = sorted(members, key=lambda n: 0 if n.id == default_id else 1)
        base = members[0]
        kit = _carried(index, base, root.id, weapons, line.model, options)
        types.append(ModelType(name=line.model, min=line.min, max=line.max,
                               profile=line.model, equipment=tuple(kit),
                               leader_model=line.max == 1 and len(lines) > 1))
        for node in members[1:]:
            variant = _carried(index, node, root.id, weapons, line.model, [])
            high = node.bounds(root.id)[1]
            if variant and variant != kit:
                options.append(WargearOption(replaces=tuple(kit), choices=(tuple(variant),),
                                             model=line.model, max=high, any_number=high is None))
    return tuple(types), tuple(options)
