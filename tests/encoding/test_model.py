"""``lingualite.load_encoder`` / ``Encoder``: the model a user holds (encode, dimension, save, export)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import lingualite
from lingualite.core.errors import LinguaLiteError
from lingualite.encoders.base import Encoder as EncoderProtocol

TEXTS = ["the cat runs", "a dog eats", "the red car"]


def test_an_encoder_encodes_as_the_api_does_and_takes_sentence_transformers_names(static_model: Path) -> None:
    model = lingualite.load_encoder(str(static_model))
    assert isinstance(model, lingualite.Encoder) and isinstance(model, EncoderProtocol)
    assert model.dimension == 16 and "dimension=16" in repr(model)
    vectors = model.encode(TEXTS)
    np.testing.assert_allclose(vectors, lingualite.encode(str(static_model), TEXTS), atol=1e-6)
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)  # unit length by default
    short = model.encode(TEXTS, truncate_dim=8, normalize_embeddings=False)
    np.testing.assert_allclose(
        short, lingualite.encode(model, TEXTS, dimensions=8, normalize=False), atol=1e-6
    )
    with pytest.raises(TypeError, match="one string"):  # one rule for every API that takes texts (guarantees)
        model.encode("one text")
    with pytest.raises(ValueError, match="give one"):
        model.encode(TEXTS, dimensions=8, truncate_dim=4)


def test_an_encoder_saves_a_copy_that_loads_the_same(static_model: Path, tmp_path: Path) -> None:
    model = lingualite.load_encoder(str(static_model))
    copy = model.save(tmp_path / "copy")
    np.testing.assert_allclose(
        lingualite.load_encoder(str(copy)).encode(TEXTS), model.encode(TEXTS), atol=1e-6
    )
    with pytest.raises(LinguaLiteError, match="not empty"):
        model.save(copy)
    with pytest.raises(LinguaLiteError, match="nothing to save"):
        lingualite.load_encoder("tfidf").save(tmp_path / "tfidf")
