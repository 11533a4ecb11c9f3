"""The optional API key: checked in constant time on every request but the page, and required off loopback.

A key travels in ``X-API-Key: KEY`` or ``Authorization: Bearer KEY``. The comparison is
:func:`hmac.compare_digest` (its time does not depend on where the strings differ), so the key cannot be
guessed byte by byte from response times.
"""

from __future__ import annotations

import hmac
import ipaddress
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from lingualite.core.errors import LinguaLiteError
from lingualite.serve.errors import send_error

__all__ = ["ApiKeyMiddleware", "check_bind", "is_loopback", "key_matches"]

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

# Paths anyone may GET: the search page holds no data (it asks for the key when the API wants one).
PUBLIC_PATHS = frozenset({"/"})


def is_loopback(host: str) -> bool:
    """``True`` for ``localhost`` and loopback addresses (127.0.0.0/8, ::1)."""
    if host.strip("[]").lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_bind(host: str, api_key: str | None) -> None:
    """Refuse to serve on a non-loopback address without an API key (anyone on the network could use it)."""
    if api_key is None and not is_loopback(host):
        raise LinguaLiteError(
            f"serve: refusing to bind {host} without an API key; set one in the environment variable named by "
            "--api-key-env (default LINGUALITE_API_KEY), or bind 127.0.0.1"
        )


def key_matches(given: str | None, expected: str) -> bool:
    """Constant-time comparison of UTF-8 bytes (``hmac.compare_digest``)."""
    return given is not None and hmac.compare_digest(given.encode("utf-8"), expected.encode("utf-8"))


def _given_key(headers: list[tuple[bytes, bytes]]) -> str | None:
    found = {name.lower(): value for name, value in headers}
    if b"x-api-key" in found:
        return found[b"x-api-key"].decode("latin-1").strip()
    scheme, _, token = found.get(b"authorization", b"").decode("latin-1").partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


class ApiKeyMiddleware:
    """ASGI middleware: 401 with a JSON ``error`` unless the request carries ``api_key``."""

    def __init__(self, app: ASGIApp, api_key: str) -> None:
        self.app = app
        self.api_key = api_key

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or (scope["method"] == "GET" and scope["path"] in PUBLIC_PATHS):
            await self.app(scope, receive, send)
            return
        if key_matches(_given_key(scope["headers"]), self.api_key):
            await self.app(scope, receive, send)
            return
        await send_error(
            send,
            401,
            "missing or wrong API key: send it as 'X-API-Key: KEY' or 'Authorization: Bearer KEY'",
            [(b"www-authenticate", b"Bearer")],
            path=scope["path"],
        )
