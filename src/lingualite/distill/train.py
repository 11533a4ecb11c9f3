"""Distil a sentence-transformer teacher into a tiny multilingual student (paper 002 on top of Reimers &
Gurevych 2020).

``distill(cfg, output)`` runs the whole recipe and leaves a sentence-transformers folder in ``output``:

1. read the parallel pairs (``en<TAB>xx``; the first column is the teacher's language);
2. train the student's own vocabulary on the target languages, languages sampled with p_l ~ n_l^0.7
   (paper 002, Sec. 5.1) -> ``output/tokenizer``;
3. encode the distinct source sentences with the teacher, once (cached ``.npy``, see
   :mod:`lingualite.distill.teacher`);
4. fit PCA on those vectors and turn it into a Dense layer (paper 002, Sec. 5.2) -> ``output/pca``, and for a
   sentence-transformers teacher ``output/teacher`` = teacher + that layer: the model the student imitates;
5. train the student so that S(x) ~ T(x) and S(t) ~ T(x) (:class:`MultilingualMSELoss`), validating the MSE
   and XSR P@1 on held-out pairs; ``metrics.jsonl``, resumable ``checkpoints/``;
6. export the student into ``output`` (renames of finished files; ``modules.json`` last).

Why our own loop and not ``SentenceTransformerTrainer``: the loop is lingualite's trainer in miniature and
reuses its pieces: tokenized pairs stored flat, length-bucketed batches that are a pure function of
(seed, step) so ``--resume`` continues exactly, atomic safetensors checkpoints, the same ``metrics.jsonl`` and
progress bar. The Hugging Face trainer would add the ``datasets``/``accelerate`` stack, pad every batch of a
random sampler (slower on a CPU), and resume from its own checkpoint format. The objective itself is
sentence-transformers' ``MSELoss`` reduction (see :class:`MultilingualMSELoss`), and the result is a plain
sentence-transformers model.
"""

from __future__ import annotations

import json
import logging
import math
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch
import yaml
from transformers import PreTrainedTokenizerFast, get_linear_schedule_with_warmup

from lingualite.data.batching import PairCollator
from lingualite.distill.config import DistillConfig
from lingualite.distill.loss import MultilingualMSELoss
from lingualite.distill.pca import (
    append_to_teacher,
)
from lingualite.distill.stages import prepare_projection, prepare_vocabulary, teacher_vectors
from lingualite.distill.static_student import StaticStudent, save_static_student, special_token_ids
from lingualite.distill.student import StudentEncoder, save_student
from lingualite.distill.teacher import load_teacher
from lingualite.distill.validation import DistillValidator, ValidationSet, load_validation_pairs
from lingualite.errors import LinguaLiteError
from lingualite.io_utils import atomic_dir, kept_log_lines, write_json, write_text
from lingualite.models.config import EncoderConfig
from lingualite.models.export import export_into
from lingualite.models.model_card import ModelCard
from lingualite.run_folder import check_resume_config, open_run, set_learning_rate
from lingualite.smoke import smoke_config
from lingualite.training.checkpoint import list_checkpoints, load_checkpoint, save_checkpoint
from lingualite.training.dataset import BucketedBatches, TokenizedPairs, expand_files, read_pairs
from lingualite.training.optimization import optimizer_step
from lingualite.training.progress import progress_bar

logger = logging.getLogger(__name__)


@dataclass
class DistillResult:
    """What a run produced.

    :param initial_metrics: validation of the untrained student (absent on resume).
    :param summary: what the run changed and how long each stage took (also in ``distill_summary.json``).
    """

    output_dir: Path
    steps: int
    seconds: float
    pairs_per_second: float
    final_metrics: dict[str, float] = field(default_factory=dict)
    initial_metrics: dict[str, float] = field(default_factory=dict)
    summary: dict[str, Any] = field(default_factory=dict)


@contextmanager
def _stage(summary: dict[str, Any], name: str) -> Iterator[None]:
    t0 = time.perf_counter()
    yield
    summary.setdefault("seconds", {})[name] = round(time.perf_counter() - t0, 2)


def _total_steps(cfg: DistillConfig, num_pairs: int, max_steps: int | None) -> int:
    if max_steps is not None:
        return max_steps
    if cfg.optim.epochs is not None:
        return max(1, math.ceil(cfg.optim.epochs * num_pairs / cfg.optim.batch_size))
    assert cfg.optim.max_steps is not None
    return cfg.optim.max_steps


