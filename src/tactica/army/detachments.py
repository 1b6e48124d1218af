"""A list's detachments as the library has them (issue 16): every faction's detachments
from the bundled dataset (``model.rules.Detachment``: detachment points, granted keywords,
required keywords, unit minimums), for ``army.validation``.

* **Detachment points**: a detachment's cost in the army's allowance (11th: Incursion 2,
  Strike Force 3, Onslaught 4, BSData wh40k-11e "Army Roster"), from the dataset record
  when the BSData table has none.
* **Granted keywords**: "Houndpack Lance": CHARACTER for up to 3 WAR DOG units. A unit
  with every ``to_keywords`` keyword gains the keyword; when a detachment caps the number
  of units (``max_selected``), the units that need it (the Warlord, enhancement bearers)
  must not exceed the cap (``DETACHMENT_GRANT``).
* **Restrictions**: every unit must have the ``required_keywords`` ("Blade of Ultramar":
  ULTRAMARINES) (``DETACHMENT_RESTRICTION``); ``unit_minimums``: at least N units with a
  keyword ("Houndpack Lance": 3 WAR DOG) (``DETACHMENT_UNITS``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ..library import Library
from ..model.datasheet import Datasheet
from ..model.rules import Detachment
from ..names import name_key
from .lookups import detachments_by_name
from .roster import Roster, RosterUnit

__all__ = ["detachment_records", "granted_keywords", "restriction_problems",
           "unknown_keywords"]

Problem = tuple[str, str, RosterUnit | None]


def detachment_records(library: Library, names: Iterable[str]) -> dict[str, Detachment]:
    """The library's detachment record for each name it has (by name key)."""
    wanted = {name_key(n) for n in names}
    return {key: r for key, r in detachments_by_name(library).items() if key in wanted}


def unknown_keywords(keywords: Iterable[str]) -> list[str]:
    """Those of ``keywords`` no unit of the bundled dataset has ("WAGON": a bearer
    restriction that cannot be checked); none when the dataset is not installed."""
    from ..loaders.wh40kdc import DatasetMissingError
    from ..loaders.wh40kdc_rules import dataset_rules

    try:
        known = dataset_rules().unit_keywords
    except DatasetMissingError:
        return []
    return [k for k in keywords if k.upper() not in known]


def _base(sheet: Datasheet, unit: RosterUnit) -> set[str]:
    kws = {*sheet.keywords, *sheet.faction_keywords, sheet.name.upper()}
    return kws | ({"CHARACTER"} if unit.character else set())


def granted_keywords(roster: Roster, library: Library,
                     sheets: Mapping[str, Datasheet | None]) -> dict[str, set[str]]:
    """Per unit id, the keywords the list's detachments give it."""
    out: dict[str, set[str]] = {}
    for det in detachment_records(library, roster.detachments).values():
        for grant in det.granted_keywords:
            for unit in roster.units:
                sheet = sheets.get(unit.id)
                if sheet is not None and set(grant.to_keywords) <= _base(sheet, unit):
                    out.setdefault(unit.id, set()).add(grant.keyword)
    return out


def restriction_problems(roster: Roster, library: Library,
                         sheets: Mapping[str, Datasheet | None],
                         needs_character: Iterable[RosterUnit]) -> list[Problem]:
    """Every unit that breaks a detachment's keyword restriction, every unit minimum not
    met, and every granted-keyword cap exceeded by the units that need it."""
    out: list[Problem] = []
    needing = list(needs_character)
    for det in detachment_records(library, roster.detachments).values():
        for unit in roster.units:
            sheet = sheets.get(unit.id)
            if sheet is None:
                continue
            missing = [k for k in det.required_keywords if k not in _base(sheet, unit)]
            if missing:
                out.append(("DETACHMENT_RESTRICTION", f"{det.name}: every unit must be "
                            f"{' '.join(missing)}; {sheet.name} is not", unit))
        for keyword, least in det.unit_minimums:
            n = sum(1 for u in roster.units if (s := sheets.get(u.id)) is not None
                    and keyword in _base(s, u))
            if n < least:
                out.append(("DETACHMENT_UNITS", f"{det.name} needs at least {least} "
                            f"{keyword} units; the list has {n}", None))
        for grant in det.granted_keywords:
            if grant.max_selected is None:
                continue
            users = [u for u in needing if (s := sheets.get(u.id)) is not None
                     and grant.keyword not in _base(s, u)
                     and set(grant.to_keywords) <= _base(s, u)]
            if len(users) > grant.max_selected:
                out.append(("DETACHMENT_GRANT", f"{det.name} gives {grant.keyword} to up to "
                            f"{grant.max_selected} {' '.join(grant.to_keywords)} units; "
                            f"{len(users)} need it", None))
    return out
