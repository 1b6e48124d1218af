"""``tactica.meta.table(...)``: the table in one call (issue 43), in memory for a small
selection and through Parquet for a big one, the same frame either way, and the
documented notebook example run as written."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pandas as pd
import pytest

import tactica.meta
from tactica.library import load_library
from tactica.meta import Selection, load, run
from tactica.names import UnknownNameError

pytest.importorskip("wh40kdc")

DOCS = Path(__file__).resolve().parents[2] / "docs" / "meta.md"
ASKED = {"units": ["Intercessor Squad", "Fortis Kill Team"], "targets": ["meq", "Knight Paladin"],
         "phases": "shooting", "editions": "11th"}


def _by_hand(tmp_path: Path) -> pd.DataFrame:
    """The same question the long way: a Selection, run, load."""
    sel = Selection(attackers=("Fortis Kill Team", "Intercessor Squad"),
                    targets=("meq", "Knight Paladin"), phases=("shooting",),
                    editions=("11th",))
    run(sel, tmp_path / "by-hand", lib=load_library())
    return load(tmp_path / "by-hand")


def test_one_call_gives_the_table_in_memory_and_through_parquet(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    expected = _by_hand(tmp_path)
    assert len(expected) == 4
    small = tactica.meta.table(**ASKED)  # type: ignore[arg-type]
    pd.testing.assert_frame_equal(small, expected)
    notebook = importlib.import_module("tactica.meta.notebook")
    monkeypatch.setattr(notebook, "IN_MEMORY", 0)  # as a big selection goes
    made: list[Path] = []
    real = notebook.run

    def spy(selection: Selection, folder: Path, **kw: object) -> object:
        made.append(Path(folder))
        return real(selection, folder, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(notebook, "run", spy)
    big = tactica.meta.table(**ASKED)  # type: ignore[arg-type]
    pd.testing.assert_frame_equal(big, expected)
    assert len(made) == 1 and not made[0].exists()  # a temporary folder, removed
    kept = tactica.meta.table(**ASKED, folder=tmp_path / "kept")  # type: ignore[arg-type]
    pd.testing.assert_frame_equal(kept, expected)
    assert len(list((tmp_path / "kept").glob("part-*.parquet"))) >= 1


def test_the_documented_notebook_example_runs() -> None:
    """The example of docs/meta.md's *In a notebook*, executed as written."""
    text = DOCS.read_text(encoding="utf-8").split("## In a notebook", 1)[1]
    (code,) = re.findall(r"```python\n(.*?)```", text.split("\n## ", 1)[0], re.S)
    scope: dict[str, object] = {}
    exec(compile(code, str(DOCS), "exec"), scope)  # the documentation's code
    df = scope["df"]
    assert isinstance(df, pd.DataFrame) and len(df) > 0
    assert set(df["target"]) <= {"meq", "teq", "knight"} and set(df["phase"]) == {"shooting"}


def test_bad_names_are_one_line() -> None:
    with pytest.raises(UnknownNameError, match="Intercesor"):
        tactica.meta.table(units="Intercesor Squad")
    with pytest.raises(ValueError, match="phases: shooting or fight, not 'melee'"):
        tactica.meta.table(units="Intercessor Squad", phases="melee")
    with pytest.raises(UnknownNameError):
        tactica.meta.table(units="Intercessor Squad", targets=["nobody-at-all"])
