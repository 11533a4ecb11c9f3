"""The setup stages of a distillation run, each resumable: teacher vectors and the PCA projection (the
vocabulary stage is every recipe's, :mod:`lingualite.training.vocabulary`).

Each stage records what it did (sizes, timings, fidelity) in the run's ``summary`` dict, which
:func:`lingualite.recipes.distill.train_distill.train_distill` writes to ``summary.json``.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any

import numpy as np

from lingualite.config.distill import DistillConfig
from lingualite.core.errors import LinguaLiteError
from lingualite.core.progress import progress_bar
from lingualite.recipes.distill.pca import (
    Projection,
    cosine_fidelity,
    fit_projection,
    load_projection,
    save_projection,
)
from lingualite.recipes.distill.teacher import Teacher, encode_cached

logger = logging.getLogger(__name__)


def teacher_vectors(
    teacher: Teacher, texts: list[str], cache_dir: Path, what: str, progress: bool, summary: dict[str, Any]
) -> np.ndarray:
    t0 = time.perf_counter()
    with progress_bar(f"teacher ({what})", progress) as bar:
        task = bar.add_task(what, total=len(texts), info="")
        vectors = encode_cached(teacher, texts, cache_dir, lambda done, _: bar.update(task, completed=done))
    seconds = time.perf_counter() - t0
    summary.setdefault("teacher_encoding", {})[what] = {
        "sentences": len(texts),
        "seconds": round(seconds, 2),
        "sentences_per_second": round(len(texts) / max(seconds, 1e-9), 1),
    }
    logger.info(
        "teacher %s: %d %s sentences -> %s in %.0f s", teacher.name, len(texts), what, vectors.shape, seconds
    )
    return vectors


def prepare_projection(
    cfg: DistillConfig, vectors: np.ndarray, out: Path, resume: bool, summary: dict[str, Any]
) -> Projection | None:
    """Fit PCA on (a seeded sample of) the training teacher vectors, or reload ``out/pca`` on resume."""
    if not cfg.pca.enabled:
        summary["pca"] = {"enabled": False, "dim": int(vectors.shape[1])}
        return None
    folder = out / "pca"
    if resume and (folder / "config.json").exists():
        projection = load_projection(folder)
        summary["pca"] = {"enabled": True, "reloaded": True, "dim": projection.out_dim}
        return projection
    rng = np.random.default_rng(cfg.seed)
    fit_on = vectors
    if len(vectors) > cfg.pca.fit_sentences:
        fit_on = vectors[np.sort(rng.choice(len(vectors), cfg.pca.fit_sentences, replace=False))]
    try:
        projection, _ = fit_projection(fit_on, cfg.pca.dim, center=cfg.pca.center, seed=cfg.seed)
    except ValueError as exc:
        raise LinguaLiteError(str(exc)) from exc
    fidelity = cosine_fidelity(vectors, projection, seed=cfg.seed)
    save_projection(projection, folder)
    method = "centred PCA (bias = -W mean)" if cfg.pca.center else "uncentred PCA (TruncatedSVD, no bias)"
    logger.info(
        "reduced %d -> %d with %s: explained variance %.3f, kept %.3f of the squared norm, "
        "cosine correlation with the full vectors %.3f",
        projection.in_dim,
        projection.out_dim,
        method,
        projection.explained_variance,
        projection.kept_energy,
        fidelity,
    )
    summary["pca"] = {
        "enabled": True,
        "method": method,
        "from_dim": projection.in_dim,
        "dim": projection.out_dim,
        "fitted_on": len(fit_on),
        "explained_variance": round(projection.explained_variance, 4),
        "kept_energy": round(projection.kept_energy, 4),
        "cosine_correlation": round(fidelity, 4),
    }
    return projection
