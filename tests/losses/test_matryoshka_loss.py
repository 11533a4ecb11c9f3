"""The Matryoshka terms of paper 000's objective (Kusupati et al. 2022, Eq. 1) against values computed by hand:
the full dimension's term is the usual loss, shorter prefixes are renormalised and scored by scale * cosine."""

from __future__ import annotations

import math

import pytest
import torch

from lingualite.losses import CombinedLoss, ObjectiveConfig
from lingualite.losses.matryoshka import matryoshka_terms
from lingualite.models.batch import PairBatch
from lingualite.models.dual_encoder import EncoderOutput

U = [[1.0, 0.0, 2.0], [0.5, 1.0, -1.0]]
V = [[1.0, 0.5, 1.0], [0.2, 0.8, 0.0]]


def dot(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


def unit(a: list[float]) -> list[float]:
    n = math.sqrt(dot(a, a))
    return [x / n for x in a]


def softmax_row(scores: list[float]) -> list[float]:
    z = sum(math.exp(s) for s in scores)
    return [math.exp(s) / z for s in scores]


def alignment(u: list[list[float]], v: list[list[float]], score) -> float:
    total = 0.0
    for j in range(2):
        row = softmax_row([score(u[j], v[k]) for k in range(2)])
        col = softmax_row([score(u[k], v[j]) for k in range(2)])
        total += -math.log(row[j]) - math.log(col[j])
    return total / 2


def similarity(u: list[list[float]], v: list[list[float]], score) -> float:
    total = 0.0
    for j1 in range(2):
        pu = softmax_row([score(u[j1], u[k]) for k in range(2)])
        pv = softmax_row([score(v[j1], v[k]) for k in range(2)])
        total += sum(-math.log(math.cos(math.pi / 2 * (pu[j2] - pv[j2]))) for j2 in range(2))
    return total / 2


def batch() -> PairBatch:
    z = torch.zeros(0, dtype=torch.long)
    ids = torch.zeros((4, 2), dtype=torch.long)
    return PairBatch(ids, torch.ones_like(ids), z, z, z, z, z, torch.zeros(0))


def output() -> EncoderOutput:
    return EncoderOutput(embeddings=torch.tensor(U + V), site_log_probs=None)


def test_full_dimension_is_the_usual_loss_and_prefixes_are_renormalised_scaled_cosine() -> None:
    cfg = ObjectiveConfig(generative="none", similarity="dot", scale=5.0)
    total, parts = CombinedLoss(cfg, matryoshka_dims=[3, 2], matryoshka_weights=[1.0, 0.5])(output(), batch())

    full_a = alignment(U, V, dot)
    full_s = similarity(U, V, dot)
    u2, v2 = [unit(r[:2]) for r in U], [unit(r[:2]) for r in V]

    def scaled(a: list[float], b: list[float]) -> float:
        return 5.0 * dot(a, b)

    pre_a, pre_s = alignment(u2, v2, scaled), similarity(u2, v2, scaled)
    assert parts["alignment"] == pytest.approx(full_a, rel=1e-5)
    assert parts["similarity"] == pytest.approx(full_s, rel=1e-5)
    assert parts["alignment@2"] == pytest.approx(0.5 * pre_a, rel=1e-5)  # parts carry w_d
    assert parts["similarity@2"] == pytest.approx(0.5 * pre_s, rel=1e-5)
    expected = 2 * (full_a + full_s) + 2 * 0.5 * (pre_a + pre_s)  # objective weights 2 and 2 (Eq. 7)
    assert total.item() == pytest.approx(expected, rel=1e-5)


def test_without_matryoshka_dims_the_objective_is_unchanged() -> None:
    cfg = ObjectiveConfig(generative="none")
    plain = CombinedLoss(cfg)(output(), batch())
    listed = CombinedLoss(cfg, matryoshka_dims=[3])(output(), batch())  # only the full size: the same loss
    assert plain[1] == listed[1] and plain[0].item() == listed[0].item()
    assert set(plain[1]) == {"alignment", "similarity"}


def test_the_gradient_reaches_the_prefix_through_the_renormalisation() -> None:
    embeddings = torch.tensor(U + V, requires_grad=True)
    cfg = ObjectiveConfig(generative="none", similarity="cosine", alignment_weight=1.0, similarity_weight=0.0)
    loss, _ = CombinedLoss(cfg, matryoshka_dims=[2])(EncoderOutput(embeddings, None), batch())
    loss.backward()
    assert embeddings.grad is not None
    # only the 2-d prefix is in the loss (the full size is not listed): the third component gets nothing
    assert torch.all(embeddings.grad[:, 2] == 0) and torch.all(embeddings.grad[:, :2].abs().sum(1) > 0)


def test_terms_are_sorted_largest_first_with_unit_default_weights() -> None:
    assert matryoshka_terms([32, 128, 64]) == [(128, 1.0), (64, 1.0), (32, 1.0)]
    assert matryoshka_terms([64, 128], [0.5, 2.0]) == [(128, 2.0), (64, 0.5)]
    with pytest.raises(ValueError):
        matryoshka_terms([64, 0])
    with pytest.raises(ValueError):
        matryoshka_terms([64, 32], [1.0])


def test_a_prefix_longer_than_the_vectors_is_refused() -> None:
    with pytest.raises(ValueError, match="cannot be greater"):
        CombinedLoss(ObjectiveConfig(generative="none"), matryoshka_dims=[4, 2])(output(), batch())
