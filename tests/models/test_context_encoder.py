"""Paper 001's encoder: mean-max pooling by hand, and the exported folder computes the same vectors."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch

from lingualite.config.encoder import EncoderConfig
from lingualite.models.context_encoder import ContextEncoder, mean_max_pool
from lingualite.models.encoding import encode_batched


def test_mean_max_pool_shape_and_values() -> None:
    states = torch.tensor(
        [[[1.0, -2.0], [3.0, 0.0], [100.0, 100.0]], [[-1.0, 5.0], [0.0, 0.0], [2.0, -4.0]]]
    )  # (B=2, T=3, d=2); row 0's third token is padding
    mask = torch.tensor([[1, 1, 0], [1, 1, 1]])
    pooled = mean_max_pool(states, mask)
    assert pooled.shape == (2, 4)
    expected = torch.tensor([[2.0, -1.0, 3.0, 0.0], [1 / 3, 1 / 3, 2.0, 5.0]])
    torch.testing.assert_close(pooled, expected)


@pytest.mark.parametrize("pooling", ["mean_max", "mean"])
def test_export_matches_the_model(tmp_path: Path, pooling: str, tiny_tokenizer) -> None:
    from sentence_transformers import SentenceTransformer

    torch.manual_seed(0)
    cfg = EncoderConfig(len(tiny_tokenizer), 32, 1, 2, 64, 0.0, 32)
    model = ContextEncoder(cfg, pooling, pad_token_id=tiny_tokenizer.pad_token_id)
    assert model.output_dim == (64 if pooling == "mean_max" else 32)
    model.save(tiny_tokenizer, tmp_path / "m")
    assert not list((tmp_path / "m").rglob("*.bin")) and list((tmp_path / "m").rglob("*.safetensors"))
    texts = ["the cat runs", "le chien mange vite", "a big red car sees the small house"]
    ours = encode_batched(model, model, tiny_tokenizer, texts, model.output_dim, 32)
    theirs = SentenceTransformer(str(tmp_path / "m"), device="cpu").encode(texts, convert_to_numpy=True)
    np.testing.assert_allclose(ours, theirs, atol=1e-5)


def test_heads_give_one_value_per_input(tiny_tokenizer) -> None:
    cfg = EncoderConfig(len(tiny_tokenizer), 32, 1, 2, 64, 0.0, 32)
    model = ContextEncoder(cfg)
    ids = torch.tensor([[2, 10, 11, 3], [2, 12, 3, 0]])
    mask = (ids != 0).long()
    assert model.classify(ids, mask).shape == (2,) and model.regress(ids, mask).shape == (2,)
    with pytest.raises(ValueError, match="pooling"):
        ContextEncoder(cfg, pooling="cls")
