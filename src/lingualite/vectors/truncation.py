"""Truncatable (Matryoshka) sentence vectors: the one truncation rule.

A model trained with ``matryoshka_dims`` (Kusupati et al., *Matryoshka Representation Learning*, NeurIPS 2022;
sentence-transformers' ``MatryoshkaLoss``) keeps most of its quality in the first ``d`` components of its
vectors. Every place that shortens vectors (``lingualite encode --dimensions``, ``index build --dimensions``
and its queries, the Python :func:`lingualite.encode`, the service) goes through :func:`truncate`: keep the
first ``d`` components, then L2-renormalise when the caller normalises (a prefix of a unit vector is shorter
than 1; cosine needs it renormalised). Whether a model was trained for ``d`` is the model's business:
:mod:`lingualite.encoders.matryoshka_dims`.
"""

from __future__ import annotations

import numpy as np

from lingualite.core.errors import LinguaLiteError

__all__ = ["truncate"]


def truncate(vectors: np.ndarray, dimensions: int | None, normalize: bool) -> np.ndarray:
    """The first ``dimensions`` components of each row (all when None), L2-renormalised when ``normalize``
    (a zero row stays zero). Returns a new float32 array; ``vectors`` is not changed."""
    vectors = np.asarray(vectors, dtype=np.float32)
    if dimensions is not None:
        if not 1 <= dimensions <= vectors.shape[-1]:
            raise LinguaLiteError(
                f"--dimensions {dimensions}: must be between 1 and the vectors' dimension {vectors.shape[-1]}"
            )
        vectors = vectors[..., :dimensions]
    out = np.array(vectors, dtype=np.float32, copy=True)
    if normalize:
        out /= np.maximum(np.linalg.norm(out, axis=-1, keepdims=True), 1e-12)
    return out
