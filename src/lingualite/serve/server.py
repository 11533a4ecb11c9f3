"""``lingualite serve`` as one call: :func:`load_app` checks the settings, loads the model (by default the one
the index was built with: :meth:`lingualite.search.SearchIndex.model_for`), opens the index and builds the app
(:func:`lingualite.serve.app.create_app`); :func:`run` serves it with uvicorn."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from lingualite.core.errors import LinguaLiteError
from lingualite.serve.settings import ServeSettings

__all__ = ["load_app", "run"]

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
    from dataclasses import replace

    from lingualite.serve.auth import check_bind

    check_bind(settings.host, settings.api_key)  # before the (slow) model load
    if index is not None:
        from lingualite.search import SearchIndex

        model = SearchIndex.model_for(index, model)
    elif model is None:
        raise LinguaLiteError("serve: give --model (or --index, to serve the model the index was built with)")
    settings = replace(settings, model_spec=model)
    return _build(model, index, settings, threads, device, say), settings


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


def run(app: Any, settings: ServeSettings, say: Say = _stderr) -> None:
    """Serve ``app`` with uvicorn on ``settings.host``:``settings.port`` until stopped."""
    import uvicorn

    from lingualite.serve.protocol import uvicorn_options

    host = f"[{settings.host}]" if ":" in settings.host else settings.host
    say(f"serving {settings.model_spec} on http://{host}:{settings.port}/")
    uvicorn.run(app, host=settings.host, port=settings.port, **uvicorn_options(settings))
