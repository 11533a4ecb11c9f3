"""Tokenized parallel pairs in memory, and a deterministic length-bucketed batch order.

Pairs are tokenized once (fast tokenizers, batched) into int32 arrays: ~100 bytes per pair. Batches are
drawn from shuffled buckets of similar length so padding stays small; the order for global step s is a pure
function of (seed, s), which makes ``--resume`` continue exactly and lets every DDP rank compute its share.
"""

from __future__ import annotations

import glob
import re
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from transformers import PreTrainedTokenizerFast

from lingualite.data.readers import read_tsv
from lingualite.errors import LinguaLiteError

_PAIR_DIR = re.compile(r"^([a-z]{2,3})-([a-z]{2,3})$")


def expand_files(patterns: list[str], what: str) -> list[Path]:
    """Expand globs; a pattern that matches nothing is an error naming it."""
    files: list[Path] = []
    for pattern in patterns:
        matches = sorted(glob.glob(pattern)) if any(c in pattern for c in "*?[") else [pattern]
        matches = [m for m in matches if Path(m).is_file()]
        if not matches:
            raise LinguaLiteError(f"{pattern}: no {what} file matches (run `lingualite prepare` first?)")
        files.extend(Path(m) for m in matches)
    return files


def languages_of(path: Path) -> tuple[str, str]:
    """Language codes from a parent folder named like ``en-fr``; otherwise ``src``/``tgt``."""
    for part in reversed(path.parts[:-1]):
        m = _PAIR_DIR.match(part)
        if m:
            return m.group(1), m.group(2)
    return "src", "tgt"


def read_pairs(
    files: list[Path], limit: int | None = None
) -> tuple[list[tuple[str, str]], dict[str, list[str]]]:
    """All pairs of ``files`` (round-robin across files when ``limit`` caps them) and the texts per language."""
    per_file = [[(p.src, p.tgt) for p in read_tsv(f)] for f in files]
    pairs: list[tuple[str, str]] = []
    if limit is None:
        for chunk in per_file:
            pairs.extend(chunk)
    else:
        rng = np.random.default_rng(0)
        shuffled = [[chunk[i] for i in rng.permutation(len(chunk))] for chunk in per_file]
        share = max(1, limit // max(1, len(files)))
        for chunk in shuffled:
            pairs.extend(chunk[:share])
    texts: dict[str, list[str]] = defaultdict(list)
    for f, chunk in zip(files, per_file, strict=True):
        a, b = languages_of(f)
        texts[a].extend(s for s, _ in chunk)
        texts[b].extend(t for _, t in chunk)
    return pairs, {lang: list(dict.fromkeys(t)) for lang, t in texts.items()}


@dataclass
class TokenizedPairs:
    """Token ids of both sides of every pair, ragged, stored flat."""

    a_ids: list[np.ndarray]
    b_ids: list[np.ndarray]

    @classmethod
    def build(
        cls, pairs: list[tuple[str, str]], tokenizer: PreTrainedTokenizerFast, max_length: int
    ) -> TokenizedPairs:
        def ids(texts: list[str]) -> list[np.ndarray]:
            out: list[np.ndarray] = []
            for start in range(0, len(texts), 10_000):
                enc = tokenizer(texts[start : start + 10_000], truncation=True, max_length=max_length)
                out.extend(np.asarray(x, dtype=np.int32) for x in enc["input_ids"])
            return out

        return cls(ids([a for a, _ in pairs]), ids([b for _, b in pairs]))

    def __len__(self) -> int:
        return len(self.a_ids)

    def lengths(self) -> np.ndarray:
        return np.fromiter(
            (max(len(a), len(b)) for a, b in zip(self.a_ids, self.b_ids, strict=True)), np.int64
        )

    def select(self, indices: np.ndarray | list[int]) -> list[tuple[np.ndarray, np.ndarray]]:
        return [(self.a_ids[i], self.b_ids[i]) for i in indices]


class BucketedBatches:
    """Epoch-wise shuffled batches of similar length; ``batch(step)`` is deterministic in (seed, step)."""

    def __init__(self, lengths: np.ndarray, batch_size: int, seed: int, bucket_size: int = 50) -> None:
        if len(lengths) < batch_size:
            raise LinguaLiteError(
                f"only {len(lengths)} training pairs for a batch size of {batch_size}: lower optim.batch_size"
            )
        self.lengths, self.batch_size, self.seed, self.bucket_size = lengths, batch_size, seed, bucket_size
        self.batches_per_epoch = len(lengths) // batch_size
        self._epoch: int | None = None
        self._order: list[np.ndarray] = []

    def _epoch_batches(self, epoch: int) -> list[np.ndarray]:
        rng = np.random.default_rng([self.seed, epoch])
        order = rng.permutation(len(self.lengths))
        chunk = self.batch_size * self.bucket_size
        batches: list[np.ndarray] = []
        for start in range(0, len(order), chunk):
            part = order[start : start + chunk]
            part = part[np.argsort(self.lengths[part], kind="stable")]
            batches.extend(part[i : i + self.batch_size] for i in range(0, len(part), self.batch_size))
        batches = [b for b in batches if len(b) == self.batch_size]
        return [batches[i] for i in rng.permutation(len(batches))]

    def batch(self, index: int) -> np.ndarray:
        """The ``index``-th batch of the whole run (epochs follow each other)."""
        epoch, within = divmod(index, self.batches_per_epoch)
        if epoch != self._epoch:
            self._epoch, self._order = epoch, self._epoch_batches(epoch)
        return self._order[within % len(self._order)]
