"""(context, sentence) inputs: the window stays inside the document, negatives are random replacements."""

from __future__ import annotations

import numpy as np
import pytest

from lingualite.recipes.monolingual.contexts import TokenizedCorpus, classification_examples, pad_batch
from lingualite.recipes.monolingual.documents import Document, MonolingualCorpus
from lingualite.tokenization import train_tokenizer


@pytest.fixture(scope="module")
def corpus() -> TokenizedCorpus:
    docs = {
        "en": [
            Document("e1", "en", ["one two", "three four", "five six", "seven eight"]),
            Document("e2", "en", ["nine ten", "eleven twelve"]),
        ],
        "fr": [Document("f1", "fr", ["un deux", "trois quatre", "cinq six"])],
    }
    mono = MonolingualCorpus(docs)
    texts = {lang: mono.sentences(lang) for lang in docs}
    tokenizer = train_tokenizer(texts, vocab_size=60, kind="wordpiece", sample_size=200)
    return TokenizedCorpus.build(mono, tokenizer, max_sentence_tokens=8)


def test_sentences_are_in_document_order_with_their_bounds(corpus: TokenizedCorpus) -> None:
    assert corpus.texts[:4] == ["one two", "three four", "five six", "seven eight"]
    assert list(corpus.doc_start[:6]) == [0, 0, 0, 0, 4, 4]
    assert list(corpus.doc_end[:6]) == [4, 4, 4, 4, 6, 6]
    assert list(corpus.language) == [0] * 6 + [1] * 3
    assert list(corpus.indices_of(0)) == list(range(6)) and list(corpus.indices_of(1)) == [6, 7, 8]


def _ids(corpus: TokenizedCorpus, *sentences: int) -> list[int]:
    return [corpus.cls_id, *[t for s in sentences for t in corpus.ids[s]], corpus.sep_id]


def test_window_one_takes_one_sentence_each_side(corpus: TokenizedCorpus) -> None:
    assert list(corpus.context_input(1, 1, window=1)) == _ids(corpus, 0, 1, 2)
    assert list(corpus.context_input(1, 7, window=1)) == _ids(corpus, 0, 7, 2)  # s_7 replaces s_1


def test_window_never_crosses_the_document(corpus: TokenizedCorpus) -> None:
    assert list(corpus.context_input(0, 0, window=2)) == _ids(corpus, 0, 1, 2)  # first sentence: no left side
    assert list(corpus.context_input(3, 3, window=2)) == _ids(corpus, 1, 2, 3)  # last of e1: not e2's
    assert list(corpus.context_input(4, 4, window=3)) == _ids(corpus, 4, 5)


def test_classification_examples_half_positive_half_random(corpus: TokenizedCorpus) -> None:
    rng = np.random.default_rng(0)
    batch = classification_examples(corpus, 64, rng, same_language=True)
    pos, neg = batch.target == 1, batch.target == 0
    assert pos.sum() == neg.sum() == 32
    assert np.array_equal(batch.middle[pos], batch.center[pos])
    assert np.all(batch.middle[neg] != batch.center[neg])
    assert np.array_equal(corpus.language[batch.middle[neg]], corpus.language[batch.center[neg]])


def test_negatives_from_any_language_cross_languages(corpus: TokenizedCorpus) -> None:
    batch = classification_examples(corpus, 400, np.random.default_rng(1), same_language=False)
    neg = batch.target == 0
    assert np.any(corpus.language[batch.middle[neg]] != corpus.language[batch.center[neg]])


def test_examples_are_a_function_of_the_seed(corpus: TokenizedCorpus) -> None:
    a = classification_examples(corpus, 16, np.random.default_rng([0, 1, 5]))
    b = classification_examples(corpus, 16, np.random.default_rng([0, 1, 5]))
    assert np.array_equal(a.center, b.center) and np.array_equal(a.middle, b.middle)


def test_pad_batch_keeps_the_final_sep() -> None:
    ids, mask = pad_batch([np.array([2, 7, 8, 9, 3]), np.array([2, 5, 3])], pad_id=0, max_length=4)
    assert ids.tolist() == [[2, 7, 8, 3], [2, 5, 3, 0]]
    assert mask.tolist() == [[1, 1, 1, 1], [1, 1, 1, 0]]


def test_regression_examples_mix_mined_self_and_random() -> None:
    from lingualite.mining.pseudo_pairs import MinedPairs
    from lingualite.recipes.monolingual.iteration import IterationData, regression_examples

    mined = MinedPairs(
        a=np.array([10, 11]),
        b=np.array([20, 21]),
        lang_a=np.array([0, 0], np.int32),
        lang_b=np.array([1, 1], np.int32),
        csls=np.array([0.5, 0.4], np.float32),
        cosine=np.array([0.9, 0.8], np.float32),
    )
    rng = np.random.default_rng(0)
    pool = np.arange(30, 40)
    vectors = rng.normal(size=(10, 4)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    batch = regression_examples(IterationData(mined, pool, vectors), 200, 0.5, rng)
    score = {(10, 20): 0.9, (20, 10): 0.9, (11, 21): 0.8, (21, 11): 0.8}
    mined_rows = batch.center < 30
    assert mined_rows.sum() == 100
    for c, m, t in zip(
        batch.center[mined_rows], batch.middle[mined_rows], batch.target[mined_rows], strict=True
    ):
        assert score[(int(c), int(m))] == pytest.approx(t)
    assert {
        (int(c), int(m)) for c, m in zip(batch.center[mined_rows], batch.middle[mined_rows], strict=True)
    } == set(score)
    rest = ~mined_rows
    same = batch.center == batch.middle
    # "self" rows (and random rows that drew their own center) have score 1
    np.testing.assert_allclose(batch.target[rest & same], 1.0, atol=1e-6)
    assert (rest & same).sum() >= 50
    for c, m, t in zip(
        batch.center[rest & ~same], batch.middle[rest & ~same], batch.target[rest & ~same], strict=True
    ):
        assert t == pytest.approx(float(vectors[c - 30] @ vectors[m - 30]), abs=1e-6)

    data = IterationData(mined, pool, vectors)
    zero = regression_examples(data, 200, 0.5, np.random.default_rng(0), random_score="zero")
    random_rows = (zero.center >= 30) & (zero.center != zero.middle)
    assert random_rows.any() and np.all(zero.target[random_rows] == 0.0)
