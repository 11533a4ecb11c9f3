"""Run XSR for an encoder on a ``src<TAB>tgt`` file (sides de-duplicated, optional seeded subsample)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import numpy as np
from scipy import sparse

from lingualite.data.readers import read_tsv
from lingualite.evaluation.encoders import Encoder, TfidfEncoder
from lingualite.evaluation.retrieval import Method, normalize_rows, xsr_from_similarity


def unique_sides(pairs: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """Keep pairs whose source AND target were not seen before (a retrieval query needs one right answer)."""
    seen_src: set[str] = set()
    seen_tgt: set[str] = set()
    kept: list[tuple[str, str]] = []
    for src, tgt in pairs:
        if src not in seen_src and tgt not in seen_tgt:
            seen_src.add(src)
            seen_tgt.add(tgt)
            kept.append((src, tgt))
    return kept


def load_xsr_pairs(
    path: str | Path, max_pairs: int | None = None, seed: int = 0
) -> tuple[list[str], list[str]]:
    """Pairs of a ``src<TAB>tgt`` file with unique sources and unique targets, optionally a seeded subsample."""
    pairs = unique_sides((p.src, p.tgt) for p in read_tsv(path))
    if max_pairs is not None and len(pairs) > max_pairs:
        keep = np.sort(np.random.default_rng(seed).choice(len(pairs), max_pairs, replace=False))
        pairs = [pairs[i] for i in keep]
    return [s for s, _ in pairs], [t for _, t in pairs]


def _similarity(a: np.ndarray | sparse.spmatrix, b: np.ndarray | sparse.spmatrix) -> np.ndarray:
    if sparse.issparse(a):
        return np.asarray((a @ b.T).todense(), dtype=np.float32)  # TF-IDF rows are already L2-normalised
    return normalize_rows(a) @ normalize_rows(b).T


def evaluate_xsr(
    encoder: Encoder,
    src: list[str],
    tgt: list[str],
    method: Method = "nn",
) -> dict[str, float]:
    """P@1/5/10 in both directions (and their means) of ``encoder`` on aligned ``src``/``tgt``."""
    if len(src) != len(tgt) or not src:
        raise ValueError("XSR needs the same, non-zero number of sources and targets")
    if isinstance(encoder, TfidfEncoder):
        encoder.fit(src + tgt)
    scores = xsr_from_similarity(_similarity(encoder.encode(src), encoder.encode(tgt)), method)
    return {**scores, "num_pairs": len(src)}
