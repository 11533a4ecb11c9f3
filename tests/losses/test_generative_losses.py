"""Generative objectives against values computed by hand (plain Python math) on a 4-token vocabulary."""

from __future__ import annotations

import math

import pytest
import torch

from lingualite.losses import MLMLoss, MLMXTRLoss, SMLMLoss, UGTLoss, XTRLoss
from lingualite.models.batch import PairBatch
from lingualite.models.dual_encoder import EncoderOutput

LOGITS = [[1.0, 2.0, 3.0, 4.0], [4.0, 3.0, 2.0, 1.0], [0.0, 0.0, 1.0, 0.0]]


def log_softmax(row: list[float]) -> list[float]:
    z = math.log(sum(math.exp(x) for x in row))
    return [x - z for x in row]


LP = [log_softmax(r) for r in LOGITS]


def kl(q: dict[int, float], lp: list[float]) -> float:
    return sum(w * (math.log(w) - lp[t]) for t, w in q.items())


def make_batch(site_rows, site_labels, bag, site_cols=None) -> PairBatch:
    bag_rows = torch.tensor([r for r, _, _ in bag], dtype=torch.long)
    bag_tokens = torch.tensor([t for _, t, _ in bag], dtype=torch.long)
    bag_weights = torch.tensor([w for _, _, w in bag], dtype=torch.float32)
    n = 2
    rows = torch.tensor(site_rows, dtype=torch.long)
    return PairBatch(
        input_ids=torch.zeros((n, 3), dtype=torch.long),
        attention_mask=torch.ones((n, 3), dtype=torch.long),
        site_rows=rows,
        site_cols=torch.tensor(site_cols if site_cols is not None else [1] * len(site_rows)),
        site_labels=torch.tensor(site_labels, dtype=torch.long),
        bag_rows=bag_rows,
        bag_tokens=bag_tokens,
        bag_weights=bag_weights,
    )


def output(num_sites: int) -> EncoderOutput:
    logits = torch.tensor(LOGITS[:num_sites])
    return EncoderOutput(embeddings=torch.zeros(2, 2), site_log_probs=torch.log_softmax(logits, dim=-1))


# Row 0 (side a) holds tokens {1, 2}; row 1 (side b) holds {0, 3}: bag of row 0 = tokens of row 1 and vice versa.
BAG = [(0, 0, 0.5), (0, 3, 0.5), (1, 1, 0.5), (1, 2, 0.5)]


def test_mlm_is_mean_cross_entropy_over_masked_tokens() -> None:
    batch = make_batch([0, 0, 1], [1, 2, 3], BAG)
    expected = -(LP[0][1] + LP[1][2] + LP[2][3]) / 3
    assert MLMLoss()(output(3), batch).item() == pytest.approx(expected, rel=1e-6)


def test_smlm_eq1_monolingual_plus_crosslingual_terms() -> None:
    # Row 0's masked word is 2, row 1's is 3. Eq. 1, both orderings of (l, l'), one pair:
    batch = make_batch([0, 1], [2, 3], BAG)
    expected = (-LP[0][2] - LP[1][2]) + (-LP[1][3] - LP[0][3])
    assert SMLMLoss()(output(2), batch).item() == pytest.approx(expected, rel=1e-6)


def test_xtr_eq2_kl_to_the_translation_bag_both_directions() -> None:
    batch = make_batch([0, 1], [-100, -100], BAG, site_cols=[-1, -1])
    expected = kl({0: 0.5, 3: 0.5}, LP[0]) + kl({1: 0.5, 2: 0.5}, LP[1])
    assert XTRLoss()(output(2), batch).item() == pytest.approx(expected, rel=1e-6)


def test_ugt_eq4_half_masked_word_half_bag_with_repeated_token_added() -> None:
    # Row 0: masked word 2, bag {0, 3} -> q = {2: .5, 0: .25, 3: .25}.
    # Row 1: masked word 1, which is also in its bag {1, 2} -> q = {1: .5 + .25, 2: .25} (added, not overwritten).
    batch = make_batch([0, 1], [2, 1], BAG)
    expected = kl({2: 0.5, 0: 0.25, 3: 0.25}, LP[0]) + kl({1: 0.75, 2: 0.25}, LP[1])
    assert UGTLoss()(output(2), batch).item() == pytest.approx(expected, rel=1e-6)


def test_mlm_xtr_every_masked_position_gets_word_plus_bag() -> None:
    batch = make_batch([0, 0, 1], [1, 2, 3], BAG)
    expected = (
        kl({1: 0.5, 0: 0.25, 3: 0.25}, LP[0])
        + kl({2: 0.5, 0: 0.25, 3: 0.25}, LP[1])
        + kl({3: 0.5, 1: 0.25, 2: 0.25}, LP[2])
    ) / 3
    assert MLMXTRLoss()(output(3), batch).item() == pytest.approx(expected, rel=1e-6)


def test_generative_loss_without_sites_is_a_clear_error() -> None:
    batch = make_batch([0, 1], [2, 1], BAG)
    with pytest.raises(ValueError, match="prediction sites"):
        UGTLoss()(EncoderOutput(torch.zeros(2, 2), None), batch)
