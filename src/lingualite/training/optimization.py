"""The optimiser and learning-rate schedule every recipe uses, and one optimisation step.

One rule for all: Adam (fused where PyTorch has a fused kernel for the device: on a CPU the update of a
50k x 128 embedding matrix takes ~17 ms instead of ~100 ms), a linear warm-up from 0 to the peak rate over
``optim.warmup(total)`` steps, then a linear decay to 0 at the last step (transformers'
``get_linear_schedule_with_warmup``, the schedule of BERT and of paper 002).
"""

from __future__ import annotations

from collections.abc import Iterable

import torch
from transformers import get_linear_schedule_with_warmup

from lingualite.config.sections import OptimConfig


def make_optimizer(model: torch.nn.Module, optim: OptimConfig) -> torch.optim.Adam:
    try:
        return torch.optim.Adam(model.parameters(), lr=optim.lr, weight_decay=optim.weight_decay, fused=True)
    except (RuntimeError, ValueError):  # pragma: no cover - devices without a fused Adam
        return torch.optim.Adam(model.parameters(), lr=optim.lr, weight_decay=optim.weight_decay)


def make_schedule(
    optimizer: torch.optim.Optimizer, optim: OptimConfig, total_steps: int
) -> torch.optim.lr_scheduler.LambdaLR:
    return get_linear_schedule_with_warmup(optimizer, optim.warmup(total_steps), total_steps)


def optimizer_step(
    parameters: Iterable[torch.nn.Parameter],
    optimizer: torch.optim.Optimizer,
    scheduler: torch.optim.lr_scheduler.LRScheduler,
    grad_clip: float,
) -> None:
    """Clip the global gradient norm to ``grad_clip`` (0: off), update, advance the schedule, zero the grads."""
    if grad_clip > 0:
        torch.nn.utils.clip_grad_norm_(parameters, grad_clip)
    optimizer.step()
    scheduler.step()
    optimizer.zero_grad(set_to_none=True)


def set_learning_rate(
    optimizer: torch.optim.Optimizer, scheduler: torch.optim.lr_scheduler.LRScheduler, lr: float
) -> None:
    """After a resume with a changed ``lr``: the schedule continues from the same step with the new peak."""
    old = list(scheduler.base_lrs)
    scheduler.base_lrs = [lr for _ in old]
    for group, base in zip(optimizer.param_groups, old, strict=True):
        group["lr"] = group["lr"] * (lr / base) if base else lr
        if "initial_lr" in group:
            group["initial_lr"] = lr
