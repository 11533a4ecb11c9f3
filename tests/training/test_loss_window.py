"""The loop's losses on a GPU stay on the device and are read at the log steps (training.loss_window); forced
on the CPU here, that path logs the same values and stops at the same step as the read-every-step one."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
import torch
from torch import nn

from lingualite.config.sections import OptimConfig
from lingualite.core.errors import LinguaLiteError
from lingualite.models.run_folder import RunFolder
from lingualite.training import loop
from lingualite.training.distributed import DistributedContext
from lingualite.training.loop import Stage, StepOutput, run_stage
from lingualite.training.loss_window import LossWindow, syncs_every_step


def _stage(total: int = 9, explode_at: int | None = None) -> Stage:
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 8), nn.Linear(8, 1))
    cfg = OptimConfig(lr=0.01, batch_size=4, warmup_steps=2, log_every=3, save_every=4, eval_every=100)

    def step_fn(step: int, trained: nn.Module) -> StepOutput:
        x = torch.randn(4, 4, generator=torch.Generator().manual_seed(step))
        loss = (trained(x).squeeze(-1) - x.sum(1)).pow(2).mean()
        if step == explode_at:
            loss = loss * math.inf
        return StepOutput(loss, {"half": loss.detach() / 2, "plain": 1.5}, 4)

    return Stage(model, step_fn, cfg, total)


def _run(path: Path) -> RunFolder:
    path.mkdir(parents=True)
    return RunFolder(path)


def test_only_cuda_defers_the_reads() -> None:
    assert syncs_every_step(torch.device("cpu")) and not syncs_every_step(torch.device("cuda", 0))


def test_deferred_reads_log_what_reading_every_step_logs(tmp_path: Path, monkeypatch) -> None:
    every = _run(tmp_path / "every")
    run_stage(_stage(), every, resume=False, progress=False)
    monkeypatch.setattr(loop, "syncs_every_step", lambda device: False)
    deferred = _run(tmp_path / "deferred")
    result = run_stage(_stage(), deferred, resume=False, progress=False)
    a, b = every.read_metrics(), deferred.read_metrics()
    assert [r["step"] for r in a] == [r["step"] for r in b] == [3, 6, 9]
    for x, y in zip(a, b, strict=True):
        assert y["loss"] == pytest.approx(x["loss"], rel=1e-6) and y["half"] == pytest.approx(
            x["half"], rel=1e-6
        )
        assert y["plain"] == x["plain"] == 1.5
    assert [p.name for p in deferred.checkpoints()] == ["step-0000008", "step-0000009"]
    assert result.gpu == {}  # on a CPU: no GPU figures in summary.json


def test_deferred_check_stops_at_the_step_that_went_non_finite(tmp_path: Path, monkeypatch) -> None:
    message = "loss became inf at step 5; lower optim.lr"  # step index 4, counted from 1 as everywhere
    with pytest.raises(LinguaLiteError, match=message):
        run_stage(_stage(explode_at=4), _run(tmp_path / "every"), resume=False, progress=False)
    monkeypatch.setattr(loop, "syncs_every_step", lambda device: False)
    run = _run(tmp_path / "run")
    with pytest.raises(LinguaLiteError, match=message):  # found at the log step 6, named as step 5
        run_stage(_stage(explode_at=4), run, resume=False, progress=False)
    # step 4 (a save step) was checked and saved before the bad step; nothing after it was
    assert [p.name for p in run.checkpoints()] == ["step-0000004"]


def test_window_means_are_one_read_per_log() -> None:
    window = LossWindow("train", DistributedContext(), deferred=True)
    for step, value in enumerate((1.0, 2.0, 4.5)):
        window.add(step, StepOutput(torch.tensor(value), {"x": torch.tensor(2 * value)}, 1))
    window.check_finite()
    assert window.means() == pytest.approx({"loss": 2.5, "x": 5.0}) and window.means() == {}
