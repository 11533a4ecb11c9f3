"""The distillation objective against hand-computed values (paper 002, Eq. 2)."""

from __future__ import annotations

import math

import pytest
import torch

from lingualite.recipes.distill.loss import MultilingualMSELoss, TeacherMaskedAlignment


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


def _unit(x: torch.Tensor) -> torch.Tensor:
    return torch.nn.functional.normalize(x, dim=-1)


def test_alignment_is_eq5_by_scaled_cosine_in_both_directions() -> None:
    torch.manual_seed(0)
    src, tgt, teacher = torch.randn(5, 8), torch.randn(5, 8), torch.eye(5, 8)  # distinct teacher vectors
    scores = 20.0 * _unit(src) @ _unit(tgt).T
    labels = torch.arange(5)
    ce = torch.nn.functional.cross_entropy
    expected = (ce(scores, labels) + ce(scores.T, labels)) / 2
    assert math.isclose(float(TeacherMaskedAlignment()(src, tgt, teacher)), float(expected), rel_tol=1e-5)


def test_alignment_leaves_out_negatives_the_teacher_calls_the_same_sentence() -> None:
    # rows 0 and 1: the same source (a UI string in two languages); the student maps them to one point
    teacher = torch.tensor([[1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
    student = torch.tensor([[1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
    masked = float(TeacherMaskedAlignment()(student, student, teacher))
    unmasked = float(TeacherMaskedAlignment(same_above=2.0)(student, student, teacher))  # nothing is the same
    assert masked < 1e-6  # each row's only candidates are itself and the unrelated row
    assert math.isclose(unmasked, 2 / 3 * math.log(2), rel_tol=1e-4)  # rows 0 and 1 tie with each other


def test_alignment_weight_adds_the_term_and_its_part() -> None:
    torch.manual_seed(1)
    src, tgt, teacher = torch.randn(4, 6), torch.randn(4, 6), torch.randn(4, 6)
    plain, _ = MultilingualMSELoss()(src, tgt, teacher)
    loss, parts = MultilingualMSELoss(alignment_weight=0.5)(src, tgt, teacher)
    term = TeacherMaskedAlignment()(src, tgt, teacher)
    assert math.isclose(float(loss), float(plain + 0.5 * term), rel_tol=1e-5)
    assert math.isclose(float(parts["alignment"]), float(term), rel_tol=1e-5)
    assert "alignment" not in MultilingualMSELoss()(src, tgt, teacher)[1]


def test_alignment_gradient_pulls_a_translation_towards_its_source() -> None:
    src = torch.tensor([[1.0, 0.0], [0.0, 1.0]])
    tgt = torch.tensor([[0.6, 0.8], [0.0, 1.0]], requires_grad=True)  # pair 0's translation leans to 1's
    TeacherMaskedAlignment()(src, tgt, src).backward()
    step = _unit(tgt.detach() - 0.01 * tgt.grad)
    assert float(step[0] @ src[0]) > float(_unit(tgt.detach())[0] @ src[0])
