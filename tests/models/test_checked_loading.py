"""The checked model loader: every damaged folder is a one-line error naming it; unknown scripts are counted."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
import torch

from lingualite.config.encoder import EncoderConfig
from lingualite.core.errors import LinguaLiteError
from lingualite.encoders.folder import SentenceTransformerEncoder
from lingualite.encoders.resolve import load_encoder
from lingualite.models.checked_loading import check_model_folder, unknown_token_share
from lingualite.models.dual_encoder import DualEncoder

SENTENCES = ["the big cat runs", "le petit chien dort", "a red car"]


@pytest.fixture(scope="module")
def pristine(tiny_tokenizer, tmp_path_factory) -> Path:
    torch.manual_seed(0)
    model = DualEncoder(
        EncoderConfig(vocab_size=len(tiny_tokenizer), hidden_size=32, num_heads=2, ffn_size=64)
    )
    return model.save(tiny_tokenizer, tmp_path_factory.mktemp("m") / "model")


@pytest.fixture()
def model(pristine: Path, tmp_path: Path) -> Path:
    return Path(shutil.copytree(pristine, tmp_path / "model"))


def _one_line_error(folder: Path, match: str) -> None:
    with pytest.raises(LinguaLiteError, match=match) as info:
        SentenceTransformerEncoder(folder).encode(SENTENCES)
    assert "\n" not in str(info.value) and str(folder) in str(info.value)


def test_the_pristine_folder_loads(model: Path) -> None:
    assert check_model_folder(model) == model
    assert SentenceTransformerEncoder(model).encode(SENTENCES).shape == (3, 32)


def test_missing_folder_says_it_does_not_exist(tmp_path: Path) -> None:
    with pytest.raises(LinguaLiteError, match="does not exist"):
        load_encoder(tmp_path / "nope")


def test_missing_tokenizer_files_are_refused_not_a_five_token_fallback(model: Path) -> None:
    for name in ("tokenizer.json", "tokenizer_config.json", "special_tokens_map.json", "vocab.txt"):
        (model / name).unlink(missing_ok=True)
    _one_line_error(model, "no tokenizer files")


def test_missing_pooling_folder(model: Path) -> None:
    shutil.rmtree(model / "1_Pooling")
    _one_line_error(model, "missing module folder '1_Pooling'")


@pytest.mark.parametrize(
    "damage, match",
    [
        (lambda p: p.write_bytes(b""), "empty or truncated"),
        (lambda p: p.write_bytes(p.read_bytes()[: p.stat().st_size // 2]), "truncated"),
        (lambda p: p.write_bytes(np.random.default_rng(0).bytes(4096)), "not a safetensors file"),
        (lambda p: p.unlink(), "missing model.safetensors"),
    ],
    ids=["empty", "truncated", "random", "missing"],
)
def test_damaged_weights(model: Path, damage, match: str) -> None:
    damage(model / "model.safetensors")
    _one_line_error(model, match)


def test_pickle_weights_are_never_loaded(model: Path) -> None:
    (model / "model.safetensors").rename(model / "pytorch_model.bin")
    _one_line_error(model, "pytorch_model.bin is a pickle")


def test_tokenizer_larger_than_the_embedding(model: Path) -> None:
    data = json.loads((model / "tokenizer.json").read_text())
    vocab = data["model"]["vocab"]  # Unigram: a list of [piece, score]
    vocab.extend([f"extra{i}", -20.0] for i in range(500))
    (model / "tokenizer.json").write_text(json.dumps(data))
    _one_line_error(model, "tokenizer has .* tokens but the embedding matrix only")


def test_broken_modules_json(model: Path) -> None:
    (model / "modules.json").write_text("{not json")
    _one_line_error(model, "modules.json is not valid JSON")


def test_unknown_scripts_are_counted(model: Path) -> None:
    encoder = SentenceTransformerEncoder(model)
    share, whole = encoder.unknown_report(["日本語の文です", "中文句子", "the cat"])
    assert whole == 2 and share > 0.25  # 2 [UNK] among 7 content tokens
    assert unknown_token_share(encoder.model.tokenizer, ["the cat runs"]) == (0.0, 0)


def test_a_changed_weight_byte_is_caught_by_the_recorded_checksum(model: Path) -> None:
    weights = model / "model.safetensors"
    data = bytearray(weights.read_bytes())
    data[-3] ^= 0x40  # inside the tensor data: the safetensors header is still valid
    weights.write_bytes(bytes(data))
    _one_line_error(model, "does not match the checksum")
    (model / "lingualite_checksums.json").unlink()  # the documented way to accept replaced weights
    assert SentenceTransformerEncoder(model).encode(SENTENCES).shape == (3, 32)


def test_a_mistyped_model_lists_the_packaged_models_beside_the_baselines() -> None:
    from lingualite.encoders.resolve import load_encoder

    with pytest.raises(LinguaLiteError) as info:
        load_encoder("lingualite-smal")
    message = str(info.value)
    for name in ("lingualite-small", "lingualite-static", "use-m", "minilm", "e5-small", "tfidf"):
        assert name in message, message
