"""``tactica meta``: the meta table (every unit against every target, both phases) as
partitioned Parquet; ``tactica meta query "SELECT ..."`` (DuckDB) and ``tactica meta
plot`` over it.

Thin: it turns the flags into a ``tactica.meta.Selection``, runs ``tactica.meta.run``
with a progress bar, and prints what was written.
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Literal

import typer
from rich.console import Console
from rich.table import Table

from ..service import Library, UnknownNameError, configured_sources, load_library
from .errors import fail

if TYPE_CHECKING:  # tactica.meta loads pyarrow: imported when a meta command runs
    from ..service import RunReport, Selection

__all__ = ["meta_app"]

meta_app = typer.Typer(
    name="meta",
    help="The meta table: every unit against every target, as Parquet; query and plot it.",
    invoke_without_command=True,
)


class TargetSet(StrEnum):
    """The targets of ``tactica meta``."""

    presets = "presets"
    units = "units"
    both = "both"


class PhaseChoice(StrEnum):
    shooting = "shooting"
    fight = "fight"


class PlotKind(StrEnum):
    bars = "bars"
    heatmap = "heatmap"


class HeatmapBy(StrEnum):
    auto = "auto"
    unit = "unit"
    faction = "faction"
    keyword = "keyword"


Folder = Annotated[Path, typer.Option("--out", "-o", help="The table's folder.")]
Distance = Annotated[float | None, typer.Option(
    "--distance", min=0, max=200, help="Inches between attacker and target in the "
    "shooting rows: a ranged weapon beyond its range makes no attacks (a column says it). "
    "Default: every target within range.")]


def _checked(scheduler: str | None, rules: list[str] | None) -> tuple[str, ...]:
    """The editions asked for; a malformed scheduler address or edition refused before
    the library loads."""
    from ..service import SchedulerError, check_address

    if scheduler is not None:
        try:
            check_address(scheduler)
        except SchedulerError as exc:
            fail(f"--scheduler {exc}")
    editions = tuple(rules or ())
    for r in (r for r in editions if r not in ("10th", "11th")):
        fail(f"--rules {r!r}: write 10th or 11th")
    return editions


@meta_app.callback()
def meta(
    ctx: typer.Context,
    out: Folder = Path("meta"),
    unit: Annotated[list[str] | None, typer.Option(
        "--unit", help="An attacking unit; repeatable. Default: every unit.")] = None,
    faction: Annotated[list[str] | None, typer.Option(
        "--faction", help="Only this faction's attackers; repeatable.")] = None,
    keyword: Annotated[list[str] | None, typer.Option(
        "--keyword", help="Only attackers with this keyword (VEHICLE); repeatable.")] = None,
    targets: Annotated[TargetSet, typer.Option(
        "--targets", help="The standard targets, every unit (filtered by --target-faction "
        "and --target-keyword), or both.")] = TargetSet.presets,
    target: Annotated[list[str] | None, typer.Option(
        "--target", help="A target (a preset such as meq, or a unit); repeatable: "
        "replaces --targets.")] = None,
    target_faction: Annotated[list[str] | None, typer.Option(
        "--target-faction", help="Unit targets of this faction only; repeatable.")] = None,
    target_keyword: Annotated[list[str] | None, typer.Option(
        "--target-keyword", help="Unit targets with this keyword only; repeatable.")] = None,
    phase: Annotated[list[PhaseChoice] | None, typer.Option(
        "--phase", help="shooting or fight; repeatable. Default: both.")] = None,
    rules: Annotated[list[str] | None, typer.Option(
        "--rules", help="10th or 11th; repeatable. Default: each unit's editions.")] = None,
    effect: Annotated[list[str] | None, typer.Option(
        "--effect", help="A named rule applied to every matchup; repeatable.")] = None,
    detachment_rules: Annotated[bool, typer.Option(
        "--detachment-rules", help="Also each matchup under each detachment of the "
        "attacker's faction, its detachment rules applied where they hold (a column names "
        "the detachment, another its rules left out and why).")] = False,
    distance: Distance = None,
    scheduler: Annotated[str | None, typer.Option(
        "--scheduler", help="An existing Dask scheduler (tcp://host:8786).")] = None,
    workers: Annotated[int, typer.Option(
        "--workers", min=1, help="Worker processes of the local Dask cluster.")] = 2,
    in_process: Annotated[bool, typer.Option(
        "--in-process", help="Compute here, without Dask (the default for small jobs).")
    ] = False,
    local_cluster: Annotated[bool, typer.Option(
        "--local-cluster", help="Use a local Dask cluster even for a small job.")] = False,
    partition_size: Annotated[int, typer.Option(
        "--partition-size", min=1, help="Attacker units per partition at most (one file "
        "each; the partitions are also cut by their cost).")] = 16,
    performance_report: Annotated[Path | None, typer.Option(
        "--performance-report", help="On Dask: write Dask's performance report (the task "
        "stream, each task's time) to this HTML file.")] = None,
) -> None:
    """Compute the meta table into a folder of Parquet files (a rerun resumes)."""
    if ctx.invoked_subcommand is not None:
        return
    from ..service import select_units

    editions = _checked(scheduler, rules)
    lib = load_library()
    try:
        attackers = select_units(lib, factions=faction or (), keywords=keyword or (),
                                 names=unit or ())
        chosen = _targets(lib, targets, target, target_faction, target_keyword)
    except UnknownNameError as exc:
        fail(str(exc))
    if not attackers:
        fail("no unit matches --unit/--faction/--keyword")
    if not chosen:
        fail("no target matches --targets/--target-faction/--target-keyword")
    selection = _selection(attackers, chosen, phase, editions, effect, partition_size,
                           detachment_rules, distance)
    mode: Literal["auto", "in-process", "local"] = (
        "in-process" if in_process else "local" if local_cluster else "auto")
    _report(out, _run(selection, out, mode, scheduler, workers, lib, performance_report))


def _report(out: Path, report: RunReport) -> None:
    """The run's one-line summary; partitions not done refused (a rerun resumes)."""
    Console(highlight=False, soft_wrap=True).print(
        f"{out}: {report.partitions} partitions ({len(report.written)} written now, "
        f"{len(report.skipped)} already there) in {report.seconds:.1f} s ({report.mode})",
        markup=False)
    if report.failed:
        fail(f"{len(report.failed)} partitions not done; run the same command again")


