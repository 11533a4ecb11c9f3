"""The register benchmark (issue 40, item 1): retrieval per register and language with a fixed pool.

The registers and their held-out cells come from :mod:`lingualite.data.evalsets.registers` (re-exported here),
teacher fidelity from :mod:`lingualite.evaluation.fidelity`; ``benchmarks/register_table.py`` runs the whole
table for several models in one command.

Retrieval (:func:`fixed_pool_p_at_1`): every query (both directions) searches a **fixed pool** of ``pool``
candidates: its own translation and ``pool - 1`` other targets of the same cell drawn with a seed (the same
draws for every model); a hit needs the gold candidate's cosine strictly above every distractor's (a tie is a
miss). A fixed pool makes scores comparable across registers and languages whatever their test sizes; a cell
with fewer than ``pool`` pairs uses all of them and reports its pool.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from lingualite.data.evalsets.registers import (
    DEFAULT_RECIPE_REGISTERS,
    MIN_PAIRS,
    REGISTER_NAMES,
    ParallelCell,
    RegisterSet,
    calibration_texts,
    discover_registers,
    everyday_cells,
    parallel_cells,
    register_of_doc,
    sample_by_document,
    text_registers,
)
from lingualite.evaluation.fidelity import (
    Projection,
    exact_projection,
    fidelity_table,
    fit_orthogonal_projection,
    pca_ceiling,
    teacher_fidelity,
)

__all__ = [
    "DEFAULT_POOL",
    "DEFAULT_RECIPE_REGISTERS",
    "MIN_PAIRS",
    "REGISTER_NAMES",
    "ParallelCell",
    "Projection",
    "RegisterSet",
    "calibration_texts",
    "discover_registers",
    "everyday_cells",
    "exact_projection",
    "fidelity_table",
    "fit_orthogonal_projection",
    "fixed_pool_p_at_1",
    "parallel_cells",
    "pca_ceiling",
    "register_of_doc",
    "sample_by_document",
    "score_retrieval",
    "summarise",
    "teacher_fidelity",
    "text_registers",
]

DEFAULT_POOL = 50
"""Candidates per query (the gold translation + 49 others): the issue's 'among 50 candidates'."""


def _hash(*parts: object) -> int:
    digest = hashlib.blake2b("\x1f".join(map(str, parts)).encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def fixed_pool_p_at_1(sim: np.ndarray, pool: int = DEFAULT_POOL, seed: int = 0) -> tuple[float, int]:
    """P@1 of a square similarity matrix (``sim[i, i]`` = query i and its translation), each query searching
    its gold candidate and ``pool - 1`` other candidates drawn with ``seed``, in both directions (the mean).

    A hit needs the gold score strictly above every drawn distractor's (a tie is a miss). With fewer than
    ``pool`` pairs every other candidate is drawn. Returns (P@1, the pool actually used).
    """
    sim = np.asarray(sim, dtype=np.float64)
    n = sim.shape[0]
    if n == 0 or sim.shape != (n, n):
        raise ValueError(f"need a non-empty square matrix, got {sim.shape}")
    used = min(pool, n)
    rng = np.random.default_rng(seed)
    scores = []
    for matrix in (sim, sim.T):
        hits = 0
        for i in range(n):
            others = np.delete(np.arange(n), i)
            drawn = others if used - 1 >= len(others) else rng.choice(others, used - 1, replace=False)
            hits += bool(len(drawn) == 0 or matrix[i, i] > matrix[i, drawn].max())
        scores.append(hits / n)
    return float(np.mean(scores)), used


def _cell_seed(seed: int, cell: ParallelCell) -> int:
    return _hash(seed, "pool", cell.register, cell.pair) % (2**32)


def _mean(values: Iterable[float]) -> float | None:
    values = list(values)
    return round(float(np.mean(values)), 4) if values else None


Vectors = Callable[[list[str]], np.ndarray]


def score_retrieval(
    vectors: Vectors | None,
    cells: Sequence[ParallelCell],
    pool: int = DEFAULT_POOL,
    seed: int = 0,
    fitted: Callable[[list[str]], Vectors] | None = None,
) -> tuple[dict[str, dict[str, float]], dict[str, dict[str, int]]]:
    """P@1 per register and pair (:func:`fixed_pool_p_at_1`, the same draws for every model), and the pool
    used where it is below ``pool``. ``vectors`` maps texts to vectors; an encoder that is fitted on the
    texts it ranks (TF-IDF) passes ``fitted(texts)`` instead, called once per cell on its two sides."""
    from lingualite.evaluation.base import cosine_matrix

    scores: dict[str, dict[str, float]] = defaultdict(dict)
    small: dict[str, dict[str, int]] = defaultdict(dict)
    for cell in cells:
        encode = fitted(cell.src + cell.tgt) if fitted is not None else vectors
        assert encode is not None
        sim = cosine_matrix(encode(cell.src), encode(cell.tgt))
        p, used = fixed_pool_p_at_1(sim, pool, _cell_seed(seed, cell))
        scores[cell.register][cell.pair] = round(p, 4)
        if used < pool:
            small[cell.register][cell.pair] = used
    return dict(scores), dict(small)


def summarise(
    p_at_1: Mapping[str, Mapping[str, Mapping[str, float]]],
    seen: Mapping[str, Sequence[str]],
    references: Sequence[str],
    english: str = "en",
    pair_order: Sequence[str] = (),
) -> dict[str, Any]:
    """Per model: the mean per register (en-xx pairs, non-English pairs), and per pair the mean over all
    registers, over the registers it never saw, and the gap to each reference on those same cells; the pairs
    of ``pair_order`` first, in its order."""
    out: dict[str, Any] = {}
    for model, by_reg in p_at_1.items():
        unseen = [r for r in by_reg if r not in set(seen.get(model, ()))]
        by_register = {
            reg: {
                "en-xx": _mean(v for p, v in row.items() if p.startswith(f"{english}-")),
                "non-english": _mean(v for p, v in row.items() if not p.startswith(f"{english}-")),
            }
            for reg, row in by_reg.items()
        }
        found = list(dict.fromkeys(p for row in by_reg.values() for p in row))
        pairs = [p for p in pair_order if p in found] + [p for p in found if p not in pair_order]
        by_pair: dict[str, dict[str, Any]] = {}
        for pair in pairs:
            row: dict[str, Any] = {
                "all": _mean(by_reg[r][pair] for r in by_reg if pair in by_reg[r]),
                "unseen": _mean(by_reg[r][pair] for r in unseen if pair in by_reg[r]),
            }
            for ref in references:
                if ref == model or ref not in p_at_1:
                    continue
                gaps = [
                    by_reg[r][pair] - p_at_1[ref][r][pair]
                    for r in unseen
                    if pair in by_reg[r] and pair in p_at_1[ref].get(r, {})
                ]
                row[f"gap_unseen/{ref}"] = _mean(gaps)
            by_pair[pair] = row
        out[model] = {
            "unseen_registers": unseen,
            "by_register": by_register,
            "by_pair": by_pair,
            "mean_unseen_en_xx": _mean(
                v["unseen"]
                for p, v in by_pair.items()
                if p.startswith(f"{english}-") and v["unseen"] is not None
            ),
            "mean_unseen_non_english": _mean(
                v["unseen"]
                for p, v in by_pair.items()
                if not p.startswith(f"{english}-") and v["unseen"] is not None
            ),
        }
    return out
