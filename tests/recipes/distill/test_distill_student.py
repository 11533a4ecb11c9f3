"""The student folder is an ordinary sentence-transformers model that encodes exactly like lingualite's forward."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch

from lingualite.config.encoder import EncoderConfig
from lingualite.recipes.distill.student import StudentEncoder

SENTENCES = [
    "the big cat runs quickly",
    "le petit chien dort",
    "a",
    "red blue house car dog sees the cat slowly",
]


@pytest.mark.parametrize("output_dim", [16, 8])  # 16: no projection; 8: a Dense layer after pooling
def test_saved_student_loads_in_sentence_transformers_with_same_vectors(
    tiny_tokenizer, tmp_path: Path, output_dim: int
) -> None:
    from sentence_transformers import SentenceTransformer

    torch.manual_seed(0)
    cfg = EncoderConfig(
        vocab_size=len(tiny_tokenizer), hidden_size=16, num_layers=1, num_heads=2, ffn_size=32
    )
    student = StudentEncoder(cfg, output_dim)
    assert (student.projection is None) == (output_dim == 16)
    ours = student.encode_texts(tiny_tokenizer, SENTENCES)
    folder = student.save(tiny_tokenizer, tmp_path / "student")

    assert (folder / "modules.json").exists() and (folder / "model.safetensors").exists()
    assert not [p for p in folder.rglob("*") if p.suffix in (".bin", ".pt", ".pkl", ".pth")]
    st = SentenceTransformer(str(folder), device="cpu")
    assert st.get_embedding_dimension() == output_dim
    np.testing.assert_allclose(st.encode(SENTENCES), ours, atol=1e-5)


def test_output_scale_matches_the_teacher_at_start(tiny_tokenizer) -> None:
    torch.manual_seed(0)
    cfg = EncoderConfig(
        vocab_size=len(tiny_tokenizer), hidden_size=16, num_layers=1, num_heads=2, ffn_size=32
    )
    for output_dim in (16, 8):
        student = StudentEncoder(cfg, output_dim)
        student.match_output_scale(0.05)
        rms = float(np.sqrt((student.encode_texts(tiny_tokenizer, SENTENCES * 5) ** 2).mean()))
        assert 0.01 < rms < 0.1, (output_dim, rms)
