"""Cross-lingual token-level reconstruction, XTR (paper 000, Eq. 2-3)."""

from __future__ import annotations

import torch
from torch import nn

from lingualite.losses._targets import require_log_probs, sparse_kl
from lingualite.models.batch import PairBatch
from lingualite.models.dual_encoder import EncoderOutput


class XTRLoss(nn.Module):
    """Eq. 2: KL(q(w_{S_l'}) || p(h_{S_l})) for both directions, where q (Eq. 3) spreads the mass over the
    tokens of the translation S_l' (uniformly over distinct tokens by default, as the paper's footnote 3).

    p is read from the mean-pooled state of the unmasked sentence. The paper writes D_KL(p || q), which is
    undefined where q is 0; like every KL-based label loss (and torch's ``KLDivLoss``) we use KL(q || p).
    Summed over both sides of a pair, averaged over pairs.

    Requirements: batches with ``masking="none"``, ``pooled_sites=True`` and bags.
    """

    masking = "none"
    pooled_sites = True
    bag = "unique"

    def forward(self, output: EncoderOutput, batch: PairBatch) -> torch.Tensor:
        log_probs = require_log_probs(output.site_log_probs, "XTRLoss")
        kl = sparse_kl(log_probs, batch.bag_rows, batch.bag_tokens, batch.bag_weights)
        return kl.sum() / batch.num_pairs
