"""The encoder of paper 001: a BERT-style transformer, mean-max pooling, and two linear heads.

Enc(s) = [mean(H); max(H)] over the non-padding token states H (paper 001, Sec. 3). The classification head
M scores sentence-context coherence (Sec. 3.1, p(y = 1 | x) = sigmoid(M(Enc(x)))); the regression head R
predicts the coherence score (Sec. 3.2, L_cl). Both heads are linear on purpose ("we want our sentence encoder
to capture more semantics") and are training-only: the export is Transformer -> Pooling(("mean", "max")).
"""

from __future__ import annotations

from pathlib import Path

import torch
from torch import nn
from transformers import BertModel, PreTrainedTokenizerFast

from lingualite.config.encoder import EncoderConfig
from lingualite.models.dual_encoder import bert_config, bert_mask, mean_pool
from lingualite.models.sentence_encoder import SentenceEncoder

POOLING_MODES = {"mean": ("mean",), "mean_max": ("mean", "max")}


def max_pool(states: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
    """Element-wise maximum over non-padding positions (sentence-transformers' ``max`` pooling)."""
    return states.masked_fill(attention_mask.unsqueeze(-1) == 0, float("-inf")).max(dim=1).values


def mean_max_pool(states: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
    """[mean(H); max(H)]: (B, T, d) -> (B, 2d)."""
    return torch.cat([mean_pool(states, attention_mask), max_pool(states, attention_mask)], dim=-1)


class ContextEncoder(SentenceEncoder):
    """Shared encoder for every language, with the classification and regression heads of paper 001.

    :param sentence_length: tokens of a sentence encoded alone (validation, mining, the exported model);
        ``cfg.max_seq_length`` is the longer limit of a whole context input. Default: ``cfg.max_seq_length``.
    """

    def __init__(
        self,
        cfg: EncoderConfig,
        pooling: str = "mean_max",
        pad_token_id: int = 0,
        sentence_length: int | None = None,
    ) -> None:
        super().__init__()
        cfg.validate()
        if pooling not in POOLING_MODES:
            raise ValueError(f"pooling must be one of {sorted(POOLING_MODES)}, got {pooling!r}")
        self.cfg, self.pooling = cfg, pooling
        self.max_seq_length = sentence_length or cfg.max_seq_length
        config = bert_config(cfg, pad_token_id)
        config._attn_implementation = "sdpa"  # PyTorch's fused attention kernels
        self.bert = BertModel(config, add_pooling_layer=False)
        self.output_dim = cfg.hidden_size * len(POOLING_MODES[pooling])
        self.classifier = nn.Linear(self.output_dim, 1)
        self.regressor = nn.Linear(self.output_dim, 1)

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        """Sentence vectors Enc(x), exactly as the exported sentence-transformers folder computes them. Inputs
        are moved to the model's device (a no-op on a CPU), so every caller of a recipe on a GPU just works."""
        device = self.classifier.weight.device
        input_ids, attention_mask = input_ids.to(device), attention_mask.to(device)
        states = self.bert(input_ids=input_ids, attention_mask=bert_mask(attention_mask)).last_hidden_state
        if self.pooling == "mean":
            return mean_pool(states, attention_mask)
        return mean_max_pool(states, attention_mask)

    def classify(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        """Coherence logits M(Enc(x)), shape (B,)."""
        return self.classifier(self(input_ids, attention_mask)).squeeze(-1)

    def regress(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        """Predicted coherence scores R(Enc(c)), shape (B,)."""
        return self.regressor(self(input_ids, attention_mask)).squeeze(-1)

    def save(self, tokenizer: PreTrainedTokenizerFast, path: str | Path) -> Path:
        """Transformer -> Pooling(mean[, max]) at the sentence length; the heads stay in the checkpoints."""
        from lingualite.models.export import save_encoder_folder

        pooling = POOLING_MODES[self.pooling]
        return save_encoder_folder(self.bert, tokenizer, path, self.max_seq_length, pooling=pooling)
