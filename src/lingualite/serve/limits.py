"""Request limits: body bytes (413, before parsing), the time to send the body (408), and the texts (422):
how many, how long, and valid (the rule of :mod:`lingualite.text.sanitation`, and not empty).

Starlette has no body size limit or body timeout, and uvicorn reads whatever a client sends for as long as it
takes, hence the small ASGI middleware: it answers 413 from the ``Content-Length`` header alone when that is
too large, and otherwise reads the body (chunked bodies included) up to the limit within ``timeout`` seconds,
then hands the buffered bytes to the app. (The headers' own deadline is the HTTP protocol's business:
:mod:`lingualite.serve.protocol`.)
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from lingualite.serve.errors import ApiError, send_error
from lingualite.serve.settings import ServeSettings
from lingualite.text.sanitation import text_problem

__all__ = ["BodyLimitMiddleware", "check_texts"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def _too_large(size: int | str, limit: int) -> str:
    return f"the request body is {size} bytes; this server accepts at most {limit:,} (--max-body-bytes)"


class _TooLarge(Exception):
    pass


class BodyLimitMiddleware:
    """ASGI middleware: 413 with a JSON ``error`` for bodies over ``limit`` bytes, 408 (and the connection
    closed) for a body that has not arrived within ``timeout`` seconds."""

    def __init__(self, app: ASGIApp, limit: int, timeout: float = 10.0) -> None:
        self.app = app
        self.limit = limit
        self.timeout = timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.limit:
            await send_error(send, 413, _too_large(int(declared), self.limit), path=scope["path"])
            return
        try:
            async with asyncio.timeout(self.timeout):
                body = await self._read(receive)
        except TimeoutError:
            message = f"the request body did not arrive within {self.timeout:g} s (--read-timeout)"
            await send_error(send, 408, message, [(b"connection", b"close")], path=scope["path"])
            return
        except _TooLarge as exc:
            await send_error(send, 413, str(exc), path=scope["path"])
            return
        if body is None:  # the client went away
            return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()  # after the body: wait for http.disconnect

        await self.app(scope, replay, send)

    async def _read(self, receive: Receive) -> bytes | None:
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return None
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            if size > self.limit:
                raise _TooLarge(_too_large(f"over {size:,}", self.limit))
            if not message.get("more_body", False):
                return b"".join(chunks)


def check_texts(texts: list[str], settings: ServeSettings, what: str = "texts", status: int = 422) -> None:
    """``status`` (422; 400 on the OpenAI-compatible route, as OpenAI answers) for an empty list, more than
    ``max_texts`` texts, a text over ``max_chars`` characters, an empty text (there is nothing to encode: a
    model would give a vector that means nothing) or a text that breaks the rule of
    :mod:`lingualite.text.sanitation` (a NUL, a lone surrogate from a ``"\\ud800"`` escape)."""
    if not texts:
        raise ApiError(status, f"{what}: give at least one", what)
    if len(texts) > settings.max_texts:
        raise ApiError(
            status,
            f"{what}: {len(texts)} given; this server takes at most {settings.max_texts} per call (--max-texts)",
            what,
        )
    for i, text in enumerate(texts):
        if len(text) > settings.max_chars:
            raise ApiError(
                status,
                f"{what}.{i}: {len(text):,} characters; this server takes at most {settings.max_chars:,} per text "
                "(--max-chars)",
                what,
            )
        if not text.strip():
            raise ApiError(status, f"{what}.{i}: empty text; there is nothing to encode", what)
        problem = text_problem(text)
        if problem is not None:
            raise ApiError(status, f"{what}.{i}: {problem.reason}", what)
