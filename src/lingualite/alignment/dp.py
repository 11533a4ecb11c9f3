"""Embedding-based document alignment in the manner of Vecalign (Thompson & Koehn 2019, EMNLP).

The cost of aligning a block of ``k`` source with ``l`` target lines is

    c(x, y) = 2 k l (1 - cos(x, y)) / (nx + ny),   nx = 1 - mean_s cos(x, y_s),  ny = 1 - mean_s cos(x_s, y)

where ``x``/``y`` are the blocks' vectors and ``x_s``/``y_s`` random lines of the other document: a block is
cheap when it is closer than the average unrelated line, which calibrates skips. A skip (1-0 or 0-1) costs
a fixed penalty, by default the ``skip_percentile`` quantile of the costs of random 1-1 pairs (Vecalign's
"deletion knob"; :data:`SKIP_PERCENTILE`, 0.02, measured best here, where Vecalign uses 0.2), or ``skip_cost``
if given.

Length: documents with up to ``exact_cells`` grid cells get the exact programme. Longer ones are aligned as
Vecalign does: halve both documents (mean of consecutive line vectors), align that recursively, then search
only a band of ``window`` lines around the up-sampled coarse path, so time and memory grow linearly.

Vectors of multi-line blocks: :func:`align_texts` embeds the concatenated text of the lines (what Vecalign
does: a sentence encoder sees the whole block); :func:`align_vectors` on single-line vectors uses the
normalised mean of the lines' vectors (also used at the coarse levels, where no text exists).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from lingualite.alignment.dp_core import band_around_path, full_band, run_dp
from lingualite.alignment.result import Alignment, allowed_moves, blocks_from_moves
from lingualite.core.errors import LinguaLiteError

__all__ = [
    "SKIP_PERCENTILE",
    "VECALIGN_SKIP_PERCENTILE",
    "BlockVectors",
    "VecalignConfig",
    "align_texts",
    "align_vectors",
    "mean_blocks",
]

VECALIGN_SKIP_PERCENTILE = 0.2  # Vecalign's own default
SKIP_PERCENTILE = 0.02
"""The default skip cost: the 2% quantile of random 1-1 costs. Measured best in
benchmarks/results/alignment_eval.{md,json} (`benchmarks/alignment_eval.py --tune-skip`, valid split of the
LibreOffice help pages, 15% of paragraphs dropped per side): the best valid F1 of the sweep 0.2 .. 0.01 for the
distilled student (torch and ONNX int8), the static student and USE-m (TF-IDF: 0.01); on test, strict F1 0.763
instead of 0.653 at Vecalign's 0.2 for the student. Documents with omissions need a cheaper skip than
Vecalign's, which merges a line without counterpart into its neighbour's block."""

# blocks[k - 1][i]: unit vector of lines i .. i+k-1 (k = 1 .. max_block)
BlockVectors = list[np.ndarray]


@dataclass
class VecalignConfig:
    """Settings of :func:`align_vectors` (defaults follow Vecalign where it has one)."""

    max_block: int = 2
    many_to_many: bool = False  # also 2-2 (... up to max_block on both sides)
    skip_cost: float | None = None  # None: the skip_percentile quantile of random 1-1 costs
    skip_percentile: float = SKIP_PERCENTILE
    norm_samples: int = 100  # random lines of the other document per normalisation
    exact_cells: int = 250_000  # exact programme up to this many cells (n * m), banded above
    window: int = 8  # half-width of the band around the coarse path, in lines
    seed: int = 0

    def __post_init__(self) -> None:
        if self.max_block < 1:
            raise LinguaLiteError(f"max_block: must be >= 1 (got {self.max_block})")
        if not 0.0 <= self.skip_percentile <= 1.0:
            raise LinguaLiteError(f"skip_percentile: must be in [0, 1] (got {self.skip_percentile})")
        if self.skip_cost is not None and self.skip_cost < 0:
            raise LinguaLiteError(f"skip_cost: must be >= 0 (got {self.skip_cost})")
        if self.window < 1 or self.exact_cells < 1:
            raise LinguaLiteError("window and exact_cells: must be >= 1")


@contextlib.contextmanager
def one_blas_thread() -> Iterator[None]:
    """Run the programme's many small products on one BLAS thread: on a busy machine a multi-threaded BLAS
    spins on them (measured 100x slower for a 150 x 150 ``eigh`` with 2 threads on 2 busy cores).
    threadpoolctl comes with scikit-learn; without it nothing is limited."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover
        yield
        return
    with threadpool_limits(limits=1, user_api="blas"):
        yield


