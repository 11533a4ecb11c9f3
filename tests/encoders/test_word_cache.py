"""The per-word tokenization cache gives exactly the tokenizer's ids, and refuses tokenizers where it could not."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tokenizers import Regex, Tokenizer, models, normalizers, pre_tokenizers, trainers

from lingualite.encoders import word_cache as wc
from lingualite.encoders.static import StaticEncoder
from lingualite.encoders.word_cache import WordCache, word_cache_for
from lingualite.tokenization.segmentation import pre_tokenizer

# Letters with accents and combining marks, CJK, digits, punctuation, ligatures and case traps (İ, Σ, ß),
# compatibility characters that NFKC turns into a space plus a mark (¨), and whitespace Python splits on
# where the tokenizer may not (U+001C-U+001F) or both do (tab, NBSP, ideographic space, line separator).
ALPHABET = list("abcdeéèüßİΣσςx Z09.,;!?'\"()-") + [
    "e\u0301", "ﬁ", "¨", "中", "文", "字", "😀", "\u200d", "\x1c", "\x1f", "\x85", "\t", "\n", "\xa0", "\u3000",
    "\u2028", "\u2003", "  ", "=\u0338", "[SEP]", "[", "ΟΔΟΣ", "«", "»", "…",
]  # fmt: skip
# Mixed scripts, written with and without spaces: Cyrillic, Han (and a compatibility ideograph NFKC changes),
# Kana with the prolonged sound mark, iteration marks and the voicing mark as a combining character (か + U+3099
# composes to が) or a halfwidth one (ｶﾞ -> ガ), Hangul syllables and conjoining jamo (ᄀ + ᅡ -> 가), CJK and
# fullwidth punctuation, fullwidth digits, combining marks after Han, and zero-width joiners.
MIXED = [
    "кошка", "Ёж", "我们", "北京", "学", "豈", "コンピューター", "です", "々", "〆", "か\u3099", "ｶﾞ", "ｶ", "\uff9e",
    "한국어", "텍스트", "\u1100\u1161", "\u11a8", "。", "、", "「", "」", "！", "？", "１２", "2024年", "中\u0301",
    "\u302a", "\u200d", "\u200b", "ー", " ", " ", "a", "x.", "\u3000",
]  # fmt: skip
CORPUS = [
    "the cat sat on the mat, 42 times!",
    "le chat était assis sur le tapis",
    "der Hund läuft schnell über die Straße",
    "el perro corre rápido 中文 字",
    "il gatto è sulla sedia; ÉTÉ Σίσυφος",
    "кошка сидит на ковре. 我们今天去北京。",
    "東京は日本の首都です。コンピューターを使います「はい」",
    "한국어 텍스트를 처리합니다",
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
    # lingualite's WordPiece stack since #35: Han and Kana split into single characters
    "characters": _wordpiece(
        normalizers.Sequence([normalizers.NFKC(), normalizers.Replace("\t", " "), normalizers.Lowercase()]),
        pre_tokenizer("wordpiece"),
    ),
    # `vocabulary.kana: runs` (the shipped models): Kana runs whole, Han and CJK marks single characters
    "kana-runs": _wordpiece(
        normalizers.Sequence([normalizers.NFKC(), normalizers.Replace("\t", " "), normalizers.Lowercase()]),
        pre_tokenizer("wordpiece", kana="runs"),
    ),
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


@pytest.mark.parametrize("name", sorted(TOKENIZERS))
@settings(max_examples=60, deadline=None)
@given(
    texts=st.lists(
        st.lists(st.sampled_from(MIXED + ALPHABET[:12]), max_size=30).map("".join), min_size=1, max_size=6
    )
)
def test_same_ids_on_mixed_scripts_with_and_without_spaces(name: str, texts: list[str]) -> None:
    tok = TOKENIZERS[name]
    cache = _cache(tok)
    assert [list(ids) for ids in cache.ids(texts)] == _expected(tok, texts)
    assert [list(ids) for ids in cache.ids(texts)] == _expected(tok, texts)  # again, from the cache


@pytest.mark.parametrize("name", ["characters", "bert"])
def test_cuts_chinese_and_japanese_into_their_characters(name: str) -> None:
    tok = TOKENIZERS[name]  # ours splits Han and Kana; BERT's normaliser pads Han with spaces
    cache = _cache(tok)
    texts = ["我们今天去北京。东京は日本の首都です", "北京大学的学生们在学习机器学习和自然语言处理的课程。"]
    assert [list(ids) for ids in cache.ids(texts)] == _expected(tok, texts)
    assert {"我", "们", "北", "京"} <= set(cache.words)
    assert all(len(word) <= wc.MAX_WORD_CHARS for word in cache.words)  # no whole sentence is remembered
    if name == "characters":
        assert {"日", "は", "。", "首"} <= set(cache.words)
    # a kana followed by the combining voicing mark is not cut there: NFKC composes the two
    voiced = ["かか\u3099き", "ｶﾞｷ"]
    assert [list(ids) for ids in cache.ids(voiced)] == _expected(tok, voiced)


def test_with_kana_runs_cuts_at_han_and_keeps_kana_runs_whole() -> None:
    tok = TOKENIZERS["kana-runs"]
    cache = _cache(tok)
    texts = ["東京は日本の首都です。コンピューターを使います", "すごーい・ゲーム"]
    assert [list(ids) for ids in cache.ids(texts)] == _expected(tok, texts)
    # cut at each Han character and CJK mark, never inside a Kana run (ー lengthens the run it is in)
    assert {"東", "京", "日", "本", "。", "・", "首", "都", "使"} <= set(cache.words)
    assert {"は", "です", "コンピューターを", "います", "すごーい", "ゲーム"} <= set(cache.words)
    assert not {"ー", "コ", "す"} & set(cache.words)


def test_long_words_are_tokenized_but_not_remembered() -> None:
    tok = TOKENIZERS["lingualite"]
    cache = _cache(tok)
    long_word = "x" * (wc.MAX_WORD_CHARS + 1)
    texts = [f"the {long_word} cat", long_word]
    assert [list(ids) for ids in cache.ids(texts)] == _expected(tok, texts)
    assert long_word not in cache.words and "the" in cache.words
    assert [list(ids) for ids in cache.ids(texts)] == _expected(tok, texts)


def test_a_metaspace_vocabulary_is_refused_even_with_the_character_rule() -> None:
    tok = Tokenizer.from_str(TOKENIZERS["characters"].to_str())
    tok.pre_tokenizer = pre_tokenizer("unigram")  # Metaspace keeps "▁" on the next word: not word by word
    assert word_cache_for(tok, None) is None


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
        lambda t: setattr(
            t,
            "pre_tokenizer",
            pre_tokenizers.Sequence(
                [pre_tokenizers.WhitespaceSplit(), pre_tokenizers.Split("ab", "isolated")]
            ),
        ),
        lambda t: setattr(
            t,
            "pre_tokenizer",
            pre_tokenizers.Sequence(
                [pre_tokenizers.BertPreTokenizer(), pre_tokenizers.Split(Regex(r"[\p{Han}]{2}"), "isolated")]
            ),
        ),
        lambda t: setattr(
            t,
            "pre_tokenizer",
            pre_tokenizers.Sequence(
                [pre_tokenizers.BertPreTokenizer(), pre_tokenizers.Split(Regex("[a]"), "merged_with_next")]
            ),
        ),
    ],
    ids=[
        "byte-level",
        "metaspace",
        "no-whitespace-split",
        "replace-space",
        "prepend",
        "added-token-with-space",
        "split-on-a-string",
        "split-on-a-counted-pattern",
        "split-merging",
    ],
)
def test_refuses_tokenizers_that_look_across_words(change) -> None:
    tok = Tokenizer.from_str(TOKENIZERS["lingualite"].to_str())
    change(tok)
    assert word_cache_for(tok, None) is None


def test_static_encoder_uses_it_and_gives_the_same_vectors(tiny_tokenizer, tmp_path) -> None:
    from sentence_transformers import SentenceTransformer
    from sentence_transformers.sentence_transformer.modules import StaticEmbedding

    tok = TOKENIZERS["characters"]
    folder = tmp_path / "static"
    SentenceTransformer(modules=[StaticEmbedding(tok, embedding_dim=8)], device="cpu").save(str(folder))
    encoder = StaticEncoder(folder)
    assert encoder.word_cache is not None
    texts = CORPUS[:8] + ["", "   ", "a\x1cb cat", "ÉTÉ ﬁn 中文", "我们今天去北京。東京は日本の首都です"]
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
