"""A tiny distillation with ``matryoshka_dims``: the prefix terms are logged, the folder records the sizes and
the model card lists them; sizes above the student's dimension are a one-line config error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lingualite.core.errors import ConfigError
from lingualite.encoders.matryoshka_dims import MATRYOSHKA_FILE, trained_dimensions
from lingualite.recipes.distill.train_distill import train_distill as distill

pytestmark = pytest.mark.slow  # trains a model: left out of the fast tier


def test_a_matryoshka_student_records_its_sizes(tiny_distill_config, tmp_path: Path) -> None:
    cfg = tiny_distill_config(matryoshka_dims=[8, 4, 2], optim={"max_steps": 4})
    result = distill(cfg, tmp_path / "run", progress=False)
    out = result.output_dir
    assert {"valid_xsr_p_at_1@4", "valid_xsr_p_at_1@2"} <= set(result.final_metrics)  # XSR of the prefixes
    assert json.loads((out / MATRYOSHKA_FILE).read_text()) == {"matryoshka_dims": [8, 4, 2], "dimension": 8}
    assert trained_dimensions(out) == [8, 4, 2] and trained_dimensions(f"bf16:{out}") == [8, 4, 2]
    card = (out / "README.md").read_text()
    assert "Trained dimensions (Matryoshka, Kusupati et al. 2022): 8, 4, 2" in card
    assert "| valid_xsr_p_at_1@4 |" in card
    logged = [json.loads(line) for line in (out / "metrics.jsonl").read_text().splitlines()]
    assert any("mse@4" in r and "mse@2" in r for r in logged)


def test_sizes_above_the_students_dimension_are_refused_before_the_teacher(
    tiny_distill_config, tmp_path: Path
) -> None:
    with pytest.raises(
        ConfigError, match=r"matryoshka_dims: 16 is above the model's dimension 8 \(pca.dim\)"
    ):
        tiny_distill_config(matryoshka_dims=[16, 8])
    cfg = tiny_distill_config()
    cfg.matryoshka_dims = [16, 8]  # built in Python: checked when the run starts, before any teacher work
    with pytest.raises(ConfigError, match="16 is above"):
        distill(cfg, tmp_path / "run", progress=False, validate=False)
    assert not (tmp_path / "run" / "teacher-cache").exists() and not (tmp_path / "teacher-cache").exists()
