"""Sentence-context classification loss (paper 001, Sec. 3.1, L_ml)."""

from __future__ import annotations

import torch
from torch import nn
from torch.nn import functional as F


class ContextClassificationLoss(nn.Module):
    """L_ml: is x = concat([C_k^-(s_i), s, C_k^+(s_i)]) coherent (s = s_i, y = 1) or not (s random, y = 0)?
    p(y = 1 | x) = sigmoid(M(Enc(x))) with a linear M.

    The paper writes the objective as maximising the probability of the true label; we minimise its
    log-likelihood form, binary cross-entropy (mean over the batch), the usual and better-conditioned choice.
    """

    def forward(self, logits: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
        return F.binary_cross_entropy_with_logits(logits.float(), labels.float())
