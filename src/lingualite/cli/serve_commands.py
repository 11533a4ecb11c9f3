"""``lingualite serve``: the HTTP service (``/encode``, ``/search``, ``/health``, OpenAI's ``/v1/embeddings``,
Prometheus' ``/metrics``) and its search page, run by uvicorn. Registered on the app in
:mod:`lingualite.cli.main`."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

from lingualite.cli.common import USER_ERRORS, DeviceOpt, fail, use_device
from lingualite.core.errors import LinguaLiteError

ModelOption = Annotated[
    str | None,
    typer.Option(
        help="A model folder, a baseline name (use-m, minilm, e5-small), or onnx:FOLDER / onnx-int8:FOLDER / "
        "static:FOLDER / bf16:FOLDER. Default with --index: the model the index was built with."
    ),
]
IndexOption = Annotated[
    Path | None, typer.Option(help="A search index folder (built with the same --model) for /search.")
]
ApiKeyEnvOption = Annotated[
    str, typer.Option(help="Environment variable holding the API key (none set: no key, loopback only).")
]
AllowedHostOption = Annotated[
    list[str] | None,
    typer.Option(
        "--allowed-host",
        help="A Host name the server also answers to (repeat for more; '*.example.org' for subdomains, "
        "'*' for any). Default: localhost, 127.0.0.1, ::1 and --host (a wildcard --host: also this "
        "machine's names and addresses). Other Host headers get 400: this stops DNS-rebinding pages.",
    ),
]
ReadTimeoutOption = Annotated[
    float,
    typer.Option(
        min=0.001, help="Seconds a client has to send a request's headers, and again its body (else 408)."
    ),
]
ServedNameOption = Annotated[
    list[str] | None,
    typer.Option(
        "--served-model-name",
        help="A name clients may give as 'model' in /v1/embeddings (repeat for more; the first is the name "
        "the server shows). The spec and the model folder's name are always accepted.",
    ),
]


def serve_command(
    model: ModelOption = None,
    index: IndexOption = None,
    host: Annotated[
        str, typer.Option(help="Address to bind; anything but loopback needs an API key.")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="TCP port.")] = 8000,
    api_key_env: ApiKeyEnvOption = "LINGUALITE_API_KEY",
    max_batch: Annotated[
        int, typer.Option(min=1, help="Texts per encoder call when requests share one (1: no batching).")
    ] = 64,
    max_wait_ms: Annotated[
        float, typer.Option(min=0.0, help="How long a request waits for others to share its encoder call.")
    ] = 5.0,
    max_texts: Annotated[
        int, typer.Option(min=1, help="Texts per /encode or /v1/embeddings call (queries per /search).")
    ] = 256,
    max_chars: Annotated[int, typer.Option(min=1, help="Characters per text.")] = 2000,
    max_body_bytes: Annotated[int, typer.Option(min=1, help="Request body size (larger: 413).")] = 1_000_000,
    max_k: Annotated[int, typer.Option(min=1, help="Largest k of /search.")] = 100,
    threads: Annotated[int | None, typer.Option(min=1, help="CPU threads (default: all available).")] = None,
    allowed_host: AllowedHostOption = None,
    read_timeout: ReadTimeoutOption = 10.0,
    served_model_name: ServedNameOption = None,
    device: DeviceOpt = "auto",
) -> None:
    """Serve sentence vectors and semantic search over HTTP, with a search page at /.

    POST /encode {"texts": [...]} -> vectors; POST /search {"query": "...", "k": 10} -> ranked hits;
    POST /v1/embeddings -> OpenAI's embeddings API (for OpenAI's client, LangChain, LlamaIndex);
    GET /metrics -> Prometheus metrics; GET /health -> model, dimension, index size; the API schema is at
    /openapi.json. Vectors are L2-normalised (unit length) unless /encode is asked "normalize": false (the
    default of `lingualite encode` too, and what the index stores).
    Concurrent requests share encoder calls (micro-batching: up to --max-batch texts or --max-wait-ms); a
    request that makes the encoder fail is isolated from its batch, so other clients' requests still succeed.
    The API key is read from the environment (never the command line, where `ps` shows it), is required off
    loopback and guards every route but the page. Only requests whose Host header names this server are
    answered (--allowed-host adds names).

    \b
    Examples:
      lingualite serve --model runs/distill --index runs/docs-index      # http://127.0.0.1:8000/
      lingualite serve --index runs/docs-index          # the model the index was built with
      LINGUALITE_API_KEY=s3cret lingualite serve --model onnx-int8:runs/distill-onnx --host 0.0.0.0
      curl -s localhost:8000/encode -H 'content-type: application/json' -d '{"texts": ["Bonjour"]}'
      curl -s localhost:8000/v1/embeddings -H 'content-type: application/json' -d '{"input": "Bonjour"}'
    """

    def say(line: str) -> None:
        typer.echo(f"lingualite: {line}", err=True)

    try:
        # Inside the try: without the serve extra these imports fail, and the user gets one line, not a
        # traceback; and before the (slow) model load.
        import uvicorn  # noqa: F401

        from lingualite.serve.server import open_server, run
        from lingualite.serve.settings import ServeSettings

        settings = ServeSettings(
            host=host,
            port=port,
            api_key=os.environ.get(api_key_env) or None,
            max_batch=max_batch,
            max_wait_ms=max_wait_ms,
            allowed_hosts=tuple(allowed_host or ()),
            read_timeout=read_timeout,
            served_model_names=tuple(served_model_name or ()),
            max_texts=max_texts,
            max_chars=max_chars,
            max_body_bytes=max_body_bytes,
            max_k=max_k,
        )
        # a busy port fails in open_server, before the model loads and before "serving on"
        app, settings, sock = open_server(model, index, settings, threads, use_device(device), say)
    except USER_ERRORS as exc:
        fail(exc)
    except ImportError as exc:
        fail(LinguaLiteError(f"serve needs the serve extra: pip install 'lingualite[serve]' ({exc})"))
    run(app, settings, say, sock)
