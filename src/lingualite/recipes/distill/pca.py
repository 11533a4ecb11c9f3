"""Shrink the teacher's vectors with PCA before distillation (paper 002, Sec. 5.2), as a Dense layer.

Paper 002 learns "an additional layer on top of the teacher" with PCA on teacher vectors of training
sentences, so teacher and student share a smaller space (768 -> 128: the student's embedding matrix and every
stored vector shrink six-fold). The layer is a sentence-transformers ``Dense`` module with an identity
activation, so the reduced teacher is an ordinary sentence-transformers model.

Centring. A bias-free ``Dense`` computes ``y = W x`` and cannot subtract PCA's mean. Two exact choices:

* ``center=False`` (default): uncentred PCA, i.e. scikit-learn's ``TruncatedSVD``: ``W`` = the top right
  singular vectors of the raw teacher vectors, and ``TruncatedSVD.transform(x) == W x`` exactly; the Dense layer
  is bias-free. Of all rank-k orthogonal projections it reconstructs the raw vectors best, so it keeps the
  teacher's dot products and cosines (what a sentence-transformers teacher is trained for) best.
* ``center=True``: classic ``PCA``: ``PCA.transform(x) == W (x - mean) == W x - W mean``; the constant
  ``-W mean`` is the Dense layer's bias. Vectors then lose their shared mean direction, which changes the
  teacher's cosines (sometimes for the better in retrieval: the shared component only adds to every score).

(The sentence-transformers example ``dimensionality_reduction.py`` puts centred components in a bias-free
layer: the result is neither projection above, ``PCA.transform(x) + W mean``.)
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn


@dataclass
class Projection:
    """A linear map ``y = x @ components.T + bias`` fitted on teacher vectors.

    :param components: (k, d) orthonormal rows.
    :param bias: (k,) ``-components @ mean`` for centred PCA, None for uncentred (bias-free).
    :param explained_variance: share of the teacher vectors' variance (around their mean) that the k
        coordinates keep: scikit-learn's ``explained_variance_ratio_`` summed.
    :param kept_energy: share of the squared norm of the (uncentred) vectors the projection keeps.
    """

    components: np.ndarray
    bias: np.ndarray | None
    explained_variance: float
    kept_energy: float

    def __post_init__(self) -> None:
        # One memory layout whatever made the projection (a fresh fit gives Fortran-ordered rows, a reload
        # C-ordered): BLAS rounds differently per layout, and a resumed run must see the same targets.
        self.components = np.ascontiguousarray(self.components, dtype=np.float32)

    @property
    def in_dim(self) -> int:
        return int(self.components.shape[1])

    @property
    def out_dim(self) -> int:
        return int(self.components.shape[0])

    def apply(self, vectors: np.ndarray) -> np.ndarray:
        """The projection in numpy (for teachers that are not sentence-transformers models)."""
        out = np.asarray(vectors, dtype=np.float32) @ self.components.T
        if self.bias is not None:
            out += self.bias.astype(np.float32)
        return out


def fit_projection(
    vectors: np.ndarray, dim: int, center: bool = False, seed: int = 0
) -> tuple[Projection, Any]:
    """Fit uncentred (``TruncatedSVD``) or centred (``PCA``) PCA; returns the projection and the fitted
    scikit-learn estimator (whose ``transform`` the projection reproduces exactly).

    :param vectors: (N, d) teacher vectors of training sentences, N > dim.
    :param dim: target dimension, below d.
    """
    from sklearn.decomposition import PCA, TruncatedSVD

    x = np.asarray(vectors, dtype=np.float64)
    n, d = x.shape
    if not 1 <= dim < d:
        raise ValueError(f"pca.dim must be between 1 and the teacher's dimension - 1 ({d - 1}), got {dim}")
    if n <= dim:
        raise ValueError(f"PCA to {dim} dimensions needs more than {dim} teacher vectors, got {n}")
    if center:
        estimator: Any = PCA(n_components=dim, svd_solver="full", random_state=seed).fit(x)
        bias = -(estimator.components_ @ estimator.mean_)
    else:
        estimator = TruncatedSVD(n_components=dim, algorithm="randomized", n_iter=10, random_state=seed).fit(
            x
        )
        bias = None
    components = np.asarray(estimator.components_, dtype=np.float32)
    projected = x @ components.T.astype(np.float64)
    kept = float((projected**2).sum() / max((x**2).sum(), 1e-30))
    total_var = float(x.var(axis=0).sum())
    explained = float(projected.var(axis=0).sum() / max(total_var, 1e-30))
    return Projection(
        components, None if bias is None else bias.astype(np.float32), explained, kept
    ), estimator


def projection_to_dense(projection: Projection) -> Any:
    """A sentence-transformers ``Dense`` module computing the projection (identity activation; bias only
    for centred PCA)."""
    from sentence_transformers.sentence_transformer.modules import Dense

    has_bias = projection.bias is not None
    return Dense(
        in_features=projection.in_dim,
        out_features=projection.out_dim,
        bias=has_bias,
        activation_function=nn.Identity(),
        init_weight=torch.tensor(projection.components, dtype=torch.float32),
        init_bias=torch.tensor(projection.bias, dtype=torch.float32) if has_bias else None,
    )


def projection_from_dense(dense: Any) -> Projection:
    """Read a projection back from a ``Dense`` module (e.g. ``<output>/pca`` on resume)."""
    weight = dense.linear.weight.detach().cpu().numpy().astype(np.float32)
    bias = (
        dense.linear.bias.detach().cpu().numpy().astype(np.float32) if dense.linear.bias is not None else None
    )
    return Projection(weight, bias, float("nan"), float("nan"))


def save_projection(projection: Projection, folder: str | Path) -> Path:
    """Write the Dense module folder (``config.json`` + ``model.safetensors``)."""
    from lingualite.core.io_utils import atomic_dir

    folder = Path(folder)
    with atomic_dir(folder) as tmp:
        projection_to_dense(projection).save(str(tmp), safe_serialization=True)
    return folder


def load_projection(folder: str | Path) -> Projection:
    from sentence_transformers.sentence_transformer.modules import Dense

    return projection_from_dense(Dense.load(str(folder)))


def append_to_teacher(st_model: Any, projection: Projection) -> Any:
    """A new ``SentenceTransformer``: the teacher's modules followed by the projection's Dense layer."""
    from sentence_transformers import SentenceTransformer

    modules = [module for _, module in st_model.named_children()]
    return SentenceTransformer(modules=[*modules, projection_to_dense(projection)], device="cpu")


def cosine_fidelity(vectors: np.ndarray, projection: Projection, sample: int = 1000, seed: int = 0) -> float:
    """Pearson correlation of pairwise cosines before and after the projection, on a seeded sample."""
    rng = np.random.default_rng(seed)
    x = np.asarray(vectors, dtype=np.float64)
    if len(x) > sample:
        x = x[rng.choice(len(x), sample, replace=False)]

    def cosines(v: np.ndarray) -> np.ndarray:
        v = v / np.maximum(np.linalg.norm(v, axis=1, keepdims=True), 1e-12)
        return (v @ v.T)[np.triu_indices(len(v), 1)]

    return float(np.corrcoef(cosines(x), cosines(projection.apply(x).astype(np.float64)))[0, 1])
