"""`eval all` caches and finished parts are keyed by model content and checked on read; the output is locked."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
import torch
from test_report import CountingEncoder

from lingualite.config.encoder import EncoderConfig
from lingualite.core.errors import LinguaLiteError
from lingualite.evaluation.report import CachedEncoder, ReportSettings, display_names, run_report
from lingualite.models.dual_encoder import DualEncoder


def test_a_swapped_or_damaged_cache_file_is_recomputed_not_used(tmp_path: Path) -> None:
    inner = CountingEncoder()
    cached = CachedEncoder(inner, "k", tmp_path)
    src, tgt = cached.encode(["a", "bb"]), cached.encode(["ccc", "dddd"])
    files = sorted(tmp_path.glob("*.npz"))
    assert len(files) == 2
    a, b = files
    tmp = a.with_suffix(".swap")
    a.rename(tmp), b.rename(a), tmp.rename(b)  # same shapes, swapped: only the stored key can tell
    np.testing.assert_array_equal(cached.encode(["a", "bb"]), src)
    np.testing.assert_array_equal(cached.encode(["ccc", "dddd"]), tgt)
    assert inner.calls == 4
    for f in tmp_path.glob("*.npz"):
        f.write_bytes(b"garbage")
    np.testing.assert_array_equal(cached.encode(["a", "bb"]), src)
    assert inner.calls == 5


def _model(tiny_tokenizer, folder: Path, seed: int) -> Path:
    torch.manual_seed(seed)
    model = DualEncoder(
        EncoderConfig(vocab_size=len(tiny_tokenizer), hidden_size=32, num_heads=2, ffn_size=64)
    )
    return model.save(tiny_tokenizer, folder)


@pytest.fixture()
def settings(eval_tree) -> ReportSettings:
    ev, prep = eval_tree
    return ReportSettings(eval_dir=ev, prepared_dir=prep, langs=("fr",), tasks=("xsr",), seeds=1)


def test_two_models_with_the_same_folder_name_are_two_rows(tiny_tokenizer, tmp_path, settings) -> None:
    a = _model(tiny_tokenizer, tmp_path / "a" / "model", 0)
    b = _model(tiny_tokenizer, tmp_path / "b" / "model", 1)
    assert display_names([str(a), str(b)]) == {str(a): "a/model", str(b): "b/model"}
    report = run_report([str(a), str(b)], tmp_path / "out", settings, progress=lambda _: None)
    assert set(report["models"]) == {"a/model", "b/model"}
    assert report["models"]["a/model"]["xsr"]["p_at_1"] != report["models"]["b/model"]["xsr"]["p_at_1"] or (
        report["models"]["a/model"]["xsr"]["model_key"] != report["models"]["b/model"]["xsr"]["model_key"]
    )


def test_a_changed_model_at_the_same_path_is_evaluated_again(tiny_tokenizer, tmp_path, settings) -> None:
    folder = tmp_path / "model"
    _model(tiny_tokenizer, tmp_path / "first", 0)
    _model(tiny_tokenizer, tmp_path / "second", 1)
    shutil.copytree(tmp_path / "first", folder)
    out = tmp_path / "out"
    first = run_report([str(folder)], out, settings, progress=lambda _: None)["models"]["model"]["xsr"]
    shutil.rmtree(folder)
    shutil.copytree(tmp_path / "second", folder)
    messages: list[str] = []
    again = run_report([str(folder)], out, settings, progress=messages.append)["models"]["model"]["xsr"]
    fresh = run_report([str(tmp_path / "second")], tmp_path / "o2", settings, progress=lambda _: None)
    assert not any("done before" in m for m in messages)
    assert again["model_key"] != first["model_key"]
    assert again["p_at_1"] == fresh["models"]["second"]["xsr"]["p_at_1"]


def test_the_report_folder_is_locked(locked_folder, settings) -> None:
    folder, pid = locked_folder
    with pytest.raises(LinguaLiteError, match=f"pid {pid}"):
        run_report(["tfidf"], folder, settings)
