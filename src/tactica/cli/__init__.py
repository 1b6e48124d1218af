"""The ``tactica`` console script (``tactica = "tactica.launch:main"``, which runs
``tactica.cli.main``).

The commands live on ``tactica.cli.app.app`` (a ``typer.Typer``; ``tactica.cli.app`` stays
the module, available here as ``commands``, so it is not re-exported under the same name).
Further commands are registered on it by name (``tactica.cli.app``, ``LAZY``: module,
attribute, one-line help) and imported only when run, so that ``tactica --help`` starts
quickly; this package imports nothing until asked (``tactica.cli.quick`` runs a rule
look-up without the command-line framework). A third party registers a command the usual
way::

    commands.app.command("mine")(mine)
"""

from __future__ import annotations

from types import ModuleType

__all__ = ["commands", "main"]


def __getattr__(name: str) -> ModuleType:
    if name == "commands":  # ``from tactica.cli import commands``: the app's module
        from . import app

        return app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def main() -> None:
    """Run the command line."""
    from .app import app

    app()
