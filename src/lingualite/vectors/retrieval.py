"""Cross-lingual sentence retrieval (XSR; paper 000 Sec. 4.3): P@k of finding each sentence's translation.

Scoring methods, from the cosine ``cos(x, y)`` of a query ``x`` and a candidate ``y``:

- ``nn``: the cosine itself (so P@1 equals sentence-transformers' ``TranslationEvaluator`` accuracy).
- ``csls`` (Conneau et al. 2018): ``2 cos(x, y) - r_T(x) - r_S(y)``, where ``r_T(x)`` is the mean cosine of
  ``x`` to its k nearest candidates and ``r_S(y)`` that of ``y`` to its k nearest queries; counters hubs.
- ``margin`` (ratio margin, Artetxe & Schwenk 2019, LASER's xsim; k = 4 by default):
  ``cos(x, y) / ((r_T(x) + r_S(y)) / 2)``, the same neighbourhood means in a ratio.

Two protocols: a square one (every source against every target of the file, both directions; exact dense
matrices) and a pooled one (N queries against a larger pool with distractors, the paper's "2,000 queries
among 200k sentences"), which never holds the full (N, pool) matrix: neighbourhoods come from FAISS and the
rank of each query's gold candidate is counted block by block.

Exact search (:func:`exact_topk`, also bitext mining's): FAISS ``IndexFlatIP`` on the CPU; on a GPU a torch
matrix product and ``topk`` over chunks of queries (``gpu``: a ``torch.device``; callers pass one when the
encoder runs on CUDA: :func:`search_device`). Both are exact float32 inner products, so they agree to float
rounding (a test forces the torch path on the CPU).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

import numpy as np
from scipy import sparse

if TYPE_CHECKING:
    import torch

Method = Literal["nn", "csls", "margin"]
METHODS: tuple[str, ...] = ("nn", "csls", "margin")
DEFAULT_K = {"nn": 0, "csls": 10, "margin": 4}  # neighbourhood sizes used when none is given


def normalize_rows(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, dtype=np.float32)
    return x / np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1e-12)


def centred_unit(vectors: np.ndarray) -> np.ndarray:
    """Unit rows after removing the rows' mean (one language's mean vector): unrelated sentences then score
    ~0 instead of sharing the large common direction every vector of a small encoder has."""
    return normalize_rows(vectors - vectors.mean(axis=0, keepdims=True))


def check_method(method: str) -> None:
    if method not in METHODS:
        raise ValueError(f"unknown retrieval method {method!r}; choose from {', '.join(METHODS)}")


def _score(cos: Any, r_row: Any, r_col: Any, method: str) -> Any:
    """``method``'s score from cosines and neighbourhood means that broadcast against them (numpy arrays or
    torch tensors)."""
    if method == "csls":
        return 2 * cos - r_row - r_col
    if method == "margin":
        mean = (r_row + r_col) / 2
        return cos / (mean.clamp_min(1e-6) if hasattr(mean, "clamp_min") else np.maximum(mean, 1e-6))
    return cos


def adjust_scores(similarity: np.ndarray, r_rows: np.ndarray, r_cols: np.ndarray, method: str) -> np.ndarray:
    """Turn an (N, M) cosine matrix into ``method`` scores given each row's and column's k-neighbourhood
    mean cosine."""
    return _score(similarity, r_rows[:, None], r_cols[None, :], method)


def _topk_mean(similarity: np.ndarray, k: int, axis: int) -> np.ndarray:
    k_eff = min(k, similarity.shape[axis])
    top = -np.partition(-similarity, k_eff - 1, axis=axis)
    return np.mean(top[:k_eff, :] if axis == 0 else top[:, :k_eff], axis=axis)


def csls_scores(similarity: np.ndarray, k: int = 10) -> np.ndarray:
    """CSLS(x, y) = 2 cos(x, y) - r_T(x) - r_S(y), r = mean cosine to the k nearest of the other side."""
    return adjust_scores(similarity, _topk_mean(similarity, k, 1), _topk_mean(similarity, k, 0), "csls")


def margin_scores(similarity: np.ndarray, k: int = 4) -> np.ndarray:
    """Ratio margin(x, y) = cos(x, y) / ((r_T(x) + r_S(y)) / 2), with the same k-neighbourhood means."""
    return adjust_scores(similarity, _topk_mean(similarity, k, 1), _topk_mean(similarity, k, 0), "margin")


def method_scores(similarity: np.ndarray, method: str, k: int | None = None) -> np.ndarray:
    """The (N, M) score matrix of ``method`` from a full cosine matrix."""
    check_method(method)
    if method == "nn":
        return similarity
    k = DEFAULT_K[method] if k is None else k
    return adjust_scores(similarity, _topk_mean(similarity, k, 1), _topk_mean(similarity, k, 0), method)


def precision_at_k(scores: np.ndarray, ks: tuple[int, ...] = (1, 5, 10)) -> dict[int, float]:
    """Query i's right answer is column i. Ties count against the query (a stricter, stable rule)."""
    correct = np.diagonal(scores)[:, None]
    rank = (scores > correct).sum(axis=1) + (scores == correct).sum(axis=1) - 1  # 0 = first
    return {k: float(np.mean(rank < k)) for k in ks}


