"""The Vecalign-style aligner: exact paths on a hand-made document, the row-wise programme against a naive
one, and the banded (coarse-to-fine) search against the full programme."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from lingualite.alignment import VecalignConfig, align_texts, align_vectors, allowed_moves
from lingualite.alignment.dp_core import band_around_path, full_band, run_dp
from lingualite.core.errors import LinguaLiteError


def _basis(d: int, i: int) -> np.ndarray:
    v = np.zeros(d, np.float32)
    v[i] = 1.0
    return v


def _shapes(alignment) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    return [(s, t) for s, t, _ in alignment]


def test_hand_made_document_gives_the_exact_path() -> None:
    d = 16
    s = [_basis(d, i) for i in range(8)]
    tgt = [
        s[0],  # 0-0
        s[1] + 0.8 * _basis(d, 12),  # 1 -> 1,2 (split in two halves)
        s[1] - 0.8 * _basis(d, 12),
        s[2] + s[3],  # 2,3 -> 3 (merged)
        # s[4] has no translation (1-0)
        s[5],
        s[6],
        _basis(d, 13),  # an extra target line (0-1)
        s[7],
    ]
    got = align_vectors(np.stack(s), np.stack(tgt), VecalignConfig(skip_cost=0.3))
    assert _shapes(got) == [
        ((0,), (0,)),
        ((1,), (1, 2)),
        ((2, 3), (3,)),
        ((4,), ()),
        ((5,), (4,)),
        ((6,), (5,)),
        ((), (6,)),
        ((7,), (7,)),
    ]
    scores = [score for _, _, score in got]
    assert scores[0] == pytest.approx(1.0) and scores[1] == pytest.approx(1.0, abs=1e-6)
    assert scores[3] == 0.0 and scores[6] == 0.0


def test_default_skip_cost_is_calibrated_on_random_pairs() -> None:
    rng = np.random.default_rng(0)
    src = rng.normal(size=(40, 32)).astype(np.float32)
    tgt = np.delete(src, [10, 25], axis=0) + 0.05 * rng.normal(size=(38, 32)).astype(np.float32)
    got = align_vectors(src, tgt)  # Vecalign's 0.2 quantile: no skip cost to choose
    one_to_one = {(s[0], t[0]) for s, t, _ in got if len(s) == len(t) == 1}
    gold = {(i, j) for j, i in enumerate(i for i in range(40) if i not in (10, 25))}
    assert len(one_to_one & gold) >= 34 and one_to_one <= gold


def _naive(n: int, m: int, moves, table, tgt_skip) -> float:
    """Plain cell-by-cell programme over the same costs, for reference."""
    best = np.full((n + 1, m + 1), np.inf)
    best[0, 0] = 0.0
    for i in range(n + 1):
        for j in range(m + 1):
            if j > 0:
                best[i, j] = min(best[i, j], best[i, j - 1] + tgt_skip[j - 1])
            for k, kt in moves:
                if i >= k and j >= kt:
                    best[i, j] = min(best[i, j], best[i - k, j - kt] + table[(k, kt)][i, j])
    return best[n, m]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_row_wise_programme_finds_the_optimum(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n, m = 9, 11
    moves = allowed_moves(2, many_to_many=True)
    table = {mv: rng.uniform(0.0, 3.0, size=(n + 1, m + 1)) for mv in moves}
    tgt_skip = rng.uniform(0.5, 2.0, size=m)
    path = run_dp(n, m, moves, lambda k, kt, i, cols: table[(k, kt)][i, cols], tgt_skip, full_band(n, m))
    assert sum(k for k, _ in path) == n and sum(kt for _, kt in path) == m
    cost, i, j = 0.0, 0, 0
    for k, kt in path:
        i, j = i + k, j + kt
        cost += tgt_skip[j - 1] if k == 0 else table[(k, kt)][i, j]
    assert cost == pytest.approx(_naive(n, m, moves, table, tgt_skip))


def _noisy_translation(rng: np.random.Generator, src: np.ndarray) -> np.ndarray:
    out, i = [], 0
    while i < len(src):
        r = rng.random()
        if r < 0.05:  # dropped
            i += 1
        elif r < 0.1 and i + 1 < len(src):  # merged
            out.append(src[i] + src[i + 1])
            i += 2
        elif r < 0.15:  # split
            noise = rng.normal(size=src.shape[1])
            out += [src[i] + noise, src[i] - noise]
            i += 1
        elif r < 0.18:  # inserted
            out.append(rng.normal(size=src.shape[1]))
        else:
            out.append(src[i])
            i += 1
    return np.stack(out) + 0.4 * rng.normal(size=(len(out), src.shape[1]))


@pytest.mark.parametrize("seed", [0, 1])
def test_banded_search_equals_the_full_programme(seed: int) -> None:
    rng = np.random.default_rng(seed)
    src = rng.normal(size=(300, 24)).astype(np.float32)
    tgt = _noisy_translation(rng, src).astype(np.float32)
    messages: list[str] = []
    full = align_vectors(src, tgt, VecalignConfig(exact_cells=10**9))
    banded = align_vectors(src, tgt, VecalignConfig(exact_cells=300, window=4), progress=messages.append)
    assert _shapes(banded) == _shapes(full)
    assert len(messages) >= 3  # at least three levels were searched in a band
    assert "level 0" in messages[-1]


def test_band_around_a_path_is_narrow_and_reaches_both_corners() -> None:
    band = band_around_path([(0, 0), (50, 40), (100, 100)], 100, 100, 3)
    assert band[0][0] == 0 and band[100][1] == 100
    assert max(hi - lo for lo, hi in band) <= 20


class WordEncoder:
    """A tiny deterministic bilingual encoder: bag of concept ids through a two-language dictionary."""

    name = "words"
    WORDS = {"cat": 0, "chat": 0, "dog": 1, "chien": 1, "house": 2, "maison": 2, "red": 3, "rouge": 3,
             "car": 4, "voiture": 4, "big": 5, "grand": 5, "tree": 6, "arbre": 6, "bird": 7, "oiseau": 7}  # fmt: skip

    dimension = 8

    def encode(self, texts: list[str]) -> np.ndarray:
        out = np.full((len(texts), self.dimension), 0.05, np.float32)
        for row, text in enumerate(texts):
            for word in text.split():
                out[row, self.WORDS[word]] += 1.0
        return out


def test_align_texts_embeds_joined_blocks() -> None:
    src = ["cat", "dog house", "red", "car", "big tree"]
    tgt = ["chat", "chien", "maison", "rouge voiture", "grand arbre", "oiseau"]
    got = align_texts(src, tgt, WordEncoder(), VecalignConfig(skip_cost=0.4))
    assert _shapes(got) == [
        ((0,), (0,)),
        ((1,), (1, 2)),
        ((2, 3), (3,)),
        ((4,), (4,)),
        ((), (5,)),
    ]


def test_empty_sides_and_bad_settings() -> None:
    vecs = np.eye(3, dtype=np.float32)
    assert _shapes(align_vectors(vecs, np.zeros((0, 3), np.float32))) == [((0,), ()), ((1,), ()), ((2,), ())]
    with pytest.raises(LinguaLiteError, match="max_block"):
        VecalignConfig(max_block=0)
    with pytest.raises(LinguaLiteError, match="skip_percentile"):
        VecalignConfig(skip_percentile=1.5)
    assert allowed_moves(2) == [(1, 1), (1, 2), (2, 1), (1, 0)]
    assert (2, 2) in allowed_moves(2, many_to_many=True)


def test_the_default_skip_is_the_one_measured_best() -> None:
    """SKIP_PERCENTILE is the valid-split best of benchmarks/alignment_eval.py's sweep for every neural encoder
    (the results file it cites), and the default of the config and of `lingualite align` / `eval align`."""
    import inspect
    import json

    from lingualite.alignment.documents import align, make_aligner
    from lingualite.alignment.dp import SKIP_PERCENTILE
    from lingualite.cli.alignment_commands import align_command

    results = Path(__file__).resolve().parents[2] / "benchmarks" / "results" / "alignment_eval.json"
    rows = [r for r in json.loads(results.read_text(encoding="utf-8"))["rows"] if r.get("valid_sweep")]
    neural = [r for r in rows if r["spec"] != "tfidf"]
    assert len(neural) >= 4
    for row in neural:
        sweep = row["valid_sweep"]
        assert float(max(sweep, key=sweep.get)) == SKIP_PERCENTILE, row["label"]
    assert VecalignConfig().skip_percentile == SKIP_PERCENTILE
    for command in (align_command, make_aligner, align):
        assert inspect.signature(command).parameters["skip_percentile"].default == SKIP_PERCENTILE
