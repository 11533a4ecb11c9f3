"""The parallel recipe (paper 000): the shared dual encoder trained on parallel pairs with UGT + alignment +
similarity (Eq. 7), through the one training loop (:mod:`lingualite.training.loop`).

``train_parallel(cfg, output)`` leaves a sentence-transformers folder in ``output`` with the run files beside
it (:class:`lingualite.models.run_folder.RunFolder`). It runs unchanged under ``torchrun`` (DDP): every rank builds
its share of each global batch; the main rank validates, checkpoints and exports.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import torch
from torch import nn

from lingualite.config.parallel import ParallelConfig
from lingualite.core.device import announce
from lingualite.core.prefetch import StepPrefetcher, pinned
from lingualite.core.progress import phase
from lingualite.data.pairs import expand_files, read_pairs
from lingualite.data.tokenized import BucketedBatches, TokenizedPairs
from lingualite.encoders.matryoshka_dims import write_trained_dimensions
from lingualite.losses.combined import CombinedLoss
from lingualite.models.batch import PairBatch
from lingualite.models.dual_encoder import DualEncoder
from lingualite.models.export import export_into
from lingualite.models.model_card import ModelCard
from lingualite.recipes.parallel.parallel_validator import ParallelValidator
from lingualite.training.collator import PairCollator
from lingualite.training.distributed import init_distributed
from lingualite.training.loop import Stage, StepOutput, run_stage
from lingualite.training.run import RunOptions, RunResult, apply_call_options, open_recipe_run, planned_steps
from lingualite.training.vocabulary import pair_texts, prepare_vocabulary


def train_parallel(cfg: ParallelConfig, output: str | Path, **options: object) -> RunResult:
    """Train the dual encoder described by ``cfg`` into ``output``; ``options`` are
    :class:`~lingualite.training.run.RunOptions` (``resume``, ``max_steps``, ``stop_after``, ``smoke``, ...)."""
    opts = RunOptions(**options)  # type: ignore[arg-type]
    cfg, smoke_caps = apply_call_options(cfg, opts)
    cfg.check("config")  # a config built in Python never went through the loader's checks
    ctx = init_distributed(opts.device)
    announce(ctx.device, opts.device)
    with open_recipe_run(cfg, output, "train", opts, ("model", "vocabulary"), lock=ctx.is_main) as (run, _):
        torch.manual_seed(cfg.seed)
        train_files = expand_files(cfg.data.train_files, "training")
        corpus = read_pairs(train_files, cfg.data.max_train_pairs)
        talk = ctx.is_main
        texts = pair_texts(cfg.vocabulary, cfg.data, corpus)
        tokenizer, vocabulary = prepare_vocabulary(
            cfg.vocabulary, run, texts, cfg.seed, opts.resume, ctx, talk
        )
        with phase(f"tokenizing {len(corpus.pairs):,} pairs", talk):
            data = TokenizedPairs.build(corpus.pairs, tokenizer, cfg.model.max_seq_length)
        groups = corpus.groups if cfg.optim.batch_by_file else None
        num_pairs = len(corpus.pairs)
        del corpus
        opt = cfg.optim
        batches = BucketedBatches(data.lengths(), opt.batch_size, cfg.seed, opt.bucket_size, groups)
        total_steps = planned_steps(opt, num_pairs, ctx.world_size)

        shape = dataclasses.replace(cfg.model, vocab_size=len(tokenizer))
        model = DualEncoder(shape, pad_token_id=tokenizer.pad_token_id).to(ctx.device)
        loss_fn = CombinedLoss(cfg.objective, cfg.matryoshka_dims, cfg.matryoshka_weights)
        collator = PairCollator.from_tokenizer(tokenizer, **loss_fn.collator_settings())
        validator = None
        if opts.validate and ctx.is_main:
            validator = ParallelValidator(cfg, tokenizer, collator, loss_fn, ctx.device)

        on_gpu = ctx.device.type == "cuda"

        def make_batch(step: int) -> PairBatch:  # a pure function of (seed, step): safe to build ahead
            indices = batches.batch(step * ctx.world_size + ctx.rank)
            masking = torch.Generator().manual_seed(cfg.seed * 1_000_003 + step)
            batch = collator(data.select(indices), masking)
            return pinned(batch) if on_gpu else batch

        batch_of = StepPrefetcher(make_batch, enabled=on_gpu)  # on a GPU: step s+1's batch while s runs

        def step_fn(step: int, trained: nn.Module) -> StepOutput:
            batch = batch_of(step).to(ctx.device, non_blocking=on_gpu)
            output = trained(batch.input_ids, batch.attention_mask, batch.site_rows, batch.site_cols)
            loss, parts = loss_fn(output, batch)
            return StepOutput(loss, parts, batch.num_pairs)

        if ctx.is_main:
            run.write_config(cfg.to_dict())
        stage = Stage(
            model,
            step_fn,
            opt,
            total_steps,
            validator,
            # the head gets no gradient when the generative objective is off: DDP must be told
            unused_parameters=loss_fn.generative is None or cfg.objective.generative_weight == 0,
            compile=opts.compile,
        )
        with batch_of:
            result = run_stage(stage, run, opts.resume, opts.progress, opts.stop_after, ctx)
        summary = {
            "recipe": "parallel",
            "vocabulary": vocabulary,
            "train_pairs": num_pairs,
            "total_steps": total_steps,
            "seconds": {"train": round(result.seconds, 2)},
            "pairs_per_second": round(result.examples_per_second, 1),
            "final_metrics": result.metrics,
            **({"gpu": result.gpu} if result.gpu else {}),
        }
        if ctx.is_main:
            if result.finished:
                card = ModelCard(
                    "parallel",
                    cfg.to_dict(),
                    train_files,
                    dict(result.metrics),
                    smoke=smoke_caps,
                    matryoshka_dims=cfg.matryoshka_dims,
                )

                def export(folder: Path) -> None:
                    model.save(tokenizer, folder)
                    write_trained_dimensions(folder, cfg.matryoshka_dims, model.output_dim)

                export_into(run.path, export, card)
            run.write_summary(summary)
        ctx.barrier()
    return RunResult(
        run.path, result.end, result.seconds, result.examples_per_second, result.metrics, summary=summary
    )
