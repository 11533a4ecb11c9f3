"""Cross-lingual sentence retrieval (XSR; paper 000 Sec. 4.3): P@k of finding each sentence's translation.

For every source sentence all target sentences of the file are ranked (and vice versa); P@k is the share of
queries whose translation is among the top k. ``nn`` ranks by cosine similarity (so P@1 equals
sentence-transformers' ``TranslationEvaluator`` accuracy); ``csls`` (Conneau et al. 2018) subtracts each
candidate's mean similarity to its k nearest queries, which counters hubs.
"""

from __future__ import annotations

from typing import Literal

import numpy as np

Method = Literal["nn", "csls"]


def normalize_rows(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, dtype=np.float32)
    return x / np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1e-12)


def csls_scores(similarity: np.ndarray, k: int = 10) -> np.ndarray:
    """CSLS(x, y) = 2 cos(x, y) - r_T(x) - r_S(y), r = mean cosine to the k nearest of the other side."""
    k_eff = min(k, similarity.shape[0], similarity.shape[1])
    r_src = np.mean(-np.partition(-similarity, k_eff - 1, axis=1)[:, :k_eff], axis=1)
    r_tgt = np.mean(-np.partition(-similarity, k_eff - 1, axis=0)[:k_eff, :], axis=0)
    return 2 * similarity - r_src[:, None] - r_tgt[None, :]


def precision_at_k(scores: np.ndarray, ks: tuple[int, ...] = (1, 5, 10)) -> dict[int, float]:
    """Query i's right answer is column i. Ties count against the query (a stricter, stable rule)."""
    correct = np.diagonal(scores)[:, None]
    rank = (scores > correct).sum(axis=1) + (scores == correct).sum(axis=1) - 1  # 0 = first
    return {k: float(np.mean(rank < k)) for k in ks}


def xsr_from_similarity(
    similarity: np.ndarray, method: Method = "nn", ks: tuple[int, ...] = (1, 5, 10), csls_k: int = 10
) -> dict[str, float]:
    """P@k in both directions and their mean, from the (N, N) cosine matrix of sources x targets."""
    if similarity.ndim != 2 or similarity.shape[0] != similarity.shape[1]:
        raise ValueError(f"need a square similarity matrix, got shape {similarity.shape}")
    scores = csls_scores(similarity, csls_k) if method == "csls" else similarity
    forward = precision_at_k(scores, ks)
    backward = precision_at_k(scores.T, ks)
    out: dict[str, float] = {}
    for k in ks:
        out[f"p_at_{k}"] = (forward[k] + backward[k]) / 2
        out[f"src2tgt_p_at_{k}"] = forward[k]
        out[f"tgt2src_p_at_{k}"] = backward[k]
    return out


def xsr_scores(
    src: np.ndarray, tgt: np.ndarray, method: Method = "nn", ks: tuple[int, ...] = (1, 5, 10)
) -> dict[str, float]:
    """XSR metrics from dense embeddings of aligned sources and targets (row i translates row i)."""
    if src.shape != tgt.shape:
        raise ValueError(f"source and target embeddings differ in shape: {src.shape} vs {tgt.shape}")
    return xsr_from_similarity(normalize_rows(src) @ normalize_rows(tgt).T, method, ks)