def _run(selection: Selection, out: Path, mode: Literal["auto", "in-process", "local"],
         scheduler: str | None, workers: int, lib: Library,
         performance_report: Path | None = None) -> RunReport:
    """``tactica.meta.run`` with its progress on stderr (``meta.progress.progress_for``: a
    bar with the time left on a terminal, a line each 10% otherwise); a refusal is its
    one line, the bar left out."""
    from ..service import SchedulerError, progress_for, run

    bar = progress_for()
    failed = True
    try:
        report = run(selection, out, mode=mode, scheduler=scheduler, workers=workers,
                     progress=bar, lib=lib, performance_report=performance_report)
        failed = False
        return report
    except SchedulerError as exc:
        fail(f"--scheduler {exc}")
    except ValueError as exc:
        fail(str(exc))
    finally:
        bar.close(failed)


def _selection(attackers: tuple[str, ...], targets: tuple[str, ...],
               phase: list[PhaseChoice] | None, editions: tuple[str, ...],
               effect: list[str] | None, partition_size: int,
               detachment_rules: bool = False, distance: float | None = None) -> Selection:
    """The selection the flags name, with the configured sources (``--data``,
    ``--no-dataset``)."""
    from ..service import Selection

    paths, dataset = configured_sources()
    return Selection(
        attackers=attackers, targets=targets,
        phases=tuple(p.value for p in phase) if phase else ("shooting", "fight"),
        editions=tuple(r for r in editions if r in ("10th", "11th")),
        effects=tuple(effect or ()), data_paths=tuple(str(Path(p).resolve()) for p in paths),
        dataset=dataset, partition_size=partition_size, detachment_rules=detachment_rules,
        distance=distance)


