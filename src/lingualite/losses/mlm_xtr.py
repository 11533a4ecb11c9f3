"""MLM + XTR, the unified task with BERT masking instead of SMLM (paper 000, Table 6 ablation)."""

from __future__ import annotations

import torch
from torch import nn

from lingualite.losses._targets import require_log_probs, rows_bag_for_sites, sparse_kl
from lingualite.models.batch import PairBatch
from lingualite.models.dual_encoder import EncoderOutput


class MLMXTRLoss(nn.Module):
    """Eq. 4 applied at every BERT-masked position: q = 1/2 on the original token + 1/2 over the translation's
    tokens. Averaged over masked positions (as MLM).

    Requirements: batches with ``masking="bert"`` and bags.
    """

    masking = "bert"
    pooled_sites = False
    bag = "unique"

    def forward(self, output: EncoderOutput, batch: PairBatch) -> torch.Tensor:
        log_probs = require_log_probs(output.site_log_probs, "MLMXTRLoss")
        num_sites = batch.site_rows.shape[0]
        own_sites = torch.arange(num_sites, device=log_probs.device)
        bag_sites, bag_tokens, bag_weights = rows_bag_for_sites(
            batch.site_rows, batch.bag_rows, batch.bag_tokens, batch.bag_weights
        )
        sites = torch.cat([own_sites, bag_sites])
        tokens = torch.cat([batch.site_labels, bag_tokens])
        weights = torch.cat([bag_weights.new_full((num_sites,), 0.5), 0.5 * bag_weights])
        return sparse_kl(log_probs, sites, tokens, weights).mean()
