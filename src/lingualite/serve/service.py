"""What the endpoints do, apart from HTTP: encode through the micro-batchers (``/encode`` and OpenAI's
``/v1/embeddings``, whose request and answer :mod:`lingualite.serve.openai_api` reads and writes), search the
index, report health.

One :class:`Service` per app holds the encoder, the optional :class:`lingualite.search.SearchIndex`, the
single worker thread and the batchers (``/encode`` and ``/search`` share one unless the encoder encodes
queries differently, as e5 does with ``encode_queries``).

Status codes: 422 for a text the request should not have sent (the limits and the text rule, empty text, a
text the model has no token for when a unit vector is asked: :mod:`lingualite.encoders.known_tokens`); 500 when the
encoder itself fails (that request only: see :mod:`lingualite.serve.batching`); 409 for a search on an index
with no documents; 503 while the index cannot be read (its folder removed, or replaced by one of another
model). A replaced index is picked up at the next request (:class:`lingualite.search.SearchIndex`).
"""

from __future__ import annotations

import asyncio
import sqlite3
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

from lingualite.core.errors import LinguaLiteError
from lingualite.core.strict_json import finite_or_none
from lingualite.encoders.base import Encoder, require_standalone
from lingualite.serve.batching import MicroBatcher
from lingualite.serve.errors import ApiError
from lingualite.serve.limits import check_texts
from lingualite.serve.metrics import ServeMetrics
from lingualite.serve.openai_api import (
    ModelNames,
    check_dimensions,
    embeddings_body,
    input_texts,
    token_counter,
)
from lingualite.serve.schemas import EmbeddingsRequest, EncodeRequest, SearchRequest
from lingualite.serve.settings import ServeSettings
from lingualite.text.sanitation import InvalidTextError
from lingualite.vectors.retrieval import normalize_rows
from lingualite.vectors.truncation import truncate

__all__ = ["Service", "check_index"]


def check_index(index: Any, encoder: Encoder, model_spec: str | None) -> None:
    """Refuse an index built with another model (spec as the index records it) or of another dimension.

    ``lingualite serve`` also opens the index with its encoder, which compares probe vectors
    (:func:`lingualite.search.encoder_check.check_encoder`)."""
    from lingualite.search.encoder_check import normalize_spec

    if model_spec is not None and normalize_spec(model_spec) != index.model_spec:
        raise LinguaLiteError(
            f"serve: the index was built with model {index.model_spec} but the server encodes with "
            f"{normalize_spec(model_spec)}; serve it with that --model (or build a new index)"
        )
    info = getattr(index, "info", {})
    dim = info.get("model_dimension") or info.get("dimension")  # the model's, before index --dimensions
    if dim is not None and int(dim) != encoder.dimension:
        raise LinguaLiteError(
            f"serve: the index holds {dim}-dimensional vectors but the encoder gives {encoder.dimension}"
        )


