"""Deterministic train/valid/test split by document, with optional absolute caps on valid/test.

A pair's split depends only on ``blake2b(f"{seed}:{doc_id}")`` (never Python's salted ``hash()``), so a
document lands wholly in one split, on every machine and run. Pairs without a doc_id use their
normalized source text as the doc id. Caps (``max_valid_pairs``/``max_test_pairs``) keep the pairs with
the smallest per-pair hash; see :class:`CapSelector`.
"""

from __future__ import annotations

import hashlib
import heapq
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from lingualite.core.errors import ConfigError
from lingualite.data.cleaning import normalize_light
from lingualite.data.readers import ParallelPair

__all__ = ["SPLITS", "CapSelector", "SplitConfig", "SplitName", "assign_split", "pair_rank", "split_key"]

SplitName = Literal["train", "valid", "test"]
SPLITS: tuple[SplitName, ...] = ("train", "valid", "test")
_SCALE = float(2**64)


@dataclass
class SplitConfig:
    """Split fractions (of documents) and optional caps on the number of valid/test pairs."""

    valid_fraction: float = 0.05
    test_fraction: float = 0.05
    max_valid_pairs: int | None = None
    max_test_pairs: int | None = None
    seed: int = 0

    def __post_init__(self) -> None:
        for name in ("valid_fraction", "test_fraction"):
            if not 0 <= getattr(self, name) <= 1:
                raise ConfigError(f"split.{name}: must be in [0, 1]")
        if self.valid_fraction + self.test_fraction > 1:
            raise ConfigError("split.valid_fraction + split.test_fraction: must not exceed 1")
        for name in ("max_valid_pairs", "max_test_pairs"):
            value = getattr(self, name)
            if value is not None and value < 0:
                raise ConfigError(f"split.{name}: must be >= 0 or null")

    def cap(self, split: SplitName) -> int | None:
        """The cap for ``split`` (None: no cap; train is never capped)."""
        return {"valid": self.max_valid_pairs, "test": self.max_test_pairs}.get(split)


def _unit(key: str) -> int:
    return int.from_bytes(
        hashlib.blake2b(key.encode("utf-8", "surrogatepass"), digest_size=8).digest(), "big"
    )


def assign_split(doc_id: str, valid_fraction: float, test_fraction: float, seed: int = 0) -> SplitName:
    """Map a document to "train", "valid" or "test": test gets hash quantiles [0, test_fraction),
    valid the next ``valid_fraction``, train the rest."""
    u = _unit(f"{seed}:{doc_id}") / _SCALE
    if u < test_fraction:
        return "test"
    if u < test_fraction + valid_fraction:
        return "valid"
    return "train"


def split_key(pair: ParallelPair) -> str:
    """The doc id used for splitting: ``pair.doc_id``, or the normalized source text when it has none."""
    return pair.doc_id if pair.doc_id is not None else normalize_light(pair.src)


def pair_rank(pair: ParallelPair, seed: int = 0) -> int:
    """A stable 64-bit rank of a pair, used to pick which pairs survive a cap."""
    return _unit(f"{seed}:{pair.src}\t{pair.tgt}")


class CapSelector:
    """Keep the ``cap`` pairs of smallest rank, in two streaming passes with O(cap) memory.

    Pass 1: :meth:`offer` every rank. Pass 2: call :meth:`keep` on the same ranks in any order; it says
    True for exactly ``min(cap, n)`` of them (ties broken by order of the second pass).
    """

    def __init__(self, cap: int | None) -> None:
        self.cap = cap
        self._heap: list[int] = []  # max-heap (negated) of the smallest ranks seen
        self._budget: Counter[int] | None = None

    def offer(self, rank: int) -> None:
        if self.cap is None or self.cap == 0:
            return
        if len(self._heap) < self.cap:
            heapq.heappush(self._heap, -rank)
        elif -self._heap[0] > rank:
            heapq.heapreplace(self._heap, -rank)

    def offer_all(self, ranks: Iterable[int]) -> None:
        for rank in ranks:
            self.offer(rank)

    def keep(self, rank: int) -> bool:
        if self.cap is None:
            return True
        if self._budget is None:
            self._budget = Counter(-r for r in self._heap)
            self._heap = []
        if self._budget[rank] > 0:
            self._budget[rank] -= 1
            return True
        return False
