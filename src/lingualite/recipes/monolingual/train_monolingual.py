"""Multilingual sentence vectors from monolingual documents only (paper 001), as a lingualite recipe.

``train_monolingual(cfg, output)`` runs the whole method and leaves a sentence-transformers folder in ``output``:

1. documents from the parallel files, each document in ONE language (:mod:`lingualite.recipes.monolingual.documents`,
   the paper's disjoint Book-Wiki ablation) or a share also in a second language
   (:mod:`lingualite.recipes.monolingual.comparable`, its Wiki-Wiki setting); which sentences have their translation
   in the corpus is read from the files for evaluation only (:mod:`lingualite.recipes.monolingual.truth`);
2. one shared vocabulary over all languages (the shared vocabulary stage, ``output/tokenizer``);
3. stage ``classification``: sentence-context classification (Sec. 3.1): is s coherent in the context of
   s_i (s = s_i) or not (s random)? Linear head, :class:`ContextClassificationLoss`;
4. stages ``iteration-1`` .. ``iteration-N`` (Sec. 3.2): encode a sample of each language, mine
   pseudo-parallel pairs (:mod:`lingualite.recipes.monolingual.mining_step`: the paper's CSLS over m x m blocks, or
   exhaustive ratio margin, optionally seeded lexically), put each mined sentence into its partner's context
   and regress their coherence score (:class:`CoherenceRegressionLoss`), optionally with L_ml kept;
5. at the end of every stage: the mining rule's precision on the held-out gold pairs, validation XSR P@1
   per language pair, anisotropy; per iteration the true precision of the mined training pairs (``stages.jsonl`` and the ``iterations`` table of ``summary.json``);
   after stage 1 and every iteration the paper's own measures, zero-shot classification and pair
   classification (:mod:`lingualite.recipes.monolingual.paper_measures`, when the caller passes ``stage_tasks``);
6. export (Transformer -> Pooling(mean, max), at the sentence length it was validated with) into ``output``;
   the heads stay in the checkpoints.

Every stage is one :class:`lingualite.training.loop.Stage` (checkpoints under ``checkpoints/<stage>/``);
batches are a pure function of (seed, stage, step) and each iteration's mined pairs are saved before its
first step (``mined/<stage>.npz``), so ``--resume`` continues exactly.
"""

from __future__ import annotations

import dataclasses
import logging
import shutil
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch
from safetensors.torch import load_model
from torch import nn
from transformers import PreTrainedTokenizerFast

from lingualite.config.monolingual import MonolingualConfig
from lingualite.core.device import announce, resolve_device
from lingualite.core.errors import LinguaLiteError
from lingualite.data.pairs import expand_files
from lingualite.losses.coherence_regression import CoherenceRegressionLoss
from lingualite.losses.context_classification import ContextClassificationLoss
from lingualite.losses.sentence_alignment import SentenceAlignmentLoss
from lingualite.models.context_encoder import ContextEncoder
from lingualite.models.export import export_into
from lingualite.models.model_card import ModelCard
from lingualite.models.run_folder import RunFolder
from lingualite.recipes.monolingual.comparable import build_comparable_corpus, shared_documents
from lingualite.recipes.monolingual.contexts import TokenizedCorpus, classification_examples
from lingualite.recipes.monolingual.documents import build_monolingual_corpus
from lingualite.recipes.monolingual.iteration import (
    IterationData,
    alignment_loss,
    corpus_fingerprint,
    load_or_mine,
    regression_examples,
)
from lingualite.recipes.monolingual.mining_step import LexicalIndex
from lingualite.recipes.monolingual.paper_measures import (
    PaperMeasures,
    SetEvaluator,
    smoke_settings,
    stage_table,
)
from lingualite.recipes.monolingual.stage_evaluator import StageEvaluator
from lingualite.recipes.monolingual.truth import TranslationTruth
from lingualite.training.distributed import DistributedContext
from lingualite.training.loop import Stage, StepOutput, run_stage
from lingualite.training.run import RunOptions, RunResult, apply_call_options, open_recipe_run
from lingualite.training.vocabulary import prepare_vocabulary

logger = logging.getLogger(__name__)

CLASSIFICATION = "classification"


def stage_names(cfg: MonolingualConfig) -> list[str]:
    return [CLASSIFICATION] + [f"iteration-{i}" for i in range(1, cfg.mining.iterations + 1)]


