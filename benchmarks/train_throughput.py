"""Training throughput (pairs/s) and peak memory of lingualite's step vs a plain reference, same run.

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
    from lingualite.tokenization import load_tokenizer, train_tokenizer
    from lingualite.training.dataset import read_pairs

    folder = cache / f"tokenizer-{cfg.tokenizer.vocab_size}"
    if not (folder / "tokenizer.json").exists():
        texts = read_pairs(files, limit=100_000).texts
        tok = train_tokenizer(texts, vocab_size=cfg.tokenizer.vocab_size, sample_size=200_000)
        tok.save_pretrained(str(folder))
    return load_tokenizer(folder)


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


def child(variant: str, config_name: str, steps: int, warmup: int, cache: Path, max_pairs: int) -> dict:
    import numpy as np
    import torch
    from transformers import BertForMaskedLM

    from lingualite.data.batching import PairCollator
    from lingualite.losses.combined import CombinedLoss
    from lingualite.models.dual_encoder import DualEncoder, bert_config
    from lingualite.training.config import load_training_config
    from lingualite.training.dataset import BucketedBatches, TokenizedPairs, expand_files, read_pairs

    torch.manual_seed(0)
    cfg = load_training_config(config_name)
    files = expand_files(cfg.data.train_files, "training")
    tokenizer = _tokenizer(cfg, files, cache)
    cfg.model.vocab_size = len(tokenizer)
    corpus = read_pairs(files, limit=max_pairs)
    data = TokenizedPairs.build(corpus.pairs, tokenizer, cfg.model.max_seq_length)
    bs = cfg.optim.batch_size
    loss_fn = CombinedLoss(cfg.objective)
    collator = PairCollator.from_tokenizer(tokenizer, **loss_fn.collator_settings())
    rng = np.random.default_rng(0)
    if variant == "reference":
        bert_cfg = bert_config(cfg.model, tokenizer.pad_token_id)
        model = BertForMaskedLM(bert_cfg)
        step_fn = _reference_step_fn(cfg, tokenizer, model, collator, loss_fn)
        batches = [rng.choice(len(data), bs, replace=False) for _ in range(warmup + steps)]
    else:
        model = DualEncoder(cfg.model, tokenizer.pad_token_id)
        autocast = variant.endswith("bf16")
        sampler = BucketedBatches(data.lengths(), bs, 0, cfg.optim.bucket_size, corpus.groups)
        batches = [sampler.batch(i) for i in range(warmup + steps)]

        def step_fn(pairs) -> None:
            batch = collator(pairs, torch.Generator().manual_seed(0))
            with torch.autocast("cpu", dtype=torch.bfloat16, enabled=autocast):
                out = model(batch.input_ids, batch.attention_mask, batch.site_rows, batch.site_cols)
            loss, _ = loss_fn(out, batch)
            loss.backward()

    optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
    model.train()
    t0 = 0.0
    for i, idx in enumerate(batches):
        if i == warmup:
            t0 = time.perf_counter()
        step_fn(data.select(idx))
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
    seconds = time.perf_counter() - t0
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
