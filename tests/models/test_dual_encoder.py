"""The dual encoder's BERT on a GPU gets a prebuilt 4-D mask (models.dual_encoder.bert_mask): transformers
passes it through without asking the GPU about padding; the attention, and so the states, are the same."""

from __future__ import annotations

import torch

from lingualite.config.encoder import EncoderConfig
from lingualite.models.dual_encoder import DualEncoder, bert_mask


def test_a_prebuilt_mask_gives_the_states_of_the_2d_mask() -> None:
    torch.manual_seed(0)
    model = DualEncoder(EncoderConfig(vocab_size=50, hidden_size=16, num_heads=2, ffn_size=32)).eval()
    ids = torch.randint(5, 50, (3, 7))
    mask = torch.tensor([[1] * 7, [1] * 4 + [0] * 3, [1] * 2 + [0] * 5])
    assert bert_mask(mask) is mask and bert_mask(mask, prebuilt=True).shape == (3, 1, 1, 7)
    with torch.no_grad():
        plain = model.bert(input_ids=ids, attention_mask=mask).last_hidden_state
        prebuilt = model.bert(input_ids=ids, attention_mask=bert_mask(mask, prebuilt=True)).last_hidden_state
    real = mask.bool()  # padded positions' own states are never read (pooling masks them)
    torch.testing.assert_close(prebuilt[real], plain[real], rtol=1e-5, atol=1e-5)
