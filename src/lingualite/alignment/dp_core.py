"""The monotone alignment dynamic programme shared by every aligner, exact or restricted to a band.

A cell ``(i, j)`` means "the first ``i`` source and ``j`` target lines are aligned"; a move ``(k, l)`` adds a
block of ``k`` source and ``l`` target lines. The programme runs row by row with numpy: every move with
``k >= 1`` reads earlier rows (vectorised over the row's columns), and the target skip ``(0, 1)``, which reads
the same row, is a prefix minimum (``D[i, j] = S[j] + cummin_j'(A[j'] - S[j'])`` with ``S`` the cumulative
target-skip cost), so one row costs a few numpy calls whatever its width.

Rows store only their band (``lo..hi`` inclusive), so memory and time are linear in the band's area: the
full programme is the band ``0..m`` on every row (Gale & Church 1993; Vecalign, Thompson & Koehn 2019, run it
inside a band around a coarse path). Ties prefer the earlier move in ``moves`` and a non-skip over a target
skip, so the banded and the full programme return the same path when the best path lies inside the band.

We wrote this instead of taking a library: the aligners on PyPI (``galechurch``, ``sentalign``/Vecalign)
each ship their own cost function inside compiled code, with no way to plug in a cost or a band.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

__all__ = ["Band", "MoveCost", "band_around_path", "full_band", "run_dp"]

Band = list[tuple[int, int]]  # per row i = 0..n: the inclusive column range [lo, hi] searched
# cost of adding block (k, l) that ends at row i and at each column of ``cols`` (block ends, in target lines)
MoveCost = Callable[[int, int, int, np.ndarray], np.ndarray]

SKIP_TGT = -1  # back-pointer code of the target skip (0, 1)


def full_band(n: int, m: int) -> Band:
    """Every cell: the exact programme (time and memory ``O(n m)``)."""
    return [(0, m)] * (n + 1)


def band_around_path(path: Sequence[tuple[int, int]], n: int, m: int, width: int) -> Band:
    """The rows' column ranges within ``width`` cells of a monotone ``path`` of grid points from (0, 0) to
    (n, m) (gaps between consecutive points are filled along the straight line between them)."""
    lo = np.full(n + 1, m, dtype=np.int64)
    hi = np.zeros(n + 1, dtype=np.int64)
    for (i0, j0), (i1, j1) in zip(path[:-1], path[1:], strict=True):
        steps = max(i1 - i0, j1 - j0, 1)
        t = np.arange(steps + 1) / steps
        rows = np.rint(i0 + t * (i1 - i0)).astype(np.int64)
        cols = np.rint(j0 + t * (j1 - j0)).astype(np.int64)
        np.minimum.at(lo, rows, cols)
        np.maximum.at(hi, rows, cols)
    if len(path) == 1:
        lo[path[0][0]] = hi[path[0][0]] = path[0][1]
    band: Band = []
    for i in range(n + 1):
        r0, r1 = max(0, i - width), min(n, i + width)  # rows within ``width``: the band is a neighbourhood
        band.append((max(0, int(lo[r0 : r1 + 1].min()) - width), min(m, int(hi[r0 : r1 + 1].max()) + width)))
    return band


def _gather(values: np.ndarray, lo: int, cols: np.ndarray) -> np.ndarray:
    idx = cols - lo
    ok = (idx >= 0) & (idx < len(values))
    return np.where(ok, values[np.clip(idx, 0, max(len(values) - 1, 0))], np.inf)


def run_dp(
    n: int,
    m: int,
    moves: Sequence[tuple[int, int]],
    move_cost: MoveCost,
    tgt_skip: np.ndarray,
    band: Band,
) -> list[tuple[int, int]]:
    """The cheapest monotone path from (0, 0) to (n, m) as a list of moves ``(k, l)`` in document order.

    :param moves: the moves with ``k >= 1`` (e.g. 1-1, 1-2, 2-1, 1-0); the target skip (0, 1) is implicit.
    :param move_cost: ``move_cost(k, l, i, cols)``: costs of the block ending at row ``i`` and columns ``cols``.
    :param tgt_skip: ``tgt_skip[j]``: cost of leaving target line ``j`` unaligned (shape ``(m,)``).
    :param band: per row, the inclusive column range searched; must contain (0, 0) and (n, m).
    """
    skip_csum = np.concatenate([[0.0], np.cumsum(np.asarray(tgt_skip, dtype=np.float64))])
    costs: list[np.ndarray] = []
    backs: list[np.ndarray] = []
    for i in range(n + 1):
        lo, hi = band[i]
        cols = np.arange(lo, hi + 1)
        best = np.full(len(cols), np.inf)
        back = np.full(len(cols), SKIP_TGT, dtype=np.int8)
        if i == 0 and lo == 0:
            best[0] = 0.0
        for code, (k, kt) in enumerate(moves):
            if k > i:
                continue
            prev = _gather(costs[i - k], band[i - k][0], cols - kt)
            if not np.isfinite(prev).any():
                continue
            total = prev + move_cost(k, kt, i, cols)
            better = total < best
            best = np.where(better, total, best)
            back = np.where(better, np.int8(code), back)
        # target skips within the row: prefix minimum of best[j'] - S[j'], then + S[j]
        shifted = best - skip_csum[lo : hi + 1]
        running = np.minimum.accumulate(shifted)
        skipped = running < shifted
        best = np.where(skipped, running + skip_csum[lo : hi + 1], best)
        back = np.where(skipped, np.int8(SKIP_TGT), back)
        costs.append(best)
        backs.append(back)
    if not np.isfinite(_gather(costs[n], band[n][0], np.array([m])))[0]:
        raise ValueError("no alignment path inside the band (the band must reach (0, 0) and (n, m))")
    path: list[tuple[int, int]] = []
    i, j = n, m
    while i > 0 or j > 0:
        code = int(backs[i][j - band[i][0]])
        k, kt = (0, 1) if code == SKIP_TGT else moves[code]
        path.append((k, kt))
        i, j = i - k, j - kt
    path.reverse()
    return path
