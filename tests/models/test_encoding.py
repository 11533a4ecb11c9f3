"""Length-sorted batched encoding (models.encoding): tokenising ahead in a thread changes nothing but the time."""

from __future__ import annotations

import numpy as np
import torch

from lingualite.models.encoding import encode_in_batches


def test_overlapped_and_in_order_give_the_same_rows_in_the_callers_order() -> None:
    texts = ["ccc", "a", "bbbbbb", "dd", "", "eeeee", "f"]

    def tokenize(batch: list[str]) -> dict[str, torch.Tensor]:
        return {"lengths": torch.tensor([[float(len(t))] for t in batch])}

    def forward(features: dict[str, torch.Tensor]) -> torch.Tensor:
        return torch.cat([features["lengths"], features["lengths"] * 2], dim=1)

    cpu = torch.device("cpu")
    ahead = encode_in_batches(texts, tokenize, forward, cpu, 2, batch_size=2, overlap=True)
    in_order = encode_in_batches(texts, tokenize, forward, cpu, 2, batch_size=2, overlap=False)
    np.testing.assert_array_equal(ahead, in_order)
    np.testing.assert_array_equal(ahead[:, 0], [len(t) for t in texts])  # each row is its own text's
    assert ahead.dtype == np.float32
    assert encode_in_batches([], tokenize, forward, cpu, 2, batch_size=2).shape == (0, 2)
