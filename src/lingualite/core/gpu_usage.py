"""How busy a CUDA GPU was during a piece of work: utilisation sampled every 0.5 s in a thread, and the peak
memory PyTorch reserved.

Utilisation comes from NVML through ``pynvml`` (the ``nvidia-ml-py`` package: ``pip install
"lingualite[gpu]"``; ``torch.cuda.utilization`` reads the same), else from ``nvidia-smi
--query-gpu=utilization.gpu -lms 500`` where that program is on the PATH, else it is left out and the report
holds the peak memory only. On a CPU :class:`GpuUsage` does nothing and reports ``{}``.
"""

from __future__ import annotations

import shutil
import subprocess
import threading
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import torch

__all__ = ["GpuUsage", "utilisation_reader"]

INTERVAL_S = 0.5


class Reader(Protocol):
    """``read()``: the GPU's utilisation now, in percent; ``waits``: read() itself waits for the next
    sample (nvidia-smi's stream), so the sampler does not sleep; ``close()``."""

    waits: bool

    def read(self) -> float: ...

    def close(self) -> None: ...


class _Nvml:
    waits = False

    def __init__(self, index: int) -> None:
        import pynvml

        pynvml.nvmlInit()
        self._nvml, self._handle = pynvml, pynvml.nvmlDeviceGetHandleByIndex(index)
        self.read()

    def read(self) -> float:
        return float(self._nvml.nvmlDeviceGetUtilizationRates(self._handle).gpu)

    def close(self) -> None:
        return None


class _Smi:
    waits = True

    def __init__(self, index: int) -> None:
        query = [
            "--query-gpu=utilization.gpu",
            "--format=csv,noheader,nounits",
            "-lms",
            str(int(INTERVAL_S * 1000)),
        ]
        self._process = subprocess.Popen(
            ["nvidia-smi", f"--id={index}", *query],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )

    def read(self) -> float:
        line = self._process.stdout.readline() if self._process.stdout else ""
        return float(line.strip())  # an ended stream ("") is a ValueError: the sampling stops

    def close(self) -> None:
        self._process.terminate()
        self._process.wait(timeout=5)


def utilisation_reader(device: torch.device) -> Reader | None:
    """A reader of the GPU's utilisation (NVML, else nvidia-smi), or None where nothing can read it."""
    index = device.index or 0
    try:
        return _Nvml(index)
    except Exception:  # no pynvml, no NVML library or driver, another vendor: try the command line tool
        pass
    if shutil.which("nvidia-smi"):
        try:
            return _Smi(index)
        except OSError:
            return None
    return None


class GpuUsage:
    """``with GpuUsage(device) as usage: ...`` then ``usage.report()``: ``{"device", "peak_memory_mb",
    "utilisation_mean", "utilisation_max", "utilisation_samples"}`` on CUDA (utilisation only where it can be
    read), ``{}`` on a CPU."""

    def __init__(self, device: torch.device) -> None:
        self.device = device
        self.samples: list[float] = []
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._reader: Reader | None = None
        self._peak_mb: float | None = None

    @property
    def active(self) -> bool:
        return self.device.type == "cuda"

    def __enter__(self) -> GpuUsage:
        if not self.active:
            return self
        import gc

        import torch

        gc.collect()  # what earlier work left cached is not this work's memory
        torch.cuda.empty_cache()
        torch.cuda.reset_peak_memory_stats(self.device)
        self._reader = utilisation_reader(self.device)
        if self._reader is not None:
            self._thread = threading.Thread(target=self._sample, args=(self._reader,), daemon=True)
            self._thread.start()
        return self

    def _sample(self, reader: Reader) -> None:
        while not self._stop.is_set():
            try:
                self.samples.append(reader.read())
            except Exception:  # a failed read ends the sampling, not the work
                return
            if not reader.waits:
                self._stop.wait(INTERVAL_S)

    def __exit__(self, *exc: object) -> None:
        if not self.active:
            return
        import torch

        self._stop.set()
        if self._reader is not None:
            self._reader.close()
        if self._thread is not None:
            self._thread.join(timeout=5)
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
