"""Rosterizer roster JSON (https://rosterizer.com): read with the bundled dataset's own
importer (issue 16).

Not hand-written: ``wh40kdc.imports.rosterizer`` (40kdc-data, MIT, tested on the same
conformance fixtures as ``../shared/data/rosters``) walks Rosterizer's recursive asset
tree (``Classification§Designation`` items, ``assets.included``/``traits``) into its
parsed-roster shape; this module turns that shape into a ``Roster``:

* ``faction_raw_name``, ``detachment_raw_names``, ``battle_size_raw`` (parsed with
  ``parse_battle_size``), ``total_reported``;
* per unit: ``raw_name``, ``model_count``, ``points`` (without the enhancement),
  ``is_warlord``, ``enhancement_raw_name``/``_points``, ``wargear`` (name, count);
* ``leader_attachment`` ``{role, bodyguard_raw_name}``: the unit is attached to the first
  unit of that name not yet led in that role.

Without the dataset package the format is refused in one line saying how to install it.
A unit the importer reports but that has no name is refused with its position.
"""

from __future__ import annotations

from typing import Any

from ...errors import one_line, quote
from ...inputs import loads
from ..roster import EnhancementChoice, Roster, RosterSource, RosterUnit, WargearItem
from ..roster import parse_battle_size as _battle
from ._common import RosterParseError, UnsupportedFormatError, clean_faction

__all__ = ["is_rosterizer", "parse_rosterizer"]


def is_rosterizer(doc: Any) -> bool:
    """The Rosterizer envelope: a ``rulebook`` and a ``snapshot``."""
    return isinstance(doc, dict) and "snapshot" in doc and "rulebook" in doc


def _parsed(text: str, file: str | None) -> dict[str, Any]:
    try:
        from wh40kdc.imports.rosterizer import rosterizer_adapter
    except ImportError:
        from tactica.loaders.wh40kdc import INSTALL_HINT

        raise UnsupportedFormatError(f"Rosterizer JSON needs the bundled dataset's importer: "
                                     f"{INSTALL_HINT}") from None
    try:
        doc = loads(text)
        return dict(rosterizer_adapter.parse(doc))
    except (ValueError, TypeError, KeyError) as exc:
        raise RosterParseError(f"not a readable Rosterizer roster ({exc})", None, file,
                               "$") from None


def _unit(i: int, raw: dict[str, Any], file: str | None) -> RosterUnit:
    name = str(raw.get("raw_name") or "").strip()
    if not name:
        raise RosterParseError("a unit without a name", None, file, f"$.units[{i}]")
    enhancements: tuple[EnhancementChoice, ...] = ()
    if raw.get("enhancement_raw_name"):
        enhancements = (EnhancementChoice(name=str(raw["enhancement_raw_name"]),
                                          points=raw.get("enhancement_points")),)
    points = raw.get("points")
    if points is not None and raw.get("enhancement_points"):
        points += int(raw["enhancement_points"])
    return RosterUnit(
        id=f"u{i + 1}", name=name, models=max(1, int(raw.get("model_count") or 1)),
        points=points, warlord=bool(raw.get("is_warlord")), enhancements=enhancements,
        wargear=tuple(WargearItem(name=str(w["raw_name"]), count=max(1, int(w.get("count")
                                                                            or 1)))
                      for w in raw.get("wargear") or () if w.get("raw_name")))


def _attach(units: list[RosterUnit], raws: list[dict[str, Any]]) -> list[RosterUnit]:
    led: set[tuple[str, str]] = set()
    out = list(units)
    for i, raw in enumerate(raws):
        att = raw.get("leader_attachment")
        if not isinstance(att, dict) or not att.get("bodyguard_raw_name"):
            continue
        role = "support" if att.get("role") == "support" else "leader"
        target = next((u for u in units if u.name.casefold() == str(
            att["bodyguard_raw_name"]).casefold() and (u.id, role) not in led
            and u.id != units[i].id), None)
        if target is not None:
            led.add((target.id, role))
            out[i] = out[i].model_copy(update={"attached_to": target.id, "attach_role": role})
    return out


def _checked_unit(i: int, raw: dict[str, Any], file: str | None) -> RosterUnit:
    """``_unit``; a value the roster refuses (1e9 points, a million models) is refused
    naming the unit."""
    try:
        return _unit(i, raw, file)
    except RosterParseError:
        raise
    except (ValueError, TypeError) as exc:
        name = str(raw.get("raw_name") or "").strip()
        raise RosterParseError(one_line(exc), None, file,
                               f"unit {i + 1}, {quote(name)}") from None


def parse_rosterizer(text: str, file: str | None = None) -> Roster:
    """A Rosterizer roster JSON as a ``Roster`` (see the module text)."""
    parsed = _parsed(text, file)
    raws = [u for u in parsed.get("units") or () if isinstance(u, dict)]
    units = _attach([_checked_unit(i, u, file) for i, u in enumerate(raws)], raws)
    size, limit = _battle(str(parsed.get("battle_size_raw") or ""))
    faction = parsed.get("faction_raw_name")
    try:  # the roster's own figures: its stated points, its points limit
        return Roster(
            name=str(parsed.get("name") or "Army"),
            faction=clean_faction(str(faction)) if faction else None,
            detachments=tuple(str(d) for d in parsed.get("detachment_raw_names") or ()),
            battle_size=size, points_limit=parsed.get("declared_limit") or limit,
            declared_points=parsed.get("total_reported"), units=tuple(units),
            embarkation_recorded=False,
            source=RosterSource(format="rosterizer", file=file,
                                generated_by=parsed.get("generated_by")))
    except ValueError as exc:
        raise RosterParseError(one_line(exc), None, file, "the roster") from None
