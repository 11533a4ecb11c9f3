"""Tokenized parallel pairs in memory, and a deterministic length-bucketed batch order.

Pairs are tokenized once (fast tokenizers, batched) into int32 arrays: ~100 bytes per pair. Batches are
drawn from shuffled buckets of similar length so padding stays small; the order for global step s is a pure
function of (seed, s), which makes ``--resume`` continue exactly and lets every DDP rank compute its share.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

import numpy as np
from transformers import PreTrainedTokenizerFast

from lingualite.core.errors import LinguaLiteError


class RaggedIds:
    """Token-id sequences of varying length in one flat int32 array plus offsets (~4 bytes per token;
    a list of small numpy arrays costs ~120 bytes of overhead per sentence)."""

    def __init__(self, flat: np.ndarray, offsets: np.ndarray) -> None:
        self.flat, self.offsets = flat, offsets

    @classmethod
    def from_lists(cls, sequences: list[list[int]]) -> RaggedIds:
        lengths = np.fromiter((len(x) for x in sequences), np.int64, len(sequences))
        offsets = np.zeros(len(sequences) + 1, dtype=np.int64)
        np.cumsum(lengths, out=offsets[1:])
        flat = np.fromiter((t for x in sequences for t in x), np.int32, int(offsets[-1]))
        return cls(flat, offsets)

    @classmethod
    def concat(cls, parts: list[RaggedIds]) -> RaggedIds:
        if not parts:
            return cls(np.zeros(0, np.int32), np.zeros(1, np.int64))
        shifts = np.cumsum([0] + [len(p.flat) for p in parts[:-1]])
        offsets = np.concatenate(
            [parts[0].offsets[:1]] + [p.offsets[1:] + s for p, s in zip(parts, shifts, strict=True)]
        )
        return cls(np.concatenate([p.flat for p in parts]), offsets)

    def __len__(self) -> int:
        return len(self.offsets) - 1

    def __getitem__(self, i: int) -> np.ndarray:
        return self.flat[self.offsets[i] : self.offsets[i + 1]]

    def lengths(self) -> np.ndarray:
        return np.diff(self.offsets)


@dataclass
class TokenizedPairs:
    """Token ids of both sides of every pair (with [CLS] ... [SEP]), stored flat."""

    a_ids: RaggedIds
    b_ids: RaggedIds

    @classmethod
    def build(
        cls, pairs: list[tuple[str, str]], tokenizer: PreTrainedTokenizerFast, max_length: int
    ) -> TokenizedPairs:
        # The Rust tokenizer directly: transformers' Python wrapper costs ~10x more per sentence here.
        backend = copy.deepcopy(tokenizer.backend_tokenizer)
        backend.enable_truncation(max_length)
        backend.no_padding()

        def ids(texts: list[str]) -> RaggedIds:
            parts = [
                RaggedIds.from_lists([e.ids for e in backend.encode_batch(texts[start : start + 20_000])])
                for start in range(0, len(texts), 20_000)
            ]
            return RaggedIds.concat(parts)

        return cls(ids([a for a, _ in pairs]), ids([b for _, b in pairs]))

    def __len__(self) -> int:
        return len(self.a_ids)

    def lengths(self) -> np.ndarray:
        return np.maximum(self.a_ids.lengths(), self.b_ids.lengths())

    def select(self, indices: np.ndarray | list[int] | range) -> list[tuple[np.ndarray, np.ndarray]]:
        return [(self.a_ids[i], self.b_ids[i]) for i in indices]


class BucketedBatches:
    """Epoch-wise shuffled batches of similar length; ``batch(step)`` is deterministic in (seed, step).

    With ``groups`` (e.g. one per language pair) every batch comes from a single group, so the in-batch
    negatives of the contrastive losses are in the same languages as the positive: harder, more useful.
    """

    def __init__(
        self,
        lengths: np.ndarray,
        batch_size: int,
        seed: int,
        bucket_size: int = 50,
        groups: np.ndarray | None = None,
    ) -> None:
        if len(lengths) < batch_size:
            raise LinguaLiteError(
                f"only {len(lengths)} training pairs for a batch size of {batch_size}: lower optim.batch_size"
            )
        self.lengths, self.batch_size, self.seed, self.bucket_size = lengths, batch_size, seed, bucket_size
        self.groups = groups if groups is not None else np.zeros(len(lengths), dtype=np.int32)
        self._epoch: int | None = None
        self._order: list[np.ndarray] = []

    def _epoch_batches(self, epoch: int) -> list[np.ndarray]:
        rng = np.random.default_rng([self.seed, epoch])
        chunk = self.batch_size * self.bucket_size
        batches: list[np.ndarray] = []
        for group in np.unique(self.groups):
            members = np.flatnonzero(self.groups == group)
            order = members[rng.permutation(len(members))]
            for start in range(0, len(order), chunk):
                part = order[start : start + chunk]
                part = part[np.argsort(self.lengths[part], kind="stable")]
                batches.extend(
                    part[i : i + self.batch_size]
                    for i in range(0, len(part), self.batch_size)
                    if len(part[i : i + self.batch_size]) == self.batch_size
                )
        if not batches:
            raise LinguaLiteError(f"no group has {self.batch_size} training pairs: lower optim.batch_size")
        return [batches[i] for i in rng.permutation(len(batches))]

    def batch(self, index: int) -> np.ndarray:
        """The ``index``-th batch of the whole run (epochs follow each other)."""
        if self._epoch is None:
            self._epoch, self._order = 0, self._epoch_batches(0)
        epoch, within = divmod(index, len(self._order))
        if epoch != self._epoch:
            self._epoch, self._order = epoch, self._epoch_batches(epoch)
        return self._order[within]
