"""Request checks in front of the app, the way production servers do them.

``RequestGuard`` (ASGI middleware) refuses, before the app sees the request:

* more than ``MAX_HEADERS`` header lines (431), a header block over ``MAX_HEADER_BYTES``
  (431);
* a request with both ``Content-Length`` and ``Transfer-Encoding: chunked`` (400; RFC
  9112 6.3: such a message is a request-smuggling vector and is refused);
* a body not received whole within ``body_timeout`` seconds of the app's first read
  (a total deadline, not one per part: a client sending a byte every few seconds is cut
  like one that stops): a 408, the connection closed.

The Host allow-list is starlette's ``TrustedHostMiddleware`` (``create_app(
allowed_hosts=...)``; ``tactica serve`` allows localhost only unless ``--allow-host``
adds names), which stops DNS rebinding against the local app; ``/healthz`` alone answers
any Host (``tactica.web.app_shell.HostCheck``: probes ask by address).

These hold under any ASGI server. Under ``tactica serve`` the server's protocol also
bounds each connection before the app sees a request (``tactica.web.connections``: the
deadline for a request's head and body, the caps per client and in all).
"""

from __future__ import annotations

import asyncio
import json

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["MAX_HEADERS", "MAX_HEADER_BYTES", "RequestGuard"]

#: Most header lines a request may have, and their total size.
MAX_HEADERS = 100
MAX_HEADER_BYTES = 16 * 1024


async def _refuse(send: Send, status: int, msg: str, kind: str) -> None:
    body = json.dumps({"detail": [{"loc": ["request"], "msg": msg, "type": kind}]}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})


class RequestGuard:
    """Header count and size, Content-Length with chunked, the body's deadline (module
    text)."""

    def __init__(self, app: ASGIApp, body_timeout: float = 10.0) -> None:
        self.app = app
        self.body_timeout = body_timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers: list[tuple[bytes, bytes]] = scope["headers"]
        if len(headers) > MAX_HEADERS:
            await _refuse(send, 431, f"{len(headers)} header lines; at most {MAX_HEADERS}",
                          "too_many_headers")
            return
        if sum(len(k) + len(v) + 4 for k, v in headers) > MAX_HEADER_BYTES:
            await _refuse(send, 431, f"headers over {MAX_HEADER_BYTES} bytes",
                          "headers_too_large")
            return
        names = {k.lower(): v.lower() for k, v in headers}
        if b"content-length" in names and b"chunked" in names.get(b"transfer-encoding", b""):
            await _refuse(send, 400, "Content-Length and Transfer-Encoding: chunked together",
                          "ambiguous_length")
            return
        await self._deadlined(scope, receive, send)

    async def _deadlined(self, scope: Scope, receive: Receive, send: Send) -> None:
        """The app, with a 408 once the body's deadline passes unanswered."""
        loop = asyncio.get_running_loop()
        deadline: float | None = None
        state = {"started": False, "cut": False, "whole": False}

        async def timed_receive() -> Message:
            nonlocal deadline
            if state["whole"]:  # the body is in: no deadline on waiting for a disconnect
                return await receive()
            if deadline is None:
                deadline = loop.time() + self.body_timeout
            if state["cut"]:
                return {"type": "http.disconnect"}
            try:
                message = await asyncio.wait_for(receive(), max(deadline - loop.time(), 0))
                state["whole"] = not message.get("more_body", False)
                return message
            except TimeoutError:
                state["cut"] = True
                if not state["started"]:
                    state["started"] = True
                    await _refuse(send, 408, f"the request body was not received within "
                                  f"{self.body_timeout:g} s", "too_slow")
                return {"type": "http.disconnect"}

        async def watched_send(message: Message) -> None:
            if state["cut"]:
                return  # answered with the 408
            if message["type"] == "http.response.start":
                state["started"] = True
            await send(message)

        try:
            await self.app(scope, timed_receive, watched_send)
        except Exception:
            if not state["cut"]:
                raise  # the app's own failure; a cut body's "client gone" is not one
