"""Tests for the deterministic document split."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter

import pytest

from lingualite.core.errors import ConfigError
from lingualite.data.readers import ParallelPair
from lingualite.data.split import CapSelector, SplitConfig, assign_split, pair_rank, split_key

DOCS = [f"doc-{i}" for i in range(10_000)]


def test_deterministic_and_seeded() -> None:
    a = [assign_split(d, 0.1, 0.1) for d in DOCS[:500]]
    assert a == [assign_split(d, 0.1, 0.1, seed=0) for d in DOCS[:500]]
    assert a != [assign_split(d, 0.1, 0.1, seed=1) for d in DOCS[:500]]


def test_stable_across_processes() -> None:
    """Python's hash() is salted per process; the split must not be."""
    code = (
        "from lingualite.data.split import assign_split as a; print([a(f'd{i}', .2, .2) for i in range(50)])"
    )
    runs = {
        subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout for _ in range(2)
    }
    assert len(runs) == 1
    assert runs.pop().strip() == str([assign_split(f"d{i}", 0.2, 0.2) for i in range(50)])


def test_fractions_approximate() -> None:
    counts = Counter(assign_split(d, 0.05, 0.10, seed=3) for d in DOCS)
    assert abs(counts["valid"] / len(DOCS) - 0.05) < 0.01
    assert abs(counts["test"] / len(DOCS) - 0.10) < 0.012
    assert counts["train"] + counts["valid"] + counts["test"] == len(DOCS)


def test_zero_and_full_fractions() -> None:
    assert {assign_split(d, 0.0, 0.0) for d in DOCS[:200]} == {"train"}
    assert {assign_split(d, 0.0, 1.0) for d in DOCS[:200]} == {"test"}


def test_split_key_uses_normalized_source_without_doc() -> None:
    a = ParallelPair("Hello   World", "x", None, "f", 1)
    b = ParallelPair("hello world", "y", None, "f", 2)
    assert split_key(a) == split_key(b) == "hello world"
    assert split_key(ParallelPair("Hello", "x", "d7", "f", 1)) == "d7"


def test_pair_rank_stable() -> None:
    p = ParallelPair("a", "b", None, "f", 1)
    assert pair_rank(p) == pair_rank(ParallelPair("a", "b", "other", "g", 9))
    assert pair_rank(p, seed=1) != pair_rank(p)


def test_cap_selector_keeps_smallest() -> None:
    ranks = [50, 10, 40, 10, 30, 20]
    sel = CapSelector(3)
    sel.offer_all(ranks)
    assert [r for r in ranks if sel.keep(r)] == [10, 10, 20]
    none = CapSelector(None)
    none.offer_all(ranks)
    assert all(none.keep(r) for r in ranks)
    zero = CapSelector(0)
    zero.offer_all(ranks)
    assert not any(zero.keep(r) for r in ranks)


def test_config_validation() -> None:
    with pytest.raises(ConfigError):
        SplitConfig(valid_fraction=0.7, test_fraction=0.5)
    with pytest.raises(ConfigError):
        SplitConfig(max_valid_pairs=-1)
    assert SplitConfig(max_valid_pairs=10_000).cap("valid") == 10_000
    assert SplitConfig().cap("train") is None