def _targets(lib: object, targets: TargetSet, names: list[str] | None,
             factions: list[str] | None, keywords: list[str] | None) -> tuple[str, ...]:
    from ..service import Library, select_units

    assert isinstance(lib, Library)
    if names:
        out = []
        for n in names:
            if any(p.name.casefold() == n.casefold() for p in lib.presets()):
                out.append(lib.preset(n).name)
            else:
                out.append(lib.datasheet(n).name)
        return tuple(dict.fromkeys(out))
    presets = tuple(p.name for p in lib.presets())
    if targets == TargetSet.presets:
        return presets
    units = select_units(lib, factions=factions or (), keywords=keywords or ())
    return units if targets == TargetSet.units else presets + units


@meta_app.command("query")
def query(
    sql: Annotated[str, typer.Argument(help="SQL over the view `meta` (DuckDB).")],
    out: Folder = Path("meta"),
    csv: Annotated[bool, typer.Option("--csv", help="Print CSV instead of a table.")] = False,
) -> None:
    """Run SQL over the meta table (the view `meta`)."""
    from ..service import QueryError
    from ..service import query as run_query

    try:
        frame = run_query(out, sql)
    except QueryError as exc:
        fail(str(exc))
    if csv:
        typer.echo(frame.to_csv(index=False), nl=False)
        return
    table = Table(*[str(c) for c in frame.columns])
    for row in frame.itertuples(index=False):
        table.add_row(*[_cell(v) for v in row])
    Console(highlight=False).print(table)


def _cell(v: object) -> str:
    if isinstance(v, float):
        return f"{v:.4g}"
    return "" if v is None else str(v)


@meta_app.command("plot")
def plot(
    kind: Annotated[PlotKind, typer.Argument(help="bars (best units per faction) or "
                                             "heatmap (unit x target, or by faction or "
                                             "keyword).")],
    file: Annotated[Path, typer.Option("--file", "-f", help="The picture: .png or .svg.")],
    out: Folder = Path("meta"),
    metric: Annotated[str | None, typer.Option(
        "--metric", help="points_per_100, points_destroyed, expected_damage, "
        "models_destroyed or p_destroyed.")] = None,
    target: Annotated[list[str] | None, typer.Option(
        "--target", help="Only these targets; repeatable.")] = None,
    phase: Annotated[PhaseChoice | None, typer.Option("--phase")] = None,
    faction: Annotated[list[str] | None, typer.Option(
        "--faction", help="Only these factions' attackers; repeatable.")] = None,
    top: Annotated[int, typer.Option("--top", min=1, help="Units per faction (bars) or "
                                     "in all (heatmap by unit).")] = 5,
    by: Annotated[HeatmapBy, typer.Option(
        "--by", help="heatmap: unit x target, faction x faction or keyword x keyword (the "
        "mean of --metric); auto: by unit up to 40 targets, else by faction.")
    ] = HeatmapBy.auto,
    shared_x: Annotated[bool, typer.Option(
        "--shared-x", help="bars: one x scale for every faction's panel.")] = False,
) -> None:
    """Draw the meta table: ranked bars per faction, or a heatmap."""
    from ..service import PlotFilters, QueryError, draw

    filters = PlotFilters(targets=tuple(target or ()), factions=tuple(faction or ()),
                      phase=phase.value if phase else None)
    try:
        path = draw(out, kind.value, file, metric=metric, filters=filters, top=top,
                    by=by.value, shared_x=shared_x)
    except (QueryError, ValueError) as exc:
        fail(str(exc))
    typer.echo(f"wrote {path}")
