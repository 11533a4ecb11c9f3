"""`encode --workers N`: N spawned processes give the plain encode's .npy (same rows, same order), and the
mining shards equal it too, resumable."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch
from typer.testing import CliRunner

from lingualite.core.errors import LinguaLiteError
from lingualite.encoders.static import StaticEncoder
from lingualite.encoding.to_file import encode_file, l2_normalize
from lingualite.encoding.workers import encode_file_parallel, encode_shards

pytestmark = pytest.mark.slow  # starts processes, a server or Ray: left out of the fast tier

WORDS = ["the cat", "le chien rouge", "a big house runs", "voiture", "a dog", "the the dog sleeps slowly"]


def _text(tmp_path: Path, n: int = 53) -> Path:
    path = tmp_path / "in.txt"
    path.write_text("".join(f"{WORDS[i % len(WORDS)]} {i}\n" for i in range(n)), encoding="utf-8")
    return path


def _plain(static_model: Path, src: Path, tmp_path: Path, chunk: int) -> np.ndarray:
    encode_file(StaticEncoder(static_model), src, tmp_path / "plain.npy", progress=False, chunk=chunk)
    return np.load(tmp_path / "plain.npy")


def test_two_workers_write_the_plain_encode_file(static_model: Path, tmp_path: Path) -> None:
    src = _text(tmp_path)  # 53 lines in chunks of 10: the last chunk has 3
    result = encode_file_parallel(f"static:{static_model}", src, tmp_path / "par.npy", 2, chunk=10)
    got = np.load(tmp_path / "par.npy", allow_pickle=False)
    assert (
        result.sentences == 53
        and result.dimension == 16
        and result.sample[:2] == ["the cat 0", "le chien rouge 1"]
    )
    np.testing.assert_array_equal(got, _plain(static_model, src, tmp_path, chunk=10))


def test_shards_equal_plain_encode_and_resume_skips_existing(static_model: Path, tmp_path: Path) -> None:
    src, shards = _text(tmp_path), tmp_path / "shards"
    expected = l2_normalize(_plain(static_model, src, tmp_path, chunk=7))
    paths = encode_shards(f"static:{static_model}", src, shards, shard_size=20, chunk=7)
    assert [p.name for p in paths] == ["shard-00000.npy", "shard-00001.npy", "shard-00002.npy"]
    assert [len(np.load(p)) for p in paths] == [20, 20, 13] and np.load(paths[0]).dtype == np.float32
    np.testing.assert_array_equal(np.concatenate([np.load(p) for p in paths]), expected)

    np.save(paths[0], np.zeros((20, 16), np.float32))  # a marker: a skipped shard keeps it
    paths[2].unlink()
    again = encode_shards(f"static:{static_model}", src, shards, shard_size=20, workers=2, chunk=7)
    assert again == paths and not np.load(paths[0]).any()
    np.testing.assert_array_equal(np.load(paths[2]), expected[40:])
    assert sorted(p.name for p in shards.iterdir()) == [p.name for p in paths]  # no temp files left

    with pytest.raises(LinguaLiteError, match=r"shard-00000.npy: holds 20 rows .* has 25"):
        encode_shards(f"static:{static_model}", src, shards, shard_size=25)


def test_fitted_encoders_are_refused_before_any_process_starts(tmp_path: Path) -> None:
    src = _text(tmp_path)
    with pytest.raises(LinguaLiteError, match="fitted on its input.*--workers 1"):
        encode_file_parallel("tfidf", src, tmp_path / "o.npy", 2)
    with pytest.raises(LinguaLiteError, match="fitted on its input"):
        encode_shards("tfidf", src, tmp_path / "shards", 10)
    assert not (tmp_path / "o.npy").exists() and not (tmp_path / "shards").exists()


def test_errors_in_workers_and_in_the_input_are_one_line(static_model: Path, tmp_path: Path) -> None:
    src = _text(tmp_path)
    with pytest.raises(LinguaLiteError, match=r"nope: does not exist"):  # raised in a worker process
        encode_file_parallel(str(tmp_path / "nope"), src, tmp_path / "o.npy", 2, progress=False)
    src.write_bytes(b"fine\n" * 30 + b"bad \xff byte\n")
    with pytest.raises(LinguaLiteError, match=r"in.txt:31: invalid UTF-8"):
        encode_file_parallel(f"static:{static_model}", src, tmp_path / "o.npy", 2, chunk=10)
    assert not (tmp_path / "o.npy").exists()


def test_cli_workers_with_a_transformer_folder(tiny_tokenizer, tmp_path: Path) -> None:
    from lingualite.cli.main import app
    from lingualite.config.encoder import EncoderConfig
    from lingualite.models.dual_encoder import DualEncoder

    torch.manual_seed(0)
    enc = DualEncoder(EncoderConfig(vocab_size=len(tiny_tokenizer), hidden_size=16, num_heads=2, ffn_size=32))
    model = enc.save(tiny_tokenizer, tmp_path / "model")
    src = _text(tmp_path, 40)
    src.write_text(src.read_text(encoding="utf-8") + "日本語の文です\n" * 4, encoding="utf-8")
    runner = CliRunner()
    # lines with no known token: refused, or (--skip-bad) given no row by every engine alike (issue 41)
    base = [
        "encode",
        "--model",
        str(model),
        "--input",
        str(src),
        "--normalize",
        "--json",
        "--skip-bad",
        "--output",
    ]
    plain = runner.invoke(app, [*base, str(tmp_path / "a.npy")])
    par = runner.invoke(app, [*base, str(tmp_path / "b.npy"), "--workers", "2", "--batch-size", "8"])
    assert plain.exit_code == 0 and par.exit_code == 0, par.output
    assert '"sentences": 44' in par.output and '"skipped": 4' in par.output
    assert "unknown to this model's vocabulary" in par.output  # the first chunk's report, from a worker
    assert (tmp_path / "b.npy.skipped.txt").read_text() == "".join(f"{n}\n" for n in range(41, 45))
    a, b = np.load(tmp_path / "a.npy"), np.load(tmp_path / "b.npy")
    np.testing.assert_allclose(b, a, atol=1e-5)  # torch with 1 thread vs all: the same up to rounding
