"""New vocabularies cut Han and Kana into single characters, keep Hangul, Cyrillic and Latin word-based, and
save the rule in tokenizer.json; vocabularies saved before the rule keep tokenizing as they did."""

from __future__ import annotations

import json
import re

import pytest
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers
from transformers import PreTrainedTokenizerFast

from lingualite.tokenization import load_tokenizer, train_tokenizer
from lingualite.tokenization.segmentation import CHARACTER_SCRIPTS, pre_tokenizer

# a tiny mixed corpus: every script of the 13 languages, fullwidth punctuation, digits
MIXED = {
    "en": ["the cat sat on the mat", "machine learning is fun, 42 times!"],
    "fr": ["le chat est sur le tapis", "l'apprentissage automatique"],
    "pl": ["zażółć gęślą jaźń", "uczenie maszynowe"],
    "tr": ["İstanbul'da güzel bir gün", "makine öğrenimi"],
    "ru": ["кошка сидит на ковре", "машинное обучение интересно"],
    "zh": ["我们今天去北京。", "机器学习很有趣！（真的）"],
    "ja": ["東京は日本の首都です。", "コンピューターを使います、「はい」々"],
    "ko": ["나는 학교에 갑니다", "한국어 텍스트를 처리합니다", "학교에서 텍스트를"],
}
HAN_KANA = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\u3001-\u3029]")


def _content(token: str) -> str:
    return token.removeprefix("##").replace("▁", "")


@pytest.fixture(scope="module", params=["unigram", "wordpiece"])
def mixed_tokenizer(request) -> PreTrainedTokenizerFast:
    return train_tokenizer(MIXED, vocab_size=400, kind=request.param, sample_size=400)


def test_the_character_scripts_come_from_the_registry() -> None:
    assert CHARACTER_SCRIPTS == ("Han", "Hiragana", "Katakana")


def test_every_han_and_kana_character_is_its_own_token_and_nothing_is_unknown(mixed_tokenizer) -> None:
    for sentences in MIXED.values():
        for sentence in sentences:
            tokens = mixed_tokenizer.tokenize(sentence)
            ids = mixed_tokenizer(sentence, add_special_tokens=False)["input_ids"]
            assert mixed_tokenizer.unk_token_id not in ids, (sentence, tokens)
            for token in tokens:  # a token holding Han or Kana holds exactly one character
                if HAN_KANA.search(_content(token)):
                    assert len(_content(token)) == 1 and not token.startswith("##"), (sentence, tokens)
            normalised = mixed_tokenizer.backend_tokenizer.normalizer.normalize_str(sentence)
            assert len([t for t in tokens if HAN_KANA.search(t)]) == len(HAN_KANA.findall(normalised))


def test_korean_and_cyrillic_stay_word_based(mixed_tokenizer) -> None:
    tokens = mixed_tokenizer.tokenize("학교에서 텍스트를 машинное")
    # pieces of several syllables (or letters): Hangul is not cut into characters
    assert any(len(_content(t)) > 1 for t in tokens if re.search("[가-힣]", t)), tokens
    assert any(len(_content(t)) > 1 for t in tokens if re.search("[а-я]", t)), tokens


def test_the_saved_file_carries_the_rule_for_tools_without_lingualite(mixed_tokenizer, tmp_path) -> None:
    mixed_tokenizer.save_pretrained(str(tmp_path))
    saved = json.loads((tmp_path / "tokenizer.json").read_text(encoding="utf-8"))
    assert "Split" in json.dumps(saved["pre_tokenizer"]) and r"\p{Han}" in json.dumps(saved["pre_tokenizer"])
    text = "我们去北京。コンピューター 한국어 the cat"
    expected = mixed_tokenizer(text)["input_ids"]
    assert (
        PreTrainedTokenizerFast.from_pretrained(str(tmp_path))(text)["input_ids"] == expected
    )  # transformers
    assert (
        Tokenizer.from_file(str(tmp_path / "tokenizer.json")).encode(text).ids == expected
    )  # tokenizers, ONNX
    decoded = mixed_tokenizer.decode(expected, skip_special_tokens=True)
    assert decoded.replace(" ", "") == text.lower().replace(" ", "")


