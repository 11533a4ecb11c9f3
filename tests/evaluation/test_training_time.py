"""Training time per 10k steps from a run folder's log (any recipe) or its checkpoint times."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from lingualite.evaluation.training_time import training_time_per_10k_steps


def _write_metrics(folder: Path, records: list[dict]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "metrics.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    return folder


def test_training_time_from_metrics_clock(tmp_path: Path) -> None:
    # Logged every 100 steps. 100->200 is the first interval (start-up, 1.0 s/step): left out. 200->300 and
    # 400->500 take 0.5 s/step, 300->400 0.7 s/step; 500->600 ends with validation (0.8 s/step): left out
    # of the median but counted in the time with overheads.
    records = [
        {"step": 100, "loss": 3.0, "elapsed_s": 80.0},
        {"step": 200, "loss": 2.5, "elapsed_s": 180.0},
        {"step": 300, "loss": 2.0, "elapsed_s": 230.0},
        {"step": 400, "loss": 1.9, "elapsed_s": 300.0},
        {"step": 500, "loss": 1.8, "elapsed_s": 350.0},
        {"step": 600, "loss": 1.7, "elapsed_s": 430.0, "valid_loss": 2.0},
    ]
    result = training_time_per_10k_steps(_write_metrics(tmp_path / "run", records))
    assert result is not None
    assert result["seconds_per_10k_steps"] == pytest.approx(0.5 * 10_000)  # median of 0.5, 0.7, 0.5
    assert result["seconds_per_10k_steps_with_overheads"] == pytest.approx((430.0 - 180.0) / 400 * 10_000)
    assert result["median_seconds_per_step"] == pytest.approx(0.5)
    assert result["window_steps"] == [200, 600]
    assert result["num_intervals"] == 3
    assert result["source"] == "metrics.jsonl:elapsed_s"
    assert result["last_step"] == 600


def test_training_time_ignores_a_resumed_clock(tmp_path: Path) -> None:
    records = [
        {"step": 10, "elapsed_s": 5.0},
        {"step": 20, "elapsed_s": 10.0},
        {"step": 30, "elapsed_s": 15.0},
        {"step": 40, "elapsed_s": 2.0},  # resumed: clock restarted, this interval is dropped
        {"step": 50, "elapsed_s": 7.0},
    ]
    result = training_time_per_10k_steps(_write_metrics(tmp_path / "run", records))
    assert result["seconds_per_10k_steps"] == pytest.approx(5_000.0)


def test_training_time_from_checkpoint_times(tmp_path: Path) -> None:
    run = _write_metrics(tmp_path / "run", [{"step": 250, "loss": 1.0}, {"step": 500, "loss": 0.9}])
    for step, mtime in [(250, 1_000.0), (500, 1_100.0)]:
        state = run / "checkpoints" / f"step-{step:07d}" / "trainer_state.json"
        state.parent.mkdir(parents=True)
        state.write_text(json.dumps({"step": step}))
        os.utime(state, (mtime, mtime))
    result = training_time_per_10k_steps(run)
    assert result["seconds_per_10k_steps"] == pytest.approx(100.0 / 250 * 10_000)
    assert result["window_steps"] == [250, 500] and result["source"].startswith("checkpoint mtimes")


def test_training_time_none_without_metrics_or_clock(tmp_path: Path) -> None:
    assert training_time_per_10k_steps(tmp_path / "missing") is None
    assert (
        training_time_per_10k_steps(_write_metrics(tmp_path / "noclock", [{"step": 20, "loss": 1.0}])) is None
    )
