"""What every encoder lingualite trains is: token ids -> one vector per sentence, exactly as its exported
sentence-transformers folder computes them, at the truncation it was validated with.

The dual encoder (paper 000), the distillation students (paper 002) and the context encoder (paper 001)
subclass :class:`SentenceEncoder`; training, validation and export use only this interface.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import torch
from torch import nn
from transformers import BertModel, PreTrainedTokenizerFast

from lingualite.config.encoder import EncoderConfig
from lingualite.models.encoding import encode_batched


class SentenceEncoder(nn.Module):
    """Subclasses set ``cfg``, ``output_dim`` and ``max_seq_length`` and implement :meth:`embed` and
    :meth:`save`.

    :attr max_seq_length: tokens of a sentence (with [CLS] and [SEP]) in validation, mining and the
        exported model: one truncation everywhere, so users get the vectors that were measured.
    """

    cfg: EncoderConfig
    output_dim: int
    max_seq_length: int

    def embed(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        """Sentence vectors (B, ``output_dim``) of a padded batch; the default is :meth:`forward`."""
        return self(input_ids, attention_mask)

    def encode_texts(
        self, tokenizer: PreTrainedTokenizerFast, texts: list[str], batch_size: int = 256
    ) -> np.ndarray:
        """Float32 vectors in the order of ``texts`` (length-sorted batches, eval mode for the call)."""
        return encode_batched(
            self.embed, self, tokenizer, texts, self.output_dim, self.max_seq_length, batch_size
        )

    def save(self, tokenizer: PreTrainedTokenizerFast, path: str | Path) -> Path:
        """Write ``path`` atomically as a sentence-transformers folder (safetensors only); returns it."""
        raise NotImplementedError

    def token_embeddings(self) -> nn.Embedding:
        """The token-embedding table (a BERT encoder's word embeddings by default)."""
        bert: BertModel = getattr(self, "bert")  # noqa: B009 - subclasses without one override this
        return bert.embeddings.word_embeddings

    def embedding_parameters(self) -> int:
        """Parameters of the token-embedding table (the size report separates them)."""
        return self.token_embeddings().weight.numel()

    def enable_gradient_checkpointing(self) -> None:
        """Recompute layer activations in the backward pass (``optim.gradient_checkpointing``); a model
        without transformer layers has nothing to recompute."""
        bert: BertModel | None = getattr(self, "bert", None)
        if bert is not None:
            bert.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
