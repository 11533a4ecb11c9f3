"""torchrun / DDP support: the same script runs on one process or many (gloo on CPU, nccl on GPU)."""

from __future__ import annotations

import os
from dataclasses import dataclass

import torch
import torch.distributed as dist

from lingualite.core.device import DeviceError, parse_device, resolve_device


@dataclass
class DistributedContext:
    rank: int = 0
    world_size: int = 1
    device: torch.device = torch.device("cpu")

    @property
    def is_main(self) -> bool:
        return self.rank == 0

    @property
    def enabled(self) -> bool:
        return self.world_size > 1

    def barrier(self) -> None:
        if self.enabled:
            dist.barrier()


def init_distributed(device: str | torch.device = "auto") -> DistributedContext:
    """Read torchrun's environment (RANK, WORLD_SIZE, LOCAL_RANK); a plain run is rank 0 of 1.

    ``device`` follows :func:`lingualite.core.device.resolve_device` (``auto``: the LOCAL_RANK GPU when there is
    CUDA, else the CPU); under torchrun each process takes its LOCAL_RANK GPU, so ``cuda:N`` is refused."""
    world = int(os.environ.get("WORLD_SIZE", "1"))
    if world > 1 and parse_device(str(device))[1] is not None:
        raise DeviceError(
            f"--device {device}: under torchrun every process uses its LOCAL_RANK GPU; pass --device cuda"
        )
    device = resolve_device(device)
    if device.type == "cuda":
        torch.cuda.set_device(device)
    if world > 1 and not dist.is_initialized():
        dist.init_process_group(backend="nccl" if device.type == "cuda" else "gloo")
    rank = dist.get_rank() if world > 1 else 0
    return DistributedContext(rank=rank, world_size=world, device=device)
