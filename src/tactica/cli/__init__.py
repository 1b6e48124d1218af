"""The ``tactica`` console script (``tactica = "tactica.cli:main"``).

The commands live on ``tactica.cli.app.app`` (a ``typer.Typer``; ``tactica.cli.app`` stays
the module, so it is not re-exported here under the same name). Further commands are
registered on it below, the same way a third party would, e.g.::

    from .calc import calc
    commands.app.command("calc")(calc)

from .effects import effects  # noqa: E402

commands.app.command("effects")(effects)
"""

from __future__ import annotations

from . import app as commands

__all__ = ["commands", "main"]

# --- command registrations ------------------------------------------------------------
from .calc import calc

commands.app.command("calc")(calc)

from .effects import effects  # noqa: E402

commands.app.command("effects")(effects)

from .data import data_app  # noqa: E402

commands.app.add_typer(data_app, name="data")

from .lists import list_app  # noqa: E402

commands.app.add_typer(list_app, name="list")

from .serve import serve  # noqa: E402
from .turn import turn  # noqa: E402

commands.app.command("turn")(turn)

commands.app.command("serve")(serve)

from .meta import meta_app  # noqa: E402

commands.app.add_typer(meta_app, name="meta")

from .plan import matchup_command, plan_command  # noqa: E402

commands.app.command("matchup")(matchup_command)
commands.app.command("plan")(plan_command)

from .mcp import mcp  # noqa: E402

commands.app.command("mcp")(mcp)


def main() -> None:
    """Run the command line."""
    commands.app()
