"""Request limits: body bytes (413, before parsing), texts per call and characters per text (422).

Starlette has no body size limit, and uvicorn reads whatever a client sends, hence the small ASGI middleware:
it answers 413 from the ``Content-Length`` header alone when that is too large, and otherwise reads the body
(chunked bodies included) up to the limit, then hands the buffered bytes to the app.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from lingualite.serve.errors import ApiError, send_error
from lingualite.serve.settings import ServeSettings

__all__ = ["BodyLimitMiddleware", "check_texts"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def _too_large(size: int | str, limit: int) -> str:
    return f"the request body is {size} bytes; this server accepts at most {limit:,} (--max-body-bytes)"


class BodyLimitMiddleware:
    """ASGI middleware: 413 with a JSON ``error`` for bodies over ``limit`` bytes."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.limit:
            await send_error(send, 413, _too_large(int(declared), self.limit))
            return
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                return
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            if size > self.limit:
                await send_error(send, 413, _too_large(f"over {size:,}", self.limit))
                return
            if not message.get("more_body", False):
                break
        body, replayed = b"".join(chunks), False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()  # after the body: wait for http.disconnect

        await self.app(scope, replay, send)


def check_texts(texts: list[str], settings: ServeSettings, what: str = "texts") -> None:
    """422 for an empty list, more than ``max_texts`` texts, or a text over ``max_chars`` characters."""
    if not texts:
        raise ApiError(422, f"{what}: give at least one")
    if len(texts) > settings.max_texts:
        raise ApiError(
            422,
            f"{what}: {len(texts)} given; this server takes at most {settings.max_texts} per call (--max-texts)",
        )
    for i, text in enumerate(texts):
        if len(text) > settings.max_chars:
            raise ApiError(
                422,
                f"{what}.{i}: {len(text):,} characters; this server takes at most {settings.max_chars:,} per text "
                "(--max-chars)",
            )
