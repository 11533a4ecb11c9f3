"""Distil a sentence-transformer teacher into a tiny multilingual student (paper 002 on top of Reimers &
Gurevych 2020).

``train_distill(cfg, output)`` runs the whole recipe and leaves a sentence-transformers folder in ``output``:

1. read the parallel pairs (``en<TAB>xx``; the first column is the teacher's language);
2. the student's own vocabulary, languages sampled with p_l ~ n_l^0.7 (paper 002, Sec. 5.1; the shared
   vocabulary stage, :mod:`lingualite.training.vocabulary`), or the teacher's own (``vocabulary.kind:
   teacher``, paper 002 Table 1's mBERT-vocabulary row);
3. encode the distinct source sentences with the teacher, once (cached ``.npy``, see
   :mod:`lingualite.recipes.distill.teacher`);
4. fit PCA on those vectors and turn it into a Dense layer (paper 002, Sec. 5.2) -> ``output/pca``, and for a
   sentence-transformers teacher ``output/teacher`` = teacher + that layer: the model the student imitates;
5. train the student so that S(x) ~ T(x) and S(t) ~ T(x) (:class:`MultilingualMSELoss`) in the one training
   loop (:mod:`lingualite.training.loop`), validating the MSE and XSR P@1 on held-out pairs;
6. export the student into ``output`` (renames of finished files; ``modules.json`` last).

Why lingualite's loop and not ``SentenceTransformerTrainer``: tokenized pairs stored flat, length-bucketed
batches that are a pure function of (seed, step) so ``--resume`` continues exactly, atomic safetensors
checkpoints, the same ``metrics.jsonl`` and progress bar as every recipe. The Hugging Face trainer would add
the ``datasets``/``accelerate`` stack, pad every batch of a random sampler (slower on a CPU), and resume from
its own checkpoint format. The objective itself is sentence-transformers' ``MSELoss`` reduction (see
:class:`MultilingualMSELoss`), and the result is a plain sentence-transformers model.
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn
from transformers import PreTrainedTokenizerFast

from lingualite.config.distill import DistillConfig
from lingualite.config.sections import check_matryoshka
from lingualite.core.device import announce, resolve_device
from lingualite.core.errors import LinguaLiteError
from lingualite.core.io_utils import atomic_dir
from lingualite.core.prefetch import StepPrefetcher, pinned
from lingualite.data.pairs import (
    ParallelCorpus,
    expand_files,
    load_validation_pairs,
    read_pairs,
    report_coverage,
)
from lingualite.data.tokenized import BucketedBatches, TokenizedPairs
from lingualite.encoders.matryoshka_dims import write_trained_dimensions
from lingualite.models.export import export_into
from lingualite.models.model_card import ModelCard
from lingualite.models.run_folder import RunFolder
from lingualite.models.sentence_encoder import SentenceEncoder
from lingualite.recipes.distill.loss import MultilingualMSELoss
from lingualite.recipes.distill.pca import append_to_teacher
from lingualite.recipes.distill.ranker import (
    asymmetric_teacher,
    prompt_validation,
    ranker_corpus,
    save_prompts,
    vocabulary_texts,
)
from lingualite.recipes.distill.second_teacher import monolingual_targets
from lingualite.recipes.distill.stages import prepare_projection, teacher_vectors
from lingualite.recipes.distill.static_student import StaticStudent, special_token_ids
from lingualite.recipes.distill.student import StudentEncoder
from lingualite.recipes.distill.teacher import load_teacher, teacher_tokenizer_folder
from lingualite.recipes.distill.token_init import init_from_teacher, teacher_tokens
from lingualite.recipes.distill.untranslated import (
    MonolingualBatches,
    MonolingualText,
    mixed_loss,
    read_monolingual,
    tokenize_sentences,
)
from lingualite.recipes.distill.validation import DistillValidator
from lingualite.training.collator import PairCollator
from lingualite.training.distributed import DistributedContext
from lingualite.training.loop import Stage, StepOutput, run_stage
from lingualite.training.run import RunOptions, RunResult, apply_call_options, open_recipe_run, planned_steps
from lingualite.training.vocabulary import prepare_vocabulary

logger = logging.getLogger(__name__)


@contextmanager
def _timed(summary: dict[str, Any], name: str) -> Iterator[None]:
    t0 = time.perf_counter()
    yield
    summary.setdefault("seconds", {})[name] = round(time.perf_counter() - t0, 2)


def train_distill(cfg: DistillConfig, output: str | Path, **options: object) -> RunResult:
    """Distil ``cfg.teacher`` into a small multilingual student; see the module docstring for the stages.

    ``output`` ends as a sentence-transformers model with the run files beside it and ``pca/``,
    ``teacher/``, ``teacher-cache/``; ``options`` are :class:`~lingualite.training.run.RunOptions`.
    Teacher vectors come from the cache on resume.
    """
    opts = RunOptions(**options)  # type: ignore[arg-type]
    cfg, smoke_caps = apply_call_options(cfg, opts)
    fixed = (
        "student",
        "vocabulary",
        "pca",
        "ranker",
    )  # checked before the teacher stage: a refused resume costs nothing
    if cfg.vocabulary.kind == "teacher":  # the teacher's tokenizer is the vocabulary the checkpoints read
        fixed = (*fixed, "teacher")
    with open_recipe_run(cfg, output, "distill", opts, fixed) as (run, _):
        return _distill(cfg, run, opts, smoke_caps)


def _distill(cfg: DistillConfig, run: RunFolder, opts: RunOptions, smoke_caps: list[str] | None) -> RunResult:
    summary: dict[str, Any] = {"recipe": "distill", "teacher": cfg.teacher.name}
    cfg.check("config")  # a config built in Python never went through the loader's checks
    with _timed(summary, "read_pairs"):
        train_files = expand_files(cfg.data.train_files, "training")
        summary["languages"] = report_coverage(cfg.data.train_files, train_files, "distill")
        if cfg.ranker.enabled:  # paper 002's relevance ranker: prompted queries and passages
            corpus, summary["ranker"] = ranker_corpus(cfg, train_files)
        else:
            corpus = read_pairs(train_files, cfg.data.max_train_pairs)
            summary["everyday_pairs_dropped"] = corpus.everyday_dropped  # held out: data.evalsets.everyday
        valid_sets = []
        if opts.validate and cfg.data.valid_pairs > 0:
            valid_files = expand_files(cfg.data.valid_files, "validation")
            valid_sets = load_validation_pairs(valid_files, cfg.data.valid_pairs, cfg.seed)
            valid_sets = prompt_validation(cfg.ranker, valid_sets)
    if len(corpus.pairs) < cfg.optim.batch_size:
        raise LinguaLiteError(
            f"only {len(corpus.pairs)} training pairs for optim.batch_size {cfg.optim.batch_size}"
        )
    with _timed(summary, "read_monolingual"):
        mono = read_monolingual(cfg, {a for a, _ in corpus.pairs})
        if mono.sentences:
            summary["monolingual"] = mono.stats
    with _timed(summary, "vocabulary"):
        tokenizer, summary["vocabulary"] = _student_vocabulary(cfg, run, corpus, mono, opts.resume)
    targets, pair_rows, valid_targets = _teacher_targets(cfg, run, corpus, mono, valid_sets, opts, summary)

    with _timed(summary, "tokenize"):
        data = TokenizedPairs.build(corpus.pairs, tokenizer, cfg.student.max_seq_length)
        num_pairs = len(corpus.pairs)
        del corpus
        batches = BucketedBatches(data.lengths(), cfg.optim.batch_size, cfg.seed, cfg.optim.bucket_size)
        mono_batches = _monolingual_batches(
            cfg, mono.sentences, tokenizer, len(targets) - len(mono.sentences)
        )
        del mono
    collator = PairCollator.from_tokenizer(tokenizer, masking="none", pooled_sites=False, bag=None)
    total_steps = planned_steps(cfg.optim, num_pairs)
    torch.manual_seed(cfg.seed)
    student = _new_student(cfg, len(tokenizer), int(targets.shape[1]), tokenizer)
    student.match_output_scale(float(targets.pow(2).mean().sqrt()))
    if cfg.student.init_embeddings == "teacher":  # issue #40: rows from the teacher's token table
        teacher_table = teacher_tokens(cfg.teacher.name)
        summary["token_init"] = init_from_teacher(student.token_embeddings(), tokenizer, teacher_table)
        del teacher_table
    summary.update(_describe(cfg, student, num_pairs, total_steps))
    run.write_config(cfg.to_dict())
    if not cfg.pca.enabled:  # the student's dimension is the teacher's own: known only now
        source = "the teacher's, pca.enabled: false"
        check_matryoshka(cfg.matryoshka_dims, cfg.matryoshka_weights, student.output_dim, "config", source)
    loss_fn = MultilingualMSELoss(
        cfg.matryoshka_dims,
        cfg.matryoshka_weights,
        distance=cfg.optim.loss,
        alignment_weight=cfg.optim.alignment_weight,
        alignment_scale=cfg.optim.alignment_scale,
    )
    device = resolve_device(opts.device)
    announce(device, opts.device)  # once: an ST teacher on the same device said the same line
    student.to(device)
    step_fn, batch_of = _student_step(
        data, batches, collator, pair_rows, mono_batches, targets, device, loss_fn
    )
    validator = (
        DistillValidator(valid_sets, valid_targets, tokenizer, cfg.matryoshka_dims) if valid_sets else None
    )
    stage = Stage(
        student, step_fn, cfg.optim, total_steps, validator, validate_at_start=True, compile=opts.compile
    )
    ctx = DistributedContext(device=device)
    with batch_of:
        result = run_stage(stage, run, opts.resume, opts.progress, opts.stop_after, ctx)
    summary["seconds"]["train"] = round(result.seconds, 2)
    summary["steps_per_second"] = round((result.end - result.start) / max(result.seconds, 1e-9), 3)
    if result.finished:
        card = ModelCard("distill", cfg.to_dict(), train_files, dict(result.metrics), smoke=smoke_caps)
        _export(cfg, run, student, tokenizer, card)
    summary["final_metrics"] = result.metrics
    if result.gpu:
        summary["gpu"] = result.gpu
    run.write_summary(summary)
    return RunResult(
        run.path,
        result.end,
        result.seconds,
        result.examples_per_second,
        result.metrics,
        result.initial_metrics,
        summary=summary,
    )


def _export(
    cfg: DistillConfig,
    run: RunFolder,
    student: SentenceEncoder,
    tokenizer: PreTrainedTokenizerFast,
    card: ModelCard,
) -> None:
    """The student, its prompts (a ranker) and trained sizes (Matryoshka) into the run folder, with ``card``
    (given the recipe's config, data and smoke caps; the teacher and sizes are added here)."""
    card.teacher, card.matryoshka_dims = cfg.teacher.name, cfg.matryoshka_dims

    def export(folder: Path) -> None:
        student.save(tokenizer, folder)
        save_prompts(folder, cfg.ranker)  # the ranker's query / passage prompts, else nothing
        write_trained_dimensions(folder, cfg.matryoshka_dims, student.output_dim)

    export_into(run.path, export, card)
    logger.info("exported the student to %s", run.path)


def _student_vocabulary(
    cfg: DistillConfig, run: RunFolder, corpus: ParallelCorpus, mono: MonolingualText, resume: bool
) -> tuple[PreTrainedTokenizerFast, dict[str, Any]]:
    """The vocabulary stage: the pairs' sentences, the untranslated text (``vocabulary.monolingual``) and the
    ranked word lists whole (``vocabulary.word_lists``); or the teacher's own tokenizer (paper 002, Table 1)."""
    texts = vocabulary_texts(cfg, corpus)
    if cfg.vocabulary.monolingual:
        texts = mono.with_pairs(texts)
    vocabulary = cfg.vocabulary
    if vocabulary.kind == "teacher":  # the student reads the teacher's tokens
        vocabulary = dataclasses.replace(vocabulary, path=str(teacher_tokenizer_folder(cfg.teacher.name)))
    ranked = mono.ranked_by_language
    whole = (lambda: ranked) if cfg.vocabulary.word_lists else None
    return prepare_vocabulary(vocabulary, run, texts, cfg.seed, resume, whole=whole)


def _teacher_targets(
    cfg: DistillConfig,
    run: RunFolder,
    corpus: ParallelCorpus,
    mono: MonolingualText,
    valid_sets: list[tuple[str, list[str], list[str]]],
    opts: RunOptions,
    summary: dict[str, Any],
) -> tuple[torch.Tensor, np.ndarray, np.ndarray]:
    """The teacher's (PCA-reduced) vectors: one row per distinct training source, then one per monolingual
    sentence (PCA is fitted on both; ``teacher.second``'s mapped vectors where ``mono.second``); the row of each
    pair; and the validation sources' vectors."""
    cache_dir = Path(cfg.teacher.cache_dir) if cfg.teacher.cache_dir else run.path / "teacher-cache"
    with _timed(summary, "teacher"):
        teacher = load_teacher(
            cfg.teacher.name,
            cfg.teacher.max_seq_length,
            cfg.teacher.batch_size,
            opts.device,
            opts.teacher_workers,
        )
        teacher = asymmetric_teacher(teacher, cfg.ranker)
        sources = list(dict.fromkeys(a for a, _ in corpus.pairs))
        row_of = {s: i for i, s in enumerate(sources)}
        pair_rows = np.fromiter((row_of[a] for a, _ in corpus.pairs), np.int64, len(corpus.pairs))
        del row_of
        train_vectors = teacher_vectors(teacher, sources, cache_dir, "train", opts.progress, summary)
        if mono.sentences:
            mono_vectors = monolingual_targets(cfg, teacher, mono, cache_dir, opts, summary)
            train_vectors = np.concatenate([train_vectors, mono_vectors])
            del mono_vectors
        valid_sources = [s for _, src, _ in valid_sets for s in src]
        valid_vectors = np.zeros((0, train_vectors.shape[1]), np.float32)
        if valid_sources:
            valid_vectors = teacher_vectors(
                teacher, valid_sources, cache_dir, "valid", opts.progress, summary
            )
    summary["teacher_dim"] = int(train_vectors.shape[1])
    summary["distinct_sources"] = len(sources)
    with _timed(summary, "pca"):
        projection = prepare_projection(cfg, train_vectors, run.path, opts.resume, summary)
        if projection is not None:
            train_vectors, valid_vectors = projection.apply(train_vectors), projection.apply(valid_vectors)
            fresh = not (
                opts.resume and (run.path / "teacher" / "modules.json").exists()
            )  # a new fit: new layer
            if cfg.pca.save_teacher and teacher.st_model is not None and fresh:
                with atomic_dir(run.path / "teacher") as tmp:
                    append_to_teacher(teacher.st_model, projection).save(str(tmp), safe_serialization=True)
    targets = torch.from_numpy(np.ascontiguousarray(train_vectors, dtype=np.float32))
    return targets, pair_rows, np.ascontiguousarray(valid_vectors, dtype=np.float32)


def _student_step(
    data: TokenizedPairs,
    batches: BucketedBatches,
    collator: PairCollator,
    pair_rows: np.ndarray,
    mono_batches: MonolingualBatches | None,
    targets: torch.Tensor,
    device: torch.device,
    loss_fn: MultilingualMSELoss,
) -> tuple[Callable[[int, nn.Module], StepOutput], StepPrefetcher[tuple[Any, ...]]]:
    """The step of the student on ``device``: its batch (a pure function of (seed, step), so on a GPU the
    next one is built ahead into pinned memory) and ``loss_fn`` (the MSE to the teacher's targets, or its
    cosine / Matryoshka form, which the monolingual sentences then get too)."""
    on_gpu = device.type == "cuda"
    targets = targets.to(device)
    mono_mse = None if loss_fn.plain_mse else (lambda s, t: loss_fn.vectors_loss([s], t)[0])

    def make_batch(step: int) -> tuple[Any, ...]:
        indices = batches.batch(step)
        batch = collator(data.select(indices))
        made = (batch.input_ids, batch.attention_mask, torch.from_numpy(pair_rows[indices]))
        if mono_batches is not None:
            made = (*made, *mono_batches.batch(step))
        return pinned(made) if on_gpu else made

    batch_of = StepPrefetcher(make_batch, enabled=on_gpu)

    def step_fn(step: int, model: nn.Module) -> StepOutput:
        ids, mask, rows, *mono = (t.to(device, non_blocking=on_gpu) for t in batch_of(step))
        vectors = model(ids, mask)
        b = ids.shape[0] // 2
        loss, parts = loss_fn(vectors[:b], vectors[b:], targets[rows])
        if mono:
            loss, parts = mixed_loss(loss, parts, b, model(mono[0], mono[1]), targets[mono[2]], mono_mse)
        return StepOutput(loss, parts, b)

    return step_fn, batch_of


def _monolingual_batches(
    cfg: DistillConfig, sentences: list[str], tokenizer: PreTrainedTokenizerFast, first_row: int
) -> MonolingualBatches | None:
    """Batches of the monolingual sentences (their targets start at ``first_row``), or None without any."""
    if not sentences:
        return None
    ids = tokenize_sentences(sentences, tokenizer, cfg.student.max_seq_length)
    size = cfg.data.monolingual_batch_size or cfg.optim.batch_size
    return MonolingualBatches(ids, size, cfg.seed, first_row, tokenizer.pad_token_id, cfg.optim.bucket_size)


def _new_student(
    cfg: DistillConfig, vocab_size: int, output_dim: int, tokenizer: PreTrainedTokenizerFast
) -> StudentEncoder | StaticStudent:
    shape = dataclasses.replace(cfg.student, vocab_size=vocab_size)
    if cfg.student.kind == "static":
        return StaticStudent(shape, output_dim, special_token_ids(tokenizer))
    return StudentEncoder(shape, output_dim, pad_token_id=tokenizer.pad_token_id)


def _describe(
    cfg: DistillConfig, student: SentenceEncoder, num_pairs: int, total_steps: int
) -> dict[str, Any]:
    num_params = sum(p.numel() for p in student.parameters())
    embedding_params = student.embedding_parameters()
    static = cfg.student.kind == "static"
    shape = "static" if static else f"{cfg.student.num_layers} layer(s) x {cfg.student.hidden_size}"
    logger.info(
        "student: %s, vocabulary %d, output %d: %.1fM parameters (%.0f%% embeddings), %.1f MB",
        shape,
        student.cfg.vocab_size,
        student.output_dim,
        num_params / 1e6,
        100 * embedding_params / num_params,
        num_params * 4 / 1e6,
    )
    return {
        "student": {
            "kind": cfg.student.kind,
            "layers": 0 if static else cfg.student.num_layers,
            "hidden_size": cfg.student.hidden_size,
            "output_dim": student.output_dim,
            "vocab_size": student.cfg.vocab_size,
            "parameters": num_params,
            "embedding_parameters": embedding_params,
            "float32_mb": round(num_params * 4 / 1e6, 1),
        },
        "train_pairs": num_pairs,
        "total_steps": total_steps,
    }


"""The old name of :func:`train_distill`."""
