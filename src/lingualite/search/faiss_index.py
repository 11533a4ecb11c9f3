"""FAISS indexes of a search index: kinds, quantization, candidate search, exact rescoring.

FAISS ids are our row ids: flat and HNSW indexes sit in an ID map (``IndexIDMap2`` / ``IndexBinaryIDMap2``),
IVF indexes store ids in their lists; ``remove_ids`` deletes by id. Vectors are L2-normalised, so inner product = cosine.

=============  ==========================  ==============================  ===========================
kind           none (float32)              int8 (scalar quantizer, 8 bit)  binary (sign bits)
=============  ==========================  ==============================  ===========================
flat           ``IndexFlatIP``             ``IndexScalarQuantizer`` QT_8   ``IndexBinaryFlat``
hnsw           ``IndexHNSWFlat`` (M=32)    ``IndexHNSWSQ`` QT_8            ``IndexBinaryHNSW``
ivf            ``IndexIVFFlat``            ``IndexIVFScalarQuantizer``     ``IndexBinaryIVF``
=============  ==========================  ==============================  ===========================

Quantized indexes only propose candidates: the top ``k x rescore`` are rescored exactly by float cosine
against the float vectors kept on disk (:mod:`lingualite.search.floats`), the scheme of binary / int8
embedding retrieval with rescoring (Shakir, Aarsen & Lee 2024, "Binary and Scalar Embedding Quantization").
Binary codes are the signs of the normalised vector's components (Hamming distance between codes).

HNSW graphs cannot remove vectors (FAISS raises): their deleted ids are *tombstones*, excluded from every
search by an ``IDSelector``; :func:`rebuild` makes a fresh graph from the stored float vectors.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from lingualite.core.errors import LinguaLiteError

__all__ = [
    "AUTO_HNSW_FROM",
    "KINDS",
    "QUANTIZATIONS",
    "VectorIndex",
    "choose_kind",
    "default_rescore",
    "rebuild",
]

QUANTIZATIONS = ("none", "int8", "binary")
KINDS = ("auto", "flat", "hnsw", "ivf")
AUTO_HNSW_FROM = 100_000  # "auto": exact flat search below this many documents at build, HNSW from it
HNSW_M = 32
HNSW_EF_CONSTRUCTION = 80
HNSW_EF_SEARCH = 128
IVF_MIN_PER_LIST = 39  # FAISS warns below 39 training points per centroid
# Candidates per wanted hit, rescored exactly. int8 keeps the exact float top 10 from 2x; sign bits need more
# candidates the fewer they are (recall kept @10 on the LibreOffice index set, benchmarks/search_quantization.py:
# 512 bits x10 0.966, 128 bits x10 0.79-0.85, x40 0.94-0.96), so binary takes max(10, 5120 / bits).
DEFAULT_RESCORE = {"none": 1, "int8": 4}
BINARY_RESCORE_BITS = 5120


def default_rescore(quantization: str, dimension: int) -> int:
    if quantization == "binary":
        return max(10, math.ceil(BINARY_RESCORE_BITS / (8 * math.ceil(dimension / 8))))
    return DEFAULT_RESCORE[quantization]


TRAIN_SAMPLE = 100_000


def choose_kind(kind: str, count: int) -> str:
    """The concrete kind for ``kind`` (``auto``: flat below :data:`AUTO_HNSW_FROM` documents, else hnsw)."""
    if kind not in KINDS:
        raise LinguaLiteError(f"unknown index kind {kind!r}; choose from {', '.join(KINDS)}")
    if kind == "auto":
        return "hnsw" if count >= AUTO_HNSW_FROM else "flat"
    return kind


def ivf_lists(count: int) -> int:
    """IVF lists for ``count`` vectors: about 4 sqrt(n), with at least 39 training vectors per list."""
    lists = min(int(4 * math.sqrt(max(count, 1))), count // IVF_MIN_PER_LIST)
    if lists < 1:
        raise LinguaLiteError(
            f"an ivf index needs at least {IVF_MIN_PER_LIST} documents at build (got {count:,}); use --kind flat"
        )
    return lists


def _nprobe(lists: int) -> int:
    return min(lists, max(8, lists // 8))


@dataclass
class VectorIndex:
    """A FAISS index (float or binary) with the settings to search it."""

    index: Any
    quantization: str
    kind: str
    dimension: int
    rescore: int
    ef_search: int = HNSW_EF_SEARCH
    nprobe: int = 1

    @property
    def binary(self) -> bool:
        return self.quantization == "binary"

    @property
    def removable(self) -> bool:
        return self.kind != "hnsw"

    @property
    def ntotal(self) -> int:
        return int(self.index.ntotal)

    @classmethod
    def new(
        cls, quantization: str, kind: str, dimension: int, count: int, rescore: int | None = None
    ) -> VectorIndex:
        """An empty index of ``kind`` (already concrete) for about ``count`` vectors."""
        import faiss

        if quantization not in QUANTIZATIONS:
            raise LinguaLiteError(
                f"unknown quantization {quantization!r}; choose from {', '.join(QUANTIZATIONS)}"
            )
        nprobe = 1
        if quantization == "binary":
            bits = 8 * math.ceil(dimension / 8)
            if kind == "flat":
                base = faiss.IndexBinaryFlat(bits)
            elif kind == "hnsw":
                base = faiss.IndexBinaryHNSW(bits, HNSW_M)
                base.hnsw.efConstruction = HNSW_EF_CONSTRUCTION
            else:
                lists = ivf_lists(count)
                base = faiss.index_binary_factory(bits, f"BIVF{lists}")
                nprobe = _nprobe(lists)
            index = base if kind == "ivf" else faiss.IndexBinaryIDMap2(base)
        else:
            sq = ",SQ8" if quantization == "int8" else ""
            lists = ivf_lists(count) if kind == "ivf" else 0
            desc = {
                "flat": "SQ8" if sq else "Flat",
                "hnsw": f"HNSW{HNSW_M}{sq}",
                "ivf": f"IVF{lists}{sq or ',Flat'}",
            }
            base = faiss.index_factory(dimension, desc[kind], faiss.METRIC_INNER_PRODUCT)
            if kind == "hnsw":
                base.hnsw.efConstruction = HNSW_EF_CONSTRUCTION
            if kind == "ivf":
                nprobe = _nprobe(lists)
            # IVF lists keep ids themselves (an ID map over IVF breaks on remove: it assumes the base
            # renumbers rows after a removal, as flat indexes do)
            index = base if kind == "ivf" else faiss.IndexIDMap2(base)
        rescore = default_rescore(quantization, dimension) if rescore is None else rescore
        return cls(index, quantization, kind, dimension, max(1, int(rescore)), nprobe=nprobe)

    # -- vectors in, vectors out ---------------------------------------------------------------------------

    def codes(self, vectors: np.ndarray) -> np.ndarray:
        """What FAISS stores for normalised float ``vectors``: the floats, or their packed sign bits."""
        vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        return np.packbits(vectors > 0, axis=1) if self.binary else vectors

    def train_if_needed(self, floats: np.ndarray, rows: np.ndarray | None = None) -> None:
        """Train (scalar-quantizer ranges, IVF centroids) on up to 100k seeded rows of ``floats`` (those in
        ``rows`` when given) when the index is untrained."""
        total = len(floats) if rows is None else len(rows)
        if self.index.is_trained or total == 0:
            return
        take = np.sort(np.random.default_rng(0).choice(total, min(total, TRAIN_SAMPLE), replace=False))
        self.index.train(self.codes(np.asarray(floats[take if rows is None else rows[take]])))

    def add(self, vectors: np.ndarray, ids: np.ndarray) -> None:
        if len(vectors):
            self.index.add_with_ids(self.codes(vectors), np.ascontiguousarray(ids, dtype=np.int64))

    def remove(self, ids: np.ndarray) -> None:
        """Remove ``ids`` (kinds where :attr:`removable`; HNSW callers keep tombstones instead)."""
        import faiss

        if len(ids):
            self.index.remove_ids(faiss.IDSelectorBatch(np.ascontiguousarray(ids, dtype=np.int64)))

    def candidates(
        self, queries: np.ndarray, n: int, excluded: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """FAISS ``(scores, ids)`` of the ``n`` best candidates per (normalised) query, id -1 where fewer
        exist (scores: inner products, or Hamming distances for binary codes)."""
        import faiss

        n = max(1, min(n, self.ntotal))
        sel = None
        if excluded is not None and len(excluded):
            sel = faiss.IDSelectorNot(faiss.IDSelectorBatch(np.ascontiguousarray(excluded, dtype=np.int64)))
        if self.kind == "hnsw":
            params = faiss.SearchParametersHNSW(efSearch=max(self.ef_search, n), sel=sel)
        elif self.kind == "ivf":
            params = faiss.SearchParametersIVF(nprobe=self.nprobe, sel=sel)
        else:
            params = None if sel is None else faiss.SearchParameters(sel=sel)
        return self.index.search(self.codes(queries), n, params=params)

    def search(
        self, queries: np.ndarray, k: int, floats: np.ndarray, excluded: np.ndarray | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """``(scores, ids)``, each ``(len(queries), k)``: cosine scores and FAISS ids, best first, padded
        with ``-inf`` / -1 where fewer than ``k`` exist. Float indexes give exact inner products; quantized
        ones propose ``k x rescore`` candidates that are rescored by float cosine from ``floats``."""
        queries = np.ascontiguousarray(queries, dtype=np.float32)
        scores = np.full((len(queries), k), -np.inf, dtype=np.float32)
        out = np.full((len(queries), k), -1, dtype=np.int64)
        if self.ntotal == 0 or len(queries) == 0 or k < 1:
            return scores, out
        if self.quantization == "none":
            sims, found = self.candidates(queries, k, excluded)
            width = sims.shape[1]
            scores[:, :width], out[:, :width] = np.where(found >= 0, sims, -np.inf), found
            return scores, out
        _, found = self.candidates(queries, k * self.rescore, excluded)
        for i, row in enumerate(found):
            ids = np.unique(row[row >= 0])  # sorted: the memory map reads rows in file order
            if not len(ids):
                continue
            cos = np.asarray(floats[ids]) @ queries[i]
            best = np.argsort(-cos, kind="stable")[:k]
            scores[i, : len(best)], out[i, : len(best)] = cos[best], ids[best]
        return scores, out

    # -- files ---------------------------------------------------------------------------------------------

    def write(self, path: Path) -> None:
        import faiss

        (faiss.write_index_binary if self.binary else faiss.write_index)(self.index, str(path))

    @classmethod
    def read(cls, path: Path, info: dict[str, Any]) -> VectorIndex:
        import faiss

        binary = info["quantization"] == "binary"
        try:
            index = (faiss.read_index_binary if binary else faiss.read_index)(str(path))
        except RuntimeError as exc:
            raise LinguaLiteError(
                f"{path}: cannot read the FAISS index ({str(exc).splitlines()[0]})"
            ) from exc
        return cls(
            index,
            info["quantization"],
            info["kind"],
            int(info["dimension"]),
            int(info["rescore"]),
            int(info.get("ef_search", HNSW_EF_SEARCH)),
            int(info.get("nprobe", 1)),
        )


def rebuild(old: VectorIndex, floats: np.ndarray, live: np.ndarray, chunk: int = 65536) -> VectorIndex:
    """A fresh index like ``old`` holding only the rows ``live`` of ``floats`` (HNSW: drops tombstones)."""
    new = VectorIndex.new(old.quantization, old.kind, old.dimension, max(len(live), 1), old.rescore)
    new.ef_search, new.nprobe = old.ef_search, old.nprobe
    new.train_if_needed(floats, live)
    for start in range(0, len(live), chunk):
        rows = live[start : start + chunk]
        new.add(np.asarray(floats[rows]), rows)
    return new
