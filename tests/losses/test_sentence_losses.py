"""Sentence-level contrastive objectives (Eq. 5, 6) and the weighted sum (Eq. 7), computed by hand."""

from __future__ import annotations

import math

import pytest
import torch

from lingualite.losses import CombinedLoss, ObjectiveConfig, SentenceAlignmentLoss, SentenceSimilarityLoss
from lingualite.models.batch import PairBatch
from lingualite.models.dual_encoder import EncoderOutput

U = [[1.0, 0.0], [0.0, 1.0]]
V = [[1.0, 0.5], [0.2, 0.8]]


def dot(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


def softmax_row(scores: list[float]) -> list[float]:
    z = sum(math.exp(s) for s in scores)
    return [math.exp(s) / z for s in scores]


def out() -> EncoderOutput:
    return EncoderOutput(embeddings=torch.tensor(U + V), site_log_probs=None)


def empty_batch() -> PairBatch:
    z = torch.zeros(0, dtype=torch.long)
    return PairBatch(
        torch.zeros((4, 2), dtype=torch.long),
        torch.ones((4, 2), dtype=torch.long),
        z,
        z,
        z,
        z,
        z,
        torch.zeros(0),
    )


def test_alignment_eq5_both_directions_mean_over_pairs() -> None:
    total = 0.0
    for j in range(2):
        row = softmax_row([dot(U[j], V[k]) for k in range(2)])  # u_j against every v_k
        col = softmax_row([dot(U[k], V[j]) for k in range(2)])  # every u_k against v_j
        total += -math.log(row[j]) - math.log(col[j])
    expected = total / 2
    assert SentenceAlignmentLoss()(out(), empty_batch()).item() == pytest.approx(expected, rel=1e-6)


def test_similarity_eq6_log_cos_of_softmax_differences() -> None:
    total = 0.0
    for j1 in range(2):
        pu = softmax_row([dot(U[j1], U[k]) for k in range(2)])
        pv = softmax_row([dot(V[j1], V[k]) for k in range(2)])
        total += sum(-math.log(math.cos(math.pi / 2 * (pu[j2] - pv[j2]))) for j2 in range(2))
    expected = total / 2
    assert SentenceSimilarityLoss()(out(), empty_batch()).item() == pytest.approx(expected, rel=1e-6)


def test_similarity_is_zero_when_both_sides_agree() -> None:
    same = EncoderOutput(embeddings=torch.tensor(U + U), site_log_probs=None)
    assert SentenceSimilarityLoss()(same, empty_batch()).item() == pytest.approx(0.0, abs=1e-7)


def test_combined_eq7_weights_1_2_2() -> None:
    cfg = ObjectiveConfig(generative="none")
    total, parts = CombinedLoss(cfg)(out(), empty_batch())
    a = SentenceAlignmentLoss()(out(), empty_batch()).item()
    s = SentenceSimilarityLoss()(out(), empty_batch()).item()
    assert parts == pytest.approx({"alignment": a, "similarity": s})
    assert total.item() == pytest.approx(2 * a + 2 * s, rel=1e-6)


def test_cosine_option_scales_normalised_scores() -> None:
    loss = SentenceAlignmentLoss(similarity="cosine", scale=10.0)(out(), empty_batch()).item()
    un = [[x / math.hypot(*r) for x in r] for r in U]
    vn = [[x / math.hypot(*r) for x in r] for r in V]
    total = 0.0
    for j in range(2):
        row = softmax_row([10 * dot(un[j], vn[k]) for k in range(2)])
        col = softmax_row([10 * dot(un[k], vn[j]) for k in range(2)])
        total += -math.log(row[j]) - math.log(col[j])
    assert loss == pytest.approx(total / 2, rel=1e-5)
