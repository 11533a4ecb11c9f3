"""What the endpoints do, apart from HTTP: encode through the micro-batchers, search the index, report health.

One :class:`Service` per app holds the encoder, the optional :class:`lingualite.search.SearchIndex`, the
single worker thread and the batchers (``/encode`` and ``/search`` share one unless the encoder encodes
queries differently, as e5 does with ``encode_queries``).
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

from lingualite.encoders.base import Encoder
from lingualite.errors import LinguaLiteError
from lingualite.retrieval import normalize_rows
from lingualite.serve.batching import MicroBatcher
from lingualite.serve.errors import ApiError
from lingualite.serve.limits import check_texts
from lingualite.serve.schemas import EncodeRequest, SearchRequest
from lingualite.serve.settings import ServeSettings

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
    """The encoder, index and batchers behind one app; :meth:`start` / :meth:`stop` on the event loop."""

    def __init__(self, encoder: Encoder, index: Any, settings: ServeSettings) -> None:
        if index is not None:
            check_index(index, encoder, settings.model_spec)
        self.encoder, self.index, self.settings = encoder, index, settings
        self.model = settings.model_spec or encoder.name
        self.worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="lingualite-encode")
        self.docs = MicroBatcher(encoder.encode, self.worker, settings.max_batch, settings.max_wait_ms)
        encode_queries = getattr(encoder, "encode_queries", None)
        self.queries = (
            MicroBatcher(encode_queries, self.worker, settings.max_batch, settings.max_wait_ms)
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

    async def _vectors(self, batcher: MicroBatcher, texts: list[str]) -> np.ndarray:
        try:
            return await batcher.encode(texts)
        except Exception as exc:
            raise ApiError(500, f"the encoder failed: {type(exc).__name__}: {exc}") from exc

    async def health(self) -> dict[str, Any]:
        s, stats = self.settings, self.docs.stats
        size = None if self.index is None else await asyncio.to_thread(len, self.index)
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
            },
        }

    async def encode(self, request: EncodeRequest) -> dict[str, Any]:
        check_texts(request.texts, self.settings)
        vectors = await self._vectors(self.docs, request.texts)
        if request.normalize:
            vectors = normalize_rows(vectors)
        return {"vectors": vectors.tolist(), "dimension": int(vectors.shape[1]), "model": self.model}

    async def search(self, request: SearchRequest) -> dict[str, Any]:
        if (request.query is None) == (request.queries is None):
            raise ApiError(422, "give exactly one of 'query' (a string) or 'queries' (a list of strings)")
        single = request.query is not None
        texts = [request.query] if request.query is not None else list(request.queries or [])
        check_texts(texts, self.settings, "query" if single else "queries")
        if request.k > self.settings.max_k:
            raise ApiError(
                422, f"k: {request.k}; this server returns at most {self.settings.max_k} hits (--max-k)"
            )
        if self.index is None:
            raise ApiError(404, "no index is loaded: start the server with --index FOLDER to search")
        vectors = await self._vectors(self.queries, texts)
        loop = asyncio.get_running_loop()
        found = await loop.run_in_executor(self.worker, self.index.search_vectors, vectors, request.k)
        lists = [
            [
                {
                    "rank": r,
                    "doc_id": h.doc_id,
                    "score": float(h.score),
                    "text": h.text,
                    "metadata": h.metadata,
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
