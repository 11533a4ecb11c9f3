"""The device rule of every command that runs a model: ``--device auto|cpu|cuda|cuda:N``.

- ``auto`` (the default): the first CUDA GPU when torch sees one (under ``torchrun``: the process's
  ``LOCAL_RANK`` GPU), else the CPU. ``cpu``, ``cuda`` and ``cuda:N`` choose explicitly; ``cuda`` on a machine
  without CUDA, or ``cuda:3`` on a machine with one GPU, is a one-line :class:`DeviceError`.
- :func:`announce` prints the device in use once per process (one line on stderr from the CLI). A run on
  ``auto`` that lands on the CPU prints nothing, so a machine without a GPU sees the same output as before.
- CPU-only paths (ONNX and static encoders, the numpy / C baselines, TF-IDF) run on the CPU whatever the
  device; asked for CUDA they say so once (:func:`cpu_only`) and do not fail.
- The defaults that depend on the device live here: the encode batch size (:func:`encode_batch_size`), the
  inference dtype (:func:`inference_dtype`), bf16 autocast in training (:func:`bf16_default`).
- :func:`out_of_memory_hint` turns a CUDA out-of-memory error into one line naming the batch size to lower.

``torch`` is imported inside the functions: the CLI reads :data:`DEVICE_HELP` without loading it.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from lingualite.core.errors import LinguaLiteError

if TYPE_CHECKING:
    import torch

__all__ = [
    "DEVICE_HELP",
    "ENCODE_BATCH_SIZE",
    "DeviceError",
    "announce",
    "announce_to",
    "bf16_default",
    "cpu_only",
    "describe",
    "encode_batch_size",
    "inference_dtype",
    "is_cuda",
    "out_of_memory_hint",
    "parse_device",
    "resolve_device",
]

DEVICE_HELP = (
    "Where the model runs: auto (a CUDA GPU when there is one, else the CPU), cpu, cuda or cuda:N. ONNX, "
    "static and the numpy/C baselines always run on the CPU."
)

ENCODE_BATCH_SIZE = {"cpu": 128, "cuda": 512}
"""Sentences per forward pass when encoding, by device type: the one place for the ``--batch-size`` default.
On a CPU 128 (what it always was); on a GPU 512 keeps the card busy with short sentences and still fits a
128-token batch of a 12-layer model in a few GB."""

_SPEC = re.compile(r"^(auto|cpu|cuda)(?::(\d+))?$")
logger = logging.getLogger(__name__)


class DeviceError(LinguaLiteError):
    """A device that cannot be used on this machine, or a CUDA out-of-memory; the message is one line."""


def parse_device(spec: str) -> tuple[str, int | None]:
    """``"cuda:1"`` -> ``("cuda", 1)``; ``"auto"`` -> ``("auto", None)``; anything else is a DeviceError."""
    match = _SPEC.match(str(spec).strip().lower())
    if match is None or (match.group(2) is not None and match.group(1) != "cuda"):
        raise DeviceError(f"--device {spec!r}: choose auto, cpu, cuda or cuda:N (N = 0, 1, ...)")
    return match.group(1), None if match.group(2) is None else int(match.group(2))


def _cuda_count() -> int:
    import torch

    return torch.cuda.device_count() if torch.cuda.is_available() else 0


def resolve_device(spec: str | torch.device | None = "auto") -> torch.device:
    """The ``torch.device`` that ``spec`` names on this machine (see the module docstring).

    Under ``torchrun`` (``LOCAL_RANK`` set) ``auto`` and ``cuda`` mean the process's own GPU."""
    import torch

    if isinstance(spec, torch.device):
        spec = str(spec)
    kind, index = parse_device(spec or "auto")
    count = _cuda_count()
    if kind == "cpu" or (kind == "auto" and count == 0):
        return torch.device("cpu")
    if count == 0:
        build = "this PyTorch has no CUDA support" if torch.version.cuda is None else "no GPU is visible"
        raise DeviceError(f"--device {spec}: CUDA is not available ({build}); use --device cpu or auto")
    local = os.environ.get("LOCAL_RANK")
    if index is None:
        index = int(local) if local is not None and local.isdigit() else 0
    if index >= count:
        raise DeviceError(
            f"--device {spec}: this machine has {count} CUDA device(s) (cuda:0 to cuda:{count - 1})"
        )
    return torch.device("cuda", index)


