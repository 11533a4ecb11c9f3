"""Sample-size study of paper 001 (its Table 3): how m, the sentences sampled per language per mining round,
changes the precision of mined pairs and the cross-lingual quality after one coherence-regression iteration.

Starts every point from the SAME classification-stage weights of a finished (or begun) monolingual run, so the
only difference is m: each point is a copy of that run's classification stage, resumed with
``mining.sample_size = m`` and one iteration (``lingualite train`` machinery, nothing re-implemented).
Precision is that of the mining rule with the weights mining uses (the classification stage's), measured on
the held-out gold pairs (validation split: m sentences of each side sampled independently, the top
min(m * m, 1000) CSLS pairs kept; m is capped at the number of gold pairs); XSR P@1 is on the same validation pairs (this is a
parameter study, so the test split stays unseen).

    lingualite train --config monolingual --output runs/monolingual      # the run to start from
    python benchmarks/monolingual_sample_size.py --run runs/monolingual --out runs/mono-sample-size

Writes OUT/sample_size.json, OUT/sample_size.md and OUT/sample_size.png; finished points are skipped.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


def run_point(
    run: Path, out: Path, m: int, target_pairs: int, steps: int, threads: int | None
) -> dict[str, Any]:
    from lingualite.config import load_monolingual_config
    from lingualite.monolingual.train import train_monolingual
    from lingualite.run_folder import RunFolder

    source, point = RunFolder(run), RunFolder(out / f"m-{m}")
    folder = point.path
    if (folder / "modules.json").exists() and point.read_stages():
        return point.read_stages()[-1]
    cfg = load_monolingual_config(source.saved_config_path() or run / RunFolder.CONFIG)
    cfg.mining.sample_size = m
    cfg.mining.pool_size = max(cfg.mining.pool_size, m)
    cfg.mining.target_pairs = target_pairs
    cfg.mining.iterations = 1
    cfg.regression.max_steps = steps
    final = source.checkpoints("classification")
    done = [r for r in source.read_stages() if r["stage"] in ("initial", "classification")]
    if not final or len(done) < 2:
        sys.exit(f"{run}: its classification stage has not finished")
    if not point.checkpoints_dir("classification").exists():
        shutil.rmtree(folder, ignore_errors=True)
        point.checkpoints_dir().mkdir(parents=True)
        shutil.copytree(final[-1], point.checkpoints_dir("classification") / final[-1].name)
        shutil.copytree(source.tokenizer_dir, point.tokenizer_dir)
        for row in done:
            point.append_stage(row)
    print(f"m = {m}: mining {target_pairs} pairs, {steps} regression steps", flush=True)
    result = train_monolingual(cfg, folder, resume=True, progress=sys.stderr.isatty(), threads=threads)
    return result.stages[-1]


def precision_at_mining_time(run: Path, sizes: list[int]) -> dict[int, float]:
    """The mining rule's gold precision for each m with the weights mining uses (the classification stage's),
    on the validation pairs: m sentences of each side sampled independently, top min(m * m, 1000) kept."""
    import dataclasses

    from safetensors.torch import load_model

    from lingualite.config import load_monolingual_config
    from lingualite.models.context_encoder import ContextEncoder
    from lingualite.monolingual.validation import StageEvaluator
    from lingualite.run_folder import RunFolder
    from lingualite.tokenization import load_tokenizer

    source = RunFolder(run)
    cfg = load_monolingual_config(source.saved_config_path() or run / RunFolder.CONFIG)
    tokenizer = load_tokenizer(source.tokenizer_dir)
    shape = dataclasses.replace(cfg.model, vocab_size=len(tokenizer))
    model = ContextEncoder(shape, cfg.model.pooling, sentence_length=cfg.context.sentence_length)
    final = source.checkpoints("classification")[-1]
    load_model(model, str(final / "model.safetensors"))
    evaluator = StageEvaluator(cfg, tokenizer)
    return {m: evaluator(model, sample_size=m)["mined_precision"] for m in sizes}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--run", type=Path, default=Path("runs/monolingual"))
    parser.add_argument("--out", type=Path, default=Path("runs/mono-sample-size"))
    parser.add_argument("--sizes", type=int, nargs="+", default=[1, 10, 100, 1000, 4000])
    parser.add_argument("--target-pairs", type=int, default=10_000)
    parser.add_argument("--steps", type=int, default=300, help="regression steps per point")
    parser.add_argument("--threads", type=int, default=None)
    args = parser.parse_args()

    from lingualite.io_utils import write_json
    from lingualite.run_folder import RunFolder

    args.out.mkdir(parents=True, exist_ok=True)
    base = RunFolder(args.run).read_stages()
    start = next(r for r in base if r["stage"] == "classification")
    at_mining = precision_at_mining_time(args.run, args.sizes)
    points = []
    for m in args.sizes:
        row = run_point(args.run, args.out, m, args.target_pairs, args.steps, args.threads)
        points.append(
            {"m": m, "precision_at_mining": at_mining[m], **{k: v for k, v in row.items() if k != "stage"}}
        )
    write_json(args.out / "sample_size.json", {"start": start, "points": points, "settings": vars(args) | {
        "run": str(args.run), "out": str(args.out)}})  # fmt: skip
    pairs = sorted({k.split("/")[1] for k in start if k.startswith("valid_xsr_p_at_1/")})
    lines = [
        "| m | kept per round | mined-pair precision (gold, at mining) | valid XSR P@1 after the iteration | "
        + " | ".join(pairs)
        + " | mined cosine | mining s |",
        "|" + "---|" * (6 + len(pairs)),
        f"| (classification only) | - | - | {start['valid_xsr_p_at_1']:.3f} | "
        + " | ".join(f"{start[f'valid_xsr_p_at_1/{p}']:.3f}" for p in pairs)
        + " | - | - |",
    ]
    for p in points:
        lines.append(
            f"| {p['m']} | {min(p['m'] ** 2, 1000)} | {p['precision_at_mining']:.3f} | {p['valid_xsr_p_at_1']:.3f} | "
            + " | ".join(f"{p[f'valid_xsr_p_at_1/{q}']:.3f}" for q in pairs)
            + f" | {p['mined_cosine_mean']:.3f} | {p['mining_seconds']:.0f} |"
        )
    (args.out / "sample_size.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 4))
    ms = [p["m"] for p in points]
    ax.plot(
        ms, [p["precision_at_mining"] for p in points], "o-", label="mined-pair precision (gold, at mining)"
    )
    ax.plot(ms, [p["valid_xsr_p_at_1"] for p in points], "s-", label="valid XSR P@1 after 1 iteration")
    ax.axhline(start["valid_xsr_p_at_1"], color="gray", ls="--", label="XSR P@1 after classification")
    ax.set_xscale("log")
    ax.set_xlabel("m, sentences sampled per language per round")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(args.out / "sample_size.png", dpi=120)


if __name__ == "__main__":
    main()
