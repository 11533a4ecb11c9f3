"""The vocabulary stage's guard on a given tokenizer: one whose normaliser strips Devanagari or Thai marks is
refused for text in those languages (it would read another word), and accepted where no such text is."""

from __future__ import annotations

import pytest
from tokenizers import Tokenizer, normalizers
from tokenizers.models import WordLevel
from transformers import PreTrainedTokenizerFast

from lingualite.core.errors import ConfigError
from lingualite.training.vocabulary import check_keeps_marks


def _tokenizer(strip_accents: bool) -> PreTrainedTokenizerFast:
    backend = Tokenizer(WordLevel({"[UNK]": 0}, unk_token="[UNK]"))
    backend.normalizer = normalizers.BertNormalizer(lowercase=True, strip_accents=strip_accents)
    return PreTrainedTokenizerFast(tokenizer_object=backend, unk_token="[UNK]")


def test_a_tokenizer_that_strips_hindi_vowel_signs_is_refused_for_hindi() -> None:
    texts = {"fr": ["Le café est prêt."], "hi": ["यह किताब है।"]}
    with pytest.raises(ConfigError, match=r"teacher-vocab: its tokenizer strips .* that hi text needs"):
        check_keeps_marks(_tokenizer(strip_accents=True), lambda: texts, "teacher-vocab")


def test_accent_stripping_is_left_alone_where_no_text_needs_marks() -> None:
    """Paper 002's MiniLM vocabulary drops French accents; that is its recipe, not an error."""
    check_keeps_marks(_tokenizer(strip_accents=True), lambda: {"fr": ["Le café est prêt."]}, "x")


def test_a_tokenizer_that_keeps_marks_never_reads_the_text() -> None:
    check_keeps_marks(_tokenizer(strip_accents=False), lambda: pytest.fail("texts read"), "x")
