"""One string where a list of texts goes (issue 41, item 3): ``lingualite.encode(model, "one sentence")``
gave one vector per character (a dict: one per key). Every API that takes texts raises a TypeError (also a
LinguaLiteError, like the encoders' own refusal) naming what to give instead."""

from __future__ import annotations

from pathlib import Path

import pytest

import lingualite
from lingualite.core.errors import LinguaLiteError


@pytest.mark.parametrize(
    "texts, word",
    [("one sentence", "one string"), ({"a": "the cat"}, "dict"), (b"the cat", "bytes"), ({"the cat"}, "set")],
)
def test_encode_refuses_what_is_not_a_list_of_texts(static_model: Path, texts, word: str) -> None:
    for call in (
        lambda: lingualite.encode(str(static_model), texts),
        lambda: lingualite.load_encoder(f"static:{static_model}").encode(texts),
        lambda: lingualite.load_encoder(str(static_model)).encode(texts),
    ):
        with pytest.raises(TypeError, match=word) as info:
            call()
        assert isinstance(info.value, LinguaLiteError) and "list of strings" in str(info.value)


def test_lists_tuples_and_generators_are_texts(static_model: Path) -> None:
    assert lingualite.encode(str(static_model), ["the cat", "a dog"]).shape[0] == 2
    assert lingualite.encode(str(static_model), ("the cat",)).shape[0] == 1
    assert lingualite.encode(str(static_model), (t for t in ["the cat", "a dog"])).shape[0] == 2
    with pytest.raises(TypeError, match=r"texts\[1\]: not a string \(int\)"):
        lingualite.encode(str(static_model), ["the cat", 3])


def test_evaluate_xsr_refuses_one_string_too(static_model: Path) -> None:
    encoder = lingualite.load_encoder(str(static_model))
    with pytest.raises(TypeError, match="one string"):
        lingualite.evaluate_xsr(encoder, "the cat", "le chat")