class Service:
    """The encoder, index and batchers behind one app; :meth:`start` / :meth:`stop` on the event loop.
    ``metrics``: where requests and batches are counted (a registry of its own when not given)."""

    def __init__(
        self, encoder: Encoder, index: Any, settings: ServeSettings, metrics: ServeMetrics | None = None
    ) -> None:
        require_standalone(encoder, "serve requests (each is encoded on its own)")
        if index is not None:
            check_index(index, encoder, settings.model_spec)
        self.encoder, self.index, self.settings = encoder, index, settings
        self.names = ModelNames(settings, encoder.name)
        self.model = self.names.primary
        self.metrics = metrics or ServeMetrics()
        self.metrics.describe(self.names.names, int(encoder.dimension), index is not None)
        self.worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="lingualite-encode")
        batching = (self.worker, settings.max_batch, settings.max_wait_ms)
        self.docs = MicroBatcher(
            encoder.encode, *batching, token_counter(encoder), self.metrics.batcher("documents")
        )
        encode_queries = getattr(encoder, "encode_queries", None)
        self.queries = (
            MicroBatcher(encode_queries, *batching, observer=self.metrics.batcher("queries"))
            if callable(encode_queries)
            else self.docs
        )

    def start(self) -> None:
        self.docs.start()
        if self.queries is not self.docs:
            self.queries.start()

    async def stop(self) -> None:
        await self.docs.stop()
        await self.queries.stop()
        self.worker.shutdown(wait=True)

    async def _vectors(
        self, batcher: MicroBatcher, texts: list[str], unit: bool, what: str = "texts", counted: bool = False
    ) -> tuple[np.ndarray, list[int]]:
        """The vectors of ``texts`` (one request), checked finite; ``unit``: a text with no token the model
        knows (or a zero vector) is a 422.
        ``counted``: with the tokens of each text (else an empty list)."""
        try:
            if counted:
                vectors, counts = await batcher.encode_counting(texts)
            else:
                vectors, counts = await batcher.encode(texts), []
        except InvalidTextError as exc:  # the encoder's own check of the text rule
            raise ApiError(422, f"{what}: {exc}") from exc
        except Exception as exc:
            raise ApiError(500, f"the encoder failed: {type(exc).__name__}: {exc}") from exc
        if not np.isfinite(vectors).all():
            raise ApiError(500, "the encoder failed: it gave NaN or infinite values")
        if unit:  # the rule of every bulk path (lingualite.encoders.known_tokens); raw vectors are asked for
            from lingualite.encoders.known_tokens import no_known_token

            loop = asyncio.get_running_loop()  # on the worker thread, which alone uses the encoder
            flags = await loop.run_in_executor(self.worker, no_known_token, self.encoder, texts, vectors)
            unknown = np.flatnonzero(flags)
            if unknown.size:
                raise ApiError(
                    422,
                    f"{what}.{int(unknown[0])}: the model has no token for this text (emoji, symbols, a script or "
                    "words it never saw): its vector would be the same for every such text, or all zeros, with "
                    "no direction to normalise or search by",
                )
        return vectors, counts

    async def _on_index(self, fn: Any, *args: Any) -> Any:
        """``fn(*args)`` on the index in the worker thread; 409 when it holds no documents, 503 when it cannot
        be read (gone, or replaced by an index of another model)."""
        from lingualite.search.index import EmptyIndexError

        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self.worker, fn, *args)
        except EmptyIndexError as exc:
            raise ApiError(409, str(exc)) from exc
        except (LinguaLiteError, OSError, sqlite3.Error, RuntimeError) as exc:
            raise ApiError(503, f"the index cannot be searched now: {exc}") from exc

    def _search_index(self, vectors: np.ndarray, k: int) -> list[Any]:
        self.index.require_documents()
        return self.index.search_vectors(vectors, k)

    async def index_documents(self) -> float:
        """Documents in the index, NaN while it cannot be read (for the metrics)."""
        try:
            return float(await self._on_index(len, self.index))
        except ApiError:
            return float("nan")

    async def health(self) -> dict[str, Any]:
        s, stats = self.settings, self.docs.stats
        size = None if self.index is None else await self._on_index(len, self.index)
        return {
            "status": "ok",
            "model": self.model,
            "dimension": int(self.encoder.dimension),
            "index_size": size,
            "limits": {k: getattr(s, k) for k in ("max_texts", "max_chars", "max_body_bytes", "max_k")},
            "batching": {
                "max_batch": s.max_batch,
                "max_wait_ms": s.max_wait_ms,
                "requests": stats.requests,
                "texts": stats.texts,
                "encoder_calls": stats.calls,
                "failed_requests": stats.failed,
            },
        }

    async def encode(self, request: EncodeRequest) -> dict[str, Any]:
        check_texts(request.texts, self.settings)
        self.metrics.texts.labels("/encode").observe(len(request.texts))
        vectors, _ = await self._vectors(self.docs, request.texts, request.normalize)
        if request.normalize:
            vectors = normalize_rows(vectors)
        return {"vectors": vectors.tolist(), "dimension": int(vectors.shape[1]), "model": self.model}

    async def embeddings(self, request: EmbeddingsRequest) -> dict[str, Any]:
        """OpenAI's embeddings: unit vectors (truncated to ``dimensions`` and renormalised when asked)."""
        texts = input_texts(request.input)
        check_texts(texts, self.settings, "input", status=400)
        self.metrics.texts.labels("/v1/embeddings").observe(len(texts))
        model = self.names.check(request.model)
        dimensions = check_dimensions(request.dimensions, int(self.encoder.dimension))
        vectors, counts = await self._vectors(self.docs, texts, True, "input", counted=True)
        vectors = normalize_rows(vectors)
        if dimensions < vectors.shape[1]:
            vectors = truncate(vectors, dimensions, normalize=True)
            zero = np.flatnonzero(np.linalg.norm(vectors, axis=1) < 0.5)
            if zero.size:
                raise ApiError(
                    422,
                    f"input.{int(zero[0])}: the first {dimensions} dimensions of its vector are all zeros, so "
                    "they have no direction to normalise; ask for more dimensions",
                    "dimensions",
                )
        self.metrics.tokens.inc(sum(counts))
        return embeddings_body(vectors, model, request.encoding_format, sum(counts))

    async def search(self, request: SearchRequest) -> dict[str, Any]:
        if (request.query is None) == (request.queries is None):
            raise ApiError(422, "give exactly one of 'query' (a string) or 'queries' (a list of strings)")
        single = request.query is not None
        texts = [request.query] if request.query is not None else list(request.queries or [])
        check_texts(texts, self.settings, "query" if single else "queries")
        self.metrics.texts.labels("/search").observe(len(texts))
        if request.k > self.settings.max_k:
            raise ApiError(
                422, f"k: {request.k}; this server returns at most {self.settings.max_k} hits (--max-k)"
            )
        if self.index is None:
            raise ApiError(404, "no index is loaded: start the server with --index FOLDER to search")
        vectors, _ = await self._vectors(self.queries, texts, True, "query" if single else "queries")
        found = await self._on_index(self._search_index, vectors, request.k)
        lists = [
            [
                {
                    "rank": r,
                    "doc_id": h.doc_id,
                    "score": finite_or_none(float(h.score)),
                    "text": h.text,
                    "metadata": finite_or_none(h.metadata),
                }
                for r, h in enumerate(hits, 1)
            ]
            for hits in found
        ]
        if single:
            return {"model": self.model, "hits": lists[0]}
        return {
            "model": self.model,
            "results": [{"query": q, "hits": h} for q, h in zip(texts, lists, strict=True)],
        }
