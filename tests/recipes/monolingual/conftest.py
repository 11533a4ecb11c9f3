"""The monolingual tests run tiny models on one thread; their documents come from ``document_files``
(tests/conftest.py)."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def one_thread(one_torch_thread):
    """Every monolingual test on one thread (tests/conftest.py)."""


@pytest.fixture(scope="session")
def vocabulary(document_files: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One tokenizer for the runs that are compared weight by weight (Unigram training may break ties
    differently from one run to the next)."""
    from lingualite.data.pairs import read_pairs
    from lingualite.tokenization import train_tokenizer

    texts = read_pairs(sorted(document_files.glob("*/train.tsv"))).texts
    folder = tmp_path_factory.mktemp("vocab")
    train_tokenizer(texts, vocab_size=80, sample_size=3000).save_pretrained(str(folder))
    return folder
