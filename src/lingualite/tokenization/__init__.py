"""Shared multilingual subword vocabularies."""

from lingualite.tokenization.sampling import smoothed_language_shares
from lingualite.tokenization.train import SPECIAL_TOKENS, load_tokenizer, train_tokenizer

__all__ = ["SPECIAL_TOKENS", "load_tokenizer", "smoothed_language_shares", "train_tokenizer"]