def _new_student(
    cfg: DistillConfig, encoder_cfg: EncoderConfig, output_dim: int, tokenizer: PreTrainedTokenizerFast
) -> StudentEncoder | StaticStudent:
    if cfg.student.kind == "static":
        return StaticStudent(encoder_cfg, output_dim, special_token_ids(tokenizer))
    return StudentEncoder(encoder_cfg, output_dim, pad_token_id=tokenizer.pad_token_id)


def _adam(model: torch.nn.Module, lr: float, weight_decay: float) -> torch.optim.Adam:
    """Adam, fused where PyTorch has a fused kernel for the device: on a CPU the update of a 50k x 128
    embedding matrix takes ~17 ms instead of ~100 ms, a third of a step of the 1-layer student."""
    try:
        return torch.optim.Adam(model.parameters(), lr=lr, weight_decay=weight_decay, fused=True)
    except (RuntimeError, ValueError):  # pragma: no cover - devices without a fused Adam
        return torch.optim.Adam(model.parameters(), lr=lr, weight_decay=weight_decay)


def _format(metrics: dict[str, float]) -> str:
    shown = []
    if "loss" in metrics:
        shown.append(f"mse={metrics['loss']:.2e}")
    if "valid_mse" in metrics:
        shown.append(f"valid_mse={metrics['valid_mse']:.2e}")
    if "valid_xsr_p_at_1" in metrics:
        shown.append(f"valid_p@1={metrics['valid_xsr_p_at_1']:.3f}")
    return " ".join(shown)


def distill(
    cfg: DistillConfig,
    output: str | Path,
    resume: bool = False,
    max_steps: int | None = None,
    progress: bool = True,
    stop_after: int | None = None,
    validate: bool = True,
    threads: int | None = None,
    allow_config_change: bool = False,
    smoke: bool = False,
) -> DistillResult:
    """Distil ``cfg.teacher`` into a small multilingual student; see the module docstring for the stages.

    :param output: run folder; ends as a sentence-transformers model, with ``tokenizer/``, ``pca/``,
        ``teacher/``, ``teacher-cache/``, ``checkpoints/``, ``metrics.jsonl``, ``distill_config.yaml`` and
        ``distill_summary.json`` beside the model files.
    :param resume: continue from the newest checkpoint in ``output/checkpoints`` (same weights, optimizer,
        schedule, batch order and RNG as an uninterrupted run); teacher vectors come from the cache.
    :param max_steps: override the number of steps (``optim.max_steps`` / ``optim.epochs``), which is also
        the length of the learning-rate schedule.
    :param stop_after: leave after this many steps of THIS call, with a checkpoint and no export (for
        time-boxed jobs); ``resume`` continues.
    :param validate: validate at step 0, every ``optim.eval_every`` steps and at the end.
    :param threads: PyTorch CPU threads for this call (None: PyTorch's default, one per core). A property of
        the machine, not of the experiment, hence not in the config. On cores shared with other jobs use 1:
        two threads that wait for each other at every operation made the 1-layer student 4x slower than one.
    :param allow_config_change: with ``resume``, continue with a config that differs from the saved one
        (refused otherwise; the student's shape, vocabulary and PCA can never change).
    :param smoke: cap data, teacher encoding, vocabulary, steps and validation (:mod:`lingualite.smoke`) for
        a run of minutes; ``max_steps``, when given, still wins.
    """
    smoke_caps = None
    if smoke:
        cfg, smoke_caps = smoke_config(cfg)
    if threads is not None and threads < 1:
        raise LinguaLiteError(f"threads must be >= 1, got {threads}")
    previous_threads = torch.get_num_threads()
    if threads is not None:
        torch.set_num_threads(threads)
    if stop_after is not None and stop_after < 1:
        raise LinguaLiteError(f"stop_after must be >= 1, got {stop_after}")
    try:
        with open_run(output, "distill"):
            return _distill(
                cfg,
                Path(output),
                resume,
                max_steps,
                progress,
                stop_after,
                validate,
                allow_config_change,
                smoke_caps,
            )
    finally:
        torch.set_num_threads(previous_threads)


