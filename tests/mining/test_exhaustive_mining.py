"""Exhaustive margin mining (issue #16, item 2) against a brute-force reference on small matrices."""

from __future__ import annotations

import numpy as np
from scipy import sparse

from lingualite.mining.pseudo_pairs import knn_parts, mine_exhaustive


def _unit(x: np.ndarray) -> np.ndarray:
    return (x / np.linalg.norm(x, axis=1, keepdims=True)).astype(np.float32)


def _brute(sim: np.ndarray, k: int, threshold: float | None) -> list[tuple[int, int, float]]:
    """Ratio margin over each side's k most similar candidates, mutual best, best first (full matrices)."""
    r_rows = np.sort(sim, axis=1)[:, ::-1][:, :k].mean(1)
    r_cols = np.sort(sim, axis=0)[::-1, :][:k, :].mean(0)
    margin = sim / ((r_rows[:, None] + r_cols[None, :]) / 2)
    fwd = {}
    for i in range(sim.shape[0]):
        cand = np.argsort(-sim[i], kind="stable")[:k]
        fwd[i] = int(cand[np.argmax(margin[i, cand])])
    bwd = {}
    for j in range(sim.shape[1]):
        cand = np.argsort(-sim[:, j], kind="stable")[:k]
        bwd[j] = int(cand[np.argmax(margin[cand, j])])
    pairs = [(i, j, float(margin[i, j])) for i, j in fwd.items() if bwd[j] == i]
    if threshold is not None:
        pairs = [p for p in pairs if p[2] >= threshold]
    return sorted(pairs, key=lambda p: -p[2])


def test_exhaustive_mining_matches_brute_force() -> None:
    rng = np.random.default_rng(0)
    shared = rng.normal(size=(40, 16))
    a = _unit(shared[:30] + 0.6 * rng.normal(size=(30, 16)))
    b = _unit(np.concatenate([shared[10:], rng.normal(size=(5, 16))]) + 0.6 * rng.normal(size=(35, 16)))
    ia, ib = np.arange(100, 130), np.arange(200, 235)
    for threshold, cap in ((None, None), (1.05, 7)):
        mined = mine_exhaustive({0: (ia, [(a, 1.0)]), 1: (ib, [(b, 1.0)])}, k=4, threshold=threshold, cap=cap)
        expected = _brute(a @ b.T, 4, threshold)[:cap]
        assert [(int(x), int(y)) for x, y in zip(mined.a, mined.b, strict=True)] == [
            (ia[i], ib[j]) for i, j, _ in expected
        ]
        np.testing.assert_allclose(mined.csls, [m for _, _, m in expected], rtol=1e-5)
        assert np.all(mined.lang_a == 0) and np.all(mined.lang_b == 1)
    true = sum(1 for x, y in zip(mined.a, mined.b, strict=True) if x - 100 == y - 200 + 10)
    assert true >= 5  # the planted translations are found


def test_weighted_views_score_the_sum_of_cosines() -> None:
    rng = np.random.default_rng(1)
    dense_a, dense_b = _unit(rng.normal(size=(50, 8))), _unit(rng.normal(size=(60, 8)))
    sp_a = sparse.random(50, 30, density=0.3, random_state=2, format="csr")
    sp_b = sparse.random(60, 30, density=0.3, random_state=3, format="csr")
    sp_a = sparse.csr_matrix(sp_a.multiply(1 / np.sqrt(sp_a.multiply(sp_a).sum(1))))
    sp_b = sparse.csr_matrix(sp_b.multiply(1 / np.sqrt(sp_b.multiply(sp_b).sum(1))))
    full = 0.3 * (sp_a @ sp_b.T).toarray() + 0.7 * dense_a @ dense_b.T
    (sims, idx), (back, back_idx) = knn_parts(
        [(sp_a, 0.3), (dense_a, 0.7)], [(sp_b, 0.3), (dense_b, 0.7)], 5, block=16
    )
    np.testing.assert_allclose(sims, np.sort(full, axis=1)[:, ::-1][:, :5], atol=1e-5)
    np.testing.assert_allclose(np.take_along_axis(full, idx, 1), sims, atol=1e-5)
    np.testing.assert_allclose(back, np.sort(full.T, axis=1)[:, ::-1][:, :5], atol=1e-5)  # base rows' top k
    np.testing.assert_allclose(np.take_along_axis(full.T, back_idx, 1), back, atol=1e-5)
    (single, _), (single_back, _) = knn_parts([(dense_a, 1.0)], [(dense_b, 1.0)], 5)  # FAISS path
    np.testing.assert_allclose(single, np.sort(dense_a @ dense_b.T, axis=1)[:, ::-1][:, :5], atol=1e-5)
    np.testing.assert_allclose(single_back, np.sort(dense_b @ dense_a.T, axis=1)[:, ::-1][:, :5], atol=1e-5)


