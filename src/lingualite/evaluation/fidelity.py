"""Teacher fidelity (issue 40, item 1): how closely a student reproduces its teacher's vectors, on any text.

The mean cosine between the student's vector ``S(x)`` and the teacher's vector ``T(x)`` projected into the
student's space, ``P T(x)``. That direction is the student's own training target (``MSE(S(x), P T(x))`` after
the recipe's PCA): it measures how well the student reproduces what it was taught, without charging it for the
dimensions the PCA removed (the other direction, lifting ``S`` back to the teacher's space, multiplies the score
by the PCA's own loss, reported apart as :func:`pca_ceiling`: the mean ``|P T(x)| / |T(x)|``). ``P`` is the
run's ``pca/`` layer when the model folder has it (exact, :func:`exact_projection`); the identity when student
and teacher have the same dimension and no PCA; otherwise (the packaged models ship without their PCA layer)
:func:`fit_orthogonal_projection`, a map of the PCA's form fitted on training-split sentences, never on the
text it is scored on. It needs no translation, so it works on monolingual text of any register.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

__all__ = [
    "Projection",
    "exact_projection",
    "fidelity_table",
    "fit_orthogonal_projection",
    "pca_ceiling",
    "teacher_fidelity",
]


@dataclass
class Projection:
    """``y = x @ components.T (+ bias)``: the teacher's vectors in the student's space, and how it was made."""

    components: np.ndarray  # (student_dim, teacher_dim)
    bias: np.ndarray | None
    how: str

    def apply(self, x: np.ndarray) -> np.ndarray:
        y = np.asarray(x, dtype=np.float32) @ self.components.T.astype(np.float32)
        return y if self.bias is None else y + self.bias.astype(np.float32)


def _unit(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, dtype=np.float64)
    return x / np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1e-12)


def fit_orthogonal_projection(teacher: np.ndarray, student: np.ndarray) -> Projection:
    """A map of the recipe's form (uncentred PCA: ``student_dim`` orthonormal rows) fitted without the run's
    PCA layer: the rows span the top ``student_dim`` uncentred principal directions of the teacher's vectors
    (what the recipe's PCA keeps; from the teacher alone), turned by the rotation that best sends the teacher's
    coordinates there onto the student's vectors (square orthogonal Procrustes, exact for a student that is
    that PCA up to a rotation). Needs student_dim <= teacher_dim and more sentences than student_dim."""
    from scipy.linalg import orthogonal_procrustes

    t, s = np.asarray(teacher, dtype=np.float64), np.asarray(student, dtype=np.float64)
    k = s.shape[1]
    if k > t.shape[1]:
        raise ValueError(f"the student ({k}-d) is wider than the teacher ({t.shape[1]}-d)")
    if len(t) <= k:
        raise ValueError(f"{len(t)} sentences cannot fit a {k}-d projection; give more calibration text")
    basis = np.linalg.svd(t, full_matrices=False)[2][:k]  # (k, dt), uncentred PCA of the teacher
    z = _unit(t @ basis.T)
    rotation = orthogonal_procrustes(z, _unit(s))[0].T  # (k, k): z @ rotation.T ~ the student's vectors
    return Projection(
        (rotation @ basis).astype(np.float32),
        None,
        f"fitted: the teacher's top-{k} uncentred principal directions turned onto the student by orthogonal "
        f"Procrustes, on {len(t)} training-split sentences",
    )


def exact_projection(folder: Path) -> Projection | None:
    """The recipe's PCA layer of a run folder (``<folder>/pca``), or None."""
    pca = Path(folder) / "pca"
    if not (pca / "config.json").is_file():
        return None
    from lingualite.recipes.distill.pca import load_projection

    p = load_projection(pca)
    return Projection(p.components, p.bias, f"the run's PCA layer ({pca})")


def teacher_fidelity(student: np.ndarray, teacher: np.ndarray, projection: Projection | None) -> np.ndarray:
    """Per text, cos(S(x), P T(x)) (``projection`` None: the identity, same dimensions)."""
    target = np.asarray(teacher, dtype=np.float32) if projection is None else projection.apply(teacher)
    if target.shape != np.asarray(student).shape:
        raise ValueError(f"student {np.asarray(student).shape} vs projected teacher {target.shape}")
    return np.sum(_unit(student) * _unit(target), axis=1)


def pca_ceiling(teacher: np.ndarray, projection: Projection | None) -> np.ndarray:
    """Per text, ``|P T(x)| / |T(x)|`` (orthonormal rows, no bias: the cosine between T(x) and its projection
    lifted back); 1.0 for the identity."""
    t = np.asarray(teacher, dtype=np.float64)
    if projection is None:
        return np.ones(len(t))
    return np.linalg.norm(_unit(t) @ projection.components.T.astype(np.float64), axis=1)


def fidelity_table(
    student: Callable[[list[str]], np.ndarray],
    teacher: Callable[[list[str]], np.ndarray],
    texts: Mapping[str, Mapping[str, list[str]]],
    projection: Projection | None,
) -> dict[str, Any]:
    """Mean fidelity per register and language (and each's mean), with the projection's ceiling."""
    by_reg: dict[str, dict[str, float]] = {}
    ceiling: dict[str, dict[str, float]] = {}
    for reg, by_lang in texts.items():
        for lang, items in by_lang.items():
            if not items:
                continue
            t = teacher(items)
            by_reg.setdefault(reg, {})[lang] = round(
                float(teacher_fidelity(student(items), t, projection).mean()), 4
            )
            ceiling.setdefault(reg, {})[lang] = round(float(pca_ceiling(t, projection).mean()), 4)
    langs = sorted({lang for row in by_reg.values() for lang in row})
    by_lang = {
        lang: round(float(np.mean([row[lang] for row in by_reg.values() if lang in row])), 4)
        for lang in langs
    }
    return {
        "projection": "identity (same dimensions)" if projection is None else projection.how,
        "by_register": by_reg,
        "by_language": by_lang,
        "pca_ceiling": ceiling,
    }
