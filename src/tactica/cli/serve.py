"""``tactica serve``: the web app (``tactica.web.create_app``) on a local address, with
uvicorn. The pages and their scripts are served by the app itself, so it works offline.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

__all__ = ["serve"]


def serve(
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="port to listen on")] = 8000,
    workers: Annotated[int, typer.Option(
        min=1, max=16, help="calculation processes (each stops a calculation after "
        "--timeout seconds)")] = 2,
    timeout: Annotated[float, typer.Option(
        min=0.5, max=60, help="seconds a calculation may run")] = 4.0,
    allow_host: Annotated[list[str] | None, typer.Option(
        "--allow-host", help="a Host name to serve besides localhost (repeatable; '*' "
        "for any)")] = None,
    meta: Annotated[Path | None, typer.Option(
        "--meta", help="a meta table folder (written by `tactica meta`) to sort and filter "
        "at /meta", exists=True, file_okay=False, dir_okay=True)] = None,
) -> None:
    """Serve the calculator, datasheets and list checker at http://HOST:PORT/.

    Open the address in a browser; it works offline. Only requests for localhost (and the
    names given with --allow-host) are answered, so no other web page can reach it.
    \f
    (Host checking guards against DNS rebinding; the server's protocol bounds every
    connection: ``tactica.web.connections``.)"""
    from ..web import create_app
    from ..web.serve import run

    hosts = ["localhost", "127.0.0.1", "::1", *(allow_host or ())]
    typer.echo(f"tactica: http://{host}:{port}/ (API docs at /docs); Ctrl+C stops it")
    app = create_app(workers=workers, calc_timeout=timeout, allowed_hosts=hosts, meta=meta)
    run(app, host=host, port=port)
