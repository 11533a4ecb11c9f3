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
import hashlib
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

from lingualite.distill.validation import load_validation_pairs
from lingualite.errors import LinguaLiteError
from lingualite.evaluation.retrieval import normalize_rows, xsr_scores
from lingualite.io_utils import atomic_path, write_json
from lingualite.losses.alignment import SentenceAlignmentLoss
from lingualite.losses.coherence_regression import CoherenceRegressionLoss
from lingualite.losses.context_classification import ContextClassificationLoss
from lingualite.mining.pseudo_pairs import MinedPairs, mine_pseudo_pairs, mining_precision
from lingualite.models.context_encoder import ContextEncoder, save_context_encoder
from lingualite.models.dual_encoder import EncoderOutput
from lingualite.models.encoding import encode_batched
from lingualite.models.export import export_into
from lingualite.monolingual.config import MonolingualConfig, StageOptimConfig
from lingualite.monolingual.contexts import (
    ContextExamples,
    TokenizedCorpus,
    classification_examples,
    pad_batch,
)
from lingualite.monolingual.documents import MonolingualCorpus, build_monolingual_corpus
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
    with atomic_path(folder) as tmp:
        tokenizer.save_pretrained(str(tmp))
    return tokenizer


class StageEvaluator:
    """After each stage: the mining rule's precision on gold pairs, and validation XSR P@1 (nn, cosine)."""

    def __init__(self, cfg: MonolingualConfig, tokenizer: PreTrainedTokenizerFast) -> None:
        self.cfg, self.tokenizer = cfg, tokenizer
        self.sets: list[tuple[str, list[str], list[str]]] = []
        if cfg.data.valid_pairs > 0 and cfg.data.valid_files:
            files = expand_files(cfg.data.valid_files, "validation")
            self.sets = load_validation_pairs(files, cfg.data.valid_pairs, cfg.seed)

    def encode(self, model: ContextEncoder, texts: list[str]) -> np.ndarray:
        length = self.cfg.context.max_sentence_tokens + 2
        return encode_batched(model, model, self.tokenizer, texts, model.output_dim, length)

    def __call__(self, model: ContextEncoder, sample_size: int | None = None) -> dict[str, float]:
        metrics: dict[str, float] = {}
        m = self.cfg.mining
        precisions, p1 = [], []
        for name, src, tgt in self.sets:
            a, b = self.encode(model, src), self.encode(model, tgt)
            score = xsr_scores(a, b)["p_at_1"]
            rng = np.random.default_rng(self.cfg.seed)
            precision = mining_precision(a, b, sample_size or m.sample_size, m.csls_k, m.pairs_per_round, rng)
            metrics[f"valid_xsr_p_at_1/{name}"] = score
            metrics[f"mined_precision/{name}"] = precision
            p1.append(score)
            precisions.append(precision)
        if self.sets:
            metrics["valid_xsr_p_at_1"] = float(np.mean(p1))
            metrics["mined_precision"] = float(np.mean(precisions))
            # the m the gold precision really used: at most the number of gold pairs per file
            metrics["mined_precision_m"] = min(
                sample_size or m.sample_size, min(len(s) for _, s, _ in self.sets)
            )
        return metrics

    def texts(self) -> set[str]:
        return {t for _, src, tgt in self.sets for t in (*src, *tgt)}


def _mine(
    cfg: MonolingualConfig,
    model: ContextEncoder,
    corpus: TokenizedCorpus,
    evaluator: StageEvaluator,
    stage_index: int,
) -> tuple[MinedPairs, np.ndarray, np.ndarray]:
    """Encode a seeded sample of each language and mine pseudo-parallel pairs among them.

    Returns the pairs, plus the encoded sentence indices and their unit vectors (for random replacements)."""
    m = cfg.mining
    rng = np.random.default_rng([cfg.seed, stage_index, 1])
    pools: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    all_indices, all_vectors = [], []
    for li in range(len(corpus.languages)):
        indices = corpus.indices_of(li)
        if len(indices) > m.pool_size:
            indices = np.sort(rng.choice(indices, size=m.pool_size, replace=False))
        vectors = normalize_rows(evaluator.encode(model, [corpus.texts[i] for i in indices]))
        pools[li] = (indices, vectors)
        all_indices.append(indices)
        all_vectors.append(vectors)
    english = (
        corpus.languages.index("en") if m.language_pairs == "english" and "en" in corpus.languages else None
    )
    mined = mine_pseudo_pairs(pools, m.sample_size, m.csls_k, m.pairs_per_round, m.target_pairs, rng, english)
    return mined, np.concatenate(all_indices), np.concatenate(all_vectors)


