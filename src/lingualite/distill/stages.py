"""The setup stages of a distillation run, each resumable: vocabulary, teacher vectors, PCA projection.

Each stage records what it did (sizes, timings, fidelity) in the run's ``summary`` dict, which
:func:`lingualite.distill.train.distill` writes to ``distill_summary.json``.
"""

from __future__ import annotations

import json
import logging
import time
from pathlib import Path
from typing import Any

import numpy as np
from transformers import PreTrainedTokenizerFast

from lingualite.distill.config import DistillConfig
from lingualite.distill.pca import (
    Projection,
    cosine_fidelity,
    fit_projection,
    load_projection,
    save_projection,
)
from lingualite.distill.teacher import Teacher, encode_cached
from lingualite.distill.vocabulary import build_vocabulary
from lingualite.errors import LinguaLiteError
from lingualite.io_utils import atomic_dir
from lingualite.tokenization import load_tokenizer
from lingualite.training.dataset import expand_files, read_pairs
from lingualite.training.progress import progress_bar

logger = logging.getLogger(__name__)


def prepare_vocabulary(
    cfg: DistillConfig, out: Path, resume: bool, summary: dict[str, Any]
) -> PreTrainedTokenizerFast:
    """A given tokenizer, the run's own (reused when its recorded settings match), or a new one."""
    voc = cfg.vocabulary
    if voc.path:
        tokenizer = load_tokenizer(voc.path)
        summary["vocabulary"] = {"path": voc.path, "size": len(tokenizer)}
        return tokenizer
    folder, record_path = out / "tokenizer", out / "tokenizer" / "lingualite_vocabulary.json"
    settings = {
        **cfg.to_dict()["vocabulary"],
        "files": voc.files or cfg.data.train_files,
        "seed": cfg.optim.seed,
    }
    if (folder / "tokenizer.json").exists() and record_path.exists():
        record = json.loads(record_path.read_text())
        if resume or record.get("settings") == settings:
            summary["vocabulary"] = {**record["summary"], "reused": True}
            return load_tokenizer(folder)
    texts = read_pairs(expand_files(voc.files or cfg.data.train_files, "vocabulary")).texts
    tokenizer, sample = build_vocabulary(
        texts, voc.size, voc.kind, voc.alpha, voc.sample_size, voc.lowercase, cfg.optim.seed
    )
    info = {
        "kind": voc.kind,
        "size": len(tokenizer),
        "requested_size": voc.size,
        "alpha": voc.alpha,
        "sentences_per_language": sample.counts,
        "distinct_sentences_per_language": {lang: len(t) for lang, t in texts.items()},
        "shares": {lang: round(s, 4) for lang, s in sample.shares.items()},
    }
    with atomic_dir(folder) as tmp:
        tokenizer.save_pretrained(str(tmp))
        (tmp / "lingualite_vocabulary.json").write_text(json.dumps({"settings": settings, "summary": info}))
    summary["vocabulary"] = info
    return tokenizer


def teacher_vectors(
    teacher: Teacher, texts: list[str], cache_dir: Path, what: str, progress: bool, summary: dict[str, Any]
) -> np.ndarray:
    t0 = time.perf_counter()
    with progress_bar(f"teacher ({what})", progress) as bar:
        task = bar.add_task(what, total=len(texts), info="")
        vectors = encode_cached(teacher, texts, cache_dir, lambda done, _: bar.update(task, completed=done))
    seconds = time.perf_counter() - t0
    summary.setdefault("teacher_encoding", {})[what] = {
        "sentences": len(texts),
        "seconds": round(seconds, 2),
        "sentences_per_second": round(len(texts) / max(seconds, 1e-9), 1),
    }
    logger.info(
        "teacher %s: %d %s sentences -> %s in %.0f s", teacher.name, len(texts), what, vectors.shape, seconds
    )
    return vectors


def prepare_projection(
    cfg: DistillConfig, vectors: np.ndarray, out: Path, resume: bool, summary: dict[str, Any]
) -> Projection | None:
    """Fit PCA on (a seeded sample of) the training teacher vectors, or reload ``out/pca`` on resume."""
    if not cfg.pca.enabled:
        summary["pca"] = {"enabled": False, "dim": int(vectors.shape[1])}
        return None
    folder = out / "pca"
    if resume and (folder / "config.json").exists():
        projection = load_projection(folder)
        summary["pca"] = {"enabled": True, "reloaded": True, "dim": projection.out_dim}
        return projection
    rng = np.random.default_rng(cfg.optim.seed)
    fit_on = vectors
    if len(vectors) > cfg.pca.fit_sentences:
        fit_on = vectors[np.sort(rng.choice(len(vectors), cfg.pca.fit_sentences, replace=False))]
    try:
        projection, _ = fit_projection(fit_on, cfg.pca.dim, center=cfg.pca.center, seed=cfg.optim.seed)
    except ValueError as exc:
        raise LinguaLiteError(str(exc)) from exc
    fidelity = cosine_fidelity(vectors, projection, seed=cfg.optim.seed)
    save_projection(projection, folder)
    method = "centred PCA (bias = -W mean)" if cfg.pca.center else "uncentred PCA (TruncatedSVD, no bias)"
    logger.info(
        "reduced %d -> %d with %s: explained variance %.3f, kept %.3f of the squared norm, "
        "cosine correlation with the full vectors %.3f",
        projection.in_dim,
        projection.out_dim,
        method,
        projection.explained_variance,
        projection.kept_energy,
        fidelity,
    )
    summary["pca"] = {
        "enabled": True,
        "method": method,
        "from_dim": projection.in_dim,
        "dim": projection.out_dim,
        "fitted_on": len(fit_on),
        "explained_variance": round(projection.explained_variance, 4),
        "kept_energy": round(projection.kept_energy, 4),
        "cosine_correlation": round(fidelity, 4),
    }
    return projection
