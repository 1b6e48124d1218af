"""Request checks in front of the app, the way production servers do them.

``RequestGuard`` (ASGI middleware) refuses, before the app sees the request:

* more than ``MAX_HEADERS`` header lines (431), a header block over ``MAX_HEADER_BYTES``
  (431);
* a request with both ``Content-Length`` and ``Transfer-Encoding: chunked`` (400; RFC
  9112 6.3: such a message is a request-smuggling vector and is refused);
* a body whose next part does not arrive within ``body_timeout`` seconds: the app sees
  the client as gone and the connection is closed.

The Host allow-list is starlette's ``TrustedHostMiddleware`` (``create_app(
allowed_hosts=...)``; ``tactica serve`` allows localhost only unless ``--allow-host``
adds names), which stops DNS rebinding against the local app.

What uvicorn enforces itself (``tactica serve`` sets them, see ``SERVER_LIMITS``): the
connection cap (``limit_concurrency``: beyond it new requests get a 503), the idle
keep-alive timeout (``timeout_keep_alive``) and the largest incomplete request head h11
buffers (``h11_max_incomplete_event_size``: a longer header block is refused with 400).
uvicorn has no timeout for a request head that is sent slowly (a "slowloris" client
holds its connection for ever); ``GuardedH11Protocol`` (uvicorn's h11 protocol with a
timer) closes a connection whose request head is not complete ``HEAD_TIMEOUT`` seconds
after its first byte.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = ["HEAD_TIMEOUT", "MAX_HEADERS", "MAX_HEADER_BYTES", "SERVER_LIMITS",
           "GuardedH11Protocol", "RequestGuard"]

#: Most header lines a request may have, and their total size.
MAX_HEADERS = 100
MAX_HEADER_BYTES = 16 * 1024
#: Seconds a client has to send a whole request head.
HEAD_TIMEOUT = 10.0


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol, closing a connection whose request head is not complete
    ``head_timeout`` seconds after the connection opened or its next request began."""

    head_timeout: float = HEAD_TIMEOUT
    _head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        if self.cycle is None or self.cycle.response_complete:
            self._arm()  # waiting for a request head
        super().data_received(data)
        if self.cycle is not None and not self.cycle.response_complete:
            self._disarm()  # the head is in: the app has the request

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        if self._head_timer is None:
            self._head_timer = self.loop.call_later(self.head_timeout, self._expired)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _expired(self) -> None:
        self._head_timer = None
        if not self.transport.is_closing():
            self.transport.close()


#: uvicorn's own limits as ``tactica serve`` sets them.
SERVER_LIMITS: dict[str, Any] = {
    "limit_concurrency": 256,
    "timeout_keep_alive": 5,
    "h11_max_incomplete_event_size": MAX_HEADER_BYTES,
    "http": GuardedH11Protocol,
}


async def _refuse(send: Send, status: int, msg: str, kind: str) -> None:
    body = json.dumps({"detail": [{"loc": ["request"], "msg": msg, "type": kind}]}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})


class RequestGuard:
    """Header count and size, Content-Length with chunked, body read timeout (module
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
        timeout = self.body_timeout

        async def timed_receive() -> Message:
            try:
                return await asyncio.wait_for(receive(), timeout)
            except TimeoutError:
                return {"type": "http.disconnect"}

        await self.app(scope, timed_receive, send)
