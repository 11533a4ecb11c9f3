from __future__ import annotations

import torch

from lingualite.models.dual_encoder import POOLED_SITE
from lingualite.training.collator import PairCollator

PAD, UNK, CLS, SEP, MASK = range(5)
SPECIAL = [PAD, UNK, CLS, SEP, MASK]
# side a: [CLS] 5 6 5 [SEP]; side b: [CLS] 7 8 [SEP]
PAIRS = [([CLS, 5, 6, 5, SEP], [CLS, 7, 8, SEP]), ([CLS, 9, SEP], [CLS, 10, 11, 12, SEP])]


def collator(**kw) -> PairCollator:
    return PairCollator(pad_id=PAD, mask_id=MASK, vocab_size=20, special_ids=SPECIAL, **kw)


def bags(batch) -> dict[int, dict[int, float]]:
    out: dict[int, dict[int, float]] = {}
    for r, t, w in zip(
        batch.bag_rows.tolist(), batch.bag_tokens.tolist(), batch.bag_weights.tolist(), strict=True
    ):
        out.setdefault(r, {})[t] = round(w, 6)
    return out


def test_rows_padding_and_partner_layout() -> None:
    b = collator(masking="none", bag=None)(PAIRS)
    assert b.input_ids.shape == (4, 5) and b.num_pairs == 2
    assert b.input_ids[1].tolist() == [CLS, 9, SEP, PAD, PAD]
    assert b.attention_mask[2].tolist() == [1, 1, 1, 1, 0]
    assert b.site_rows.numel() == 0


def test_bag_of_each_row_is_its_translation_without_specials() -> None:
    b = collator(masking="none", bag="unique")(PAIRS)
    assert bags(b) == {
        0: {7: 0.5, 8: 0.5},
        1: {10: round(1 / 3, 6), 11: round(1 / 3, 6), 12: round(1 / 3, 6)},
        2: {5: 0.5, 6: 0.5},  # repeated token 5 counted once (footnote 3)
        3: {9: 1.0},
    }
    freq = collator(masking="none", bag="frequency")(PAIRS)
    assert bags(freq)[2] == {5: round(2 / 3, 6), 6: round(1 / 3, 6)}


def test_single_masking_masks_exactly_one_real_token_per_row() -> None:
    b = collator(masking="single")(PAIRS, torch.Generator().manual_seed(0))
    assert b.site_rows.tolist() == [0, 1, 2, 3]
    for row, col, label in zip(b.site_rows, b.site_cols, b.site_labels, strict=True):
        assert b.input_ids[row, col] == MASK and label not in SPECIAL
        assert (b.input_ids[row] == MASK).sum() == 1
    # the bag is built from the ORIGINAL tokens, not the masked ones
    assert bags(b)[2] == {5: 0.5, 6: 0.5}


def test_pooled_sites_for_xtr() -> None:
    b = collator(masking="none", pooled_sites=True)(PAIRS)
    assert b.site_rows.tolist() == [0, 1, 2, 3] and (b.site_cols == POOLED_SITE).all()
    assert (b.input_ids != MASK).all()


def test_bert_masking_at_least_one_per_row_never_specials() -> None:
    rows = [([CLS, *range(5, 19), SEP], [CLS, *range(5, 19), SEP])] * 8
    b = collator(masking="bert")(rows, torch.Generator().manual_seed(1))
    assert set(b.site_rows.tolist()) == set(range(16))
    assert all(label not in SPECIAL for label in b.site_labels.tolist())
    assert 0.05 < b.site_rows.numel() / (16 * 14) < 0.35


def test_same_generator_seed_gives_same_batch() -> None:
    c = collator(masking="single")
    a = c(PAIRS, torch.Generator().manual_seed(3))
    b = c(PAIRS, torch.Generator().manual_seed(3))
    assert torch.equal(a.input_ids, b.input_ids) and torch.equal(a.site_cols, b.site_cols)