def train_monolingual(
    cfg: MonolingualConfig, output: str | Path, stage_tasks: SetEvaluator | None = None, **options: object
) -> RunResult:
    """Run paper 001's two stages; see the module docstring. ``options`` are
    :class:`~lingualite.training.run.RunOptions` (``max_steps`` and ``step_scale`` apply to every stage;
    ``stop_after`` counts the steps of this call across stages). ``stage_tasks``: the protocols of the
    paper's measures after each stage (:data:`~lingualite.recipes.monolingual.paper_measures.SetEvaluator`; the CLI
    passes ``lingualite eval``'s); without it they are skipped with a note."""
    opts = RunOptions(**options)  # type: ignore[arg-type]
    cfg, smoke_caps = apply_call_options(cfg, opts)
    if smoke_caps is not None:
        cfg = dataclasses.replace(cfg, evaluation=smoke_settings(cfg.evaluation))
    with open_recipe_run(cfg, output, "monolingual", opts, ("model", "vocabulary")) as (run, _):
        return _train(cfg, run, opts, smoke_caps, stage_tasks)


@dataclasses.dataclass
class _Setup:
    """What every stage of a run shares: the corpus tokenized, the model, the evaluator."""

    train_files: list[Path]
    tokenizer: PreTrainedTokenizerFast
    data: TokenizedCorpus
    model: ContextEncoder
    evaluator: StageEvaluator
    truth: TranslationTruth
    measures: PaperMeasures


def _train(
    cfg: MonolingualConfig,
    run: RunFolder,
    opts: RunOptions,
    smoke_caps: list[str] | None,
    stage_tasks: SetEvaluator | None,
) -> RunResult:
    t_start = time.perf_counter()
    summary: dict[str, Any] = {
        "recipe": "monolingual",
        "mode": "monolingual",
        "paper": "Wang et al., paper 001",
    }
    setup = _set_up(cfg, run, opts, summary, PaperMeasures(cfg.evaluation, stage_tasks))
    summary["evaluation"] = setup.measures.summary()
    done_stages = run.read_stages() if opts.resume else []
    if not done_stages:
        run.clear_logs()
        # the paper's measures of the untrained encoder too: the floor each stage is compared with
        initial = {**setup.evaluator(setup.model), **setup.measures(setup.model, setup.tokenizer)}
        done_stages = [{"stage": "initial", **initial}]
        run.append_stage(done_stages[0])
    ran, examples, train_seconds = _run_stages(cfg, run, opts, setup, done_stages)
    names = stage_names(cfg)
    model, tokenizer = setup.model, setup.tokenizer
    if {row["stage"] for row in done_stages} >= set(names):  # complete: export the last stage's weights
        load_model(model, str(run.checkpoints(names[-1])[-1] / "model.safetensors"))
        final = {k: v for k, v in done_stages[-1].items() if k != "stage"}
        card = ModelCard("monolingual", cfg.to_dict(), setup.train_files, final, smoke=smoke_caps)
        export_into(run.path, lambda folder: model.save(tokenizer, folder), card)
    seconds = time.perf_counter() - t_start
    summary["iterations"] = done_stages
    summary["paper_measures"] = stage_table(done_stages)
    summary["seconds_this_call"] = round(seconds, 1)
    summary["model"] = {
        "layers": cfg.model.num_layers,
        "hidden_size": cfg.model.hidden_size,
        "pooling": cfg.model.pooling,
        "dimension": model.output_dim,
        "sentence_length": model.max_seq_length,
        "vocab_size": len(tokenizer),
        "parameters": sum(p.numel() for n, p in model.named_parameters() if n.startswith("bert.")),
    }
    run.write_summary(summary)
    final_metrics = {k: v for k, v in done_stages[-1].items() if isinstance(v, float)}
    per_second = examples / max(train_seconds, 1e-9)
    return RunResult(run.path, ran, seconds, per_second, final_metrics, stages=done_stages, summary=summary)


