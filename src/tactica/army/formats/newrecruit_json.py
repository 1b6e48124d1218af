"""New Recruit's JSON export (and List Forge's, which has the same BattleScribe roster
layout: ``{"generatedBy": ..., "roster": {"costs", "costLimits", "forces": [...]}}``).

Each force has ``selections``. A selection with the primary category "Configuration" is
set-up: "Battle Size" ("2. Strike Force (2000 Point limit)"), "Detachment" (one or more,
with their "Detachment Points" costs where the 11th-edition data gives them); others are
kept as notes. Every other top-level selection is a unit (``type`` "model" or
"unit"). Inside a unit:

* ``type: model`` selections are model entries (``number`` models) with their wargear;
* an upgrade named "Warlord" marks the Warlord;
* an upgrade whose ``group`` names enhancements is an enhancement (its cost stated);
* an upgrade named "... Character" with no group (New Recruit's marker for a detachment
  that makes a unit a CHARACTER) is kept as a marker;
* every other upgrade is wargear, ``number`` of it.

A unit's points are its cost plus every cost nested in it (enhancements included). The
primary category is the unit's section. The first force's units have ``force = None``;
units of later forces (List Forge's allied force) carry the force's name. A selection of an
unknown ``type`` is an error naming its JSON path.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from tactica.errors import field_path, one_line
from tactica.inputs import loads, printable
from tactica.model.common import RulesVersion

from ..roster import (
    MAX_COUNT,
    MAX_POINTS,
    ModelEntry,
    Roster,
    RosterSource,
    RosterUnit,
    WargearItem,
)
from ..roster import parse_battle_size as _battle
from ._common import (
    RosterParseError,
    build_roster,
    clean_faction,
    parse_enhancement,
    rules_from_text,
    written_entries,
)

__all__ = ["FORMAT", "LISTFORGE", "dump_newrecruit_json", "parse_newrecruit_json"]

FORMAT = "newrecruit-json"
LISTFORGE = "listforge-json"

Json = dict[str, Any]

#: Deepest nesting of selections read (a unit, its models, their wargear and the
#: wargear's options are four levels; real exports stay under ten).
MAX_DEPTH = 24


class _Shape(BaseModel):
    """The part of the BattleScribe roster layout that is read, checked before reading:
    strict JSON types (no "3" for 3), bounded numbers; other keys are kept."""

    model_config = ConfigDict(extra="allow", strict=True)


class _Cost(_Shape):
    name: str | None = None
    value: float | None = Field(default=None, ge=-MAX_POINTS, le=MAX_POINTS)


class _Category(_Shape):
    name: str | None = None
    primary: bool | None = None


class _Selection(_Shape):
    name: str | None = None
    type: str | None = None
    number: int | None = Field(default=None, ge=0, le=MAX_COUNT)
    group: str | None = None
    costs: list[_Cost] | None = None
    categories: list[_Category] | None = None
    selections: list[_Selection] | None = None


class _Force(_Shape):
    name: str | None = None
    catalogueName: str | None = None
    selections: list[_Selection] | None = None


class _Roster(_Shape):
    name: str | None = None
    costs: list[_Cost] | None = None
    costLimits: list[_Cost] | None = None
    forces: list[_Force] | None = None


class _Document(_Shape):
    name: str | None = None
    generatedBy: str | None = None
    gameSystemName: str | None = None
    roster: _Roster


def _depth_path(doc: Json) -> str | None:
    """The JSON path of a selection nested deeper than ``MAX_DEPTH``, if any."""
    stack: list[tuple[Any, str, int]] = [
        (f, f"$.roster.forces[{i}]", 0) for i, f in enumerate(doc["roster"]["forces"] or [])]
    while stack:
        node, path, depth = stack.pop()
        if depth > MAX_DEPTH:
            return path
        for i, sel in enumerate(node.get("selections") or []):
            stack.append((sel, f"{path}.selections[{i}]", depth + 1))
    return None


def _checked(doc: Any, file: str | None) -> Json:
    """``doc`` checked against the layout (``_Document``), as plain JSON again; a wrong
    type or an absurd number is a ``RosterParseError`` naming its JSON path."""
    try:
        shaped = _Document.model_validate(doc)
    except ValidationError as exc:
        loc = exc.errors(include_url=False)[0].get("loc", ())
        path = "$." + field_path(loc) if loc else "$"
        raise RosterParseError(one_line(exc).split(": ", 1)[-1], None, file,
                               path.replace(".[", "[")) from None
    out: Json = shaped.model_dump(exclude_unset=True)
    too_deep = _depth_path(out)
    if too_deep is not None:
        raise RosterParseError(f"selections nested more than {MAX_DEPTH} deep", None, file,
                               too_deep)
    return out


def _cost(node: Json, kind: str = "pts") -> int | None:
    values = [c.get("value") or 0 for c in node.get("costs") or []
              if str(c.get("name", "")).strip().lower() == kind.lower()]
    return int(sum(values)) if values else None


def _nested_cost(node: Json) -> int | None:
    own = _cost(node)
    inner = [_nested_cost(s) for s in node.get("selections") or []]
    known = [x for x in (own, *inner) if x is not None]
    return sum(known) if known else None


def _primary(node: Json) -> str | None:
    return next((c.get("name") for c in node.get("categories") or [] if c.get("primary")), None)


def _is_enhancement(node: Json) -> bool:
    return "enhancement" in str(node.get("group") or "").lower()


class _Reader:
    def __init__(self, file: str | None) -> None:
        self.file = file
        self.notes: list[str] = []

    def error(self, message: str, where: str) -> RosterParseError:
        return RosterParseError(message, None, self.file, where)

    def upgrades(self, node: Json, where: str, unit: dict[str, Any],
                 sink: list[WargearItem]) -> None:
        for i, sel in enumerate(node.get("selections") or []):
            path = f"{where}.selections[{i}]"
            kind, name = sel.get("type"), str(sel.get("name") or "").strip()
            number = int(sel.get("number") or 1)
            if not name:
                raise self.error("selection without a name", path)
            if kind == "model":
                wargear: list[WargearItem] = []
                self.upgrades(sel, path, unit, wargear)
                unit["entries"].append(ModelEntry(name=name, count=number,
                                                  wargear=tuple(wargear)))
            elif kind != "upgrade":
                raise self.error(f"unknown selection type {kind!r} inside a unit", path)
            elif name == "Warlord":
                unit["warlord"] = True
            elif _is_enhancement(sel):
                choice = parse_enhancement(name)  # "Pyresoul (Psychic)": name and kind
                unit["enhancements"].append(choice.model_copy(update={"points": _cost(sel)}))
            elif name.endswith("Character") and not sel.get("group") \
                    and not sel.get("selections"):
                unit["markers"].append(name)
            else:
                sink.append(WargearItem(name=name, count=number))
                if sel.get("selections"):
                    self.upgrades(sel, path, unit, sink)

    def unit(self, sel: Json, where: str, force: str | None, uid: str) -> RosterUnit:
        kind = sel.get("type")
        if kind not in ("model", "unit"):
            raise self.error(f"unknown selection type {kind!r} for a unit", where)
        data: dict[str, Any] = {"entries": [], "enhancements": [], "markers": [],
                                "warlord": False}
        wargear: list[WargearItem] = []
        self.upgrades(sel, where, data, wargear)
        entries = data["entries"]
        models = sum(e.count for e in entries) if entries else int(sel.get("number") or 1)
        return RosterUnit(
            id=uid, name=str(sel.get("name")).strip(), models=models,
            model_entries=tuple(entries), wargear=tuple(wargear), points=_nested_cost(sel),
            enhancements=tuple(data["enhancements"]), warlord=data["warlord"],
            markers=tuple(data["markers"]), section=_primary(sel), force=force)


_STEP = re.compile(r"\.?([A-Za-z_]\w*)|\[(\d+)\]")


def player_place(doc: Any, path: str) -> str:
    """A JSON path of the export (``$.roster.forces[0].selections[5].costs[0].value``) in
    the player's words, the selections named from ``doc``: ``unit 6 ("Boyz"), costs 1
    value`` (a second force is named too: ``force 2, unit 1 ("Gretchin")``).

    >>> doc = {"roster": {"forces": [{"selections": [{"name": "Warboss"}, {"name": "Boyz",
    ...     "selections": [{"name": "Nob"}]}]}]}}
    >>> player_place(doc, "$.roster.forces[0].selections[1].selections[0].number")
    'unit 2 ("Boyz"), "Nob", number'
    """
    words: list[str] = []
    node, key, fields = doc, None, []
    for name, index in _STEP.findall(path.removeprefix("$")):
        if name:
            key = name
            node = node.get(name) if isinstance(node, dict) else None
            if name not in ("roster", "forces", "selections"):
                fields.append(name)
            continue
        i = int(index)
        node = node[i] if isinstance(node, list) and i < len(node) else None
        label = printable(str(node.get("name") or "")[:60]) if isinstance(node, dict) else ""
        if key == "forces" and i:
            words.append(f"force {i + 1}")
        elif key == "selections":
            fields = []
            top = not any(w.startswith(("unit ", '"')) for w in words)
            quoted = f'"{label}"' if label else f"selection {i + 1}"
            words.append(f"unit {i + 1} ({quoted})" if top else quoted)
        elif key not in ("forces", None):
            fields.append(f"{key} {i + 1}" if not fields or fields[-1] != key
                          else str(i + 1))
    place = ", ".join(words) or "the list"
    return f"{place}, {' '.join(dict.fromkeys(fields))}" if fields else place


def parse_newrecruit_json(text: str | Json, file: str | None = None) -> Roster:
    """Read a New Recruit or List Forge JSON export (module text); a refusal names the
    unit and selection in the player's words (``player_place``), not a JSON path."""
    try:
        doc = loads(text) if isinstance(text, str) else text
    except RecursionError:
        raise RosterParseError("JSON nested too deeply", None, file, "top level") from None
    except ValueError as exc:  # not JSON, or a lone surrogate
        raise RosterParseError(f"not valid JSON ({one_line(exc)})", None, file,
                               "top level") from None
    try:
        return _parse(doc, file)
    except RosterParseError as exc:
        if exc.where is None or not exc.where.startswith("$"):
            raise
        where = player_place(doc, exc.where)
        if where == "the list":  # the document's own layout: its key, as in the file
            where = exc.where.removeprefix("$").removeprefix(".") or "top level"
        raise RosterParseError(exc.reason, None, file, where) from None


