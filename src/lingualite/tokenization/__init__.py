"""Shared multilingual subword vocabularies.

The names are loaded on first use, so reading a setting (``alphabet.CHARACTER_COVERAGE``) from a config does
not import ``tokenizers`` and ``transformers``."""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "SPECIAL_TOKENS": "lingualite.tokenization.tokenizer",
    "load_tokenizer": "lingualite.tokenization.tokenizer",
    "train_tokenizer": "lingualite.tokenization.tokenizer",
    "smoothed_language_shares": "lingualite.tokenization.sampling",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(_EXPORTS[name]), name)