def _set_up(
    cfg: MonolingualConfig, run: RunFolder, opts: RunOptions, summary: dict[str, Any], measures: PaperMeasures
) -> _Setup:
    """Documents (one language each), the shared vocabulary, the tokenized corpus, a fresh model."""
    train_files = expand_files(cfg.data.train_files, "training")
    if cfg.data.valid_files:  # compared as resolved files: two globs may name the same file
        shared = {f.resolve() for f in train_files} & {
            f.resolve() for f in expand_files(cfg.data.valid_files, "validation")
        }
        if shared:
            raise LinguaLiteError(f"validation files are also training files: {sorted(map(str, shared))}")
    d = cfg.data
    if d.corpus == "comparable":
        corpus = build_comparable_corpus(
            train_files, d.languages, d.shared_documents, d.keep_sentences, d.min_sentences,
            d.max_sentences_per_language, cfg.seed,
        )  # fmt: skip
    else:
        corpus = build_monolingual_corpus(
            train_files, d.languages, d.min_sentences, d.max_sentences_per_language, cfg.seed
        )
    summary["corpus"] = {
        "setting": d.corpus,
        "per_language": corpus.counts(),
        "shared_documents": shared_documents(corpus),
        "dropped": dict(corpus.dropped),
    }
    logger.info("monolingual documents: %s", corpus.counts())
    texts = lambda: {lang: corpus.sentences(lang) for lang in corpus.documents}  # noqa: E731
    tokenizer, summary["vocabulary"] = prepare_vocabulary(cfg.vocabulary, run, texts, cfg.seed, opts.resume)
    data = TokenizedCorpus.build(corpus, tokenizer, cfg.context.max_sentence_tokens)
    # evaluation only (never trained on): which sentences have their translation in the corpus
    truth = TranslationTruth.from_files(train_files, data.texts, data.language, data.languages)
    summary["mining_ceiling"] = truth.ceiling()
    if not opts.resume:
        shutil.rmtree(run.path / "mined", ignore_errors=True)
    run.write_config(cfg.to_dict())
    torch.manual_seed(cfg.seed)
    device = resolve_device(opts.device)
    announce(device, opts.device)
    model = _new_model(cfg, tokenizer).to(device)
    evaluator = StageEvaluator(cfg, tokenizer)
    seen = evaluator.texts() & set(data.texts)
    summary["valid_sentences_also_in_training_documents"] = len(seen)
    if seen:
        logger.info(
            "%d validation sentences also occur (as the same text) in other training documents", len(seen)
        )
    return _Setup(train_files, tokenizer, data, model, evaluator, truth, measures)


def _run_stages(
    cfg: MonolingualConfig, run: RunFolder, opts: RunOptions, setup: _Setup, done_stages: list[dict[str, Any]]
) -> tuple[int, int, float]:
    """Run the stages not finished yet (appending their rows to ``done_stages``), within ``stop_after``
    steps; returns the steps, examples and training seconds of this call."""
    model, data, evaluator = setup.model, setup.data, setup.evaluator
    finished = {row["stage"] for row in done_stages}
    names = stage_names(cfg)
    fingerprint = corpus_fingerprint(data)
    lexical = LexicalIndex(data.texts)  # fitted on first use, then shared by the iterations
    budget = opts.stop_after
    ran = examples = 0
    train_seconds = 0.0
    for index, name in enumerate(names):
        if name in finished:
            continue
        if budget is not None and budget <= 0:
            break
        if not run.checkpoints(name) and index > 0:  # start from the previous stage's final weights
            load_model(model, str(run.checkpoints(names[index - 1])[-1] / "model.safetensors"))
        row: dict[str, Any] = {"stage": name}
        iteration = None
        if name != CLASSIFICATION:
            t0 = time.perf_counter()
            mined = run.path / "mined" / f"{name}.npz"
            previous = done_stages[-1].get("mined_per_language_pair")
            iteration = load_or_mine(
                cfg, model, data, evaluator, index, mined, fingerprint, lexical, previous
            )
            row.update(iteration.summary(data, setup.truth, previous))
            row["mining_seconds"] = round(time.perf_counter() - t0, 1)
        stage = _stage(cfg, name, index, model, data, iteration, evaluator)
        ctx = DistributedContext(device=next(model.parameters()).device)
        result = run_stage(stage, run, opts.resume, opts.progress, budget, ctx)
        if result.gpu:
            row["gpu"] = result.gpu
        ran, examples = ran + result.end - result.start, examples + result.examples
        train_seconds += result.seconds
        if budget is not None:
            budget -= result.end - result.start
        if not result.finished:
            break
        # a stage finished by an earlier call (its row not yet written) ran no step here: validate it now
        validated = result.metrics if result.end > result.start else evaluator(model)
        row.update({"train_seconds": round(result.seconds, 1), "steps": stage.total_steps})
        row.update({k: v for k, v in validated.items() if k not in _TRAINING_VALUES})
        row.update(setup.measures(model, setup.tokenizer))
        done_stages.append(row)
        run.append_stage(row)
        logger.info("%s: %s", name, _brief(row))
    return ran, examples, train_seconds


