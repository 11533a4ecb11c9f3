"""A second teacher for untranslated text of languages the first does not know (issue #43).

USE-m knows 16 languages, multilingual-e5-small about 100. A translation pair teaches any language through the
first teacher's vector of its English side, ``S(t) ~ T1(x)``; but untranslated text ``m`` of a language T1
does not know has no valid target ``T1(m)``. The second teacher T2 knows it, in its own space, so its vector is
carried into T1's space by an affine map fitted on untranslated text of languages both know:

    T1(m) ~ A T2(m) + b,   (A, b) = argmin sum_i ||A T2(m_i) + b - T1(m_i)||^2 + lambda ||A||^2

(ridge least squares: the linear map between two embedding spaces of Mikolov et al. 2013, "Exploiting
similarities among languages for machine translation", Eq. 1). A least-squares map shrinks its outputs
toward the mean, so each mapped row is scaled to T1's mean norm. A tenth of the fitting text is held out and
the map's mean cosine to T1 there is reported (``fit_map``'s stats); ``benchmarks/teacher_map.py`` measures how
well mapped vectors of a T2-only language retrieve T1's vectors of their English translations.
:func:`monolingual_targets` gives a run's untranslated lines their targets, each from the teacher of its file.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from sklearn.metrics.pairwise import paired_cosine_distances

from lingualite.core.errors import LinguaLiteError
from lingualite.recipes.distill.stages import teacher_vectors
from lingualite.recipes.distill.teacher import Teacher, load_teacher
from lingualite.recipes.distill.untranslated import MonolingualText

if TYPE_CHECKING:
    from lingualite.config.distill import DistillConfig
    from lingualite.training.run import RunOptions

__all__ = ["MIN_MAP_TEXTS", "SpaceMap", "fit_map", "monolingual_targets"]

logger = logging.getLogger(__name__)

MIN_MAP_TEXTS = 20
"""The fewest texts a map is fitted on (its held-out tenth needs a few rows)."""


@dataclass(frozen=True)
class SpaceMap:
    """``apply(x) = norm * (x A + b) / ||x A + b||``: the second teacher's vectors in the first one's space."""

    weight: np.ndarray  # (d2, d1)
    bias: np.ndarray  # (d1,)
    norm: float  # the first teacher's mean row norm

    def apply(self, vectors: np.ndarray) -> np.ndarray:
        mapped = np.asarray(vectors, dtype=np.float64) @ self.weight + self.bias
        lengths = np.linalg.norm(mapped, axis=1, keepdims=True)
        return (self.norm * mapped / np.maximum(lengths, 1e-12)).astype(np.float32)


def fit_map(
    second: np.ndarray, first: np.ndarray, seed: int = 0, ridge: float = 1e-4
) -> tuple[SpaceMap, dict[str, Any]]:
    """Fit the affine ridge map of the module docstring from ``second`` (N, d2) to ``first`` (N, d1), the two
    teachers' vectors of the same N texts; a seeded tenth (at least one row) is held out to measure it.

    :param ridge: lambda per row. Measured on 8,000 lines of USE-m's languages (e5-small -> USE-m, 2026-11-27):
        held-out cosine 0.46 at 1e-2, 0.59 at 1e-3, 0.64 at 1e-4 to 1e-6 (unit vectors in 384 dimensions have
        small per-axis variances, so a larger lambda flattens the map).
    :return: the map (refitted on all N rows) and its stats: rows, held-out mean cosine to ``first``.
    """
    if len(second) != len(first):
        raise LinguaLiteError(
            f"fit_map: {len(second)} second-teacher rows for {len(first)} first-teacher rows"
        )
    if len(second) < MIN_MAP_TEXTS:
        raise LinguaLiteError(
            f"fit_map: {len(second)} texts of languages both teachers know; at least {MIN_MAP_TEXTS}"
        )
    x, y = np.asarray(second, dtype=np.float64), np.asarray(first, dtype=np.float64)
    order = np.random.default_rng(seed).permutation(len(x))
    held = order[: max(1, len(x) // 10)]
    fit = order[len(held) :]
    held_out = _solve(x[fit], y[fit], ridge)
    cosine = float(np.mean(1 - paired_cosine_distances(held_out.apply(x[held]), y[held])))
    full = _solve(x, y, ridge)
    return full, {"texts": len(x), "held_out": len(held), "held_out_cosine": round(cosine, 4)}


def _solve(x: np.ndarray, y: np.ndarray, ridge: float) -> SpaceMap:
    mean_x, mean_y = x.mean(axis=0), y.mean(axis=0)
    xc, yc = x - mean_x, y - mean_y
    # numpy's solve rather than scikit-learn's Ridge: one d2 x d2 system, and no fitted object to keep
    weight = np.linalg.solve(xc.T @ xc + ridge * len(x) * np.eye(x.shape[1]), xc.T @ yc)
    bias = mean_y - mean_x @ weight
    return SpaceMap(weight, bias, float(np.mean(np.linalg.norm(y, axis=1))))


def monolingual_targets(
    cfg: DistillConfig,
    teacher: Teacher,
    mono: MonolingualText,
    cache_dir: Path,
    opts: RunOptions,
    summary: dict[str, Any],
) -> np.ndarray:
    """The first teacher's vectors of the monolingual sentences it knows the language of, and
    ``teacher.second``'s, mapped into its space, of the others (:mod:`lingualite.recipes.distill.second_teacher`)."""
    first = [s for s, other in zip(mono.sentences, mono.second, strict=True) if not other]
    if not mono.second.any():
        return teacher_vectors(teacher, first, cache_dir, "monolingual", opts.progress, summary)
    name = cfg.teacher.second
    assert name is not None  # read_monolingual marks none without it
    leave_out = f"(teacher.second: null leaves the files of languages {cfg.teacher.name} does not know out)"
    if len(first) < MIN_MAP_TEXTS:
        raise LinguaLiteError(
            f"teacher.second {name!r}: its map is fitted on untranslated text of languages both teachers know, "
            f"and data.monolingual_files has {len(first)} such lines (at least {MIN_MAP_TEXTS}) {leave_out}"
        )
    try:  # before the first teacher's long encoding: a missing package is said at once
        second = load_teacher(name, cfg.teacher.max_seq_length, cfg.teacher.batch_size, opts.device)
    except LinguaLiteError as exc:
        raise LinguaLiteError(f"teacher.second: {exc} {leave_out}") from exc
    vectors = teacher_vectors(teacher, first, cache_dir, "monolingual", opts.progress, summary)
    sample = np.random.default_rng(cfg.seed).permutation(len(first))[: cfg.teacher.map_sentences]
    sample.sort()
    fit_second = teacher_vectors(second, [first[i] for i in sample], cache_dir, "map", opts.progress, summary)
    space_map, summary["second_teacher"] = fit_map(fit_second, vectors[sample], cfg.seed)
    others = [s for s, other in zip(mono.sentences, mono.second, strict=True) if other]
    mapped = space_map.apply(teacher_vectors(second, others, cache_dir, "second", opts.progress, summary))
    summary["second_teacher"].update(name=second.name, sentences=len(others))
    logger.info(
        "second teacher %s: %d sentences; map %s", second.name, len(others), summary["second_teacher"]
    )
    out = np.empty((len(mono.sentences), vectors.shape[1]), dtype=np.float32)
    out[~mono.second], out[mono.second] = vectors, mapped
    return out
