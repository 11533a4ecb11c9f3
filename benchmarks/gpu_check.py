"""GPU check (issue #37): what lingualite does on one GPU, measured in one call, beside the same work on the CPU.

Run it on a lent GPU machine from the source tree (no install, no network, no data needed) with the
device tool, in one call that fits in about 5 minutes on one H100 (``--budget-s 280`` by default: phases,
and Table 5's cells, that would end later are skipped and say so), e.g. with ``timeout_s=420``:

    python benchmarks/gpu_check.py --out $OUT/gpu_check.json

It prints one line per phase and writes everything to ``--out`` (JSON). A phase that fails records its
error and the others still run; a phase that would overrun ``--budget-s`` is skipped with a note. Phases:

- ``train``: the paper config (paper 000: d 512, 2 layers, a 50k vocabulary, batch 128) for
  ``--train-steps`` steps (1,000) on the GPU, with bf16 autocast (the default on CUDA) and in float32:
  steps/s over the steps after the first log window, GPU utilisation and peak memory while stepping, and the
  validation P@1 after the last step of each (the issue asks for the same P@1 ±0.01); the CPU's steps/s
  for a few steps of the same config.
- ``encode``: sentences/s of what ``lingualite encode`` does once the model is loaded (read the file,
  tokenise, encode, write the ``.npy``; load time reported apart) for a distilled-student-shaped model
  (1 layer x 128, paper 002) and a quickstart-shaped one (2 x 256), untrained (speed does not depend on the
  weights); and on the CPU with fewer sentences.
- ``mine``: ``lingualite mine`` end to end (encode both sides, exact search, margin selection, write) of
  ``--mine-sentences`` x the same (100k) with the student on the GPU; the CPU at a tenth of the size.
- ``table5``: paper 000 Table 5's M and T columns at the paper's scale (d 512, batch 128, N = 1, 2, 3, 4, 6
  layers, ``--table5-steps`` (1,000) timed steps each, validation off): ``table5`` in the JSON has, per cell,
  the keys the reproduce table reads (``train/peak_gpu_memory_mb``, ``train/minutes_per_10k_steps``) beside
  the paper's V100 figures.

It needs the project's dependencies (pyproject.toml: torch with CUDA, transformers, sentence-transformers,
faiss-cpu, scikit-learn; ``nvidia-ml-py`` for utilisation, else ``nvidia-smi`` is read) on the machine.
GPU utilisation is sampled every 0.5 s in a thread (NVML through ``pynvml`` or torch, else ``nvidia-smi
-lms 500``). Data: a seeded synthetic parallel corpus written here (made-up "languages": every English-like
word has one made-up translation, with noise), or ``--data DIR`` holding prepared ``en-xx/{train,valid}.tsv``
folders (real pairs: a P@1 that means something). Without CUDA (or with ``--cpu-only``) only the CPU parts
run, at tiny sizes with ``--tiny`` (the test suite runs ``--cpu-only --tiny``: tests/test_gpu_check.py).
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import json
import os
import platform
import random
import shutil
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))  # the source tree, installed or not
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")

from lingualite.core.gpu_usage import GpuUsage  # noqa: E402 - after the path to the source tree

TABLE5_V100 = {1: (7135, 19), 2: (11607, 24), 3: (16804, 29), 4: (21923, 34), 6: (28024, 44)}
"""Paper 000, Table 5: N layers -> (M: memory overhead in MB, T: minutes per 10k steps) on a V100."""


@dataclasses.dataclass
class Sizes:
    pairs: int = 150_000  # synthetic training pairs (> train_steps x 128: no pair seen twice)
    words: int = 25_000  # per language: ~50k distinct words, a 50k WordPiece vocabulary fills up
    vocab: int = 50_000
    train_steps: int = 1000
    cpu_train_steps: int = 8
    encode_sentences: int = 200_000
    cpu_encode_sentences: int = 20_000
    mine_sentences: int = 100_000
    cpu_mine_sentences: int = 10_000
    table5_steps: int = 1000
    table5_layers: tuple[int, ...] = (1, 2, 3, 4, 6)
    hidden: int = 512  # the paper config's width and batch (tiny runs shrink them)
    batch: int = 128


TINY = Sizes(
    pairs=400, words=150, vocab=200, train_steps=3, cpu_train_steps=2, encode_sentences=200,
    cpu_encode_sentences=200, mine_sentences=200, cpu_mine_sentences=200, table5_steps=2,
    table5_layers=(1,), hidden=16, batch=16,
)  # fmt: skip


def synthetic_corpus(folder: Path, sizes: Sizes, seed: int = 0) -> Path:
    """``folder/en-xx/{train,valid}.tsv``: Zipf-distributed sentences of made-up words and their word-by-word
    'translations' (a fixed word map, 10% of the words replaced at random, some neighbours swapped)."""
    rng = random.Random(seed)
    src = [f"w{i}{'aeiou'[i % 5]}" for i in range(sizes.words)]
    tgt = [f"t{rng.randrange(10**6)}x{i}" for i in range(sizes.words)]
    cumulative = list(itertools.accumulate(1.0 / (r + 1) for r in range(sizes.words)))  # Zipf
    out = folder / "en-xx"
    out.mkdir(parents=True, exist_ok=True)
    for name, count in (("train", sizes.pairs), ("valid", min(2000, max(200, sizes.pairs // 20)))):
        with open(out / f"{name}.tsv", "w", encoding="utf-8") as fh:
            for i in range(count):
                ids = rng.choices(range(sizes.words), cum_weights=cumulative, k=rng.randint(4, 24))
                words = [tgt[j] if rng.random() > 0.1 else rng.choice(tgt) for j in ids]
                for k in range(len(words) - 1):
                    if rng.random() < 0.1:
                        words[k], words[k + 1] = words[k + 1], words[k]
                fh.write(f"{' '.join(src[j] for j in ids)}\t{' '.join(words)}\t{name}{i // 8}\n")
    return folder


def paper_config(data: Path, sizes: Sizes, steps: int, layers: int = 2, bf16: bool | None = None) -> Any:
    """configs/paper.yaml on ``data``, ``steps`` steps, validation at the last one only, logs every 50."""
    from lingualite.config import load_config

    cfg = load_config("paper", data)
    cfg.data.train_files = [str(p) for p in sorted(data.glob("*/train.tsv"))]
    cfg.data.valid_files = [str(p) for p in sorted(data.glob("*/valid.tsv"))]
    cfg.data.valid_pairs = min(500, sizes.pairs // 4)
    heads = 8 if sizes.hidden >= 64 else 2
    cfg.model = dataclasses.replace(cfg.model, num_layers=layers, hidden_size=sizes.hidden, num_heads=heads,
                                    ffn_size=2 * sizes.hidden)  # fmt: skip
    sample = min(100_000, 2 * sizes.pairs)
    cfg.vocabulary = dataclasses.replace(
        cfg.vocabulary, kind="wordpiece", size=sizes.vocab, sample_size=sample
    )
    log = min(50, max(1, steps // 4))
    cfg.optim = dataclasses.replace(cfg.optim, max_steps=steps, eval_every=steps, save_every=steps,
                                    log_every=log, bf16=bf16, batch_size=sizes.batch)  # fmt: skip
    return cfg


def timed_steps(run: Path) -> tuple[float, int]:
    """(steps/s, steps timed) between the first and the last log line of the run: the first window, with the
    warm-up (CUDA context, kernel choice, the first batches), is left out."""
    rows = [json.loads(line) for line in (run / "metrics.jsonl").read_text().splitlines() if line.strip()]
    rows = [r for r in rows if "loss" in r]
    first, last = rows[0], rows[-1]
    if len(rows) < 2:
        return first["step"] / max(first["elapsed_s"], 1e-9), first["step"]
    steps = last["step"] - first["step"]
    return steps / max(last["elapsed_s"] - first["elapsed_s"], 1e-9), steps


def train_once(cfg: Any, out: Path, device: str, tokenizer: Path | None, validate: bool = True) -> dict:
    from lingualite.recipes import train

    if tokenizer is not None:
        cfg.vocabulary = dataclasses.replace(cfg.vocabulary, path=str(tokenizer))
    shutil.rmtree(out, ignore_errors=True)
    import torch

    result = train(
        cfg, out, progress=False, device=device, validate=validate, threads=torch.get_num_threads()
    )
    rate, timed = timed_steps(out)
    row = {"steps": result.steps, "steps_timed": timed, "steps_per_second": round(rate, 2)}
    row.update({k: v for k, v in result.final_metrics.items() if k == "valid_xsr_p_at_1"})
    row.update({f"summary_{k}": v for k, v in (result.summary.get("gpu") or {}).items()})
    return row


def phase_train(ctx: dict) -> dict:
    sizes, data, work, gpu = ctx["sizes"], ctx["data"], ctx["work"], ctx["gpu"]
    out: dict[str, Any] = {}
    runs = [("bf16", True), ("fp32", False)] if gpu else [("cpu_fp32", False)]
    for name, bf16 in runs:
        steps = sizes.train_steps if gpu else sizes.cpu_train_steps
        cfg = paper_config(data, sizes, steps, bf16=bf16)
        with GpuUsage(ctx["device"]) as use:
            out[name] = train_once(
                cfg, work / f"train-{name}", "cuda" if gpu else "cpu", ctx.get("tokenizer")
            )
        out[name].update(use.report())
        ctx.setdefault("tokenizer", work / f"train-{name}" / "tokenizer")  # the first run's, for the rest
    if gpu:
        cfg = paper_config(data, sizes, sizes.cpu_train_steps)
        out["cpu_fp32"] = train_once(cfg, work / "train-cpu", "cpu", ctx["tokenizer"], validate=False)
        a, b = out["bf16"].get("valid_xsr_p_at_1"), out["fp32"].get("valid_xsr_p_at_1")
        if a is not None and b is not None:
            out["p_at_1_bf16_minus_fp32"] = round(a - b, 4)
    return out


def ensure_tokenizer(ctx: dict) -> Path:
    """The corpus's WordPiece vocabulary: the training phase's, or trained here when it did not run."""
    if ctx.get("tokenizer") is None:
        from lingualite.data.pairs import read_pairs
        from lingualite.tokenization import train_tokenizer

        texts = read_pairs(sorted(ctx["data"].glob("*/train.tsv")), 100_000).texts
        folder = ctx["work"] / "tokenizer"
        sample = min(100_000, 2 * ctx["sizes"].pairs)
        tokenizer = train_tokenizer(texts, ctx["sizes"].vocab, kind="wordpiece", sample_size=sample)
        tokenizer.save_pretrained(folder)
        ctx["tokenizer"] = folder
    return ctx["tokenizer"]


def model_folders(ctx: dict) -> dict[str, Path]:
    """Untrained student-shaped and quickstart-shaped model folders with the corpus's tokenizer."""
    from transformers import PreTrainedTokenizerFast

    from lingualite.config.encoder import EncoderConfig
    from lingualite.models.dual_encoder import DualEncoder
    from lingualite.recipes.distill.student import StudentEncoder

    tokenizer = PreTrainedTokenizerFast.from_pretrained(str(ensure_tokenizer(ctx)))
    vocab, pad, small = len(tokenizer), tokenizer.pad_token_id, ctx["sizes"].hidden < 64
    shapes = {
        "student_1x128": StudentEncoder(EncoderConfig(vocab, 32 if small else 128, 1, 2, 64 if small else 512,
                                                      0.0, 128), 32 if small else 128, pad),
        "quickstart_2x256": DualEncoder(EncoderConfig(vocab, 32 if small else 256, 2, 4, 64 if small else 512,
                                                      0.0, 64), pad),
    }  # fmt: skip
    folders = {}
    for name, model in shapes.items():
        folders[name] = model.save(tokenizer, ctx["work"] / "models" / name)
    return folders


