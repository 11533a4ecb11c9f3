"""Tiny reproduction tables written in tmp_path (a module with a unique name: test files import it directly,
which ``from conftest import ...`` cannot do safely when several test folders have a conftest)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

BASE = {
    "mode": "parallel",
    "data": {"train_files": ["{data_dir}/en-fr/train.tsv"], "valid_files": [], "valid_pairs": 50},
    "vocabulary": {"size": 120, "sample_size": 2000},
    "model": {"hidden_size": 16, "num_layers": 1, "num_heads": 2, "ffn_size": 32, "max_seq_length": 16},
    "optim": {"batch_size": 8, "warmup_steps": 1, "max_steps": 3, "save_every": 1, "log_every": 1},
}

TABLE: dict[str, Any] = {
    "title": "Tiny table",
    "source": "a test",
    "scales": {"tiny": {"base": "base.yaml", "note": "1 x 16, 3 steps", "max_test_pairs": 40}},
    "evaluation": {"test_files": ["{data_dir}/en-fr/valid.tsv"], "seed": 0},
    "columns": [
        {"key": "mldoc", "label": "MLDoc en→fr"},
        {"key": "xsr_en_fr", "label": "XSR en→fr", "metric": "xsr/en-fr/src2tgt_p_at_1", "percent": True},
        {"key": "params", "label": "Parameters", "metric": "model/parameters", "digits": 0},
        {"key": "cls_fr", "label": "Classif. en→fr", "metric": "classify/bible-genres/fr/accuracy",
         "percent": True},
    ],
    "cells": [
        {"name": "ugt", "label": "UGT", "overrides": {"objective.generative": "ugt"},
         "paper": {"mldoc": 85.1, "xsr_en_fr": 89.8}},
        {"name": "xtr", "label": "XTR", "overrides": {"objective.generative": "xtr"},
         "paper": {"mldoc": 84.2, "xsr_en_fr": 89.5}},
    ],
}  # fmt: skip


def write_table(folder: Path, table: dict[str, Any] | None = None) -> Path:
    """``folder/tiny.yaml`` (the table) beside ``folder/base.yaml`` (its base config)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "base.yaml").write_text(yaml.safe_dump(BASE), encoding="utf-8")
    path = folder / "tiny.yaml"
    path.write_text(yaml.safe_dump(table or TABLE, allow_unicode=True), encoding="utf-8")
    return path


def write_distill_table(folder: Path, teacher: Path, sts_file: Path) -> Path:
    """A paper-002-style table: a 1 x 16 student with and without PCA (32 -> 8), scored by XSR and STS."""
    folder.mkdir(parents=True, exist_ok=True)
    base = {
        "mode": "distill",
        "teacher": {"name": str(teacher), "cache_dir": str(folder / "teacher-cache")},
        "data": {
            "train_files": ["{data_dir}/en-fr/train.tsv"],
            "valid_files": [],
            "max_train_pairs": None,
            "monolingual_files": [],
        },
        "vocabulary": {"size": 200, "sample_size": 2000},
        "student": {"num_layers": 1, "hidden_size": 16, "num_heads": 2, "ffn_size": 32, "max_seq_length": 16},
        "pca": {"dim": 8, "fit_sentences": 500},
        "optim": {"lr": 3e-3, "batch_size": 16, "max_steps": 3, "warmup_ratio": 0.1, "save_every": 1},
    }
    (folder / "distill-base.yaml").write_text(yaml.safe_dump(base), encoding="utf-8")
    table = {
        "title": "Tiny compression table",
        "source": "a test",
        "scales": {"tiny": {"base": "distill-base.yaml", "note": "1 x 16 student, 3 steps"}},
        "evaluation": {"test_files": ["{data_dir}/en-fr/valid.tsv"], "sts": [str(sts_file)]},
        "columns": [
            {"key": "size", "label": "Size (MB)", "metric": "model/megabytes", "digits": 3},
            {"key": "en_en", "label": "EN-EN", "metric": "sts/en/spearman", "percent": True},
        ],
        "cells": [
            {"name": "pca-8", "label": "S (1/8)", "paper": {"size": 27, "en_en": 82.6}},
            {"name": "no-pca", "label": "S (1/32)", "overrides": {"pca.enabled": False},
             "paper": {"size": 312, "en_en": 84.05}},
        ],
    }  # fmt: skip
    path = folder / "compression.yaml"
    path.write_text(yaml.safe_dump(table, allow_unicode=True), encoding="utf-8")
    return path
