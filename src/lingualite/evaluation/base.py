"""What every evaluation task shares: embedding texts with any :class:`Encoder`, cosine scores, seeds.

Lexical baselines (TF-IDF) must be fitted before they encode; :func:`embed` does it on the texts the task
gives it (transductively, as a user would apply such a baseline), so every task treats dense and sparse
encoders alike. Each task module (``xsr``, ``classification``, ``pair_classification``, ``sts``, ``ir``,
``efficiency``) returns a flat ``dict`` of metrics whose keys are the names used by ``--json`` and the
report (``p_at_1``, ``accuracy``, ``spearman``, ``mrr_at_10``, ...).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from scipy import sparse

from lingualite.encoders.base import Encoder, fit_encoder

__all__ = ["Embeddings", "cosine_matrix", "embed", "mean_std", "paired_cosine", "to_dense"]

Embeddings = np.ndarray | sparse.csr_matrix


def embed(encoder: Encoder, *groups: Sequence[str]) -> list[Embeddings]:
    """Encode each group of texts (one ``encode`` call per group, repeated texts once); an encoder that needs
    fitting is first fitted on all groups together."""
    if callable(getattr(encoder, "fit", None)):
        fit_encoder(encoder, [t for group in groups for t in group])
    return [_encode_unique(encoder, list(group)) for group in groups]


def _encode_unique(encoder: Encoder, texts: list[str]) -> Embeddings:
    """Encode each distinct text once (STS and pair files repeat sentences many times) and index back."""
    unique = list(dict.fromkeys(texts))
    vectors = encoder.encode(unique)
    if len(unique) == len(texts):
        return vectors
    position = {text: i for i, text in enumerate(unique)}
    return vectors[np.array([position[t] for t in texts], dtype=np.int64)]


def to_dense(x: Embeddings) -> np.ndarray:
    """A float32 ndarray from dense or sparse embeddings."""
    if sparse.issparse(x):
        return np.asarray(x.todense(), dtype=np.float32)
    return np.asarray(x, dtype=np.float32)


def _normalized(x: Embeddings) -> Embeddings:
    if sparse.issparse(x):
        norms = np.sqrt(np.asarray(x.multiply(x).sum(axis=1)).ravel())
        return sparse.csr_matrix(sparse.diags(1.0 / np.maximum(norms, 1e-12)) @ x)
    x = np.asarray(x, dtype=np.float32)
    return x / np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1e-12)


def cosine_matrix(a: Embeddings, b: Embeddings) -> np.ndarray:
    """(len(a), len(b)) cosine similarities, dense or sparse inputs."""
    sim = _normalized(a) @ _normalized(b).T
    return np.asarray(sim.todense() if sparse.issparse(sim) else sim, dtype=np.float32)


def paired_cosine(a: Embeddings, b: Embeddings) -> np.ndarray:
    """cos(a_i, b_i) for each row i."""
    if a.shape != b.shape:
        raise ValueError(f"paired rows differ in shape: {a.shape} vs {b.shape}")
    an, bn = _normalized(a), _normalized(b)
    if sparse.issparse(an):
        return np.asarray(an.multiply(bn).sum(axis=1), dtype=np.float32).ravel()
    return np.sum(an * bn, axis=1).astype(np.float32)


def mean_std(values: Sequence[float]) -> tuple[float, float]:
    """Mean and population standard deviation (0 for one value), as plain floats."""
    arr = np.asarray(values, dtype=np.float64)
    if np.ptp(arr) == 0:  # identical runs (e.g. deterministic logreg): exactly 0, not a rounding residue
        return float(arr[0]), 0.0
    return float(arr.mean()), float(arr.std())
