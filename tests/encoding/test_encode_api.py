"""``lingualite.encode`` / ``encode_file``: the command's truncation and precision from Python."""

from __future__ import annotations

import logging
from pathlib import Path

import numpy as np
import pytest
from sentence_transformers.util.quantization import quantize_embeddings

import lingualite
from lingualite.core.errors import LinguaLiteError
from lingualite.encoders.matryoshka_dims import write_trained_dimensions
from lingualite.vectors.truncation import truncate

TEXTS = ["the cat runs", "a dog eats", "the red car", "a small house sleeps", "blue dog sees"]


def test_encode_truncates_renormalises_and_quantizes(static_model: Path, caplog) -> None:
    full = lingualite.encode(str(static_model), TEXTS)
    assert full.shape == (5, 16) and full.dtype == np.float32
    with caplog.at_level(logging.WARNING, logger="lingualite.encoding.api"):
        short = lingualite.encode(str(static_model), TEXTS, normalize=True, dimensions=8)
    np.testing.assert_allclose(short, truncate(full, 8, normalize=True), atol=1e-6)
    assert "not trained with matryoshka_dims" in caplog.text  # the one-line warning
    q = lingualite.encode(str(static_model), TEXTS, dimensions=8, normalize=True, precision="int8")
    np.testing.assert_array_equal(q, quantize_embeddings(short, "int8"))
    b = lingualite.encode(str(static_model), TEXTS, dimensions=8, precision="ubinary")
    assert b.shape == (5, 1) and b.dtype == np.uint8
    with pytest.raises(LinguaLiteError, match="above the model's dimension"):
        lingualite.encode(str(static_model), TEXTS, dimensions=17)


def test_no_warning_for_a_size_the_model_was_trained_for(static_model: Path, tmp_path: Path, caplog) -> None:
    import shutil

    model = tmp_path / "m"
    shutil.copytree(static_model, model)
    write_trained_dimensions(model, [16, 8], 16)
    with caplog.at_level(logging.WARNING, logger="lingualite.encoding.api"):
        lingualite.encode(str(model), TEXTS, dimensions=8)
    assert caplog.text == ""


def test_encode_file_writes_the_calibration_that_queries_reuse(static_model: Path, tmp_path: Path) -> None:
    src = tmp_path / "docs.txt"
    src.write_text("\n".join(TEXTS * 4) + "\n")
    out = tmp_path / "docs.npy"
    result = lingualite.encode_file(
        str(static_model), src, out, normalize=True, dimensions=8, precision="int8", progress=False
    )
    assert result.calibration is not None and result.warning and result.dimension == 8
    stored, cal = lingualite.load_vectors(out)
    floats = lingualite.encode(str(static_model), TEXTS * 4, normalize=True, dimensions=8)
    np.testing.assert_array_equal(stored, quantize_embeddings(floats, "int8"))
    queries = lingualite.encode(
        str(static_model), TEXTS[:1], normalize=True, dimensions=8, precision="int8",
        calibration=tmp_path / "docs.calibration.json",
    )  # fmt: skip
    np.testing.assert_array_equal(queries, stored[:1])  # the documents' ranges: the same codes
    back = lingualite.dequantize(stored, cal)
    assert np.min(np.sum(back * floats, 1) / np.linalg.norm(back, axis=1)) > 0.99
