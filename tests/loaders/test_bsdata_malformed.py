"""Malformed BSData catalogues give a ``LoadError`` naming the file and the record, never
a traceback: a cost ``false`` (not a silent 0) and shared entries that link each other
in a cycle. Built from the real Genestealer Cults catalogue (the real-data suite: the
``bsdata`` fixture, ``TACTICA_REAL_DATA``)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from tactica.loaders.bsdata import load_bsdata
from tactica.loaders.errors import LoadError


def _catalogue(bsdata: Path, tmp_path: Path, change: Any) -> Path:
    for name in ("Warhammer 40,000.json", "Library - Tyranids.json", "Unaligned Forces.json"):
        if (bsdata / name).is_file():
            shutil.copy(bsdata / name, tmp_path / name)
    doc = json.loads((bsdata / "Genestealer Cults.json").read_text(encoding="utf-8"))
    change(doc["catalogue"])
    out = tmp_path / "Genestealer Cults.json"
    out.write_text(json.dumps(doc), encoding="utf-8")
    return out


def _units_with_costs(catalogue: dict[str, Any]) -> list[dict[str, Any]]:
    return [e for e in catalogue["sharedSelectionEntries"] if e.get("costs")]


def test_a_cost_false_is_a_located_load_error(bsdata: Path, tmp_path: Path) -> None:
    def falsify(catalogue: dict[str, Any]) -> None:
        for entry in _units_with_costs(catalogue):
            entry["costs"][0]["value"] = False

    source = load_bsdata([_catalogue(bsdata, tmp_path, falsify)])
    with pytest.raises(LoadError, match="expected a number for 'value', got False") as caught:
        source.datasheets()
    assert caught.value.source == "Genestealer Cults.json"


def test_shared_entries_linking_each_other_are_a_located_load_error(bsdata: Path,
                                                                   tmp_path: Path) -> None:
    names: list[str] = []

    def cycle(catalogue: dict[str, Any]) -> None:
        a, b = catalogue["sharedSelectionEntries"][:2]
        names.extend([a["name"], b["name"]])
        a.setdefault("entryLinks", []).append(
            {"id": "cycle-1", "name": b["name"], "targetId": b["id"], "type": "selectionEntry"})
        b.setdefault("entryLinks", []).append(
            {"id": "cycle-2", "name": a["name"], "targetId": a["id"], "type": "selectionEntry"})

    source = load_bsdata([_catalogue(bsdata, tmp_path, cycle)])
    with pytest.raises(LoadError, match="cycle") as caught:
        source.datasheets()
    assert caught.value.source == "Genestealer Cults.json"
    assert caught.value.text in names
