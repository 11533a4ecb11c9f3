"""A tiny real static model folder (seeded), shared by the encode, parallel-encode and Ray tests."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch


@pytest.fixture(scope="module")
def static_model(tiny_tokenizer, tmp_path_factory: pytest.TempPathFactory) -> Path:
    from sentence_transformers import SentenceTransformer
    from sentence_transformers.sentence_transformer.modules import StaticEmbedding

    torch.manual_seed(0)
    folder = tmp_path_factory.mktemp("static") / "m"
    embedding = StaticEmbedding(tiny_tokenizer.backend_tokenizer, embedding_dim=16)
    SentenceTransformer(modules=[embedding], device="cpu").save(str(folder))
    return folder
