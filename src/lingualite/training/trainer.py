"""The training loop of paper 000: shared dual encoder + UGT + alignment + similarity on parallel pairs.

``train(config, output_dir)`` leaves a sentence-transformers folder in ``output_dir``, with
``checkpoints/`` (resumable), ``tokenizer/``, ``metrics.jsonl`` and ``training_config.yaml`` beside it.
"""

from __future__ import annotations

import dataclasses
import json
import math
import sys
import time
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import torch
import torch.distributed as dist
import yaml
from torch.nn.parallel import DistributedDataParallel
from transformers import PreTrainedTokenizerFast

from lingualite.data.batching import PairCollator
from lingualite.errors import LinguaLiteError
from lingualite.evaluation.retrieval import xsr_scores
from lingualite.evaluation.xsr import unique_sides
from lingualite.io_utils import atomic_dir, kept_log_lines, write_text
from lingualite.losses.combined import CombinedLoss
from lingualite.models.dual_encoder import DualEncoder
from lingualite.models.encoding import encode_texts
from lingualite.models.export import export_into, save_sentence_transformer
from lingualite.models.model_card import ModelCard
from lingualite.run_folder import check_resume_config, open_run, set_learning_rate
from lingualite.smoke import smoke_config
from lingualite.tokenization import load_tokenizer, train_tokenizer
from lingualite.training.checkpoint import list_checkpoints, load_checkpoint, save_checkpoint
from lingualite.training.config import TrainingConfig
from lingualite.training.dataset import BucketedBatches, TokenizedPairs, expand_files, read_pairs
from lingualite.training.distributed import DistributedContext, init_distributed
from lingualite.training.optimization import optimizer_step
from lingualite.training.progress import phase, progress_bar


@dataclass
class TrainResult:
    output_dir: Path
    steps: int
    seconds: float
    pairs_per_second: float
    final_metrics: dict[str, float] = field(default_factory=dict)


def _linear_schedule(
    optimizer: torch.optim.Optimizer, warmup: int, total: int
) -> torch.optim.lr_scheduler.LambdaLR:
    def factor(step: int) -> float:
        if step < warmup:
            return (step + 1) / max(1, warmup)
        return max(0.0, (total - step) / max(1, total - warmup))

    return torch.optim.lr_scheduler.LambdaLR(optimizer, factor)


def _prepare_tokenizer(cfg: TrainingConfig, texts: dict[str, list[str]], out: Path, ctx: DistributedContext):
    """Load the configured tokenizer, reuse ``out/tokenizer`` on resume, or train one (rank 0) and share it."""
    folder = out / "tokenizer"
    if cfg.tokenizer.path:
        return load_tokenizer(cfg.tokenizer.path)
    if ctx.is_main and not (folder / "tokenizer.json").exists():
        tok = train_tokenizer(
            texts,
            vocab_size=cfg.tokenizer.vocab_size,
            kind=cfg.tokenizer.kind,
            alpha=cfg.tokenizer.alpha,
            sample_size=cfg.tokenizer.sample_size,
            lowercase=cfg.tokenizer.lowercase,
            seed=cfg.optim.seed,
        )
        with atomic_dir(folder) as tmp:
            tok.save_pretrained(str(tmp))
    ctx.barrier()
    return load_tokenizer(folder)


class _Validator:
    """Validation loss on fixed batches and XSR P@1 on held-out pairs of each valid file."""

    def __init__(
        self, cfg: TrainingConfig, tokenizer: PreTrainedTokenizerFast, collator: PairCollator
    ) -> None:
        self.tokenizer, self.collator = tokenizer, collator
        files = expand_files(cfg.data.valid_files, "validation")
        self.xsr_sets: dict[str, tuple[list[str], list[str]]] = {}
        all_pairs: list[tuple[str, str]] = []
        for f in files:
            pairs = read_pairs([f]).pairs
            pairs = unique_sides(pairs)[: cfg.data.valid_xsr_pairs]
            self.xsr_sets[f.parent.name or f.stem] = ([a for a, _ in pairs], [b for _, b in pairs])
            all_pairs.extend(pairs)
        tokenized = TokenizedPairs.build(all_pairs, tokenizer, cfg.model.max_seq_length)
        bs = cfg.optim.batch_size
        starts = range(0, len(tokenized) - bs + 1, bs)[:20]  # 20 fixed batches, fixed masking
        self.batches = [
            collator(tokenized.select(range(s, s + bs)), torch.Generator().manual_seed(12345 + s))
            for s in starts
        ]

    @torch.no_grad()
    def __call__(self, model: DualEncoder, loss_fn: CombinedLoss, device: torch.device) -> dict[str, float]:
        model.eval()
        metrics: dict[str, float] = {}
        if self.batches:
            losses = []
            for batch in self.batches:
                b = batch.to(device)
                out = model(b.input_ids, b.attention_mask, b.site_rows, b.site_cols)
                losses.append(float(loss_fn(out, b)[0]))
            metrics["valid_loss"] = float(np.mean(losses))
        p1 = []
        for name, (src, tgt) in self.xsr_sets.items():
            score = xsr_scores(
                encode_texts(model, self.tokenizer, src), encode_texts(model, self.tokenizer, tgt)
            )
            metrics[f"valid_xsr_p_at_1/{name}"] = score["p_at_1"]
            p1.append(score["p_at_1"])
        if p1:
            metrics["valid_xsr_p_at_1"] = float(np.mean(p1))
        model.train()
        return metrics


