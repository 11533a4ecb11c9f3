"""Re-exporting a model into its run folder: a kill at any point leaves the old or the new complete model,
and loaders never see a mix."""

from __future__ import annotations

import multiprocessing
import os
from pathlib import Path

import numpy as np
import pytest
import torch

from lingualite.config.encoder import EncoderConfig
from lingualite.models.dual_encoder import DualEncoder
from lingualite.models.export import EXPORT_JOURNAL, export_into, reading_model
from lingualite.models.run_folder import open_run

SENTENCES = ["the big cat runs", "le petit chien dort", "a red car"]


def _model(tokenizer, seed: int) -> DualEncoder:
    torch.manual_seed(seed)
    return DualEncoder(EncoderConfig(vocab_size=len(tokenizer), hidden_size=32, num_heads=2, ffn_size=64))


def _load_vectors(folder: Path) -> np.ndarray:
    from sentence_transformers import SentenceTransformer

    with reading_model(folder):
        model = SentenceTransformer(str(folder), device="cpu")
    return model.encode(SENTENCES)


@pytest.fixture()
def two_models(tiny_tokenizer, tmp_path: Path):
    """A run folder holding model A, and the vectors of A and of B (B: same shape, other weights)."""
    a, b = _model(tiny_tokenizer, 0), _model(tiny_tokenizer, 1)
    ref = {}
    for name, m in (("a", a), ("b", b)):
        ref[name] = _load_vectors(m.save(tiny_tokenizer, tmp_path / f"ref-{name}"))
    run = tmp_path / "run"
    with open_run(run, "train"):
        export_into(run, lambda f: a.save(tiny_tokenizer, f))
    return run, a, b, ref


def test_a_kill_while_moving_files_in_is_rolled_forward(two_models, tiny_tokenizer, monkeypatch) -> None:
    run, _, b, ref = two_models
    import lingualite.models.export as export

    real_replace, calls = os.replace, {"n": 0}

    def dying_replace(src, dst):
        moving_in = Path(src).parent.name.startswith(".export.staging") and Path(dst).parent == run
        calls["n"] += moving_in
        if moving_in and calls["n"] == 2:  # the first module is moved in, modules.json not yet
            raise KeyboardInterrupt("kill -9")
        return real_replace(src, dst)

    monkeypatch.setattr(export.os, "replace", dying_replace)
    with pytest.raises(KeyboardInterrupt):
        export_into(run, lambda f: b.save(tiny_tokenizer, f))
    monkeypatch.setattr(export.os, "replace", real_replace)
    assert (run / EXPORT_JOURNAL).exists()
    np.testing.assert_allclose(_load_vectors(run), ref["b"], atol=1e-5)  # the loader finishes the export
    assert not (run / EXPORT_JOURNAL).exists()
    assert not [p for p in run.iterdir() if p.name.startswith((".export.staging", ".export.old"))]


def test_a_kill_before_the_files_are_complete_keeps_the_old_model(two_models, tiny_tokenizer) -> None:
    run, _, b, ref = two_models

    def dying_write(folder: Path) -> None:
        b.save(tiny_tokenizer, folder)
        (folder / "model.safetensors").write_bytes(b"torn")
        raise KeyboardInterrupt("kill -9")

    with pytest.raises(KeyboardInterrupt):
        export_into(run, dying_write)
    np.testing.assert_allclose(_load_vectors(run), ref["a"], atol=1e-5)
    with open_run(run, "train"):  # the next start removes the staging copy
        pass
    assert not [p for p in run.iterdir() if p.name.startswith((".export.staging", ".export.old"))]


def _export_loop(run: str, seeds: list[int], vocab: str, stop) -> None:  # pragma: no cover - child process
    from lingualite.tokenization import load_tokenizer

    tokenizer = load_tokenizer(vocab)
    models = [_model(tokenizer, s) for s in seeds]
    i = 0
    while not stop.is_set():
        m = models[i % 2]
        export_into(Path(run), lambda f, m=m: m.save(tokenizer, f))
        i += 1


@pytest.mark.slow
def test_loads_during_repeated_re_exports_see_a_whole_model(two_models, tiny_tokenizer, tmp_path) -> None:
    run, _, _, ref = two_models
    tiny_tokenizer.save_pretrained(str(tmp_path / "vocab"))
    ctx = multiprocessing.get_context("spawn")
    stop = ctx.Event()
    child = ctx.Process(target=_export_loop, args=(str(run), [0, 1], str(tmp_path / "vocab"), stop))
    child.start()
    try:
        seen = set()
        for _ in range(40):
            vectors = _load_vectors(run)
            match = [k for k, v in ref.items() if np.allclose(vectors, v, atol=1e-5)]
            assert match, "a load saw a mix of two exports"
            seen.add(match[0])
    finally:
        stop.set()
        child.join(60)
    assert seen  # (which ones depends on timing)
