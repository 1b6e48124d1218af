"""BattleScribe data files in their JSON form: reading, the id index, links resolved.

A BSData repository (here ``BSData/wh40k-11e``) holds one *game system* file
(``{"gameSystem": {...}}``) and *catalogues* (``{"catalogue": {...}}``), some of them
libraries (``"library": true``). What this module relies on, as found in those files
(battleScribeVersion 2.03):

* Shared records live in ``sharedSelectionEntries``, ``sharedSelectionEntryGroups``,
  ``sharedProfiles``, ``sharedRules`` and ``sharedInfoGroups`` of any file; they are
  reached by id from ``entryLinks`` (``targetId``, ``type`` ``selectionEntry`` or
  ``selectionEntryGroup``) and ``infoLinks`` (``type`` ``profile``, ``rule`` or
  ``infoGroup``). Ids are unique across the files, so one index serves every file.
* A catalogue names the files it uses in ``catalogueLinks``; with
  ``importRootEntries: true`` the linked catalogue's root entries are offered too
  (Genestealer Cults imports Unaligned Forces' fortifications).
* An entry link carries its own ``constraints``, ``modifiers``, ``categoryLinks`` and
  sometimes ``costs``, which add to (constraints, categories) or replace (costs) the
  target's. Its ``name`` is a cached copy; the target's name is used.
* ``hidden`` (on the node, or set by a modifier without conditions) removes a node.
  Modifiers *with* conditions depend on the roster (Crusade, Boarding Actions, detachment
  choices) and are not evaluated here, except the points modifiers ``bsdata_units``
  reads on purpose.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from tactica.cache_registry import lasting_cache

from ..inputs import InputError, check_depth
from .errors import LoadError

__all__ = [
    "SKIPPED_GROUPS",
    "BSFile",
    "BSIndex",
    "CatalogueLink",
    "Missing",
    "Node",
    "number",
    "read_file",
    "text_of",
]

Raw = Mapping[str, Any]

#: Shared groups every datasheet links to that are not part of the datasheet: Crusade
#: upgrades, enhancements and their variants (names as in the 11e files).
SKIPPED_GROUPS = frozenset(
    {
        "Crusade",
        "Enhancements",
        "Enhancements - Upgrades",
        "Weapon Modifications",
        "Weapon Upgrades",
        "Crusade Relic Upgrades",
        "Mighty Champions",
        "Battle Scars",
        "Battle Traits",
        "Crusade Relics",
    }
)
#: Shared entries linked from datasheets that are roster bookkeeping, not wargear.
_SKIPPED_ENTRIES = frozenset({"Warlord", "Show/Hide Options", "Order of Battle"})
_SHARED = (
    "sharedSelectionEntries",
    "sharedSelectionEntryGroups",
    "sharedProfiles",
    "sharedRules",
    "sharedInfoGroups",
    "selectionEntries",
)


@dataclass(frozen=True, slots=True)
class CatalogueLink:
    """A ``catalogueLinks`` entry: the linked file's id and name, and whether its root
    entries are offered by the linking catalogue."""

    target_id: str
    name: str
    import_root: bool


@dataclass(frozen=True, slots=True)
class BSFile:
    """One data file: what it is and its body (the object under the top-level key)."""

    path: Path
    kind: Literal["gameSystem", "catalogue"]
    id: str
    name: str
    revision: str
    library: bool
    game_system_id: str | None
    body: Raw = field(repr=False)

    @property
    def links(self) -> tuple[CatalogueLink, ...]:
        return tuple(
            CatalogueLink(
                target_id=str(c.get("targetId")),
                name=str(c.get("name")),
                import_root=bool(c.get("importRootEntries")),
            )
            for c in self.body.get("catalogueLinks") or ()
        )

    @property
    def label(self) -> str:
        return f"{self.path.name} ({self.name!r} rev {self.revision})"


#: Keys whose value is a list of objects in BattleScribe JSON.
_LISTS = frozenset({
    "selectionEntries", "selectionEntryGroups", "entryLinks", "sharedSelectionEntries",
    "sharedSelectionEntryGroups", "sharedProfiles", "sharedRules", "sharedInfoGroups",
    "profiles", "rules", "infoLinks", "infoGroups", "categoryLinks", "categoryEntries", "costs",
    "constraints", "modifiers", "modifierGroups", "conditions", "conditionGroups",
    "localConditionGroups", "repeats", "characteristics", "characteristicTypes",
    "profileTypes", "costTypes", "catalogueLinks", "forceEntries", "publications"})
#: Keys whose value is text, and keys whose value is true or false.
_TEXTS = frozenset({"id", "name", "targetId", "type", "typeId", "$text", "field", "scope",
                    "childId", "typeName", "description"})
_FLAGS = frozenset({"hidden", "library", "primary", "importRootEntries", "collective"})


def check_shape(body: Raw, file: str, root: str) -> None:
    """The layout the loaders rely on: the list keys (``_LISTS``) hold lists of objects,
    the text keys text, the flags true or false. A record of another shape is a
    ``LoadError`` naming the file and its JSON path, before any unit is converted.

    >>> check_shape({"costs": [{"name": "pts", "value": 1}]}, "c.json", "catalogue")
    >>> check_shape({"categoryLinks": [False]}, "c.json", "catalogue")
    Traceback (most recent call last):
    ...
    LoadError: c.json: expected an object in 'categoryLinks': 'catalogue.categoryLinks[0]'
    """
    todo: list[tuple[Raw, str]] = [(body, root)]
    while todo:
        node, where = todo.pop()
        for key, value in node.items():
            if key in _LISTS and not (key == "repeats" and isinstance(value, int)):
                if not isinstance(value, list):
                    raise LoadError(file, None, f"{where}.{key}", f"expected a list for {key!r}")
                for i, item in enumerate(value):
                    if not isinstance(item, dict):
                        raise LoadError(file, None, f"{where}.{key}[{i}]",
                                        f"expected an object in {key!r}")
                    todo.append((item, f"{where}.{key}[{i}]"))
            elif key in _TEXTS and not isinstance(value, str):
                raise LoadError(file, None, f"{where}.{key}", f"expected text for {key!r}")
            elif key in _FLAGS and not isinstance(value, bool):
                raise LoadError(file, None, f"{where}.{key}",
                                f"expected true or false for {key!r}")
            elif isinstance(value, dict):
                todo.append((value, f"{where}.{key}"))


#: The deepest nesting of lists and objects a catalogue may have: ten times the deepest
#: real catalogue (the BSData 11th-edition files nest 8 to 20 levels deep), far below
#: what would exhaust the interpreter's recursion while the file is decoded or walked.
MAX_NESTING = 200


def read_file(path: Path) -> BSFile:
    """Read one BattleScribe JSON file. Raises ``LoadError`` when it is not JSON, nests
    deeper than ``MAX_NESTING`` or has neither a ``gameSystem`` nor a ``catalogue``
    object. A file read before and not changed since (same size and modification time)
    is not decoded again."""
    try:
        stat = path.stat()
    except OSError as exc:
        raise LoadError(str(path), None, path.name, f"not a readable JSON file ({exc})") from None
    return _read_file(path, stat.st_mtime_ns, stat.st_size)


@lasting_cache(maxsize=32, kind="data")
def _read_file(path: Path, mtime_ns: int, size: int) -> BSFile:
    try:
        raw = path.read_bytes()
        check_depth(raw, path.name, limit=MAX_NESTING)
        data = json.loads(raw)
    except InputError:
        raise LoadError(str(path), None, path.name,
                        f"nested more than {MAX_NESTING} levels deep") from None
    except (OSError, ValueError) as exc:
        raise LoadError(str(path), None, path.name, f"not a readable JSON file ({exc})") from None
    kind: Literal["gameSystem", "catalogue"]
    if isinstance(data, dict) and isinstance(data.get("gameSystem"), dict):
        kind, body = "gameSystem", data["gameSystem"]
    elif isinstance(data, dict) and isinstance(data.get("catalogue"), dict):
        kind, body = "catalogue", data["catalogue"]
    else:
        raise LoadError(
            str(path), None, path.name, "not BattleScribe data (no gameSystem or catalogue)"
        )
    if "id" not in body:
        raise LoadError(str(path), None, path.name, f"{kind} without an id")
    system = body.get("gameSystemId")
    if kind == "catalogue" and system is not None and not isinstance(system, str):
        raise LoadError(str(path), None, path.name,
                        f"catalogue gameSystemId should be text, not {type(system).__name__}")
    check_shape(body, path.name, kind)
    return BSFile(
        path=path,
        kind=kind,
        id=str(body["id"]),
        name=str(body.get("name") or path.stem),
        revision=str(body.get("revision", "?")),
        library=bool(body.get("library")),
        game_system_id=None if kind == "gameSystem" else system,
        body=body,
    )


#: Largest number a cost or constraint may hold (points, model counts).
_MAX_NUMBER = 1_000_000


def number(raw: Raw, key: str = "value", default: int = 0, *, where: str = "?") -> int:
    """``raw[key]`` as a whole number. A boolean (``"value": false``), text or an absurd
    value is a ``LoadError`` naming ``where`` (the file) and the record, not a silent 0.

    >>> number({"value": 85.0})
    85
    >>> number({"name": "pts", "value": False}, where="GSC.json")
    Traceback (most recent call last):
    ...
    LoadError: GSC.json: expected a number for 'value', got False: "{'name': 'pts', ...
    """
    value = raw.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float) \
            or not -_MAX_NUMBER <= value <= _MAX_NUMBER:
        raise LoadError(where, None, str(dict(raw))[:120],
                        f"expected a number for {key!r}, got {value!r}")
    return int(value)


def text_of(profile: Raw, characteristic: str) -> str | None:
    """The text of a profile characteristic (``{"name": "M", "$text": "6\\""}``)."""
    for c in profile.get("characteristics") or ():
        if c.get("name") == characteristic:
            return str(c.get("$text", "")).strip()
    return None


def _unconditional(modifier: Raw) -> bool:
    return not modifier.get("conditions") and not modifier.get("conditionGroups") and not (
        modifier.get("repeats")
    )


def _apply_name(name: str, modifiers: Sequence[Raw]) -> str:
    """Unconditional ``name`` modifiers: ``append`` ("Deadly Demise" + "D3") and ``set``."""
    for m in modifiers:
        if m.get("field") != "name" or not _unconditional(m):
            continue
        if m.get("type") == "append":
            name = f"{name} {m.get('value')}".strip()
        elif m.get("type") == "set":
            name = str(m.get("value"))
    return name


def _hidden(raw: Raw) -> bool:
    if raw.get("hidden") is True:
        return True
    return any(
        m.get("field") == "hidden" and m.get("type") == "set" and m.get("value") is True
        and _unconditional(m)
        for m in raw.get("modifiers") or ()
    )


@dataclass(frozen=True, slots=True)
class Missing:
    """An entry or info link whose target is in no loaded file."""

    link: Raw
    file: BSFile

    @property
    def target_id(self) -> str:
        return str(self.link.get("targetId"))

    @property
    def name(self) -> str:
        return str(self.link.get("name"))


@dataclass(frozen=True, slots=True)
class Node:
    """A selection entry or group, reached directly or through an entry link (``link``):
    the merged view BattleScribe shows."""

    raw: Raw = field(repr=False)
    file: BSFile = field(repr=False)
    link: Raw | None = field(default=None, repr=False)

    @property
    def id(self) -> str:
        return str(self.raw.get("id"))

    @property
    def name(self) -> str:
        return _apply_name(str(self.raw.get("name", "")), self.modifiers)

    @property
    def type(self) -> str:
        """``unit``, ``model``, ``upgrade`` for entries; ``group`` for groups."""
        if "type" in self.raw and self.raw.get("type") not in ("selectionEntryGroup",):
            return str(self.raw["type"])
        return "group"

    @property
    def hidden(self) -> bool:
        return _hidden(self.raw) or (self.link is not None and _hidden(self.link))

    @property
    def modifiers(self) -> tuple[Raw, ...]:
        mods = list(self.raw.get("modifiers") or ())
        if self.link is not None:
            mods += list(self.link.get("modifiers") or ())
        return tuple(mods)

    @property
    def constraints(self) -> tuple[Raw, ...]:
        own = list(self.link.get("constraints") or ()) if self.link is not None else []
        return (*own, *(self.raw.get("constraints") or ()))

    @property
    def costs(self) -> tuple[Raw, ...]:
        if self.link is not None and self.link.get("costs"):
            return tuple(self.link["costs"])
        return tuple(self.raw.get("costs") or ())

    @property
    def categories(self) -> tuple[Raw, ...]:
        links = list(self.raw.get("categoryLinks") or ())
        if self.link is not None:
            links += list(self.link.get("categoryLinks") or ())
        return tuple(links)

    def bounds(self, unit_id: str) -> tuple[int | None, int | None]:
        """The ``min``/``max`` number of selections of this node within its unit (scope
        ``parent``, ``self``, ``unit`` or the unit's id); force- and roster-wide limits
        are not unit composition."""
        low: int | None = None
        high: int | None = None
        for c in self.constraints:
            if c.get("field") != "selections":
                continue
            if c.get("scope") not in ("parent", "self", "unit", unit_id):
                continue
            value = number(c, where=self.file.path.name)
            if c.get("type") == "min":
                low = value if low is None else max(low, value)
            elif c.get("type") == "max":
                high = value if high is None else min(high, value)
        return low, high


class BSIndex:
    """Every loaded file, and every shared record by id."""

    def __init__(self, files: Sequence[BSFile]) -> None:
        self.files: dict[str, BSFile] = {}
        self.records: dict[str, tuple[Raw, BSFile]] = {}
        for f in files:
            self.files.setdefault(f.id, f)
            for key in _SHARED:
                for record in f.body.get(key) or ():
                    if "id" in record:
                        self.records.setdefault(str(record["id"]), (record, f))

    @property
    def game_system(self) -> BSFile | None:
        return next((f for f in self.files.values() if f.kind == "gameSystem"), None)

    def missing_links(self, file: BSFile) -> tuple[CatalogueLink, ...]:
        """Catalogues ``file`` links (directly or through its linked files) that are not
        loaded."""
        seen: set[str] = set()
        missing: list[CatalogueLink] = []
        todo = [file]
        while todo:
            current = todo.pop()
            for link in current.links:
                if link.target_id in seen:
                    continue
                seen.add(link.target_id)
                target = self.files.get(link.target_id)
                if target is None:
                    missing.append(link)
                else:
                    todo.append(target)
        return tuple(missing)

    def resolve(self, link: Raw, file: BSFile) -> Node | Missing:
        """The node an entry link points at (or ``Missing``)."""
        found = self.records.get(str(link.get("targetId")))
        if found is None:
            return Missing(link, file)
        raw, where = found
        return Node(raw=raw, file=where, link=link)

    def root_entries(self, catalogue: BSFile) -> Iterator[Node | Missing]:
        """The entries a catalogue offers at the top of a roster: its own root entries and
        entry links, then those of catalogues it imports root entries from."""
        seen: set[str] = set()

        def walk(f: BSFile) -> Iterator[Node | Missing]:
            if f.id in seen:
                return
            seen.add(f.id)
            for raw in f.body.get("selectionEntries") or ():
                yield Node(raw=raw, file=f)
            for link in f.body.get("entryLinks") or ():
                yield self.resolve(link, f)
            for clink in f.links:
                target = self.files.get(clink.target_id)
                if clink.import_root and target is not None:
                    yield from walk(target)

        yield from walk(catalogue)

    def children(self, node: Node) -> Iterator[Node | Missing]:
        """Child entries and groups of a node, links resolved; hidden nodes, skipped
        shared groups (``SKIPPED_GROUPS``) and bookkeeping entries left out."""
        raw = node.raw
        children: list[Node | Missing] = []
        for key in ("selectionEntries", "selectionEntryGroups"):
            children += [Node(raw=r, file=node.file) for r in raw.get(key) or ()]
        links = list(raw.get("entryLinks") or ())
        if node.link is not None:
            links += list(node.link.get("entryLinks") or ())
        children += [self.resolve(link, node.file) for link in links]
        for child in children:
            if isinstance(child, Missing):
                yield child
                continue
            if child.hidden or child.name in _SKIPPED_ENTRIES:
                continue
            if child.type == "group" and child.name in SKIPPED_GROUPS:
                continue
            yield child

    def profiles(self, node: Node) -> Iterator[tuple[Raw, BSFile]]:
        """A node's profiles: its own, and those its info links and info groups name."""
        yield from self._info(node.raw, node.file, "profiles")
        if node.link is not None:
            yield from self._info(node.link, node.file, "profiles")

    def rules(self, node: Node) -> Iterator[tuple[str, Raw, BSFile]]:
        """A node's rules as ``(name, rule, file)``; a rule reached through an info link
        takes the link's name modifiers ("Deadly Demise" + "D3")."""
        sources = [node.raw] if node.link is None else [node.raw, node.link]
        for src in sources:
            for rule in src.get("rules") or ():
                if not _hidden(rule):
                    yield _apply_name(str(rule.get("name")), rule.get("modifiers") or ()), rule, (
                        node.file
                    )
            for info in src.get("infoLinks") or ():
                if info.get("type") != "rule" or _hidden(info):
                    continue
                found = self.records.get(str(info.get("targetId")))
                if found is None:
                    continue
                rule, where = found
                name = _apply_name(str(rule.get("name")), info.get("modifiers") or ())
                yield name, rule, where

    def _info(self, raw: Raw, file: BSFile, key: str) -> Iterator[tuple[Raw, BSFile]]:
        for item in raw.get(key) or ():
            if not _hidden(item):
                yield item, file
        for group in raw.get("infoGroups") or ():
            if not _hidden(group):
                yield from self._info(group, file, key)
        for info in raw.get("infoLinks") or ():
            if _hidden(info):
                continue
            found = self.records.get(str(info.get("targetId")))
            if found is None:
                continue
            target, where = found
            if info.get("type") == "profile" and key == "profiles":
                if not _hidden(target):
                    yield target, where
            elif info.get("type") == "infoGroup":
                yield from self._info(target, where, key)
