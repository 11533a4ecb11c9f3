"""How busy a CUDA GPU was during a piece of work: utilisation sampled every 0.5 s in a thread, and the peak
memory PyTorch reserved.

Utilisation comes from NVML (``pynvml``, the ``nvidia-ml-py`` package: ``pip install "lingualite[gpu]"``)
when it is installed, else from ``torch.cuda.utilization()`` (which needs NVML too), else it is left out:
the report then holds the peak memory only. On a CPU :class:`GpuUsage` does nothing and reports ``{}``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import torch

__all__ = ["GpuUsage", "utilisation_reader"]

INTERVAL_S = 0.5


def utilisation_reader(device: torch.device) -> Callable[[], float] | None:
    """A function returning the GPU's current utilisation in percent, or None where nothing can read it."""
    try:
        import pynvml

        pynvml.nvmlInit()
        handle = pynvml.nvmlDeviceGetHandleByIndex(device.index or 0)
        pynvml.nvmlDeviceGetUtilizationRates(handle)
        return lambda: float(pynvml.nvmlDeviceGetUtilizationRates(handle).gpu)
    except Exception:  # no NVML library, no driver, another vendor: try torch's reader
        pass
    try:
        import torch

        torch.cuda.utilization(device)
        return lambda: float(torch.cuda.utilization(device))
    except Exception:  # torch reads NVML as well; without it there is no figure
        return None


class GpuUsage:
    """``with GpuUsage(device) as usage: ...`` then ``usage.report()``: ``{"device", "peak_memory_mb",
    "utilisation_mean", "utilisation_max", "utilisation_samples"}`` on CUDA (utilisation only where it can be
    read), ``{}`` on a CPU."""

    def __init__(self, device: torch.device, interval_s: float = INTERVAL_S) -> None:
        self.device, self.interval_s = device, interval_s
        self.samples: list[float] = []
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._peak_mb: float | None = None

    @property
    def active(self) -> bool:
        return self.device.type == "cuda"

    def __enter__(self) -> GpuUsage:
        if not self.active:
            return self
        import torch

        torch.cuda.reset_peak_memory_stats(self.device)
        read = utilisation_reader(self.device)
        if read is not None:
            self._thread = threading.Thread(target=self._sample, args=(read,), daemon=True)
            self._thread.start()
        return self

    def _sample(self, read: Callable[[], float]) -> None:
        while not self._stop.wait(self.interval_s):
            try:
                self.samples.append(read())
            except Exception:  # a failed read ends the sampling, not the work
                return

    def __exit__(self, *exc: object) -> None:
        if not self.active:
            return
        import torch

        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        self._peak_mb = torch.cuda.max_memory_reserved(self.device) / 2**20

    def report(self) -> dict[str, Any]:
        if not self.active:
            return {}
        import torch

        out: dict[str, Any] = {"device": torch.cuda.get_device_name(self.device)}
        if self._peak_mb is not None:
            out["peak_memory_mb"] = round(self._peak_mb, 1)
        if self.samples:
            out["utilisation_mean"] = round(sum(self.samples) / len(self.samples), 1)
            out["utilisation_max"] = max(self.samples)
            out["utilisation_samples"] = len(self.samples)
        return out