def regression_examples(
    mined: MinedPairs,
    pool_indices: np.ndarray,
    pool_vectors: np.ndarray,
    batch_size: int,
    mined_share: float,
    rng: np.random.Generator,
    random_score: str = "cosine",
) -> ContextExamples:
    """One batch of coherence-regression examples (paper 001, Sec. 3.2): ``middle`` replaces ``center`` and the
    target is cos(Enc(middle), Enc(center)) from the mining step. A share ``mined_share`` are mined partners
    (either direction of a pair); the rest, half each, are the center itself (score 1) and a random encoded
    sentence of any language (its cosine)."""
    n_mined = max(1, round(batch_size * mined_share)) if len(mined) else 0
    n_self = (batch_size - n_mined) // 2
    n_random = batch_size - n_mined - n_self
    rows = rng.integers(0, len(mined), size=n_mined) if n_mined else np.zeros(0, np.int64)
    flip = rng.random(n_mined) < 0.5
    center = np.where(flip, mined.b[rows], mined.a[rows])
    middle = np.where(flip, mined.a[rows], mined.b[rows])
    target = mined.cosine[rows].astype(np.float32)
    self_pos = rng.integers(0, len(pool_indices), size=n_self)
    rand_c = rng.integers(0, len(pool_indices), size=n_random)
    rand_m = rng.integers(0, len(pool_indices), size=n_random)
    rand_score = np.sum(pool_vectors[rand_c] * pool_vectors[rand_m], axis=1)
    if random_score == "zero":
        rand_score = np.where(rand_c == rand_m, 1.0, 0.0)
    return ContextExamples(
        np.concatenate([center, pool_indices[self_pos], pool_indices[rand_c]]),
        np.concatenate([middle, pool_indices[self_pos], pool_indices[rand_m]]),
        np.concatenate([target, np.ones(n_self, np.float32), rand_score.astype(np.float32)]),
    )


def corpus_fingerprint(data: TokenizedCorpus) -> str:
    """What mined pairs' sentence indices refer to: the languages and every sentence, in order."""
    digest = hashlib.blake2b(digest_size=16)
    digest.update("\0".join(data.languages).encode())
    for text in data.texts:
        digest.update(text.encode("utf-8") + b"\0")
    return digest.hexdigest()


def _save_mined(
    path: Path, mined: MinedPairs, pool_indices: np.ndarray, pool_vectors: np.ndarray, fingerprint: str
) -> None:
    with atomic_path(path) as tmp, open(tmp, "wb") as fh:
        np.savez(
            fh,
            corpus=np.asarray(fingerprint),
            a=mined.a,
            b=mined.b,
            lang_a=mined.lang_a,
            lang_b=mined.lang_b,
            csls=mined.csls,
            cosine=mined.cosine,
            rounds=np.asarray(mined.rounds),
            pool_indices=pool_indices,
            pool_vectors=pool_vectors,
        )


def _load_mined(path: Path, fingerprint: str) -> tuple[MinedPairs, np.ndarray, np.ndarray]:
    with np.load(path, allow_pickle=False) as data:
        if "corpus" not in data or str(data["corpus"]) != fingerprint:
            raise LinguaLiteError(
                f"{path}: mined for another corpus (data files, languages or caps changed); "
                "resume with the run's own config, or start a new --output"
            )
        mined = MinedPairs(
            data["a"],
            data["b"],
            data["lang_a"],
            data["lang_b"],
            data["csls"],
            data["cosine"],
            int(data["rounds"]),
        )
        return mined, data["pool_indices"], data["pool_vectors"]


def _mined_summary(mined: MinedPairs, corpus: TokenizedCorpus) -> dict[str, Any]:
    langs = corpus.languages
    per_pair: dict[str, int] = {}
    for la, lb in zip(mined.lang_a, mined.lang_b, strict=True):
        key = f"{langs[la]}-{langs[lb]}"
        per_pair[key] = per_pair.get(key, 0) + 1
    return {
        "mined_pairs": len(mined),
        "mining_rounds": mined.rounds,
        "mined_cosine_mean": round(float(np.mean(mined.cosine)), 4) if len(mined) else None,
        "mined_per_language_pair": per_pair,
    }