def train(
    cfg: TrainingConfig,
    output_dir: str | Path,
    resume: bool = False,
    max_steps: int | None = None,
    progress: bool = True,
    validate: bool = True,
    stop_after: int | None = None,
    allow_config_change: bool = False,
    smoke: bool = False,
) -> TrainResult:
    """Train the dual encoder described by ``cfg``; see the module docstring for what lands in ``output_dir``.

    :param resume: continue from the newest complete checkpoint in ``output_dir/checkpoints`` (same weights,
        optimizer, schedule, data order and RNG as an uninterrupted run).
    :param max_steps: override ``cfg.optim.max_steps`` (also the length of the lr schedule).
    :param stop_after: leave after this many steps of THIS invocation with a checkpoint (for time-boxed
        jobs); the schedule still spans ``max_steps`` and ``resume`` continues it. No model is exported then.
    :param allow_config_change: with ``resume``, continue with a config that differs from the saved one
        (e.g. a new ``optim.lr``, which then takes effect); without it such a resume is refused. The model's
        shape and vocabulary can never change.
    :param smoke: cap data, vocabulary, steps and validation (:mod:`lingualite.smoke`) for a run of minutes;
        ``max_steps``, when given, still wins.
    """
    ctx = init_distributed()
    out = Path(output_dir)
    smoke_caps = None
    if smoke:
        cfg, smoke_caps = smoke_config(cfg)
    if max_steps is not None:  # part of the run's config: saved with it, and a resume must agree with it
        cfg = dataclasses.replace(cfg, optim=dataclasses.replace(cfg.optim, max_steps=max_steps))
    total_steps = cfg.optim.max_steps
    if total_steps < 1:
        raise LinguaLiteError(f"max_steps must be >= 1, got {total_steps}")
    if stop_after is not None and stop_after < 1:
        raise LinguaLiteError(f"stop_after must be >= 1, got {stop_after}")
    with open_run(out, "train", lock=ctx.is_main):
        return _train(
            cfg,
            out,
            ctx,
            total_steps,
            resume,
            progress,
            validate,
            stop_after,
            allow_config_change,
            smoke_caps,
        )