def _parse(doc: Any, file: str | None) -> Roster:
    if not isinstance(doc, dict) or not isinstance(doc.get("roster"), dict):
        raise RosterParseError("no 'roster' object", None, file, "$")
    doc = _checked(doc, file)
    roster = doc["roster"]
    reader = _Reader(file)
    generator = str(doc.get("generatedBy") or "") or None
    fmt = LISTFORGE if generator and "list forge" in generator.lower() else FORMAT
    fields: dict[str, Any] = {"name": str(roster.get("name") or doc.get("name") or "Army")}
    limits = [c.get("value") for c in roster.get("costLimits") or [] if c.get("name") == "pts"]
    if limits and limits[0] is not None and limits[0] >= 0:
        fields["points_limit"] = int(limits[0])
    fields["declared_points"] = _cost(roster)
    detachments: list[str] = []
    units: list[RosterUnit] = []
    factions: Counter[str] = Counter()
    forces = roster.get("forces") or []
    if not isinstance(forces, list) or not forces:
        raise RosterParseError("no forces", None, file, "$.roster.forces")
    for f, force in enumerate(forces):
        where = f"$.roster.forces[{f}]"
        force_name = None if f == 0 else str(force.get("name") or f"force {f + 1}")
        if f == 0 and force.get("catalogueName"):
            fields["faction"] = clean_faction(str(force["catalogueName"]))
        for i, sel in enumerate(force.get("selections") or []):
            path = f"{where}.selections[{i}]"
            if _primary(sel) == "Configuration":
                name = str(sel.get("name") or "")
                children = [str(c.get("name") or "") for c in sel.get("selections") or []]
                if name == "Battle Size" and children:
                    size, limit = _battle(children[0])
                    fields["battle_size"] = size
                    if "points_limit" not in fields and limit is not None:
                        fields["points_limit"] = limit
                elif name.startswith("Detachment"):
                    detachments.extend(children)
                    for node in (sel, *(sel.get("selections") or [])):
                        dp = _cost(node, "Detachment Points")  # BSData wh40k-11e cost type
                        if dp is not None:
                            fields["detachment_points"] = fields.get("detachment_points",
                                                                     0) + dp
                else:  # a configuration entry kept as a note (nameless: said so)
                    reader.notes.append(f"{name or 'configuration entry with no name'}: "
                                        f"{', '.join(children) or 'selected'}")
                continue
            try:
                unit = reader.unit(sel, path, force_name, f"u{len(units) + 1}")
            except RosterParseError:
                raise
            except ValueError as exc:  # a count or name the roster refuses
                raise RosterParseError(one_line(exc), None, file, path) from None
            units.append(unit)
            if f == 0:
                factions.update(c["name"].split(":", 1)[1].strip()
                                for c in sel.get("categories") or []
                                if str(c.get("name", "")).startswith("Faction:"))
    if "faction" not in fields and factions:
        fields["faction"] = factions.most_common(1)[0][0]
    rules: RulesVersion = rules_from_text(str(doc.get("gameSystemName") or "")) or "11th"
    return build_roster({
        **fields, "rules": rules, "detachments": tuple(detachments), "units": tuple(units),
        "embarkation_recorded": False, "notes": tuple(reader.notes),
        "source": RosterSource(format=fmt, file=file, generated_by=generator)}, file)


