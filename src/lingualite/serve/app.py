"""The HTTP service: ``POST /encode``, ``POST /search``, ``GET /health``, OpenAI's ``POST /v1/embeddings``,
Prometheus' ``GET /metrics`` and the search page at ``GET /``.

:func:`create_app` wires the pieces: :mod:`~lingualite.serve.service` (what the endpoints do, through
:mod:`~lingualite.serve.batching`: concurrent requests share encoder calls in one worker thread),
:mod:`~lingualite.serve.limits` (413 / 408 / 422), :mod:`~lingualite.serve.auth` (optional API key, required
off loopback), :mod:`~lingualite.serve.hosts` (trusted ``Host`` names, 400), JSON errors
(:mod:`~lingualite.serve.errors`), every one of them JSON, unexpected exceptions included, and metrics
(:mod:`~lingualite.serve.metrics`). The layers, outermost first: metrics, JSON errors, trusted hosts, API key,
body limit, the routes.

The API schema is served at ``/openapi.json``; FastAPI's ``/docs`` and ``/redoc`` pages are turned off because
they load their JavaScript and CSS from a CDN and would be blank on an offline machine.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import resources
from typing import Any

from fastapi import FastAPI, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse
from starlette.exceptions import HTTPException

from lingualite.core.version import __version__
from lingualite.encoders.base import Encoder
from lingualite.serve.auth import ApiKeyMiddleware, check_bind
from lingualite.serve.errors import (
    ApiError,
    JsonErrorMiddleware,
    api_error_handler,
    http_error_handler,
    validation_error_handler,
)
from lingualite.serve.hosts import TrustedHostMiddleware, allowed_hosts
from lingualite.serve.limits import BodyLimitMiddleware
from lingualite.serve.metrics import CONTENT_TYPE_LATEST, MetricsMiddleware, ServeMetrics
from lingualite.serve.schemas import (
    EmbeddingsRequest,
    EmbeddingsResponse,
    EncodeRequest,
    EncodeResponse,
    HealthResponse,
    SearchRequest,
    SearchResponse,
)
from lingualite.serve.service import Service
from lingualite.serve.settings import ServeSettings

__all__ = ["PAGE_CSP", "create_app"]

# The page may load nothing from elsewhere: it works offline, and the CSP makes sure it stays that way.
PAGE_CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'"


def _json(payload: dict[str, Any]) -> Response:
    # json.dumps directly: FastAPI's jsonable_encoder walks every float of every vector in Python (slow).
    # allow_nan=False: strict JSON (the service checks vectors and scores are finite before this).
    return Response(json.dumps(payload, ensure_ascii=False, allow_nan=False), media_type="application/json")


def _page() -> str:
    return (resources.files("lingualite.serve") / "static" / "index.html").read_text(encoding="utf-8")


def create_app(encoder: Encoder, index: Any = None, settings: ServeSettings | None = None) -> FastAPI:
    """The FastAPI app serving ``encoder`` (and ``index``, a :class:`lingualite.search.SearchIndex`).

    :raises LinguaLiteError: a non-loopback ``settings.host`` without ``settings.api_key``, an encoder fitted on
        its input (TF-IDF), a bad ``settings.allowed_hosts`` pattern, or an index built with another model spec
        (or of another dimension).
    """
    settings = settings or ServeSettings()
    check_bind(settings.host, settings.api_key)
    hosts = allowed_hosts(settings.host, settings.allowed_hosts)
    metrics = ServeMetrics()
    service = Service(encoder, index, settings, metrics)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        service.start()
        try:
            yield
        finally:
            await service.stop()

    app = FastAPI(
        title="lingualite",
        version=__version__,
        description="Multilingual sentence vectors and semantic search.",
        docs_url=None,
        redoc_url=None,
        lifespan=lifespan,
    )
    app.state.service = service
    app.add_exception_handler(RequestValidationError, validation_error_handler)
    app.add_exception_handler(ApiError, api_error_handler)
    app.add_exception_handler(HTTPException, http_error_handler)
    app.add_middleware(BodyLimitMiddleware, limit=settings.max_body_bytes, timeout=settings.read_timeout)
    if settings.api_key is not None:  # outside the body limit: checked before the body is read
        app.add_middleware(ApiKeyMiddleware, api_key=settings.api_key)
    app.add_middleware(TrustedHostMiddleware, patterns=hosts)
    app.add_middleware(JsonErrorMiddleware)
    _add_routes(app, service, _page())
    routes = frozenset(str(getattr(route, "path", "")) for route in app.routes)
    app.add_middleware(MetricsMiddleware, metrics=metrics, routes=routes)  # added last: the outermost layer
    return app


def _add_routes(app: FastAPI, service: Service, page: str) -> None:
    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    async def search_page() -> HTMLResponse:
        return HTMLResponse(page, headers={"Content-Security-Policy": PAGE_CSP})

    @app.get("/health", response_model=HealthResponse)
    async def health() -> Response:
        """Status, model, vector dimension, index size, limits and micro-batching counters."""
        return _json(await service.health())

    @app.post("/encode", response_model=EncodeResponse)
    async def encode(request: EncodeRequest) -> Response:
        """One float32 vector per text (L2-normalised unless ``normalize`` is false)."""
        return _json(await service.encode(request))

    @app.post("/v1/embeddings", response_model=EmbeddingsResponse)
    async def embeddings(request: EmbeddingsRequest) -> Response:
        """OpenAI's embeddings API: unit vectors of ``input`` (errors in OpenAI's shape)."""
        return _json(await service.embeddings(request))

    @app.get("/metrics", include_in_schema=False)
    async def metrics() -> Response:
        """Prometheus metrics (text format)."""
        if service.metrics.index_documents is not None:
            service.metrics.index_documents.set(await service.index_documents())
        return Response(service.metrics.exposition(), media_type=CONTENT_TYPE_LATEST)

    @app.post("/search", response_model=SearchResponse)
    async def search(request: SearchRequest) -> Response:
        """The ``k`` nearest documents of the index for ``query`` (or for each of ``queries``)."""
        return _json(await service.search(request))
