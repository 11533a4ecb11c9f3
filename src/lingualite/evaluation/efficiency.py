"""Efficiency of an encoder on CPU: size, memory, speed, latency, energy; and training time from a run folder.

:func:`measure_efficiency` runs the measurement in a fresh Python process (``python -m
lingualite.evaluation.efficiency``, JSON arguments on stdin, one JSON line on stdout), so that peak memory is
that of loading and using this one model, not of whatever the caller had loaded before. In that process:

1. load the encoder (TF-IDF: construct and fit on the texts) -> ``load_seconds``, ``load_rss_mb``;
2. warm up (``warmup`` sentences, batched), then encode all texts in batches of ``batch_size`` ->
   ``sentences_per_second``;
3. encode ``single_runs`` sentences one at a time -> ``latency_ms_p25/p50/p75/p95``, this process's CPU
   time per call ``cpu_ms_p25/p50/p75`` (all its threads) and, where a RAPL counter is readable
   (:mod:`lingualite.evaluation.power`), energy per call ``energy_mj_p25/p50/p75`` (paper 002's Table 3:
   median and quartiles of 1,000 batch-1 runs); ``batch1_energy_method`` says which;
4. read the peak RSS (``ru_maxrss``) -> ``peak_rss_mb``. It is read *before* step 5 because starting the
   codecarbon tracker imports pandas (about +50 MB), which is not the model's memory;
5. if ``energy``: a second batched pass over all texts inside a codecarbon ``OfflineEmissionsTracker``
   (``tracking_mode="process"``: this process's CPU time, not the machine's) -> ``energy_wh_per_1000``.

Energy is *measured* only where codecarbon reads power counters (Intel RAPL on Linux); elsewhere it
multiplies this process's CPU-time share by a TDP looked up from the CPU model name, and adds its RAM power
model: ``energy_method`` says which. Read the two parts separately (``energy_cpu_wh_per_1000``,
``energy_ram_wh_per_1000``): codecarbon 3.x's RAM model gives a process under 2 GB its 10 W floor (two
DIMMs at 5 W), so the RAM part is 10 W x the encoding time whatever the model's memory, and in the TDP mode
the CPU part is TDP x this process's CPU time / cores. Both are thus proportional to time; they compare
models on one machine, not machines. The tracker is built with no output methods (writes no file, calls no
API), ``allow_multiple_runs=True`` (no lock file in /tmp, no signal handlers), a fixed country and no
Electricity Maps token; the worker also refuses any outgoing internet connection and runs in a temporary
directory, so nothing lands in the caller's working directory.

Timings on a machine shared with other jobs are noisy: ``load_average_1m`` is reported with each result.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["measure_efficiency"]

ESTIMATED = "estimate (no power counters; codecarbon TDP model)"
MEASURED = "measured (RAPL power counters via codecarbon; RAM power estimated)"
# codecarbon CPU modes that read a power counter; the others (cpu_load, constant) are TDP estimates.
_COUNTER_MODES = {"intel_rapl", "windows_emi", "intel_power_gadget"}


def measure_efficiency(
    model: str,
    texts: Sequence[str],
    batch_size: int = 64,
    single_runs: int = 200,
    warmup: int | None = None,
    warmup_texts: Sequence[str] | None = None,
    energy: bool = True,
    threads: int | None = None,
    country_iso_code: str = "DEU",
    timeout: float | None = 3600,
    powercap: str | Path | None = None,
    device: str = "auto",
) -> dict[str, Any]:
    """Measure ``model`` (a baseline name or a sentence-transformers folder) on ``texts`` in a fresh process.

    :param warmup: sentences encoded (batched) before timing; default ``batch_size``.
    :param warmup_texts: other sentences to encode (batched) before timing instead of the first ``warmup``
        of ``texts``: a steady state in which encoders that learn as they go (the static tier's word cache)
        have seen other text, but not the timed sentences.
    :param single_runs: batch-1 calls timed for the latency percentiles (``texts`` cycled if shorter).
    :param threads: CPU threads for the encoder; default all cores available to the process.
    :param country_iso_code: only sets codecarbon's carbon intensity (the energy does not depend on it).
    :param powercap: where the RAPL counters are (default ``/sys/class/powercap``).
    :param device: where the model runs (:mod:`lingualite.core.device`); recorded as ``device`` (on a GPU the
        CPU time and energy figures are the host's only).
    :returns: ``num_parameters``, ``size_on_disk_mb``, ``dimension``, ``load_seconds``,
        ``baseline_rss_mb`` (the fresh interpreter with lingualite imported, before loading), ``load_rss_mb``
        (RSS right after loading), ``peak_rss_mb``, ``sentences_per_second``, ``latency_ms_p50``,
        ``latency_ms_p95``, ``latency_ms_mean``, ``latency_ms_p25``, ``latency_ms_p75``, ``cpu_ms_p25``,
        ``cpu_ms_p50``, ``cpu_ms_p75``, ``cpu_ms_mean`` (per batch-1 call), ``cpu_ms_per_sentence_batched``,
        ``energy_mj_p25/p50/p75`` and ``batch1_energy_method``, ``threads``, ``energy_wh_per_1000``,
        ``energy_cpu_wh_per_1000``, ``energy_ram_wh_per_1000``, ``energy_method``, ``energy_cpu_tdp_w``,
        ``energy_cpu_model``, plus the settings (``model``, ``name``, ``num_texts``, ``batch_size``,
        ``single_runs``, ``warmup``) and ``cpu_model``, ``load_average_1m``. Energy keys are None when
        ``energy`` is False (``energy_method`` is then ``"off"``); sizes are None where unknown.
    :raises RuntimeError: the worker failed (its stderr tail is in the message).
    """
    texts = [str(t) for t in texts]
    if not texts:
        raise ValueError("measure_efficiency needs at least one text")
    if batch_size < 1 or single_runs < 1:
        raise ValueError("batch_size and single_runs must be positive")
    from lingualite.encoders.baselines import BASELINES
    from lingualite.encoders.packaged import packaged_spec

    model = packaged_spec(model) or model  # lingualite-small -> onnx-int8:<its folder in the package>
    if model not in BASELINES:
        from lingualite.encoders.spec import split_runtime

        runtime, rest = split_runtime(model)  # see load_encoder
        prefix = f"{runtime}:" if runtime else ""
        path = Path(rest)
        if not path.exists():
            raise FileNotFoundError(
                f"{model!r} is neither a baseline ({', '.join(BASELINES)}) nor an existing model folder"
            )
        model = prefix + str(path.resolve())  # the worker runs in a temporary directory
    args = {
        "model": model,
        "texts": texts,
        "batch_size": batch_size,
        "single_runs": single_runs,
        "warmup": len(warmup_texts) if warmup_texts else (batch_size if warmup is None else warmup),
        "warmup_texts": [str(t) for t in warmup_texts] if warmup_texts else None,
        "energy": energy,
        "threads": threads,
        "country_iso_code": country_iso_code,
        "powercap": str(powercap) if powercap is not None else None,
        "device": device,
    }

    # TOKENIZERS_PARALLELISM as the user has it (default: on): the worker is a fresh process (no fork after
    # the tokenizer's threads started), and every model may use all the cores it is given
    env = dict(os.environ, HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")
    src = str(Path(__file__).resolve().parents[2])  # the same lingualite, installed or not
    env["PYTHONPATH"] = os.pathsep.join(p for p in (src, env.get("PYTHONPATH")) if p)
    with tempfile.TemporaryDirectory(prefix="lingualite-efficiency-") as cwd:
        proc = subprocess.run(
            [sys.executable, "-m", "lingualite.evaluation.efficiency"],
            input=json.dumps(args),
            capture_output=True,
            text=True,
            cwd=cwd,
            env=env,
            timeout=timeout,
        )
    lines = [line for line in proc.stdout.splitlines() if line.strip()]
    if proc.returncode != 0 or not lines:
        tail = "\n".join(proc.stderr.strip().splitlines()[-15:])
        raise RuntimeError(f"efficiency worker for {model!r} failed (exit {proc.returncode}):\n{tail}")
    return json.loads(lines[-1])


# --------------------------------------------------------------------------------------------- worker


def _rss_mb() -> float:
    """Current resident set size of this process, MiB."""
    try:
        with open("/proc/self/statm") as fh:
            return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except OSError:
        import psutil

        return psutil.Process().memory_info().rss / 2**20


def _peak_rss_mb() -> float:
    """Peak RSS of this process, MiB: ``VmHWM`` on Linux. Not ``ru_maxrss``: Linux keeps it across
    ``execve``, so a worker started by a large process would report its parent's peak."""
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 2**10  # kB
    except (OSError, ValueError, IndexError):
        pass
    import resource

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 2**20 if sys.platform == "darwin" else peak / 2**10  # bytes on macOS, KiB on Linux


def cpu_model() -> str | None:
    """The CPU's model name (``/proc/cpuinfo``), else what ``platform`` says, else None."""
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    import platform

    return platform.processor() or None


def _forbid_internet() -> None:
    """Make outgoing AF_INET/AF_INET6 connections of this process fail (unix sockets still work)."""
    import socket

    original = socket.socket.connect

    def connect(self: socket.socket, address: Any) -> Any:
        if self.family in (socket.AF_INET, socket.AF_INET6):
            raise OSError(f"lingualite efficiency worker: network access refused ({address!r})")
        return original(self, address)

    socket.socket.connect = connect  # type: ignore[method-assign]
    socket.socket.connect_ex = connect  # type: ignore[method-assign]


def _encode_batched(encoder: Any, texts: list[str], batch_size: int) -> None:
    for i in range(0, len(texts), batch_size):
        encoder.encode(texts[i : i + batch_size])


def _energy(encoder: Any, texts: list[str], batch_size: int, country: str) -> dict[str, Any]:
    import logging
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from codecarbon import OfflineEmissionsTracker

    logging.getLogger("codecarbon").setLevel(logging.ERROR)
    tracker = OfflineEmissionsTracker(
        country_iso_code=country,
        log_level="error",
        output_methods=[],  # = save_to_file/api/logger/prometheus/logfire all False, without the deprecation
        emissions_endpoint=None,
        electricitymaps_api_token=None,
        allow_multiple_runs=True,
        tracking_mode="process",
        output_dir=tempfile.gettempdir(),
    )
    tracker.start()
    _encode_batched(encoder, texts, batch_size)
    tracker.stop()
    data = getattr(tracker, "final_emissions_data", None)
    if data is None:  # codecarbon swallows its own errors; say so rather than report zeros
        return {"energy_method": "failed (codecarbon reported nothing)"}
    cpu = next((h for h in getattr(tracker, "_hardware", []) if type(h).__name__ == "CPU"), None)
    mode = getattr(cpu, "_mode", None)
    per_1000 = 1000.0 * 1000.0 / len(texts)  # kWh -> Wh, per text -> per 1000 texts
    return {
        "energy_wh_per_1000": data.energy_consumed * per_1000,
        "energy_cpu_wh_per_1000": data.cpu_energy * per_1000,
        "energy_ram_wh_per_1000": data.ram_energy * per_1000,
        "energy_method": MEASURED if mode in _COUNTER_MODES else ESTIMATED,
        "energy_cpu_tdp_w": None if mode in _COUNTER_MODES else getattr(cpu, "_tdp", None),
        "energy_cpu_model": data.cpu_model,
        "energy_pass_seconds": data.duration,
    }


def _quartiles(name: str, values: list[float]) -> dict[str, float]:
    return {f"{name}_p{q}": float(np.percentile(values, q)) for q in (25, 50, 75)}


def _single_calls(encoder: Any, singles: list[str], powercap: str | None) -> dict[str, Any]:
    """Batch-1 calls, one by one: wall-clock latency, this process's CPU time (all threads) and, where a
    RAPL counter is readable, the packages' energy of each call (paper 002's Table 3 measures)."""
    from lingualite.evaluation.power import POWERCAP, open_rapl

    rapl = open_rapl(powercap or POWERCAP)
    latencies, cpu, energy = [], [], []
    for text in singles:
        joules = rapl.read() if rapl is not None else None
        cpu_start, start = time.process_time(), time.perf_counter()
        encoder.encode([text])
        latencies.append((time.perf_counter() - start) * 1000.0)
        cpu.append((time.process_time() - cpu_start) * 1000.0)
        if rapl is not None and joules is not None:
            energy.append(rapl.joules_since(joules) * 1000.0)
    out: dict[str, Any] = {
        **_quartiles("latency_ms", latencies),
        "latency_ms_p95": float(np.percentile(latencies, 95)),
        "latency_ms_mean": statistics.fmean(latencies),
        **_quartiles("cpu_ms", cpu),
        "cpu_ms_mean": statistics.fmean(cpu),
        **({f"energy_mj_p{q}": None for q in (25, 50, 75)}),
        "batch1_energy_method": f"not measurable here (no readable RAPL counter under {powercap or POWERCAP})",
    }
    if energy:
        out.update(_quartiles("energy_mj", energy))
        out["batch1_energy_method"] = "measured (RAPL package counters, whole package: other processes count)"
    return out


def _worker(args: dict[str, Any]) -> dict[str, Any]:
    from lingualite.encoders.resolve import load_encoder  # numpy only: scipy/torch come with the model

    texts: list[str] = args["texts"]
    batch_size, single_runs = int(args["batch_size"]), int(args["single_runs"])
    load_average = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    baseline_rss = _rss_mb()

    start = time.perf_counter()
    encoder = load_encoder(args["model"], threads=args["threads"], device=args.get("device", "auto"))
    fit = getattr(encoder, "fit", None)
    if callable(fit):  # TF-IDF: fitted on the texts it encodes, as the evaluation tasks do
        fit(texts)
    load_seconds = time.perf_counter() - start
    load_rss = _rss_mb()

    _encode_batched(encoder, args.get("warmup_texts") or texts[: int(args["warmup"])], batch_size)
    cpu_start, start = time.process_time(), time.perf_counter()
    _encode_batched(encoder, texts, batch_size)
    batched_seconds = time.perf_counter() - start
    batched_cpu = time.process_time() - cpu_start

    singles = [texts[i % len(texts)] for i in range(single_runs)]
    for text in singles[: min(5, single_runs)]:  # warm the batch-1 path (other shapes than the batches)
        encoder.encode([text])
    calls = _single_calls(encoder, singles, args.get("powercap"))
    peak_rss = _peak_rss_mb()

    size = getattr(encoder, "size_on_disk_bytes", lambda: None)()
    result: dict[str, Any] = {
        "model": args["model"],
        "name": encoder.name,
        "num_parameters": getattr(encoder, "num_parameters", lambda: None)(),
        "size_on_disk_mb": None if size is None else size / 2**20,
        "dimension": int(encoder.dimension),
        "num_texts": len(texts),
        "batch_size": batch_size,
        "warmup": int(args["warmup"]),
        "single_runs": single_runs,
        "threads": getattr(encoder, "threads", 1),  # TF-IDF is single-threaded
        "device": str(getattr(encoder, "device", "cpu")),
        "load_seconds": load_seconds,
        "baseline_rss_mb": baseline_rss,
        "load_rss_mb": load_rss,
        "peak_rss_mb": peak_rss,
        "sentences_per_second": len(texts) / batched_seconds,
        **calls,
        "cpu_ms_per_sentence_batched": batched_cpu * 1000.0 / len(texts),
        "energy_wh_per_1000": None,
        "energy_cpu_wh_per_1000": None,
        "energy_ram_wh_per_1000": None,
        "energy_method": "off",
        "energy_cpu_tdp_w": None,
        "energy_cpu_model": None,
        "energy_pass_seconds": None,
        "cpu_model": cpu_model(),
        "load_average_1m": load_average,
    }
    if args["energy"]:
        result.update(_energy(encoder, texts, batch_size, args["country_iso_code"]))
    return result


def _main() -> None:
    """Worker entry point: JSON arguments on stdin, one JSON line on stdout (libraries' prints -> stderr)."""
    _forbid_internet()
    args = json.loads(sys.stdin.read())
    stdout = os.dup(1)
    os.dup2(2, 1)  # anything a library prints goes to stderr; stdout carries only the result
    try:
        result = _worker(args)
    finally:
        sys.stdout.flush()
        os.dup2(stdout, 1)
    sys.stdout.write(json.dumps(result) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    _main()
