"""Run XSR for an encoder on a ``src<TAB>tgt`` file: square (all pairs, both directions) or pooled.

Square protocol: every source is a query against all targets of the file and vice versa; P@k of both
directions and their mean (paper 000's Table 2 style, on our held-out test pools).

Pooled protocol (paper 000's Table 4: "2,000 source queries searching among 200k sentences in the target
language"): ``queries`` seeded source sentences search a pool of ``pool`` target sentences made of their own
translations, the other targets of the file and, if given, extra ``distractors`` (e.g. the target side of a
training file). One direction (source to target), like the paper. Distractors equal to a gold target are
dropped (they would tie with it).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from lingualite.core.errors import BadInputError
from lingualite.encoders.base import Encoder
from lingualite.evaluation.base import cosine_matrix, embed
from lingualite.vectors.retrieval import (
    DEFAULT_K,
    Method,
    check_method,
    gold_ranks,
    precision_from_ranks,
    search_device,
    xsr_from_similarity,
)


def load_distractors(path: str | Path, column: int = 1) -> list[str]:
    """Sentences, one a line; a line with TABs (a ``src<TAB>tgt[<TAB>doc]`` pair file) gives its field
    ``column`` (0-based: 1, the target side, for source-to-target queries; 0 for the reverse direction)."""
    path = Path(path)
    out: list[str] = []
    with open(path, "rb") as fh:
        for lineno, raw in enumerate(fh, 1):
            try:
                line = raw.decode("utf-8").rstrip("\r\n")
            except UnicodeDecodeError as exc:
                raise BadInputError(path, lineno, f"not UTF-8 ({exc.reason} at byte {exc.start})") from exc
            text = line.split("\t")[column if "\t" in line else 0].strip()
            if text:
                out.append(text)
    if not out:
        raise BadInputError(path, None, "no distractor sentences")
    return list(dict.fromkeys(out))


def evaluate_xsr(
    encoder: Encoder,
    src: list[str],
    tgt: list[str],
    method: Method = "nn",
    *,
    queries: int | None = None,
    pool: int | None = None,
    distractors: Sequence[str] = (),
    seed: int = 0,
    k: int | None = None,
) -> dict[str, Any]:
    """XSR P@1/5/10 of ``encoder`` on aligned ``src``/``tgt``.

    :param method: ``nn`` (cosine), ``csls`` (k=10) or ``margin`` (ratio margin, k=4); ``k`` overrides.
    :param queries: number of seeded source queries; with ``pool`` or ``distractors`` it selects the
        pooled protocol (one direction), otherwise the square one (both directions, all pairs).
    :param pool: target pool size (gold translations + other targets + distractors); default: all of them.
    :param distractors: extra target-language sentences for the pool.
    """
    check_method(method)
    if len(src) != len(tgt) or not src:
        raise ValueError("XSR needs the same, non-zero number of sources and targets")
    if queries is None and pool is None and not distractors:
        src_emb, tgt_emb = embed(encoder, src, tgt)
        scores = xsr_from_similarity(cosine_matrix(src_emb, tgt_emb), method, k=k)
        return {**scores, "num_pairs": len(src), "method": method}
    return _pooled(encoder, src, tgt, method, queries, pool, distractors, seed, k)


def _pooled(
    encoder: Encoder,
    src: list[str],
    tgt: list[str],
    method: Method,
    queries: int | None,
    pool: int | None,
    distractors: Sequence[str],
    seed: int,
    k: int | None,
) -> dict[str, Any]:
    rng = np.random.default_rng(seed)
    n_q = len(src) if queries is None else queries
    if not 0 < n_q <= len(src):
        raise ValueError(f"queries must be between 1 and the {len(src)} pairs of the file, got {n_q}")
    q_idx = np.sort(rng.choice(len(src), n_q, replace=False))
    gold_texts = [tgt[i] for i in q_idx]
    gold_set = set(gold_texts)
    others = [t for t in tgt if t not in gold_set]  # targets are unique (``unique_sides``)
    seen = gold_set | set(others)
    candidates = others + [t for t in dict.fromkeys(distractors) if t not in seen]
    size = n_q + len(candidates) if pool is None else pool
    if size < n_q:
        raise ValueError(f"pool ({size}) must be at least the number of queries ({n_q})")
    if size - n_q > len(candidates):
        raise ValueError(
            f"pool of {size} needs {size - n_q} distractors but only {len(candidates)} exist "
            "(other targets of the file + --distractors); lower --pool or add distractors"
        )
    chosen = rng.choice(len(candidates), size - n_q, replace=False) if size > n_q else np.array([], int)
    pool_texts = gold_texts + [candidates[i] for i in np.sort(chosen)]
    q_emb, p_emb = embed(encoder, [src[i] for i in q_idx], pool_texts)
    ranks = gold_ranks(q_emb, p_emb, np.arange(n_q), method, k, gpu=search_device(encoder))
    precision = precision_from_ranks(ranks)
    out: dict[str, Any] = {**precision, **{f"src2tgt_{key}": value for key, value in precision.items()}}
    out.update(
        {
            "num_queries": n_q,
            "pool_size": len(pool_texts),
            "num_distractors": len(pool_texts) - n_q,
            "method": method,
            "k": DEFAULT_K[method] if k is None else k,
            "seed": seed,
        }
    )
    return out
