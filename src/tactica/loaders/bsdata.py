"""BSData catalogues (the community format of army builders, JSON form) as a datasheet
source: ``tactica --data PATH``.

``load_bsdata(paths)`` reads the files given (a directory means every ``*.json`` in it)
and, from the same directories, the files they need: the game system and the catalogues
they link (``catalogueLinks``), found by id. The *faction catalogues* are the
non-library catalogues given (or, with libraries only, those); their root entries of type
``unit`` or ``model`` are the datasheets ("Xenos - Genestealer Cults" offers its own
units, the Tyranids library units it links and Unaligned Forces' imported root entries).

Like the bundled dataset, the source indexes names when it is built and converts an entry
only when asked (``bsdata_units.UnitConverter``). Root entries whose link target is in no
loaded file (Genestealer Cults links "Imperium - Astra Militarum - Library", which the
shared copy lacks) are reported as rejected, naming the missing catalogue.

The rules version comes from the game system's name ("Warhammer 40,000 11th Edition").
Names drop a trailing " [Legends]" (noted on the datasheet) so that they match the other
sources; a second entry with the same name but another id is "Name (Faction)".

The BSData files carry no licence (shared/data/PROVENANCE.md): tactica ships none of
them; users point ``--data`` at their own copy.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Literal

from ..model.common import RulesVersion
from ..model.datasheet import Datasheet
from ..names import UnknownNameError, name_key, suggest
from .bsdata_files import BSFile, BSIndex, Missing, Node, read_file
from .bsdata_units import UnitConverter, unit_name
from .errors import LoadError
from .report import Issue, LoadReport, UnitReport

__all__ = ["BSDataSource", "FolderRefusedError", "faction_name", "load_bsdata", "read_folder",
           "rules_version"]

_PREFIX = re.compile(r"^(?:xenos|imperium|chaos|library)\s*-\s*", re.IGNORECASE)
_UNIT_TYPES = ("unit", "model")


def faction_name(catalogue: BSFile) -> str:
    """The faction a catalogue stands for ("Xenos - Genestealer Cults" -> "Genestealer
    Cults")."""
    return _PREFIX.sub("", catalogue.name).strip()


def rules_version(game_system: BSFile | None) -> RulesVersion | None:
    """"Warhammer 40,000 11th Edition" -> "11th" (also "10th"); ``None`` otherwise."""
    if game_system is None:
        return None
    match = re.search(r"\b(10|11)th\b", game_system.name)
    if match is None:
        return None
    return "11th" if match.group(1) == "11" else "10th"


def _json_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.glob("*.json") if p.is_file())


def read_folder(folder: Path) -> tuple[list[BSFile], list[LoadError]]:
    """Every ``*.json`` file of a folder: those read as BattleScribe data, and a
    ``LoadError`` for each that cannot be (``read_file`` keeps what it read, so reading
    a folder twice, to check it and then to load it, decodes each file once)."""
    read: list[BSFile] = []
    refused: list[LoadError] = []
    for file in _json_files(folder):
        try:
            read.append(read_file(file))
        except LoadError as exc:
            refused.append(exc)
    return read, refused


class FolderRefusedError(LoadError):
    """Files of a ``--data`` folder that cannot be read: the folder is refused as a whole
    (a catalogue skipped would silently leave its units to another source's points and
    profiles). ``refused`` holds one ``LoadError`` per file, each printed on its own line
    by the command line."""

    def __init__(self, folder: Path, refused: Sequence[LoadError]) -> None:
        self.refused = tuple(refused)
        names = ", ".join(Path(e.source).name for e in self.refused)
        super().__init__(
            str(folder), None, names,
            f"{len(self.refused)} file{'s' if len(self.refused) > 1 else ''} in this folder "
            "cannot be read (fix or remove them, or pass --skip-bad to load the rest)")

    def lines(self) -> list[str]:
        """One line per refused file."""
        return [f"{e.source}: {e.problem}" for e in self.refused]


