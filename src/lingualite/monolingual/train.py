"""Multilingual sentence vectors from monolingual documents only (paper 001), as a lingualite training mode.

``train_monolingual(cfg, output)`` runs the whole method and leaves a sentence-transformers folder in ``output``:

1. documents from the parallel files, each document in ONE language (:mod:`lingualite.monolingual.documents`);
2. one shared vocabulary over all languages (``output/tokenizer``);
3. stage ``classification``: sentence-context classification (Sec. 3.1): is s coherent in the context of
   s_i (s = s_i) or not (s random)? Linear head, :class:`ContextClassificationLoss`;
4. stages ``iteration-1`` .. ``iteration-N`` (Sec. 3.2): encode a sample of each language, mine
   pseudo-parallel pairs with CSLS over m x m blocks (:mod:`lingualite.mining`), put each mined sentence into
   its partner's context and regress their cosine (:class:`CoherenceRegressionLoss`);
5. after every stage: the mining rule's precision on the held-out gold pairs, and validation XSR P@1 per
   language pair (``stages.jsonl`` and the ``iterations`` table of ``monolingual_summary.json``);
6. export (Transformer -> Pooling(mean, max)) into ``output``; the heads stay in the checkpoints.

Batches are a pure function of (seed, stage, step) and every stage checkpoints (``checkpoints/<stage>/``),
with its mined pairs saved before its first step (``mined/<stage>.npz``), so ``--resume`` continues exactly.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import math
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch
import yaml
from safetensors.torch import load_model
from transformers import PreTrainedTokenizerFast, get_linear_schedule_with_warmup

from lingualite.errors import LinguaLiteError
from lingualite.io_utils import atomic_dir, kept_log_lines, write_json, write_text
from lingualite.losses.alignment import SentenceAlignmentLoss
from lingualite.losses.coherence_regression import CoherenceRegressionLoss
from lingualite.losses.context_classification import ContextClassificationLoss
from lingualite.mining.pseudo_pairs import MinedPairs
from lingualite.models.context_encoder import ContextEncoder, save_context_encoder
from lingualite.models.export import export_into
from lingualite.models.model_card import ModelCard
from lingualite.monolingual.config import MonolingualConfig, StageOptimConfig
from lingualite.monolingual.contexts import (
    TokenizedCorpus,
    classification_examples,
)
from lingualite.monolingual.documents import MonolingualCorpus, build_monolingual_corpus
from lingualite.monolingual.iteration import (
    alignment_loss,
    corpus_fingerprint,
    load_mined,
    mine_iteration,
    mined_summary,
    regression_examples,
    save_mined,
)
from lingualite.monolingual.validation import StageEvaluator
from lingualite.run_folder import check_resume_config, open_run, set_learning_rate
from lingualite.smoke import smoke_config
from lingualite.tokenization import load_tokenizer, train_tokenizer
from lingualite.training.checkpoint import list_checkpoints, load_checkpoint, save_checkpoint
from lingualite.training.dataset import expand_files
from lingualite.training.optimization import optimizer_step
from lingualite.training.progress import progress_bar

logger = logging.getLogger(__name__)

CLASSIFICATION = "classification"


@dataclass
class MonolingualResult:
    output_dir: Path
    seconds: float
    iterations: list[dict[str, Any]] = field(default_factory=list)
    summary: dict[str, Any] = field(default_factory=dict)


def stage_names(cfg: MonolingualConfig) -> list[str]:
    return [CLASSIFICATION] + [f"iteration-{i}" for i in range(1, cfg.mining.iterations + 1)]


def _prepare_tokenizer(
    cfg: MonolingualConfig, corpus: MonolingualCorpus, out: Path, resume: bool
) -> PreTrainedTokenizerFast:
    if cfg.tokenizer.path:
        return load_tokenizer(cfg.tokenizer.path)
    folder = out / "tokenizer"
    if resume and (folder / "tokenizer.json").exists():
        return load_tokenizer(folder)
    tok = cfg.tokenizer
    texts = {lang: corpus.sentences(lang) for lang in corpus.documents}
    tokenizer = train_tokenizer(
        texts, tok.vocab_size, tok.kind, tok.alpha, tok.sample_size, tok.lowercase, cfg.seed
    )
    with atomic_dir(folder) as tmp:
        tokenizer.save_pretrained(str(tmp))
    return tokenizer


def train_monolingual(
    cfg: MonolingualConfig,
    output: str | Path,
    resume: bool = False,
    progress: bool = True,
    threads: int | None = None,
    step_scale: float = 1.0,
    allow_config_change: bool = False,
    smoke: bool = False,
) -> MonolingualResult:
    """Run paper 001's two stages; see the module docstring.

    :param resume: continue from the newest checkpoint of the latest stage begun.
    :param threads: PyTorch CPU threads (None: one per core).
    :param step_scale: multiply every stage's step count (e.g. 0.1 for a quick look); the schedules follow.
    :param allow_config_change: with ``resume``, continue with a changed config (refused otherwise; the
        model's shape and vocabulary can never change).
    :param smoke: cap the corpus, vocabulary, steps, mining and validation (:mod:`lingualite.smoke`) for a
        run of minutes.
    """
    smoke_caps = None
    if smoke:
        cfg, smoke_caps = smoke_config(cfg)
    if threads is not None and threads < 1:
        raise LinguaLiteError(f"threads must be >= 1, got {threads}")
    if step_scale <= 0:
        raise LinguaLiteError(f"step_scale must be > 0, got {step_scale}")
    previous_threads = torch.get_num_threads()
    if threads is not None:
        torch.set_num_threads(threads)
    try:
        with open_run(output, "monolingual"):
            return _train(cfg, Path(output), resume, progress, step_scale, allow_config_change, smoke_caps)
    finally:
        torch.set_num_threads(previous_threads)


def _train(
    cfg: MonolingualConfig,
    out: Path,
    resume: bool,
    progress: bool,
    step_scale: float,
    allow_config_change: bool,
    smoke_caps: list[str] | None = None,
) -> MonolingualResult:
    names = stage_names(cfg)
    started = [n for n in names if list_checkpoints(out / "checkpoints" / n)]
    if started and not resume:
        raise LinguaLiteError(
            f"{out}: holds checkpoints of an earlier run; pass --resume, or choose a new --output"
        )
    if resume and started:  # finished stages are kept; the checkpoints need the same model and vocabulary
        check_resume_config(
            out / "training_config.yaml", cfg.to_dict(), allow_config_change, ("model", "tokenizer")
        )
    t_start = time.perf_counter()
    summary: dict[str, Any] = {"mode": "monolingual", "paper": "Wang et al., paper 001"}

    train_files = expand_files(cfg.data.train_files, "training")
    if cfg.data.valid_files:  # compared as resolved files: two globs may name the same file
        shared = {f.resolve() for f in train_files} & {
            f.resolve() for f in expand_files(cfg.data.valid_files, "validation")
        }
        if shared:
            raise LinguaLiteError(f"validation files are also training files: {sorted(map(str, shared))}")
    corpus = build_monolingual_corpus(
        train_files,
        cfg.data.languages,
        cfg.data.min_sentences,
        cfg.data.max_sentences_per_language,
        cfg.seed,
    )
    summary["corpus"] = {"per_language": corpus.counts(), "dropped": dict(corpus.dropped)}
    logger.info("monolingual documents: %s", corpus.counts())
    tokenizer = _prepare_tokenizer(cfg, corpus, out, resume)
    data = TokenizedCorpus.build(corpus, tokenizer, cfg.context.max_sentence_tokens)
    fingerprint = corpus_fingerprint(data)
    config_path = out / "training_config.yaml"
    if not resume:
        shutil.rmtree(out / "mined", ignore_errors=True)
    write_text(config_path, yaml.safe_dump(cfg.to_dict(), sort_keys=False))

    torch.manual_seed(cfg.seed)
    encoder_cfg = dataclasses.replace(cfg.model, vocab_size=len(tokenizer))
    model = ContextEncoder(encoder_cfg, cfg.model.pooling, pad_token_id=tokenizer.pad_token_id)
    evaluator = StageEvaluator(cfg, tokenizer)
    seen = evaluator.texts() & set(data.texts)
    summary["valid_sentences_also_in_training_documents"] = len(seen)
    if seen:
        logger.info(
            "%d validation sentences also occur (as the same text) in other training documents", len(seen)
        )
    stages_log = out / "stages.jsonl"
    log_path = out / "metrics.jsonl"
    done_stages: list[dict[str, Any]] = []
    if resume and stages_log.exists():
        done_stages = [json.loads(line) for line in stages_log.read_text().splitlines() if line.strip()]
    else:
        stages_log.unlink(missing_ok=True)
        log_path.unlink(missing_ok=True)
        initial = {"stage": "initial", **evaluator(model)}
        done_stages.append(initial)
        _append(stages_log, initial)
    finished = {row["stage"] for row in done_stages}
    ran_any = False

    for index, name in enumerate(names):
        if name in finished:
            continue
        optim_cfg: StageOptimConfig = cfg.classification if name == CLASSIFICATION else cfg.regression
        steps = max(1, round(optim_cfg.steps * step_scale))
        checkpoints = list_checkpoints(out / "checkpoints" / name)
        if not checkpoints and index > 0:  # start from the previous stage's final weights
            previous = list_checkpoints(out / "checkpoints" / names[index - 1])
            if previous:
                load_model(model, str(previous[-1] / "model.safetensors"))
        ran_any = True
        row: dict[str, Any] = {"stage": name}
        mined = pool_indices = pool_vectors = None
        if name != CLASSIFICATION:
            mined_path = out / "mined" / f"{name}.npz"
            t0 = time.perf_counter()
            if mined_path.exists():
                mined, pool_indices, pool_vectors = load_mined(mined_path, fingerprint)
            else:
                mined, pool_indices, pool_vectors = mine_iteration(cfg, model, data, evaluator, index)
                if len(mined) == 0:
                    raise LinguaLiteError(
                        f"{name}: mining found no pairs; raise mining.sample_size or the corpus size"
                    )
                if len(mined) < cfg.mining.target_pairs:
                    logger.warning(
                        "%s: mining stopped at %d of %d pairs after %d rounds (the pools hold too few new pairs)",
                        name,
                        len(mined),
                        cfg.mining.target_pairs,
                        mined.rounds,
                    )
                save_mined(mined_path, mined, pool_indices, pool_vectors, fingerprint)
            row.update(mined_summary(mined, data))
            row["mining_seconds"] = round(time.perf_counter() - t0, 1)
        t0 = time.perf_counter()
        _run_stage(
            cfg,
            name,
            index,
            steps,
            optim_cfg,
            model,
            data,
            out,
            log_path,
            progress,
            mined,
            pool_indices,
            pool_vectors,
            checkpoints,
        )
        row["train_seconds"] = round(time.perf_counter() - t0, 1)
        row["steps"] = steps
        row.update(evaluator(model))
        done_stages.append(row)
        _append(stages_log, row)
        logger.info("%s: %s", name, _brief(row))

    if not ran_any:  # every stage finished in an earlier call: export the last stage's weights
        load_model(model, str(list_checkpoints(out / "checkpoints" / names[-1])[-1] / "model.safetensors"))
    final = {k: v for k, v in (done_stages[-1] if done_stages else {}).items() if k != "stage"}
    card = ModelCard("monolingual", cfg.to_dict(), train_files, final, smoke=smoke_caps)
    export_into(out, lambda folder: save_context_encoder(model, tokenizer, folder), card)
    seconds = time.perf_counter() - t_start
    summary["iterations"] = done_stages
    summary["seconds_this_call"] = round(seconds, 1)
    summary["model"] = {
        "layers": encoder_cfg.num_layers,
        "hidden_size": encoder_cfg.hidden_size,
        "pooling": cfg.model.pooling,
        "dimension": model.output_dim,
        "vocab_size": len(tokenizer),
        "parameters": sum(p.numel() for n, p in model.named_parameters() if n.startswith("bert.")),
    }
    write_json(out / "monolingual_summary.json", summary)
    return MonolingualResult(out, seconds, done_stages, summary)


def _brief(row: dict[str, Any]) -> str:
    """``key=value`` for a log line: overall figures only (per-pair ones are in stages.jsonl), 4 decimals."""
    shown = {k: v for k, v in row.items() if "/" not in k and k != "stage" and not isinstance(v, dict)}
    return " ".join(f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}" for k, v in shown.items())


def _append(path: Path, row: dict[str, Any]) -> None:
    with path.open("a") as fh:
        fh.write(json.dumps(row) + "\n")


def _run_stage(
    cfg: MonolingualConfig,
    name: str,
    index: int,
    steps: int,
    optim_cfg: StageOptimConfig,
    model: ContextEncoder,
    data: TokenizedCorpus,
    out: Path,
    log_path: Path,
    progress: bool,
    mined: MinedPairs | None,
    pool_indices: np.ndarray | None,
    pool_vectors: np.ndarray | None,
    checkpoints: list[Path],
) -> None:
    optimizer = torch.optim.Adam(model.parameters(), lr=optim_cfg.lr)
    scheduler = get_linear_schedule_with_warmup(optimizer, round(optim_cfg.warmup_ratio * steps), steps)
    start = load_checkpoint(checkpoints[-1], model, optimizer, scheduler) if checkpoints else 0
    if start and scheduler.base_lrs[0] != optim_cfg.lr:  # resumed with --allow-config-change and a new lr
        set_learning_rate(optimizer, scheduler, optim_cfg.lr)
    if start == 0:  # dropout noise of a stage depends on (seed, stage) only, resumed or not
        torch.manual_seed(cfg.seed * 1000 + index)
    elif log_path.exists():  # drop this stage's log lines after the checkpoint we continue from
        rows = [json.loads(line) for line in kept_log_lines(log_path, 10**12)]
        kept = [r for r in rows if r.get("stage") != name or r["step"] <= start]
        write_text(log_path, "".join(json.dumps(r) + "\n" for r in kept))
    classify = name == CLASSIFICATION
    loss_fn = ContextClassificationLoss() if classify else CoherenceRegressionLoss()
    save_every = max(1, math.ceil(steps / 4))
    window, max_len = cfg.context.window, cfg.model.max_seq_length
    same_language = cfg.context.negatives == "same_language"
    align_fn = None
    if not classify and cfg.regression.alignment_weight > 0:
        align_fn = SentenceAlignmentLoss("cosine", cfg.regression.alignment_scale)
    aligned: list[float] = []
    model.train()
    running: list[float] = []
    with progress_bar(name, progress) as bar:
        task = bar.add_task(name, total=steps, completed=start, info="")
        for step in range(start, steps):
            rng = np.random.default_rng([cfg.seed, index, step])
            if classify:
                batch = classification_examples(data, optim_cfg.batch_size, rng, same_language)
            else:
                assert mined is not None and pool_indices is not None and pool_vectors is not None
                batch = regression_examples(
                    mined,
                    pool_indices,
                    pool_vectors,
                    optim_cfg.batch_size,
                    cfg.regression.mined_share,
                    rng,
                    cfg.regression.random_score,
                )
            ids, mask, target = batch.tensors(data, window, max_len)
            predicted = model.classify(ids, mask) if classify else model.regress(ids, mask)
            loss = loss_fn(predicted, target)
            if align_fn is not None:
                assert mined is not None
                alignment = alignment_loss(model, align_fn, data, mined, optim_cfg.batch_size, rng, cfg)
                aligned.append(alignment.item())
                loss = loss + cfg.regression.alignment_weight * alignment
            value = loss.item()
            if not math.isfinite(value):
                raise LinguaLiteError(
                    f"{name}: loss became {value} at step {step + 1}; lower the learning rate"
                )
            loss.backward()
            optimizer_step(model.parameters(), optimizer, scheduler, optim_cfg.grad_clip)
            running.append(value)
            done = step + 1
            if done % 20 == 0 or done == steps:
                record: dict[str, Any] = {"stage": name, "step": done, "loss": float(np.mean(running))}
                if classify:
                    record["accuracy"] = float(((predicted.detach() > 0).float() == target).float().mean())
                if aligned:
                    record["alignment_loss"] = float(np.mean(aligned))
                running.clear()
                aligned.clear()
                _append(log_path, record)
                bar.update(task, info=f"loss={record['loss']:.4f}")
            if done % save_every == 0 or done == steps:
                save_checkpoint(
                    out / "checkpoints" / name, done, model, optimizer, scheduler, {"stage": name}
                )
            bar.update(task, completed=done)
