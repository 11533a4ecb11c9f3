"""The one training loop of lingualite: every recipe's optimisation runs through :func:`run_stage`.

A recipe describes a :class:`Stage`: the model, a ``step_fn`` that builds the batch of step ``s`` (a pure
function of the seed and ``s``, so a resume continues exactly) and returns its loss, the optimiser settings,
the number of steps and a validator. The loop does the rest, the same way for every recipe:

- resume from the newest checkpoint of the stage (weights, optimiser, schedule, RNG), with a changed
  ``optim.lr`` applied when the recipe allowed the config change;
- Adam and the linear warm-up/decay schedule of :mod:`lingualite.training.optimization`;
- bf16 autocast (``optim.bf16``; null: on for CUDA), gradient checkpointing, gradient clipping, a
  non-finite loss stopping the run with the step named (all ranks together under DDP);
- on a CPU each step's loss is read (``.item()``) and checked at once, as always; on a GPU the losses stay
  on the device and are read, averaged and checked at the log, validation and checkpoint steps only
  (:mod:`lingualite.training.loss_window`), so the host never waits for the GPU in between;
- ``metrics.jsonl``: ``step``, ``elapsed_s``, the losses averaged over the log window, ``lr``, and the
  validation metrics every ``eval_every`` steps and at the end (``stage`` for recipes with stages);
- atomic checkpoints every ``save_every`` steps and when the call stops; ``stop_after`` for time-boxed jobs;
- a progress bar on a terminal, log lines otherwise.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass, field
from typing import Any

import torch
from torch import nn
from torch.nn.parallel import DistributedDataParallel

from lingualite.config.sections import OptimConfig
from lingualite.core.device import bf16_default, out_of_memory_hint
from lingualite.core.gpu_usage import GpuUsage
from lingualite.core.progress import progress_bar
from lingualite.models.run_folder import RunFolder
from lingualite.models.sentence_encoder import SentenceEncoder
from lingualite.training.checkpoint import load_checkpoint, save_checkpoint
from lingualite.training.distributed import DistributedContext
from lingualite.training.loss_window import LossWindow, syncs_every_step
from lingualite.training.optimization import make_optimizer, make_schedule, optimizer_step, set_learning_rate

logger = logging.getLogger("lingualite.training")

Validator = Callable[[Any], dict[str, float]]
"""``validator(model) -> {"valid_...": value}``: what every recipe's validation is (model in eval mode)."""


@dataclass
class StepOutput:
    """What a step computed: the loss to back-propagate, values to log (averaged over the log window; floats
    or detached 0-d tensors, which on a GPU stay there until the log step), and how many examples (pairs,
    contexts) the batch held."""

    loss: torch.Tensor
    parts: dict[str, float | torch.Tensor]
    examples: int


StepFn = Callable[[int, nn.Module], StepOutput]
"""``step_fn(step, model)``: build the batch of step ``step`` and compute its loss with ``model`` (the
DDP wrapper under torchrun; call it, not the bare model)."""


@dataclass
class Stage:
    """One optimisation run of ``model``; see the module docstring.

    :param name: for recipes with stages (checkpoints under ``checkpoints/<name>/``, ``stage`` in the log).
    :param validate_at_start: also validate before the first step of a fresh start (logged as step 0).
    :param seed: seed torch's RNG (dropout) at a fresh start of the stage; None: leave it as it is.
    :param unused_parameters: some parameters get no gradient (DDP must be told, or it waits for them).
    :param compile: run the step's model through ``torch.compile``.
    """

    model: nn.Module
    step_fn: StepFn
    optim: OptimConfig
    total_steps: int
    validator: Validator | None = None
    name: str | None = None
    validate_at_start: bool = False
    seed: int | None = None
    unused_parameters: bool = False
    compile: bool = False


@dataclass
class StageResult:
    """Steps ``start`` to ``end`` of ``total_steps`` ran in this call; the last logged values (``metrics``)
    and the validation before the first step (``initial_metrics``, fresh starts with it only)."""

    start: int
    end: int
    total_steps: int
    seconds: float
    examples: int
    metrics: dict[str, float] = field(default_factory=dict)
    initial_metrics: dict[str, float] = field(default_factory=dict)
    gpu: dict[str, Any] = field(default_factory=dict)
    """On CUDA: peak memory and sampled utilisation (:class:`lingualite.core.gpu_usage.GpuUsage`); else empty."""

    @property
    def finished(self) -> bool:
        return self.end >= self.total_steps

    @property
    def examples_per_second(self) -> float:
        return self.examples / max(self.seconds, 1e-9)


def brief(metrics: dict[str, float]) -> str:
    """The few numbers a progress bar or log line shows."""
    shown = [
        (label, metrics[key])
        for key, label in (
            ("loss", "loss"),
            ("accuracy", "acc"),
            ("valid_mse", "valid_mse"),
            ("valid_xsr_p_at_1", "valid_p@1"),
        )
        if key in metrics
    ]
    return " ".join(f"{label}={value:.4g}" for label, value in shown)


