"""The input of one training step on parallel pairs: the tensors the dual encoder and the objectives read.

A batch of B pairs is 2B rows (side a first, then side b), padded to the longest row of THIS batch, plus the
prediction sites of a generative objective and the sparse bag of tokens of each row's translation (XTR's q,
paper 000 Eq. 3). :class:`lingualite.training.collator.PairCollator` builds it from token ids.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

import torch

POOLED_SITE = -1
"""Column index of a prediction site that reads the mean-pooled sentence state instead of one token state."""


@dataclass
class PairBatch:
    """Tensors for one step. Rows 0..B-1 hold side a, rows B..2B-1 side b; row r's partner is (r + B) % 2B."""

    input_ids: torch.Tensor  # (2B, T) with [MASK] substituted at masked positions
    attention_mask: torch.Tensor  # (2B, T)
    site_rows: torch.Tensor  # (S,) row of each prediction site
    site_cols: torch.Tensor  # (S,) column of the site, or POOLED_SITE for the mean-pooled state
    site_labels: torch.Tensor  # (S,) original token at a masked site, -100 at a pooled site
    bag_rows: torch.Tensor  # (K,) row whose translation contains the token
    bag_tokens: torch.Tensor  # (K,)
    bag_weights: torch.Tensor  # (K,) q of Eq. 3; sums to 1 per row

    @property
    def num_pairs(self) -> int:
        return self.input_ids.shape[0] // 2

    def to(self, device: torch.device | str, non_blocking: bool = False) -> PairBatch:
        """On ``device`` (``non_blocking``: an asynchronous copy from pinned memory to a GPU)."""
        return PairBatch(
            **{f.name: getattr(self, f.name).to(device, non_blocking=non_blocking) for f in fields(self)}
        )
