"""The meta table in one call, for a notebook: ``tactica.meta.table(...)`` names the
attackers and targets as the command's flags do and returns a pandas DataFrame.

A small selection is computed in this process and never written (the rows as the files
would hold them); a big one (over ``IN_MEMORY`` rows, or when a ``folder`` is given) is
run as ``tactica meta`` runs it (``run``: Dask where the size model says it pays, files
written as they come, a rerun resumes) and read back from its Parquet files. In a
notebook the run shows its progress in the cell (``progress.Notebook``).

>>> df = table(units="Intercessor Squad", targets=["meq", "teq"], phases="shooting",
...            editions="11th")
>>> df[["attacker", "target", "phase"]].values.tolist()
[['Intercessor Squad', 'meq', 'shooting'], ['Intercessor Squad', 'teq', 'shooting']]
>>> round(float(df.loc[df.target == "meq", "expected_damage"].iloc[0]), 3) > 0
True
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import pyarrow as pa

from ..combat.contract.scenario import Phase
from ..library import Library, load_library
from ..model.common import RulesVersion
from .compute import compute_partition
from .progress import in_notebook, progress_for
from .run import Progress, run
from .sizing import estimate
from .table import arrow_table, load, partition_path, schema_for
from .tasks import PHASES, Selection, plan, select_units

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["IN_MEMORY", "table", "target_names"]

#: Up to this many rows ``table`` computes in this process without writing a file
#: (every unit against the presets, 21,980, is one).
IN_MEMORY = 100_000

Names = str | Sequence[str] | None
TargetSet = Literal["presets", "units", "both"]


def _names(value: Names) -> tuple[str, ...]:
    if value is None:
        return ()
    return (value,) if isinstance(value, str) else tuple(value)


def _phases(value: Names) -> tuple[Phase, ...]:
    out: list[Phase] = []
    for p in _names(value):
        if p not in PHASES:
            raise ValueError(f"phases: shooting or fight, not {p!r}")
        out.append("shooting" if p == "shooting" else "fight")
    return tuple(out) or PHASES


def _editions(value: Names) -> tuple[RulesVersion, ...]:
    out: list[RulesVersion] = []
    for e in _names(value):
        if e not in ("10th", "11th"):
            raise ValueError(f"editions: 10th or 11th, not {e!r}")
        out.append("10th" if e == "10th" else "11th")
    return tuple(out)


def target_names(lib: Library, targets: TargetSet | Sequence[str] = "presets",
                 factions: Names = None, keywords: Names = None) -> tuple[str, ...]:
    """The targets: ``"presets"`` (the standard ones), ``"units"`` (every unit, of
    ``factions`` and with ``keywords`` when given), ``"both"``, or names (a preset or a
    unit each, as the library spells it)."""
    presets = tuple(p.name for p in lib.presets())
    if not isinstance(targets, str) or targets not in ("presets", "units", "both"):
        known = {p.casefold(): p for p in presets}
        return tuple(dict.fromkeys(known.get(n.casefold()) or lib.datasheet(n).name
                                   for n in _names(targets)))
    if targets == "presets":
        return presets
    units = select_units(lib, factions=_names(factions), keywords=_names(keywords))
    return units if targets == "units" else presets + units


def table(units: Names = None, faction: Names = None,
          targets: TargetSet | Sequence[str] = "presets", phases: Names = None, *,
          keywords: Names = None, target_faction: Names = None,
          editions: Names = None, effects: Names = None, folder: str | Path | None = None,
          workers: int = 2, scheduler: str | None = None, progress: Progress | None = None,
          lib: Library | None = None) -> pd.DataFrame:
    """The meta table of the units named (``units``, or every unit of ``faction`` with
    ``keywords``; none: every unit) against ``targets`` (``target_names``) in ``phases``
    (default both) as a DataFrame, the columns of ``tactica.meta.table.SCHEMA``
    (module text). A name no source knows raises ``UnknownNameError``."""
    lib = lib if lib is not None else load_library()
    selection = Selection(
        attackers=select_units(lib, factions=_names(faction), keywords=_names(keywords),
                               names=_names(units)),
        targets=target_names(lib, targets, target_faction),
        phases=_phases(phases), editions=_editions(editions), effects=_names(effects))
    shown = progress if progress is not None else progress_for() if in_notebook() else None
    if folder is None and scheduler is None and estimate(
            selection, lib, plan(selection, lib)).matchups <= IN_MEMORY:
        return _in_memory(selection, lib)
    if folder is not None:
        run(selection, folder, workers=workers, scheduler=scheduler, progress=shown, lib=lib)
        return load(folder)
    with tempfile.TemporaryDirectory(prefix="tactica-meta-") as there:
        run(selection, there, workers=workers, scheduler=scheduler, progress=shown, lib=lib)
        return load(there)


def _in_memory(selection: Selection, lib: Library) -> pd.DataFrame:
    """The rows the files would hold, in the order ``load`` reads them (by file name)."""
    parts = sorted(plan(selection, lib), key=lambda p: partition_path(Path(), p).name)
    tables = [arrow_table(compute_partition(selection, p, lib), selection) for p in parts]
    if not tables:
        return schema_for(selection).empty_table().to_pandas()
    return pa.concat_tables(tables).to_pandas()
