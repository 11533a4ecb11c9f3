"""The one rule of encoders/known_tokens.py, per encoder: which texts have no token the model knows."""

from __future__ import annotations

import numpy as np

from lingualite.encoders.known_tokens import mark, marked, no_known_token, refusal
from lingualite.encoders.resolve import load_encoder

TEXTS = ["the cat sleeps", "😀😀", "🎉 .", "∰∰", "Привет"]


def test_the_packaged_static_model_knows_no_token_of_emoji() -> None:
    encoder = load_encoder("lingualite-static")
    vectors = encoder.encode(TEXTS)
    assert no_known_token(encoder, TEXTS, vectors).tolist() == [False, True, False, True, False]
    assert np.allclose(vectors[1], vectors[3])  # the [UNK] row: the same vector for both, before the rule
    assert marked(mark(encoder, TEXTS, vectors)).tolist() == [1, 3]


def test_tfidf_counts_only_the_word_boundary_space_as_nothing_known() -> None:
    encoder = load_encoder("tfidf")
    encoder.fit(["the cat sleeps", "a dog"])
    texts = ["the dog", "😀😀", "xyz qq"]
    assert no_known_token(encoder, texts, encoder.encode(texts)).tolist() == [False, True, True]


def test_an_all_zero_vector_counts_for_any_encoder() -> None:
    class Plain:
        name = "plain"

    vectors = np.array([[0.0, 1.0], [0.0, 0.0]], dtype=np.float32)
    assert no_known_token(Plain(), ["a", "b"], vectors).tolist() == [False, True]


def test_the_refusal_is_one_line_with_a_short_excerpt() -> None:
    error = refusal("in.txt", 7, "😀" * 200)
    assert str(error).startswith("in.txt:7: the model knows no token") and "\n" not in str(error)
    assert len(str(error)) < 300 and "--skip-bad" in str(error)
    assert str(refusal(None, 3, "x")).startswith("texts[3]: ")


def test_the_flat_form_agrees_with_the_per_text_one() -> None:
    from lingualite.encoders.known_tokens import unknown_flat, unknown_ids

    ids_lists = [[5, 0], [0, 0], [], [3]]
    flat = np.array([i for ids in ids_lists for i in ids], dtype=np.int64)
    lengths = np.array([len(ids) for ids in ids_lists])
    expected = unknown_ids(ids_lists, 0).tolist()
    assert unknown_flat(flat, lengths, 0).tolist() == expected == [False, True, True, False]
