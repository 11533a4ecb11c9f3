"""Fixtures of the distillation tests: a tiny random sentence-transformers teacher and tiny configs (offline)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import torch

from lingualite.config import DistillConfig, config_from_dict


@pytest.fixture(autouse=True)
def one_thread(one_torch_thread):
    """Every distillation test on one thread (tests/conftest.py)."""


@pytest.fixture(scope="session")
def tiny_teacher(tiny_tokenizer, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A random 1-layer, 32-dimensional encoder saved as a sentence-transformers folder."""
    from lingualite.config.encoder import EncoderConfig
    from lingualite.models.dual_encoder import DualEncoder

    torch.manual_seed(0)
    model = DualEncoder(
        EncoderConfig(
            vocab_size=len(tiny_tokenizer),
            hidden_size=32,
            num_layers=1,
            num_heads=2,
            ffn_size=64,
            dropout=0.0,
        )
    )
    return model.save(tiny_tokenizer, tmp_path_factory.mktemp("teacher") / "teacher")


def _merge(base: dict[str, Any], overrides: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in overrides.items():
        out[key] = (
            _merge(out[key], value) if isinstance(value, dict) and isinstance(out.get(key), dict) else value
        )
    return out


@pytest.fixture
def tiny_distill_config(synthetic_corpus: Path, tiny_teacher: Path, tmp_path: Path):
    """``tiny_distill_config(**section_overrides) -> DistillConfig``: 32-d teacher, PCA to 8, 1 x 16 student."""

    def make(**overrides: Any) -> DistillConfig:
        base = {
            "teacher": {"name": str(tiny_teacher), "cache_dir": str(tmp_path / "teacher-cache")},
            "data": {
                "train_files": [str(synthetic_corpus / "en-fr" / "train.tsv")],
                "valid_files": [str(synthetic_corpus / "en-fr" / "valid.tsv")],
                "max_train_pairs": None,
                "valid_pairs": 100,
                "monolingual_files": [],  # the shipped default reads DATA/corpora/{monolingual,lexicon}
            },
            "vocabulary": {"size": 200, "sample_size": 2000},
            "student": {
                "num_layers": 1,
                "hidden_size": 16,
                "num_heads": 2,
                "ffn_size": 32,
                "dropout": 0.0,
                "max_seq_length": 16,
            },
            "pca": {"dim": 8, "fit_sentences": 500},
            "optim": {
                "lr": 3e-3,
                "batch_size": 16,
                "max_steps": 8,
                "warmup_ratio": 0.1,
                "eval_every": 100,
                "save_every": 100,
                "log_every": 2,
            },
        }
        return config_from_dict(_merge(base, overrides), "test", mode="distill")

    return make
