"""`lingualite encode`: never destroys a directory or its input, reads text strictly, reports unknown text."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import numpy as np
import pytest
import torch
from typer.testing import CliRunner

from lingualite.cli.main import app
from lingualite.config.encoder import EncoderConfig
from lingualite.models.dual_encoder import DualEncoder

runner = CliRunner()


@pytest.fixture(scope="module")
def model(tiny_tokenizer, tmp_path_factory) -> Path:
    torch.manual_seed(0)
    enc = DualEncoder(EncoderConfig(vocab_size=len(tiny_tokenizer), hidden_size=32, num_heads=2, ffn_size=64))
    return enc.save(tiny_tokenizer, tmp_path_factory.mktemp("m") / "model")


def _encode(model: Path | str, src: Path, out: Path, *extra: str):
    return runner.invoke(
        app, ["encode", "--model", str(model), "--input", str(src), "--output", str(out), *extra]
    )


def _text(tmp_path: Path, data: bytes) -> Path:
    path = tmp_path / "in.txt"
    path.write_bytes(data)
    return path


def test_an_existing_directory_is_never_replaced(model: Path, tmp_path: Path) -> None:
    victim = tmp_path / "run"
    (victim / "checkpoints").mkdir(parents=True)
    (victim / "model.safetensors").write_bytes(b"precious")
    res = _encode(model, _text(tmp_path, b"the cat\n"), victim)
    assert res.exit_code == 2 and "is a directory" in res.output
    assert (victim / "model.safetensors").read_bytes() == b"precious" and (victim / "checkpoints").is_dir()


def test_the_output_is_never_the_input(model: Path, tmp_path: Path) -> None:
    src = _text(tmp_path, b"the cat\n")
    res = _encode(model, src, src)
    assert res.exit_code == 2 and "also an input" in res.output
    assert src.read_bytes() == b"the cat\n"


def test_the_output_is_never_a_file_of_the_model(model: Path, tmp_path: Path) -> None:
    weights = (model / "model.safetensors").read_bytes()
    res = _encode(model, _text(tmp_path, b"the cat\n"), model / "model.safetensors")
    assert res.exit_code == 2 and "is inside the input" in res.output
    assert (model / "model.safetensors").read_bytes() == weights


def test_a_killed_encodes_temp_file_is_removed_by_the_next(model: Path, tmp_path: Path) -> None:
    dead = tmp_path / f".v.npy.tmp-{2**22 + 9}-0123abcd"  # the temp file of an encode killed mid-write
    dead.write_bytes(b"\x93NUMPY half")
    other = tmp_path / f".w.npy.tmp-{2**22 + 9}-0123abcd"  # another output's: not this run's to remove
    other.write_bytes(b"x")
    assert _encode(model, _text(tmp_path, b"the cat\n"), tmp_path / "v.npy").exit_code == 0
    assert not dead.exists() and other.exists()


def test_bom_crlf_and_cr_only_lines(model: Path, tmp_path: Path) -> None:
    src = _text(tmp_path, b"\xef\xbb\xbfthe cat\r\nle chat\ra dog\n")
    plain = tmp_path / "plain.txt"
    plain.write_text("the cat\nle chat\na dog\n")
    assert _encode(model, src, tmp_path / "a.npy").exit_code == 0
    assert _encode(model, plain, tmp_path / "b.npy").exit_code == 0
    np.testing.assert_array_equal(np.load(tmp_path / "a.npy"), np.load(tmp_path / "b.npy"))


@pytest.mark.parametrize(
    "data, match",
    [
        (b"the cat\nle chat \xe9t\xe9\n", r"in.txt:2: invalid UTF-8"),
        (b"ok\nbin\x00ary\n", r"in.txt:2: contains a NUL byte"),
        (b"", "is empty"),
        ("the cat\n".encode("utf-16"), "UTF-16"),
    ],
    ids=["latin1", "nul", "empty", "utf16"],
)
def test_bad_text_is_a_one_line_error(model: Path, tmp_path: Path, data: bytes, match: str) -> None:
    res = _encode(model, _text(tmp_path, data), tmp_path / "out.npy")
    assert res.exit_code == 2
    assert len(res.output.strip().splitlines()) == 1 and pytest.importorskip("re").search(match, res.output)
    assert not (tmp_path / "out.npy").exists()


def test_missing_model_folder_says_does_not_exist(tmp_path: Path) -> None:
    res = _encode(tmp_path / "nope", _text(tmp_path, b"x\n"), tmp_path / "o.npy")
    assert res.exit_code == 2 and "does not exist" in res.output


def test_normalize_threads_and_file_mode(model: Path, tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        res = _encode(
            model,
            _text(tmp_path, b"the cat\nle chien\n"),
            tmp_path / "o.npy",
            "--normalize",
            "--threads",
            "1",
        )
    finally:
        os.umask(old)
    assert res.exit_code == 0, res.output
    vectors = np.load(tmp_path / "o.npy")
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, rtol=1e-5)
    assert stat.S_IMODE((tmp_path / "o.npy").stat().st_mode) == 0o644


def test_baseline_names_work_like_in_eval(tmp_path: Path) -> None:
    res = _encode("tfidf", _text(tmp_path, b"the cat\nle chat\n"), tmp_path / "o.npy", "--json")
    assert res.exit_code == 0, res.output
    summary = json.loads(res.output.strip().splitlines()[-1])
    assert np.load(tmp_path / "o.npy").shape == (2, summary["dimension"]) and summary["sentences"] == 2


def test_unknown_script_warning(model: Path, tmp_path: Path) -> None:
    """Text partly in a script the vocabulary never saw is encoded with a warning; a line with no known token
    at all is refused (issue 41), or with --skip-bad given no row and counted."""
    src = _text(tmp_path, "日本語の文です the cat\n中文句子\n".encode())
    res = _encode(model, src, tmp_path / "o.npy")
    assert res.exit_code == 2 and f"{src}:2: the model knows no token" in res.output, res.output
    res = _encode(model, src, tmp_path / "o.npy", "--skip-bad")
    assert res.exit_code == 0 and "unknown to this model's vocabulary" in res.output, res.output
    assert "skipped 1 lines" in res.output and np.load(tmp_path / "o.npy").shape[0] == 1


def test_dimensions_and_precision_from_the_command_line(model: Path, tmp_path: Path) -> None:
    from sentence_transformers.util.quantization import quantize_embeddings

    from lingualite.vectors.precision import Calibration, load_vectors
    from lingualite.vectors.truncation import truncate

    src = _text(tmp_path, b"the cat\nle chat\na dog\nthe red car\n")
    assert _encode(model, src, tmp_path / "f.npy").exit_code == 0
    full = np.load(tmp_path / "f.npy")
    res = _encode(model, src, tmp_path / "v.npy", "--normalize", "--dimensions", "8", "--precision", "int8")
    assert res.exit_code == 0, res.output
    assert "warning: " in res.output and "not trained with matryoshka_dims" in res.output
    stored, cal = load_vectors(tmp_path / "v.npy")
    np.testing.assert_array_equal(stored, quantize_embeddings(truncate(full, 8, True), "int8"))
    assert cal == Calibration.load(tmp_path / "v.calibration.json") and cal.rows == 4 and cal.normalized
    # queries with the documents' ranges
    q = tmp_path / "q.txt"
    q.write_text("the cat\n")
    args = ("--normalize", "--dimensions", "8", "--precision", "uint8", "--calibration")
    res = _encode(model, q, tmp_path / "q.npy", *args, str(tmp_path / "v.calibration.json"), "--json")
    assert res.exit_code == 0, res.output
    assert np.array_equal(np.load(tmp_path / "q.npy"), (stored[:1].astype(np.int16) + 128).astype(np.uint8))
    # binary packs 8 components a byte
    assert _encode(model, src, tmp_path / "b.npy", "--precision", "binary").exit_code == 0
    assert np.load(tmp_path / "b.npy").shape == (4, 4) and np.load(tmp_path / "b.npy").dtype == np.int8


def test_bad_dimension_and_precision_requests_are_one_line_errors(model: Path, tmp_path: Path) -> None:
    src = _text(tmp_path, b"the cat\nle chat\n")
    out = tmp_path / "v.npy"
    for extra, message in [
        (("--dimensions", "33"), "above the model's dimension (32)"),
        (("--precision", "int4"), "choose one of float32, int8, uint8, binary, ubinary"),
        (("--precision", "binary", "--calibration", str(src)), "not a calibration file"),
    ]:
        res = _encode(model, src, out, *extra)
        assert res.exit_code == 2 and message in res.output and res.output.count("\n") == 1, res.output
        assert not out.exists()


def test_an_output_suffix_encode_does_not_write_is_refused(model: Path, tmp_path: Path) -> None:
    """`--output v.jsonl` is not silently a .npy: one line naming what encode writes, nothing written."""
    src = _text(tmp_path, b"the cat\n")
    for name, writes in [("v.jsonl", ".npy"), ("v.csv", ".npy"), ("vectors", ".npy")]:
        res = _encode(model, src, tmp_path / name)
        assert res.exit_code == 2 and res.output.count("\n") == 1, res.output
        assert f"encode writes {writes}, not" in res.output and not (tmp_path / name).exists()
    res = _encode(model, src, tmp_path / "v.jsonl", "--engine", "ray")
    assert (
        res.exit_code == 2 and "writes .npy or .parquet or a name without a suffix, not .jsonl" in res.output
    )


def test_vectors_are_unit_length_unless_no_normalize(model: Path, tmp_path: Path) -> None:
    """The one default (lingualite.vectors.normalization): unit vectors, as serve and the index give them."""
    src = _text(tmp_path, b"the cat\nle chien\n")
    assert _encode(model, src, tmp_path / "unit.npy").exit_code == 0
    assert _encode(model, src, tmp_path / "raw.npy", "--no-normalize").exit_code == 0
    unit, raw = np.load(tmp_path / "unit.npy"), np.load(tmp_path / "raw.npy")
    np.testing.assert_allclose(np.linalg.norm(unit, axis=1), 1.0, rtol=1e-5)
    assert not np.allclose(np.linalg.norm(raw, axis=1), 1.0)
    np.testing.assert_allclose(unit, raw / np.linalg.norm(raw, axis=1, keepdims=True), rtol=1e-5, atol=1e-6)


def test_input_dash_reads_standard_input(model: Path, tmp_path: Path) -> None:
    """`--input -`: the lines of stdin, the same vectors as from a file; a bad line is <stdin>:line."""
    src = _text(tmp_path, b"the cat\nle chien\n")
    assert _encode(model, src, tmp_path / "file.npy").exit_code == 0
    args = ["encode", "--model", str(model), "--input", "-", "--output", str(tmp_path / "stdin.npy")]
    res = runner.invoke(app, args, input=src.read_bytes())
    assert res.exit_code == 0, res.output
    np.testing.assert_array_equal(np.load(tmp_path / "stdin.npy"), np.load(tmp_path / "file.npy"))
    res = runner.invoke(app, [*args[:-1], str(tmp_path / "bad.npy")], input=b"ok\n\xff\n")
    assert (
        res.exit_code == 2
        and "<stdin>:2: invalid UTF-8" in res.output
        and not (tmp_path / "bad.npy").exists()
    )