def sentences(path: Path, n: int, data: Path) -> Path:
    """``n`` lines of the corpus's sides (repeated if short), one a line."""
    lines: list[str] = []
    for file in sorted(data.glob("*/train.tsv")):
        with open(file, encoding="utf-8") as fh:
            for line in fh:
                lines.extend(line.rstrip("\n").split("\t")[:2])
                if len(lines) >= n:
                    break
    path.write_text("\n".join(lines[i % len(lines)] for i in range(n)) + "\n", encoding="utf-8")
    return path


def encode_speed(folder: Path, text: Path, device: str) -> dict:
    from lingualite.encoders.resolve import load_encoder
    from lingualite.encoding.to_file import encode_file

    t0 = time.perf_counter()
    import torch

    encoder = load_encoder(str(folder), device=device, threads=torch.get_num_threads())
    loaded = time.perf_counter() - t0
    t0 = time.perf_counter()
    result = encode_file(encoder, text, text.with_suffix(f".{device}.npy"), progress=False)
    seconds = time.perf_counter() - t0
    batch = getattr(encoder, "batch_size", None)
    return {"sentences": result.sentences, "seconds": round(seconds, 3), "load_seconds": round(loaded, 2),
            "sentences_per_second": round(result.sentences / seconds, 1), "batch_size": batch}  # fmt: skip


