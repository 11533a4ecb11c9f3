"""k nearest neighbours by cosine for bitext mining: in memory (dense via FAISS, sparse via blocked products)
and over on-disk shards (memory bounded by one query shard and one base shard, whatever the corpus size).

Vectors are expected L2-normalised, so inner product = cosine. FAISS ``IndexFlatIP`` is exact; the sharded
search builds one flat index per base shard and merges each shard's top k into a running top k, which is
what FAISS's own ``ResultHeap`` does across shards (used here, not re-written). With ``gpu`` (a CUDA
``torch.device``) each dense search is a torch matrix product and ``topk`` on the GPU instead
(:func:`lingualite.vectors.retrieval.exact_topk`): the same exact neighbours; FAISS stays the path on a CPU.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from scipy import sparse

from lingualite.vectors.retrieval import _rows, exact_topk

if TYPE_CHECKING:
    import torch


def knn(
    queries: np.ndarray | sparse.spmatrix,
    base: np.ndarray | sparse.spmatrix,
    k: int,
    block: int = 1024,
    gpu: torch.device | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """The ``k`` nearest ``base`` rows of every query row by cosine: (cosines, indices), each (n, k), best
    first. Rows are normalised here; ``k`` is capped at the base size. ``gpu``: dense search in torch there."""
    q, b = _rows(queries), _rows(base)
    k = min(k, b.shape[0])
    if not sparse.issparse(q):
        return exact_topk(q, b, k, gpu)
    # Lexical (sparse) vectors: FAISS indexes dense vectors only, so blocks of queries against the whole base
    # (one sparse product each), then each row's top k by partial sort.
    sims = np.empty((q.shape[0], k), dtype=np.float32)
    idx = np.empty((q.shape[0], k), dtype=np.int64)
    bt = sparse.csc_matrix(b.T)
    for start in range(0, q.shape[0], block):
        cos = (q[start : start + block] @ bt).toarray().astype(np.float32, copy=False)
        top = (
            np.argpartition(-cos, k - 1, axis=1)[:, :k]
            if k < cos.shape[1]
            else np.tile(np.arange(k), (len(cos), 1))
        )
        vals = np.take_along_axis(cos, top, 1)
        order = np.argsort(-vals, axis=1, kind="stable")
        sims[start : start + block] = np.take_along_axis(vals, order, 1)
        idx[start : start + block] = np.take_along_axis(top, order, 1)
    return sims, idx


def load_shard(path: Path) -> np.ndarray:
    """One float32 shard (``.npy``, no pickle), as a contiguous array."""
    return np.ascontiguousarray(np.load(path, allow_pickle=False), dtype=np.float32)


def knn_shards(
    query: np.ndarray,
    base_shards: Sequence[Path],
    k: int,
    on_shard: Callable[[int], None] | None = None,
    gpu: torch.device | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Exact k nearest neighbours of ``query`` (normalised rows) among the rows of every base shard, in
    order (global row index = offset of the shard + row within it). Memory: the query, one base shard and
    the (n, k) results. ``gpu``: each shard searched in torch there."""
    import faiss

    heap = faiss.ResultHeap(len(query), k, keep_max=True)
    offset = 0
    for i, path in enumerate(base_shards):
        base = load_shard(path)
        sims, idx = exact_topk(query, base, min(k, len(base)), gpu)
        if sims.shape[1] < k:  # a base shard smaller than k: pad with "no neighbour"
            pad = k - sims.shape[1]
            sims = np.pad(sims, ((0, 0), (0, pad)), constant_values=-np.inf)
            idx = np.pad(idx, ((0, 0), (0, pad)), constant_values=-1)
        heap.add_result(sims, np.where(idx >= 0, idx + offset, -1))
        offset += len(base)
        del base
        if on_shard is not None:
            on_shard(i)
    heap.finalize()
    total = offset
    k_eff = min(k, total)
    return heap.D[:, :k_eff].astype(np.float32), heap.I[:, :k_eff].astype(np.int64)
