"""``lingualite serve`` as one call: :func:`load_app` checks the settings, loads the model (by default the one
the index was built with: :meth:`lingualite.search.SearchIndex.model_for`), opens the index and builds the app
(:func:`lingualite.serve.app.create_app`); :func:`run` serves it with uvicorn. :func:`open_server` does the
same with the listening socket bound before the model loads, so a busy port fails at once, before any
"serving on" line."""

from __future__ import annotations

import errno
import socket
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from lingualite.core.errors import LinguaLiteError
from lingualite.serve.settings import ServeSettings

__all__ = ["bind", "load_app", "open_server", "run"]

Say = Callable[[str], None]


def _stderr(line: str) -> None:
    print(f"lingualite: {line}", file=sys.stderr, flush=True)


def load_app(
    model: str | None,
    index: Path | None,
    settings: ServeSettings,
    threads: int | None = None,
    device: str = "auto",
    say: Say = _stderr,
) -> tuple[Any, ServeSettings]:
    """The app serving ``model`` (and ``index`` for ``/search``), and ``settings`` with the model's spec.
    ``say``: where the progress lines go (one line each: readable under nohup and in CI logs)."""
    settings = _checked(model, index, settings)
    return _build(settings.model_spec, index, settings, threads, device, say), settings


def open_server(
    model: str | None,
    index: Path | None,
    settings: ServeSettings,
    threads: int | None = None,
    device: str = "auto",
    say: Say = _stderr,
) -> tuple[Any, ServeSettings, socket.socket]:
    """:func:`load_app`, with the listening socket of ``settings`` bound after the checks and before the
    (slow) model load: a busy port is a one-line error at once. Serve it with ``run(app, settings, say, sock)``."""
    settings = _checked(model, index, settings)
    sock = bind(settings)
    try:
        return _build(settings.model_spec, index, settings, threads, device, say), settings, sock
    except BaseException:
        sock.close()
        raise


def _checked(model: str | None, index: Path | None, settings: ServeSettings) -> ServeSettings:
    """``settings`` with the model to serve (by default the index's), after the checks that need no model."""
    from dataclasses import replace

    from lingualite.serve.auth import check_bind

    check_bind(settings.host, settings.api_key)  # before the (slow) model load
    if index is not None:
        from lingualite.search import SearchIndex

        model = SearchIndex.model_for(index, model)
    elif model is None:
        raise LinguaLiteError("serve: give --model (or --index, to serve the model the index was built with)")
    return replace(settings, model_spec=model)


def bind(settings: ServeSettings) -> socket.socket:
    """The listening socket of ``host:port``, or a one-line error (a port in use, an address this machine
    does not have)."""
    family = socket.AF_INET6 if ":" in settings.host else socket.AF_INET
    try:
        return socket.create_server((settings.host, settings.port), family=family, backlog=2048)
    except OSError as exc:
        reason = (
            "is in use by another program" if exc.errno == errno.EADDRINUSE else (exc.strerror or str(exc))
        )
        raise LinguaLiteError(
            f"serve: {settings.host}:{settings.port} {reason}; choose another --port (or --host)"
        ) from None


def _build(
    model: str, index: Path | None, settings: ServeSettings, threads: int | None, device: str, say: Say
) -> Any:
    from lingualite.encoders.base import require_standalone
    from lingualite.encoders.resolve import load_encoder
    from lingualite.serve.app import create_app

    say(f"loading model {model} ...")
    started = time.perf_counter()
    encoder = load_encoder(model, threads=threads, device=device)
    require_standalone(encoder, "serve requests (each is encoded on its own)")
    say(f"model loaded in {time.perf_counter() - started:.1f} s ({encoder.dimension} dimensions)")
    opened = None
    if index is not None:
        from lingualite.search import SearchIndex

        say(f"opening index {index} ...")
        opened = SearchIndex.open(index, encoder=encoder)  # also compares the recorded probe vectors
        say(f"index {index}: {len(opened):,} documents")
    return create_app(encoder, opened, settings)


def run(app: Any, settings: ServeSettings, say: Say = _stderr, sock: socket.socket | None = None) -> None:
    """Serve ``app`` with uvicorn on ``settings.host``:``settings.port`` (or on ``sock``, from :func:`bind`)
    until stopped."""
    import uvicorn

    from lingualite.serve.protocol import uvicorn_options

    host = f"[{settings.host}]" if ":" in settings.host else settings.host
    port = sock.getsockname()[1] if sock is not None else settings.port  # --port 0: the one the system chose
    say(f"serving {settings.model_spec} on http://{host}:{port}/")
    server = uvicorn.Server(uvicorn.Config(app, **uvicorn_options(settings)))
    server.run(sockets=[sock] if sock is not None else None)
