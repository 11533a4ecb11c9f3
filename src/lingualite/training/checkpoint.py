"""Checkpoints: model weights in safetensors, optimizer/scheduler/RNG state as tensors, written atomically.

The trainer state is read back with ``torch.load(weights_only=True)``, which only rebuilds tensors and
plain containers (no arbitrary pickled objects), so a checkpoint from elsewhere cannot run code.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import torch
from safetensors.torch import load_model, save_model

from lingualite.core.io_utils import atomic_dir
from lingualite.models.run_folder import list_checkpoints


def save_checkpoint(
    directory: Path,
    step: int,
    model: torch.nn.Module,
    optimizer: torch.optim.Optimizer,
    scheduler: torch.optim.lr_scheduler.LRScheduler,
    extra: dict[str, Any],
    keep: int = 2,
) -> Path:
    """Write ``directory/step-NNNNNNN`` atomically and prune older checkpoints beyond ``keep``."""
    target = directory / f"step-{step:07d}"
    with atomic_dir(target) as tmp:
        save_model(model, str(tmp / "model.safetensors"))  # handles the tied decoder/embedding weight
        state = {
            "optimizer": optimizer.state_dict(),
            "scheduler": scheduler.state_dict(),
            "torch_rng": torch.get_rng_state(),
            "cuda_rng": torch.cuda.get_rng_state_all() if torch.cuda.is_available() else [],
            "step": step,
        }
        torch.save(state, tmp / "trainer_state.pt")
        (tmp / "trainer_state.json").write_text(json.dumps({"step": step, **extra}, indent=2))
    for old in list_checkpoints(directory)[:-keep]:
        shutil.rmtree(old, ignore_errors=True)
    return target


def load_checkpoint(
    path: Path,
    model: torch.nn.Module,
    optimizer: torch.optim.Optimizer,
    scheduler: torch.optim.lr_scheduler.LRScheduler,
) -> int:
    """Restore everything saved by :func:`save_checkpoint`; returns the step to continue from."""
    load_model(model, str(path / "model.safetensors"))
    state = torch.load(path / "trainer_state.pt", weights_only=True, map_location="cpu")
    optimizer.load_state_dict(state["optimizer"])
    scheduler.load_state_dict(state["scheduler"])
    torch.set_rng_state(state["torch_rng"])
    if state.get("cuda_rng") and torch.cuda.is_available():
        torch.cuda.set_rng_state_all(state["cuda_rng"])
    return int(state["step"])
