"""The ``tactica`` command line: thin typer commands over the public API.

Each command parses its options, asks the library (``tactica.library.load_library``) and
formats the answer with rich (``tactica.cli.render``). An unknown name exits with code 2
and the "did you mean" message on stderr.

Other commands register on ``app`` from ``tactica.cli`` (e.g. ``app.command("calc")``).
"""

from __future__ import annotations

import json
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal, NoReturn

import typer
from rich.console import Console

from ..service import UnknownNameError
from .errors import LAZY, LazyGroup, fail

if TYPE_CHECKING:
    from ..service import Library

#: ``tactica.model.common.RulesVersion``, written here so that the command line starts
#: without loading the data models (``tactica --help`` stays quick).
RulesVersion = Literal["10th", "11th"]

__all__ = ["EXIT_UNKNOWN_NAME", "SchemaKind", "app", "schema_of", "version"]

#: Exit code for a name that matches nothing (the usage-error code).
EXIT_UNKNOWN_NAME = 2

app = typer.Typer(
    name="tactica",
    help="Warhammer 40,000 rules engine: datasheets as data and exact combat odds.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    cls=LazyGroup,
)


def load_library() -> Library:
    """``tactica.library.load_library``, imported when a command needs the library."""
    from ..service import load_library as load

    return load()

RulesOption = Annotated[
    RulesVersion | None,
    typer.Option(
        "--rules",
        help="Rules version (10th or 11th). Default: 11th where the unit has it.",
    ),
]


class SchemaKind(StrEnum):
    """The documents ``tactica schema`` exports."""

    scenario = "scenario"
    result = "result"
    datasheet = "datasheet"


def version() -> str:
    """The installed package version."""
    from importlib import metadata  # read when asked: ``tactica --help`` starts without it

    try:
        return metadata.version("tactica")
    except metadata.PackageNotFoundError:  # pragma: no cover - running from a bare tree
        return "unknown"


def _out() -> Console:
    return Console(highlight=False, soft_wrap=False)


def _err() -> Console:
    """stderr, each message on one line whatever the terminal's width."""
    return Console(stderr=True, highlight=False, soft_wrap=True)


def _unknown(exc: UnknownNameError) -> NoReturn:
    err = _err()
    err.print(f"error: {exc}", markup=False)
    for hint in getattr(load_library(), "missing", ()):  # issue 6: dataset not installed
        err.print(f"note: {hint}", markup=False)
    raise typer.Exit(code=EXIT_UNKNOWN_NAME)


def _version_callback(value: bool) -> None:
    if value:
        typer.echo(f"tactica {version()}")
        from ..service import ATTRIBUTION, installed_version

        if installed_version() is not None:  # issue 6: the 40kdc-data credit
            typer.echo(f"bundled dataset: wh40kdc {installed_version()}. {ATTRIBUTION}")
        raise typer.Exit()


@app.callback()
def _root(
    ctx: typer.Context,
    show_version: Annotated[
        bool,
        typer.Option(
            "--version",
            callback=_version_callback,
            is_eager=True,
            help="Print the version and exit.",
        ),
    ] = False,
    data: Annotated[
        list[Path] | None,
        typer.Option(
            "--data",
            help="BSData catalogue (JSON file or folder) to load as well; repeatable.",
        ),
    ] = None,
    dataset: Annotated[
        bool,
        typer.Option(
            "--dataset/--no-dataset",
            help="Use the bundled 11th-edition dataset (wh40kdc, installed with tactica); "
            "--no-dataset: the seed pages and --data catalogues only.",
        ),
    ] = True,
    skip_bad: Annotated[
        bool,
        typer.Option(
            "--skip-bad",
            help="Load a --data folder even when some of its files cannot be read "
            "(each skipped file is named); without it such a folder is refused.",
        ),
    ] = False,
) -> None:
    """Warhammer 40,000 rules engine: datasheets as data and exact combat odds."""
    from ..service import start_up_done
    from .sources import configure  # issue 6: sources for this command

    start_up_done()  # the collector resumes, if no command's module was imported
    configure(ctx, data, dataset, skip_bad)


@app.command("units")
def units(
    rules: RulesOption = None,
    faction: Annotated[
        str | None, typer.Option("--faction", help="Only this faction's units.")
    ] = None,
) -> None:
    """List the units in the library: name, faction keywords, rules version, points, source."""
    from .unit_view import show_units, unknown_faction

    try:  # from the unit index kept on disk (``tactica.lookup.unit_index``)
        show_units(_out(), faction, rules)
    except UnknownNameError as exc:
        raise typer.Exit(unknown_faction(_err(), exc)) from None