def _unit(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, dtype=np.float32)
    norms = np.linalg.norm(x, axis=1, keepdims=True)
    return x / np.maximum(norms, 1e-12)


def mean_blocks(singles: np.ndarray, max_block: int) -> BlockVectors:
    """Block vectors as the normalised mean of the (normalised) line vectors of each block."""
    unit = _unit(singles)
    csum = np.concatenate([np.zeros((1, unit.shape[1]), np.float32), np.cumsum(unit, axis=0)])
    return [_unit(csum[k:] - csum[:-k]) if len(unit) >= k else unit[:0] for k in range(1, max_block + 1)]


def _downsample(singles: np.ndarray) -> np.ndarray:
    """Vecalign's coarse level: the mean of each two consecutive lines (an odd last line stays alone)."""
    pad = singles if len(singles) % 2 == 0 else np.vstack([singles, singles[-1:]])
    return _unit(pad[0::2] + pad[1::2])


class _Costs:
    """Normalised block costs of one level; ``move_cost`` is the :data:`~dp_core.MoveCost` callback."""

    def __init__(self, src: BlockVectors, tgt: BlockVectors, cfg: VecalignConfig) -> None:
        rng = np.random.default_rng(cfg.seed)
        self.src, self.tgt = src, tgt
        pool_t, pool_s = np.vstack(tgt), np.vstack(src)
        sample_t = pool_t[rng.integers(0, len(pool_t), cfg.norm_samples)]
        sample_s = pool_s[rng.integers(0, len(pool_s), cfg.norm_samples)]
        self.src_norm = [1.0 - (b @ sample_t.T).mean(axis=1) for b in src]
        self.tgt_norm = [1.0 - (b @ sample_s.T).mean(axis=1) for b in tgt]
        self.skip = cfg.skip_cost if cfg.skip_cost is not None else self._skip_quantile(cfg, rng)

    def pair_cost(self, k: int, kt: int, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        """Costs of the blocks starting at source lines ``i`` and target lines ``j`` (same shapes)."""
        sim = np.einsum("nd,nd->n", self.src[k - 1][i], self.tgt[kt - 1][j])
        denom = 1e-6 + self.src_norm[k - 1][i] + self.tgt_norm[kt - 1][j]
        return 2.0 * k * kt * (1.0 - sim) / denom

    def _skip_quantile(self, cfg: VecalignConfig, rng: np.random.Generator) -> float:
        n, m = len(self.src[0]), len(self.tgt[0])
        if n * m <= 20_000:
            i, j = (a.ravel() for a in np.meshgrid(np.arange(n), np.arange(m), indexing="ij"))
        else:
            i, j = rng.integers(0, n, 20_000), rng.integers(0, m, 20_000)
        return float(np.quantile(self.pair_cost(1, 1, i, j), cfg.skip_percentile))

    def move_cost(self, k: int, kt: int, i: int, cols: np.ndarray) -> np.ndarray:
        if kt == 0:
            return np.full(len(cols), self.skip)
        start = cols - kt
        ok = start >= 0
        starts = np.where(ok, start, 0)
        sim = self.tgt[kt - 1][starts] @ self.src[k - 1][i - k]
        denom = 1e-6 + self.src_norm[k - 1][i - k] + self.tgt_norm[kt - 1][starts]
        return np.where(ok, 2.0 * k * kt * (1.0 - sim) / denom, np.inf)


def _path(
    src: BlockVectors,
    tgt: BlockVectors,
    cfg: VecalignConfig,
    moves: list[tuple[int, int]],
    progress: Callable[[str], None] | None,
    depth: int = 0,
) -> list[tuple[int, int]]:
    n, m = len(src[0]), len(tgt[0])
    if n == 0 or m == 0:
        return [(1, 0)] * n + [(0, 1)] * m
    if n * m <= cfg.exact_cells:
        band = full_band(n, m)
    else:
        coarse = _path(
            mean_blocks(_downsample(src[0]), cfg.max_block),
            mean_blocks(_downsample(tgt[0]), cfg.max_block),
            cfg,
            moves,
            progress,
            depth + 1,
        )
        points, i, j = [(0, 0)], 0, 0
        for k, kt in coarse:
            i, j = i + k, j + kt
            points.append((min(2 * i, n), min(2 * j, m)))
        band = band_around_path(points, n, m, cfg.window)
    if progress is not None and n * m > cfg.exact_cells:
        cells = sum(hi - lo + 1 for lo, hi in band)
        progress(f"aligning {n:,} x {m:,} lines (level {depth}, {cells:,} cells searched)")
    costs = _Costs(src, tgt, cfg)
    return run_dp(n, m, moves, costs.move_cost, np.full(m, costs.skip), band)


def align_vectors(
    src: np.ndarray | BlockVectors,
    tgt: np.ndarray | BlockVectors,
    config: VecalignConfig | None = None,
    progress: Callable[[str], None] | None = None,
) -> Alignment:
    """Align two documents given as line vectors ``(n, d)`` (blocks: mean of lines) or as
    :data:`BlockVectors` (``blocks[k-1][i]``: vector of lines ``i..i+k-1``, e.g. of the joined text).

    Returns the blocks in document order with the cosine of their vectors (0.0 for skips)."""
    cfg = config or VecalignConfig()
    src_b = mean_blocks(src, cfg.max_block) if isinstance(src, np.ndarray) else [_unit(b) for b in src]
    tgt_b = mean_blocks(tgt, cfg.max_block) if isinstance(tgt, np.ndarray) else [_unit(b) for b in tgt]
    for name, blocks in (("src", src_b), ("tgt", tgt_b)):
        if len(blocks) < cfg.max_block:
            raise LinguaLiteError(f"{name}: {len(blocks)} block sizes given, max_block is {cfg.max_block}")
    moves = allowed_moves(cfg.max_block, cfg.many_to_many)
    with one_blas_thread():
        path = _path(src_b, tgt_b, cfg, moves, progress)
    out: Alignment = []
    for s_ids, t_ids in blocks_from_moves(path):
        score = 0.0
        if s_ids and t_ids:
            score = float(src_b[len(s_ids) - 1][s_ids[0]] @ tgt_b[len(t_ids) - 1][t_ids[0]])
        out.append((s_ids, t_ids, score))
    return out


def _dense(x: Any, dims: int = 256) -> np.ndarray:
    """Encoder output as a dense float32 array. A sparse matrix (TF-IDF: tens of thousands of columns) of
    up to 2,000 rows becomes the rows of ``E sqrt(L)`` from the eigendecomposition of its Gram matrix: as
    many columns as rows, and every dot product kept exactly; larger ones are reduced to ``dims``
    dimensions with scikit-learn's TruncatedSVD (cosines approximately kept)."""
    if not hasattr(x, "toarray"):
        return np.asarray(x, dtype=np.float32)
    if x.shape[0] <= 2_000:
        with one_blas_thread():
            values, vectors = np.linalg.eigh((x @ x.T).toarray().astype(np.float64))
        keep = values > 1e-9 * max(float(values.max()), 1e-12)
        return (vectors[:, keep] * np.sqrt(values[keep])).astype(np.float32)
    from sklearn.decomposition import TruncatedSVD

    return TruncatedSVD(n_components=dims, random_state=0).fit_transform(x).astype(np.float32)


def _block_texts(lines: Sequence[str], k: int) -> list[str]:
    return [" ".join(lines[i : i + k]) for i in range(len(lines) - k + 1)]


def align_texts(
    src_lines: Sequence[str],
    tgt_lines: Sequence[str],
    encoder: Any,
    config: VecalignConfig | None = None,
    progress: Callable[[str], None] | None = None,
    block_text: bool = True,
) -> Alignment:
    """Align two documents (one sentence or paragraph per item) with an encoder (``encode(list[str])``).

    ``block_text``: embed each multi-line block's joined text (Vecalign); False: mean of line vectors. An
    encoder with ``fit`` (TF-IDF) is fitted on the lines of both documents first."""
    cfg = config or VecalignConfig()
    fit = getattr(encoder, "fit", None)
    if callable(fit):
        fit([*src_lines, *tgt_lines])
    sizes = range(1, (cfg.max_block if block_text else 1) + 1)
    texts = [_block_texts(doc, k) for doc in (src_lines, tgt_lines) for k in sizes]
    flat = [t for group in texts for t in group]
    if progress is not None:
        progress(f"encoding {len(flat):,} texts ({len(src_lines):,} + {len(tgt_lines):,} lines)")
    vecs = _dense(encoder.encode(flat)) if flat else np.zeros((0, 1), np.float32)
    parts, start = [], 0
    for group in texts:
        parts.append(vecs[start : start + len(group)])
        start += len(group)
    k = len(sizes)
    src_b, tgt_b = parts[:k], parts[k:]
    if not block_text:
        return align_vectors(src_b[0], tgt_b[0], cfg, progress)
    return align_vectors(src_b, tgt_b, cfg, progress)
