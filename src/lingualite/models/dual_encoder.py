"""The shared-weight dual transformer of paper 000 (Fig. 1, left), as a transformers ``BertModel``.

Both sides of a parallel pair go through the same weights; we run them as ONE batch of 2B rows (side a in rows
0..B-1, side b in rows B..2B-1), which is the same computation as two towers with shared parameters but one
kernel launch per layer. Sentence vectors are mean-pooled final states (u, v). The generative head (a dense
transform, "the fully-connected layer before computing the loss", then a decoder tied to the input embeddings)
is applied only at the few prediction sites an objective needs, never at every position.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import torch
from torch import nn
from transformers import BertConfig, BertModel, PreTrainedTokenizerFast
from transformers.activations import ACT2FN

from lingualite.config.encoder import EncoderConfig
from lingualite.models.batch import POOLED_SITE
from lingualite.models.sentence_encoder import SentenceEncoder


def bert_config(cfg: EncoderConfig, pad_token_id: int = 0) -> BertConfig:
    """The transformers config that describes our encoder, so any BERT loader can read the saved weights."""
    return BertConfig(
        vocab_size=cfg.vocab_size,
        hidden_size=cfg.hidden_size,
        num_hidden_layers=cfg.num_layers,
        num_attention_heads=cfg.num_heads,
        intermediate_size=cfg.ffn_size,
        hidden_dropout_prob=cfg.dropout,
        attention_probs_dropout_prob=cfg.dropout,
        max_position_embeddings=max(cfg.max_seq_length, 128),
        type_vocab_size=1,
        pad_token_id=pad_token_id,
    )


def bert_mask(attention_mask: torch.Tensor, prebuilt: bool | None = None) -> torch.Tensor:
    """The attention mask to hand a ``BertModel``. On CUDA (``prebuilt`` None) an already built 4-D boolean
    mask (B, 1, 1, T), which transformers passes through as it is: given the 2-D mask it first asks whether
    any token is padded (``mask.all()``), which makes the host wait for the GPU in every forward pass. On a
    CPU the 2-D mask, as always (the same attention; the kernels and results stay what they were)."""
    if attention_mask.is_cuda if prebuilt is None else prebuilt:
        return attention_mask[:, None, None, :].bool()
    return attention_mask


def mean_pool(states: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
    """Average the token states over non-padding positions (sentence-transformers' ``mean`` pooling)."""
    mask = attention_mask.unsqueeze(-1).to(states.dtype)
    return (states * mask).sum(1) / mask.sum(1).clamp(min=1e-9)


class PredictionHead(nn.Module):
    """BERT's MLM head: dense + activation + LayerNorm, then a decoder whose weight is the input embedding."""

    def __init__(self, config: BertConfig, embeddings: nn.Embedding) -> None:
        super().__init__()
        self.dense = nn.Linear(config.hidden_size, config.hidden_size)
        self.act = ACT2FN[config.hidden_act]
        self.norm = nn.LayerNorm(config.hidden_size, eps=config.layer_norm_eps)
        self.embeddings = embeddings  # tied, not copied
        self.bias = nn.Parameter(torch.zeros(config.vocab_size))

    def forward(self, states: torch.Tensor) -> torch.Tensor:
        hidden = self.norm(self.act(self.dense(states)))
        return hidden @ self.embeddings.weight.T + self.bias


@dataclass
class EncoderOutput:
    """What the losses consume: sentence vectors of both sides and vocabulary log-probs at prediction sites."""

    embeddings: torch.Tensor  # (2B, d): rows 0..B-1 are u (side a), rows B..2B-1 are v (side b)
    site_log_probs: torch.Tensor | None  # (S, V) log-softmax at the batch's prediction sites

    @property
    def u(self) -> torch.Tensor:
        return self.embeddings[: self.embeddings.shape[0] // 2]

    @property
    def v(self) -> torch.Tensor:
        return self.embeddings[self.embeddings.shape[0] // 2 :]


class DualEncoder(SentenceEncoder):
    """One BERT-style encoder shared by both languages, plus the tied generative head."""

    def __init__(self, cfg: EncoderConfig, pad_token_id: int = 0) -> None:
        super().__init__()
        cfg.validate()
        self.cfg, self.output_dim, self.max_seq_length = cfg, cfg.hidden_size, cfg.max_seq_length
        self.bert_config = bert_config(cfg, pad_token_id)
        # sdpa = PyTorch's fused scaled-dot-product attention kernels.
        self.bert_config._attn_implementation = "sdpa"
        self.bert = BertModel(self.bert_config, add_pooling_layer=False)
        self.head = PredictionHead(self.bert_config, self.bert.embeddings.word_embeddings)

    def token_states(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        return self.bert(input_ids=input_ids, attention_mask=bert_mask(attention_mask)).last_hidden_state

    def embed(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        """Sentence vectors u, v: mean-pooled final states, as the saved sentence-transformers model computes."""
        return mean_pool(self.token_states(input_ids, attention_mask), attention_mask)

    def save(self, tokenizer: PreTrainedTokenizerFast, path: str | Path) -> Path:
        """Transformer -> Pooling(mean); the generative head is training-only and stays in the checkpoints."""
        from lingualite.models.export import save_encoder_folder

        return save_encoder_folder(self.bert, tokenizer, path, self.max_seq_length)

    def forward(
        self,
        input_ids: torch.Tensor,
        attention_mask: torch.Tensor,
        site_rows: torch.Tensor | None = None,
        site_cols: torch.Tensor | None = None,
    ) -> EncoderOutput:
        states = self.token_states(input_ids, attention_mask)
        pooled = mean_pool(states, attention_mask)
        log_probs = None
        if site_rows is not None and site_cols is not None and site_rows.numel() > 0:
            token_sites = states[site_rows, site_cols.clamp(min=0)]
            site_states = torch.where(
                (site_cols == POOLED_SITE).unsqueeze(-1), pooled[site_rows], token_sites
            )
            log_probs = torch.log_softmax(self.head(site_states).float(), dim=-1)
        return EncoderOutput(embeddings=pooled, site_log_probs=log_probs)