_TRAINING_VALUES = (
    "loss",
    "lr",
    "accuracy",
    "alignment_loss",
    "classification_loss",
)  # logged per step, not a stage's result


def _new_model(cfg: MonolingualConfig, tokenizer: PreTrainedTokenizerFast) -> ContextEncoder:
    shape = dataclasses.replace(cfg.model, vocab_size=len(tokenizer))
    return ContextEncoder(
        shape, cfg.model.pooling, tokenizer.pad_token_id, sentence_length=cfg.context.sentence_length
    )


def _stage(
    cfg: MonolingualConfig,
    name: str,
    index: int,
    model: ContextEncoder,
    data: TokenizedCorpus,
    iteration: IterationData | None,
    evaluator: StageEvaluator,
) -> Stage:
    """Stage ``name``: its batches (a pure function of seed, stage and step), loss and optimiser settings."""
    classify = iteration is None
    optim = cfg.classification if classify else cfg.regression
    window, max_len = cfg.context.window, cfg.model.max_seq_length
    same_language = cfg.context.negatives == "same_language"
    loss_fn = ContextClassificationLoss() if classify else CoherenceRegressionLoss()
    align_fn = None
    if not classify and cfg.regression.alignment_weight > 0:
        align_fn = SentenceAlignmentLoss("cosine", cfg.regression.alignment_scale)
    aux_weight = 0.0 if classify else cfg.regression.classification_weight
    aux_fn = ContextClassificationLoss()

    def step_fn(step: int, _: nn.Module) -> StepOutput:
        rng = np.random.default_rng([cfg.seed, index, step])
        if iteration is None:
            batch = classification_examples(data, optim.batch_size, rng, same_language)
        else:
            batch = regression_examples(
                iteration, optim.batch_size, cfg.regression.mined_share, rng, cfg.regression.random_score
            )
        ids, mask, target = batch.tensors(data, window, max_len)  # the model moves inputs to its device
        predicted = model.classify(ids, mask) if classify else model.regress(ids, mask)
        target = target.to(predicted.device)
        loss = loss_fn(predicted, target)
        parts: dict[
            str, float | torch.Tensor
        ] = {}  # detached tensors: the loop reads them (once per log on a GPU)
        if classify:
            parts["accuracy"] = ((predicted.detach() > 0).float() == target).float().mean()
        if align_fn is not None and iteration is not None:
            alignment = alignment_loss(model, align_fn, data, iteration.mined, optim.batch_size, rng, cfg)
            parts["alignment_loss"] = alignment.detach()
            loss = loss + cfg.regression.alignment_weight * alignment
        if aux_weight > 0:  # issue #16: L_ml (Sec. 3.1) kept as an auxiliary loss in every iteration
            aux = classification_examples(data, optim.batch_size, rng, same_language)
            aux_ids, aux_mask, aux_target = aux.tensors(data, window, max_len)
            aux_predicted = model.classify(aux_ids, aux_mask)
            aux_loss = aux_fn(aux_predicted, aux_target.to(aux_predicted.device))
            parts["classification_loss"] = aux_loss.detach()
            loss = loss + aux_weight * aux_loss
        return StepOutput(loss, parts, optim.batch_size)

    assert optim.max_steps is not None  # a stage sets max_steps (StageOptimConfig.validate)
    # dropout noise of a stage depends on (seed, stage) only, resumed or not
    return Stage(model, step_fn, optim, optim.max_steps, evaluator, name=name, seed=cfg.seed * 1000 + index)


def _brief(row: dict[str, Any]) -> str:
    """``key=value`` for a log line: overall figures only (per-pair ones are in stages.jsonl), 4 digits."""
    shown = {k: v for k, v in row.items() if "/" not in k and k != "stage" and not isinstance(v, dict)}
    return " ".join(f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}" for k, v in shown.items())
