"""The static tier in numpy gives sentence-transformers' StaticEmbedding vectors, faster and without torch."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch

from lingualite.core.errors import LinguaLiteError
from lingualite.encoders.resolve import load_encoder
from lingualite.encoders.static import StaticEncoder


@pytest.fixture(scope="module")
def static_folder(tiny_tokenizer, tmp_path_factory: pytest.TempPathFactory) -> Path:
    from sentence_transformers import SentenceTransformer
    from sentence_transformers.sentence_transformer.modules import Normalize, StaticEmbedding

    torch.manual_seed(0)
    embedding = StaticEmbedding(tiny_tokenizer.backend_tokenizer, embedding_dim=12)
    folder = tmp_path_factory.mktemp("static") / "model"
    SentenceTransformer(modules=[embedding, Normalize()], device="cpu").save(str(folder))
    return folder


def test_same_vectors_as_sentence_transformers(static_folder: Path) -> None:
    from sentence_transformers import SentenceTransformer

    texts = ["the big cat runs", "le chat", "a", "the the the dog dog", "unknownword xyz"]
    expected = SentenceTransformer(str(static_folder), device="cpu").encode(texts)
    got = load_encoder(f"static:{static_folder}").encode(texts)
    np.testing.assert_allclose(got, expected, atol=1e-5)
    assert np.allclose(np.linalg.norm(got, axis=1), 1.0, atol=1e-5)  # the folder's Normalize module


def test_empty_input_and_empty_sentences(static_folder: Path) -> None:
    encoder = StaticEncoder(static_folder)
    assert encoder.encode([]).shape == (0, 12)
    assert not encoder.encode([""]).any()  # no tokens: a zero vector, not NaN


def test_a_transformer_folder_is_not_static(tiny_tokenizer, tmp_path: Path) -> None:
    from lingualite.config.encoder import EncoderConfig
    from lingualite.models.dual_encoder import DualEncoder

    folder = DualEncoder(
        EncoderConfig(vocab_size=len(tiny_tokenizer), hidden_size=16, num_heads=2, ffn_size=32)
    ).save(
        tiny_tokenizer,
        tmp_path / "dual",
    )
    with pytest.raises(LinguaLiteError, match="not a static model"):
        StaticEncoder(folder)


def test_token_counts_are_the_tokens_averaged(static_folder: Path, tiny_tokenizer) -> None:
    texts = ["the big cat runs", "le chat", "unknownword xyz"]
    expected = [len(tiny_tokenizer(t, add_special_tokens=False)["input_ids"]) for t in texts]
    assert StaticEncoder(static_folder).count_tokens(texts) == expected


def test_a_static_folder_loaded_without_the_prefix_still_refuses_text_it_has_no_token_for(
    static_folder: Path,
) -> None:
    """Loaded as a plain sentence-transformers folder (its StaticEmbedding holds a `tokenizers.Tokenizer`, with
    no `unk_token_id`), an emoji-only line is still found before encoding: its vector would be the `[UNK]` row,
    the same for every such line, and not zero (so the after-encoding check alone would miss it)."""
    from lingualite.encoders.folder import SentenceTransformerEncoder
    from lingualite.encoders.known_tokens import no_known_token

    plain, static = load_encoder(str(static_folder)), load_encoder(f"static:{static_folder}")
    assert isinstance(plain, SentenceTransformerEncoder)
    texts = ["🙂🙂", "the big cat", "ᚠᚢᚦ"]
    assert no_known_token(plain, texts).tolist() == [True, False, True]
    assert no_known_token(plain, texts).tolist() == no_known_token(static, texts).tolist()
    share, all_unknown = plain.unknown_report(texts)
    assert all_unknown == 2 and 0 < share < 1
