"""Validation during training: every recipe's validator is ``validator(model) -> dict`` (see
:data:`lingualite.training.loop.Validator`), and they share the cross-lingual retrieval part here.

XSR P@1 (each held-out source finds its own translation among the file's targets by cosine, both
directions; paper 000 Sec. 4.3) says whether the languages share one space, which every recipe is for.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from torch import nn

from lingualite.data.pairs import load_validation_pairs
from lingualite.vectors.retrieval import xsr_scores

Encode = Callable[[Any, list[str]], np.ndarray]
"""``encode(model, texts) -> (N, d)`` float32 sentence vectors, as the exported model computes them."""


class RetrievalValidation:
    """XSR P@1 per validation file (``valid_xsr_p_at_1/<name>``) and their mean (``valid_xsr_p_at_1``); for a
    Matryoshka run also the mean at each shorter trained size, on the renormalised prefixes
    (``valid_xsr_p_at_1@64``).

    :param sets: ``(name, sources, targets)`` with unique sides (:func:`lingualite.data.pairs.load_validation_pairs`).
    :param encode: how the model under training turns sentences into vectors.
    :param dims: the run's ``matryoshka_dims`` (sizes at or above the vectors' dimension are skipped).
    """

    def __init__(
        self, sets: list[tuple[str, list[str], list[str]]], encode: Encode, dims: Sequence[int] | None = None
    ) -> None:
        self.sets, self.encode, self.dims = sets, encode, list(dims or [])

    @classmethod
    def from_files(
        cls, files: list[Path], per_file: int, seed: int, encode: Encode, dims: Sequence[int] | None = None
    ) -> RetrievalValidation:
        return cls(load_validation_pairs(files, per_file, seed) if per_file > 0 else [], encode, dims)

    def vectors(self, model: nn.Module) -> list[tuple[str, np.ndarray, np.ndarray]]:
        """Each set's source and target vectors (recipes that add metrics of their own reuse them)."""
        return [(name, self.encode(model, src), self.encode(model, tgt)) for name, src, tgt in self.sets]

    def __call__(self, model: nn.Module) -> dict[str, float]:
        return self.scores(self.vectors(model))

    def scores(self, vectors: list[tuple[str, np.ndarray, np.ndarray]]) -> dict[str, float]:
        metrics: dict[str, float] = {}
        for name, a, b in vectors:
            metrics[f"valid_xsr_p_at_1/{name}"] = xsr_scores(a, b)["p_at_1"]
        if vectors:
            metrics["valid_xsr_p_at_1"] = float(
                np.mean([metrics[f"valid_xsr_p_at_1/{n}"] for n, _, _ in vectors])
            )
            width = vectors[0][1].shape[1]
            for dim in (d for d in self.dims if d < width):  # xsr_scores renormalises the prefixes
                at = [xsr_scores(a[:, :dim], b[:, :dim])["p_at_1"] for _, a, b in vectors]
                metrics[f"valid_xsr_p_at_1@{dim}"] = float(np.mean(at))
        return metrics

    def texts(self) -> set[str]:
        return {t for _, src, tgt in self.sets for t in (*src, *tgt)}
