"""Ratio-margin bitext mining from k-nearest-neighbour lists (Artetxe & Schwenk 2019, "Margin-based Parallel
Corpus Mining with Multilingual Sentence Embeddings", Sec. 3.1; the scoring LASER, WikiMatrix and CCMatrix use).

For a source sentence x and a target sentence y::

    margin(x, y) = cos(x, y) / ( (sum_{z in NN_k(x)} cos(x, z) / 2k) + (sum_{z in NN_k(y)} cos(y, z) / 2k) )

where NN_k(x) are x's k nearest targets and NN_k(y) y's k nearest sources (eq. 2 with the ratio of
eq. 3 of the paper). Candidates are each source's nearest targets (forward) and each target's nearest
sources (backward). Modes, as in LASER's ``mine_bitexts.py``:

- ``forward``: every source with its best-scoring candidate target;
- ``backward``: every target with its best-scoring candidate source;
- ``intersect``: pairs that are the best of both directions;
- ``max``: the forward and backward bests together, best score first, a sentence used at most once.

``one_to_one`` applies the same greedy rule (best first, each source and each target at most once) to the
other modes; ``max`` is always one-to-one. ``threshold`` keeps pairs whose margin is at least that value.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from lingualite.core.errors import check_finite

Mode = Literal["forward", "backward", "intersect", "max"]
MODES: tuple[str, ...] = ("forward", "backward", "intersect", "max")


@dataclass
class Neighbours:
    """k nearest neighbours of each query row: cosines (n, K), best first, and indices (n, K) into the other
    side (-1 where the other side has fewer than K rows)."""

    sims: np.ndarray
    idx: np.ndarray

    def __len__(self) -> int:
        return len(self.sims)

    def neighbourhood_mean(self, k: int) -> np.ndarray:
        """Mean cosine to the ``k`` nearest (the margin's denominator terms); fewer when fewer exist."""
        top = self.sims[:, :k]
        valid = self.idx[:, :k] >= 0
        return np.where(valid, top, 0.0).sum(axis=1) / np.maximum(valid.sum(axis=1), 1)


@dataclass
class MinedBitext:
    """Mined pairs, best first: source row ``src[i]`` ~ target row ``tgt[i]`` with its margin and cosine."""

    src: np.ndarray
    tgt: np.ndarray
    score: np.ndarray
    cosine: np.ndarray

    def __len__(self) -> int:
        return len(self.src)


def margin(cos: np.ndarray, r_src: np.ndarray, r_tgt: np.ndarray) -> np.ndarray:
    """The ratio margin: cos / ((r_src + r_tgt) / 2), r = mean cosine to the k nearest of the other side."""
    return cos / np.maximum((r_src + r_tgt) / 2, 1e-6)


Best = tuple[
    np.ndarray, np.ndarray, np.ndarray
]  # per query: best candidate (-1: none), its margin, its cosine


def best_candidates(nn: Neighbours, r_query: np.ndarray, r_other: np.ndarray) -> Best:
    """Each query's best candidate by margin, given the queries' and all candidates' neighbourhood means
    (``r_other`` is indexed by candidate: the whole other side, one float per sentence)."""
    safe = np.maximum(nn.idx, 0)
    scores = margin(nn.sims, r_query[:, None], r_other[safe])
    scores = np.where(nn.idx >= 0, scores, -np.inf)
    col = np.argmax(scores, axis=1)
    rows = np.arange(len(nn))
    return nn.idx[rows, col], scores[rows, col].astype(np.float32), nn.sims[rows, col].astype(np.float32)


def _greedy_one_to_one(src: np.ndarray, tgt: np.ndarray, order: np.ndarray) -> np.ndarray:
    """Positions (in ``order``) of pairs kept when each source and target may be used once, best first.
    "Used" marks are one byte per sentence (not Python sets: 1M x 1M mining keeps this under 3 MB)."""
    used_src = np.zeros(int(src.max(initial=-1)) + 1, dtype=bool)
    used_tgt = np.zeros(int(tgt.max(initial=-1)) + 1, dtype=bool)
    keep = np.zeros(len(order), dtype=bool)
    for n, (s, t) in enumerate(zip(src[order].tolist(), tgt[order].tolist(), strict=True)):
        if not (used_src[s] or used_tgt[t]):
            used_src[s] = used_tgt[t] = keep[n] = True
    return order[keep]


def select_pairs(
    forward: Neighbours,
    backward: Neighbours,
    k: int = 4,
    mode: str = "max",
    threshold: float | None = None,
    one_to_one: bool = True,
) -> MinedBitext:
    """Mine pairs from the forward (sources -> targets) and backward (targets -> sources) neighbour lists.

    :param k: neighbourhood size of the margin (the first ``k`` of each list; lists may be longer, which only
        adds candidates).
    """
    check_mode(mode, k)
    r_src, r_tgt = forward.neighbourhood_mean(k), backward.neighbourhood_mean(k)
    return combine(
        best_candidates(forward, r_src, r_tgt),
        best_candidates(backward, r_tgt, r_src),
        mode,
        threshold,
        one_to_one,
    )


def check_mode(mode: str, k: int) -> None:
    if mode not in MODES:
        raise ValueError(f"unknown mining mode {mode!r}; choose from {', '.join(MODES)}")
    if k < 1:
        raise ValueError(f"the margin's neighbourhood k must be >= 1, got {k}")


def combine(
    forward: Best, backward: Best, mode: str = "max", threshold: float | None = None, one_to_one: bool = True
) -> MinedBitext:
    """Pairs from each source's best target (``forward``) and each target's best source (``backward``)
    under ``mode``, best first (see the module docstring). Memory: a few numbers per sentence."""
    fwd_tgt, fwd_score, fwd_cos = forward
    bwd_src, bwd_score, bwd_cos = backward
    fwd_src, bwd_tgt = np.arange(len(fwd_tgt)), np.arange(len(bwd_src))
    if mode == "forward":
        src, tgt, score, cos = fwd_src, fwd_tgt, fwd_score, fwd_cos
    elif mode == "backward":
        src, tgt, score, cos = bwd_src, bwd_tgt, bwd_score, bwd_cos
    elif mode == "intersect":
        agree = (fwd_tgt >= 0) & (bwd_src[np.maximum(fwd_tgt, 0)] == fwd_src)
        src, tgt, score, cos = fwd_src[agree], fwd_tgt[agree], fwd_score[agree], fwd_cos[agree]
    else:
        src = np.concatenate([fwd_src, bwd_src])
        tgt = np.concatenate([fwd_tgt, bwd_tgt])
        score = np.concatenate([fwd_score, bwd_score])
        cos = np.concatenate([fwd_cos, bwd_cos])
    valid = (src >= 0) & (tgt >= 0)
    if check_finite(threshold, "threshold") is not None:
        valid &= score.astype(np.float64) >= threshold  # float64: -1e308 is a threshold, not an overflow
    src, tgt, score, cos = src[valid], tgt[valid], score[valid], cos[valid]
    order = np.lexsort((tgt, src, -score))  # best first; ties broken by position, deterministically
    if one_to_one or mode == "max":
        order = _greedy_one_to_one(src, tgt, order)
    return MinedBitext(
        src=src[order].astype(np.int64),
        tgt=tgt[order].astype(np.int64),
        score=score[order].astype(np.float32),
        cosine=cos[order].astype(np.float32),
    )


def mixture_threshold(scores: np.ndarray, min_scores: int = 50, seed: int = 0) -> float | None:
    """An unsupervised margin threshold for mined candidates, most of which are not translations.

    A two-component Gaussian mixture (scikit-learn) over the log margins: the threshold is the lowest
    score above the lower component's mean whose posterior of the higher component is >= 0.5 (the usual
    two-population cut; no gold pairs). None (keep all) when there are fewer than ``min_scores`` scores or
    no score is more likely high than low.
    """
    from sklearn.mixture import GaussianMixture

    if len(scores) < min_scores:
        return None
    x = np.log(np.maximum(np.asarray(scores, np.float64), 1e-6)).reshape(-1, 1)
    mixture = GaussianMixture(2, random_state=seed).fit(x)
    high = int(np.argmax(mixture.means_.ravel()))
    grid = np.unique(x.ravel())
    grid = grid[grid >= mixture.means_.ravel()[1 - high]]
    above = np.flatnonzero(mixture.predict_proba(grid.reshape(-1, 1))[:, high] >= 0.5)
    return float(np.exp(grid[above[0]])) if len(above) else None


def mine_embeddings(
    src: np.ndarray,
    tgt: np.ndarray,
    k: int = 4,
    mode: str = "max",
    threshold: float | None = None,
    one_to_one: bool = True,
    candidates: int | None = None,
    gpu: Any = None,
) -> MinedBitext:
    """Mine pairs between two sets of vectors held in memory (dense, or sparse for lexical baselines).

    :param candidates: neighbours looked at per sentence (default ``k``); the margin uses the first ``k``.
    :param gpu: a CUDA ``torch.device``: the exact search runs there (:func:`lingualite.mining.knn.knn`).
    """
    from lingualite.mining.knn import knn

    depth = max(k, candidates or k)
    forward = Neighbours(*knn(src, tgt, depth, gpu=gpu))
    backward = Neighbours(*knn(tgt, src, depth, gpu=gpu))
    return select_pairs(forward, backward, k, mode, threshold, one_to_one)
