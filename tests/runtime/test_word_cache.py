"""The per-word tokenization cache gives exactly the tokenizer's ids, and refuses tokenizers where it could not."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, trainers

from lingualite.runtime import word_cache as wc
from lingualite.runtime.static_encoder import StaticEncoder
from lingualite.runtime.word_cache import WordCache, word_cache_for

# Letters with accents and combining marks, CJK, digits, punctuation, ligatures and case traps (İ, Σ, ß),
# compatibility characters that NFKC turns into a space plus a mark (¨), and whitespace Python splits on
# where the tokenizer may not (U+001C-U+001F) or both do (tab, NBSP, ideographic space, line separator).
ALPHABET = list("abcdeéèüßİΣσςx Z09.,;!?'\"()-") + [
    "e\u0301", "ﬁ", "¨", "中", "文", "字", "😀", "\u200d", "\x1c", "\x1f", "\x85", "\t", "\n", "\xa0", "\u3000",
    "\u2028", "\u2003", "  ", "=\u0338", "[SEP]", "[", "ΟΔΟΣ", "«", "»", "…",
]  # fmt: skip
CORPUS = [
    "the cat sat on the mat, 42 times!",
    "le chat était assis sur le tapis",
    "der Hund läuft schnell über die Straße",
    "el perro corre rápido 中文 字",
    "il gatto è sulla sedia; ÉTÉ Σίσυφος",
] * 20


def _wordpiece(normalizer: normalizers.Normalizer, pre: pre_tokenizers.PreTokenizer) -> Tokenizer:
    tok = Tokenizer(models.WordPiece(unk_token="[UNK]", max_input_chars_per_word=12))
    tok.normalizer, tok.pre_tokenizer = normalizer, pre
    tok.train_from_iterator(CORPUS, trainers.WordPieceTrainer(vocab_size=150, special_tokens=["[UNK]"]))
    return tok


TOKENIZERS = {
    # lingualite's WordPiece stack (tokenization/train.py): what our static students use
    "lingualite": _wordpiece(
        normalizers.Sequence([normalizers.NFKC(), normalizers.Replace("\t", " "), normalizers.Lowercase()]),
        pre_tokenizers.Sequence(
            [pre_tokenizers.BertPreTokenizer(), pre_tokenizers.Digits(individual_digits=True)]
        ),
    ),
    # BERT's (model2vec distils from such tokenizers): control characters removed, CJK split, accents stripped
    "bert": _wordpiece(normalizers.BertNormalizer(lowercase=True), pre_tokenizers.BertPreTokenizer()),
    "whitespace": _wordpiece(normalizers.NFD(), pre_tokenizers.Whitespace()),
}


def _expected(tok: Tokenizer, texts: list[str]) -> list[list[int]]:
    return [e.ids for e in tok.encode_batch(texts, add_special_tokens=False)]


def _cache(tok: Tokenizer, max_length: int | None = None) -> WordCache:
    cache = word_cache_for(tok, max_length)
    assert cache is not None
    return cache


@pytest.mark.parametrize("name", sorted(TOKENIZERS))
@settings(max_examples=60, deadline=None)
@given(texts=st.lists(st.lists(st.sampled_from(ALPHABET), max_size=40).map("".join), min_size=1, max_size=6))
def test_same_ids_as_the_tokenizer(name: str, texts: list[str]) -> None:
    tok = TOKENIZERS[name]
    cache = _cache(tok)
    assert [list(ids) for ids in cache.ids(texts)] == _expected(tok, texts)
    assert [list(ids) for ids in cache.ids(texts)] == _expected(tok, texts)  # again, from the cache


def test_cuts_new_words_at_punctuation_where_the_tokenizer_isolates_it() -> None:
    tok = TOKENIZERS["lingualite"]
    cache = _cache(tok)
    texts = ["word, word. (word) l'homme", "ΟΔΟΣ'Α ΟΔΟΣ.Α a=\u0338b x.\u0301y"]
    assert [list(ids) for ids in cache.ids(texts)] == _expected(tok, texts)
    assert {"word", ",", "(", "l", "'", "homme", "ΟΔΟΣ", "Α"} <= set(cache.words)
    assert "a=\u0338b" in cache.words and "a" not in cache.words  # a combining mark: not cut
    assert _cache(TOKENIZERS["whitespace"]).splitter is None  # groups ",." into one piece: never cut


def test_never_cuts_inside_an_added_token() -> None:
    tok = Tokenizer.from_str(TOKENIZERS["lingualite"].to_str())
    tok.add_special_tokens(["[SEP]", "<x>"])
    cache = _cache(tok)
    assert cache.splitter is not None and not cache.splitter.search("[]<>") and cache.splitter.search(",")
    texts = ["a[SEP]b, <x>c. [SEP]"]
    assert [list(ids) for ids in cache.ids(texts)] == _expected(tok, texts)


@pytest.mark.parametrize(
    "token",
    [
        {"content": "<m>"},
        {"content": "<m>", "lstrip": True},
        {"content": "<m>", "rstrip": True},
        {"content": "zz", "single_word": True},
    ],
    ids=["plain", "lstrip", "rstrip", "single-word"],
)
@settings(max_examples=60, deadline=None)
@given(
    texts=st.lists(
        st.lists(st.sampled_from([*ALPHABET, "<m>", " <m> ", "zz", "_"]), max_size=40).map("".join),
        min_size=1,
        max_size=4,
    )
)
def test_same_ids_with_added_tokens(token: dict, texts: list[str]) -> None:
    from tokenizers import AddedToken

    tok = Tokenizer.from_str(TOKENIZERS["lingualite"].to_str())
    tok.add_tokens([AddedToken(**token)])
    cache = _cache(tok)
    assert [list(ids) for ids in cache.ids(texts)] == _expected(tok, texts)


def test_truncates_like_the_tokenizer() -> None:
    tok = Tokenizer.from_str(TOKENIZERS["lingualite"].to_str())
    tok.enable_truncation(7)
    texts = ["the cat sat on the mat, 42 times! " * 3, "le chat", ""]
    ids = _cache(tok, max_length=7).ids(texts)
    assert [list(i) for i in ids] == _expected(tok, texts)
    assert len(ids[0]) == 7


def test_finds_the_whitespace_the_tokenizer_does_not_split_on() -> None:
    cache = _cache(TOKENIZERS["bert"])  # BERT's normaliser deletes U+001C-U+001F: "a\x1cb" is one word
    assert cache.unsafe is not None and cache.unsafe.search("a\x1cb") and not cache.unsafe.search("a b\tc")


def test_memory_stays_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(wc, "MAX_WORDS", 10)
    tok = TOKENIZERS["lingualite"]
    cache = _cache(tok)
    texts = [f"word{i} other{i % 3} the cat" for i in range(50)]
    for start in range(0, 50, 5):
        batch = texts[start : start + 5]
        assert [list(ids) for ids in cache.ids(batch)] == _expected(tok, batch)
        assert len(cache.words) <= 10


@pytest.mark.parametrize(
    "change",
    [
        lambda t: setattr(t, "pre_tokenizer", pre_tokenizers.ByteLevel()),
        lambda t: setattr(t, "pre_tokenizer", pre_tokenizers.Metaspace()),
        lambda t: setattr(t, "pre_tokenizer", pre_tokenizers.Digits()),  # never splits on whitespace
        lambda t: setattr(t, "normalizer", normalizers.Replace(" ", "_")),
        lambda t: setattr(t, "normalizer", normalizers.Prepend("▁")),
        lambda t: t.add_tokens(["new york"]),
    ],
    ids=[
        "byte-level",
        "metaspace",
        "no-whitespace-split",
        "replace-space",
        "prepend",
        "added-token-with-space",
    ],
)
def test_refuses_tokenizers_that_look_across_words(change) -> None:
    tok = Tokenizer.from_str(TOKENIZERS["lingualite"].to_str())
    change(tok)
    assert word_cache_for(tok, None) is None


def test_static_encoder_uses_it_and_gives_the_same_vectors(tiny_tokenizer, tmp_path) -> None:
    from sentence_transformers import SentenceTransformer
    from sentence_transformers.sentence_transformer.modules import StaticEmbedding

    tok = TOKENIZERS["lingualite"]
    folder = tmp_path / "static"
    SentenceTransformer(modules=[StaticEmbedding(tok, embedding_dim=8)], device="cpu").save(str(folder))
    encoder = StaticEncoder(folder)
    assert encoder.word_cache is not None
    texts = CORPUS[:5] + ["", "   ", "a\x1cb cat", "ÉTÉ ﬁn 中文"]
    fast = encoder.encode(texts)
    encoder.word_cache = None
    np.testing.assert_array_equal(fast, encoder.encode(texts))


@pytest.mark.parametrize("name", sorted(TOKENIZERS))
@settings(max_examples=40, deadline=None)
@given(texts=st.lists(st.lists(st.sampled_from(ALPHABET), max_size=60).map("".join), min_size=1, max_size=6))
def test_same_ids_with_special_tokens_and_truncation(name: str, texts: list[str]) -> None:
    from tokenizers import processors

    tok = Tokenizer.from_str(TOKENIZERS[name].to_str())
    tok.add_special_tokens(["[CLS]", "[SEP]"])
    cls, sep = tok.token_to_id("[CLS]"), tok.token_to_id("[SEP]")
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP] [SEP]", special_tokens=[("[CLS]", cls), ("[SEP]", sep)]
    )  # a prefix of one and a suffix of two special tokens
    tok.enable_truncation(9)
    cache = word_cache_for(tok, 9, special_tokens=True)
    assert cache is not None and cache.prefix == [cls] and cache.suffix == [sep, sep]
    assert [list(ids) for ids in cache.ids(texts)] == [e.ids for e in tok.encode_batch(texts)]
