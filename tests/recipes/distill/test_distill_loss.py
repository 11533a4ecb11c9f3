"""The distillation objective against hand-computed values (paper 002, Eq. 2)."""

from __future__ import annotations

import math

import pytest
import torch

from lingualite.recipes.distill.loss import MultilingualMSELoss


def test_loss_is_the_mean_of_both_sides_mse_and_eq2_over_2d() -> None:
    source = torch.tensor([[1.0, 0.0, 2.0], [0.0, 1.0, 1.0]])
    target = torch.tensor([[0.0, 0.0, 2.0], [1.0, 1.0, 0.0]])
    teacher = torch.tensor([[1.0, 1.0, 1.0], [0.0, 0.0, 0.0]])
    loss, parts = MultilingualMSELoss()(source, target, teacher)
    # source - teacher: [0,-1,1], [0,1,1] -> squares 0+1+1+0+1+1 = 4 over 6 entries
    # target - teacher: [-1,-1,1], [1,1,0] -> squares 1+1+1+1+1+0 = 5 over 6 entries
    assert parts["mse_source"] == pytest.approx(4 / 6)
    assert parts["mse_target"] == pytest.approx(5 / 6)
    assert float(loss) == pytest.approx((4 / 6 + 5 / 6) / 2)
    # Eq. 2: (1/|B|) sum_i ||S(x_i) - T(x_i)||^2 + ||S(t_i) - T(x_i)||^2 = (4 + 5) / 2 = 2 d * loss
    assert 2 * 3 * float(loss) == pytest.approx((4 + 5) / 2)


def test_gradient_reaches_both_sides_but_not_the_teacher() -> None:
    source = torch.randn(4, 3, requires_grad=True)
    target = torch.randn(4, 3, requires_grad=True)
    teacher = torch.randn(4, 3, requires_grad=True)
    loss, _ = MultilingualMSELoss()(source, target, teacher)
    loss.backward()
    assert source.grad is not None and target.grad is not None and teacher.grad is None


def test_matryoshka_adds_the_mse_of_both_renormalised_prefixes() -> None:
    source = torch.tensor([[1.0, 0.0, 2.0], [0.0, 1.0, 1.0]])
    target = torch.tensor([[0.0, 0.0, 2.0], [1.0, 1.0, 0.0]])
    teacher = torch.tensor([[1.0, 1.0, 1.0], [0.0, 2.0, 0.0]])
    loss, parts = MultilingualMSELoss(matryoshka_dims=[3, 2], matryoshka_weights=[1.0, 0.5])(
        source, target, teacher
    )
    full = float(MultilingualMSELoss()(source, target, teacher)[0])
    # 2-d prefixes renormalised: teacher [1,1]/sqrt2, [0,1]; source [1,0], [0,1]; target [0,0] (stays 0), [1,1]/sqrt2
    r = 1 / math.sqrt(2)
    src_sq = (1 - r) ** 2 + r**2 + 0 + 0  # row 1: [1,0] - [r,r]; row 2: [0,1] - [0,1]
    tgt_sq = 2 * r**2 + r**2 + (r - 1) ** 2  # row 1: [0,0] - [r,r]; row 2: [r,r] - [0,1]
    prefix = (src_sq / 4 + tgt_sq / 4) / 2  # each mse averages 2 rows x 2 dims
    assert parts["mse@2"] == pytest.approx(prefix, rel=1e-6)
    assert float(loss) == pytest.approx(full + 0.5 * prefix, rel=1e-6)
    # the reported per-side MSEs stay those of the full vectors (comparable with a plain run's)
    assert parts["mse_source"] == pytest.approx(
        MultilingualMSELoss()(source, target, teacher)[1]["mse_source"]
    )


def test_without_matryoshka_dims_the_loss_is_unchanged_and_one_column_is_plain_mse() -> None:
    s, t, teacher = torch.randn(4, 3), torch.randn(4, 3), torch.randn(4, 3)
    assert float(MultilingualMSELoss()(s, t, teacher)[0]) == float(MultilingualMSELoss([3])(s, t, teacher)[0])
    one, parts = MultilingualMSELoss().vectors_loss([s], teacher)
    assert float(one) == float(torch.nn.functional.mse_loss(s, teacher)) and parts == {}


def test_cosine_loss_ignores_the_length_and_mse_does_not() -> None:
    teacher = torch.tensor([[1.0, 2.0, 0.0], [0.0, 0.0, 3.0]])
    longer = 2.5 * teacher  # parallel, of another length
    cosine, _ = MultilingualMSELoss(distance="cosine")(longer, 0.1 * teacher, teacher)
    assert float(cosine) == pytest.approx(0.0, abs=1e-6)
    mse, _ = MultilingualMSELoss()(longer, 0.1 * teacher, teacher)
    assert float(mse) > 0.5


def test_cosine_loss_is_the_mean_of_one_minus_cos_and_the_sum_adds_the_mse() -> None:
    teacher = torch.tensor([[1.0, 0.0], [1.0, 1.0]])
    source = torch.tensor([[0.0, 2.0], [1.0, 1.0]])  # cos 0 and 1 -> 1 - cos: 1 and 0
    target = torch.tensor([[-1.0, 0.0], [2.0, 2.0]])  # cos -1 and 1 -> 2 and 0
    cosine, parts = MultilingualMSELoss(distance="cosine")(source, target, teacher)
    assert float(cosine) == pytest.approx(((1 + 0) / 2 + (2 + 0) / 2) / 2)
    # source - teacher: [-1,2],[0,0] -> 5/4; target - teacher: [-2,0],[1,1] -> 6/4
    assert float(parts["mse_source"]) == pytest.approx(5 / 4)  # the parts stay the MSE (comparable logs)
    both, _ = MultilingualMSELoss(distance="mse+cosine")(source, target, teacher)
    assert float(both) == pytest.approx(0.75 + (5 / 4 + 6 / 4) / 2)
    one_column = MultilingualMSELoss(distance="cosine").vectors_loss([source], teacher)[0]
    assert float(one_column) == pytest.approx(0.5)  # the monolingual term's rule


def test_an_unknown_distance_is_refused() -> None:
    with pytest.raises(ValueError, match="one of"):
        MultilingualMSELoss(distance="l1")  # type: ignore[arg-type]
    assert MultilingualMSELoss().plain_mse and not MultilingualMSELoss(distance="cosine").plain_mse
