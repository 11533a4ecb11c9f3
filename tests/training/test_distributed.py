"""torchrun's device: each process its LOCAL_RANK GPU (training.distributed)."""

from __future__ import annotations

import pytest
import torch

from lingualite.core.device import DeviceError
from lingualite.training.distributed import init_distributed


def test_a_plain_run_is_rank_0_of_1_on_the_device_asked_for() -> None:
    ctx = init_distributed("cpu")
    assert (ctx.rank, ctx.world_size, ctx.device, ctx.enabled) == (0, 1, torch.device("cpu"), False)


def test_under_torchrun_a_fixed_gpu_index_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WORLD_SIZE", "2")
    with pytest.raises(DeviceError, match="under torchrun every process uses its LOCAL_RANK GPU"):
        init_distributed("cuda:1")
