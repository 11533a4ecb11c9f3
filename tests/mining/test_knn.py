"""Exact neighbours for mining (mining.knn): the torch path a GPU takes gives FAISS's neighbours (forced onto
the CPU here), in memory and over on-disk shards."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import torch

from lingualite.mining.knn import knn, knn_shards
from lingualite.vectors.retrieval import exact_topk

CPU = torch.device("cpu")


def _vectors(n: int, seed: int) -> np.ndarray:
    x = np.random.default_rng(seed).normal(size=(n, 24)).astype(np.float32)
    return x / np.linalg.norm(x, axis=1, keepdims=True)


def test_torch_topk_finds_faiss_neighbours() -> None:
    q, b = _vectors(150, 0), _vectors(400, 1)
    sims, idx = exact_topk(q, b, 6)
    t_sims, t_idx = exact_topk(q, b, 6, gpu=CPU, rows=37)  # chunks of queries, as on a GPU
    np.testing.assert_array_equal(t_idx, idx)
    np.testing.assert_allclose(t_sims, sims, atol=1e-5)
    assert t_sims.dtype == np.float32 and t_idx.dtype == np.int64
    a, b2 = knn(q, b, 4), knn(q, b, 4, gpu=CPU)
    np.testing.assert_array_equal(a[1], b2[1])


def test_sharded_search_on_the_torch_path_is_the_same(tmp_path: Path) -> None:
    q, base = _vectors(60, 2), _vectors(250, 3)
    shards = []
    for i, start in enumerate(range(0, len(base), 100)):
        shards.append(tmp_path / f"shard-{i:05d}.npy")
        np.save(shards[-1], base[start : start + 100])
    faiss_sims, faiss_idx = knn_shards(q, shards, 5)
    torch_sims, torch_idx = knn_shards(q, shards, 5, gpu=CPU)
    np.testing.assert_array_equal(torch_idx, faiss_idx)
    np.testing.assert_allclose(torch_sims, faiss_sims, atol=1e-5)
