"""GPU utilisation and peak memory (lingualite.core.gpu_usage): nothing on a CPU; nvidia-smi read where NVML is not."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
import torch

from lingualite.core import gpu_usage
from lingualite.core.gpu_usage import GpuUsage, utilisation_reader


def test_on_a_cpu_it_measures_nothing_and_reports_nothing() -> None:
    with GpuUsage(torch.device("cpu")) as usage:
        pass
    assert usage.report() == {} and usage.samples == []


def test_without_nvml_the_readings_come_from_nvidia_smi(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = tmp_path / "nvidia-smi"
    fake.write_text("#!/bin/sh\necho 37\necho 55\n")
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")

    class NoNvml:
        def __init__(self, index: int) -> None:
            raise OSError("no NVML here")

    monkeypatch.setattr(gpu_usage, "_Nvml", NoNvml)
    reader = utilisation_reader(torch.device("cuda", 0))
    assert reader is not None and reader.waits
    assert [reader.read(), reader.read()] == [37.0, 55.0]
    with pytest.raises(ValueError):
        reader.read()  # the stream ended: the sampler stops there
    reader.close()


def test_no_reader_at_all_leaves_utilisation_out(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gpu_usage.shutil, "which", lambda _: None)

    class NoNvml:
        def __init__(self, index: int) -> None:
            raise OSError("no NVML here")

    monkeypatch.setattr(gpu_usage, "_Nvml", NoNvml)
    assert utilisation_reader(torch.device("cuda", 0)) is None