def test_english_centred_and_per_pair_cap() -> None:
    rng = np.random.default_rng(2)
    pools = {
        li: (np.arange(li * 100, li * 100 + 20), [(_unit(rng.normal(size=(20, 6))), 1.0)]) for li in range(3)
    }
    mined = mine_exhaustive(pools, k=3, mutual=False, cap=4, english=0)
    assert set(zip(mined.lang_a.tolist(), mined.lang_b.tolist(), strict=True)) == {(0, 1), (0, 2)}
    assert len(mined) == 8 and mined.stats["pairs/0-1"] == 4
    assert len(set(mined.a[:4].tolist())) == 4  # one-to-one
    capped = mine_exhaustive(pools, k=3, mutual=False, cap=4, english=0, caps={(0, 1): 2, (0, 2): 9})
    assert capped.stats["pairs/0-1"] == 2 and capped.stats["pairs/0-2"] == 4  # the lower of the two caps
    first = capped.lang_b == 1
    np.testing.assert_array_equal(capped.a[first], mined.a[mined.lang_b == 1][:2])  # the best two, kept


def test_candidates_rescored_exactly_match_the_exhaustive_search() -> None:
    """Search views only pick candidates; the neighbours and their scores are the full views' (issue #16)."""
    from lingualite.mining.pseudo_pairs import knn_candidates

    rng = np.random.default_rng(4)
    dense_a, dense_b = _unit(rng.normal(size=(40, 8))), _unit(rng.normal(size=(45, 8)))
    full = [(dense_a, 0.5), (dense_a, 0.5)], [(dense_b, 0.5), (dense_b, 0.5)]
    noisy_a, noisy_b = _unit(dense_a + 0.3 * rng.normal(size=dense_a.shape)), _unit(dense_b)
    (sims, idx), (back, back_idx) = knn_candidates([(noisy_a, 1.0)], [(noisy_b, 1.0)], *full, 4, 45)
    (ref, ref_idx), (ref_back, ref_back_idx) = knn_parts(*full, 4)
    np.testing.assert_allclose(sims, ref, atol=1e-5)  # every base row a candidate: exact
    np.testing.assert_array_equal(idx, ref_idx)
    np.testing.assert_allclose(back, ref_back, atol=1e-5)
    np.testing.assert_array_equal(back_idx, ref_back_idx)
    (few, few_idx), _ = knn_candidates([(noisy_a, 1.0)], [(noisy_b, 1.0)], *full, 4, 6)
    exact = dense_a @ dense_b.T
    np.testing.assert_allclose(np.take_along_axis(exact, few_idx, 1), few, atol=1e-5)  # scored exactly
    assert np.all(np.diff(few, axis=1) <= 1e-7)  # best first
    assert np.all(few <= ref + 1e-6)  # candidates can only miss neighbours, never invent better ones
    pools = {0: (np.arange(40), full[0]), 1: (np.arange(45), full[1])}
    searched = mine_exhaustive(pools, k=4, search={0: [(noisy_a, 1.0)], 1: [(noisy_b, 1.0)]}, candidates=45)
    plain = mine_exhaustive(pools, k=4)
    np.testing.assert_array_equal(searched.a, plain.a)
    np.testing.assert_array_equal(searched.b, plain.b)
