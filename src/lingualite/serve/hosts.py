"""Trusted hosts: the server answers only requests whose ``Host`` header names it (400 otherwise).

Why: a page on ``evil.example`` can make its own name resolve to 127.0.0.1 after the page has loaded (DNS
rebinding); the browser then sends the page's requests to a server on the visitor's loopback, with
``Host: evil.example``, and lets the page read the answers, since for the browser it is the same origin.
A loopback server without an API key would hand its vectors and search results to any web page; checking
``Host`` stops that, because the attacker cannot choose the name the browser sends.

Allowed by default: ``localhost``, ``127.0.0.1``, ``::1`` and the address the server binds; for a wildcard
bind (``0.0.0.0``, ``::``) also the machine's host names and the addresses of its network interfaces.
``--allowed-host`` adds names: exact (``search.example.org``), a subdomain pattern (``*.example.org``), or
``*`` (no check). Ports are ignored, IPv6 addresses are compared in their canonical form (``[::1]:8000`` is
``::1``), and a name's trailing dot is dropped.

Starlette's ``TrustedHostMiddleware`` does the same matching, but it answers in plain text and redirects to
``www.``; the service's contract is one JSON error line, hence this small middleware.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any

from lingualite.core.errors import LinguaLiteError
from lingualite.serve.errors import send_error

__all__ = ["LOCAL_NAMES", "TrustedHostMiddleware", "allowed_hosts", "host_of", "host_allowed"]

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

LOCAL_NAMES = ("localhost", "127.0.0.1", "::1")
WILDCARD_BINDS = ("0.0.0.0", "::", "")
# RFC 9110 Host: a reg-name or IPv4 address, or an IPv6 literal in brackets, then an optional port.
_HOST = re.compile(r"(?:\[(?P<ip6>[0-9A-Fa-f:.]+)\]|(?P<name>[A-Za-z0-9._-]+))(?::(?P<port>[0-9]{0,5}))?")


def _canonical(name: str) -> str:
    name = name.strip().strip("[]").lower().rstrip(".")
    try:
        return ipaddress.ip_address(name).compressed
    except ValueError:
        return name


def host_of(header: str) -> str | None:
    """The host a ``Host`` header names, canonical (lower case, no port, IPv6 compressed), or None when the
    header is not a valid host."""
    match = _HOST.fullmatch(header.strip())
    if match is None:
        return None
    if match["ip6"] is not None:
        try:
            return ipaddress.IPv6Address(match["ip6"]).compressed
        except ValueError:
            return None
    return _canonical(match["name"])


def _machine_names() -> set[str]:
    """This machine's host names and the addresses of its network interfaces (for a wildcard bind)."""
    import psutil

    names = {socket.gethostname(), socket.getfqdn()}
    for addresses in psutil.net_if_addrs().values():
        names.update(
            a.address.split("%")[0] for a in addresses if a.family in (socket.AF_INET, socket.AF_INET6)
        )
    return {_canonical(n) for n in names if n}


def allowed_hosts(bind: str, extra: Iterable[str] = ()) -> frozenset[str]:
    """The host patterns a server bound to ``bind`` answers: the defaults (see the module) and ``extra``."""
    patterns = {_canonical(n) for n in (*LOCAL_NAMES, bind)}
    if bind.strip("[]") in WILDCARD_BINDS:
        patterns |= _machine_names()
    for pattern in extra:
        pattern = pattern.strip().lower()
        if not pattern or ("*" in pattern and pattern != "*" and not re.fullmatch(r"\*\.[^*]+", pattern)):
            raise LinguaLiteError(
                f"--allowed-host {pattern!r}: give a host name or address, '*.example.org' or '*'"
            )
        patterns.add(pattern if pattern.startswith("*") else _canonical(pattern))
    return frozenset(patterns - {""})


def host_allowed(host: str, patterns: frozenset[str]) -> bool:
    """``host`` (canonical, from :func:`host_of`) matches one of ``patterns``."""
    if "*" in patterns or host in patterns:
        return True
    return any(p.startswith("*.") and host.endswith(p[1:]) for p in patterns)


class TrustedHostMiddleware:
    """ASGI middleware: 400 with a JSON ``error`` unless the ``Host`` header matches ``patterns``."""

    def __init__(self, app: ASGIApp, patterns: frozenset[str]) -> None:
        self.app = app
        self.patterns = patterns

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or "*" in self.patterns:
            await self.app(scope, receive, send)
            return
        given = dict(scope["headers"]).get(b"host")
        text = given.decode("latin-1") if given is not None else None
        host = host_of(text) if text is not None else None
        if host is not None and host_allowed(host, self.patterns):
            await self.app(scope, receive, send)
            return
        shown = "no Host header" if text is None else f"Host {text[:100]!r}"
        await send_error(
            send,
            400,
            f"{shown} is not a name this server answers to; start it with --allowed-host NAME to add one "
            "(the check stops DNS-rebinding pages from reading a local server)",
            path=scope["path"],
        )
