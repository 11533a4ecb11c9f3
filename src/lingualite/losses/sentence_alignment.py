"""In-batch sentence alignment loss (paper 000, Eq. 5)."""

from __future__ import annotations

from typing import Literal

import torch
from torch import nn
from torch.nn import functional as F

from lingualite.models.batch import PairBatch
from lingualite.models.dual_encoder import EncoderOutput


def pair_scores(u: torch.Tensor, v: torch.Tensor, similarity: str, scale: float) -> torch.Tensor:
    """Score matrix s[j, k] between u_j and v_k: inner product (the paper) or scaled cosine."""
    if similarity == "cosine":
        return scale * F.normalize(u, dim=-1) @ F.normalize(v, dim=-1).T
    return u @ v.T


class SentenceAlignmentLoss(nn.Module):
    """Eq. 5: -log softmax_k(u_j . v_k)[j] - log softmax_k(u_k . v_j)[j]: each sentence must pick its own
    translation among the B in the batch, in both directions ((B - 1) x 2 negatives per pair).

    The paper sums over the batch; we average over pairs so the weight does not depend on the batch size.
    ``similarity="cosine"`` (with ``scale``, as MultipleNegativesRankingLoss) is an option beyond the paper,
    which uses the raw inner product (footnote 4).

    Relations: the same as sentence-transformers' MultipleNegativesSymmetricRankingLoss with a dot score.
    """

    def __init__(self, similarity: Literal["dot", "cosine"] = "dot", scale: float = 20.0) -> None:
        super().__init__()
        self.similarity, self.scale = similarity, scale

    def forward(self, output: EncoderOutput, batch: PairBatch) -> torch.Tensor:
        scores = pair_scores(output.u.float(), output.v.float(), self.similarity, self.scale)
        target = torch.arange(scores.shape[0], device=scores.device)
        return F.cross_entropy(scores, target) + F.cross_entropy(scores.T, target)