def _distill(
    cfg: DistillConfig,
    out: Path,
    resume: bool,
    max_steps: int | None,
    progress: bool,
    stop_after: int | None,
    validate: bool,
    allow_config_change: bool,
    smoke_caps: list[str] | None = None,
) -> DistillResult:
    opt = cfg.optim
    if max_steps is not None and max_steps < 1:
        raise LinguaLiteError(f"max_steps must be >= 1, got {max_steps}")
    checkpoints = list_checkpoints(out / "checkpoints")
    if not resume and checkpoints:
        raise LinguaLiteError(
            f"{out}: holds checkpoints of an earlier run; pass --resume, or choose a new --output"
        )
    config_path = out / "distill_config.yaml"
    changed: list[str] = []
    if resume and checkpoints:  # before the teacher stage: a refused resume costs nothing
        fixed = ("student", "vocabulary", "pca")
        changed = check_resume_config(config_path, cfg.to_dict(), allow_config_change, fixed)
    summary: dict[str, Any] = {"teacher": cfg.teacher.name}

    with _stage(summary, "read_pairs"):
        train_files = expand_files(cfg.data.train_files, "training")
        corpus = read_pairs(train_files, cfg.data.max_train_pairs)
        valid_raw = []
        if validate and cfg.data.valid_pairs > 0:
            valid_raw = load_validation_pairs(
                expand_files(cfg.data.valid_files, "validation"), cfg.data.valid_pairs, cfg.optim.seed
            )
    if len(corpus.pairs) < opt.batch_size:
        raise LinguaLiteError(
            f"only {len(corpus.pairs)} training pairs for optim.batch_size {opt.batch_size}"
        )
    with _stage(summary, "vocabulary"):
        tokenizer = prepare_vocabulary(cfg, out, resume, summary)

    cache_dir = Path(cfg.teacher.cache_dir) if cfg.teacher.cache_dir else out / "teacher-cache"
    with _stage(summary, "teacher"):
        teacher = load_teacher(cfg.teacher.name, cfg.teacher.max_seq_length, cfg.teacher.batch_size)
        sources = list(dict.fromkeys(a for a, _ in corpus.pairs))
        row_of = {s: i for i, s in enumerate(sources)}
        pair_rows = np.fromiter((row_of[a] for a, _ in corpus.pairs), np.int64, len(corpus.pairs))
        del row_of
        train_vectors = teacher_vectors(teacher, sources, cache_dir, "train", progress, summary)
        valid_sources = [s for _, src, _ in valid_raw for s in src]
        valid_vectors = (
            teacher_vectors(teacher, valid_sources, cache_dir, "valid", progress, summary)
            if valid_sources
            else None
        )
    summary["teacher_dim"] = int(train_vectors.shape[1])

    with _stage(summary, "pca"):
        projection = prepare_projection(cfg, train_vectors, out, resume, summary)
        if projection is not None:
            train_vectors = projection.apply(train_vectors)
            valid_vectors = projection.apply(valid_vectors) if valid_vectors is not None else None
            fresh = not (resume and (out / "teacher" / "modules.json").exists())  # a new fit: new layer
            if cfg.pca.save_teacher and teacher.st_model is not None and fresh:
                with atomic_dir(out / "teacher") as tmp:
                    append_to_teacher(teacher.st_model, projection).save(str(tmp), safe_serialization=True)
    targets = torch.from_numpy(np.ascontiguousarray(train_vectors, dtype=np.float32))
    del teacher

    with _stage(summary, "tokenize"):
        data = TokenizedPairs.build(corpus.pairs, tokenizer, cfg.data.max_seq_length)
        num_pairs = len(corpus.pairs)
        del corpus
        batches = BucketedBatches(data.lengths(), opt.batch_size, opt.seed, opt.bucket_size)
    collator = PairCollator.from_tokenizer(tokenizer, masking="none", pooled_sites=False, bag=None)

    total_steps = _total_steps(cfg, num_pairs, max_steps)
    torch.manual_seed(opt.seed)
    encoder_cfg = cfg.student.encoder_config(len(tokenizer), cfg.data.max_seq_length)
    student = _new_student(cfg, encoder_cfg, int(targets.shape[1]), tokenizer)
    student.match_output_scale(float(targets.pow(2).mean().sqrt()))
    loss_fn = MultilingualMSELoss()
    optimizer = _adam(student, opt.lr, opt.weight_decay)
    scheduler = get_linear_schedule_with_warmup(optimizer, round(opt.warmup_ratio * total_steps), total_steps)
    start = load_checkpoint(checkpoints[-1], student, optimizer, scheduler) if resume and checkpoints else 0
    if "optim.lr" in changed:
        set_learning_rate(optimizer, scheduler, opt.lr)
    num_params = sum(p.numel() for p in student.parameters())
    embedding_params = student.embedding_parameters()
    summary["student"] = {
        "kind": cfg.student.kind,
        "layers": encoder_cfg.num_layers if cfg.student.kind == "transformer" else 0,
        "hidden_size": encoder_cfg.hidden_size,
        "output_dim": student.output_dim,
        "vocab_size": encoder_cfg.vocab_size,
        "parameters": num_params,
        "embedding_parameters": embedding_params,
        "float32_mb": round(num_params * 4 / 1e6, 1),
    }
    shape = (
        "static"
        if cfg.student.kind == "static"
        else f"{encoder_cfg.num_layers} layer(s) x {encoder_cfg.hidden_size}"
    )
    logger.info(
        "student: %s, vocabulary %d, output %d: %.1fM parameters (%.0f%% embeddings), %.1f MB",
        shape,
        encoder_cfg.vocab_size,
        student.output_dim,
        num_params / 1e6,
        100 * embedding_params / num_params,
        num_params * 4 / 1e6,
    )
    summary.update({"train_pairs": num_pairs, "distinct_sources": len(sources), "total_steps": total_steps})
    write_text(config_path, yaml.safe_dump(cfg.to_dict(), sort_keys=False))

    validator = None
    if valid_raw and valid_vectors is not None:
        sets, offset = [], 0
        for name, src, tgt in valid_raw:
            sets.append(ValidationSet(name, src, tgt, valid_vectors[offset : offset + len(src)]))
            offset += len(src)
        validator = DistillValidator(sets, tokenizer)

    log_path = out / "metrics.jsonl"
    if log_path.exists():  # drop lines of steps after the checkpoint we continue from
        # a run resumed from step 0 validates and logs step 0 again (the crash harness found it twice)
        kept = kept_log_lines(log_path, start) if start else []
        write_text(log_path, "".join(f"{line}\n" for line in kept))

    def log(step: int, record: dict[str, float]) -> None:
        with log_path.open("a") as fh:
            fh.write(json.dumps({"step": step, **record}) + "\n")

    initial: dict[str, float] = {}
    if validator is not None and start == 0:
        initial = validator(student)
        log(0, initial)
        logger.info("step 0: %s", _format(initial))
    metrics: dict[str, float] = dict(initial)
    end = total_steps if stop_after is None else min(total_steps, start + stop_after)
    t0, pairs_seen = time.perf_counter(), 0
    student.train()
    with progress_bar("distill", progress) as bar:
        task = bar.add_task("distill", total=total_steps, completed=start, info=_format(metrics))
        for step in range(start, end):
            indices = batches.batch(step)
            batch = collator(data.select(indices))
            vectors = student(batch.input_ids, batch.attention_mask)
            b = batch.num_pairs
            loss, parts = loss_fn(vectors[:b], vectors[b:], targets[torch.from_numpy(pair_rows[indices])])
            loss_value = loss.item()
            if not math.isfinite(loss_value):
                raise LinguaLiteError(f"loss became {loss_value} at step {step + 1}; lower optim.lr")
            loss.backward()
            optimizer_step(student.parameters(), optimizer, scheduler, opt.grad_clip)
            pairs_seen += b
            done = step + 1
            record: dict[str, float] = {}
            if done % opt.log_every == 0 or done == total_steps:
                record.update({"loss": loss_value, **parts, "lr": scheduler.get_last_lr()[0]})
            if validator is not None and (done % opt.eval_every == 0 or done == total_steps):
                record.update(validator(student))
                student.train()
            if record:
                metrics.update(record)
                log(done, record)
                bar.update(task, info=_format(metrics))
                if not progress and ("valid_mse" in record or done % (opt.log_every * 10) == 0):
                    logger.info(
                        "step %d/%d %s (%.0f s)",
                        done,
                        total_steps,
                        _format(metrics),
                        time.perf_counter() - t0,
                    )
            if done % opt.save_every == 0 or done == end:
                save_checkpoint(
                    out / "checkpoints", done, student, optimizer, scheduler, metrics, opt.keep_checkpoints
                )
            bar.update(task, completed=done)
    seconds = time.perf_counter() - t0
    summary.setdefault("seconds", {})["train"] = round(seconds, 2)
    summary["steps_per_second"] = round((end - start) / max(seconds, 1e-9), 3)
    if end == total_steps:
        card = ModelCard(
            "distill", cfg.to_dict(), train_files, dict(metrics), smoke=smoke_caps, teacher=cfg.teacher.name
        )
        save = save_static_student if cfg.student.kind == "static" else save_student
        export_into(out, lambda folder: save(student, tokenizer, folder), card)
        logger.info("exported the student to %s", out)
    summary["final_metrics"] = metrics
    write_json(out / "distill_summary.json", summary)
    return DistillResult(out, end, seconds, pairs_seen / max(seconds, 1e-9), metrics, initial, summary)