def xsr_from_similarity(
    similarity: np.ndarray, method: Method = "nn", ks: tuple[int, ...] = (1, 5, 10), k: int | None = None
) -> dict[str, float]:
    """P@k in both directions and their mean, from the (N, N) cosine matrix of sources x targets."""
    if similarity.ndim != 2 or similarity.shape[0] != similarity.shape[1]:
        raise ValueError(f"need a square similarity matrix, got shape {similarity.shape}")
    n = similarity.shape[0]
    if n < 2:
        raise ValueError(f"retrieval needs at least 2 pairs (got {n}): with one candidate every P@k is 1.0")
    # P@k with k >= N candidates is 1.0 whatever the model: such k are left out, not reported as perfect.
    ks = tuple(kk for kk in ks if kk < n) or (1,)
    scores = method_scores(similarity, method, k)
    forward = precision_at_k(scores, ks)
    backward = precision_at_k(scores.T, ks)
    out: dict[str, float] = {}
    for kk in ks:
        out[f"p_at_{kk}"] = (forward[kk] + backward[kk]) / 2
        out[f"src2tgt_p_at_{kk}"] = forward[kk]
        out[f"tgt2src_p_at_{kk}"] = backward[kk]
    return out


def xsr_scores(
    src: np.ndarray, tgt: np.ndarray, method: Method = "nn", ks: tuple[int, ...] = (1, 5, 10)
) -> dict[str, float]:
    """XSR metrics from dense embeddings of aligned sources and targets (row i translates row i)."""
    if src.shape != tgt.shape:
        raise ValueError(f"source and target embeddings differ in shape: {src.shape} vs {tgt.shape}")
    return xsr_from_similarity(normalize_rows(src) @ normalize_rows(tgt).T, method, ks)


# ----------------------------------------------------------------------------------------------------
# Pooled protocol: queries against a large pool, never materialising the full score matrix.


def _rows(x: np.ndarray | sparse.spmatrix) -> np.ndarray | sparse.csr_matrix:
    """L2-normalised rows, float32, dense or CSR."""
    if sparse.issparse(x):
        x = sparse.csr_matrix(x, dtype=np.float32)
        norms = np.sqrt(np.asarray(x.multiply(x).sum(axis=1)).ravel())
        return sparse.csr_matrix(sparse.diags(1.0 / np.maximum(norms, 1e-12)) @ x)
    return np.ascontiguousarray(normalize_rows(x))


def _cos_block(a: np.ndarray | sparse.csr_matrix, b: np.ndarray | sparse.csr_matrix) -> np.ndarray:
    out = a @ b.T
    return np.asarray(out.todense() if sparse.issparse(out) else out, dtype=np.float32)


def search_device(encoder: Any) -> torch.device | None:
    """The GPU an encoder runs on (exact search there too), or None: search on the CPU with FAISS."""
    device = getattr(encoder, "device", None)
    return device if getattr(device, "type", None) == "cuda" else None