def _cost_list(points: int | None) -> list[Json]:
    return [] if points is None else [{"name": "pts", "typeId": "pts-type", "value": points}]


def _upgrade(item: WargearItem) -> Json:
    return {"name": item.name, "type": "upgrade", "number": item.count, "group": "Wargear"}


def _unit_json(unit: RosterUnit) -> Json:
    inner: list[Json] = []
    enh_points = sum(e.points or 0 for e in unit.enhancements)
    inner += [{"name": m, "type": "upgrade", "number": 1} for m in unit.markers]
    if unit.warlord:
        inner.append({"name": "Warlord", "type": "upgrade", "number": 1})
    inner += [{"name": e.label(), "type": "upgrade", "number": 1, "group": "Enhancements",
               **({"costs": _cost_list(e.points)} if e.points is not None else {})}
              for e in unit.enhancements]
    inner += [_upgrade(w) for w in unit.wargear]
    inner += [{"name": e.name or unit.name, "type": "model", "number": e.count,
               "selections": [_upgrade(w) for w in e.wargear]}
              for e in (written_entries(unit) if unit.model_entries else ())]
    own = None if unit.points is None else unit.points - enh_points
    out: Json = {"name": unit.name, "type": "unit" if unit.model_entries else "model",
                 "number": 1 if unit.model_entries else unit.models,
                 "categories": ([{"name": unit.section, "primary": True}] if unit.section
                                else []),
                 "costs": _cost_list(own), "selections": inner}
    return out


