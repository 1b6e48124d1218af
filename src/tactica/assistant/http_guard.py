"""Every message posted to ``tactica mcp --http`` answered in one line (issue 47): a
request body that is not JSON, or not a JSON-RPC 2.0 message, is answered with the same
one-line protocol error as over stdio (``stdio.read_message``: -32700, -32600, with the
request's id when it has one), before the SDK sees it (the SDK answered such a body with
pydantic's report of several lines). A body past the bound is answered 413 without being
read further. Everything else goes to the SDK's app unchanged, the body replayed.
"""

from __future__ import annotations

import json
from typing import Any

from ..service import printable
from .stdio import _Refused, read_message

__all__ = ["OneLineBodies"]

Scope = dict[str, Any]


class OneLineBodies:
    """An ASGI app around ``app`` (the SDK's streamable HTTP app) checking each POSTed
    JSON body first (the module text); ``limit``: the longest body read, in bytes."""

    def __init__(self, app: Any, limit: int) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        headers = {k.decode("latin-1").lower(): v.decode("latin-1")
                   for k, v in scope.get("headers", ())} if scope["type"] == "http" else {}
        if scope["type"] != "http" or scope.get("method") != "POST" \
                or "json" not in headers.get("content-type", ""):
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        size, more = 0, True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            more = message.get("more_body", False)
            if size > self.limit:
                await _answer(send, 413, {"jsonrpc": "2.0", "id": None, "error": {
                    "code": -32600, "message": f"the request body: over {self.limit:,} "
                    "bytes"}})
                return
        body = b"".join(chunks)
        try:
            read_message(body, 1, "the request body")
        except _Refused as exc:
            await _answer(send, 400, {"jsonrpc": "2.0", "id": exc.id, "error": {
                "code": exc.code, "message": printable(str(exc))}})
            return
        replayed = False

        async def replay() -> Any:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


async def _answer(send: Any, status: int, document: dict[str, Any]) -> None:
    data = json.dumps(document).encode()
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", b"application/json"), (b"content-length", str(len(data)).encode())]})
    await send({"type": "http.response.body", "body": data})
