"""int8/uint8 ranges taken from the input itself: one row, or rows that are all identical, give every
component an empty range and every code the same value. Refused wherever codes are made (issue 41, item 1)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

import lingualite
from lingualite.cli.main import app
from lingualite.core.errors import LinguaLiteError
from lingualite.vectors.precision import Calibration, quantize

runner = CliRunner()


def _encode(model: Path, src: Path, out: Path, *extra: str):
    return runner.invoke(
        app, ["encode", "--model", str(model), "--input", str(src), "--output", str(out), *extra]
    )


@pytest.mark.parametrize("precision", ["int8", "uint8"])
@pytest.mark.parametrize("text", ["the cat\n", "the cat\nthe cat\nthe cat\n"])
def test_encode_refuses_codes_that_carry_nothing(
    static_model: Path, tmp_path: Path, precision: str, text: str
):
    src = tmp_path / "in.txt"
    src.write_text(text)
    out = tmp_path / "v.npy"
    res = _encode(static_model, src, out, "--precision", precision)
    assert res.exit_code == 2, res.output
    assert "--calibration" in res.output and res.output.count("\n") == 1, res.output
    assert not out.exists() and not (tmp_path / "v.calibration.json").exists()
    # with the ranges of other vectors, one row is fine
    docs = tmp_path / "docs.txt"
    docs.write_text("the cat\na dog eats\nthe red car\n")
    assert _encode(static_model, docs, tmp_path / "d.npy", "--precision", precision).exit_code == 0
    res = _encode(
        static_model,
        src,
        out,
        "--precision",
        precision,
        "--calibration",
        str(tmp_path / "d.calibration.json"),
    )
    assert res.exit_code == 0, res.output
    assert len(np.unique(np.load(out))) > 1


def test_the_api_refuses_identical_rows_too(static_model: Path, tmp_path: Path) -> None:
    with pytest.raises(LinguaLiteError, match="calibration"):
        lingualite.encode(str(static_model), ["the cat", "the cat"], precision="int8")
    src = tmp_path / "in.txt"
    src.write_text("the cat\nthe cat\n")
    with pytest.raises(LinguaLiteError, match="calibration"):
        lingualite.encode_file(str(static_model), src, tmp_path / "v.npy", precision="uint8", progress=False)
    with pytest.raises(LinguaLiteError, match="calibration"):
        quantize(np.ones((3, 4), dtype=np.float32), "int8")
    with pytest.raises(LinguaLiteError, match="identical"):
        Calibration.fit(np.ones((3, 4), dtype=np.float32))
    # a component that never varies (TF-IDF's unused words) is fine while another does
    ok = quantize(np.array([[0.0, 1.0], [0.0, 2.0]], dtype=np.float32), "int8")
    assert ok[0, 1] == -128 and ok[1, 1] > 100


def test_a_calibration_file_with_empty_ranges_is_refused(tmp_path: Path) -> None:
    cal = Calibration("int8", 2, False, np.array([[1.0, 2.0], [1.0, 2.0]], dtype=np.float32))
    cal.save(tmp_path / "c.calibration.json")
    with pytest.raises(LinguaLiteError, match="empty"):
        Calibration.load(tmp_path / "c.calibration.json")


@pytest.mark.parametrize("text", ["the cat\n", "the cat\nthe cat\n"])
def test_an_int8_index_refuses_ranges_of_one_vector(static_model: Path, tmp_path: Path, text: str) -> None:
    """The sibling in `index build --quantization int8`: FAISS's scalar quantizer learns its ranges from the
    documents; one document (or identical ones) gave every code the same value, and documents added later
    were found at random (3 of 19 exact-text queries first)."""
    from lingualite.search import SearchIndex

    docs = tmp_path / "docs.txt"
    docs.write_text(text)
    with pytest.raises(LinguaLiteError, match="--quantization none"):
        SearchIndex.build(f"static:{static_model}", docs, tmp_path / "idx", quantization="int8")
    assert not (tmp_path / "idx").exists()
    res = runner.invoke(
        app, ["index", "build", "--model", f"static:{static_model}", "--input", str(docs), "--output",
              str(tmp_path / "idx"), "--quantization", "int8"],
    )  # fmt: skip
    assert res.exit_code == 2 and "--quantization none" in res.output, res.output