def load_bsdata(paths: Iterable[str | Path], *, skip_bad: bool = False) -> BSDataSource:
    """The catalogues at ``paths`` (files or directories) with what they link.

    Raises ``LoadError`` for a file given by name that is not BattleScribe JSON, and
    ``FileNotFoundError`` for a path that does not exist. A directory is all or nothing:
    any ``*.json`` file in it that cannot be read refuses the directory
    (``FolderRefusedError``, every such file named), unless ``skip_bad``, which skips
    those files with a note each in the report.
    """
    given: list[BSFile] = []
    notes: list[str] = []
    folders: list[Path] = []
    labels: list[str] = []
    for item in paths:
        path = Path(item)
        labels.append(f"{path.name}/" if path.is_dir() else path.name)
        if path.is_dir():
            folders.append(path)
            read, refused = read_folder(path)
            given.extend(read)
            if refused and not skip_bad:
                raise FolderRefusedError(path, refused)
            notes.extend(f"skipped {Path(e.source).name}: {e.problem}" for e in refused)
        elif path.is_file():
            given.append(read_file(path))
            folders.append(path.parent)
        else:
            raise FileNotFoundError(f"--data {path}: no such file or directory")
    files = {f.id: f for f in given}
    needed = _needed(files.values(), files)
    if needed:
        for folder in dict.fromkeys(folders):
            for file in _json_files(folder):
                if any(f.path == file for f in files.values()):
                    continue
                try:
                    extra = read_file(file)
                except LoadError:
                    continue
                if extra.id in needed and extra.id not in files:
                    files[extra.id] = extra
                    needed = _needed(files.values(), files)
    factions = [f for f in given if f.kind == "catalogue" and not f.library]
    if not factions:
        factions = [f for f in given if f.kind == "catalogue"]
    return BSDataSource(list(files.values()), factions, notes, label="BSData " + ", ".join(labels))


def _needed(files: Iterable[BSFile], loaded: dict[str, BSFile]) -> set[str]:
    """Ids of the game system and linked catalogues that are not loaded yet."""
    wanted: set[str] = set()
    for f in files:
        if f.game_system_id:
            wanted.add(f.game_system_id)
        wanted.update(link.target_id for link in f.links)
    return wanted - set(loaded)


