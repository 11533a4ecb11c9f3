"""The one truncation rule and the trained-sizes record (:mod:`lingualite.vectors.truncation`)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from lingualite.core.errors import LinguaLiteError
from lingualite.encoders.matryoshka_dims import (
    MATRYOSHKA_FILE,
    check_dimensions,
    trained_dimensions,
    write_trained_dimensions,
)
from lingualite.vectors.truncation import truncate


def test_truncate_keeps_the_prefix_and_renormalises_only_when_asked() -> None:
    v = np.array([[3.0, 4.0, 12.0], [0.0, 0.0, 1.0]], dtype=np.float32)
    np.testing.assert_allclose(truncate(v, 2, normalize=False), [[3, 4], [0, 0]])
    np.testing.assert_allclose(truncate(v, 2, normalize=True), [[0.6, 0.8], [0, 0]])  # a zero row stays 0
    np.testing.assert_allclose(
        truncate(v, None, normalize=True), v / np.linalg.norm(v, axis=1, keepdims=True)
    )
    assert v[0, 0] == 3.0  # the input is not changed
    with pytest.raises(LinguaLiteError, match="between 1 and the vectors' dimension 3"):
        truncate(v, 4, normalize=True)


def test_the_trained_sizes_travel_with_the_folder(tmp_path: Path) -> None:
    folder = tmp_path / "m"
    folder.mkdir()
    assert trained_dimensions(folder) is None
    write_trained_dimensions(folder, None, 8)  # a plain model: nothing written
    assert not (folder / MATRYOSHKA_FILE).exists()
    write_trained_dimensions(folder, [8, 4], 8)
    assert trained_dimensions(folder) == [8, 4] == trained_dimensions(f"onnx-int8:{folder}")
    assert trained_dimensions("use-m") is None  # a baseline name has no folder
    (folder / MATRYOSHKA_FILE).write_text('{"matryoshka_dims": ["x"]}')
    with pytest.raises(LinguaLiteError, match=MATRYOSHKA_FILE):
        trained_dimensions(folder)


def test_check_dimensions_errors_above_the_model_and_warns_for_untrained_sizes(tmp_path: Path) -> None:
    folder = tmp_path / "m"
    folder.mkdir()
    assert check_dimensions(folder, None, 8) is None and check_dimensions(folder, 8, 8) is None
    with pytest.raises(LinguaLiteError, match="above the model's dimension"):
        check_dimensions(folder, 9, 8)
    assert "not trained with matryoshka_dims" in (check_dimensions(folder, 4, 8) or "")
    write_trained_dimensions(folder, [8, 4], 8)
    assert check_dimensions(folder, 4, 8) is None
    assert "trained for 8, 4" in (check_dimensions(folder, 2, 8) or "")
