"""The table on disk: its schema and metadata, deterministic bytes, atomic and resumable
writing (an interrupted run, then the rerun, gives the clean run's files)."""

from __future__ import annotations

import hashlib
import importlib
import json
import os
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from tactica.library import Library
from tactica.meta import SCHEMA, Selection, load, plan, run
from tactica.meta.run import Silent
from tactica.meta.table import SELECTION_FILE, versions
from tactica.meta.tasks import Partition


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.glob("part-*.parquet"))}


def test_every_matchup_once_in_sorted_order(seed_selection: Selection, seed_lib: Library,
                                            tmp_path: Path) -> None:
    run(seed_selection, tmp_path, lib=seed_lib)
    df = load(tmp_path)
    # each edition's attackers face the presets and that edition's units, in both phases
    expected = 0
    for name in seed_selection.attackers:
        for sheet in seed_lib.datasheet_versions(name):
            units = [u for u in seed_selection.attackers
                     if any(s.rules == sheet.rules for s in seed_lib.datasheet_versions(u))]
            expected += 2 * (len(seed_lib.presets()) + len(units))
    assert len(df) == expected
    key = ["edition", "phase", "attacker", "target"]
    assert not df.duplicated(key).any()
    for f in tmp_path.glob("part-*.parquet"):
        part = pq.read_table(f).to_pandas()
        assert part[key].values.tolist() == part.sort_values(key)[key].values.tolist()
    assert set(df["status"]) <= {"computed", "refused"}
    assert df.loc[df.status == "refused", "note"].notna().all()


def test_schema_and_metadata_name_the_versions_and_nothing_else(
        seed_selection: Selection, seed_lib: Library, tmp_path: Path) -> None:
    run(seed_selection, tmp_path, lib=seed_lib)
    f = sorted(tmp_path.glob("part-*.parquet"))[0]
    schema = pq.read_schema(f)
    assert schema.names == SCHEMA.names
    meta = {k.decode(): v.decode() for k, v in (schema.metadata or {}).items()}
    assert meta.pop("tactica.version") == versions()["tactica"]
    assert meta.pop("tactica.dataset") == "none"  # dataset=False: the seed pages only
    # the selection is stored once, in _selection.json; each file holds its hash
    stored = (tmp_path / SELECTION_FILE).read_bytes()
    assert meta.pop("tactica.selection.sha256") == hashlib.sha256(stored).hexdigest()
    assert Selection.model_validate(json.loads(stored)) == seed_selection
    assert meta.pop("tactica.meta.schema") == "2"
    assert meta.pop("tactica.partition") in f.name
    assert set(meta) <= {"ARROW:schema"}  # no timestamp, no writer's own notes
    for field in SCHEMA:
        assert field.metadata and field.metadata[b"description"]


def test_same_selection_same_bytes(seed_selection: Selection, seed_lib: Library,
                                   tmp_path: Path) -> None:
    run(seed_selection, tmp_path / "a", lib=seed_lib)
    run(seed_selection, tmp_path / "b", lib=seed_lib)
    assert _files(tmp_path / "a") == _files(tmp_path / "b") != {}


class _Interrupt(Silent):
    def __init__(self, after: int) -> None:
        self.after = after
        self.n = 0

    def advance(self, part: Partition) -> None:
        self.n += 1
        if self.n == self.after:
            raise KeyboardInterrupt


def test_interrupted_run_resumes_to_the_clean_table(seed_selection: Selection,
                                                    seed_lib: Library, tmp_path: Path) -> None:
    with pytest.raises(KeyboardInterrupt):
        run(seed_selection, tmp_path / "t", lib=seed_lib, progress=_Interrupt(2))
    assert len(_files(tmp_path / "t")) == 2
    again = run(seed_selection, tmp_path / "t", lib=seed_lib)
    assert len(again.skipped) == 2 and len(again.written) == 3
    assert not set(again.skipped) & set(again.written)
    run(seed_selection, tmp_path / "clean", lib=seed_lib)
    assert _files(tmp_path / "t") == _files(tmp_path / "clean")
    assert run(seed_selection, tmp_path / "t", lib=seed_lib).written == []
    assert not list((tmp_path / "t").glob(".*"))


def test_a_folder_holds_one_selection(seed_selection: Selection, seed_lib: Library,
                                      tmp_path: Path) -> None:
    run(seed_selection, tmp_path, lib=seed_lib)
    other = seed_selection.model_copy(update={"phases": ("fight",)})
    with pytest.raises(ValueError, match="another selection"):
        run(other, tmp_path, lib=seed_lib)
    assert json.loads((tmp_path / SELECTION_FILE).read_text())["phases"] == [
        "shooting", "fight"]


def test_partitions_cut_by_edition_faction_and_size(seed_lib: Library) -> None:
    sel = Selection(attackers=seed_lib.names(), targets=("meq",), dataset=False,
                    partition_size=2)
    parts = plan(sel, seed_lib)
    assert [p.attackers for p in parts] == [
        ("Banehammer", "Death Riders"), ("Neophyte Hybrids",), ("Primus",), ("Tyrannocyte",)]
    assert sorted(a for p in parts for a in p.attackers) == sorted(seed_lib.names())
    assert len({p.id for p in parts}) == len(parts)
    for p in parts:  # each partition's units are of its edition and faction
        for a in p.attackers:
            assert p.edition in {s.rules for s in seed_lib.datasheet_versions(a)}


def test_files_are_written_with_the_users_umask(seed_selection: Selection, seed_lib: Library,
                                                tmp_path: Path) -> None:
    """Every file of the table gets the mode ``open`` gives a new file (0644 with the
    usual umask 022, 0640 with 027): the partitions as readable as ``_selection.json``
    (``mkstemp`` alone made them 0600)."""
    table = importlib.import_module("tactica.meta.table")  # the module: table() is the call

    for mask, mode in ((0o022, 0o644), (0o027, 0o640)):
        before = os.umask(mask)
        table._umask.cache_clear()
        try:
            folder = tmp_path / oct(mask)
            run(seed_selection, folder, lib=seed_lib)
        finally:
            os.umask(before)
            table._umask.cache_clear()
        modes = {p.name: p.stat().st_mode & 0o777 for p in folder.iterdir()}
        assert len(modes) == 6 and set(modes.values()) == {mode}, modes


def test_the_footer_is_small(seed_selection: Selection, seed_lib: Library,
                             tmp_path: Path) -> None:
    """The selection's JSON is not repeated in the files: a footer is the schema and a
    hash, whatever the selection's size."""
    run(seed_selection, tmp_path, lib=seed_lib)
    text = seed_selection.to_json()
    for f in tmp_path.glob("part-*.parquet"):
        data = f.read_bytes()
        assert text.encode() not in data and b'"attackers"' not in data
