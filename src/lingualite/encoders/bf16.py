"""The bf16 encode path: a sentence-transformers folder run by torch in bfloat16, float32 vectors out.

``bf16:FOLDER`` loads the folder as :class:`~lingualite.encoders.folder.SentenceTransformerEncoder` does
(checked, safetensors only), then either casts every weight to bfloat16 (``mode="weights"``, the default) or
keeps float32 weights and runs the forward pass under ``torch.autocast("cpu", dtype=torch.bfloat16)``
(``mode="autocast"``). sentence-transformers encodes under ``torch.inference_mode`` and hands back float32
numpy arrays either way. bfloat16 keeps float32's exponent range with an 8-bit mantissa (Kalamkar et al.,
2019, "A Study of BFLOAT16 for Deep Learning Training"); on CPUs with AVX512-BF16 (or AMX) oneDNN runs the
matrix products on bf16 dot-product instructions.
"""

from __future__ import annotations

from contextlib import nullcontext
from pathlib import Path
from typing import Literal

import numpy as np

from lingualite.encoders.folder import SentenceTransformerEncoder

__all__ = ["ATTENTIONS", "MODES", "Bf16Encoder"]

MODES = ("weights", "autocast")
ATTENTIONS = ("eager", "sdpa")


class Bf16Encoder(SentenceTransformerEncoder):
    """A sentence-transformers folder encoded in bfloat16 (the :class:`~lingualite.encoders.base.Encoder`
    protocol; vectors are float32).

    :param mode: ``"weights"``: weights stored and run in bfloat16 (half the memory of float32);
        ``"autocast"``: float32 weights, matrix products in bfloat16 under ``torch.autocast``.
    :param attention: the transformers attention implementation to run (``eager``: matmul, softmax, matmul;
        ``sdpa``: ``scaled_dot_product_attention``); None keeps the folder's.
    """

    def __init__(
        self,
        path: str | Path,
        batch_size: int | None = None,
        threads: int | None = None,
        name: str | None = None,
        mode: Literal["weights", "autocast"] = "weights",
        attention: Literal["eager", "sdpa"] | None = None,
        device: str = "auto",
    ) -> None:
        import torch

        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
        if attention is not None and attention not in ATTENTIONS:
            raise ValueError(f"attention must be one of {', '.join(ATTENTIONS)}, not {attention!r}")
        dtype = torch.bfloat16 if mode == "weights" else torch.float32  # on a GPU too: bf16 is asked for
        super().__init__(path, batch_size=batch_size, threads=threads, name=name, device=device, dtype=dtype)
        self.name = name or f"{self.path.resolve().name}-bf16"
        self.mode = mode
        if mode == "weights":
            self.model.to(torch.bfloat16)
        self.attention = attention
        if attention is not None:
            for module in self.model.modules():  # every transformers model inside (none in a static model)
                if hasattr(module, "set_attn_implementation"):
                    module.set_attn_implementation(attention)

    def encode(self, texts: list[str]) -> np.ndarray:
        import torch

        autocast = nullcontext()
        if self.mode == "autocast":
            autocast = torch.autocast(self.device.type, dtype=torch.bfloat16)
        with autocast:
            return super().encode(texts)