def run_stage(
    stage: Stage,
    run: RunFolder,
    resume: bool,
    progress: bool = True,
    stop_after: int | None = None,
    ctx: DistributedContext | None = None,
) -> StageResult:
    """Optimise ``stage.model`` from step 0, or from the stage's newest checkpoint when ``resume``, up to
    ``stage.total_steps`` (or ``stop_after`` steps of this call); see the module docstring."""
    ctx = ctx or DistributedContext()
    model, opt, total = stage.model, stage.optim, stage.total_steps
    if opt.gradient_checkpointing and isinstance(model, SentenceEncoder):
        model.enable_gradient_checkpointing()
    optimizer = make_optimizer(model, opt)
    scheduler = make_schedule(optimizer, opt, total)
    checkpoints = run.checkpoints(stage.name) if resume else []
    start = load_checkpoint(checkpoints[-1], model, optimizer, scheduler) if checkpoints else 0
    if start and scheduler.base_lrs[0] != opt.lr:  # resumed with --allow-config-change and a new lr
        set_learning_rate(optimizer, scheduler, opt.lr)
    if start == 0 and stage.seed is not None:
        torch.manual_seed(stage.seed)
    main = ctx.is_main
    if main:
        run.truncate_metrics(start if start else -1, stage.name)
    trained: nn.Module = model
    if ctx.enabled:
        trained = DistributedDataParallel(model, find_unused_parameters=stage.unused_parameters)
    if stage.compile:  # checkpoints and the export read ``model``; only the step runs compiled
        trained = torch.compile(trained)  # type: ignore[assignment]
    bf16 = bf16_default(ctx.device, opt.bf16)
    autocast = torch.autocast(ctx.device.type, dtype=torch.bfloat16) if bf16 else nullcontext()
    validator = stage.validator if main else None
    tag = {"stage": stage.name} if stage.name else {}
    t0 = time.perf_counter()

    def log(step: int, record: dict[str, float]) -> None:
        # elapsed_s: wall time since this call started the stage (a resume starts again at 0)
        run.append_metrics({"step": step, **tag, **record, "elapsed_s": round(time.perf_counter() - t0, 3)})

    initial: dict[str, float] = {}
    if validator is not None and stage.validate_at_start and start == 0:
        initial = _validate(validator, model)
        log(0, initial)
    metrics: dict[str, float] = dict(initial)
    end = total if stop_after is None else min(total, start + stop_after)
    label = stage.name or "train"
    window = LossWindow(label, ctx, deferred=not syncs_every_step(ctx.device))
    examples = 0
    model.train()
    with (
        progress_bar(label, progress and main, "steps") as bar,
        GpuUsage(ctx.device) as usage,
        out_of_memory_hint(opt.batch_size, "optim.batch_size (or set optim.gradient_checkpointing: true)"),
    ):
        task = bar.add_task(label, total=total, completed=start, info=brief(metrics))
        for step in range(start, end):
            with autocast:
                out = stage.step_fn(step, trained)
            window.add(step, out)  # on a CPU: .item() and the non-finite check now, as always
            out.loss.backward()
            optimizer_step(model.parameters(), optimizer, scheduler, opt.grad_clip)
            examples += out.examples * ctx.world_size
            done = step + 1
            log_now = done % opt.log_every == 0 or done == total
            if log_now or done % opt.eval_every == 0 or done % opt.save_every == 0 or done == end:
                window.check_finite()  # deferred (CUDA): one host sync here for all the steps since
            record: dict[str, float] = {}
            if log_now:
                record = window.means()
                record["lr"] = float(scheduler.get_last_lr()[0])
            if validator is not None and (done % opt.eval_every == 0 or done == total):
                record.update(_validate(validator, model))
            if record and main:
                metrics.update(record)
                log(done, record)
                bar.update(task, info=brief(metrics))
                validated = any(key.startswith("valid_") for key in record)
                if not progress and (validated or done % (opt.log_every * 10) == 0 or done == total):
                    elapsed = time.perf_counter() - t0
                    logger.info("%s step %d/%d %s (%.0f s)", label, done, total, brief(metrics), elapsed)
            if main and (done % opt.save_every == 0 or done == end):
                save_checkpoint(
                    run.checkpoints_dir(stage.name),
                    done,
                    model,
                    optimizer,
                    scheduler,
                    metrics,
                    opt.keep_checkpoints,
                )
            bar.update(task, completed=done)
    seconds = time.perf_counter() - t0
    ctx.barrier()
    return StageResult(start, end, total, seconds, examples, metrics, initial, usage.report())


def _validate(validator: Validator, model: nn.Module) -> dict[str, float]:
    was_training = model.training
    model.eval()
    try:
        with torch.no_grad():
            return validator(model)
    finally:
        model.train(was_training)
