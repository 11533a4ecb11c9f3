"""torchrun / DDP support: the same script runs on one process or many (gloo on CPU, nccl on GPU)."""

from __future__ import annotations

import os
from dataclasses import dataclass

import torch
import torch.distributed as dist


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


def init_distributed() -> DistributedContext:
    """Read torchrun's environment (RANK, WORLD_SIZE, LOCAL_RANK); a plain run is rank 0 of 1."""
    world = int(os.environ.get("WORLD_SIZE", "1"))
    if torch.cuda.is_available():
        local = int(os.environ.get("LOCAL_RANK", "0"))
        torch.cuda.set_device(local)
        device = torch.device("cuda", local)
    else:
        device = torch.device("cpu")
    if world > 1 and not dist.is_initialized():
        dist.init_process_group(backend="nccl" if device.type == "cuda" else "gloo")
    rank = dist.get_rank() if world > 1 else 0
    return DistributedContext(rank=rank, world_size=world, device=device)
