"""The meta table on disk: one Parquet file per partition in one folder, its schema, and
reading it back.

The files are deterministic: the same selection gives the same bytes whoever computes
it (in-process, a local cluster or a remote one): rows sorted by (edition, phase,
attacker, target), one fixed row-group size, zstd compression, and no timestamps in the
metadata, which holds only the schema version, the tactica and dataset versions, the
selection's hash (the selection itself is stored once, in ``_selection.json``) and the
partition's id. Each file is written to a temporary name and renamed
(``write_partition``), so a file that exists is complete: a rerun skips it. The files
are made with the user's umask (0644 by default), like ``_selection.json``: a table
shared in a folder is readable by whoever may read the folder.

>>> SCHEMA.field("points_per_100").type
DataType(double)
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import tempfile
from collections.abc import Sequence
from importlib import metadata
from operator import attrgetter
from pathlib import Path
from typing import TYPE_CHECKING

import pyarrow as pa
import pyarrow.parquet as pq

from .compute import Row
from .tasks import Partition, Selection

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "DETACHMENT_SCHEMA",
    "ROW_GROUP_SIZE",
    "SCHEMA",
    "SCHEMA_VERSION",
    "SELECTION_FILE",
    "arrow_table",
    "done_partitions",
    "load",
    "parquet_bytes",
    "partition_path",
    "read_selection",
    "schema_for",
    "selection_hash",
    "versions",
    "write_partition",
    "write_selection",
]

SCHEMA_VERSION = "2"  # 2: points_artefact, weapon_order; the selection's hash
#: Rows per row group: fixed, so that the bytes do not depend on the writer's defaults.
ROW_GROUP_SIZE = 65536
#: The selection a folder holds (JSON), written before the first partition.
SELECTION_FILE = "_selection.json"

_FIELDS: list[tuple[str, pa.DataType, str]] = [
    ("edition", pa.string(), "rules version of the row: 10th or 11th"),
    ("phase", pa.string(), "shooting or fight"),
    ("attacker", pa.string(), "attacking unit (library name), fielded by default"),
    ("attacker_faction", pa.string(), "the attacker's faction"),
    ("attacker_models", pa.int32(), "the attacker's models (its default size)"),
    ("attacker_points", pa.int32(), "the attacker's points at that size (null: none)"),
    ("target", pa.string(), "target: a preset name (meq) or a library unit"),
    ("target_kind", pa.string(), "preset or unit"),
    ("target_faction", pa.string(), "the target unit's faction (null for a preset)"),
    ("target_models", pa.int32(), "the target's models"),
    ("target_points", pa.int32(), "the target's points (a preset: the unit it stands "
                                   "for, at its size; null: none)"),
    ("effects", pa.list_(pa.string()), "named rules applied to the matchup"),
    ("expected_damage", pa.float64(), "mean damage inflicted (after saves and FNP)"),
    ("models_destroyed", pa.float64(), "mean models destroyed"),
    ("p_destroyed", pa.float64(), "probability the target unit is destroyed"),
    ("points_destroyed", pa.float64(), "target_points x models_destroyed / "
                                       "target_models"),
    ("points_per_100", pa.float64(), "points_destroyed per 100 points of attacker"),
    ("status", pa.string(), "computed, or refused (the reason in note)"),
    ("note", pa.string(), "why the calculator refused the matchup"),
    ("points_artefact", pa.string(), "null, or why a side's points are the data's, not "
                                     "its size's (one price for every size)"),
    ("weapon_order", pa.string(), "the order the attacker's weapon lines are resolved "
                                  "in: datasheet (the datasheet's order)"),
]

#: The columns a table of ``Selection.detachment_rules`` adds.
_DETACHMENT_FIELDS: list[tuple[str, pa.DataType, str]] = [
    ("detachment", pa.string(), "the detachment whose rules the row applies (its rules "
                                "that hold are in effects); null: the row without them"),
    ("detachment_not_applied", pa.list_(pa.string()),
     "the detachment's rules (or parts) not in the figures, each with why"),
]


#: The column a table of ``Selection.distance`` adds.
_DISTANCE_FIELDS: list[tuple[str, pa.DataType, str]] = [
    ("distance", pa.float64(), "inches to the target in a shooting row (a ranged weapon "
                               "beyond its range makes no attacks); null in the fight"),
]


def _schema(fields: list[tuple[str, pa.DataType, str]]) -> pa.Schema:
    return pa.schema([pa.field(n, t, metadata={"description": d}) for n, t, d in fields])


#: The table's columns, each described in its field metadata.
SCHEMA = _schema(_FIELDS)
#: The columns of a table with each faction's detachment rules.
DETACHMENT_SCHEMA = _schema(_FIELDS + _DETACHMENT_FIELDS)

_SORT = ("edition", "phase", "attacker", "target")


@functools.lru_cache(maxsize=4)
def _schema_of(detachments: bool, distance: bool) -> pa.Schema:
    if not distance:
        return DETACHMENT_SCHEMA if detachments else SCHEMA
    return _schema(_FIELDS + (_DETACHMENT_FIELDS if detachments else []) + _DISTANCE_FIELDS)


def schema_for(selection: Selection | None) -> pa.Schema:
    """The columns of the table of ``selection`` (``SCHEMA``, the detachment columns
    when it applies each faction's detachment rules, the distance column when it states
    one)."""
    if selection is None:
        return SCHEMA
    return _schema_of(selection.detachment_rules, selection.distance is not None)


def versions() -> dict[str, str]:
    """The tactica and dataset versions a table is stamped with."""
    return dict(_versions())


@functools.lru_cache(maxsize=1)
def _versions() -> tuple[tuple[str, str], ...]:
    """Read once a process (each read parses the packages' metadata files)."""
    out = []
    for package in ("tactica", "wh40kdc"):
        try:
            out.append((package, metadata.version(package)))
        except metadata.PackageNotFoundError:
            out.append((package, "not installed"))
    return tuple(out)


def selection_hash(selection: Selection) -> str:
    """The SHA-256 of ``_selection.json``'s text (what each file's metadata holds)."""
    return hashlib.sha256(_selection_text(selection).encode()).hexdigest()


def _selection_text(selection: Selection) -> str:
    return selection.to_json() + "\n"


def _file_metadata(selection: Selection, part: Partition) -> dict[str, str]:
    v = versions()
    return {"tactica.meta.schema": SCHEMA_VERSION, "tactica.version": v["tactica"],
            "tactica.dataset": f"wh40kdc {v['wh40kdc']}" if selection.dataset else "none",
            "tactica.selection.sha256": selection_hash(selection),
            "tactica.partition": part.id}


def arrow_table(rows: Sequence[Row], selection: Selection) -> pa.Table:
    """A partition's rows as an Arrow table in the file's order (module text)."""
    schema = schema_for(selection)
    columns = {name: list(map(attrgetter(name), rows)) for name in schema.names}
    table = pa.Table.from_pydict(columns, schema=schema)
    if "detachment" in schema.names:  # the row without the detachment rules first
        return table.sort_by([*((c, "ascending") for c in _SORT),
                              ("detachment", "ascending", "at_start")])
    return table.sort_by([(c, "ascending") for c in _SORT])


def parquet_bytes(rows: Sequence[Row], selection: Selection, part: Partition) -> bytes:
    """The partition's Parquet file, deterministic (module text)."""
    table = arrow_table(rows, selection).replace_schema_metadata(
        _file_metadata(selection, part))
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, row_group_size=ROW_GROUP_SIZE, compression="zstd",
                   write_statistics=True)
    return bytes(sink.getvalue().to_pybytes())


