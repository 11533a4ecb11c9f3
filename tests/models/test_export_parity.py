"""The saved folder loads in sentence-transformers and transformers and gives the same vectors as lingualite."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch

from lingualite.config.encoder import EncoderConfig
from lingualite.models.dual_encoder import DualEncoder

pytestmark = pytest.mark.slow  # exports and checks ONNX graphs: left out of the fast tier

SENTENCES = [
    "the big cat runs quickly",
    "le petit chien dort",
    "a",
    "red blue house car dog sees the cat slowly",
]


def test_sentence_transformers_and_transformers_load_the_same_vectors(tiny_tokenizer, tmp_path) -> None:
    from sentence_transformers import SentenceTransformer
    from transformers import AutoModel

    torch.manual_seed(0)
    model = DualEncoder(
        EncoderConfig(vocab_size=len(tiny_tokenizer), hidden_size=32, num_heads=2, ffn_size=64)
    )
    ours = model.encode_texts(tiny_tokenizer, SENTENCES)
    folder = model.save(tiny_tokenizer, tmp_path / "model")

    assert (folder / "model.safetensors").exists()
    assert not list(folder.rglob("*.bin")) and not list(folder.rglob("*.pt"))
    assert json.loads((folder / "config.json").read_text())["model_type"] == "bert"

    st = SentenceTransformer(str(folder), device="cpu")
    np.testing.assert_allclose(st.encode(SENTENCES), ours, atol=1e-5)

    hf = AutoModel.from_pretrained(str(folder)).eval()
    enc = tiny_tokenizer(SENTENCES, padding=True, return_tensors="pt")
    with torch.no_grad():
        states = hf(**enc).last_hidden_state
    mask = enc["attention_mask"].unsqueeze(-1).float()
    np.testing.assert_allclose(((states * mask).sum(1) / mask.sum(1)).numpy(), ours, atol=1e-5)


def test_encode_cli_writes_the_same_float32_vectors(tiny_tokenizer, tmp_path) -> None:
    from typer.testing import CliRunner

    from lingualite.cli.main import app

    torch.manual_seed(0)
    model = DualEncoder(
        EncoderConfig(vocab_size=len(tiny_tokenizer), hidden_size=32, num_heads=2, ffn_size=64)
    )
    folder = model.save(tiny_tokenizer, tmp_path / "model")
    text = tmp_path / "in.txt"
    text.write_text("\n".join(SENTENCES) + "\n", encoding="utf-8")
    result = CliRunner().invoke(
        app,
        [
            "encode",
            "--model",
            str(folder),
            "--input",
            str(text),
            "--output",
            str(tmp_path / "v.npy"),
            "--no-normalize",
        ],
    )
    assert result.exit_code == 0, result.output
    vectors = np.load(tmp_path / "v.npy")
    assert vectors.dtype == np.float32 and vectors.shape == (4, 32)
    np.testing.assert_allclose(vectors, model.encode_texts(tiny_tokenizer, SENTENCES), atol=1e-5)
