"""Bulk encoding beyond one process: sentences/s of ``lingualite encode`` in one process (all cores, torch or
onnxruntime threads), with ``--workers N`` processes, and with ``--engine ray`` (local mode, N actors).

Each run is the whole CLI command in a fresh process, timed from start to exit: model loading, process
spawning and Ray's start are part of the cost a user pays, and they dominate on small inputs; the same
command on the first ``--small`` lines measures that fixed cost, and ``steady sent/s`` is
``(sentences - small) / (seconds - fixed seconds)``, the rate once everything has started. The input is
the first column (English) of ``prepared/*/train.tsv`` (files in name order), the first ``--sentences``
lines. Every engine's ``.npy`` is compared with the one-process output (max absolute difference).

    flock /tmp/lingualite-bench.lock python benchmarks/bulk_encode.py \\
        --models onnx-int8:/work/models/distill-usem-onnx static:/work/models/static-usem

Writes ``bulk_encode.json`` and ``bulk_encode.md`` (``--out``).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from lingualite.config.parsing import default_data_dir


def _write_input(prepared: Path, n: int, path: Path) -> int:
    texts: list[str] = []
    for tsv in sorted(prepared.glob("*/train.tsv")):
        with tsv.open(encoding="utf-8") as fh:
            for line in fh:
                text = line.split("\t", 1)[0].strip()
                if text:
                    texts.append(text)
                if len(texts) == n:
                    break
        if len(texts) == n:
            break
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(t + "\n" for t in texts), encoding="utf-8")
    return len(texts)


def _run(model: str, src: Path, out: Path, extra: list[str]) -> float:
    command = [sys.executable, "-m", "lingualite", "encode", "--model", model, "--input", str(src)]
    command += ["--output", str(out), "--json", *extra]
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    t0 = time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - t0
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stderr[-2000:]}")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--models", nargs="+", required=True, help="Model specs (rows).")
    parser.add_argument("--sentences", type=int, default=50_000)
    parser.add_argument("--small", type=int, default=100, help="Sentences of the fixed-cost run.")
    parser.add_argument("--workers", type=int, default=2, help="Processes / Ray actors.")
    parser.add_argument("--data-dir", type=Path, default=None)
    parser.add_argument("--work", type=Path, default=Path("runs/bulk-encode"), help="Input and outputs.")
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results/bulk_encode"))
    args = parser.parse_args()

    prepared = (args.data_dir or default_data_dir()) / "prepared"
    src, small = args.work / "input.txt", args.work / "small.txt"
    n = _write_input(prepared, args.sentences, src)
    m = _write_input(prepared, args.small, small)
    engines = [
        ("one process", []),
        (f"--workers {args.workers}", ["--workers", str(args.workers)]),
        (f"--engine ray ({args.workers} actors)", ["--engine", "ray", "--workers", str(args.workers)]),
    ]
    rows = []
    for model in args.models:
        reference = None
        for i, (label, extra) in enumerate(engines):
            out = args.work / f"v{i}.npy"
            load = os.getloadavg()[0]
            fixed = _run(model, small, args.work / f"small{i}.npy", extra)
            seconds = _run(model, src, out, extra)
            vectors = np.load(out, allow_pickle=False)
            reference = vectors if reference is None else reference
            diff = float(np.abs(vectors - reference).max()) if vectors.shape == reference.shape else None
            row = {
                "model": model,
                "engine": label,
                "sentences": n,
                "seconds": seconds,
                "sentences_per_second": n / seconds,
                "fixed_seconds": fixed,
                "steady_sentences_per_second": (n - m) / max(seconds - fixed, 1e-9),
                "max_abs_diff_vs_one_process": diff,
                "load_average_before": load,
            }
            rows.append(row)
            print(f"{model} | {label}: {seconds:.1f} s ({fixed:.1f} s on {m} lines), diff {diff}", flush=True)
    settings = {
        "sentences": n,
        "small": m,
        "workers": args.workers,
        "cpus": os.cpu_count(),
        "command": " ".join(sys.argv),
    }
    _write(args.out, rows, settings)


def _write(out: Path, rows: list[dict], settings: dict) -> None:
    from lingualite.core.io_utils import write_json, write_text

    out.parent.mkdir(parents=True, exist_ok=True)
    write_json(out.with_suffix(".json"), {"settings": settings, "rows": rows})
    lines = [
        "| model | engine | seconds | sentences/s | vs one process | fixed s | steady sent/s | max abs diff |",
        "|---|---|---|---|---|---|---|---|",
    ]
    base: dict[str, float] = {}
    for r in rows:
        base.setdefault(r["model"], r["sentences_per_second"])
        diff = "–" if r["max_abs_diff_vs_one_process"] is None else f"{r['max_abs_diff_vs_one_process']:.1e}"
        lines.append(
            f"| {r['model']} | {r['engine']} | {r['seconds']:.1f} | {r['sentences_per_second']:,.0f} | "
            f"{r['sentences_per_second'] / base[r['model']]:.2f}x | {r['fixed_seconds']:.1f} | "
            f"{r['steady_sentences_per_second']:,.0f} | {diff} |"
        )
    write_text(out.with_suffix(".md"), "\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
