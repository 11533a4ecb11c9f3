from __future__ import annotations

from collections import Counter

import pytest

from lingualite.tokenization import load_tokenizer, smoothed_language_shares, train_tokenizer
from lingualite.tokenization.sampling import sample_sentences


def test_round_trip_and_save_load(tiny_tokenizer, tmp_path) -> None:
    text = "The big cat runs quickly"
    ids = tiny_tokenizer(text)["input_ids"]
    assert ids[0] == tiny_tokenizer.cls_token_id and ids[-1] == tiny_tokenizer.sep_token_id
    assert tiny_tokenizer.decode(ids, skip_special_tokens=True) == text.lower()
    tiny_tokenizer.save_pretrained(str(tmp_path))
    assert (tmp_path / "tokenizer.json").exists()
    again = load_tokenizer(tmp_path)
    assert again(text)["input_ids"] == ids
    assert load_tokenizer(tmp_path / "tokenizer.json")(text)["input_ids"] == ids


def test_special_tokens_first_and_vocab_size() -> None:
    tok = train_tokenizer(
        {"en": ["hello world again"] * 20, "fr": ["bonjour le monde"] * 20}, vocab_size=40, sample_size=100
    )
    assert tok.convert_tokens_to_ids(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]) == [0, 1, 2, 3, 4]
    assert len(tok) <= 40


def test_wordpiece_kind_round_trips() -> None:
    tok = train_tokenizer(
        {"en": ["hello world again"] * 20, "fr": ["bonjour le monde"] * 20},
        vocab_size=60,
        kind="wordpiece",
        sample_size=100,
    )
    assert tok.decode(tok("bonjour le monde")["input_ids"], skip_special_tokens=True) == "bonjour le monde"


def test_smoothed_shares_follow_n_to_the_alpha() -> None:
    shares = smoothed_language_shares({"en": 10_000, "fr": 100}, alpha=0.5)
    assert shares["en"] == pytest.approx(100 / 110) and shares["fr"] == pytest.approx(10 / 110)
    assert smoothed_language_shares({"en": 9, "fr": 1}, alpha=1.0) == pytest.approx({"en": 0.9, "fr": 0.1})
    assert smoothed_language_shares({"en": 9, "fr": 1}, alpha=0.0) == pytest.approx({"en": 0.5, "fr": 0.5})


def test_sampler_draws_languages_in_smoothed_shares() -> None:
    texts = {"en": [f"en{i}" for i in range(900)], "fr": [f"fr{i}" for i in range(100)]}
    drawn = Counter(s[:2] for s in sample_sentences(texts, alpha=0.5, total=4000))
    assert drawn["en"] == round(4000 * 30 / 40) and drawn["fr"] == round(4000 * 10 / 40)


def test_a_long_run_of_thai_letters_is_cut_into_pieces_not_one_unknown() -> None:
    """Thai has no spaces: a clause of more than WordPiece's default 100 letters is one pre-token, which the
    default turns into a single [UNK] (the whole clause lost)."""
    clause = "วันนี้อากาศดีมากขอบคุณมากครับ"
    thai = ["สวัสดีครับ ผมชื่อสมชาย", clause * 2] * 20  # every piece of the long run below is trained
    tok = train_tokenizer({"th": thai, "en": ["hello world again"] * 20}, vocab_size=400, kind="wordpiece")
    clause = clause * 6  # 174 letters, no space
    assert len(clause) > 100
    ids = tok(clause, add_special_tokens=False)["input_ids"]
    assert len(ids) > 1 and tok.unk_token_id not in ids
