"""Encode sentences with an in-memory encoder (length-sorted batches, original order kept)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import torch
from transformers import PreTrainedTokenizerFast


@torch.inference_mode()
def encode_batched(
    forward: Callable[[torch.Tensor, torch.Tensor], torch.Tensor],
    module: torch.nn.Module,
    tokenizer: PreTrainedTokenizerFast,
    texts: list[str],
    dim: int,
    max_length: int,
    batch_size: int = 256,
) -> np.ndarray:
    """``forward(input_ids, attention_mask)`` over length-sorted batches of ``texts``; float32 rows in the
    original order. ``module`` is put in eval mode for the call and restored afterwards."""
    was_training = module.training
    module.eval()
    order = np.argsort([len(t) for t in texts], kind="stable")
    out = np.zeros((len(texts), dim), dtype=np.float32)
    device = next(module.parameters()).device
    for start in range(0, len(texts), batch_size):
        idx = order[start : start + batch_size]
        enc = tokenizer(
            [texts[i] for i in idx], padding=True, truncation=True, max_length=max_length, return_tensors="pt"
        )
        out[idx] = (
            forward(enc["input_ids"].to(device), enc["attention_mask"].to(device)).float().cpu().numpy()
        )
    module.train(was_training)
    return out