def phase_encode(ctx: dict) -> dict:
    sizes, gpu, out = ctx["sizes"], ctx["gpu"], {}
    if "models" not in ctx:
        ctx["models"] = model_folders(ctx)
    folders = ctx["models"]
    big = sentences(ctx["work"] / "encode-gpu.txt", sizes.encode_sentences, ctx["data"])
    small = sentences(ctx["work"] / "encode-cpu.txt", sizes.cpu_encode_sentences, ctx["data"])
    for name, folder in folders.items():
        row: dict[str, Any] = {}
        if gpu:
            with GpuUsage(ctx["device"]) as use:
                row["gpu"] = encode_speed(folder, big, "cuda")
            row["gpu"].update(use.report())
        row["cpu"] = encode_speed(folder, small, "cpu")
        out[name] = row
    return out


def mine_once(folder: Path, n: int, device: str, ctx: dict) -> dict:
    from lingualite.mining.pipeline import MineSettings, mine_files

    work = ctx["work"] / f"mine-{device}"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    src, tgt = work / "src.txt", work / "tgt.txt"
    pairs = [line.split("\t")[:2] for line in _lines(ctx["data"], n)]
    rng = random.Random(1)
    tgt_side = [b for _, b in pairs]
    rng.shuffle(tgt_side)
    src.write_text("\n".join(a for a, _ in pairs) + "\n", encoding="utf-8")
    tgt.write_text("\n".join(tgt_side) + "\n", encoding="utf-8")
    t0 = time.perf_counter()
    settings = MineSettings(search="exact", device=device, shard_size=max(n, 1))
    result = mine_files(str(folder), src, tgt, work / "pairs.tsv", settings=settings, report=lambda _: None)
    return {"sentences_per_side": n, "seconds": round(time.perf_counter() - t0, 2), "pairs": result.pairs,
            "steps_seconds": result.seconds}  # fmt: skip


