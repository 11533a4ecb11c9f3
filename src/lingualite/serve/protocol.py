"""Slow clients are timed out: uvicorn's HTTP/1.1 protocol (h11) with a deadline for a request's headers.

uvicorn (checked on 0.54) closes a connection that stays idle ``timeout_keep_alive`` seconds *after* a
response, and has no other read deadline: a client that connects and sends nothing, or sends its headers one
byte at a time (slowloris), holds a connection, a file descriptor and a little memory for ever, and a few
thousand of them exhaust the server. uvicorn offers no option for this (``h11_max_incomplete_event_size``
bounds the headers' size, not their time), so :class:`TimedH11Protocol` adds one:

- a timer starts when a connection opens and again when a response is complete (the next request, or the
  rest of a body the app did not read, must arrive in time); it stops when a new request's headers are in;
- when it fires while no request is being answered, the client gets ``408`` with a JSON ``error`` and the
  connection is closed.

The body has its own deadline in the app (:class:`lingualite.serve.limits.BodyLimitMiddleware`: 408 too), so
each phase of a request has ``read_timeout`` seconds. :func:`uvicorn_options` is what ``lingualite serve``
passes to uvicorn.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from lingualite.serve.settings import ServeSettings

__all__ = ["KEEP_ALIVE_S", "TimedH11Protocol", "uvicorn_options"]

KEEP_ALIVE_S = 5  # an idle connection is closed this long after its last response


class TimedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline of ``read_timeout`` seconds for a request's headers."""

    read_timeout: float = 10.0

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        self._deadline: asyncio.TimerHandle | None = None
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        before = self.cycle
        if self._deadline is None and self.conn.their_state is h11.IDLE:
            self._arm()
        super().data_received(data)
        if self.cycle is not before:  # a new request's headers are in: the app takes over (body deadline)
            self._disarm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def send_400_response(self, msg: str) -> None:
        """A request h11 cannot parse (HTTP/1.1 without a Host header or with two, a malformed line): a JSON
        ``error`` like every other answer, not uvicorn's plain text; the connection is closed."""
        self._raw(
            "400 Bad Request",
            "not a valid HTTP request (HTTP/1.1 needs exactly one Host header, a request line and "
            "well-formed headers)",
        )

    def _raw(self, status: str, message: str) -> None:
        """Write a JSON error straight to the socket (there is no request h11 could answer) and close."""
        body = json.dumps({"error": message}).encode()
        head = (
            f"HTTP/1.1 {status}\r\ncontent-type: application/json\r\n"
            f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
        )
        self.transport.write(head.encode("ascii") + body)
        self.transport.close()

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(self.read_timeout, self._too_slow)

    def _disarm(self) -> None:
        if getattr(self, "_deadline", None) is not None:
            self._deadline.cancel()  # type: ignore[union-attr]
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if self.transport.is_closing():
            return
        if self.cycle is not None and not self.cycle.response_complete:
            return  # the app is answering a request (and reading its body under its own deadline)
        message = f"the request did not arrive within {self.read_timeout:g} s (--read-timeout)"
        self._raw("408 Request Timeout", message)  # straight to the socket: h11 has no request to answer


def uvicorn_options(settings: ServeSettings) -> dict[str, Any]:
    """Keyword arguments for ``uvicorn.run`` / ``uvicorn.Config``: the timed h11 protocol, uvicorn's idle
    keep-alive timeout (its default, stated), quiet logs."""
    protocol = type("TimedH11Protocol", (TimedH11Protocol,), {"read_timeout": settings.read_timeout})
    return {
        "http": protocol,
        "timeout_keep_alive": KEEP_ALIVE_S,
        "log_level": "warning",
        "access_log": False,
    }
