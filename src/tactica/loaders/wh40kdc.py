"""The bundled 11th-edition dataset: the ``wh40kdc`` package (40kdc-data) -> datasheets.

``wh40kdc`` (a dependency: ``SUPPORTED_VERSIONS``; the conversion was written against
``PINNED_VERSION``, and ``TESTED_VERSIONS`` were each converted in full) ships its
dataset as one JSON bundle (``wh40kdc/_bundle.json``, read with the package's own
``wh40kdc.data.raw_data``): units, weapons, weapon keywords, abilities, leader
attachments and unit compositions, each record stamped with a ``game_version``. Code is
MIT, schema content CC0, enrichment data CC BY 4.0; ``ATTRIBUTION`` is the credit line the
licence asks for ("Powered by 40kdc-data", https://40kdc.alpacasoft.dev).

``Wh40kdcDataset`` indexes the units by name when it is built (cheap) and converts a unit
only when it is asked for (``datasheet``); ``datasheets``/``report`` convert them all.
``bundled_dataset`` is what the library uses: the units converted earlier, read from the
on-disk cache of ``tactica.loaders.wh40kdc_cache`` (one unit at a time), else this.
Every conversion decision below follows the record layout of wh40kdc 1.4.5 (its
``wh40kdc/data/dataset.py`` and ``entities.py``):

* Records are keyed by ``(faction_id, id)``: the same id exists in several factions with
  different values, and a unit resolves its weapons and abilities in its own faction first,
  then in any faction (``UnitView.weapons``/``abilities``: "own faction first ...
  first-wins for a genuinely cross-faction id").
* Weapon ``type`` is per weapon while ``range`` is per profile: a spear with a ranged and
  a ``Melee`` profile becomes two ``Weapon`` values of the same name (ranged, melee), so
  ``Weapon.is_melee`` stays true to every profile. Skill is ``BS`` for a ranged profile
  and ``WS`` for a melee one; ``BS: null`` is N/A (Torrent). Profiles of a multi-profile
  weapon are named ``"<weapon> – <profile>"`` like the seed pages ("Grenade launcher –
  frag").
* Weapon keywords are ``{keyword_id, parameters}``; they are written in rulebook words
  ("Anti-Infantry 2+", "Sustained Hits D3") and parsed by ``parse_weapon_ability``.
  Keywords the model does not know (Cleave, Hunter, Conversion, ...) and keywords limited
  to some targets (``excluded_target_keywords``, ``required_target_keywords_any``) are
  left out and reported as unsupported.
* Points entries ``{cost, models[, models_max][, unit_count_min, unit_count_max]}``:
  a size range becomes one bracket per size (``brackets_for_sizes``); ``unit_count_*``
  become ``EscalatingPoints`` tiers ("your 1st to 3rd units cost").
* Composition comes from ``unit_compositions``; each composition line gets a model
  profile of its own name (``profile_name``, else the profile whose name matches or
  starts it, else the only one), so "Neophyte Leader" has a stat line like the seed facts.
* Leader attachments name bodyguard unit ids; they become unit names of the leader's
  faction. An ``eligible_bodyguard_keywords`` entry that is the name of a unit of the
  leader's faction is that unit ("Terminator Squad"), the others one keyword set
  (``wh40kdc_leaders``). A unit's ``attachment_role`` is its ``attach_role``.
* Ability ``community_notes`` are curation notes, not rules text: abilities carry names
  (and parsed parameters: "Deadly Demise D6+2") only.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from tactica.cache_registry import lasting_cache

from ..model.datasheet import Datasheet
from ..names import UnknownNameError, name_key, suggest
from .bulk import collector_paused
from .report import LoadReport, UnitReport
from .wh40kdc_credit import ATTRIBUTION, installed_version
from .wh40kdc_units import UnitConverter

__all__ = [
    "ATTRIBUTION",
    "INSTALL_HINT",
    "PINNED_VERSION",
    "SUPPORTED_VERSIONS",
    "TESTED_VERSIONS",
    "DatasetIndex",
    "DatasetMissingError",
    "DatasetSource",
    "Wh40kdcDataset",
    "dataset_available",
    "embedded_dataset",
    "installed_version",
    "supported",
]

#: The dataset version the conversion rules above were written against, and whose values
#: the tests pin.
PINNED_VERSION = "1.4.5"
#: The range ``pyproject.toml`` asks for (keep the two in step). From 1.4.5: 1.4.0 to
#: 1.4.4 convert without a rejected unit, but not into the library the tests and the
#: README state (with 1.4.4 the Space Marine squads' wargear is written otherwise, so the
#: mends keyed to 1.4.5's records miss the Intercessors, Hellblasters and Terminators;
#: with 1.4.1 and earlier Oath of Moment is no effect one can name, and more units differ).
SUPPORTED_VERSIONS = ">=1.4.5,<1.5"
#: Versions whose every unit was converted and checked (no unit rejected) and with which
#: the whole test suite passes; later 1.4.x releases update points and records in the same
#: layout.
TESTED_VERSIONS = ("1.4.5",)

#: What to do when the dataset is needed but not installed.
INSTALL_HINT = (
    f"the bundled 11th-edition dataset is not installed: pip install "
    f"'wh40kdc{SUPPORTED_VERSIONS}' (a dependency of tactica)"
)

Raw = Mapping[str, Any]


class DatasetMissingError(RuntimeError):
    """The ``wh40kdc`` package is not installed; the message says how to install it."""

    def __init__(self) -> None:
        super().__init__(INSTALL_HINT)


def supported(version: str) -> bool:
    """Whether ``version`` is in ``SUPPORTED_VERSIONS`` (1.4.5 or a later 1.4.x).

    >>> supported("1.4.5"), supported("1.4.12"), supported("1.4.4"), supported("1.5.0")
    (True, True, False, False)
    >>> supported("unknown"), supported("1.4"), supported("1.4.6.post1")
    (False, False, True)
    """
    patch = re.match(r"1\.4\.(\d+)", version)
    return patch is not None and int(patch.group(1)) >= 5


def dataset_available() -> bool:
    """Whether the bundled dataset can be loaded (the package imports)."""
    try:
        import wh40kdc.data  # noqa: F401
    except ImportError:
        return False
    return True


@lasting_cache(maxsize=None, kind="data")
def embedded_dataset() -> Wh40kdcDataset:
    """The installed dataset, indexed once per process. Raises ``DatasetMissingError``."""
    try:
        from wh40kdc.data import raw_data
    except ImportError:
        raise DatasetMissingError() from None
    return Wh40kdcDataset(raw_data(), installed_version() or "unknown")


def _keyed(records: Iterable[Raw], key: str = "id") -> dict[tuple[str, str], Raw]:
    """``(faction_id, id)`` -> record, first wins (wh40kdc ``Collection`` dedupe)."""
    out: dict[tuple[str, str], Raw] = {}
    for r in records:
        out.setdefault((r.get("faction_id") or "", r[key]), r)
    return out


def _first_by_id(records: Iterable[Raw], key: str = "id") -> dict[str, Raw]:
    out: dict[str, Raw] = {}
    for r in records:
        out.setdefault(r[key], r)
    return out


@dataclass(frozen=True, slots=True)
class DatasetIndex:
    """What answers name and faction questions without converting anything: per unit (in
    dataset order) its display name and faction, and the look-up keys (``name_key``) of
    every name and alias. ``tactica.loaders.wh40kdc_cache`` stores it with the converted
    units."""

    version: str
    display: tuple[str, ...]
    unit_factions: tuple[str, ...]
    by_key: Mapping[str, int]
    aliases: Mapping[str, str]
    faction_aliases: Mapping[str, str]
    notes: tuple[str, ...] = ()

    keys: tuple[str, ...] = ()
    alias_keys: Mapping[str, str] = field(default_factory=dict)

    def keyed_names(self) -> tuple[list[tuple[str, str]], dict[str, str]]:
        """``([(key, display name)], {alias key: display key})``: the look-up keys stored
        with the names (``keys``, ``alias_keys``), so the library indexes them without
        calling ``name_key`` again."""
        return list(zip(self.keys, self.display, strict=True)), dict(self.alias_keys)


class DatasetSource:
    """The dataset as a datasheet source: names from a ``DatasetIndex``, a unit converted
    (``_convert``) the first time it is asked for. ``Wh40kdcDataset`` converts from the
    bundle; ``wh40kdc_cache.CachedDataset`` reads units converted earlier."""

    kind: Literal["dataset"] = "dataset"

    def __init__(self, index: DatasetIndex) -> None:
        self.index = index
        self.version = index.version
        self.label = f"wh40kdc {index.version}"
        self.notes = index.notes
        self._converted: dict[int, tuple[Datasheet | None, UnitReport]] = {}

    # -- the index (no conversion) --
    def names(self) -> tuple[str, ...]:
        """Every unit name, in dataset order."""
        return self.index.display

    def aliases(self) -> dict[str, str]:
        """Other names of units: ``"Primus (Genestealer Cults)" -> "Primus"``."""
        return dict(self.index.aliases)

    def keyed_names(self) -> tuple[list[tuple[str, str]], dict[str, str]]:
        """The names and aliases with their look-up keys (``DatasetIndex.keyed_names``)."""
        return self.index.keyed_names()

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self._index(name) is not None

    @property
    def converted(self) -> int:
        """How many units have been converted so far (the index alone converts none)."""
        return len(self._converted)

    def __len__(self) -> int:
        return len(self.index.display)

    def _index(self, name: str) -> int | None:
        return self.index.by_key.get(name_key(name))

    def factions_of(self, name: str) -> tuple[str, ...]:
        """The faction the dataset files the unit under (its ``faction_id``)."""
        index = self._index(name)
        return () if index is None else (self.index.unit_factions[index],)

    def faction(self, name: str) -> str | None:
        """The dataset's spelling of a faction name or alias ("Space Marines" ->
        "Adeptus Astartes"), or ``None``."""
        return self.index.faction_aliases.get(name_key(name))

    def faction_aliases(self) -> Mapping[str, str]:
        """Every name and alias ``faction`` reads, by its look-up key (``name_key``), with
        the dataset's spelling."""
        return self.index.faction_aliases

    def factions(self) -> tuple[str, ...]:
        """Every faction that has units, in dataset order."""
        return tuple(dict.fromkeys(self.index.unit_factions))

    # -- conversion --
    def _convert(self, index: int) -> tuple[Datasheet | None, UnitReport]:
        if index not in self._converted:
            self._converted[index] = self._load(index)
        return self._converted[index]

    def _load(self, index: int) -> tuple[Datasheet | None, UnitReport]:
        raise NotImplementedError

    def datasheet(self, name: str) -> Datasheet | None:
        """The named unit's datasheet (converted on first use), ``None`` if the unit was
        rejected (see ``unit_report``). Raises ``UnknownNameError`` for an unknown name."""
        return self._convert(self._require(name))[0]

    def unit_report(self, name: str) -> UnitReport:
        return self._convert(self._require(name))[1]

    def _require(self, name: str) -> int:
        index = self._index(name)
        if index is None:
            raise UnknownNameError("unit", name, suggest(name, self.names()))
        return index

    def converted_units(self) -> tuple[tuple[Datasheet | None, UnitReport], ...]:
        """Every unit converted, in dataset order (``None`` for a rejected unit)."""
        with collector_paused():
            return tuple(self._convert(i) for i in range(len(self)))

    def datasheets(self) -> tuple[Datasheet, ...]:
        """Every unit converted (rejected units left out), in dataset order."""
        return tuple(sheet for sheet, _ in self.converted_units() if sheet is not None)

    def report(self) -> LoadReport:
        """Converts every unit and says what happened to each."""
        entries = tuple(report for _, report in self.converted_units())
        return LoadReport(source=self.label, units=entries, notes=self.notes)


