"""A tiny reproduction table (2 cells, a 1 x 16 model, 3 steps) on the synthetic corpus, written in tmp_path."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from reproduce_fixtures import TABLE, write_table


@pytest.fixture()
def tiny_table(
    tmp_path: Path, synthetic_corpus: Path, eval_tree: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> Path:
    """The tiny table's YAML path; ``$LINGUALITE_DATA_DIR`` points at the synthetic corpus, and the table
    classifies the tiny ``classify/bible-genres`` set of ``eval_tree`` (train English, test en and fr)."""
    monkeypatch.setenv("LINGUALITE_DATA_DIR", str(synthetic_corpus))
    table = copy.deepcopy(TABLE)
    table["evaluation"]["classify"] = [str(eval_tree[0] / "classify" / "bible-genres")]
    return write_table(tmp_path / "tables", table)


@pytest.fixture(scope="session")
def tiny_teacher_folder(tiny_tokenizer: Any, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A random 1 x 32 sentence-transformers folder: the teacher of the tiny distillation table."""
    import torch

    from lingualite.config.encoder import EncoderConfig
    from lingualite.models.dual_encoder import DualEncoder

    torch.manual_seed(0)
    shape = EncoderConfig(
        vocab_size=len(tiny_tokenizer), hidden_size=32, num_layers=1, num_heads=2, ffn_size=64, dropout=0.0
    )
    return DualEncoder(shape).save(tiny_tokenizer, tmp_path_factory.mktemp("teacher") / "teacher")
