"""``bf16:FOLDER``: a tiny real model encoded by torch in bfloat16 gives float32 vectors close to float32's, loads
wherever a spec is taken (load_encoder, `lingualite encode`, `lingualite eval`, content-keyed caches), and a
folder that is not a model fails in one line."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest
import torch
from typer.testing import CliRunner

from lingualite.cli.main import app
from lingualite.config.encoder import EncoderConfig
from lingualite.core.errors import LinguaLiteError
from lingualite.encoders.bf16 import Bf16Encoder
from lingualite.encoders.folder import SentenceTransformerEncoder
from lingualite.encoders.resolve import load_encoder

runner = CliRunner()


def _sentences(words: list[str], n: int = 300) -> list[str]:
    rng = random.Random(0)
    return [" ".join(rng.choice(words) for _ in range(rng.randint(1, 20))) for _ in range(n)]


def _cosines(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    a = a / np.linalg.norm(a, axis=1, keepdims=True)
    b = b / np.linalg.norm(b, axis=1, keepdims=True)
    return (a * b).sum(axis=1)


@pytest.fixture(scope="module")
def student(tiny_tokenizer, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A lingualite student (transformer, mean pooling, Dense projection), seeded."""
    from lingualite.recipes.distill.student import StudentEncoder

    torch.manual_seed(0)
    cfg = EncoderConfig(
        vocab_size=len(tiny_tokenizer), hidden_size=32, num_heads=2, ffn_size=64, max_seq_length=24
    )
    return StudentEncoder(cfg, 8).save(tiny_tokenizer, tmp_path_factory.mktemp("bf16") / "student")


@pytest.mark.parametrize(("mode", "attention"), [("weights", None), ("autocast", None), ("weights", "eager")])
def test_bf16_vectors_are_close_to_fp32(
    student: Path, tiny_words: list[str], mode: str, attention: str | None
) -> None:
    texts = _sentences(tiny_words + ["le", "chat", "chien", "maison"])
    fp32 = SentenceTransformerEncoder(student, threads=1).encode(texts)
    bf16 = Bf16Encoder(student, threads=1, mode=mode, attention=attention).encode(texts)  # type: ignore[arg-type]
    assert bf16.dtype == np.float32 and bf16.shape == fp32.shape == (300, 8)
    assert np.isfinite(bf16).all()
    assert _cosines(bf16, fp32).min() >= 0.99
    assert not np.array_equal(bf16, fp32)  # really computed in bfloat16


def test_the_spec_loads_through_load_encoder(student: Path) -> None:
    encoder = load_encoder(f"bf16:{student}", threads=1)
    assert isinstance(encoder, Bf16Encoder) and encoder.mode == "weights"
    assert {p.dtype for p in encoder.model.parameters()} == {torch.bfloat16}
    assert encoder.name == "student-bf16" and encoder.dimension == 8
    assert encoder.encode([]).shape == (0, 8)
    assert encoder.num_parameters() == SentenceTransformerEncoder(student, threads=1).num_parameters()
    with pytest.raises(ValueError, match="mode must be one of"):
        Bf16Encoder(student, mode="fp8")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="attention must be one of"):
        Bf16Encoder(student, attention="flash")  # type: ignore[arg-type]


@pytest.mark.parametrize("content", [None, "notes.txt", "modules.json"])
def test_a_folder_that_is_not_a_model_fails_in_one_line(tmp_path: Path, content: str | None) -> None:
    folder = tmp_path / "not-a-model"
    folder.mkdir()
    if content == "notes.txt":
        (folder / content).write_text("hello\n")
    elif content == "modules.json":
        (folder / content).write_text("{broken")
    with pytest.raises(LinguaLiteError) as info:
        load_encoder(f"bf16:{folder}")
    assert str(folder) in str(info.value) and "\n" not in str(info.value)


def test_a_missing_folder_fails_in_one_line(tmp_path: Path) -> None:
    with pytest.raises(LinguaLiteError, match="does not exist") as info:
        load_encoder(f"bf16:{tmp_path / 'nowhere'}")
    assert "\n" not in str(info.value)


def test_caches_key_bf16_apart_from_fp32(student: Path) -> None:
    from lingualite.encoders.spec import model_content_key as _model_key

    plain = _model_key(str(student))
    assert _model_key(f"bf16:{student}") == f"bf16:{plain}" != plain


def test_encode_and_eval_commands_take_the_spec(student: Path, tmp_path: Path) -> None:
    src = tmp_path / "in.txt"
    src.write_text("the cat runs\nle chat\na big red car\n", encoding="utf-8")
    out = tmp_path / "v.npy"
    res = runner.invoke(
        app, ["encode", "--model", f"bf16:{student}", "--input", str(src), "--output", str(out)]
    )
    assert res.exit_code == 0, res.output
    vectors = np.load(out, allow_pickle=False)
    expected = SentenceTransformerEncoder(student, threads=1).encode(src.read_text().splitlines())
    assert vectors.dtype == np.float32 and _cosines(vectors, expected).min() >= 0.99

    pairs = tmp_path / "pairs.tsv"
    pairs.write_text("the cat\tle chat\nthe dog\tle chien\na red car\tune voiture rouge\n", encoding="utf-8")
    res = runner.invoke(app, ["eval", "xsr", "--model", f"bf16:{student}", "--pairs", str(pairs), "--json"])
    assert res.exit_code == 0, res.output
    assert "p_at_1" in json.dumps(json.loads(res.output.strip().splitlines()[-1]))
