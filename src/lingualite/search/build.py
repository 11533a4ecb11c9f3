"""Writing documents into an index folder: encoding them in chunks (SQLite rows + float vectors), building
the FAISS index of a new folder. The output folder itself is checked and swapped in by
:func:`lingualite.core.ownership.replacing`."""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from lingualite.core.errors import LinguaLiteError
from lingualite.core.progress import print_progress
from lingualite.encoders.matryoshka_dims import check_dimensions
from lingualite.search.encoder_check import dense, probe_vectors
from lingualite.search.faiss_index import VectorIndex, choose_kind
from lingualite.search.floats import FLOATS_NAME, FloatFile
from lingualite.search.readers import Doc, ReadStats, iter_documents
from lingualite.search.store import DB_NAME, DocumentStore

__all__ = ["FORMAT_VERSION", "Ingested", "faiss_name", "ingest", "nothing_to_index", "write_new_index"]

FORMAT_VERSION = 1
CHUNK = 4096  # documents per encoder call


def faiss_name(generation: int) -> str:
    return f"faiss-{generation}.index"


@dataclass
class Ingested:
    first_row: int
    added: int
    stats: ReadStats


def _unique(
    store: DocumentStore, docs: list[Doc], seen: dict[str, str], stats: ReadStats, skip_bad: bool
) -> list[Doc]:
    """``docs`` without ids already in the index or earlier in the input (an error, or skipped and counted)."""
    existing = store.existing_ids([d.doc_id for d in docs])
    out = []
    for doc in docs:
        where = "in the index" if doc.doc_id in existing else seen.get(doc.doc_id)
        if where is not None:
            error = LinguaLiteError(f"{doc.where}: duplicate id {doc.doc_id!r} (also {where})")
            if not skip_bad:
                raise error
            stats.skip(error)
            stats.read -= 1
            continue
        seen[doc.doc_id] = f"at {doc.where}"
        out.append(doc)
    return out


def _known(
    docs: list[Doc], vectors: np.ndarray, stats: ReadStats, skip_bad: bool
) -> tuple[list[Doc], np.ndarray]:
    """The documents (and their rows) that hold a token the model knows: the first other is refused naming
    its ``file:line``, or with ``skip_bad`` each is skipped and counted (:mod:`lingualite.encoders.known_tokens`)."""
    from lingualite.encoders.known_tokens import marked, refusal

    rows = marked(vectors)
    if not rows.size:
        return docs, vectors
    if not skip_bad:
        raise refusal(docs[int(rows[0])].where, None, docs[int(rows[0])].text)
    for i in rows.tolist():
        stats.skip(refusal(docs[i].where, None, docs[i].text))
        stats.read -= 1
    keep = np.ones(len(docs), bool)
    keep[rows] = False
    return [d for d, ok in zip(docs, keep, strict=True) if ok], vectors[keep]


def ingest(
    store: DocumentStore,
    floats: FloatFile,
    encoder: Any,
    source: Path | list[dict[str, Any]],
    first_row: int,
    skip_bad: bool = False,
    progress: bool = False,
    dimensions: int | None = None,
) -> Ingested:
    """Encode every document of ``source`` into rows ``first_row...`` of ``floats`` and ``store`` (inside the
    caller's transaction; truncated to ``dimensions``); ids must be new."""
    stats, seen, row, t0 = ReadStats(), {}, first_row, time.perf_counter()
    for chunk in iter_documents(source, CHUNK, skip_bad, stats):
        docs = _unique(store, chunk, seen, stats, skip_bad)
        if not docs:
            continue
        vectors = dense(encoder, [d.text for d in docs], dimensions=dimensions)
        docs, vectors = _known(docs, vectors, stats, skip_bad)
        if not docs:
            continue
        finite = np.isfinite(vectors).all(axis=1)
        if not finite.all():
            raise LinguaLiteError(
                f"{docs[int(np.argmin(finite))].where}: the model gave a vector with NaN or infinite values "
                "for this text; it cannot be indexed"
            )
        if vectors.shape[1] != floats.dimension:
            raise LinguaLiteError(
                f"{getattr(encoder, 'name', 'encoder')}: gives {vectors.shape[1]}-d vectors, the index holds "
                f"{floats.dimension}-d ones"
            )
        floats.append(row, vectors)
        store.insert((row + i, d.doc_id, d.text, d.metadata) for i, d in enumerate(docs))
        row += len(docs)
        if progress:
            print_progress("index", row - first_row, None, t0, "documents encoded")
    return Ingested(first_row, row - first_row, stats)


