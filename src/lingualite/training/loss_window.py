"""The losses of the steps since the last log line, and the non-finite loss stop.

On a CPU (and any device where :func:`syncs_every_step` says so) every step's loss is read with ``.item()``
and checked before its backward pass, exactly as the loop always did: a non-finite loss stops the run at
that step, before it touches the weights.

On a GPU reading a loss makes the host wait for the GPU to finish the step, which left the card idle most
of the time. There the losses (and the recipe's logged parts, as detached 0-d tensors) stay on the device;
:meth:`LossWindow.check_finite` reads them all at once at the loop's log, validation and checkpoint steps,
and a non-finite one stops the run naming its step. The steps in between have already updated the weights,
but no checkpoint is ever written from them: the check runs before every save.
"""

from __future__ import annotations

import math

import numpy as np
import torch
import torch.distributed as dist

from lingualite.core.errors import LinguaLiteError
from lingualite.training.distributed import DistributedContext

__all__ = ["LossWindow", "syncs_every_step"]


def syncs_every_step(device: torch.device) -> bool:
    """Read and check each step's loss at once (every device but CUDA)."""
    return device.type != "cuda"


class LossWindow:
    """Values to log, averaged over the steps since the last :meth:`means`, and the non-finite check."""

    def __init__(self, label: str, ctx: DistributedContext, deferred: bool) -> None:
        self.label, self.ctx, self.deferred = label, ctx, deferred
        self.values: dict[str, list[float | torch.Tensor]] = {}
        self.unchecked: list[tuple[int, torch.Tensor]] = []

    def add(self, step: int, out: object) -> None:
        """The loss and parts of ``step`` (a :class:`~lingualite.training.loop.StepOutput`)."""
        loss: torch.Tensor = out.loss  # type: ignore[attr-defined]
        parts: dict[str, float | torch.Tensor] = out.parts  # type: ignore[attr-defined]
        if self.deferred:
            value = loss.detach().float()
            self.unchecked.append((step, value))
            self._append({"loss": value, **{k: _detached(v) for k, v in parts.items()}})
            return
        loss_value = loss.item()
        self._check_now(loss_value, step)
        self._append({"loss": loss_value, **{k: float(v) for k, v in parts.items()}})

    def _append(self, values: dict[str, float | torch.Tensor]) -> None:
        for key, value in values.items():
            self.values.setdefault(key, []).append(value)

    def means(self) -> dict[str, float]:
        """Each value's mean over the window (one host sync on a GPU), and a new window."""
        if not self.deferred:
            record = {key: float(np.mean(values)) for key, values in self.values.items()}
        else:
            device = self.ctx.device
            stacked = [
                torch.stack([torch.as_tensor(v, device=device).float() for v in vs]).mean()
                for vs in self.values.values()
            ]
            record = dict(zip(self.values, torch.stack(stacked).tolist(), strict=True)) if stacked else {}
        self.values.clear()
        return record

    def _check_now(self, loss_value: float, step: int) -> None:
        finite = torch.tensor(float(math.isfinite(loss_value)), device=self.ctx.device)
        if self.ctx.enabled:  # every rank must stop together, or the others wait in the all-reduce forever
            dist.all_reduce(finite, op=dist.ReduceOp.MIN)
        if not finite.item():
            self._stop(loss_value, step)

    def check_finite(self) -> None:
        """Deferred mode: check every loss since the last check (one host sync); a no-op otherwise."""
        if not self.deferred or not self.unchecked:
            return
        losses = torch.stack([value for _, value in self.unchecked])
        good = torch.isfinite(losses)
        finite = good.all().float()
        if self.ctx.enabled:
            dist.all_reduce(finite, op=dist.ReduceOp.MIN)
        steps = [step for step, _ in self.unchecked]
        self.unchecked.clear()
        if finite.item():
            return
        bad = (~good).nonzero()
        if len(bad):
            first = int(bad[0])
            self._stop(float(losses[first]), steps[first])
        where = f"{self.label}: " if self.label != "train" else ""
        raise LinguaLiteError(
            f"{where}loss became non-finite on another process between steps {steps[0] + 1} and "
            f"{steps[-1] + 1}; lower optim.lr"
        )

    def _stop(self, loss_value: float, step: int) -> None:
        where = f"{self.label}: " if self.label != "train" else ""
        raise LinguaLiteError(f"{where}loss became {loss_value} at step {step + 1}; lower optim.lr")


def _detached(value: float | torch.Tensor) -> float | torch.Tensor:
    return value.detach() if isinstance(value, torch.Tensor) else value
