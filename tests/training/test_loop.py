"""The one training loop, on a toy model: the schedule every recipe gets, the log, checkpoints, resume,
validation cadence, the non-finite loss stop."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
import torch
from torch import nn

from lingualite.config.sections import OptimConfig
from lingualite.core.errors import LinguaLiteError
from lingualite.models.run_folder import RunFolder
from lingualite.training.loop import Stage, StepOutput, run_stage
from lingualite.training.optimization import make_optimizer, make_schedule


def _toy_stage(total: int = 12, name: str | None = None, **optim: object) -> Stage:
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 8), nn.Dropout(0.2), nn.Linear(8, 1))
    settings = {"lr": 0.01, "batch_size": 4, "warmup_steps": 4, "log_every": 1, "save_every": 5, **optim}
    cfg = OptimConfig(**settings)  # type: ignore[arg-type]

    def step_fn(step: int, trained: nn.Module) -> StepOutput:
        g = torch.Generator().manual_seed(step)  # the batch of a step is a pure function of the step
        x = torch.randn(4, 4, generator=g)
        loss = (trained(x).squeeze(-1) - x.sum(1)).pow(2).mean()
        return StepOutput(loss, {"half": loss.item() / 2}, 4)

    def validator(m: nn.Module) -> dict[str, float]:
        assert not m.training  # validation runs in eval mode, and training resumes in train mode
        return {"valid_loss": float(m(torch.ones(2, 4)).sum())}

    return Stage(model, step_fn, cfg, total, validator, name=name)


def _run(path: Path) -> RunFolder:
    path.mkdir(parents=True, exist_ok=True)  # open_run creates it in a recipe
    return RunFolder(path)


def test_warmup_starts_at_zero_and_decays_to_zero() -> None:
    """One rule for every recipe (transformers' linear schedule): step k of a warm-up of w has lr * k / w."""
    model = nn.Linear(2, 2)
    optim = OptimConfig(lr=1.0, warmup_steps=4, max_steps=10)
    optimizer = make_optimizer(model, optim)
    schedule = make_schedule(optimizer, optim, 10)
    lrs = [schedule.get_last_lr()[0]]
    for _ in range(10):
        optimizer.step()
        schedule.step()
        lrs.append(schedule.get_last_lr()[0])
    assert lrs[:5] == pytest.approx([0.0, 0.25, 0.5, 0.75, 1.0])
    assert lrs[-1] == pytest.approx(0.0)
    assert OptimConfig(warmup_ratio=0.1).warmup(200) == 20 and OptimConfig(warmup_steps=3).warmup(200) == 3


def test_adam_is_fused_where_torch_has_the_kernel() -> None:
    optimizer = make_optimizer(nn.Linear(2, 2), OptimConfig())
    assert optimizer.defaults.get("fused") is True


def test_log_records_step_elapsed_losses_lr_and_validation(tmp_path: Path) -> None:
    run = _run(tmp_path)
    stage = _toy_stage(total=12, eval_every=6)
    result = run_stage(stage, run, resume=False, progress=False)
    records = run.read_metrics()
    assert [r["step"] for r in records] == list(range(1, 13))
    assert all({"loss", "half", "lr", "elapsed_s"} <= r.keys() for r in records)
    assert [r["step"] for r in records if "valid_loss" in r] == [6, 12]
    assert records[0]["lr"] == pytest.approx(0.01 / 4)  # after the first of 4 warm-up steps
    assert [p.name for p in run.checkpoints()] == ["step-0000010", "step-0000012"]  # keep 2
    assert result.finished and result.examples == 48 and "valid_loss" in result.metrics


def test_losses_are_averaged_over_the_log_window(tmp_path: Path) -> None:
    every = _run(tmp_path / "every")
    run_stage(_toy_stage(total=6), every, resume=False, progress=False)
    windowed = _run(tmp_path / "windowed")
    run_stage(_toy_stage(total=6, log_every=3), windowed, resume=False, progress=False)
    losses = [r["loss"] for r in every.read_metrics()]
    assert [r["loss"] for r in windowed.read_metrics()] == pytest.approx(
        [sum(losses[:3]) / 3, sum(losses[3:]) / 3]
    )


def test_stop_after_then_resume_equals_one_run(tmp_path: Path) -> None:
    straight = _toy_stage(name="stage-a")
    run_stage(straight, _run(tmp_path / "straight"), resume=False, progress=False)
    part = _run(tmp_path / "part")
    first = run_stage(_toy_stage(name="stage-a"), part, resume=False, progress=False, stop_after=7)
    assert (first.end, first.finished) == (7, False)
    assert [p.name for p in part.checkpoints("stage-a")] == ["step-0000005", "step-0000007"]
    resumed = _toy_stage(name="stage-a")  # a fresh process: new model, same config
    second = run_stage(resumed, part, resume=True, progress=False)
    assert (second.start, second.end) == (7, 12)
    for a, b in zip(straight.model.parameters(), resumed.model.parameters(), strict=True):
        assert torch.equal(a, b)  # dropout RNG, optimiser and schedule restored: bit-identical
    steps = [(r["stage"], r["step"]) for r in part.read_metrics()]
    assert steps == [("stage-a", s) for s in range(1, 13)]  # no step logged twice


def test_non_finite_loss_stops_with_the_step_named(tmp_path: Path) -> None:
    stage = _toy_stage(total=5)
    inner = stage.step_fn

    def exploding(step: int, model: nn.Module) -> StepOutput:
        out = inner(step, model)
        return StepOutput(out.loss * (math.inf if step == 2 else 1), out.parts, out.examples)

    stage.step_fn = exploding
    with pytest.raises(LinguaLiteError, match="loss became inf at step 3; lower optim.lr"):
        run_stage(stage, _run(tmp_path), resume=False, progress=False)


def test_a_changed_lr_applies_on_resume(tmp_path: Path) -> None:
    run = _run(tmp_path)
    run_stage(_toy_stage(), run, resume=False, progress=False, stop_after=6)
    run_stage(_toy_stage(lr=0.02), run, resume=True, progress=False)
    lrs = {r["step"]: r["lr"] for r in run.read_metrics()}
    # linear decay from the peak over steps 4..12: step 7 is at 5/8 of the peak, now 0.02
    assert lrs[7] == pytest.approx(0.02 * 5 / 8)