def dump_newrecruit_json(roster: Roster) -> str:
    """Write ``roster`` in New Recruit's JSON layout."""
    config: list[Json] = []
    if roster.battle_size or roster.points_limit is not None:
        size = roster.battle_size or "Points limit"
        config.append({"name": "Battle Size", "type": "upgrade", "number": 1,
                       "categories": [{"name": "Configuration", "primary": True}],
                       "selections": [{"name": f"{size} ({roster.limit} Point limit)",
                                       "type": "upgrade", "number": 1}]})
    for i, name in enumerate(roster.detachments):
        dp = roster.detachment_points if i == 0 else None  # the total, on the first one
        config.append({"name": "Detachment", "type": "upgrade", "number": 1,
                       "categories": [{"name": "Configuration", "primary": True}],
                       "selections": [{"name": name, "type": "upgrade", "number": 1,
                                       "group": "Detachment", **({"costs": [
                                           {"name": "Detachment Points", "value": dp}]}
                                           if dp is not None else {})}]})
    forces: dict[str | None, list[Json]] = {None: list(config)}
    for unit in roster.units:
        forces.setdefault(unit.force, []).append(_unit_json(unit))
    total = roster.declared_points
    doc: Json = {
        "name": roster.name, "generatedBy": "tactica",
        "gameSystemName": f"Warhammer 40,000 {roster.rules} Edition",
        "roster": {
            "name": roster.name, "costs": _cost_list(total),
            "costLimits": _cost_list(roster.points_limit),
            "forces": [{"name": name or "Army Roster",
                        **({"catalogueName": roster.faction} if name is None and roster.faction
                           else {}),
                        "selections": sels} for name, sels in forces.items()],
        },
    }
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
