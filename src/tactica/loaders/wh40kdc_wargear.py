"""One ``wh40kdc`` unit's composition and wargear -> ``ModelType``/``WargearOption``/
``WargearBudget`` (the record layout of wh40kdc 1.4.5, ``wh40kdc/data/loadout.py``):

* ``unit_compositions[].models[]``: ``name``, ``min``/``max``, ``default_weapon_ids``
  (what every model of the row carries), ``is_leader_model``. Without recorded defaults
  the base equipment is derived as wh40kdc does (``_base_weapon_ids``): a weapon of the
  unit is carried unless it appears only on the *added* side of some option.
* ``wargear_options[]``: ``replaces`` (ids swapped out), ``replacement`` (one bundle) or
  ``replacement_choice`` (bundles to choose from), ``model_constraint`` {``any_number``,
  ``per_n_models``, ``max_count``, ``model_name``}.
* ``units[].wargear_budgets[]``: {``items``, ``count``, ``per_models`` (0 = per unit),
  ``duplicate_limit``}.

Ids become weapon names (``weapons``), else wargear names (``wargear``: "Cult icon").
A ``replaces`` id that no model carries but whose unit-specific copy it does
(``close-combat-weapon`` vs ``close-combat-weapon-intercessor-squad``) is read as that
copy, and the repair is logged.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ..model.wargear import ModelType, WargearBudget, WargearOption
from ..names import name_key
from .report import IssueLog, build
from .wh40kdc_records import Raw, RecordLookup

__all__ = ["WargearReader"]



class WargearReader:
    """Reads one unit's composition rows, options and budgets into model values."""

    def __init__(self, ds: RecordLookup, unit: Raw, log: IssueLog) -> None:
        self.ds = ds
        self.unit = unit
        self.faction = str(unit.get("faction_id") or "")
        self.log = log
        self.options: list[Raw] = list(ds.wargear_options(self.faction, str(unit["id"])))

    def name_of(self, item: str) -> str:
        raw = self.ds.weapon(self.faction, item)
        if raw is not None:
            return str(raw["name"])
        found = self.ds.wargear_name(item)
        if found is not None:
            return found[:1].upper() + found[1:]
        return item.replace("-", " ").capitalize()

    def _names(self, ids: Sequence[str]) -> tuple[str, ...]:
        return tuple(self.name_of(i) for i in ids)

    # -- model types --
    def model_types(self, rows: Sequence[Raw], profiles: dict[str, str]) -> tuple[ModelType, ...]:
        """``rows``: the composition's model rows; ``profiles``: row name -> the name of
        its stat line on the datasheet."""
        out: list[ModelType] = []
        for row in rows:
            ids = list(row.get("default_weapon_ids") or ()) or self._base_ids(row, rows)
            made = build(ModelType, {
                "name": row.get("name"), "min": row.get("min"), "max": row.get("max"),
                "profile": profiles.get(str(row.get("name")), str(row.get("name"))),
                "equipment": self._names(ids),
                "leader_model": bool(row.get("is_leader_model")),
            }, self.log, f"composition {row.get('name')!r}")
            if made is not None:
                out.append(made)
        return tuple(out)

    def _base_ids(self, row: Raw, rows: Sequence[Raw]) -> list[str]:
        """wh40kdc ``_base_weapon_ids``, for a row without recorded defaults; except that
        a weapon another row's recorded defaults carry, replaced only by that other
        type's options, is that type's, not this row's (Imperial Navy Breachers: the
        Sergeant-at-Arms's shotgun is not every Armsman's)."""
        added = {i for o in self.options for i in _added(o)}
        replaced = {i for o in self.options for i in o.get("replaces") or ()}
        name = row.get("name")
        theirs = {i for r in rows if r.get("name") != name
                  for i in r.get("default_weapon_ids") or ()}
        here = {i for o in self.options if (o.get("model_constraint") or {}).get(
            "model_name") in (None, name) for i in o.get("replaces") or ()}
        return [i for i in self.unit.get("weapon_ids") or ()
                if (i in replaced or i not in added) and (i in here or i not in theirs)]

    def mend(self, types: Sequence[ModelType], options: Sequence[WargearOption]
             ) -> tuple[ModelType, ...]:
        """An option that replaces what no model of its type carries proves the data's
        default equipment lacks it (Terminator Squad: "a Terminator's storm bolter can be
        replaced"): the item is added to that type's equipment, and the mend is said
        (``ModelType.mends``, the unit's report)."""
        out = list(types)
        for option in options:
            need = Counter(name_key(i) for i in option.replaces)
            if not need:
                continue
            scoped = [i for i, t in enumerate(out)
                      if option.model is None or t.name == option.model]
            carriers = [i for i in scoped
                        if not need - Counter(name_key(e) for e in out[i].equipment)]
            if carriers:
                continue
            for i in scoped:
                t = out[i]
                lacking = need - Counter(name_key(e) for e in t.equipment)
                items = [n for n in option.replaces if lacking[name_key(n)] > 0]
                text = (f"{t.name}: the data's default equipment lacks {', '.join(items)}, "
                        "which a wargear option replaces; taken to carry it")
                out[i] = t.model_copy(update={"equipment": (*t.equipment, *items),
                                              "mends": (*t.mends, text)})
                self.log.repaired("composition", text)
        return tuple(out)

    # -- options --
    def wargear(self, types: Sequence[ModelType], rows: Sequence[Raw]) -> tuple[WargearOption, ...]:
        carried = {i for row in rows for i in row.get("default_weapon_ids") or ()}
        out: list[WargearOption] = []
        for o in self.options:
            record = f"wargear option {o.get('id')!r}"
            replaces = [self._carried(i, carried, record) for i in o.get("replaces") or ()]
            bundles = [list(o["replacement"])] if o.get("replacement") else [
                list(b) for b in o.get("replacement_choice") or ()]
            if not bundles:
                self.log.repaired(record, "left out: it replaces with nothing")
                continue
            c: Raw = o.get("model_constraint") or {"any_number": True}
            models: list[str | None] = [c.get("model_name")]
            if models[0] is not None and all(t.name != models[0] for t in types):
                models = self._bind(str(models[0]), self._names(replaces), types, c, record)
            for model in models:
                made = build(WargearOption, {
                    "replaces": self._names(replaces),
                    "choices": tuple(self._names(b) for b in bundles),
                    "model": model, "per_models": c.get("per_n_models"),
                    "max": c.get("max_count"), "any_number": bool(c.get("any_number")),
                }, self.log, record)
                if made is not None:
                    out.append(made)
        return tuple(out)

    def _bind(self, model: str, replaces: Sequence[str], types: Sequence[ModelType],
              c: Raw, record: str) -> list[str | None]:
        """The model types an option names by a name the composition does not have:
        the types of that stat line or whose name starts with it ("Veteran Guardsman"
        for "Veteran Guardsman (Boltgun)") that carry what it replaces. One such type:
        the option is that type's; several, and any number of models may take it: one
        option per type (the same choice for each model); else it is left out, with the
        reason (never offered to a model the datasheet does not name)."""
        named = [t for t in types if t.profile == model or t.name.startswith(model)]
        need = Counter(name_key(i) for i in replaces)
        carriers = [t.name for t in named
                    if not need - Counter(name_key(e) for e in t.equipment)]
        what = f" carrying {', '.join(replaces)}" if replaces else ""
        if len(carriers) == 1 or (carriers and c.get("any_number") and not c.get(
                "max_count") and not c.get("per_n_models")):
            self.log.repaired(record, f"names model {model!r}, not in the composition; "
                              f"read as {' and '.join(carriers)}, the {model} models{what}")
            return list(carriers)
        self.log.repaired(record, f"left out: names model {model!r}, not in the "
                          f"composition, and " + (f"{len(carriers)} of its model types"
                                                  if carriers else "none of its model types")
                          + f"{what or ''} could take it under its limits")
        return []

    def _carried(self, item: str, carried: set[str], record: str) -> str:
        if not carried or item in carried:
            return item
        copies = [i for i in carried if i.startswith(f"{item}-")]
        if len(copies) == 1:
            self.log.repaired(record, f"replaces {item!r}: read as the unit's {copies[0]!r}")
            return copies[0]
        return item

    def budgets(self) -> tuple[WargearBudget, ...]:
        out: list[WargearBudget] = []
        for b in self.unit.get("wargear_budgets") or ():
            made = build(WargearBudget, {
                "items": self._names(b.get("items") or ()), "count": b.get("count"),
                "per_models": b.get("per_models") or 0,
                "duplicate_limit": b.get("duplicate_limit"),
            }, self.log, "wargear budget")
            if made is not None:
                out.append(made)
        return tuple(out)


def _added(option: Raw) -> list[str]:
    if option.get("replacement"):
        return list(option["replacement"])
    return [i for b in option.get("replacement_choice") or () for i in b]
