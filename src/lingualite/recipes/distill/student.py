"""The student: a small BERT-style encoder with its own vocabulary, mean pooling, and (when its width differs
from the teacher's dimension) a Dense projection. Paper 002's S-mBERT (1/128) is 1 layer of width 128.

It is saved as an ordinary sentence-transformers folder (``Transformer -> Pooling(mean) [-> Dense]``, weights in
safetensors), so anything that reads that format loads it without lingualite.
"""

from __future__ import annotations

from pathlib import Path

import torch
from torch import nn
from transformers import BertModel, PreTrainedTokenizerFast

from lingualite.config.encoder import EncoderConfig
from lingualite.models.dual_encoder import bert_config, bert_mask, mean_pool
from lingualite.models.export import save_encoder_folder
from lingualite.models.sentence_encoder import SentenceEncoder


class StudentEncoder(SentenceEncoder):
    """``BertModel`` (no pooler) -> masked mean pooling -> optional ``Linear(hidden, output_dim)``.

    :param cfg: the encoder's shape; ``cfg.vocab_size`` is the student vocabulary's size.
    :param output_dim: the teacher's (reduced) dimension; a projection is added when it is not
        ``cfg.hidden_size``.
    """

    def __init__(self, cfg: EncoderConfig, output_dim: int, pad_token_id: int = 0) -> None:
        super().__init__()
        cfg.validate()
        self.cfg, self.output_dim, self.max_seq_length = cfg, output_dim, cfg.max_seq_length
        config = bert_config(cfg, pad_token_id)
        config._attn_implementation = "sdpa"  # PyTorch's fused attention kernels
        self.bert = BertModel(config, add_pooling_layer=False)
        self.projection = nn.Linear(cfg.hidden_size, output_dim) if output_dim != cfg.hidden_size else None

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        states = self.bert(input_ids=input_ids, attention_mask=bert_mask(attention_mask)).last_hidden_state
        pooled = mean_pool(states, attention_mask)
        return pooled if self.projection is None else self.projection(pooled)

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

    def save(self, tokenizer: PreTrainedTokenizerFast, path: str | Path) -> Path:
        """Transformer -> Pooling(mean) [-> Dense]: an ordinary sentence-transformers folder."""
        from sentence_transformers.sentence_transformer.modules import Dense

        extra: list[nn.Module] = []
        if self.projection is not None:
            extra.append(
                Dense(
                    self.cfg.hidden_size,
                    self.output_dim,
                    bias=True,
                    activation_function=nn.Identity(),
                    init_weight=self.projection.weight.detach().clone(),
                    init_bias=self.projection.bias.detach().clone(),
                )
            )
        return save_encoder_folder(self.bert, tokenizer, path, self.max_seq_length, extra_modules=extra)
