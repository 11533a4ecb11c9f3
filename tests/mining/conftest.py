"""A tiny real static model (a model2vec-style folder, loaded by spec string like any user model)."""

from __future__ import annotations

import pytest
import torch


@pytest.fixture(scope="session")
def static_model(tiny_tokenizer, tmp_path_factory: pytest.TempPathFactory) -> str:
    from sentence_transformers import SentenceTransformer
    from sentence_transformers.sentence_transformer.modules import Normalize, StaticEmbedding

    torch.manual_seed(0)
    embedding = StaticEmbedding(tiny_tokenizer.backend_tokenizer, embedding_dim=24)
    folder = tmp_path_factory.mktemp("static") / "model"
    SentenceTransformer(modules=[embedding, Normalize()], device="cpu").save(str(folder))
    return f"static:{folder}"
