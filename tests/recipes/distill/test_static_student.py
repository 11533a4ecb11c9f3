"""The static student: trained like the transformer student, saved as a StaticEmbedding folder that
sentence-transformers and lingualite's numpy path load with the same vectors."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import yaml

from lingualite.encoders.resolve import load_encoder
from lingualite.recipes.distill.train_distill import train_distill as distill

pytestmark = pytest.mark.slow  # trains a model: left out of the fast tier


def test_static_student_learns_and_exports_a_static_embedding_folder(
    tiny_distill_config, tmp_path: Path
) -> None:
    from sentence_transformers import SentenceTransformer

    cfg = tiny_distill_config(
        student={"kind": "static"}, optim={"max_steps": 60, "eval_every": 30, "lr": 0.05}
    )
    out = tmp_path / "static"
    result = distill(cfg, out, progress=False)
    assert result.final_metrics["valid_mse"] < 0.5 * result.initial_metrics["valid_mse"]
    assert result.summary["student"]["kind"] == "static" and result.summary["student"]["layers"] == 0
    modules = (out / "modules.json").read_text()
    assert "StaticEmbedding" in modules and "Transformer" not in modules

    texts = ["the big cat runs", "le grand chat court", "a"]
    st_vectors = SentenceTransformer(str(out), device="cpu").encode(texts)
    np.testing.assert_allclose(load_encoder(f"static:{out}").encode(texts), st_vectors, atol=1e-5)
    assert st_vectors.shape == (3, 8)  # the PCA dimension: no projection layer needed
    assert yaml.safe_load((out / "config.yaml").read_text())["student"]["kind"] == "static"
    assert "kind: static" in (out / "README.md").read_text()  # the card's config


def test_static_student_resumes(tiny_distill_config, tmp_path: Path) -> None:
    cfg = tiny_distill_config(student={"kind": "static"})
    distill(cfg, tmp_path / "s", progress=False, validate=False, stop_after=4)
    result = distill(cfg, tmp_path / "s", resume=True, progress=False, validate=False)
    assert result.steps == 8 and (tmp_path / "s" / "modules.json").exists()
