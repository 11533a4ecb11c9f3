"""Encode sentences in length-sorted batches, original order kept: in-memory encoders (:func:`encode_batched`)
and any tokenize-then-forward pipeline (:func:`encode_in_batches`, also the GPU path of sentence-transformers
folders in :mod:`lingualite.encoders.folder`).

On a GPU the host must keep ahead of the card: the next batch is tokenised in a background thread while the
GPU runs the current one (:func:`lingualite.core.prefetch.prefetched`; the Rust tokenizer releases the GIL), its
tensors are pinned and copied asynchronously, and the vectors stay on the GPU until the call ends (one copy
back instead of a wait per batch). On a CPU the work runs in order, as it always did.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import torch
from transformers import PreTrainedTokenizerFast

from lingualite.core.prefetch import pinned, prefetched

__all__ = ["encode_batched", "encode_in_batches"]

Features = Mapping[str, Any]


@torch.inference_mode()
def encode_in_batches(
    texts: list[str],
    tokenize: Callable[[list[str]], Features],
    forward: Callable[[dict[str, Any]], torch.Tensor],
    device: torch.device,
    dim: int,
    batch_size: int,
    overlap: bool | None = None,
) -> np.ndarray:
    """``forward(tokenize(batch))`` over batches of ``texts`` sorted by length; float32 rows in the order of
    ``texts``. ``tokenize`` gives tensors on the CPU; ``forward`` gets them on ``device``.

    :param overlap: tokenise ahead in a background thread (None: on CUDA only)."""
    overlap = device.type == "cuda" if overlap is None else overlap
    gpu = device.type == "cuda"
    order = np.argsort([len(t) for t in texts], kind="stable")
    batches = [order[start : start + batch_size] for start in range(0, len(texts), batch_size)]

    def prepare(idx: np.ndarray) -> Features:
        features = tokenize([texts[i] for i in idx])
        return pinned(dict(features)) if gpu else features

    outputs = []
    for features in prefetched(prepare, batches, enabled=overlap):
        on_device = {
            k: v.to(device, non_blocking=gpu) if isinstance(v, torch.Tensor) else v
            for k, v in features.items()
        }
        outputs.append(forward(on_device).float())  # stays where it was computed until the end
    if not outputs:
        return np.zeros((0, dim), dtype=np.float32)
    out = np.empty((len(texts), dim), dtype=np.float32)
    out[order] = torch.cat(outputs).cpu().numpy()
    return out


def encode_batched(
    forward: Callable[[torch.Tensor, torch.Tensor], torch.Tensor],
    module: torch.nn.Module,
    tokenizer: PreTrainedTokenizerFast,
    texts: list[str],
    dim: int,
    max_length: int,
    batch_size: int = 256,
) -> np.ndarray:
    """``forward(input_ids, attention_mask)`` over length-sorted batches of ``texts``, on the device of
    ``module``'s weights; float32 rows in the original order. ``module`` is put in eval mode for the call and
    restored afterwards."""
    was_training = module.training
    module.eval()
    device = next(module.parameters()).device

    def tokenize(batch: list[str]) -> Features:
        return tokenizer(batch, padding=True, truncation=True, max_length=max_length, return_tensors="pt")

    try:
        return encode_in_batches(
            texts,
            tokenize,
            lambda f: forward(f["input_ids"], f["attention_mask"]),
            device,
            dim,
            batch_size,
        )
    finally:
        module.train(was_training)