def _lines(data: Path, n: int) -> list[str]:
    out: list[str] = []
    for file in sorted(data.glob("*/train.tsv")):
        with open(file, encoding="utf-8") as fh:
            out.extend(line.rstrip("\n") for _, line in zip(range(n - len(out)), fh, strict=False))
    return [out[i % len(out)] for i in range(n)]


def phase_mine(ctx: dict) -> dict:
    sizes, out = ctx["sizes"], {}
    if "models" not in ctx:
        ctx["models"] = model_folders(ctx)
    folder = ctx["models"]["student_1x128"]
    if ctx["gpu"]:
        with GpuUsage(ctx["device"]) as use:
            out["gpu"] = mine_once(folder, sizes.mine_sentences, "cuda", ctx)
        out["gpu"].update(use.report())
    out["cpu"] = mine_once(folder, sizes.cpu_mine_sentences, "cpu", ctx)
    return out


def phase_table5(ctx: dict) -> dict:
    """Paper 000 Table 5's M and T at the paper's scale, in the reproduce table's metric keys."""
    sizes, gpu, cells = ctx["sizes"], ctx["gpu"], {}
    for n in sizes.table5_layers:  # the first log window is warm-up: table5_steps timed after it
        if time.perf_counter() > ctx.get("deadline", float("inf")):
            cells[f"layers-{n}"] = {"skipped": "the time budget (--budget-s) ran out"}
            continue
        steps = sizes.table5_steps + min(50, max(1, sizes.table5_steps // 4))
        cfg = paper_config(ctx["data"], sizes, steps, layers=n)
        device = "cuda" if gpu else "cpu"
        with GpuUsage(ctx["device"]) as use:
            row = train_once(cfg, ctx["work"] / f"table5-{n}", device, ctx.get("tokenizer"), validate=False)
        ctx.setdefault("tokenizer", ctx["work"] / f"table5-{n}" / "tokenizer")
        memory, minutes = TABLE5_V100.get(n, (None, None))
        cells[f"layers-{n}"] = {
            "train/minutes_per_10k_steps": round(10_000 / row["steps_per_second"] / 60, 2),
            "train/peak_gpu_memory_mb": use.report().get("peak_memory_mb"),
            "train/steps_timed": row["steps_timed"],
            "steps_per_second": row["steps_per_second"],
            "bf16": bool(gpu),  # the CUDA default (optim.bf16: null); float32 on a CPU
            "utilisation_mean": use.report().get("utilisation_mean"),
            "paper_v100": {"memory_mb": memory, "minutes_10k": minutes},
        }
    return cells


PHASES: dict[str, Callable[[dict], dict]] = {
    "train": phase_train, "encode": phase_encode, "mine": phase_mine, "table5": phase_table5,
}  # fmt: skip
NEEDS_S = {
    "train": 60,
    "encode": 40,
    "mine": 40,
    "table5": 90,
}  # rough H100 times: a phase is skipped without them


def machine(device: Any) -> dict:
    import torch

    info = {"python": platform.python_version(), "torch": torch.__version__, "cpus": os.cpu_count(),
            "date": time.strftime("%Y-%m-%d %H:%M:%S"), "device": str(device)}  # fmt: skip
    if device.type == "cuda":
        info["gpu"] = torch.cuda.get_device_name(device)
        info["bf16"] = torch.cuda.is_bf16_supported()
    return info


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path("gpu_check.json"))
    parser.add_argument(
        "--data", type=Path, help="Prepared pairs (en-xx/{train,valid}.tsv) instead of synthetic"
    )
    parser.add_argument("--phases", default=",".join(PHASES), help="Comma-separated subset of the phases")
    parser.add_argument("--cpu-only", action="store_true", help="Only the CPU parts (automatic without CUDA)")
    parser.add_argument("--tiny", action="store_true", help="Tiny sizes (CI, seconds)")
    parser.add_argument("--budget-s", type=float, default=280.0, help="Skip phases that would end after this")
    parser.add_argument("--threads", type=int, help="CPU threads for the CPU figures (default: every core)")
    args = parser.parse_args(argv)
    import torch

    threads = torch.get_num_threads()
    if args.threads:
        torch.set_num_threads(args.threads)
    try:
        return run(args)
    finally:
        torch.set_num_threads(threads)  # as it was (the test suite calls main in its own process)


def run(args: argparse.Namespace) -> dict:
    import torch

    from lingualite.core.device import resolve_device

    gpu = torch.cuda.is_available() and not args.cpu_only
    device = resolve_device("cuda" if gpu else "cpu")
    sizes = TINY if args.tiny else Sizes()
    t_start = time.perf_counter()
    report: dict[str, Any] = {"machine": machine(device), "mode": "gpu" if gpu else "cpu-only", "phases": {}}
    report["sizes"] = dataclasses.asdict(sizes)
    with tempfile.TemporaryDirectory(prefix="gpu-check-") as tmp:
        work = Path(tmp)
        data = args.data if args.data is not None else synthetic_corpus(work / "data", sizes)
        report["data"] = str(args.data) if args.data is not None else "synthetic"
        ctx: dict[str, Any] = {"sizes": sizes, "data": data, "work": work, "gpu": gpu, "device": device}
        ctx["deadline"] = t_start + args.budget_s if not args.tiny else float("inf")
        for name in [p.strip() for p in args.phases.split(",") if p.strip()]:
            left = args.budget_s - (time.perf_counter() - t_start)
            if not args.tiny and left < NEEDS_S[name]:
                report["phases"][name] = {"skipped": f"{left:.0f} s of the budget left"}
                continue
            t0 = time.perf_counter()
            try:
                result = PHASES[name](ctx)
            except Exception as exc:  # one phase's failure is a result too; the others still run
                result = {"error": f"{type(exc).__name__}: {exc}", "trace": traceback.format_exc()[-2000:]}
            result["phase_seconds"] = round(time.perf_counter() - t0, 1)
            report["phases"][name] = result
            print(f"{name}: {json.dumps(result, default=str)[:600]}", flush=True)
            _write(args.out, report)
    report["seconds"] = round(time.perf_counter() - t_start, 1)
    _write(args.out, report)
    print(f"wrote {args.out} ({report['seconds']} s)", flush=True)
    return report


def _write(path: Path, report: dict) -> None:
    """After every phase: a call cut short by the device tool's limit still leaves the phases done so far."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(report, indent=1, default=str), encoding="utf-8")


if __name__ == "__main__":
    main()
