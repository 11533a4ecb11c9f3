"""Encode sentences with an in-memory :class:`DualEncoder` (length-sorted batches, original order kept)."""

from __future__ import annotations

import numpy as np
import torch
from transformers import PreTrainedTokenizerFast

from lingualite.models.dual_encoder import DualEncoder


@torch.inference_mode()
def encode_texts(
    model: DualEncoder, tokenizer: PreTrainedTokenizerFast, texts: list[str], batch_size: int = 256
) -> np.ndarray:
    """Mean-pooled float32 vectors, the same as the exported sentence-transformers model gives."""
    was_training = model.training
    model.eval()
    order = np.argsort([len(t) for t in texts], kind="stable")
    out = np.zeros((len(texts), model.cfg.hidden_size), dtype=np.float32)
    device = next(model.parameters()).device
    for start in range(0, len(texts), batch_size):
        idx = order[start : start + batch_size]
        enc = tokenizer(
            [texts[i] for i in idx],
            padding=True,
            truncation=True,
            max_length=model.cfg.max_seq_length,
            return_tensors="pt",
        )
        vectors = model.encode(enc["input_ids"].to(device), enc["attention_mask"].to(device))
        out[idx] = vectors.float().cpu().numpy()
    model.train(was_training)
    return out
