"""Validation after every stage of the monolingual mode: the mining rule's precision on gold pairs and XSR P@1.

The gold pairs are held-out parallel pairs (never trained on). Mining precision samples m of each side
independently, as mining samples two monolingual corpora, and keeps the top min(m * m, per_round) CSLS pairs
(:func:`lingualite.mining.mining_precision`); XSR is nearest-neighbour P@1 over all pairs of a file.
"""

from __future__ import annotations

import numpy as np
from transformers import PreTrainedTokenizerFast

from lingualite.distill.validation import load_validation_pairs
from lingualite.evaluation.retrieval import xsr_scores
from lingualite.mining.pseudo_pairs import mining_precision
from lingualite.models.context_encoder import ContextEncoder
from lingualite.models.encoding import encode_batched
from lingualite.monolingual.config import MonolingualConfig
from lingualite.training.dataset import expand_files


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