class BSDataSource:
    """BSData catalogues as a datasheet source: names indexed, entries converted lazily."""

    kind: Literal["catalogue"] = "catalogue"

    def __init__(
        self,
        files: Sequence[BSFile],
        factions: Sequence[BSFile],
        notes: Sequence[str] = (),
        label: str | None = None,
    ) -> None:
        self.index = BSIndex(files)
        self.factions_files = tuple(factions)
        self.label = label or "BSData " + ", ".join(f.path.name for f in factions)
        game_system = self.index.game_system
        self.rules = rules_version(game_system)
        source_notes = list(notes)
        if game_system is None:
            source_notes.append("no game system file loaded: the rules version is unknown")
        elif self.rules is None:
            source_notes.append(f"game system {game_system.name!r} is not 10th or 11th edition")
        self._points_type = None
        if game_system is not None:
            self._points_type = next(
                (str(c["id"]) for c in game_system.body.get("costTypes") or ()
                 if c.get("name") == "pts"),
                None,
            )
        for catalogue in factions:
            for link in self.index.missing_links(catalogue):
                source_notes.append(
                    f"{catalogue.path.name} links {link.name!r} ({link.target_id}), which is "
                    "not loaded: its entries cannot be resolved"
                )
        self.notes = tuple(dict.fromkeys(source_notes))
        self._roots: list[tuple[Node, BSFile]] = []
        self._members: list[list[str]] = []
        self._display: list[str] = []
        self._by_key: dict[str, int] = {}
        self._by_id: dict[str, int] = {}
        self._missing: dict[str, UnitReport] = {}
        self._categories: dict[str, list[int]] = {}
        for catalogue in factions:
            for entry in self.index.root_entries(catalogue):
                self._add_root(entry, catalogue)
        self._missing_by_name = {name_key(r.unit): r for r in self._missing.values()}
        self._converted: dict[int, tuple[Datasheet | None, UnitReport]] = {}

    def _add_root(self, entry: Node | Missing, catalogue: BSFile) -> None:
        faction = faction_name(catalogue)
        if isinstance(entry, Missing):
            key = entry.target_id
            if key in self._missing or entry.link.get("type") == "selectionEntryGroup":
                return
            linked = ", ".join(repr(link.name) for link in self.index.missing_links(catalogue))
            reason = f"link target {entry.target_id} is in no loaded file"
            if linked:
                reason += f" (not loaded: {linked})"
            self._missing[key] = UnitReport(
                unit=unit_name(entry.name)[0], faction=faction, status="rejected",
                issues=(Issue(kind="rejected", record="entry", message=reason),),
            )
            return
        if entry.type not in _UNIT_TYPES or entry.hidden:
            return
        if entry.id in self._by_id:
            members = self._members[self._by_id[entry.id]]
            if faction not in members:
                members.append(faction)
            return
        index = len(self._roots)
        base = unit_name(entry.name)[0]
        display = base if name_key(base) not in self._by_key else f"{base} ({faction})"
        self._roots.append((entry, catalogue))
        self._members.append([faction])
        self._display.append(display)
        self._by_key[name_key(display)] = index
        self._by_key.setdefault(name_key(f"{base} ({faction})"), index)
        self._by_id[entry.id] = index
        for c in entry.categories:
            self._categories.setdefault(name_key(str(c.get("name", ""))), []).append(index)

    # -- the index --
    def names(self) -> tuple[str, ...]:
        """Every datasheet name, in catalogue order."""
        return tuple(self._display)

    def aliases(self) -> dict[str, str]:
        """"Name (Faction)" for every unit whose name is its bare name."""
        out: dict[str, str] = {}
        for i, display in enumerate(self._display):
            for faction in self._members[i]:
                qualified = f"{unit_name(self._roots[i][0].name)[0]} ({faction})"
                if name_key(qualified) != name_key(display):
                    out[qualified] = display
        return out

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name_key(name) in self._by_key

    @property
    def converted(self) -> int:
        """How many units have been converted so far (the index alone converts none)."""
        return len(self._converted)

    def __len__(self) -> int:
        return len(self._roots)

    def factions_of(self, name: str) -> tuple[str, ...]:
        """The factions whose catalogue offers the unit."""
        index = self._by_key.get(name_key(name))
        return () if index is None else tuple(self._members[index])

    def factions(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(faction_name(f) for f in self.factions_files))

    def faction(self, name: str) -> str | None:
        key = name_key(name)
        return next((f for f in self.factions() if name_key(f) == key), None)

    # -- conversion --
    def _leaders(self, name: str) -> tuple[str, ...]:
        """A Leader list entry as unit names: a unit's own name, else every unit with that
        keyword (category) in the loaded catalogues."""
        key = name_key(name)
        if key in self._by_key:
            return (self._display[self._by_key[key]],)
        return tuple(self._display[i] for i in dict.fromkeys(self._categories.get(key, ())))

    def _convert(self, index: int) -> tuple[Datasheet | None, UnitReport]:
        if index not in self._converted:
            node, catalogue = self._roots[index]
            display = self._display[index]
            if self.rules is None:
                report = UnitReport(
                    unit=display, faction=faction_name(catalogue), status="rejected",
                    issues=(Issue(kind="rejected", record="game system",
                                  message=self.notes[-1] if self.notes else "rules unknown"),),
                )
                self._converted[index] = (None, report)
            else:
                converter = UnitConverter(
                    self.index, node, display, self.rules, catalogue, self._leaders,
                    self._points_type,
                )
                self._converted[index] = self._run(converter, display, node, catalogue)
        return self._converted[index]

    @staticmethod
    def _run(converter: UnitConverter, display: str, node: Node | Missing,
             catalogue: BSFile) -> tuple[Datasheet | None, UnitReport]:
        """Convert one unit; data of the wrong shape (a cost ``false``, a list where an
        object belongs) or shared entries that link each other in a cycle are a
        ``LoadError`` naming the file and the entry, not a traceback."""
        file = node.file.path.name if isinstance(node, Node) else catalogue.path.name
        try:
            return converter.run(faction_name(catalogue))
        except RecursionError:
            raise LoadError(file, None, display, "entries link each other in a cycle "
                            "(entryLinks reach the entry again)") from None
        except LoadError:
            raise
        except (TypeError, AttributeError, KeyError, ValueError) as exc:
            raise LoadError(file, None, display, f"malformed entry ({exc})") from None

    def _require(self, name: str) -> int:
        index = self._by_key.get(name_key(name))
        if index is None:
            raise UnknownNameError("unit", name, suggest(name, self.names()))
        return index

    def datasheet(self, name: str) -> Datasheet | None:
        """The named unit (converted on first use); ``None`` if it was rejected."""
        return self._convert(self._require(name))[0]

    def has_report(self, name: str) -> bool:
        """Whether ``unit_report`` knows the name: a unit, or an entry whose link target
        is missing (no "did you mean" suggestions computed)."""
        key = name_key(name)
        return key in self._by_key or key in self._missing_by_name

    def unit_report(self, name: str) -> UnitReport:
        """What happened to the named entry (also for entries whose target is missing)."""
        key = name_key(name)
        if key not in self._by_key and key in self._missing_by_name:
            return self._missing_by_name[key]
        return self._convert(self._require(name))[1]

    def datasheets(self) -> tuple[Datasheet, ...]:
        out = []
        for i in range(len(self._roots)):
            sheet = self._convert(i)[0]
            if sheet is not None:
                out.append(sheet)
        return tuple(out)

    def report(self) -> LoadReport:
        """Every root entry converted, plus the entries whose target is missing."""
        entries = [self._convert(i)[1] for i in range(len(self._roots))]
        entries += list(self._missing.values())
        return LoadReport(source=self.label, units=tuple(entries), notes=self.notes)
