"""CSLS mining over sampled blocks: scores, bookkeeping (distinct pairs, exact target), gold precision."""

from __future__ import annotations

import numpy as np
import pytest

from lingualite.mining import mine_block, mine_pseudo_pairs, mining_precision
from lingualite.vectors.retrieval import csls_scores


def test_csls_matches_a_hand_computed_matrix() -> None:
    cos = np.array([[0.9, 0.2, 0.1], [0.8, 0.7, 0.0], [0.3, 0.1, 0.5]], dtype=np.float32)
    # k = 2: r_T(row) = mean of the row's two largest, r_S(col) = mean of the column's two largest
    r_rows = np.array([(0.9 + 0.2) / 2, (0.8 + 0.7) / 2, (0.5 + 0.3) / 2])
    r_cols = np.array([(0.9 + 0.8) / 2, (0.7 + 0.2) / 2, (0.5 + 0.1) / 2])
    expected = 2 * cos - r_rows[:, None] - r_cols[None, :]
    np.testing.assert_allclose(csls_scores(cos, k=2), expected, atol=1e-6)
    # the hub column 0 (close to everything) loses row 1 to column 1 under CSLS, not under cosine
    assert cos[1].argmax() == 0 and expected[1].argmax() == 1


def test_mine_block_returns_the_best_pairs_best_first() -> None:
    rng = np.random.default_rng(0)
    a = rng.normal(size=(6, 8)).astype(np.float32)
    b = a[[3, 0, 5, 1, 4, 2]] + 0.01 * rng.normal(size=(6, 8)).astype(np.float32)
    rows, cols, scores, cosine = mine_block(a, b, k=2, keep=6)
    assert sorted(zip(rows.tolist(), cols.tolist(), strict=True)) == [
        (0, 1),
        (1, 3),
        (2, 5),
        (3, 0),
        (4, 4),
        (5, 2),
    ]
    assert np.all(np.diff(scores) <= 0) and np.all(cosine > 0.99)


def _pools(n: int, langs: int, seed: int = 0) -> dict[int, tuple[np.ndarray, np.ndarray]]:
    rng = np.random.default_rng(seed)
    return {
        lang: (np.arange(n) + 1000 * lang, rng.normal(size=(n, 16)).astype(np.float32))
        for lang in range(langs)
    }


def test_mining_stops_at_the_target_without_duplicates() -> None:
    mined = mine_pseudo_pairs(_pools(50, 3), 20, 5, 30, 200, np.random.default_rng(0))
    assert len(mined) == 200
    keys = set(zip(mined.a.tolist(), mined.b.tolist(), strict=True))
    assert len(keys) == 200
    assert np.all(mined.lang_a != mined.lang_b)
    assert np.all(mined.a // 1000 == mined.lang_a) and np.all(mined.b // 1000 == mined.lang_b)
    assert {(int(x), int(y)) for x, y in zip(mined.lang_a, mined.lang_b, strict=True)} == {
        (0, 1),
        (0, 2),
        (1, 2),
    }


def test_mining_keeps_min_m_squared_and_per_round() -> None:
    mined = mine_pseudo_pairs(_pools(50, 2), 3, 2, 1000, 9, np.random.default_rng(0))
    assert mined.rounds == 1 and len(mined) == 9  # m * m = 9 < 1000: one round gives every candidate


def test_mining_gives_up_when_pools_run_out() -> None:
    mined = mine_pseudo_pairs(_pools(3, 2), 3, 2, 9, 100, np.random.default_rng(0), max_rounds=50)
    assert len(mined) == 9 and mined.rounds == 50  # only 3 x 3 distinct pairs exist


def test_english_centred_mining() -> None:
    mined = mine_pseudo_pairs(_pools(30, 3), 10, 3, 20, 60, np.random.default_rng(0), english=0)
    assert set(mined.lang_a.tolist()) == {0} and set(mined.lang_b.tolist()) == {1, 2}


def test_mining_precision_on_gold_pairs() -> None:
    rng = np.random.default_rng(0)
    source = rng.normal(size=(200, 32)).astype(np.float32)
    target = source + 0.05 * rng.normal(size=source.shape).astype(np.float32)
    assert mining_precision(source, target, 200, 5, 100, np.random.default_rng(1)) == 1.0
    noise = rng.normal(size=source.shape).astype(np.float32)
    assert mining_precision(source, noise, 200, 5, 100, np.random.default_rng(1)) < 0.05
    # m = 20 of 200: few translations are in a block, and m * m = 400 > 100 kept pairs
    assert mining_precision(source, target, 20, 5, 100, np.random.default_rng(1)) < 0.2


def test_bad_pools() -> None:
    with pytest.raises(ValueError, match="two languages"):
        mine_pseudo_pairs(_pools(5, 1), 2, 1, 4, 4, np.random.default_rng(0))
