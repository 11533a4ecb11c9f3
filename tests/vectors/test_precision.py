"""Quantized vectors and their calibration file: sentence-transformers' rules, round trips, refusals."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from sentence_transformers.util.quantization import quantize_embeddings

from lingualite.core.errors import LinguaLiteError
from lingualite.vectors.precision import Calibration, calibration_path, dequantize, load_vectors, quantize


def _vectors(n: int = 50, d: int = 12, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).normal(size=(n, d)).astype(np.float32)


def test_quantize_is_sentence_transformers_quantize_embeddings() -> None:
    v = _vectors()
    for precision in ("int8", "uint8", "binary", "ubinary"):
        np.testing.assert_array_equal(quantize(v, precision), quantize_embeddings(v, precision))
    ranges = Calibration.fit(v, "int8").ranges
    np.testing.assert_array_equal(quantize(v[:1], "int8", ranges), quantize_embeddings(v[:1], "int8", ranges))
    with pytest.raises(LinguaLiteError, match="single vector needs calibration"):
        quantize(v[:1], "uint8")


def test_binary_packs_eight_components_a_byte_and_unpacks_to_signs() -> None:
    v = _vectors(d=12)
    for precision, dtype in (("binary", np.int8), ("ubinary", np.uint8)):
        stored = quantize(v, precision)
        assert stored.shape == (50, 2) and stored.dtype == dtype  # ceil(12 / 8) bytes
        signs = dequantize(stored, Calibration(precision, 12, False))
        np.testing.assert_array_equal(signs, np.where(v > 0, 1.0, -1.0))


def test_int8_dequantizes_to_the_centre_of_each_bucket() -> None:
    v = _vectors()
    cal = Calibration.fit(v, "int8", normalized=False)
    for precision in ("int8", "uint8"):
        back = dequantize(quantize(v, precision, cal.ranges), Calibration(precision, 12, False, cal.ranges))
        step = (cal.ranges[1] - cal.ranges[0]) / 255
        assert np.all(np.abs(back - v) <= step / 2 + 1e-5)  # the max sits on the last bucket's edge


def test_calibration_round_trip_and_bad_files(tmp_path: Path) -> None:
    cal = Calibration.fit(_vectors(), "uint8", normalized=True, rows=50, dimensions=12, model="m")
    path = cal.save(tmp_path / "v.calibration.json")
    back = Calibration.load(path)
    assert back == cal and np.array_equal(back.ranges, cal.ranges)
    assert calibration_path(tmp_path / "v.npy") == path
    (tmp_path / "bad.json").write_text("{}")
    with pytest.raises(LinguaLiteError, match="not a lingualite calibration file"):
        Calibration.load(tmp_path / "bad.json")
    with pytest.raises(LinguaLiteError, match="does not exist"):
        Calibration.load(tmp_path / "missing.json")
    with pytest.raises(LinguaLiteError, match="ranges of 12-d normalised vectors; these are 8-d"):
        cal.check_matches(8, True, "--calibration")


def test_load_vectors_checks_that_the_two_files_agree(tmp_path: Path) -> None:
    v = _vectors()
    cal = Calibration.fit(v, "int8", rows=50)
    np.save(tmp_path / "v.npy", quantize(v, "int8", cal.ranges))
    cal.save(tmp_path / "v.calibration.json")
    stored, got = load_vectors(tmp_path / "v.npy")
    assert stored.dtype == np.int8 and got == cal
    floats, _ = load_vectors(tmp_path / "v.npy", dequantized=True)
    assert floats.dtype == np.float32 and floats.shape == (50, 12)
    np.save(tmp_path / "v.npy", quantize(v[:10], "int8", cal.ranges))  # a later run's rows, the old sidecar
    with pytest.raises(LinguaLiteError, match="written by different runs"):
        load_vectors(tmp_path / "v.npy")
    np.save(tmp_path / "f.npy", v)
    assert load_vectors(tmp_path / "f.npy")[1] is None  # float32 needs no calibration file