def test_a_vocabulary_saved_before_the_rule_tokenizes_as_it_did(tmp_path) -> None:
    old = Tokenizer(models.WordPiece({"[UNK]": 0, "我们": 1, "去": 2, "a": 3}, unk_token="[UNK]"))
    old.normalizer = normalizers.Sequence([normalizers.NFKC(), normalizers.Lowercase()])
    old.pre_tokenizer = pre_tokenizers.Sequence(
        [pre_tokenizers.BertPreTokenizer(), pre_tokenizers.Digits(individual_digits=True)]
    )
    old.save(str(tmp_path / "tokenizer.json"))
    loaded = load_tokenizer(tmp_path / "tokenizer.json")
    assert (
        json.loads(loaded.backend_tokenizer.to_str())["pre_tokenizer"]
        == json.loads(old.to_str())["pre_tokenizer"]
    )
    assert loaded("我们 a", add_special_tokens=False)["input_ids"] == [1, 3]  # "我们" stays one word
    assert loaded("我们去", add_special_tokens=False)["input_ids"] == old.encode("我们去").ids


@pytest.mark.parametrize("kind", ["unigram", "wordpiece"])
def test_the_pre_tokenizer_isolates_han_kana_and_their_marks(kind: str) -> None:
    pieces = [p for p, _ in pre_tokenizer(kind).pre_tokenize_str("東京ーは「日本」々〆・ab 한국어")]  # type: ignore[arg-type]
    content = [p.replace("▁", "") for p in pieces if p.replace("▁", "")]
    assert content[:11] == ["東", "京", "ー", "は", "「", "日", "本", "」", "々", "〆", "・"]
    assert content[11:] == ["ab", "한국어"]


@pytest.mark.parametrize("kind", ["unigram", "wordpiece"])
def test_kana_runs_stay_whole_and_han_and_marks_stay_single(kind: str) -> None:
    rule = pre_tokenizer(kind, kana="runs")  # type: ignore[arg-type]
    pieces = [
        p
        for p, _ in rule.pre_tokenize_str("コンピューター・ゲームをしてください。東京ーは「日本」々ab 한국어")
    ]
    content = [p.replace("▁", "") for p in pieces if p.replace("▁", "")]
    # Katakana and Hiragana runs whole (the prolonged mark inside a run of either), the rest one character
    assert content == [
        "コンピューター", "・", "ゲーム", "をしてください", "。", "東", "京", "ーは", "「", "日", "本", "」",
        "々", "ab", "한국어",
    ]  # fmt: skip


def test_an_unknown_kana_rule_is_refused() -> None:
    with pytest.raises(ValueError, match="kana must be"):
        pre_tokenizer("wordpiece", kana="words")  # type: ignore[arg-type]


def test_a_kana_runs_vocabulary_learns_multi_letter_kana_pieces_and_saves_the_rule(tmp_path) -> None:
    text = {
        "ja": ["コンピューターを使います", "コンピューターが好きです", "ゲームをしてください"] * 20,
        "en": ["the computer", "please play the game"] * 20,
    }
    tok = train_tokenizer(text, vocab_size=200, kind="wordpiece", sample_size=200, kana="runs")
    tokens = tok.tokenize("コンピューターを使います")
    assert any(len(_content(t)) > 1 for t in tokens if re.search("[\u30a0-\u30ff]", t)), tokens
    assert tok.unk_token_id not in tok("コンピューターを使います", add_special_tokens=False)["input_ids"]
    tok.save_pretrained(str(tmp_path))  # the rule travels in tokenizer.json: tokenizers alone agree
    reloaded = Tokenizer.from_file(str(tmp_path / "tokenizer.json"))
    assert reloaded.encode("ゲームをしてください").ids == tok("ゲームをしてください")["input_ids"]
