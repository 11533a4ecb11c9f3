"""Tiny monolingual (paper 001) configs on ``document_files`` (tests/conftest.py), shared by the monolingual
tests and the reproduction studies' tests: a 1 x 32 model that trains in seconds on one thread."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def tiny_monolingual_dict(
    root: Path, classification_steps: int = 40, tokenizer: Path | None = None
) -> dict[str, Any]:
    """The raw config mapping (no ``mode`` key), for tests that change or write it."""
    return {
        "data": {
            "train_files": [str(root / "*" / "train.tsv")],
            "valid_files": [str(root / "*" / "valid.tsv")],
            "languages": ["en", "fr", "de"],
            "max_sentences_per_language": None,
            "valid_pairs": 40,
        },
        "vocabulary": {
            "size": 80,
            "sample_size": 3000,
            "path": str(tokenizer) if tokenizer else None,
        },
        "model": {
            "hidden_size": 32,
            "num_layers": 1,
            "num_heads": 2,
            "ffn_size": 64,
            "max_seq_length": 64,
        },
        "context": {"max_sentence_tokens": 16},
        "classification": {
            "max_steps": classification_steps,
            "batch_size": 16,
            "lr": 3e-3,
            "save_every": 10,
        },
        "mining": {
            "sample_size": 20,
            "pool_size": 60,
            "pairs_per_round": 30,
            "target_pairs": 90,
            "iterations": 2,
        },  # fmt: skip
        "regression": {"max_steps": 10, "batch_size": 16, "save_every": 3},
        # no real evaluation sets in these tests (test_paper_measures builds tiny ones)
        "evaluation": {"classify": [], "pairs": []},
    }
