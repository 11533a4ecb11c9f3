"""Matryoshka Representation Learning (Kusupati et al., NeurIPS 2022, Eq. 1) over paper 000's sentence losses.

The loss of a batch is ``sum_d w_d L(prefix_d(u), prefix_d(v))`` over the configured sizes ``d``
(``matryoshka_dims``), where ``prefix_d`` keeps the first ``d`` components of every sentence vector and
L2-renormalises them, so that the vectors stay good when a user truncates them
(:func:`lingualite.vectors.truncation.truncate`). It is the idea, and the ``shrink`` function, of sentence-transformers'
``MatryoshkaLoss``, applied to vectors lingualite's own loop already computed (``MatryoshkaLoss`` itself wraps
a ``SentenceTransformer`` forward, which lingualite's dual encoder is not during training).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import torch
from torch import nn

from lingualite.losses.sentence_level import SentenceLosses
from lingualite.models.batch import PairBatch
from lingualite.models.dual_encoder import EncoderOutput


def matryoshka_terms(dims: Sequence[int], weights: Sequence[float] | None = None) -> list[tuple[int, float]]:
    """``(d, w_d)`` largest ``d`` first, weights 1 when not given (``MatryoshkaLoss``'s defaults)."""
    if not dims or any(d < 1 for d in dims):
        raise ValueError(f"matryoshka_dims must be positive sizes, got {list(dims)}")
    weights = [1.0] * len(dims) if weights is None else list(weights)
    if len(weights) != len(dims):
        raise ValueError("matryoshka_weights must have one weight per matryoshka_dims entry")
    return sorted(zip(dims, weights, strict=True), key=lambda dw: -dw[0])


def shrink(vectors: torch.Tensor, dim: int) -> torch.Tensor:
    """The first ``dim`` components, L2-renormalised: sentence-transformers' own rule (error above the
    vectors' dimension)."""
    from sentence_transformers.sentence_transformer.losses.matryoshka import shrink as st_shrink

    return st_shrink(vectors, dim)


class MatryoshkaLoss(nn.Module):
    """``sum_d w_d (a L_align + s L_sim)`` on nested prefixes of u and v (Kusupati et al. 2022, Eq. 1).

    The term of the model's full dimension (when listed, as it should be) is the recipe's usual sentence loss
    on the untouched vectors, so a run keeps its objective and adds the prefix terms. A shorter prefix is
    renormalised (``shrink``) and scored by the scaled cosine ``scale * cos`` whatever ``objective.similarity``
    says: for ``cosine`` that is exactly the objective (as sentence-transformers' ``MatryoshkaLoss`` around
    it); for ``dot`` the inner product of unit prefixes would be an unscaled cosine (temperature 1, a nearly
    flat softmax over the batch), and retrieval compares truncated vectors by cosine anyway.

    Parts: ``alignment``, ``similarity`` (full dimension) and ``alignment@d``, ``similarity@d`` (prefixes).
    """

    def __init__(
        self,
        full: SentenceLosses,
        scale: float,
        dims: Sequence[int],
        weights: Sequence[float] | None = None,
    ) -> None:
        super().__init__()
        self.full = full
        self.prefix = SentenceLosses("cosine", scale, full.weights["alignment"], full.weights["similarity"])
        self.terms = matryoshka_terms(dims, weights)

    def forward(self, output: EncoderOutput, batch: PairBatch) -> dict[str, torch.Tensor]:
        """Every term's parts, each multiplied by its ``w_d`` (the caller applies the objective's weights)."""
        width = output.embeddings.shape[-1]
        parts: dict[str, torch.Tensor] = {}
        for dim, weight in self.terms:
            if dim == width:
                term = self.full(output, batch)
                suffix = ""
            else:
                prefixed = dataclasses.replace(output, embeddings=shrink(output.embeddings, dim))
                term = self.prefix(prefixed, batch)
                suffix = f"@{dim}"
            parts.update({f"{name}{suffix}": weight * value for name, value in term.items()})
        return parts
