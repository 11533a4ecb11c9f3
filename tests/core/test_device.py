"""The device rule (lingualite.core.device): parsing, resolution on a machine without CUDA (and on a pretend one with
GPUs), one-line errors, the device line printed once, the device-dependent defaults, the out-of-memory hint."""

from __future__ import annotations

import pytest
import torch

from lingualite.core import device as dev
from lingualite.core.device import (
    DeviceError,
    announce,
    bf16_default,
    cpu_only,
    encode_batch_size,
    inference_dtype,
    out_of_memory_hint,
    parse_device,
    resolve_device,
)


@pytest.fixture
def said(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    lines: list[str] = []
    monkeypatch.setattr(dev, "_said", set())
    monkeypatch.setattr(dev, "_sink", lines.append)
    return lines


def _gpus(monkeypatch: pytest.MonkeyPatch, count: int) -> None:
    monkeypatch.setattr(dev, "_cuda_count", lambda: count)


@pytest.mark.parametrize(
    ("spec", "parsed"),
    [("auto", ("auto", None)), ("cpu", ("cpu", None)), ("cuda", ("cuda", None)), ("cuda:2", ("cuda", 2)),
     (" CUDA:0 ", ("cuda", 0))],
)  # fmt: skip
def test_parse(spec: str, parsed: tuple[str, int | None]) -> None:
    assert parse_device(spec) == parsed


@pytest.mark.parametrize("spec", ["gpu", "cuda:", "cuda:x", "cpu:1", "auto:0", "cuda:-1", ""])
def test_bad_specs_are_one_line_errors(spec: str) -> None:
    with pytest.raises(DeviceError, match="choose auto, cpu, cuda or cuda:N") as info:
        parse_device(spec)
    assert "\n" not in str(info.value)


@pytest.mark.skipif(torch.cuda.is_available(), reason="the machine has CUDA")
def test_without_cuda_auto_is_the_cpu_and_cuda_fails_clearly() -> None:
    assert resolve_device("auto") == resolve_device(None) == resolve_device("cpu") == torch.device("cpu")
    for spec in ("cuda", "cuda:0", "cuda:3"):
        with pytest.raises(DeviceError, match=f"--device {spec}: CUDA is not available") as info:
            resolve_device(spec)
        assert "\n" not in str(info.value) and "--device cpu" in str(info.value)


def test_with_gpus_auto_takes_the_first_or_the_local_rank(monkeypatch: pytest.MonkeyPatch) -> None:
    _gpus(monkeypatch, 2)
    monkeypatch.delenv("LOCAL_RANK", raising=False)
    assert resolve_device("auto") == resolve_device("cuda") == torch.device("cuda", 0)
    assert resolve_device("cuda:1") == torch.device("cuda", 1)
    assert resolve_device("cpu") == torch.device("cpu")
    monkeypatch.setenv("LOCAL_RANK", "1")  # torchrun's second process
    assert resolve_device("auto") == torch.device("cuda", 1)


def test_a_gpu_index_the_machine_lacks_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    _gpus(monkeypatch, 1)
    with pytest.raises(
        DeviceError, match=r"--device cuda:3: this machine has 1 CUDA device\(s\) \(cuda:0 to cuda:0\)"
    ):
        resolve_device("cuda:3")


def test_the_device_line_is_said_once_and_auto_on_a_cpu_says_nothing(said: list[str]) -> None:
    cpu = torch.device("cpu")
    announce(cpu, "auto")
    announce(cpu, None)
    assert said == []  # a machine without a GPU prints what it always printed
    announce(cpu, "cpu")
    announce(cpu, "cpu")
    assert len(said) == 1 and said[0].startswith("device cpu (")


def test_cpu_only_encoders_say_so_when_a_gpu_was_asked_for(said: list[str], monkeypatch) -> None:
    cpu_only("use-m", "a numpy model", "cpu")
    cpu_only("use-m", "a numpy model", "auto")  # no GPU here: nothing to explain
    assert said == []
    _gpus(monkeypatch, 1)
    cpu_only("use-m", "a numpy model", "auto")
    cpu_only("use-m", "a numpy model", "cuda")
    assert said == ["device cpu for use-m (a numpy model)"]


def test_defaults_that_depend_on_the_device() -> None:
    cpu, gpu = torch.device("cpu"), torch.device("cuda", 0)
    assert (
        encode_batch_size(cpu) == 128 and encode_batch_size(gpu) == 512 and encode_batch_size(gpu, 64) == 64
    )
    assert encode_batch_size(None) == 128 and encode_batch_size("cuda:1") == 512
    assert bf16_default(cpu, None) is False and bf16_default(gpu, None) is True
    assert bf16_default(cpu, True) is True and bf16_default(gpu, False) is False  # the config wins when set
    assert inference_dtype(cpu) == torch.float32


def test_out_of_memory_names_the_batch_size_to_lower() -> None:
    with pytest.raises(DeviceError) as info, out_of_memory_hint(512, "--batch-size"):
        raise torch.OutOfMemoryError("CUDA out of memory. Tried to allocate 2.00 GiB\n(long torch text)")
    message = str(info.value)
    assert "batch of 512" in message and "lower --batch-size (e.g. 256)" in message and "\n" not in message
    with out_of_memory_hint(8, "--batch-size"):
        pass  # nothing raised, nothing changed
