"""The student: a small BERT-style encoder with its own vocabulary, mean pooling, and (when its width differs
from the teacher's dimension) a Dense projection. Paper 002's S-mBERT (1/128) is 1 layer of width 128.

It is saved as an ordinary sentence-transformers folder (``Transformer -> Pooling(mean) [-> Dense]``, weights in
safetensors), so anything that reads that format loads it without lingualite.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import torch
from torch import nn
from transformers import BertModel, PreTrainedTokenizerFast

from lingualite.models.config import EncoderConfig
from lingualite.models.dual_encoder import bert_config, mean_pool
from lingualite.models.encoding import encode_batched
from lingualite.models.export import save_encoder_folder


class StudentEncoder(nn.Module):
    """``BertModel`` (no pooler) -> masked mean pooling -> optional ``Linear(hidden, output_dim)``.

    :param cfg: the encoder's shape; ``cfg.vocab_size`` is the student vocabulary's size.
    :param output_dim: the teacher's (reduced) dimension; a projection is added when it is not
        ``cfg.hidden_size``.
    """

    def __init__(self, cfg: EncoderConfig, output_dim: int, pad_token_id: int = 0) -> None:
        super().__init__()
        cfg.validate()
        self.cfg, self.output_dim = cfg, output_dim
        config = bert_config(cfg, pad_token_id)
        config._attn_implementation = "sdpa"  # PyTorch's fused attention kernels
        self.bert = BertModel(config, add_pooling_layer=False)
        self.projection = nn.Linear(cfg.hidden_size, output_dim) if output_dim != cfg.hidden_size else None

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        states = self.bert(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
        pooled = mean_pool(states, attention_mask)
        return pooled if self.projection is None else self.projection(pooled)

    def embedding_parameters(self) -> int:
        return self.bert.embeddings.word_embeddings.weight.numel()

    @torch.no_grad()
    def match_output_scale(self, target_rms: float) -> None:
        """Start with outputs of the teacher's size: scale the last LayerNorm so pooled components have RMS
        ``target_rms``. Teacher vectors are small (a unit-norm 384-d vector has components of ~0.05) while a
        fresh BERT's are ~1; without this the first hundreds of steps only shrink the output."""
        norm = self.bert.encoder.layer[-1].output.LayerNorm
        if self.projection is None:
            norm.weight.fill_(target_rms)
        else:  # a default-initialised Linear(h, k) maps unit-RMS inputs to RMS ~ 1/sqrt(3); its bias starts at 0
            norm.weight.fill_(target_rms * 3**0.5)
            self.projection.bias.zero_()


def encode_with_student(
    model: StudentEncoder, tokenizer: PreTrainedTokenizerFast, texts: list[str], batch_size: int = 256
) -> np.ndarray:
    """Float32 vectors in the order of ``texts`` (length-sorted batches), as the exported folder computes them."""
    return encode_batched(
        model, model, tokenizer, texts, model.output_dim, model.cfg.max_seq_length, batch_size
    )


def save_student(model: StudentEncoder, tokenizer: PreTrainedTokenizerFast, path: str | Path) -> Path:
    """Write ``path`` atomically as a sentence-transformers folder (safetensors only) and return it."""
    from sentence_transformers.sentence_transformer.modules import Dense

    extra: list[nn.Module] = []
    if model.projection is not None:
        extra.append(
            Dense(
                model.cfg.hidden_size,
                model.output_dim,
                bias=True,
                activation_function=nn.Identity(),
                init_weight=model.projection.weight.detach().clone(),
                init_bias=model.projection.bias.detach().clone(),
            )
        )
    return save_encoder_folder(model.bert, tokenizer, path, model.cfg.max_seq_length, extra_modules=extra)
