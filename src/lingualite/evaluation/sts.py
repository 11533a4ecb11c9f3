"""Semantic textual similarity (STS): rank correlation of cos(u, v) with gold similarity scores.

The protocol of STS benchmarks (STS-B; Cer et al., SemEval 2017) as run by SentEval (Conneau & Kiela,
2018) and sentence-transformers (Reimers & Gurevych, 2019): embed both sentences, score each pair by cosine
similarity, report Spearman's and Pearson's correlation with the gold scores. No training; cross-lingual STS
is the same computation with the two sides in different languages. The numbers equal sentence-transformers'
``EmbeddingSimilarityEvaluator`` (``spearman_cosine``/``pearson_cosine``) on the same data (tested).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from scipy.stats import pearsonr, spearmanr

from lingualite.encoders.base import Encoder
from lingualite.evaluation.base import embed, paired_cosine

__all__ = ["evaluate_sts", "sts_correlations"]


def sts_correlations(predicted: Sequence[float], gold: Sequence[float]) -> dict[str, float]:
    """Spearman and Pearson correlation of ``predicted`` similarities with ``gold`` scores.

    A constant ``predicted`` (a collapsed encoder) has no defined correlation: both are NaN.

    :param predicted: one model similarity per pair.
    :param gold: one gold score per pair, not all equal.
    """
    pred = np.asarray(predicted, dtype=np.float64)
    if np.ptp(pred) == 0:
        return {"spearman": math.nan, "pearson": math.nan}
    return {
        "spearman": float(spearmanr(gold, pred).statistic),
        "pearson": float(pearsonr(gold, pred).statistic),
    }


def evaluate_sts(
    encoder: Encoder, s1: Sequence[str], s2: Sequence[str], scores: Sequence[float]
) -> dict[str, float]:
    """Spearman and Pearson correlation between cos(encode(s1[i]), encode(s2[i])) and ``scores[i]``.

    :param encoder: any :class:`~lingualite.encoders.base.Encoder`; one that needs fitting (TF-IDF)
        is fitted on both sides.
    :param s1: first sentence of each pair.
    :param s2: second sentence of each pair (same length as ``s1``).
    :param scores: gold similarity of each pair (any scale, e.g. 0-5); at least two distinct values.
    :return: ``spearman``, ``pearson`` (NaN when the encoder gives every pair the same cosine) and
        ``num_pairs``.
    """
    if not len(s1) == len(s2) == len(scores):
        raise ValueError(
            f"STS needs one gold score per sentence pair: got {len(s1)} first sentences, {len(s2)} second "
            f"sentences and {len(scores)} scores"
        )
    if len(scores) < 2:
        raise ValueError(f"STS needs at least 2 sentence pairs for a correlation, got {len(scores)}")
    gold = np.asarray(scores, dtype=np.float64)
    if not np.all(np.isfinite(gold)):
        raise ValueError("STS gold scores must be finite numbers (found NaN or infinity)")
    if np.ptp(gold) == 0:
        raise ValueError(
            f"every STS gold score is {gold[0]}: a correlation needs at least two distinct scores"
        )
    u, v = embed(encoder, s1, s2)
    return {**sts_correlations(paired_cosine(u, v), gold), "num_pairs": len(gold)}
