"""Where the time of a torch encode goes, float32 against bfloat16 (``bf16:FOLDER``), with torch.profiler.

For each model folder and each variant (``fp32``; ``bf16`` = weights in bfloat16; ``autocast`` = float32
weights under ``torch.autocast("cpu", bfloat16)``): sentences/s of ``encoder.encode`` at batch 64 over the same
English test sentences (best of ``--repeats`` passes after a warm-up pass, the variants timed in turns), the share of the time spent
tokenizing, and the top operators of one profiled pass by self CPU time.

    python benchmarks/bf16_encode_profile.py --model /work/models/distill-usem --out benchmarks/results/bf16_encode_profile.json
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

VARIANTS = ("fp32", "bf16", "autocast")  # each also with "+eager" / "+sdpa": that attention implementation


def _texts(prepared: Path, n: int) -> list[str]:
    import random

    pool = sorted({line.split("\t")[0] for f in sorted(prepared.glob("*/test.tsv")) for line in f.open()})
    random.Random(0).shuffle(pool)  # the sentences of benchmarks/encode_speed.py
    return pool[:n]


def _encoder(model: str, variant: str, threads: int | None, batch_size: int) -> Any:
    from lingualite.encoders.bf16 import Bf16Encoder
    from lingualite.encoders.folder import SentenceTransformerEncoder

    dtype, _, attention = variant.partition("+")
    if dtype == "fp32" and not attention:
        return SentenceTransformerEncoder(model, batch_size=batch_size, threads=threads)
    encoder = Bf16Encoder(
        model,
        batch_size=batch_size,
        threads=threads,
        mode="autocast" if dtype == "autocast" else "weights",
        attention=attention or None,
    )
    if dtype == "fp32":  # float32 with another attention: Bf16Encoder's switch, in float32 again
        encoder.model.float()
        encoder.mode = "fp32"
    return encoder


def _top_ops(encoder: Any, texts: list[str], top: int) -> list[dict[str, Any]]:
    from torch.profiler import ProfilerActivity, profile

    with profile(activities=[ProfilerActivity.CPU]) as prof:
        encoder.encode(texts)
    events = [e for e in prof.key_averages() if e.self_cpu_time_total > 0]
    total = sum(e.self_cpu_time_total for e in events)
    events.sort(key=lambda e: e.self_cpu_time_total, reverse=True)
    return [
        {
            "op": e.key,
            "self_ms": e.self_cpu_time_total / 1000,
            "share": e.self_cpu_time_total / total,
            "calls": e.count,
        }
        for e in events[:top]
    ]


def _tokenize_seconds(encoder: Any, texts: list[str], batch_size: int) -> float:
    t0 = time.perf_counter()
    for start in range(0, len(texts), batch_size):
        encoder.model.preprocess(texts[start : start + batch_size])
    return time.perf_counter() - t0


def measure(
    model: str, variants: list[str], texts: list[str], args: argparse.Namespace
) -> list[dict[str, Any]]:
    """The variants are timed in turns (round-robin), so that a burst of load on the machine hits them alike."""
    encoders = {v: _encoder(model, v, args.threads, args.batch_size) for v in variants}
    for encoder in encoders.values():
        encoder.encode(texts)  # warm-up: oneDNN creates its kernels on first use
    seconds: dict[str, list[float]] = {v: [] for v in variants}
    for _ in range(args.repeats):
        for variant, encoder in encoders.items():
            t0 = time.perf_counter()
            encoder.encode(texts)
            seconds[variant].append(time.perf_counter() - t0)
    rows = []
    for variant, encoder in encoders.items():
        best = min(seconds[variant])
        rows.append(
            {
                "model": model,
                "variant": variant,
                "sentences_per_second": len(texts) / best,
                "seconds": seconds[variant],
                "tokenize_share": _tokenize_seconds(encoder, texts, args.batch_size) / best,
                "top_ops": _top_ops(encoder, texts, args.top),
            }
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--model", action="append", required=True, help="A model folder (repeatable).")
    parser.add_argument(
        "--variants", default=",".join(VARIANTS), help=f"Comma list of {', '.join(VARIANTS)}."
    )
    parser.add_argument("--sentences", type=int, default=2000)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--top", type=int, default=10)
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--data-dir", type=Path, default=None)
    parser.add_argument("--out", type=Path, default=None, help="JSON file for the results.")
    args = parser.parse_args()

    import torch

    from lingualite.config.parsing import default_data_dir

    texts = _texts((args.data_dir or default_data_dir()) / "prepared", args.sentences)
    rows = []
    for model in args.model:
        for row in measure(model, args.variants.split(","), texts, args):
            rows.append(row)
            print(
                f"{Path(model).name} {row['variant']}: {row['sentences_per_second']:.0f} sentences/s "
                f"(tokenizing {row['tokenize_share']:.0%})",
                file=sys.stderr,
                flush=True,
            )
            for op in row["top_ops"]:
                print(
                    f"  {op['op']:<40} {op['self_ms']:9.1f} ms {op['share']:6.1%} x{op['calls']}",
                    file=sys.stderr,
                )
    if args.out is not None:
        from lingualite.core.io_utils import write_json

        settings = {
            "sentences": len(texts),
            "batch_size": args.batch_size,
            "threads": torch.get_num_threads(),
            "torch": torch.__version__,
            "cpu_capability": torch.backends.cpu.get_cpu_capability(),
            "command": " ".join(sys.argv),
        }
        write_json(args.out, {"settings": settings, "rows": rows})


if __name__ == "__main__":
    main()