class Wh40kdcDataset(DatasetSource):
    """The dataset converted from its bundle: a cheap name index, lazy per-unit
    conversion.

    ``raw`` is the bundle (``wh40kdc.data.raw_data()``); tests pass small hand-made
    bundles of the same layout.
    """

    def __init__(self, raw: Raw, version: str = PINNED_VERSION) -> None:
        notes: tuple[str, ...] = ()
        if not supported(version):
            notes = (
                f"wh40kdc {version} is installed; the conversion was written for "
                f"{PINNED_VERSION} (pip install 'wh40kdc{SUPPORTED_VERSIONS}')",
            )
        self._units: list[Raw] = list(raw.get("units") or [])
        self._weapons = _keyed(raw.get("weapons") or [])
        self._weapons_any = _first_by_id(raw.get("weapons") or [])
        self._abilities = _keyed(raw.get("abilities") or [], "ability_id")
        self._abilities_any = _first_by_id(raw.get("abilities") or [], "ability_id")
        self._keyword_names: dict[str, str] = {
            str(k["id"]): str(k["name"]) for k in raw.get("weapon_keywords") or []
        }
        self._compositions = {
            (c.get("faction_id") or "", c["unit_id"]): c for c in raw.get("unit_compositions") or []
        }
        self._options: dict[tuple[str, str], list[Raw]] = {}
        for o in raw.get("wargear_options") or []:
            self._options.setdefault((o.get("faction_id") or "", o["unit_id"]), []).append(o)
        self._wargear_names = {str(w["id"]): str(w["name"]) for w in raw.get("wargear") or []}
        self._leaders: dict[str, list[Raw]] = {}
        for la in raw.get("leader_attachments") or []:
            self._leaders.setdefault(la["leader_id"], []).append(la)
        self._faction_names: dict[str, str] = {}
        faction_aliases: dict[str, str] = {}
        for f in raw.get("factions") or []:
            self._faction_names[f["id"]] = f["name"]
            for alias in (f["name"], *(f.get("aliases") or ())):
                faction_aliases[name_key(alias)] = f["name"]
        self._unit_by_faction_id = _keyed(self._units)
        # names: the first unit of a name keeps it; later units of the same name (another
        # faction's copy, e.g. Ministorum Priest) are "Name (Faction)". Every unit also
        # answers to "Name (Faction)".
        display_names: list[str] = []
        by_key: dict[str, int] = {}
        aliases: dict[str, str] = {}
        for i, unit in enumerate(self._units):
            base = unit["name"]
            qualified = f"{base} ({self.faction_name(unit)})"
            display = qualified if name_key(base) in by_key else base
            display_names.append(display)
            by_key[name_key(display)] = i
            if display != qualified:
                aliases[qualified] = display
        keys = tuple(name_key(d) for d in display_names)
        alias_keys: dict[str, str] = {}
        for alias, display in aliases.items():
            alias_keys[name_key(alias)] = name_key(display)
            by_key.setdefault(name_key(alias), by_key[name_key(display)])
        self._display = display_names
        # the library's name of each unit by (faction, id) ("" for any faction) and by
        # (faction, name), first wins: the leader lists' look-ups
        self._display_by_id: dict[tuple[str, str], str] = {}
        self._display_by_name: dict[tuple[str, str], str] = {}
        for unit, display in zip(self._units, display_names, strict=True):
            faction = unit.get("faction_id") or ""
            self._display_by_id.setdefault((faction, unit["id"]), display)
            self._display_by_id.setdefault(("", unit["id"]), display)
            self._display_by_name.setdefault((faction, str(unit["name"]).casefold()), display)
        super().__init__(DatasetIndex(
            version=version, display=tuple(display_names),
            unit_factions=tuple(self.faction_name(u) for u in self._units),
            by_key=by_key, aliases=aliases, faction_aliases=faction_aliases, notes=notes,
            keys=keys, alias_keys=alias_keys))

    def faction_name(self, unit: Raw) -> str:
        fid = unit.get("faction_id") or ""
        return self._faction_names.get(fid, fid)

    def _load(self, index: int) -> tuple[Datasheet | None, UnitReport]:
        unit = self._units[index]
        return UnitConverter(self, unit, self._display[index]).run()

    # -- look-ups used by the converter --
    def weapon(self, faction: str, wid: str) -> Raw | None:
        return self._weapons.get((faction, wid)) or self._weapons_any.get(wid)

    def ability(self, faction: str, aid: str) -> Raw | None:
        return (
            self._abilities.get((faction, aid))
            or self._abilities.get(("", aid))
            or self._abilities_any.get(aid)
        )

    def keyword_name(self, kid: str) -> str:
        return self._keyword_names.get(kid, kid.replace("-", " ").title())

    def composition(self, faction: str, uid: str) -> Raw | None:
        return self._compositions.get((faction, uid))

    def wargear_options(self, faction: str, uid: str) -> list[Raw]:
        """The unit's wargear options, faction-scoped (wh40kdc ``wargear_options_of``)."""
        return self._options.get((faction, uid), [])

    def wargear_name(self, item: str) -> str | None:
        """The name of a non-weapon wargear item ("cult-icon" -> "Cult icon")."""
        return self._wargear_names.get(item)

    def leader_attachments(self, uid: str) -> list[Raw]:
        return self._leaders.get(uid, [])

    def any_unit_has(self, keywords: Iterable[str]) -> bool:
        """Whether some unit's keywords and faction keywords hold all of ``keywords``
        (wh40kdc ``_matches_bodyguard_keywords``)."""
        want = {k.casefold() for k in keywords}
        return any(want <= {k.casefold() for k in (*(u.get("keywords") or ()),
                                                   *(u.get("faction_keywords") or ()))}
                   for u in self._units)

    def has_unit(self, faction: str, uid: str) -> bool:
        return (faction, uid) in self._unit_by_faction_id

    def unit_named(self, faction: str, name: str) -> str | None:
        """The library's name of ``faction``'s unit called ``name`` (any case), if any."""
        return self._display_by_name.get((faction, name.casefold()))

    def unit_name(self, faction: str, uid: str) -> str | None:
        """The library's name ("Sanctifiers (Agents of the Imperium)") of ``faction``'s
        unit ``uid``, else of the first unit of that id."""
        return self._display_by_id.get((faction, uid)) or self._display_by_id.get(("", uid))


