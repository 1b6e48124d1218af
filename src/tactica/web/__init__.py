"""The web app: the calculator, the datasheets, the rule texts and list checking in a
browser, served by ``tactica serve`` (FastAPI), working offline.

``create_app()`` (``tactica.web.app``) builds the app; the JSON API is
``tactica.web.api`` (under ``/api``), the pages ``tactica.web.pages``. Both call the same
public functions as the command line. Calculations run in worker processes
(``tactica.web.compute``), which import only the engine: this package imports the web
framework when ``create_app`` is first asked for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .app import MAX_BODY, create_app

__all__ = ["MAX_BODY", "create_app"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from ..service import needs_extra

        with needs_extra("web", "tactica serve"):  # FastAPI, uvicorn, Jinja
            from . import app

        return getattr(app, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
