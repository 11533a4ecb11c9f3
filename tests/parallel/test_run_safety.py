"""Run folders of the training recipes: locked, never taken over, resumed only with the config they began with."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_parallel_train import tiny_config

from lingualite.errors import LinguaLiteError
from lingualite.parallel.train import train_parallel as train


def test_every_recipe_refuses_a_folder_another_run_is_writing(locked_folder, synthetic_corpus: Path) -> None:
    from lingualite.config import MonolingualConfig
    from lingualite.monolingual.train import train_monolingual

    folder, pid = locked_folder
    with pytest.raises(LinguaLiteError, match=f"pid {pid}"):
        train(tiny_config(synthetic_corpus), folder, progress=False)
    with pytest.raises(LinguaLiteError, match=f"pid {pid}"):
        train_monolingual(MonolingualConfig(), folder, progress=False)
    # distillation: tests/distill/test_distill_train.py


def _lrs(run: Path) -> dict[int, float]:
    rows = [json.loads(line) for line in (run / "metrics.jsonl").read_text().splitlines()]
    return {r["step"]: r["lr"] for r in rows if "lr" in r}


def test_resume_with_a_changed_lr_is_refused_or_really_applied(
    synthetic_corpus: Path, tmp_path: Path
) -> None:
    run = tmp_path / "run"
    train(tiny_config(synthetic_corpus, max_steps=8, warmup_steps=0), run, progress=False, stop_after=4)
    saved = (run / "config.yaml").read_text()
    changed = tiny_config(synthetic_corpus, max_steps=8, warmup_steps=0, lr=1e-3)
    with pytest.raises(LinguaLiteError, match=r"changed config \(optim.lr\).*--allow-config-change"):
        train(changed, run, resume=True, progress=False)
    assert (run / "config.yaml").read_text() == saved  # the refusal rewrote nothing
    train(changed, run, resume=True, progress=False, allow_config_change=True)
    lrs = _lrs(run)
    # linear decay over 8 steps, no warm-up: the rate logged after step s is peak * (8 - s) / 8
    assert lrs[6] == pytest.approx(1e-3 * 2 / 8)  # the NEW peak after the resume
    assert lrs[4] == pytest.approx(2e-3 * 4 / 8)  # the steps before the resume keep their logged rate
    assert "lr: 0.001" in (run / "config.yaml").read_text()


def test_resume_with_another_model_shape_is_a_one_line_error(synthetic_corpus: Path, tmp_path: Path) -> None:
    run = tmp_path / "run"
    train(tiny_config(synthetic_corpus, max_steps=8), run, progress=False, stop_after=2)
    other = tiny_config(synthetic_corpus, max_steps=8)
    other.model.hidden_size = 64
    with pytest.raises(LinguaLiteError, match=r"cannot resume.*model.hidden_size") as info:
        train(other, run, resume=True, progress=False, allow_config_change=True)
    assert "\n" not in str(info.value)


def test_training_never_takes_over_a_users_folder(synthetic_corpus: Path, tmp_path: Path) -> None:
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "thesis.tex").write_text("chapter 1")
    with pytest.raises(LinguaLiteError, match="not created by a lingualite"):
        train(tiny_config(synthetic_corpus), folder, progress=False)
    assert sorted(p.name for p in folder.iterdir()) == ["thesis.tex"]


def test_max_steps_override_is_part_of_the_saved_config(synthetic_corpus: Path, tmp_path: Path) -> None:
    """A short run (e.g. a smoke test) is not silently continued by a longer one into the same folder."""
    run = tmp_path / "run"
    train(tiny_config(synthetic_corpus, max_steps=8), run, progress=False, max_steps=2)
    assert "max_steps: 2" in (run / "config.yaml").read_text()
    with pytest.raises(LinguaLiteError, match=r"optim.max_steps"):
        train(tiny_config(synthetic_corpus, max_steps=8), run, progress=False, resume=True, max_steps=6)