def partition_path(folder: Path, part: Partition) -> Path:
    return folder / f"part-{part.id}.parquet"


@functools.lru_cache(maxsize=1)
def _umask() -> int:
    """The process's umask (read by setting it: once, then put back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def file_mode() -> int:
    """The mode a new file gets from the user's umask (0644 with the usual 022): what
    ``open`` gives ``_selection.json``, which ``mkstemp``'s 0600 would not."""
    return 0o666 & ~_umask()


def write_partition(folder: Path, part: Partition, data: bytes) -> Path:
    """Write one partition's file atomically (a temporary file renamed), with the mode
    the user's umask gives (``file_mode``)."""
    path = partition_path(folder, part)
    fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        os.fchmod(fd, file_mode())
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(name, path)
    except BaseException:
        Path(name).unlink(missing_ok=True)
        raise
    return path


def done_partitions(folder: Path, parts: Sequence[Partition]) -> set[str]:
    """The ids of the partitions whose file is there (complete: written by rename)."""
    return {p.id for p in parts if partition_path(folder, p).is_file()}


def write_selection(folder: Path, selection: Selection) -> None:
    """Record the folder's selection; a folder holding another one is refused
    (``ValueError``), so that a rerun never mixes two tables."""
    folder.mkdir(parents=True, exist_ok=True)
    old = read_selection(folder)
    if old is not None and old != selection:
        raise ValueError(f"{folder} holds a table of another selection; give another "
                         "folder (or delete this one)")
    if old is None:
        (folder / SELECTION_FILE).write_text(_selection_text(selection), encoding="utf-8")


def read_selection(folder: Path) -> Selection | None:
    path = folder / SELECTION_FILE
    if not path.is_file():
        return None
    return Selection.model_validate(json.loads(path.read_text(encoding="utf-8")))


def load(folder: str | Path) -> pd.DataFrame:
    """The table in ``folder`` as a pandas DataFrame (every partition, sorted as in the
    files: partition by partition)."""
    files = sorted(Path(folder).glob("part-*.parquet"))
    if not files:
        raise FileNotFoundError(f"{folder}: no meta table here (run `tactica meta` first)")
    schema = schema_for(read_selection(Path(folder)))
    tables = [pq.read_table(f, schema=schema) for f in files]
    return pa.concat_tables(tables).to_pandas()