@app.command("sheet")
def sheet(
    name: Annotated[str, typer.Argument(help="Unit name (case and punctuation ignored).")],
    rules: RulesOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the datasheet as JSON.")] = False,
) -> None:
    """Show a unit's datasheet card (or its JSON with --json)."""
    from .render import datasheet_card

    try:
        found = load_library().datasheet(name, rules)
    except UnknownNameError as exc:
        _unknown(exc)
    if as_json:
        typer.echo(json.dumps(found.model_dump(mode="json"), indent=2, ensure_ascii=False))
    else:
        _out().print(datasheet_card(found))
        if rules is not None and found.rules != rules:
            _out().print(f"note: the library has no {rules}-edition datasheet for "
                         f"{found.name}; this is the {found.rules}-edition one", markup=False,
                         soft_wrap=True)


@app.command("rule")
def rule(
    name: Annotated[
        str, typer.Argument(help="A stratagem, ability, enhancement or core rule name.")
    ],
    rules: RulesOption = None,
) -> None:
    """Show a stratagem, ability, enhancement, detachment rule or core rule, and which
    edition's text the calculator follows for it."""
    from .rule_view import show_rule, unknown_rule

    try:
        show_rule(_out(), name, rules)
    except UnknownNameError as exc:
        raise typer.Exit(unknown_rule(_err(), exc)) from None


def schema_of(kind: SchemaKind) -> dict[str, Any]:
    """The JSON Schema of a scenario (version 2: attackers and targets may name library
    units), a result or a datasheet (from the models)."""
    if kind is SchemaKind.scenario:
        from ..service import ScenarioDocument

        return ScenarioDocument.model_json_schema()
    if kind is SchemaKind.result:
        from ..service import Result

        return Result.model_json_schema()
    from ..service import Datasheet

    return Datasheet.model_json_schema()


@app.command("schema")
def schema(
    kind: Annotated[
        SchemaKind | None,
        typer.Argument(help="Which schema (scenario, result, datasheet); default: all."),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Write <kind>.schema.json files into this directory."),
    ] = None,
) -> None:
    """Print or export the JSON Schemas of the scenario, result and datasheet documents."""
    kinds = list(SchemaKind) if kind is None else [kind]
    schemas = {k.value: schema_of(k) for k in kinds}
    if out is not None:
        if out.exists() and not out.is_dir():
            fail(f"--out {out}: is a file, not a folder (the schemas are written into a "
                 "folder)")
        out.mkdir(parents=True, exist_ok=True)
        for key, value in schemas.items():
            path = out / f"{key}.schema.json"
            path.write_text(json.dumps(value, indent=2) + "\n", encoding="utf-8")
            typer.echo(str(path))
        return
    document = schemas[kinds[0].value] if kind is not None else schemas
    typer.echo(json.dumps(document, indent=2))


# --- command registrations ------------------------------------------------------------
# loaded when run (``LazyGroup``): ``tactica --help`` imports none of them
LAZY.update({
    "calc": ("tactica.cli.calc", "calc",
             "Compute the exact odds of an attack (a scenario file, or units from the "
             "library)."),
    "effects": ("tactica.cli.effects", "effects",
                "List the named effects (stratagems, detachment rules, enhancements, "
                "abilities)."),
    "turn": ("tactica.cli.turn", "turn",
             "The exact odds of a turn: several units shoot, charge and fight one target."),
    "serve": ("tactica.cli.serve", "serve",
              "Serve the calculator, datasheets and list checker at http://HOST:PORT/."),
    "data": ("tactica.cli.data", "data_app",
             "Where the datasheets come from: sources, load reports."),
    "list": ("tactica.cli.lists", "list_app", "Army lists: show, price, validate, convert."),
    "meta": ("tactica.cli.meta", "meta_app",
             "The meta table: every unit against every target, as Parquet; query and plot "
             "it."),
    "matchup": ("tactica.cli.plan", "matchup_command",
                "Every unit of my army against every unit of the enemy's, and theirs "
                "against mine: shooting and fight, exactly (points destroyed, per 100 "
                "points, models, P(destroy))."),
    "plan": ("tactica.cli.plan", "plan_command",
             "The shooting plan: each of my shooting units at one enemy unit, to destroy "
             "the most points (exact, overkill counted), beside the naive plan; with "
             "--phase fight, the charge plan."),
    "mcp": ("tactica.cli.mcp", "mcp",
            "Serve tactica's tools to an AI assistant (Model Context Protocol): "
            "simulate_combat, calculate, find_units, lookup_unit, lookup_rule, list_units, "
            "validate_list, matchup, plan. Read-only."),
})
