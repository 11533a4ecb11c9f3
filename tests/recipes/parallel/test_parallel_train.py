"""Training end to end on a tiny synthetic corpus: learning happens, resume is exact, bad configs are clear."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch
from safetensors.torch import load_file

from lingualite.config import ParallelConfig, load_training_config
from lingualite.config.parsing import from_dict
from lingualite.core.errors import ConfigError, LinguaLiteError
from lingualite.recipes.parallel.train_parallel import train_parallel as train

pytestmark = pytest.mark.slow  # trains a model: left out of the fast tier


def tiny_config(corpus: Path, **optim) -> ParallelConfig:
    return from_dict(
        ParallelConfig,
        {
            "data": {
                "train_files": [str(corpus / "en-fr" / "train.tsv")],
                "valid_files": [str(corpus / "en-fr" / "valid.tsv")],
                "valid_pairs": 100,
            },
            "vocabulary": {"size": 120, "sample_size": 2000},
            "model": {
                "hidden_size": 32,
                "num_layers": 1,
                "num_heads": 2,
                "ffn_size": 64,
                "max_seq_length": 16,
            },
            "optim": {
                "lr": 2e-3,
                "warmup_steps": 5,
                "max_steps": 8,
                "batch_size": 16,
                "eval_every": 100,
                "save_every": 100,
                "log_every": 2,
                **optim,
            },
        },
        "test",
    )


def test_resume_continues_exactly(synthetic_corpus: Path, tiny_tokenizer, tmp_path: Path) -> None:
    tiny_tokenizer.save_pretrained(str(tmp_path / "tok"))

    def cfg() -> ParallelConfig:
        c = tiny_config(synthetic_corpus, max_steps=8)
        c.vocabulary.path = str(tmp_path / "tok")  # both runs share one vocabulary
        return c

    train(cfg(), tmp_path / "straight", progress=False, validate=False)
    train(cfg(), tmp_path / "split", progress=False, validate=False, stop_after=4)
    assert not (tmp_path / "split" / "model.safetensors").exists()  # interrupted: no final export yet
    with pytest.raises(LinguaLiteError, match="--resume"):
        train(cfg(), tmp_path / "split", progress=False, validate=False)
    train(cfg(), tmp_path / "split", resume=True, progress=False, validate=False)
    a = load_file(tmp_path / "straight" / "checkpoints" / "step-0000008" / "model.safetensors")
    b = load_file(tmp_path / "split" / "checkpoints" / "step-0000008" / "model.safetensors")
    assert a.keys() == b.keys()
    for key in a:
        assert torch.equal(a[key], b[key]), key


def test_training_learns_translation_retrieval(synthetic_corpus: Path, tmp_path: Path) -> None:
    cfg = tiny_config(synthetic_corpus, max_steps=80, eval_every=80)
    result = train(cfg, tmp_path / "run", progress=False)
    # 100 held-out pairs: chance is 0.01
    assert result.final_metrics["valid_xsr_p_at_1"] > 0.3
    assert (tmp_path / "run" / "modules.json").exists() and (tmp_path / "run" / "metrics.jsonl").exists()


def test_unknown_and_mistyped_config_keys_are_named(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("model:\n  hidden_sise: 128\n")
    with pytest.raises(ConfigError, match=r"model: unknown key\(s\) \['hidden_sise'\]"):
        load_training_config(bad)
    bad.write_text("optim:\n  lr: fast\n")
    with pytest.raises(ConfigError, match="optim.lr"):
        load_training_config(bad)
    bad.write_text("model: [1, 2\n")
    with pytest.raises(ConfigError, match=r"bad.yaml:\d+: invalid YAML"):
        load_training_config(bad)
    bad.write_text("model:\n  hidden_size: 100\n  num_heads: 3\n")
    with pytest.raises(ConfigError, match="multiple of model.num_heads"):
        load_training_config(bad)


def test_shipped_configs_load() -> None:
    assert load_training_config("quickstart").model.hidden_size == 256
    paper = load_training_config("paper")
    assert (paper.model.num_layers, paper.model.hidden_size, paper.optim.batch_size) == (2, 512, 128)
    assert paper.vocabulary.size == 50000 and paper.objective.generative == "ugt"


def test_the_run_folder_and_log_are_every_recipes(synthetic_corpus: Path, tmp_path: Path) -> None:
    """config.yaml, summary.json, and a log with elapsed_s and the one warm-up rule (lr starts at 0)."""
    cfg = tiny_config(synthetic_corpus, max_steps=6, warmup_steps=4, log_every=1)
    train(cfg, tmp_path / "run", progress=False, validate=False)
    records = [json.loads(line) for line in (tmp_path / "run" / "metrics.jsonl").read_text().splitlines()]
    assert all("elapsed_s" in r and "lr" in r for r in records)
    assert records[0]["lr"] == pytest.approx(2e-3 / 4)  # after 1 of 4 warm-up steps (was 2/4 of the peak)
    assert (tmp_path / "run" / "config.yaml").exists()
    assert json.loads((tmp_path / "run" / "summary.json").read_text())["total_steps"] == 6


def test_a_matryoshka_parallel_model_records_its_sizes(
    synthetic_corpus: Path, tiny_tokenizer, tmp_path: Path
) -> None:
    from lingualite.encoders.matryoshka_dims import MATRYOSHKA_FILE, trained_dimensions

    tiny_tokenizer.save_pretrained(str(tmp_path / "tok"))
    cfg = tiny_config(synthetic_corpus, max_steps=4)
    cfg.vocabulary.path = str(tmp_path / "tok")
    cfg.matryoshka_dims = [32, 16, 8]
    out = train(cfg, tmp_path / "run", progress=False, validate=False).output_dir
    assert json.loads((out / MATRYOSHKA_FILE).read_text()) == {
        "matryoshka_dims": [32, 16, 8],
        "dimension": 32,
    }
    assert trained_dimensions(str(out)) == [32, 16, 8]
    assert (
        "Trained dimensions (Matryoshka, Kusupati et al. 2022): 32, 16, 8" in (out / "README.md").read_text()
    )
    logged = [json.loads(line) for line in (out / "metrics.jsonl").read_text().splitlines()]
    assert any({"alignment@16", "similarity@8", "alignment"} <= set(r) for r in logged)
