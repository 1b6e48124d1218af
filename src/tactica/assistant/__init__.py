"""tactica for AI assistants: a Model Context Protocol server over the same core as the
command line and the web app (``tactica mcp``; ``docs/mcp.md``).

The package is ``tactica.assistant`` so that it is never mistaken for the official SDK's
``mcp`` package, on which it is built. A shell like ``tactica.cli`` and ``tactica.web``:
each tool parses its arguments, calls one function of the core and formats its answer
(``tools``); the server bounds every call in size and time (``server``).

Its names are imported on first use: ``import tactica.assistant.early`` (which answers an
assistant's ``initialize`` before the SDK is imported) imports neither the SDK nor the
tools.

>>> from tactica.assistant import TOOLS
>>> [t.name for t in TOOLS]  # doctest: +NORMALIZE_WHITESPACE
['simulate_combat', 'calculate', 'find_units', 'lookup_unit', 'lookup_rule', 'list_units',
 'validate_list', 'matchup', 'plan']
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from ..service import needs_extra

if TYPE_CHECKING:
    from .server import Limits, create_server
    from .tools import TOOLS
    from .transport import run_http, run_stdio

__all__ = ["TOOLS", "Limits", "create_server", "run_http", "run_stdio"]

_WHERE = {"TOOLS": "tools", "Limits": "server", "create_server": "server",
          "run_http": "transport", "run_stdio": "transport"}


def __getattr__(name: str) -> Any:
    """The package's names, imported on first use (the official MCP SDK with them:
    ``pip install "tactica[mcp]"``)."""
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    with needs_extra("mcp", "tactica mcp"):
        module = importlib.import_module(f".{_WHERE[name]}", __name__)
    value = getattr(module, name)
    globals()[name] = value
    return value