def is_cuda(device: torch.device | str | None) -> bool:
    return device is not None and str(device).startswith("cuda")


def describe(device: torch.device) -> str:
    """``cuda:0 (NVIDIA H100 80GB HBM3)`` or ``cpu (2 threads)``."""
    import torch

    if device.type == "cuda":
        return f"{device} ({torch.cuda.get_device_name(device)})"
    return f"cpu ({torch.get_num_threads()} threads)"


_said: set[str] = set()
_sink: Callable[[str], None] | None = None


def announce_to(sink: Callable[[str], None] | None) -> None:
    """Where :func:`announce` writes (the CLI: one stderr line); None: the ``lingualite.core.device`` log."""
    global _sink
    _sink = sink


def announce(device: torch.device, asked: str | None = "auto", detail: str = "") -> None:
    """Say once per process which device runs the model: always for a GPU or an explicit ``--device``;
    ``auto`` on a CPU says nothing (the output of a machine without a GPU is as it always was)."""
    if device.type == "cpu" and (asked is None or parse_device(asked)[0] == "auto"):
        return
    _say(f"device {describe(device)}" + (f"; {detail}" if detail else ""))


def cpu_only(what: str, why: str, asked: str | None) -> None:
    """An encoder that always runs on the CPU (``why``), said once when the user asked for a GPU."""
    if asked is None:
        return
    kind, _ = parse_device(asked)
    if kind == "cuda" or (kind == "auto" and _cuda_count() > 0):
        _say(f"device cpu for {what} ({why})")


def _say(line: str) -> None:
    if line in _said:
        return
    _said.add(line)
    (_sink or logger.info)(line)


def inference_dtype(device: torch.device) -> torch.dtype:
    """Weights for inference: float32 on a CPU (results as they always were); on CUDA bfloat16 where the
    card has it (Ampere and later), else float16. Vectors are handed back as float32 either way."""
    import torch

    if device.type != "cuda":
        return torch.float32
    return torch.bfloat16 if torch.cuda.is_bf16_supported() else torch.float16


def bf16_default(device: torch.device, configured: bool | None) -> bool:
    """bf16 autocast in training: the config's ``optim.bf16`` when set; null: on for CUDA, off on a CPU."""
    return configured if configured is not None else device.type == "cuda"


def encode_batch_size(device: torch.device | str | None, given: int | None = None) -> int:
    """``given`` when the user chose one, else :data:`ENCODE_BATCH_SIZE` of the device type."""
    if given is not None:
        return given
    return ENCODE_BATCH_SIZE["cuda" if is_cuda(device) else "cpu"]


@contextmanager
def out_of_memory_hint(batch_size: int, option: str) -> Iterator[None]:
    """Turn a CUDA out-of-memory error inside the block into one :class:`DeviceError` line naming the batch
    size and the option (``--batch-size``, ``optim.batch_size``) to lower."""
    import torch

    out_of_memory = getattr(torch, "OutOfMemoryError", None) or torch.cuda.OutOfMemoryError  # torch < 2.5
    try:
        yield
    except out_of_memory as exc:
        where = "the CPU"
        if torch.cuda.is_available():
            torch.cuda.empty_cache()
            where = "CUDA"
        smaller = max(1, batch_size // 2)
        raise DeviceError(
            f"{where} ran out of memory with a batch of {batch_size}: lower {option} (e.g. {smaller})"
        ) from exc
