"""tactica for AI assistants: a Model Context Protocol server over the same core as the
command line and the web app (``tactica mcp``; ``docs/mcp.md``).

The package is ``tactica.assistant`` so that it is never mistaken for the official SDK's
``mcp`` package, on which it is built. A shell like ``tactica.cli`` and ``tactica.web``:
each tool parses its arguments, calls one function of the core and formats its answer
(``tools``); the server bounds every call in size and time (``server``).

>>> from tactica.assistant import TOOLS
>>> [t.name for t in TOOLS]  # doctest: +NORMALIZE_WHITESPACE
['simulate_combat', 'calculate', 'find_units', 'lookup_unit', 'lookup_rule', 'list_units',
 'validate_list', 'matchup', 'plan']
"""

from __future__ import annotations

from typing import Any

from ..errors import needs_extra

with needs_extra("mcp", "tactica mcp"):  # the official MCP SDK: pip install "tactica[mcp]"
    from .server import Limits, create_server
    from .transport import run_http, run_stdio

__all__ = ["TOOLS", "Limits", "create_server", "run_http", "run_stdio"]


def __getattr__(name: str) -> Any:
    """``TOOLS``, imported on first use: the server starts without tactica's side."""
    if name == "TOOLS":
        from .tools import TOOLS

        return TOOLS
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