def _train(
    cfg: TrainingConfig,
    out: Path,
    ctx: DistributedContext,
    total_steps: int,
    resume: bool,
    progress: bool,
    validate: bool,
    stop_after: int | None,
    allow_config_change: bool,
    smoke_caps: list[str] | None = None,
) -> TrainResult:
    opt = cfg.optim
    torch.manual_seed(opt.seed)
    checkpoints = list_checkpoints(out / "checkpoints")
    if not resume and checkpoints:
        raise LinguaLiteError(
            f"{out}: holds checkpoints of an earlier run; pass --resume, or choose a new --output"
        )

    train_files = expand_files(cfg.data.train_files, "training")
    corpus = read_pairs(train_files, cfg.data.max_train_pairs)
    talk = ctx.is_main  # a bar on a terminal, plain lines otherwise (like the step log lines below)
    building = not cfg.tokenizer.path and not (out / "tokenizer" / "tokenizer.json").exists()
    with phase(f"vocabulary: {cfg.tokenizer.kind} {cfg.tokenizer.vocab_size:,}", talk and building):
        tokenizer = _prepare_tokenizer(cfg, corpus.texts, out, ctx)
    cfg.model.vocab_size = len(tokenizer)
    with phase(f"tokenizing {len(corpus.pairs):,} pairs", talk):
        data = TokenizedPairs.build(corpus.pairs, tokenizer, cfg.model.max_seq_length)
    groups = corpus.groups if opt.batch_by_file else None
    del corpus
    batches = BucketedBatches(data.lengths(), opt.batch_size, opt.seed, opt.bucket_size, groups)

    model = DualEncoder(cfg.model, pad_token_id=tokenizer.pad_token_id).to(ctx.device)
    if opt.gradient_checkpointing:
        model.bert.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
    loss_fn = CombinedLoss(cfg.objective)
    collator = PairCollator.from_tokenizer(tokenizer, **loss_fn.collator_settings())
    optimizer = torch.optim.Adam(model.parameters(), lr=opt.lr, weight_decay=opt.weight_decay)
    scheduler = _linear_schedule(optimizer, opt.warmup_steps, total_steps)
    start = 0
    config_path = out / "training_config.yaml"
    if resume and checkpoints:
        changed = check_resume_config(config_path, cfg.to_dict(), allow_config_change, ("model", "tokenizer"))
        start = load_checkpoint(checkpoints[-1], model, optimizer, scheduler)
        if "optim.lr" in changed:
            set_learning_rate(optimizer, scheduler, opt.lr)
    # The head gets no gradient when the generative objective is off: DDP must be told, or it waits for it.
    head_unused = loss_fn.generative is None or cfg.objective.generative_weight == 0
    trained = DistributedDataParallel(model, find_unused_parameters=head_unused) if ctx.enabled else model
    validator = _Validator(cfg, tokenizer, collator) if validate and ctx.is_main else None
    if ctx.is_main:
        write_text(config_path, yaml.safe_dump(cfg.to_dict(), sort_keys=False))
    autocast = torch.autocast(ctx.device.type, dtype=torch.bfloat16) if opt.bf16 else nullcontext()

    log_path = out / "metrics.jsonl"
    if ctx.is_main and log_path.exists():  # drop lines of steps after the checkpoint we continue from
        write_text(log_path, "".join(f"{line}\n" for line in kept_log_lines(log_path, start)))
    metrics: dict[str, float] = {}
    t0, pairs_seen = time.perf_counter(), 0
    end = total_steps if stop_after is None else min(total_steps, start + stop_after)
    model.train()
    log_lines = ctx.is_main and not progress  # plain log lines where no progress bar is drawn (CI, files)
    with progress_bar("train", progress and ctx.is_main, "steps") as bar:
        task = bar.add_task("train", total=total_steps, completed=start, info="")
        for step in range(start, end):
            indices = batches.batch(step * ctx.world_size + ctx.rank)
            batch = collator(data.select(indices), torch.Generator().manual_seed(opt.seed * 1_000_003 + step))
            batch = batch.to(ctx.device)
            with autocast:
                output = trained(batch.input_ids, batch.attention_mask, batch.site_rows, batch.site_cols)
            loss, parts = loss_fn(output, batch)
            loss_value = loss.item()
            finite = torch.tensor(float(math.isfinite(loss_value)), device=ctx.device)
            if ctx.enabled:  # every rank must stop together, or the others wait in the all-reduce forever
                dist.all_reduce(finite, op=dist.ReduceOp.MIN)
            if not finite.item():
                raise LinguaLiteError(f"loss became {loss_value} at step {step + 1}; lower optim.lr")
            loss.backward()
            optimizer_step(model.parameters(), optimizer, scheduler, opt.grad_clip)
            pairs_seen += batch.num_pairs * ctx.world_size
            done = step + 1
            record: dict[str, float] = {}
            if done % opt.log_every == 0 or done == total_steps:
                record.update({"loss": loss_value, **parts, "lr": scheduler.get_last_lr()[0]})
            if validator is not None and (done % opt.eval_every == 0 or done == total_steps):
                record.update(validator(model, loss_fn, ctx.device))
            if record and ctx.is_main:
                metrics.update(record)
                with log_path.open("a") as fh:
                    # elapsed_s: wall time since this process started training (a resume starts again at 0)
                    elapsed_s = round(time.perf_counter() - t0, 3)
                    fh.write(json.dumps({"step": done, **record, "elapsed_s": elapsed_s}) + "\n")
                shown = {k: v for k, v in metrics.items() if k in ("loss", "valid_xsr_p_at_1")}
                info = " ".join(f"{k}={v:.3f}" for k, v in shown.items())
                bar.update(task, info=info)
                if log_lines and (done % (opt.log_every * 10) == 0 or "valid_xsr_p_at_1" in record):
                    elapsed = time.perf_counter() - t0
                    print(f"step {done}/{total_steps} {info} ({elapsed:.0f} s)", file=sys.stderr, flush=True)
            if ctx.is_main and (done % opt.save_every == 0 or done == end):
                save_checkpoint(
                    out / "checkpoints", done, model, optimizer, scheduler, metrics, opt.keep_checkpoints
                )
            bar.update(task, completed=done)
    seconds = time.perf_counter() - t0
    if ctx.is_main and end == total_steps:
        card = ModelCard("parallel", cfg.to_dict(), train_files, dict(metrics), smoke=smoke_caps)
        export_into(out, lambda folder: save_sentence_transformer(model, tokenizer, folder), card)
    ctx.barrier()
    return TrainResult(out, end, seconds, pairs_seen / max(seconds, 1e-9), metrics)
