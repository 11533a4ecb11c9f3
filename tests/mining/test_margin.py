"""Ratio-margin selection against hand-computed values, each mining mode, and the in-memory miner."""

from __future__ import annotations

import numpy as np
import pytest

from lingualite.mining import Neighbours, margin, mine_embeddings, select_pairs
from lingualite.vectors.retrieval import margin_scores, normalize_rows

# 2 sources, 3 targets, k = 2. r_src = (0.7, 0.75); r_tgt = (0.85, 0.4, 0.45).
FORWARD = Neighbours(np.array([[0.9, 0.5], [0.8, 0.7]], np.float32), np.array([[0, 1], [0, 2]]))
BACKWARD = Neighbours(
    np.array([[0.9, 0.8], [0.5, 0.3], [0.7, 0.2]], np.float32), np.array([[0, 1], [0, 1], [1, 0]])
)
S00 = 0.9 / ((0.7 + 0.85) / 2)  # 1.16129
S12 = 0.7 / ((0.75 + 0.45) / 2)  # 1.16667
S01 = 0.5 / ((0.7 + 0.4) / 2)  # 0.90909


def pairs(mined) -> list[tuple[int, int]]:
    return list(zip(mined.src.tolist(), mined.tgt.tolist(), strict=True))


def test_margin_formula() -> None:
    assert margin(np.float32(0.9), np.float32(0.7), np.float32(0.85)) == pytest.approx(S00, rel=1e-6)


@pytest.mark.parametrize(
    ("mode", "one_to_one", "expected"),
    [
        ("forward", True, [(1, 2, S12), (0, 0, S00)]),
        ("backward", False, [(1, 2, S12), (0, 0, S00), (0, 1, S01)]),
        ("backward", True, [(1, 2, S12), (0, 0, S00)]),  # target 1's best source is already used
        ("intersect", True, [(1, 2, S12), (0, 0, S00)]),
        ("max", False, [(1, 2, S12), (0, 0, S00)]),  # max mode is always one-to-one
    ],
)
def test_modes_hand_computed(mode: str, one_to_one: bool, expected: list[tuple[int, int, float]]) -> None:
    mined = select_pairs(FORWARD, BACKWARD, k=2, mode=mode, one_to_one=one_to_one)
    assert pairs(mined) == [(s, t) for s, t, _ in expected]
    np.testing.assert_allclose(mined.score, [x for *_, x in expected], rtol=1e-5)


def test_threshold_and_intersect_disagreement() -> None:
    assert pairs(select_pairs(FORWARD, BACKWARD, k=2, threshold=1.162)) == [(1, 2)]
    # target 0's neighbourhood now: source 1 at 0.95, source 0 at 0.1 (r = 0.525). Forward: source 0 -> target 0
    # (0.9 / 0.6125); source 1 -> target 0 too (0.8 / 0.6375 = 1.255 > 0.7 / 0.6). Backward: target 0 -> source 1
    # (0.95 / 0.6375). Only (1, 0) is mutual.
    backward = Neighbours(BACKWARD.sims.copy(), BACKWARD.idx.copy())
    backward.sims[0] = [0.95, 0.1]
    backward.idx[0] = [1, 0]
    assert pairs(select_pairs(FORWARD, backward, k=2, mode="intersect")) == [(1, 0)]


def test_bad_mode_and_k() -> None:
    with pytest.raises(ValueError, match="unknown mining mode"):
        select_pairs(FORWARD, BACKWARD, mode="both")
    with pytest.raises(ValueError, match="k must be"):
        select_pairs(FORWARD, BACKWARD, k=0)


def test_in_memory_miner_agrees_with_the_full_margin_matrix() -> None:
    rng = np.random.default_rng(0)
    x = normalize_rows(rng.standard_normal((40, 16)))
    y = normalize_rows(x[rng.permutation(40)] + 0.6 * rng.standard_normal((40, 16)))
    full = margin_scores(x @ y.T, k=4)  # retrieval's dense margin: same definition
    mined = mine_embeddings(x, y, k=4, mode="forward", one_to_one=False, candidates=40)
    assert pairs(mined) == sorted(((i, int(np.argmax(full[i]))) for i in range(40)), key=lambda p: -full[p])
    np.testing.assert_allclose(mined.score, [full[s, t] for s, t in pairs(mined)], rtol=1e-5)


def test_greedy_one_to_one_and_sparse_vectors() -> None:
    from scipy import sparse

    x = sparse.csr_matrix(np.eye(5, dtype=np.float32))
    y = sparse.csr_matrix(np.eye(5, dtype=np.float32)[[3, 1, 4, 0, 2]])
    mined = mine_embeddings(x, y, k=2)
    assert sorted(pairs(mined)) == [(0, 3), (1, 1), (2, 4), (3, 0), (4, 2)]
    assert len(set(mined.src.tolist())) == len(mined) == len(set(mined.tgt.tolist()))


def test_mixture_threshold_separates_two_populations_without_labels() -> None:
    """The unsupervised cut of issue #16: most candidates are wrong (low margins), a few are translations."""
    from lingualite.mining.margin import mixture_threshold

    rng = np.random.default_rng(0)
    wrong = np.exp(rng.normal(0.05, 0.05, size=2000))
    right = np.exp(rng.normal(0.6, 0.1, size=200))
    cut = mixture_threshold(np.concatenate([wrong, right]))
    assert cut is not None and np.exp(0.2) < cut < np.exp(0.45)
    assert np.mean(right >= cut) > 0.98 and np.mean(wrong >= cut) < 0.01
    assert mixture_threshold(right[:10]) is None  # too few to fit: keep all


def test_auto_threshold_keeps_the_planted_translations() -> None:
    from lingualite.mining.pseudo_pairs import mine_exhaustive

    rng = np.random.default_rng(1)
    shared = rng.normal(size=(60, 32))
    a = np.concatenate([shared[:30] + 0.3 * rng.normal(size=(30, 32)), rng.normal(size=(270, 32))])
    b = np.concatenate([shared[:30] + 0.3 * rng.normal(size=(30, 32)), rng.normal(size=(270, 32))])
    a, b = (x / np.linalg.norm(x, axis=1, keepdims=True) for x in (a, b))
    pools = {
        0: (np.arange(300), [(a.astype(np.float32), 1.0)]),
        1: (np.arange(300), [(b.astype(np.float32), 1.0)]),
    }
    everything = mine_exhaustive(pools, k=4)
    auto = mine_exhaustive(pools, k=4, threshold="auto")
    assert np.mean(everything.a == everything.b) < 0.5  # mutual neighbours alone: mostly wrong pairs
    assert len(auto) >= 25 and np.mean(auto.a == auto.b) >= 0.9
    assert "threshold/0-1" in auto.stats
