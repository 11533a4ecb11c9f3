"""The streamed writer with truncation and precision: the same arrays as the in-memory rules, atomically."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from sentence_transformers.util.quantization import quantize_embeddings

from lingualite.core.errors import LinguaLiteError
from lingualite.encoding import output as vector_output
from lingualite.encoding.output import OutputFormat, write_npy
from lingualite.vectors.precision import Calibration, load_vectors
from lingualite.vectors.truncation import truncate


def _blocks(v: np.ndarray, size: int = 7):
    return (v[i : i + size].copy() for i in range(0, len(v), size))


def test_int8_from_streamed_blocks_equals_quantizing_every_vector_at_once(
    tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.setattr(vector_output, "REREAD_ROWS", 5)  # several blocks in the second pass too
    v = np.random.default_rng(0).normal(size=(30, 10)).astype(np.float32)
    fmt = OutputFormat(dimensions=6, precision="int8")
    out = tmp_path / "v.npy"
    assert write_npy(out, [], 30, _blocks(v), normalize=True, progress=False, fmt=fmt) == 6
    expected = quantize_embeddings(truncate(v, 6, normalize=True), "int8")
    stored, cal = load_vectors(out)
    np.testing.assert_array_equal(stored, expected)
    assert (
        cal is not None and cal.rows == 30 and cal.dimension == 6 and cal.normalized and cal.dimensions == 6
    )
    assert {p.name for p in tmp_path.iterdir()} == {"v.npy", "v.calibration.json"}  # no scratch left


def test_given_ranges_are_used_and_must_match(tmp_path: Path) -> None:
    docs = np.random.default_rng(0).normal(size=(40, 8)).astype(np.float32)
    cal = Calibration.fit(docs, "int8")
    queries = docs[:5] * 0.5
    fmt = OutputFormat(precision="uint8", calibration=cal)
    write_npy(tmp_path / "q.npy", [], 5, _blocks(queries), progress=False, fmt=fmt)
    np.testing.assert_array_equal(
        np.load(tmp_path / "q.npy"), quantize_embeddings(queries, "uint8", ranges=cal.ranges)
    )
    with pytest.raises(LinguaLiteError, match="ranges of 8-d unnormalised vectors; these are 8-d normalised"):
        write_npy(tmp_path / "r.npy", [], 5, _blocks(queries), normalize=True, progress=False, fmt=fmt)
    assert not (tmp_path / "r.npy").exists()  # a failed write leaves nothing
    with pytest.raises(LinguaLiteError, match="only int8 and uint8 use calibration"):
        OutputFormat(precision="binary", calibration=cal).check()


def test_float32_without_options_is_written_as_before(tmp_path: Path) -> None:
    v = np.random.default_rng(1).normal(size=(9, 4)).astype(np.float32)
    write_npy(tmp_path / "v.npy", [], 9, _blocks(v), normalize=True, progress=False)
    np.testing.assert_allclose(np.load(tmp_path / "v.npy"), v / np.linalg.norm(v, axis=1, keepdims=True))
    assert not (tmp_path / "v.calibration.json").exists()
