"""The encoder's shape (a config section every recipe has: `model`, or the distillation `student`)."""

from __future__ import annotations

from dataclasses import dataclass

from lingualite.core.errors import ConfigError


@dataclass
class EncoderConfig:
    """Shape of the shared dual-transformer encoder (paper 000, Sec. 3.1: 2 layers, d = 512).

    :param vocab_size: set from the trained tokenizer; 0 means "take it from the tokenizer".
    :param hidden_size: d, the width of the token states and of the sentence vectors u, v.
    :param num_layers: transformer layers (1-6; the paper's lightweight model uses 2).
    :param num_heads: attention heads; must divide ``hidden_size``.
    :param ffn_size: inner size of the feed-forward blocks (paper: 1024 for d = 512).
    :param dropout: dropout on states and attention probabilities (paper: 0.1).
    :param max_seq_length: longer inputs are truncated (tokens, including [CLS] and [SEP]).
    """

    vocab_size: int = 0
    hidden_size: int = 256
    num_layers: int = 2
    num_heads: int = 4
    ffn_size: int = 512
    dropout: float = 0.1
    max_seq_length: int = 64

    def validate(self, section: str = "model") -> None:
        """Check every field; messages name the key as ``<section>.<field>``."""
        if not 1 <= self.num_layers <= 12:
            raise ConfigError(f"{section}.num_layers must be in 1..12, got {self.num_layers}")
        if self.hidden_size <= 0 or self.num_heads <= 0 or self.hidden_size % self.num_heads:
            raise ConfigError(
                f"{section}.hidden_size ({self.hidden_size}) must be a positive multiple of {section}.num_heads "
                f"({self.num_heads})"
            )
        if self.ffn_size <= 0:
            raise ConfigError(f"{section}.ffn_size must be positive, got {self.ffn_size}")
        if not 0.0 <= self.dropout < 1.0:
            raise ConfigError(f"{section}.dropout must be in [0, 1), got {self.dropout}")
        if not 8 <= self.max_seq_length <= 512:
            raise ConfigError(f"{section}.max_seq_length must be in 8..512, got {self.max_seq_length}")
