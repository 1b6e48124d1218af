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
        "--allow-host", envvar="TACTICA_ALLOW_HOST", help="a Host name to serve besides "
        "localhost (repeatable; '*' for any; TACTICA_ALLOW_HOST: names separated by "
        "spaces)")] = None,
    meta: Annotated[Path | None, typer.Option(
        "--meta", help="a meta table folder (written by `tactica meta`) to sort and filter "
        "at /meta", exists=True, file_okay=False, dir_okay=True)] = None,
) -> None:
    """Serve the calculator, datasheets and list checker at http://HOST:PORT/.

    Open the address in a browser; it needs no internet. Only requests for localhost (and
    the names given with --allow-host) are answered, so no other web page can reach it.
    A port in use or a host that is not this machine's is refused at once.
    \f
    (Host checking guards against DNS rebinding; the server's protocol bounds every
    connection: ``tactica.web.connections``.)"""
    from ..service import needs_extra
    from .errors import fail

    with needs_extra("web", "tactica serve"):  # uvicorn, FastAPI, Jinja
        from ..web.serve import AddressError, run, take_address

    try:  # the address first: a busy port or a foreign host refused before anything starts
        sock = take_address(host, port)
    except AddressError as exc:
        fail(str(exc))
    from ..web import create_app

    hosts = ["localhost", "127.0.0.1", "::1", *(allow_host or ())]
    shown = f"[{host}]" if ":" in host else host
    typer.echo(f"tactica: http://{shown}:{sock.getsockname()[1]}/ (API docs at /docs); "
               "Ctrl+C stops it")
    app = create_app(workers=workers, calc_timeout=timeout, allowed_hosts=hosts, meta=meta)
    run(app, sock=sock)
