"""One optimisation step, shared by the trainer and the distiller: clip, step, schedule, clear gradients."""

from __future__ import annotations

from collections.abc import Iterable

import torch


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
