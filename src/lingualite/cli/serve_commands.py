"""``lingualite serve``: the HTTP service (``/encode``, ``/search``, ``/health``) and its search page, run by
uvicorn. Registered on the app in :mod:`lingualite.cli.main`."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

from lingualite.cli.common import USER_ERRORS, DeviceOpt, fail, use_device
from lingualite.errors import LinguaLiteError


def serve_command(
    model: Annotated[
        str,
        typer.Option(
            help="A model folder, a baseline name (use-m, minilm, e5-small), or onnx:FOLDER / onnx-int8:FOLDER / "
            "static:FOLDER / bf16:FOLDER."
        ),
    ],
    index: Annotated[
        Path | None, typer.Option(help="A search index folder (built with the same --model) for /search.")
    ] = None,
    host: Annotated[
        str, typer.Option(help="Address to bind; anything but loopback needs an API key.")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="TCP port.")] = 8000,
    api_key_env: Annotated[
        str,
        typer.Option(help="Environment variable holding the API key (none set: no key, loopback only)."),
    ] = "LINGUALITE_API_KEY",
    max_batch: Annotated[
        int, typer.Option(min=1, help="Texts per encoder call when requests share one (1: no batching).")
    ] = 64,
    max_wait_ms: Annotated[
        float, typer.Option(min=0.0, help="How long a request waits for others to share its encoder call.")
    ] = 5.0,
    max_texts: Annotated[
        int, typer.Option(min=1, help="Texts per /encode call (queries per /search).")
    ] = 256,
    max_chars: Annotated[int, typer.Option(min=1, help="Characters per text.")] = 2000,
    max_body_bytes: Annotated[int, typer.Option(min=1, help="Request body size (larger: 413).")] = 1_000_000,
    max_k: Annotated[int, typer.Option(min=1, help="Largest k of /search.")] = 100,
    threads: Annotated[int | None, typer.Option(min=1, help="CPU threads (default: all available).")] = None,
    device: DeviceOpt = "auto",
) -> None:
    """Serve sentence vectors and semantic search over HTTP, with a search page at /.

    POST /encode {"texts": [...]} -> vectors; POST /search {"query": "...", "k": 10} -> ranked hits;
    GET /health -> model, dimension, index size; the API schema is at /openapi.json. Concurrent requests
    share encoder calls (micro-batching: up to --max-batch texts or --max-wait-ms). The API key is read from
    the environment (never the command line, where `ps` shows it) and is required off loopback.

    \b
    Examples:
      lingualite serve --model runs/distill --index runs/docs-index      # http://127.0.0.1:8000/
      LINGUALITE_API_KEY=s3cret lingualite serve --model onnx-int8:runs/distill-onnx --host 0.0.0.0
      curl -s localhost:8000/encode -H 'content-type: application/json' -d '{"texts": ["Bonjour"]}'
    """
    from lingualite.serve.auth import check_bind
    from lingualite.serve.settings import ServeSettings

    try:
        key = os.environ.get(api_key_env) or None
        check_bind(host, key)  # before the (slow) model load
        settings = ServeSettings(
            host=host,
            port=port,
            api_key=key,
            model_spec=model,
            max_batch=max_batch,
            max_wait_ms=max_wait_ms,
            max_texts=max_texts,
            max_chars=max_chars,
            max_body_bytes=max_body_bytes,
            max_k=max_k,
        )
        app = _build_app(model, index, settings, threads, use_device(device))
    except USER_ERRORS as exc:
        fail(exc)
    except ImportError as exc:
        fail(LinguaLiteError(f"serve needs the serve extra: pip install 'lingualite[serve]' ({exc})"))
    import uvicorn

    typer.echo(f"lingualite: serving {model} on http://{_url_host(host)}:{port}/", err=True)
    uvicorn.run(app, host=host, port=port, log_level="warning", access_log=False)


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def _build_app(
    model: str, index: Path | None, settings: object, threads: int | None, device: str = "auto"
) -> object:
    from lingualite.encoders.loading import load_encoder
    from lingualite.serve.app import create_app

    if index is not None:
        _check_index_model(index, model)  # before the (slow) model load
    encoder = load_encoder(model, threads=threads, device=device)
    opened = None
    if index is not None:
        from lingualite.search import SearchIndex

        opened = SearchIndex.open(index, encoder=encoder)  # also compares the recorded probe vectors
    return create_app(encoder, opened, settings)  # type: ignore[arg-type]


def _check_index_model(index: Path, model: str) -> None:
    from lingualite.search.encoder_check import normalize_spec
    from lingualite.search.store import DB_NAME, DocumentStore

    store = DocumentStore(index / DB_NAME)
    try:
        built = store.read_info().get("model_spec")
    finally:
        store.close()
    if built is not None and built != normalize_spec(model):
        raise LinguaLiteError(
            f"{index}: was built with model {built}, not {normalize_spec(model)}; serve it with "
            f"--model {built} or build a new index"
        )
