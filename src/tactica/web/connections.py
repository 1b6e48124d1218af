"""Connection handling under slow and greedy clients, in the server's protocol (before any
request reaches the app), the way production front servers do it.

``guarded_protocol(limits)`` is uvicorn's h11 protocol with:

* **a deadline for each request's head and body** (HAProxy's ``timeout http-request``,
  Apache's ``mod_reqtimeout``): from the connection's opening (or its previous answer), a
  client has ``head_timeout`` seconds to send a whole request head and
  ``request_timeout`` seconds to send the whole request, head and body. A request cut at
  its deadline gets a 408 and the connection is closed; a connection that sent nothing
  is closed without an answer.
  A per-read timeout alone (nginx's ``client_body_timeout``) lets a client that sends one
  byte every few seconds hold a connection for ever; a total deadline does not.
* **a cap per client address** (nginx's ``limit_conn``): at most ``per_client`` open
  connections from one address; the next one gets a 503 and is closed.
* **a cap on all connections, slow ones cut first**: at ``max_connections``, a new
  connection takes the place of the oldest connection still waiting for its request head
  (a slow or idle client; it is closed), so that slow clients can never keep a whole
  request from being served; only when every connection is busy with a request is the
  new one refused (503).

Requests that have arrived whole are not limited here: the calculation pool bounds its
own queue (``tactica.web.compute``: a request waits at most a few seconds, then 503), so
uvicorn's ``limit_concurrency`` (which counts open connections, slow ones included, and
answers 503 to whole requests once they pass it) is not used.

The limits, as ``tactica serve`` sets them, are ``Limits()``'s defaults; the README's
table of bounds states them.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = ["Limits", "guarded_protocol"]


@dataclass(frozen=True)
class Limits:
    """The connection limits of one server (module text)."""

    #: Seconds to send a whole request head, from the connection's opening (or its
    #: previous answer).
    head_timeout: float = 10.0
    #: Seconds to send a whole request, head and body.
    request_timeout: float = 20.0
    #: Open connections from one client address.
    per_client: int = 64
    #: Open connections in all.
    max_connections: int = 1024


@dataclass
class _Registry:
    """The open connections of one server: in the order they began to wait for a request
    head (oldest first), and counted by client address."""

    limits: Limits
    waiting: OrderedDict[_GuardedH11, None] = field(default_factory=OrderedDict)
    by_client: dict[str, int] = field(default_factory=dict)
    total: int = 0


def _answer(status: int, reason: str, message: str) -> bytes:
    body = json.dumps({"detail": message}).encode()
    return (f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n"
            f"content-length: {len(body)}\r\nconnection: close\r\n"
            + ("retry-after: 5\r\n" if status == 503 else "") + "\r\n").encode() + body


TOO_MANY = _answer(503, "Service Unavailable",
                   "too many connections from your address; close some and try again")
FULL = _answer(503, "Service Unavailable", "the server is busy; try again in a moment")
TOO_SLOW = _answer(408, "Request Timeout", "the request was not sent in time")
BAD_REQUEST = _answer(400, "Bad Request", "invalid HTTP request (its framing: a chunk, "
                      "Content-Length or a line)")


class _GuardedH11(H11Protocol):
    registry: _Registry  # set per server by ``guarded_protocol``

    _timer: asyncio.TimerHandle | None = None
    _address: str | None = None
    _refused = False
    _waiting_since = 0.0  # when the connection opened or sent its previous answer
    _begun = False  # a byte of the current request has arrived

    # --- opening and closing -------------------------------------------------------------

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        reg, limits = self.registry, self.registry.limits
        address = self.client[0] if self.client else ""
        if reg.by_client.get(address, 0) >= limits.per_client:
            self._refuse(TOO_MANY)
            return
        if reg.total >= limits.max_connections and not self._evict_one():
            self._refuse(FULL)
            return
        self._address = address
        reg.by_client[address] = reg.by_client.get(address, 0) + 1
        reg.total += 1
        self._await_head()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        reg = self.registry
        reg.waiting.pop(self, None)
        if self._address is not None:
            left = reg.by_client[self._address] - 1
            if left:
                reg.by_client[self._address] = left
            else:
                del reg.by_client[self._address]
            reg.total -= 1
            self._address = None
        super().connection_lost(exc)

    def _refuse(self, answer: bytes) -> None:
        """Answer a connection over a cap and close it (after its request, if it comes
        within a second, has been read, so that the client reads the answer)."""
        self._refused = True
        self.transport.write(answer)
        self._arm(1.0, self.transport.close)

    def _evict_one(self) -> bool:
        """Close the oldest connection waiting for a request head; ``False`` if none."""
        oldest = next(iter(self.registry.waiting), None)
        if oldest is None:
            return False
        oldest._cut()
        return True

    # --- the request's deadline ----------------------------------------------------------

    def data_received(self, data: bytes) -> None:
        if self._refused:
            return  # the request is read and dropped: the answer is sent
        self._begun = True
        super().data_received(data)
        self._follow()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._follow()

    def _follow(self) -> None:
        """Arm the timer for the stage the connection is in."""
        state = self.conn.their_state
        if state is h11.IDLE and (self.cycle is None or self.cycle.response_complete):
            if self not in self.registry.waiting:
                self._await_head()
            return
        self.registry.waiting.pop(self, None)
        if state is h11.SEND_BODY:
            end = self._waiting_since + self.registry.limits.request_timeout
            self._arm(max(end - time.monotonic(), 0.0), self._cut)
        else:  # the request is whole: the app has it, no deadline of ours
            self._disarm()

    def _await_head(self) -> None:
        self._waiting_since = time.monotonic()
        self._begun = False
        self.registry.waiting[self] = None
        self._arm(self.registry.limits.head_timeout, self._cut)

    def _cut(self) -> None:
        """The deadline passed (or the connection is evicted): a 408 if a request had
        begun and no answer has, then close."""
        self._disarm()
        self.registry.waiting.pop(self, None)
        if self.transport.is_closing():
            return
        cycle = self.cycle if self.cycle is not None and not self.cycle.response_complete \
            else None
        if self._begun and (cycle is None or not cycle.response_started):
            self.transport.write(TOO_SLOW)
        if cycle is not None:  # the app reading the body sees the client gone, and its
            cycle.disconnected = True  # answer, if any, is dropped
            cycle.message_event.set()
        self.transport.close()

    # --- a request whose framing is broken ---------------------------------------------

    def send_400_response(self, msg: str) -> None:
        """A request whose framing h11 refuses (a bad chunk, bytes past the body, a
        pipelined line that is no request): uvicorn has logged one line; a 400 unless an
        answer has begun, the connection closed, and the app, if it has the request, sees
        the client gone so that its answer is dropped. (uvicorn's own 400 goes through
        h11, which refuses it while the app answers or for a HEAD request, and leaves the
        app's answer to fail: a traceback in the log each time.)"""
        self._disarm()
        self.registry.waiting.pop(self, None)
        cycle = self.cycle if self.cycle is not None and not self.cycle.response_complete \
            else None
        if self.transport.is_closing():
            return
        if cycle is None or not cycle.response_started:
            self.transport.write(BAD_REQUEST)
        if cycle is not None:
            cycle.disconnected = True
            cycle.message_event.set()
        self.transport.close()

    def _arm(self, delay: float, then: Callable[[], object]) -> None:
        self._disarm()
        self._timer = self.loop.call_later(delay, then)

    def _disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None


def guarded_protocol(limits: Limits | None = None) -> type[H11Protocol]:
    """uvicorn's h11 protocol with ``limits`` (module text), one registry per call: pass
    the class as ``uvicorn.Config(http=...)``."""
    registry = _Registry(limits or Limits())
    return type("GuardedH11Protocol", (_GuardedH11,), {"registry": registry})
