"""XSR protocols: square (both directions) and pooled (queries against a pool with distractors)."""

from __future__ import annotations

import numpy as np
import pytest

from lingualite.core.errors import BadInputError
from lingualite.encoders.tfidf import TfidfEncoder
from lingualite.evaluation.xsr import evaluate_xsr, load_distractors


class WordVectorEncoder:
    """Bag of fixed random word vectors: a sentence and its word-for-word 'translation' coincide."""

    name = "words"
    dimension = 32

    def __init__(self) -> None:
        self.vectors: dict[str, np.ndarray] = {}
        self.calls: list[int] = []

    def _vec(self, word: str) -> np.ndarray:
        key = word.removeprefix("x")  # 'xcat' translates 'cat'
        if key not in self.vectors:
            seed = int.from_bytes(key.encode()[:8].ljust(8, b"\0"), "little") % 2**32
            self.vectors[key] = np.random.default_rng(seed).normal(size=self.dimension)
        return self.vectors[key]

    def encode(self, texts: list[str]) -> np.ndarray:
        self.calls.append(len(texts))
        return np.stack([sum(self._vec(w) for w in t.split()) for t in texts]).astype(np.float32)


def _pairs(n: int) -> tuple[list[str], list[str]]:
    rng = np.random.default_rng(0)
    words = [f"w{i}" for i in range(200)]
    src = [" ".join(rng.choice(words, 4, replace=False)) for _ in range(n)]
    return src, [" ".join("x" + w for w in s.split()) for s in src]


def test_square_protocol_perfect_translations() -> None:
    src, tgt = _pairs(30)
    for method in ("nn", "csls", "margin"):
        r = evaluate_xsr(WordVectorEncoder(), src, tgt, method)  # type: ignore[arg-type]
        assert r["p_at_1"] == 1.0 and r["num_pairs"] == 30 and r["method"] == method


def test_pooled_protocol_sizes_and_seed() -> None:
    src, tgt = _pairs(50)
    distractors = [f"xw{i} xw{i + 1} xw{i + 2}" for i in range(0, 100)] + [tgt[0]]  # one equals a gold
    enc = WordVectorEncoder()
    r = evaluate_xsr(enc, src, tgt, "margin", queries=10, pool=120, distractors=distractors, seed=3)
    assert r["num_queries"] == 10 and r["pool_size"] == 120 and r["num_distractors"] == 110
    assert enc.calls == [10, 120]
    assert r["p_at_1"] == 1.0 and r["k"] == 4
    again = evaluate_xsr(
        WordVectorEncoder(), src, tgt, "margin", queries=10, pool=120, distractors=distractors, seed=3
    )
    assert again == r


def test_pooled_protocol_defaults_to_every_target() -> None:
    src, tgt = _pairs(20)
    r = evaluate_xsr(WordVectorEncoder(), src, tgt, queries=5)
    assert r["pool_size"] == 20 and r["num_queries"] == 5


def test_pooled_protocol_distractors_make_it_harder() -> None:
    src = ["w1 w2 w3", "w4 w5 w6"]
    tgt = ["xw1 xw2 xw3", "xw4 xw5 xw6"]
    # A distractor nearer to query 0 than its gold (shares all its words, plus a repeat).
    r = evaluate_xsr(WordVectorEncoder(), src, tgt, queries=2, distractors=["xw1 xw2 xw3 xw1 xw2 xw3 xw9"])
    assert r["pool_size"] == 3
    assert r["p_at_1"] in (0.5, 1.0)


def test_pool_larger_than_the_candidates_is_an_error() -> None:
    src, tgt = _pairs(10)
    with pytest.raises(ValueError, match="distractors"):
        evaluate_xsr(WordVectorEncoder(), src, tgt, queries=5, pool=50)
    with pytest.raises(ValueError, match="queries must be"):
        evaluate_xsr(WordVectorEncoder(), src, tgt, queries=11)


def test_pooled_tfidf_works_on_sparse_vectors() -> None:
    src = ["the red house is big", "a small dog runs", "blue cars are fast", "cats sleep all day"]
    tgt = ["the red house is big!", "a small dog runs!", "blue cars are fast!", "cats sleep all day!"]
    r = evaluate_xsr(TfidfEncoder(), src, tgt, "csls", queries=4, distractors=["the big red dog"])
    assert r["p_at_1"] == 1.0 and r["pool_size"] == 5


def test_load_distractors(tmp_path) -> None:
    plain = tmp_path / "d.txt"
    plain.write_text("one sentence\n\ntwo sentences\none sentence\n", encoding="utf-8")
    assert load_distractors(plain) == ["one sentence", "two sentences"]
    pairs = tmp_path / "p.tsv"
    pairs.write_text("en a\tfr a\tdoc1\nen b\tfr b\n", encoding="utf-8")
    assert load_distractors(pairs) == ["fr a", "fr b"]
    assert load_distractors(pairs, column=0) == ["en a", "en b"]  # the pool of the reverse direction
    assert load_distractors(plain, column=0) == ["one sentence", "two sentences"]
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"fine\n\xff\xfe broken\n")
    with pytest.raises(BadInputError, match=r"bad.txt:2: not UTF-8"):
        load_distractors(bad)
    empty = tmp_path / "empty.txt"
    empty.write_text("\n", encoding="utf-8")
    with pytest.raises(BadInputError, match="no distractor"):
        load_distractors(empty)
