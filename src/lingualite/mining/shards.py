"""Vectors of a corpus side as on-disk shards (``shard-00000.npy``, ... of ``shard_size`` rows each, L2-normalised
float32), and the neighbour searches over them that keep memory bounded by a shard, not by the corpus.

Two searches: exact (:func:`lingualite.mining.knn.knn_shards`, a flat index per base shard) and IVF
(FAISS ``IndexIVFScalarQuantizer``, 8-bit codes; one coarse quantizer trained once on a sample of the base,
then one small IVF index per base shard on disk, searched with the query's coarse assignment computed once:
``search_preassigned``). IVF looks at ``nprobe`` of ``nlist`` cells, so it is approximate; its candidates'
cosines are recomputed exactly from the float shards (:func:`exact_cosines`) before any margin is taken.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from lingualite.core.io_utils import atomic_file
from lingualite.mining.knn import knn_shards, load_shard
from lingualite.mining.margin import Neighbours

SHARD_GLOB = "shard-*.npy"


def shard_paths(folder: Path) -> list[Path]:
    return sorted(folder.glob(SHARD_GLOB))


def shard_rows(paths: Sequence[Path]) -> list[int]:
    """Rows of each shard, read from the .npy headers (no data loaded)."""
    return [int(np.load(p, mmap_mode="r", allow_pickle=False).shape[0]) for p in paths]


def exact_cosines(
    query: np.ndarray, idx: np.ndarray, base_shards: Sequence[Path], shard_size: int
) -> np.ndarray:
    """cos(query[i], base[idx[i, c]]) for every candidate, loading one base shard at a time (not memory
    maps, whose touched pages would count as the process's memory): memory is one shard."""
    out = np.full(idx.shape, -np.inf, dtype=np.float32)
    which = np.where(idx >= 0, idx // shard_size, -1)
    for b in np.unique(which[which >= 0]).tolist():
        rows = load_shard(base_shards[b])
        r, c = np.nonzero(which == b)
        for start in range(0, len(r), 65536):  # gathered rows in blocks: a few MB at a time
            rr, cc = r[start : start + 65536], c[start : start + 65536]
            out[rr, cc] = np.einsum("ij,ij->i", query[rr], rows[idx[rr, cc] - b * shard_size])
        del rows
    return out


def resort(sims: np.ndarray, idx: np.ndarray) -> Neighbours:
    """Neighbour lists re-ordered best first by (new) cosines."""
    order = np.argsort(-sims, axis=1, kind="stable")
    return Neighbours(np.take_along_axis(sims, order, 1), np.take_along_axis(idx, order, 1))


def default_nlist(total: int) -> int:
    """IVF cells: ~4 sqrt(N) (FAISS's guideline is 4-16 sqrt(N)), at least 1, at most N / 39 (FAISS warns
    below 39 training points per cell)."""
    return max(1, min(int(4 * math.sqrt(total)), total // 39))


def build_ivf(base_shards: Sequence[Path], folder: Path, sample: int = 100_000, seed: int = 0) -> Path:
    """Train the coarse quantizer and 8-bit codes on a sample spread over the shards, then write one IVF
    index per shard (global row ids) into ``folder``; shards already written are kept (resume)."""
    import faiss

    folder.mkdir(parents=True, exist_ok=True)
    trained = folder / "trained.faiss"
    rows = shard_rows(base_shards)
    total = sum(rows)
    if not trained.exists():
        rng = np.random.default_rng(seed)
        per = max(1, sample // len(base_shards))
        parts = []
        for path, n in zip(base_shards, rows, strict=True):
            pick = np.sort(rng.choice(n, size=min(per, n), replace=False))
            parts.append(np.asarray(np.load(path, mmap_mode="r", allow_pickle=False)[pick], np.float32))
        train = np.ascontiguousarray(np.concatenate(parts))
        dim = train.shape[1]
        index = faiss.IndexIVFScalarQuantizer(
            faiss.IndexFlatIP(dim),
            dim,
            default_nlist(total),
            faiss.ScalarQuantizer.QT_8bit,
            faiss.METRIC_INNER_PRODUCT,
        )
        index.train(train)
        _write_index(index, trained)
    offset = 0
    for i, (path, n) in enumerate(zip(base_shards, rows, strict=True)):
        out = folder / f"shard-{i:05d}.faiss"
        if not out.exists():
            index = faiss.read_index(str(trained))
            index.add_with_ids(load_shard(path), np.arange(offset, offset + n, dtype=np.int64))
            _write_index(index, out)
        offset += n
    return folder


def _write_index(index: object, path: Path) -> None:
    import faiss

    with atomic_file(path) as tmp:
        faiss.write_index(index, str(tmp))


def knn_ivf(
    query: np.ndarray,
    ivf_folder: Path,
    shards: int,
    k: int,
    nprobe: int,
    on_shard: Callable[[int], None] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Approximate k nearest neighbours through the per-shard IVF indexes of :func:`build_ivf`."""
    import faiss

    trained = faiss.read_index(str(ivf_folder / "trained.faiss"))
    ivf = faiss.extract_index_ivf(trained)
    nprobe = min(nprobe, ivf.nlist)
    coarse_d, coarse_i = ivf.quantizer.search(query, nprobe)
    heap = faiss.ResultHeap(len(query), k, keep_max=True)
    for i in range(shards):
        index = faiss.read_index(str(ivf_folder / f"shard-{i:05d}.faiss"))
        index.nprobe = nprobe
        sims, idx = index.search_preassigned(query, k, coarse_i, coarse_d)
        heap.add_result(np.where(idx >= 0, sims, -np.inf).astype(np.float32), idx)
        if on_shard is not None:
            on_shard(i)
    heap.finalize()
    return heap.D.astype(np.float32), heap.I.astype(np.int64)


def search_shards(
    query: np.ndarray,
    base_shards: Sequence[Path],
    k: int,
    ivf_folder: Path | None,
    nprobe: int,
    shard_size: int,
    on_shard: Callable[[int], None] | None = None,
    gpu: Any = None,
) -> Neighbours:
    """k nearest base rows of ``query``: exact (in torch on ``gpu`` when given), or IVF candidates with
    exact cosines recomputed."""
    if ivf_folder is None:
        return Neighbours(*knn_shards(query, base_shards, k, on_shard, gpu))
    _, idx = knn_ivf(query, ivf_folder, len(base_shards), k, nprobe, on_shard)
    return resort(exact_cosines(query, idx, base_shards, shard_size), idx)
