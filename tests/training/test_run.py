"""The call's options applied to a recipe's config (training.run): optim.bf16 null is the device's choice and the
saved config records it, so a CPU run's config is what it always was."""

from __future__ import annotations

import pytest
import torch

from lingualite.core.errors import LinguaLiteError
from lingualite.training import run as run_module
from lingualite.training.run import RunOptions, apply_call_options, for_device

pytestmark = pytest.mark.slow  # trains a model: left out of the fast tier


def test_bf16_null_is_off_on_a_cpu_and_on_for_cuda(tiny_parallel_config, monkeypatch) -> None:
    tiny_parallel_config = tiny_parallel_config()
    assert tiny_parallel_config.optim.bf16 is None  # the shipped default: the device decides
    cfg, _ = apply_call_options(tiny_parallel_config, RunOptions(device="cpu"))
    assert cfg.optim.bf16 is False and cfg.to_dict()["optim"]["bf16"] is False
    import lingualite.core.device as device

    monkeypatch.setattr(device, "resolve_device", lambda spec: torch.device("cuda", 0))
    assert for_device(tiny_parallel_config, "cuda").optim.bf16 is True


def test_a_bf16_the_config_sets_is_kept(tiny_parallel_config) -> None:
    assert for_device(tiny_parallel_config(bf16=True), "cpu").optim.bf16 is True


def test_run_options_check_the_new_counts() -> None:
    with pytest.raises(LinguaLiteError, match="teacher_workers must be >= 1"):
        RunOptions(teacher_workers=0).check()
    assert RunOptions().device == "auto" and RunOptions().compile is False
    assert run_module.RunOptions(device="cuda:1").device == "cuda:1"
