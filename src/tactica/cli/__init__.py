"""The ``tactica`` console script (``tactica = "tactica.cli:main"``).

The commands live on ``tactica.cli.app.app`` (a ``typer.Typer``; ``tactica.cli.app`` stays
the module, so it is not re-exported here under the same name). Further commands are
registered on it below by name (``LAZY``: module, attribute, one-line help) and imported
only when run, so that ``tactica --help`` starts quickly. A third party registers a
command the usual way::

    commands.app.command("mine")(mine)
"""

from __future__ import annotations

from . import app as commands
from .errors import LAZY

__all__ = ["commands", "main"]

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
             "the most points (exact, overkill counted), beside the naive plan."),
    "mcp": ("tactica.cli.mcp", "mcp",
            "Serve tactica's tools to an AI assistant (Model Context Protocol): "
            "simulate_combat, calculate, lookup_unit, lookup_rule, list_units, "
            "validate_list. Read-only."),
})




def main() -> None:
    """Run the command line."""
    commands.app()