def nothing_to_index(source: Path | list[dict[str, Any]], stats: ReadStats) -> str:
    """The error of a build whose input yields no document (an empty list given on purpose is allowed: the
    Python API's way to make an index to fill with ``add``)."""
    name = "the documents given" if isinstance(source, list) else str(source)
    skipped = (
        f"; {stats.skipped} skipped as bad, the first: {stats.first_skipped[0]}" if stats.skipped else ""
    )
    return f"{name}: holds no documents to index{skipped}"


def write_new_index(
    folder: Path,
    encoder: Any,
    spec: str,
    source: Path | list[dict[str, Any]],
    quantization: str,
    kind: str,
    rescore: int | None = None,
    skip_bad: bool = False,
    progress: bool = False,
    dimensions: int | None = None,
) -> dict[str, Any]:
    """Build a complete index in the (empty, staging) ``folder``; returns its info. ``dimensions``: keep the
    first components of every vector (checked by :func:`lingualite.encoders.matryoshka_dims.check_dimensions`: the
    info's ``warnings`` say when the model was not trained for that size)."""
    model_dimension = int(dense(encoder, ["dimension probe"]).shape[1])
    warning = check_dimensions(encoder, dimensions, model_dimension)
    dimensions = None if dimensions == model_dimension else dimensions
    dimension = dimensions or model_dimension
    store = DocumentStore(folder / DB_NAME, create=True)
    try:
        floats = FloatFile.create(folder / FLOATS_NAME, dimension)
        with store.transaction():
            done = ingest(store, floats, encoder, source, 0, skip_bad, progress, dimensions)
            if done.added == 0 and not (isinstance(source, list) and not source):
                raise LinguaLiteError(nothing_to_index(source, done.stats))
            concrete = choose_kind(kind, done.added)
            vindex = VectorIndex.new(quantization, concrete, dimension, done.added, rescore)
            view = floats.view(done.added)
            vindex.train_if_needed(view)
            for start in range(0, done.added, 65536):
                stop = min(start + 65536, done.added)
                vindex.add(np.asarray(view[start:stop]), np.arange(start, stop, dtype=np.int64))
            vindex.write(folder / faiss_name(1))
            info = {
                "format_version": FORMAT_VERSION,
                "model_spec": spec,
                "encoder_name": getattr(encoder, "name", type(encoder).__name__),
                "dimension": dimension,
                "model_dimension": model_dimension,
                "truncate_dim": dimensions,
                "normalized": True,
                "metric": "cosine",
                "quantization": quantization,
                "kind": concrete,
                "kind_requested": kind,
                "rescore": vindex.rescore,
                "ef_search": vindex.ef_search,
                "nprobe": vindex.nprobe,
                "documents": done.added,
                "vectors": done.added,
                "tombstones": 0,
                "generation": 1,
                "faiss_file": faiss_name(1),
                "created": datetime.now(UTC).isoformat(timespec="seconds"),
                "probes": probe_vectors(encoder, dimensions),
                "skipped_at_build": done.stats.skipped,
            }
            store.write_info(info)
    finally:
        store.close()
    info["first_skipped"] = done.stats.first_skipped
    info["warnings"] = [warning] if warning else []
    return info
