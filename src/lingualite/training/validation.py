"""Validation during training: every recipe's validator is ``validator(model) -> dict`` (see
:data:`lingualite.training.loop.Validator`), and they share the cross-lingual retrieval part here.

XSR P@1 (each held-out source finds its own translation among the file's targets by cosine, both
directions; paper 000 Sec. 4.3) says whether the languages share one space, which every recipe is for.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from torch import nn

from lingualite.data.pairs import load_validation_pairs
from lingualite.retrieval import xsr_scores

Encode = Callable[[Any, list[str]], np.ndarray]
"""``encode(model, texts) -> (N, d)`` float32 sentence vectors, as the exported model computes them."""


class RetrievalValidation:
    """XSR P@1 per validation file (``valid_xsr_p_at_1/<name>``) and their mean (``valid_xsr_p_at_1``).

    :param sets: ``(name, sources, targets)`` with unique sides (:func:`lingualite.data.pairs.load_validation_pairs`).
    :param encode: how the model under training turns sentences into vectors.
    """

    def __init__(self, sets: list[tuple[str, list[str], list[str]]], encode: Encode) -> None:
        self.sets, self.encode = sets, encode

    @classmethod
    def from_files(cls, files: list[Path], per_file: int, seed: int, encode: Encode) -> RetrievalValidation:
        return cls(load_validation_pairs(files, per_file, seed) if per_file > 0 else [], encode)

    def vectors(self, model: nn.Module) -> list[tuple[str, np.ndarray, np.ndarray]]:
        """Each set's source and target vectors (recipes that add metrics of their own reuse them)."""
        return [(name, self.encode(model, src), self.encode(model, tgt)) for name, src, tgt in self.sets]

    def __call__(self, model: nn.Module) -> dict[str, float]:
        return self.scores(self.vectors(model))

    @staticmethod
    def scores(vectors: list[tuple[str, np.ndarray, np.ndarray]]) -> dict[str, float]:
        metrics: dict[str, float] = {}
        for name, a, b in vectors:
            metrics[f"valid_xsr_p_at_1/{name}"] = xsr_scores(a, b)["p_at_1"]
        if vectors:
            metrics["valid_xsr_p_at_1"] = float(
                np.mean([metrics[f"valid_xsr_p_at_1/{n}"] for n, _, _ in vectors])
            )
        return metrics

    def texts(self) -> set[str]:
        return {t for _, src, tgt in self.sets for t in (*src, *tgt)}
