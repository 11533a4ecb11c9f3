"""Prometheus metrics of the service (``GET /metrics``, prometheus-client's text format).

Each app has its own :class:`~prometheus_client.CollectorRegistry` (not the process-wide default), so several
apps in one process (tests, an embedding application) keep separate counts.

========================================================  ===========  ==========================================
metric                                                    type         labels / meaning
========================================================  ===========  ==========================================
``lingualite_http_requests_total``                        counter      route, method, status
``lingualite_http_request_duration_seconds``              histogram    route, method, status: until the answer
                                                                       is sent
``lingualite_request_texts``                              histogram    route: texts (or queries) per request
``lingualite_usage_tokens_total``                         counter      tokens reported as ``usage`` by
                                                                       ``/v1/embeddings``
``lingualite_batch_texts``                                histogram    batcher: texts per encoder call
``lingualite_batch_queue_wait_seconds``                   histogram    batcher: a request's wait in the
                                                                       micro-batcher's queue before its call
``lingualite_encoder_seconds``                            histogram    batcher: time of one encoder call
``lingualite_batch_isolated_failures_total``              counter      batcher: requests that made the encoder
                                                                       fail, isolated from their batch
``lingualite_index_documents``                            gauge        documents in the index (NaN while it
                                                                       cannot be read); only with ``--index``
``lingualite_model_info``                                 info         model, names, dimension, version
========================================================  ===========  ==========================================

``route`` is the path of one of the app's routes, or ``unmatched`` (so that requests for random paths cannot
make new series); ``batcher`` is ``documents`` (``/encode``, ``/v1/embeddings``, and ``/search`` for a
symmetric model) or ``queries`` (``/search`` of a model that encodes queries differently, e5). A request whose
client went away before any answer is not counted, nor a connection closed with 408 before its headers
arrived (no request reached the app).
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram, Info
from prometheus_client import generate_latest as _generate_latest

from lingualite.core.version import __version__

__all__ = ["CONTENT_TYPE_LATEST", "MetricsMiddleware", "ServeMetrics"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

SECONDS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
TEXTS = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024)
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


class _BatcherMetrics:
    """A :class:`lingualite.serve.batching.BatchObserver` writing one batcher's series."""

    def __init__(self, metrics: ServeMetrics, name: str) -> None:
        self.size = metrics.batch_texts.labels(name)
        self.wait = metrics.queue_wait.labels(name)
        self.seconds = metrics.encoder_seconds.labels(name)
        self.failures = metrics.isolated_failures.labels(name)

    def encoder_call(self, texts: int, seconds: float, waits: list[float]) -> None:
        self.size.observe(texts)
        self.seconds.observe(seconds)
        for wait in waits:
            self.wait.observe(wait)

    def isolated_failure(self) -> None:
        self.failures.inc()


class ServeMetrics:
    """The service's metrics in a registry of their own (see the module's docstring)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.requests = Counter(
            "lingualite_http_requests", "HTTP requests answered.", ["route", "method", "status"], registry=r
        )
        self.duration = Histogram(
            "lingualite_http_request_duration_seconds",
            "Seconds from a request's arrival to its answer sent.",
            ["route", "method", "status"],
            buckets=SECONDS,
            registry=r,
        )
        self.texts = Histogram(
            "lingualite_request_texts",
            "Texts (or queries) per request.",
            ["route"],
            buckets=TEXTS,
            registry=r,
        )
        self.tokens = Counter(
            "lingualite_usage_tokens", "Tokens reported as usage by /v1/embeddings.", registry=r
        )
        self.batch_texts = Histogram(
            "lingualite_batch_texts", "Texts per encoder call.", ["batcher"], buckets=TEXTS, registry=r
        )
        self.queue_wait = Histogram(
            "lingualite_batch_queue_wait_seconds",
            "Seconds a request waited in the micro-batcher's queue before its encoder call started.",
            ["batcher"],
            buckets=SECONDS,
            registry=r,
        )
        self.encoder_seconds = Histogram(
            "lingualite_encoder_seconds",
            "Seconds of one encoder call.",
            ["batcher"],
            buckets=SECONDS,
            registry=r,
        )
        self.isolated_failures = Counter(
            "lingualite_batch_isolated_failures",
            "Requests that made the encoder fail, isolated from their batch.",
            ["batcher"],
            registry=r,
        )
        self.model = Info("lingualite_model", "The served model.", registry=r)
        self.index_documents: Gauge | None = None

    def describe(self, names: Iterable[str], dimension: int, with_index: bool) -> None:
        """The model's info (first name, every name, dimension, lingualite's version); the index gauge."""
        names = list(names)
        self.model.info(
            {"model": names[0], "names": ",".join(names), "dimension": str(dimension), "version": __version__}
        )
        if with_index and self.index_documents is None:
            self.index_documents = Gauge(
                "lingualite_index_documents",
                "Documents in the served index (NaN while it cannot be read).",
                registry=self.registry,
            )

    def batcher(self, name: str) -> _BatcherMetrics:
        """The observer of the micro-batcher called ``name``."""
        return _BatcherMetrics(self, name)

    def exposition(self) -> bytes:
        """The text format Prometheus scrapes."""
        return _generate_latest(self.registry)


class MetricsMiddleware:
    """ASGI middleware (the outermost layer): counts and times every answered request by route, method and
    status, the answers of the inner layers (400 host, 401 key, 413 body, JSON 500) included."""

    def __init__(self, app: ASGIApp, metrics: ServeMetrics, routes: frozenset[str]) -> None:
        self.app = app
        self.metrics = metrics
        self.routes = routes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status: int | None = None

        async def tracked(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, tracked)
        finally:
            if status is not None:
                route = scope["path"] if scope["path"] in self.routes else "unmatched"
                method = scope["method"] if scope["method"] in METHODS else "other"
                labels = (route, method, str(status))
                self.metrics.requests.labels(*labels).inc()
                self.metrics.duration.labels(*labels).observe(time.perf_counter() - started)
