"""The pictures at every scale (issue 43: a 71,994 x 360 px heatmap strip, titles over
panels' headings, bars that did not name their target, the whole table in memory): each
kind drawn from a big table through DuckDB, its PNG's size bounded and its labels read
back from the figure."""

from __future__ import annotations

import struct
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from tactica.library import Library
from tactica.meta import SCHEMA, Selection, run
from tactica.meta.plot import MAX_INCHES, _bars_figure, _heatmap_figure, draw
from tactica.meta.plotdata import KINDS, PlotFilters, best_rows, grid_rows

FACTIONS, PER_FACTION, TARGETS = 24, 12, 120  # 288 attackers x 120 targets x 2 phases


def _png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n") and data[12:16] == b"IHDR"
    w, h = struct.unpack(">II", data[16:24])
    return int(w), int(h)


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A table of 69,120 rows in the table's schema, made up: attacker ``Fk Uj`` of
    faction ``Fk`` does ``k + j / 100`` damage to every target, 0.5 more in the shooting
    and 0.001 more against target ``T00k`` (so the best units, their targets and the
    faction means are known in advance)."""
    folder = tmp_path_factory.mktemp("big")
    attackers = [(k, f"F{k:02d}", f"F{k:02d} U{j:02d}", k + j / 100)
                 for k in range(FACTIONS) for j in range(PER_FACTION)]
    targets = [(f"T{t:03d}", f"G{t % 6}") for t in range(TARGETS)]
    rows: dict[str, list[Any]] = {n: [] for n in SCHEMA.names}
    for phase in ("fight", "shooting"):
        for k, faction, name, damage in attackers:
            for target, tfaction in targets:
                value = damage + (0.5 if phase == "shooting" else 0.0) + \
                    (0.001 if target == f"T{k:03d}" else 0.0)
                for column, v in (("edition", "11th"), ("phase", phase), ("attacker", name),
                                  ("attacker_faction", faction), ("attacker_models", 5),
                                  ("attacker_points", 100), ("target", target),
                                  ("target_kind", "unit"), ("target_faction", tfaction),
                                  ("target_models", 5), ("target_points", 100),
                                  ("effects", []), ("expected_damage", value),
                                  ("models_destroyed", value / 2), ("p_destroyed", 0.5),
                                  ("points_destroyed", value * 10),
                                  ("points_per_100", value * 10), ("status", "computed"),
                                  ("note", None), ("points_artefact", None),
                                  ("weapon_order", "datasheet")):
                    rows[column].append(v)
    table = pa.Table.from_pydict(rows, schema=SCHEMA)
    half = table.num_rows // 2
    pq.write_table(table.slice(0, half), folder / "part-a.parquet")
    pq.write_table(table.slice(half), folder / "part-b.parquet")
    return folder


def test_bars_name_each_target_and_keep_the_title_clear(big: Path, tmp_path: Path) -> None:
    best = best_rows(big, "expected_damage", PlotFilters(), top=3)
    assert len(best) == FACTIONS * 3
    top = best[best.attacker_faction == "F05"]
    assert top.attacker.tolist() == ["F05 U11", "F05 U10", "F05 U09"]
    assert set(top.target) == {"T005"} and set(top.phase) == {"shooting"}
    plt, fig = _bars_figure(best, metric="expected_damage", top=3, title="", shared_x=True)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    shown = [ax for ax in fig.axes if ax.get_visible()]
    assert len(shown) == FACTIONS
    labels = [t.get_text() for ax in shown for t in ax.get_yticklabels()]
    assert len(labels) == FACTIONS * 3
    assert all(text.endswith(f" vs T0{text[1:3]} (shooting)") for text in labels), labels
    title = fig._suptitle.get_window_extent(renderer)
    assert "Best units per faction by expected damage" in fig._suptitle.get_text()
    for ax in shown:  # the title covers no panel's heading
        assert not title.overlaps(ax.title.get_window_extent(renderer))
    assert len({ax.get_xlim() for ax in shown}) == 1  # one x scale: --shared-x
    assert "each bar: its best target and phase" in fig._suptitle.get_text()
    plt.close(fig)
    one = best_rows(big, "expected_damage", PlotFilters(targets=("T001",)), top=2)
    plt, fig = _bars_figure(one, metric="expected_damage", top=2, title="", shared_x=False)
    assert fig._suptitle.get_text().endswith("against T001")  # one target: in the title
    assert fig.axes[0].get_yticklabels()[0].get_text() == "F00 U10 (shooting)"
    plt.close(fig)
    out = draw(big, "bars", tmp_path / "bars.png", metric="expected_damage", top=3)
    w, h = _png_size(out)
    assert 600 <= w <= 120 * MAX_INCHES and 600 <= h <= 120 * MAX_INCHES


def test_a_big_heatmap_is_faction_by_faction(big: Path, tmp_path: Path) -> None:
    cells, by = grid_rows(big, "expected_damage", PlotFilters(), "auto", 30)
    assert by == "faction" and len(cells) == FACTIONS * 6
    cell = cells.set_index(["row", "column"])["value"]
    # F05's units: 5 + j/100 (j 0..11) + 0.5 in the shooting; T005 (of G5) +0.001
    plain = 5.5 + np.mean(np.arange(12) / 100)
    assert cell["F05", "G1"] == pytest.approx(plain, rel=1e-12)
    assert cell["F05", "G5"] == pytest.approx(plain + 0.001 / (TARGETS / 6), rel=1e-12)
    plt, fig = _heatmap_figure(cells, metric="expected_damage", phase="shooting",
                               units=30, by=by, title="")
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_yticklabels()] == [f"F{k:02d}" for k in range(24)]
    assert [t.get_text() for t in ax.get_xticklabels()] == [f"G{t}" for t in range(6)]
    assert "by faction" in ax.get_title()
    fig.canvas.draw()  # the title whole, within the picture
    box, page = ax.title.get_window_extent(), fig.bbox
    assert page.x0 <= box.x0 and box.x1 <= page.x1 and box.y1 <= page.y1
    plt.close(fig)
    out = draw(big, "heatmap", tmp_path / "h.png")
    w, h = _png_size(out)
    assert w <= 2000 and h <= 2000


def test_a_unit_heatmap_of_many_targets_is_refused(big: Path, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="120 targets: too many columns"):
        draw(big, "heatmap", tmp_path / "h.png", by="unit")
    few = PlotFilters(targets=("T001", "t002", "T007"))
    cells, by = grid_rows(big, "expected_damage", few, "auto", 10)
    assert by == "unit" and set(cells.target) == {"T001", "T002", "T007"}
    assert cells.attacker.nunique() == 10 and "F23 U11" in set(cells.attacker)
    out = draw(big, "heatmap", tmp_path / "u.png", filters=few, top=10)
    assert _png_size(out)[0] <= 1200


def test_a_keyword_heatmap_reads_the_units_kinds(seed_selection: Selection,
                                                 seed_lib: Library, tmp_path: Path) -> None:
    run(seed_selection, tmp_path / "t", lib=seed_lib)
    cells, by = grid_rows(tmp_path / "t", "expected_damage", PlotFilters(), "keyword", 30)
    assert by == "keyword" and not cells.empty
    assert set(cells["row"]) | set(cells["column"]) <= {*KINDS, "OTHER"}
    svg = draw(tmp_path / "t", "heatmap", tmp_path / "k.svg", by="keyword")
    text = svg.read_text()
    assert "attacker's kind" in text and "by keyword" in text
