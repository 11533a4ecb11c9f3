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


@pytest.mark.parametrize("text", ["Ein kleiner Test.", "日本語の文です。", "Привет, мир!"])
def test_a_compacted_tokenizer_json_is_smaller_and_tokenizes_the_same(tmp_path: Path, text: str) -> None:
    from tokenizers import Tokenizer

    from lingualite.reproduce.packaged_build import compact_tokenizer_json
    from lingualite.tokenization.tokenizer import train_on_sample

    sample = {
        "de": ["Ein kleiner Test für alle."] * 5,
        "ja": ["日本語の文です。"] * 5,
        "ru": ["Привет, мир!"] * 5,
    }
    train_on_sample(sample, 200, "wordpiece", True, 1.0).save_pretrained(str(tmp_path))
    path = tmp_path / "tokenizer.json"
    before, size = Tokenizer.from_file(str(path)).encode(text).ids, path.stat().st_size
    compact_tokenizer_json(path)
    assert path.stat().st_size < size
    assert Tokenizer.from_file(str(path)).encode(text).ids == before


def test_each_packaged_model_has_its_own_size_budget(tmp_path: Path) -> None:
    from lingualite.core.errors import LinguaLiteError
    from lingualite.reproduce.packaged_build import MODEL_BUDGET_BYTES, check_budgets

    check_budgets({"small": 9_900_000, "static": 11_900_000}, tmp_path)  # 21.8 MB in all: within
    with pytest.raises(LinguaLiteError, match=r"small 10\.30 MB > 10 MB"):
        check_budgets({"small": 10_300_000, "static": 1}, tmp_path)
    assert MODEL_BUDGET_BYTES == {"small": 10_000_000, "static": 12_000_000, "small-34": 10_000_000}


def test_a_build_reexports_a_graph_of_another_quantization(tmp_path: Path) -> None:
    import json

    from lingualite.reproduce.packaged_build import SMALL_QUANTIZE, exported_mode

    folder = tmp_path / "small-onnx"
    assert exported_mode(folder) is None  # nothing exported yet
    (folder / "onnx").mkdir(parents=True)
    (folder / "onnx" / "encoder_int8.onnx").write_bytes(b"graph")
    meta = folder / "onnx" / "lingualite_onnx.json"
    meta.write_text(json.dumps({"quantization": None}), encoding="utf-8")
    assert exported_mode(folder) is None  # an export from before the mode was recorded: redone
    meta.write_text(json.dumps({"quantization": {"mode": "int8"}}), encoding="utf-8")
    assert exported_mode(folder) == "int8" != SMALL_QUANTIZE
    meta.write_text(json.dumps({"quantization": {"mode": SMALL_QUANTIZE}}), encoding="utf-8")
    assert exported_mode(folder) == SMALL_QUANTIZE  # kept


def test_the_everyday_check_covers_every_language_of_the_model(monkeypatch: pytest.MonkeyPatch) -> None:
    from lingualite.encoders import resolve
    from lingualite.reproduce import packaged_build
    from lingualite.reproduce.packaged_tiers import TIER_TABLE

    class Hashed:  # a stand-in encoder: one random vector per text, so translations are not found
        def encode(self, texts: list[str], **_: object) -> np.ndarray:
            return np.stack([np.random.default_rng(abs(hash(t)) % 2**32).standard_normal(8) for t in texts])

    monkeypatch.setattr(resolve, "load_encoder", lambda spec, **_: Hashed())
    small = packaged_build.everyday_check("stand-in", TIER_TABLE["small"].languages)
    many = packaged_build.everyday_check("stand-in", TIER_TABLE["small-34"].languages)
    assert set(small) == {f"{a}-{b}" for a, b in packaged_build.EVERYDAY_PAIRS}
    assert set(many) - set(small) == {
        f"en-{x}" for x in TIER_TABLE["small-34"].languages if x != "en" and f"en-{x}" not in small
    }
    assert "en-th" in many and "en-he" in many and all(0 <= v <= 1 for v in many.values())
