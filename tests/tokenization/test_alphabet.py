"""The alphabet keeps each language's frequent characters within a share of the vocabulary; the rest is [UNK]."""

from __future__ import annotations

from collections import Counter

import pytest

from lingualite.tokenization import train_tokenizer
from lingualite.tokenization.alphabet import character_counts, choose_alphabet, normalized_lines, without_rare

# 300 distinct Han characters, the first ones far more frequent (a Zipf-like tail), and a little English
HAN = [chr(0x4E00 + i) for i in range(300)]


def _chinese(n: int) -> list[str]:
    # sentence i holds the characters i % k for growing k: character j occurs about n / (j + 1) times
    return ["".join(HAN[i % (k + 1)] for k in range(0, 300, 7)) for i in range(n)]


def test_coverage_is_counted_per_language() -> None:
    counts = {
        "en": Counter({"e": 800, "t": 199, "q": 1}),  # q: 0.1% of English
        "zh": Counter({c: 10 for c in "一二三四五六七八九十"}),  # 10 characters, 10% each
    }
    assert choose_alphabet(counts, 1.0, 100) == {"e", "t", "q", *"一二三四五六七八九十"}
    assert choose_alphabet(counts, 0.99, 100) == {"e", "t", *"一二三四五六七八九十"}
    # past the limit, the characters most frequent within their own language stay: English's common ones too
    assert choose_alphabet(counts, 1.0, 4) == {"e", "t", "一", "七"}
    with pytest.raises(ValueError, match="coverage"):
        choose_alphabet(counts, 0.0, 10)


def test_rare_characters_become_spaces_in_the_training_text_only_where_they_occur() -> None:
    texts = ["ab", "aX b", "Ab"]
    normalized = normalized_lines(texts, str.lower)
    assert character_counts({"en": normalized}) == {"en": Counter({"a": 3, "b": 3, "x": 1})}
    out = without_rare(texts, normalized, {"a", "b"}, {"a", "b", "x"})
    assert out == ["ab", "a  b", "Ab"]  # normalised only where something was replaced


def test_normalizing_in_chunks_equals_one_call_per_text() -> None:
    from tokenizers import normalizers

    normalize = normalizers.Sequence([normalizers.NFKC(), normalizers.Lowercase()]).normalize_str
    texts = ["\u0301a", "e\u0301", "ｶﾞ", "ﬁ ΟΔΟΣ", "two\nlines", "", "x"] * 10
    assert normalized_lines(texts, normalize) == [normalize(t) for t in texts]
    assert normalized_lines(texts[:4], normalize) == [normalize(t) for t in texts[:4]]


@pytest.mark.parametrize("kind", ["unigram", "wordpiece"])
def test_a_small_vocabulary_with_thousands_of_characters_keeps_the_frequent_ones(kind: str) -> None:
    # 300 Han characters do not fit a 120-token vocabulary: before the alphabet rule the Unigram trainer
    # failed ("vocabulary too small") and WordPiece grew past 120 tokens
    texts = {"zh": _chinese(400), "en": ["the cat sat on the mat"] * 50}
    tok = train_tokenizer(texts, vocab_size=120, kind=kind, sample_size=600)
    assert len(tok) <= 120
    vocab = tok.get_vocab()
    assert all(c in vocab for c in HAN[:20])  # the most frequent characters are tokens
    assert "cat" in tok.decode(tok("the cat")["input_ids"], skip_special_tokens=True)
    assert HAN[290] in "".join(texts["zh"])
    rare = tok(HAN[290], add_special_tokens=False)["input_ids"]  # a rare one seen in training is [UNK]
    assert rare[-1] == tok.unk_token_id
    assert tok("一 the", add_special_tokens=False)["input_ids"][0] != tok.unk_token_id


def test_sentences_for_unsampled_characters_take_one_sentence_for_each_and_skip_what_the_sample_has() -> None:
    from lingualite.tokenization.alphabet import sentences_for_unsampled

    pools = {"ko": ["집에 갔어", "뚜껑 열어", "뚜껑이 있어", "뚜껑 닫아"], "en": ["a b", "a c"]}
    sample = {"ko": ["집에 갔어"], "en": ["a b"]}
    # 뚜 and 껑 (3 times each) come with the first sentence that holds them; 열, 있, 이, 닫, 아 (once) stay out
    assert sentences_for_unsampled(pools, sample, 2) == {"ko": ["뚜껑 열어"]}
    assert sentences_for_unsampled(pools, sample, 1)["ko"] == ["뚜껑 열어", "뚜껑이 있어", "뚜껑 닫아"]
    assert sentences_for_unsampled(pools, sample, 1)["en"] == ["a c"]
    with pytest.raises(ValueError, match="min_count"):
        sentences_for_unsampled(pools, sample, 0)


def test_unsampled_characters_are_compared_as_the_vocabulary_normalises_them() -> None:
    from lingualite.tokenization.alphabet import sentences_for_unsampled
    from lingualite.tokenization.tokenizer import text_normalizer

    normalize = text_normalizer(lowercase=True).normalize_str
    pools = {"fr": ["École", "une école", "Ａ et a", "Ёж", "ёлка"]}
    sample = {"fr": ["une école", "a"]}
    # É is é and full-width Ａ is a once normalised: the sample has both; ё counts twice as Ё + ё
    assert sentences_for_unsampled(pools, sample, 2, normalize) == {"fr": ["Ёж"]}
    # compared raw, É and Ａ look new and Ё, ё once each are under the count
    assert sentences_for_unsampled(pools, sample, 2) == {}
