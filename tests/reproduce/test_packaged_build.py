"""The package assembly keeps a static model's vectors while halving its table, and counts bytes."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from safetensors.numpy import load_file

from lingualite.encoders.static import StaticEncoder
from lingualite.reproduce.packaged_build import _static_files, folder_bytes

pytestmark = pytest.mark.slow  # trains a model: left out of the fast tier


def test_static_table_in_float16_gives_the_same_vectors(static_model: Path, tmp_path: Path) -> None:
    out = tmp_path / "static"
    out.mkdir()
    _static_files(static_model, out)
    tables = load_file(str(out / "model.safetensors"))
    assert all(t.dtype == np.float16 for t in tables.values())
    texts = ["a small test", "another sentence here", "words"]
    full, half = StaticEncoder(static_model).encode(texts), StaticEncoder(out).encode(texts)
    cos = np.sum(full * half, axis=1) / (np.linalg.norm(full, axis=1) * np.linalg.norm(half, axis=1))
    assert cos.min() > 0.999
    assert folder_bytes(out) < folder_bytes(static_model)
