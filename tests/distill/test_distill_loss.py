"""The distillation objective against hand-computed values (paper 002, Eq. 2)."""

from __future__ import annotations

import pytest
import torch

from lingualite.distill.loss import MultilingualMSELoss


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
