"""Turn tokenized parallel pairs into the tensors the dual encoder and the objectives need.

A batch of B pairs becomes 2B rows (side a first, then side b), padded only to the longest row of THIS batch.
Masking depends on the generative objective: none (XTR), one token per sentence (SMLM, UGT: Sabet et al.
2019) or BERT's 15% (MLM, MLM+XTR). The bag of tokens of each row's translation (XTR's q, Eq. 3) is built
sparse: (row, token, weight) triplets, never a (2B, V) dense matrix.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Literal

import torch
from transformers import PreTrainedTokenizerBase

from lingualite.models.batch import POOLED_SITE, PairBatch

Masking = Literal["none", "single", "bert"]
BagWeighting = Literal["unique", "frequency"]


class PairCollator:
    """Pads pairs and applies the masking of a generative objective.

    :param pad_id, mask_id: ids of [PAD] and [MASK].
    :param special_ids: ids never masked and never put in a bag ([CLS], [SEP], [PAD], ...).
    :param masking: ``none`` | ``single`` (exactly one token per sentence) | ``bert`` (15%, 80/10/10).
    :param pooled_sites: with ``masking="none"``, predict from the pooled state (one site per row).
    :param bag: ``unique`` gives every distinct token of the translation the same weight (the paper's
        implementation, footnote 3: N_w = 1); ``frequency`` uses N_w / ||S|| (Eq. 3 as written).
    """

    def __init__(
        self,
        pad_id: int,
        mask_id: int,
        vocab_size: int,
        special_ids: Sequence[int],
        masking: Masking = "single",
        pooled_sites: bool = False,
        bag: BagWeighting | None = "unique",
        mask_probability: float = 0.15,
    ) -> None:
        self.pad_id, self.mask_id, self.vocab_size = pad_id, mask_id, vocab_size
        self.special = torch.zeros(vocab_size, dtype=torch.bool)
        self.special[list(special_ids)] = True
        self.masking, self.pooled_sites, self.bag = masking, pooled_sites, bag
        self.mask_probability = mask_probability

    @classmethod
    def from_tokenizer(cls, tokenizer: PreTrainedTokenizerBase, **settings: Any) -> PairCollator:
        """A collator for ``tokenizer``'s special ids; ``settings`` from ``CombinedLoss.collator_settings()``."""
        return cls(
            pad_id=tokenizer.pad_token_id,
            mask_id=tokenizer.mask_token_id,
            vocab_size=len(tokenizer),
            special_ids=tokenizer.all_special_ids,
            **settings,
        )

    def __call__(
        self, pairs: Sequence[tuple[Iterable[int], Iterable[int]]], generator: torch.Generator | None = None
    ) -> PairBatch:
        rows = [list(a) for a, _ in pairs] + [list(b) for _, b in pairs]
        n, length = len(rows), max(len(r) for r in rows)
        ids = torch.full((n, length), self.pad_id, dtype=torch.long)
        attention = torch.zeros((n, length), dtype=torch.long)
        for i, r in enumerate(rows):
            ids[i, : len(r)] = torch.tensor(r, dtype=torch.long)
            attention[i, : len(r)] = 1
        original = ids.clone()
        maskable = attention.bool() & ~self.special[ids]
        site_rows, site_cols = self._choose_sites(maskable, generator)
        if self.masking != "none":
            site_labels = original[site_rows, site_cols]
            self._corrupt(ids, site_rows, site_cols, generator)
        else:
            site_labels = torch.full_like(site_rows, -100)
        bag_rows, bag_tokens, bag_weights = self._bags(original, maskable)
        return PairBatch(ids, attention, site_rows, site_cols, site_labels, bag_rows, bag_tokens, bag_weights)

    def _choose_sites(
        self, maskable: torch.Tensor, generator: torch.Generator | None
    ) -> tuple[torch.Tensor, torch.Tensor]:
        n = maskable.shape[0]
        if self.masking == "none":
            if not self.pooled_sites:
                empty = torch.zeros(0, dtype=torch.long)
                return empty, empty
            return torch.arange(n), torch.full((n,), POOLED_SITE, dtype=torch.long)
        noise = torch.rand(maskable.shape, generator=generator)
        noise = noise.masked_fill(~maskable, -1.0)
        # A row with no maskable token (only specials) gets its site on [CLS]: rare, keeps shapes simple.
        single = noise.argmax(dim=1)
        if self.masking == "single":
            return torch.arange(n), single
        chosen = (noise >= 1.0 - self.mask_probability) & maskable
        chosen[torch.arange(n), single] = True  # at least one masked token per sentence
        rows, cols = chosen.nonzero(as_tuple=True)
        return rows, cols

    def _corrupt(
        self, ids: torch.Tensor, rows: torch.Tensor, cols: torch.Tensor, generator: torch.Generator | None
    ) -> None:
        if self.masking == "single":
            ids[rows, cols] = self.mask_id
            return
        # BERT: 80% [MASK], 10% random token, 10% unchanged.
        action = torch.rand(rows.shape, generator=generator)
        random_tokens = torch.randint(self.vocab_size, rows.shape, generator=generator)
        replaced = torch.where(action < 0.8, torch.full_like(rows, self.mask_id), ids[rows, cols])
        replaced = torch.where((action >= 0.8) & (action < 0.9), random_tokens, replaced)
        ids[rows, cols] = replaced

    def _bags(
        self, original: torch.Tensor, maskable: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        if self.bag is None:
            empty = torch.zeros(0, dtype=torch.long)
            return empty, empty, torch.zeros(0)
        n = original.shape[0]
        partner = (torch.arange(n) + n // 2) % n
        row_index = partner.unsqueeze(1).expand_as(
            original
        )  # token of row p belongs to the bag of p's partner
        keys = (row_index * self.vocab_size + original)[maskable]
        keys, counts = torch.unique(keys, return_counts=True)  # sorted by (row, token)
        rows, tokens = keys // self.vocab_size, keys % self.vocab_size
        counts = counts.float() if self.bag == "frequency" else torch.ones_like(counts, dtype=torch.float32)
        totals = torch.zeros(n).index_add_(0, rows, counts)
        return rows, tokens, counts / totals[rows]