def exact_topk(
    queries: np.ndarray, base: np.ndarray, k: int, gpu: torch.device | None = None, rows: int | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """The ``k`` largest inner products of each query row with the rows of ``base`` (float32 (n, k) sims
    and int64 indices, best first): FAISS ``IndexFlatIP`` when ``gpu`` is None, else torch on that device,
    ``rows`` queries at a time (default: about 1 GB of scores per chunk)."""
    queries = np.ascontiguousarray(queries, dtype=np.float32)
    base = np.ascontiguousarray(base, dtype=np.float32)
    if gpu is None:
        import faiss

        index = faiss.IndexFlatIP(base.shape[1])
        index.add(base)
        sims, idx = index.search(queries, k)
        return sims.astype(np.float32), idx.astype(np.int64)
    import torch

    b = torch.from_numpy(base).to(gpu)
    rows = rows or max(1, 2**28 // max(1, len(base)))
    sims, idx = np.empty((len(queries), k), np.float32), np.empty((len(queries), k), np.int64)
    with torch.inference_mode():
        for start in range(0, len(queries), rows):
            q = torch.from_numpy(queries[start : start + rows]).to(gpu)
            top = torch.topk(q @ b.T, k, dim=1)
            sims[start : start + rows] = top.values.cpu().numpy()
            idx[start : start + rows] = top.indices.cpu().numpy()
    return sims, idx


def knn_mean_cosine(
    queries: np.ndarray | sparse.spmatrix,
    base: np.ndarray | sparse.spmatrix,
    k: int,
    block: int = 4096,
    gpu: torch.device | None = None,
) -> np.ndarray:
    """Mean cosine of each query row to its ``k`` nearest rows of ``base`` (:func:`exact_topk` for dense
    vectors, on ``gpu`` when given; blocked sparse products for lexical vectors, which FAISS cannot index)."""
    q, b = _rows(queries), _rows(base)
    k_eff = min(k, b.shape[0])
    if not sparse.issparse(q):
        sims, _ = exact_topk(q, b, k_eff, gpu)
        return sims.mean(axis=1).astype(np.float32)
    best = np.full((q.shape[0], k_eff), -np.inf, dtype=np.float32)
    for start in range(0, b.shape[0], block):
        merged = np.concatenate([best, _cos_block(q, b[start : start + block])], axis=1)
        best = -np.partition(-merged, k_eff - 1, axis=1)[:, :k_eff]
    return best.mean(axis=1)


def gold_ranks(
    queries: np.ndarray | sparse.spmatrix,
    pool: np.ndarray | sparse.spmatrix,
    gold: np.ndarray,
    method: Method = "nn",
    k: int | None = None,
    block: int = 8192,
    gpu: torch.device | None = None,
) -> np.ndarray:
    """0-based rank of ``pool[gold[i]]`` among all pool rows for query ``i`` under ``method``.

    Ties count against the query, as in :func:`precision_at_k`. CSLS/margin neighbourhoods: each query's k
    nearest pool rows, and each pool row's k nearest queries (the LASER/xsim convention). ``gpu``: dense
    vectors are searched and ranked there with torch.
    """
    check_method(method)
    q, p = _rows(queries), _rows(pool)
    gold = np.asarray(gold, dtype=np.int64)
    if gold.shape != (q.shape[0],) or gold.min(initial=0) < 0 or gold.max(initial=0) >= p.shape[0]:
        raise ValueError("gold must hold one valid pool index per query")
    k = DEFAULT_K[method] if k is None else k
    r_q = knn_mean_cosine(q, p, k, gpu=gpu) if method != "nn" else np.zeros(q.shape[0], np.float32)
    r_p = knn_mean_cosine(p, q, k, gpu=gpu) if method != "nn" else np.zeros(p.shape[0], np.float32)
    gold_cos = np.asarray(
        q.multiply(p[gold]).sum(axis=1) if sparse.issparse(q) else np.sum(q * p[gold], axis=1), np.float32
    ).ravel()
    gold_score = _score(gold_cos, r_q, r_p[gold], method)[:, None]
    # The gold's own entry in a block comes from a matrix product, whose rounding differs from the
    # row-wise product above: scores within ``tol`` of the gold score count as ties (against the query).
    tol = 1e-5 * np.maximum(np.abs(gold_score), 1.0)
    if gpu is not None and not sparse.issparse(q):
        return _count_above_gold(q, p, r_q, r_p, gold_score, tol, method, block, gpu)
    greater = np.zeros(q.shape[0], dtype=np.int64)
    equal = np.zeros(q.shape[0], dtype=np.int64)
    for start in range(0, p.shape[0], block):
        stop = min(start + block, p.shape[0])
        scores = adjust_scores(_cos_block(q, p[start:stop]), r_q, r_p[start:stop], method)
        greater += (scores > gold_score + tol).sum(axis=1)
        equal += (np.abs(scores - gold_score) <= tol).sum(axis=1)
    return greater + np.maximum(equal - 1, 0)


def _count_above_gold(
    q: np.ndarray,
    p: np.ndarray,
    r_q: np.ndarray,
    r_p: np.ndarray,
    gold_score: np.ndarray,
    tol: np.ndarray,
    method: str,
    block: int,
    gpu: torch.device,
) -> np.ndarray:
    """The rank loop of :func:`gold_ranks` in torch on ``gpu`` (the same sums, block by block)."""
    import torch

    def t(x: np.ndarray) -> torch.Tensor:
        return torch.from_numpy(np.ascontiguousarray(x)).to(gpu)

    qt, rq, rp, gold_t, tol_t = t(q), t(r_q)[:, None], t(r_p), t(gold_score), t(tol)
    greater = torch.zeros(q.shape[0], dtype=torch.int64, device=gpu)
    equal = torch.zeros_like(greater)
    with torch.inference_mode():
        for start in range(0, p.shape[0], block):
            stop = min(start + block, p.shape[0])
            scores = _score(qt @ t(p[start:stop]).T, rq, rp[None, start:stop], method)
            greater += (scores > gold_t + tol_t).sum(dim=1)
            equal += ((scores - gold_t).abs() <= tol_t).sum(dim=1)
    return (greater + (equal - 1).clamp_min(0)).cpu().numpy()


def precision_from_ranks(ranks: np.ndarray, ks: tuple[int, ...] = (1, 5, 10)) -> dict[str, float]:
    return {f"p_at_{k}": float(np.mean(ranks < k)) for k in ks}
