"""Pseudo-parallel pairs by CSLS over sampled m x m blocks (paper 001, Sec. 3.2).

Scoring every pair of two monolingual corpora is out of reach, so each round samples m sentences of language
A and m of language B, scores the m x m candidates with CSLS (Conneau et al. 2018;
``2 cos(x, y) - r_B(x) - r_A(y)``, r = mean cosine to the k nearest of the other side *within the block*), and
keeps the top min(m * m, per_round) pairs not mined before. Rounds repeat, cycling over the language pairs,
until ``target`` pairs. Larger m makes true translations likelier to be in a block (paper 001, Table 3).

The CSLS arithmetic is :func:`lingualite.retrieval.csls_scores`, shared with retrieval and evaluation.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from lingualite.retrieval import csls_scores, normalize_rows


@dataclass
class MinedPairs:
    """Mined pairs as parallel arrays: sentence ``a[i]`` (language ``lang_a[i]``) ~ ``b[i]`` (``lang_b[i]``),
    with the CSLS score that ranked them and their cosine (the coherence score regressed in Sec. 3.2)."""

    a: np.ndarray
    b: np.ndarray
    lang_a: np.ndarray
    lang_b: np.ndarray
    csls: np.ndarray
    cosine: np.ndarray
    rounds: int = 0
    stats: dict[str, int] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.a)


def mine_block(
    a: np.ndarray, b: np.ndarray, k: int, keep: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The ``keep`` best (row, col) pairs of one block by CSLS, best first: (rows, cols, csls, cosine).

    ``a`` and ``b`` are (m_a, d) and (m_b, d) vectors; rows are normalised here.
    """
    cos = normalize_rows(a) @ normalize_rows(b).T
    scores = csls_scores(cos, k)
    flat = scores.ravel()
    keep = min(keep, flat.size)
    top = np.argpartition(-flat, keep - 1)[:keep] if keep < flat.size else np.arange(flat.size)
    top = top[np.argsort(-flat[top], kind="stable")]
    rows, cols = np.unravel_index(top, scores.shape)
    return rows, cols, flat[top], cos.ravel()[top]


def _language_pairs(languages: list[int], english: int | None) -> list[tuple[int, int]]:
    if english is not None:
        return [(english, other) for other in languages if other != english]
    return [(x, y) for i, x in enumerate(languages) for y in languages[i + 1 :]]


def mine_pseudo_pairs(
    pools: dict[int, tuple[np.ndarray, np.ndarray]],
    sample_size: int,
    k: int,
    per_round: int,
    target: int,
    rng: np.random.Generator,
    english: int | None = None,
    max_rounds: int | None = None,
) -> MinedPairs:
    """Mine ``target`` distinct cross-language pairs.

    :param pools: per language (an int id): (sentence indices, their vectors), the sentences mining may draw.
    :param sample_size: m, sentences drawn per language per round (without replacement; the whole pool when it
        is smaller).
    :param english: mine only pairs with this language (English-centred) instead of every pair of languages.
    :param max_rounds: give up after this many rounds (default: 20x the rounds the target needs), e.g. when
        tiny pools cannot yield enough distinct pairs.
    """
    pairs_of_languages = _language_pairs(sorted(pools), english)
    if not pairs_of_languages:
        raise ValueError("mining needs at least two languages")
    keep = min(sample_size * sample_size, per_round)
    if max_rounds is None:
        max_rounds = 20 * math.ceil(target / keep) + 20
    seen: set[tuple[int, int]] = set()
    found: list[tuple[int, int, int, int, float, float]] = []
    rounds = 0
    while len(found) < target and rounds < max_rounds:
        la, lb = pairs_of_languages[rounds % len(pairs_of_languages)]
        rounds += 1
        ia, va = pools[la]
        ib, vb = pools[lb]
        pick_a = rng.choice(len(ia), size=min(sample_size, len(ia)), replace=False)
        pick_b = rng.choice(len(ib), size=min(sample_size, len(ib)), replace=False)
        rows, cols, csls, cosine = mine_block(va[pick_a], vb[pick_b], k, keep)
        for r, c, s, co in zip(rows, cols, csls, cosine, strict=True):
            key = (int(ia[pick_a[r]]), int(ib[pick_b[c]]))
            if key in seen:
                continue
            seen.add(key)
            found.append((key[0], key[1], la, lb, float(s), float(co)))
            if len(found) == target:
                break
    columns = list(zip(*found, strict=True)) if found else [()] * 6
    return MinedPairs(
        a=np.asarray(columns[0], np.int64),
        b=np.asarray(columns[1], np.int64),
        lang_a=np.asarray(columns[2], np.int32),
        lang_b=np.asarray(columns[3], np.int32),
        csls=np.asarray(columns[4], np.float32),
        cosine=np.asarray(columns[5], np.float32),
        rounds=rounds,
        stats={"rounds": rounds, "pairs": len(found), "kept_per_round": keep},
    )


def mining_precision(
    source: np.ndarray,
    target: np.ndarray,
    sample_size: int,
    k: int,
    per_round: int,
    rng: np.random.Generator,
    rounds: int | None = None,
) -> float:
    """Precision of the mining rule on gold-aligned vectors (row i of ``source`` translates row i of
    ``target``): each round samples m rows of each side independently, as mining samples two monolingual
    corpora, keeps the top min(m * m, per_round) CSLS pairs, and counts those that are translations.

    :param rounds: default: enough rounds for ~1,000 mined pairs (at least 5, at most 200).
    """
    n = len(source)
    m = min(sample_size, n)
    keep = min(m * m, per_round)
    if rounds is None:
        rounds = max(5, min(200, math.ceil(1000 / keep)))
    correct = total = 0
    for _ in range(rounds):
        pick_a = rng.choice(n, size=m, replace=False)
        pick_b = rng.choice(n, size=m, replace=False)
        rows, cols, _, _ = mine_block(source[pick_a], target[pick_b], k, keep)
        correct += int(np.sum(pick_a[rows] == pick_b[cols]))
        total += len(rows)
    return correct / max(total, 1)