def train_monolingual(
    cfg: MonolingualConfig,
    output: str | Path,
    resume: bool = False,
    progress: bool = True,
    threads: int | None = None,
    step_scale: float = 1.0,
) -> MonolingualResult:
    """Run paper 001's two stages; see the module docstring.

    :param resume: continue from the newest checkpoint of the latest stage begun.
    :param threads: PyTorch CPU threads (None: one per core).
    :param step_scale: multiply every stage's step count (e.g. 0.1 for a quick look); the schedules follow.
    """
    if threads is not None and threads < 1:
        raise LinguaLiteError(f"threads must be >= 1, got {threads}")
    if step_scale <= 0:
        raise LinguaLiteError(f"step_scale must be > 0, got {step_scale}")
    previous_threads = torch.get_num_threads()
    if threads is not None:
        torch.set_num_threads(threads)
    try:
        return _train(cfg, Path(output), resume, progress, step_scale)
    finally:
        torch.set_num_threads(previous_threads)


def _train(
    cfg: MonolingualConfig, out: Path, resume: bool, progress: bool, step_scale: float
) -> MonolingualResult:
    out.mkdir(parents=True, exist_ok=True)
    names = stage_names(cfg)
    started = [n for n in names if list_checkpoints(out / "checkpoints" / n)]
    if started and not resume:
        raise LinguaLiteError(
            f"{out}: holds checkpoints of an earlier run; pass --resume, or choose a new --output"
        )
    t_start = time.perf_counter()
    summary: dict[str, Any] = {"mode": "monolingual", "paper": "Wang et al., paper 001"}

    train_files = expand_files(cfg.data.train_files, "training")
    if cfg.data.valid_files:
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
    if resume and config_path.exists():
        before = yaml.safe_load(config_path.read_text()) or {}
        changed = sorted(k for k, v in cfg.to_dict().items() if before.get(k) != v)
        if changed:
            logger.warning("resuming with a changed config (sections %s); finished stages are kept", changed)
    if not resume:
        shutil.rmtree(out / "mined", ignore_errors=True)
    config_path.write_text(yaml.safe_dump(cfg.to_dict(), sort_keys=False))

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
                mined, pool_indices, pool_vectors = _load_mined(mined_path, fingerprint)
            else:
                mined, pool_indices, pool_vectors = _mine(cfg, model, data, evaluator, index)
                if len(mined) < cfg.mining.target_pairs:
                    logger.warning(
                        "%s: mining stopped at %d of %d pairs after %d rounds (the pools hold too few new pairs)",
                        name,
                        len(mined),
                        cfg.mining.target_pairs,
                        mined.rounds,
                    )
                _save_mined(mined_path, mined, pool_indices, pool_vectors, fingerprint)
            row.update(_mined_summary(mined, data))
            row["mining_seconds"] = round(time.perf_counter() - t0, 1)
            if len(mined) == 0:
                raise LinguaLiteError(
                    f"{name}: mining found no pairs; raise mining.sample_size or the corpus size"
                )
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
        logger.info("%s: %s", name, {k: v for k, v in row.items() if "/" not in k})

    if not ran_any:  # every stage finished in an earlier call: export the last stage's weights
        load_model(model, str(list_checkpoints(out / "checkpoints" / names[-1])[-1] / "model.safetensors"))
    export_into(out, lambda folder: save_context_encoder(model, tokenizer, folder))
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


def _append(path: Path, row: dict[str, Any]) -> None:
    with path.open("a") as fh:
        fh.write(json.dumps(row) + "\n")


def _alignment_loss(
    model: ContextEncoder,
    loss_fn: SentenceAlignmentLoss,
    data: TokenizedCorpus,
    mined: MinedPairs,
    batch_size: int,
    rng: np.random.Generator,
    cfg: MonolingualConfig,
) -> torch.Tensor:
    """Beyond paper 001 (``regression.alignment_weight``): each of ``batch_size`` mined pairs must pick its
    partner among the batch's, both directions (paper 000, Eq. 5), on single-sentence vectors."""
    rows = rng.choice(len(mined), size=min(batch_size, len(mined)), replace=False)
    inputs = [data.sentence_input(int(i)) for i in mined.a[rows]] + [
        data.sentence_input(int(i)) for i in mined.b[rows]
    ]
    ids, mask = pad_batch(inputs, data.pad_id, cfg.context.max_sentence_tokens + 2)
    return loss_fn(EncoderOutput(embeddings=model(ids, mask), site_log_probs=None), None)


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
    if start == 0:  # dropout noise of a stage depends on (seed, stage) only, resumed or not
        torch.manual_seed(cfg.seed * 1000 + index)
    elif log_path.exists():  # drop this stage's log lines after the checkpoint we continue from
        rows = [json.loads(line) for line in log_path.read_text().splitlines() if line.strip()]
        kept = [r for r in rows if r["stage"] != name or r["step"] <= start]
        log_path.write_text("".join(json.dumps(r) + "\n" for r in kept))
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
                alignment = _alignment_loss(model, align_fn, data, mined, optim_cfg.batch_size, rng, cfg)
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
