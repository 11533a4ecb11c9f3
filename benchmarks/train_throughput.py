"""Training throughput (pairs/s) and peak memory of lingualite's training vs a plain reference, same run.

The lingualite variants run the real thing: ``lingualite.train`` on the config (the parallel recipe through
the one training loop: batching, collation, forward, loss, backward, clipping, Adam, schedule, logging),
with ``--max-steps warmup + steps``, no validation and the checkpoint only at the end; the time of the
timed steps is read from the run's own ``metrics.jsonl`` (``elapsed_s`` at each step).

The reference is the straightforward implementation of the same objective, as in the authors' code: each
side of a batch goes through its own ``BertForMaskedLM`` forward/backward (shared weights), which computes
vocabulary logits at EVERY position, batches are random (padded to their longest sentence), and the UGT
target is a dense (rows x vocab) matrix. lingualite's step runs both sides as one batch, buckets by length,
and computes vocabulary logits only at the one prediction site per sentence.

Each variant runs in its own process so that its peak RSS is its own. Uses the prepared real data
(``lingualite quickstart`` or ``lingualite prepare`` first). Prints a table and writes JSON:

    python benchmarks/train_throughput.py --configs quickstart paper --steps 10
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import platform
import resource
import subprocess
import sys
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

VARIANTS = ("reference", "lingualite", "lingualite_bf16")


def _tokenizer(cfg, files: list[Path], cache: Path):
    from lingualite.data.pairs import read_pairs
    from lingualite.tokenization import train_tokenizer

    folder = cache / f"tokenizer-{cfg.vocabulary.size}"
    if not (folder / "tokenizer.json").exists():
        texts = read_pairs(files, limit=100_000).texts
        tok = train_tokenizer(texts, vocab_size=cfg.vocabulary.size, sample_size=200_000)
        tok.save_pretrained(str(folder))
    return folder


def _reference_step_fn(cfg, tokenizer, model, collator, loss_fn):
    """Two BertForMaskedLM passes per pair (one per side) with full-vocabulary logits and dense targets."""
    import torch

    from lingualite.models.dual_encoder import mean_pool

    def step(pairs) -> None:
        batch = collator(pairs, torch.Generator().manual_seed(0))
        n = batch.num_pairs
        sides = []
        for rows in (slice(0, n), slice(n, 2 * n)):
            ids, mask = batch.input_ids[rows], batch.attention_mask[rows]
            keep = int(mask.sum(1).max())  # each side padded to its own longest sentence
            out = model(input_ids=ids[:, :keep], attention_mask=mask[:, :keep], output_hidden_states=True)
            sides.append((out.logits, out.hidden_states[-1], mask[:, :keep]))
        log_probs = []
        for (logits, _, _), rows in zip(sides, (range(0, n), range(n, 2 * n)), strict=True):
            cols = batch.site_cols[list(rows)]
            log_probs.append(torch.log_softmax(logits[torch.arange(n), cols], dim=-1))
        log_probs = torch.cat(log_probs)
        dense_q = torch.zeros_like(log_probs)  # dense (2B, V) target, as the authors' code builds it
        dense_q.index_put_((batch.bag_rows, batch.bag_tokens), 0.5 * batch.bag_weights, accumulate=True)
        dense_q[torch.arange(2 * n), batch.site_labels] += 0.5
        generative = (dense_q * (dense_q.clamp(min=1e-12).log() - log_probs)).sum() / n
        u = mean_pool(sides[0][1], sides[0][2])
        v = mean_pool(sides[1][1], sides[1][2])
        from lingualite.models.dual_encoder import EncoderOutput

        sentence = EncoderOutput(torch.cat([u, v]), None)
        loss = generative + 2 * loss_fn.alignment(sentence, batch) + 2 * loss_fn.similarity(sentence, batch)
        loss.backward()

    return step


def _reference(cfg, tokenizer, data, steps: int, warmup: int) -> float:
    """Seconds of ``steps`` reference steps (after ``warmup``) on random batches."""
    import numpy as np
    import torch
    from transformers import BertForMaskedLM

    from lingualite.losses.combined import CombinedLoss
    from lingualite.models.dual_encoder import bert_config
    from lingualite.training.collator import PairCollator

    bs = cfg.optim.batch_size
    loss_fn = CombinedLoss(cfg.objective)
    collator = PairCollator.from_tokenizer(tokenizer, **loss_fn.collator_settings())
    shape = dataclasses.replace(cfg.model, vocab_size=len(tokenizer))
    model = BertForMaskedLM(bert_config(shape, tokenizer.pad_token_id))
    step_fn = _reference_step_fn(cfg, tokenizer, model, collator, loss_fn)
    rng = np.random.default_rng(0)
    batches = [rng.choice(len(data), bs, replace=False) for _ in range(warmup + steps)]
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
    model.train()
    t0 = 0.0
    for i, idx in enumerate(batches):
        if i == warmup:
            t0 = time.perf_counter()
        step_fn(data.select(idx))
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
    return time.perf_counter() - t0


def _lingualite(
    cfg, folder: Path, files: list[Path], steps: int, warmup: int, bf16: bool, cache: Path
) -> float:
    """Seconds of ``steps`` steps of the real training loop (after ``warmup``), from its metrics.jsonl."""
    import shutil

    from lingualite.models.run_folder import RunFolder
    from lingualite.recipes import train

    cfg.vocabulary.path = str(folder)
    cfg.data.train_files = [str(f) for f in files]
    cfg.optim = dataclasses.replace(
        cfg.optim, bf16=bf16, log_every=1, save_every=10**9, max_steps=warmup + steps
    )
    run = cache / f"run-{os.getpid()}"
    shutil.rmtree(run, ignore_errors=True)
    try:
        train(cfg, run, progress=False, validate=False)
        elapsed = {r["step"]: r["elapsed_s"] for r in RunFolder(run).read_metrics()}
    finally:
        shutil.rmtree(run, ignore_errors=True)
    return elapsed[warmup + steps] - elapsed[warmup]


def child(variant: str, config_name: str, steps: int, warmup: int, cache: Path, max_pairs: int) -> dict:
    import torch

    from lingualite.config import load_training_config
    from lingualite.data.pairs import expand_files, read_pairs
    from lingualite.data.tokenized import TokenizedPairs
    from lingualite.tokenization import load_tokenizer

    torch.manual_seed(0)
    cfg = load_training_config(config_name)
    cfg.data.max_train_pairs = max_pairs
    files = expand_files(cfg.data.train_files, "training")
    folder = _tokenizer(cfg, files, cache)
    if variant == "reference":
        tokenizer = load_tokenizer(folder)
        corpus = read_pairs(files, limit=max_pairs)
        data = TokenizedPairs.build(corpus.pairs, tokenizer, cfg.model.max_seq_length)
        seconds = _reference(cfg, tokenizer, data, steps, warmup)
    else:
        seconds = _lingualite(cfg, folder, files, steps, warmup, variant.endswith("bf16"), cache)
    bs = cfg.optim.batch_size
    return {
        "variant": variant,
        "config": config_name,
        "batch_size": bs,
        "steps_timed": steps,
        "seconds_per_step": seconds / steps,
        "pairs_per_second": steps * bs / seconds,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "torch_threads": torch.get_num_threads(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--configs", nargs="+", default=["quickstart", "paper"])
    parser.add_argument("--variants", nargs="+", default=list(VARIANTS), choices=VARIANTS)
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--warmup", type=int, default=2)
    parser.add_argument("--max-pairs", type=int, default=20_000)
    parser.add_argument("--cache", type=Path, default=Path("runs/bench"))
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results/train_throughput.json"))
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(
            json.dumps(
                child(args.child, args.configs[0], args.steps, args.warmup, args.cache, args.max_pairs)
            )
        )
        return
    results = []
    for config in args.configs:
        for variant in args.variants:
            cmd = [
                sys.executable,
                __file__,
                "--child",
                variant,
                "--configs",
                config,
                "--steps",
                str(args.steps),
                "--warmup",
                str(args.warmup),
                "--cache",
                str(args.cache),
                "--max-pairs",
                str(args.max_pairs),
            ]
            proc = subprocess.run(cmd, capture_output=True, text=True)
            if proc.returncode != 0:
                sys.exit(f"{variant}/{config} failed:\n{proc.stderr[-3000:]}")
            row = json.loads(proc.stdout.strip().splitlines()[-1])
            results.append(row)
            print(
                f"{config:>10} {variant:>16}: {row['pairs_per_second']:8.1f} pairs/s "
                f"({row['seconds_per_step']:.3f} s/step), peak RSS {row['peak_rss_mb']:.0f} MB",
                flush=True,
            )
    for config in args.configs:
        ref = next((r for r in results if r["config"] == config and r["variant"] == "reference"), None)
        for r in results:
            if ref and r["config"] == config:
                r["speedup_vs_reference"] = r["pairs_per_second"] / ref["pairs_per_second"]
                print(f"{config:>10} {r['variant']:>16}: {r['speedup_vs_reference']:.2f}x reference")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    meta = {
        "machine": platform.processor() or platform.machine(),
        "cpus": os.cpu_count(),
        "command": " ".join(sys.argv),
    }
    args.out.write_text(json.dumps({"meta": meta, "results": results}, indent=2) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
