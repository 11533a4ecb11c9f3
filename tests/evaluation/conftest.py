"""Fixtures of the evaluation-task tests: a fake encoder with fixed vectors and a tiny random ST model."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import pytest


class FakeEncoder:
    """Returns the fixed vector of each known text (an unknown text is a test bug: KeyError)."""

    name = "fake"

    def __init__(self, vectors: Mapping[str, Sequence[float]]) -> None:
        self.vectors = {text: np.asarray(vec, dtype=np.float32) for text, vec in vectors.items()}

    def encode(self, texts: list[str]) -> np.ndarray:
        return np.stack([self.vectors[t] for t in texts])


@pytest.fixture
def fake_encoder() -> type[FakeEncoder]:
    """The :class:`FakeEncoder` class: ``fake_encoder({"text": [1, 0], ...})``."""
    return FakeEncoder


@pytest.fixture(scope="session")
def tiny_st_model(tiny_tokenizer, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An untrained 32-dim lingualite encoder saved as a sentence-transformers folder."""
    import torch

    from lingualite.config.encoder import EncoderConfig
    from lingualite.models.dual_encoder import DualEncoder

    torch.manual_seed(0)
    model = DualEncoder(
        EncoderConfig(vocab_size=len(tiny_tokenizer), hidden_size=32, num_heads=2, ffn_size=64)
    )
    return model.save(tiny_tokenizer, tmp_path_factory.mktemp("st") / "tiny")


@pytest.fixture(scope="session")
def valid_pairs(synthetic_corpus: Path) -> tuple[list[str], list[str]]:
    """The synthetic en/fr validation pairs, keeping pairs whose en and fr sides are both new."""
    from lingualite.data.readers import read_tsv

    en: list[str] = []
    fr: list[str] = []
    for pair in read_tsv(synthetic_corpus / "en-fr" / "valid.tsv"):
        if pair.src not in en and pair.tgt not in fr:
            en.append(pair.src)
            fr.append(pair.tgt)
    return en, fr
