"""The vocabulary stage's guard on a given tokenizer: one whose normaliser strips Devanagari or Thai marks is
refused for text in those languages (it would read another word), and accepted where no such text is."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tokenizers import Tokenizer, normalizers
from tokenizers.models import WordLevel
from transformers import PreTrainedTokenizerFast

from lingualite.config.sections import VocabularyConfig
from lingualite.core.errors import ConfigError
from lingualite.models.run_folder import RunFolder
from lingualite.training.vocabulary import RECORD, check_keeps_marks, prepare_vocabulary, script_floor


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


def _texts() -> dict[str, list[str]]:
    """Latin languages with many sentences, Hebrew with few: the floor is what gives Hebrew its share."""
    latin = [f"the cat number {i} sat on the mat near house {i % 7}" for i in range(300)]
    return {
        "en": latin,
        "fr": [f"le chat numéro {i} est sur le tapis {i % 5}" for i in range(300)],
        "he": [f"החתול מספר {i} ישב על השטיח" for i in range(12)],
    }


def test_a_script_floor_gives_a_lone_script_its_share_and_is_recorded(tmp_path: Path) -> None:
    vocabulary = VocabularyConfig(
        kind="wordpiece", size=300, alpha=1.0, sample_size=200, min_script_share=0.2
    )
    _, info = prepare_vocabulary(
        vocabulary, RunFolder(tmp_path / "run"), _texts, seed=0, resume=False, show=False
    )
    assert info["min_script_share"] == 0.2
    assert info["shares"]["he"] == pytest.approx(0.2, abs=1e-4)
    assert info["sentences_per_language"]["he"] == 40
    plain = VocabularyConfig(kind="wordpiece", size=300, alpha=1.0, sample_size=200)
    _, info = prepare_vocabulary(
        plain, RunFolder(tmp_path / "plain"), _texts, seed=0, resume=False, show=False
    )
    assert "min_script_share" not in info and info["shares"]["he"] < 0.05
    # unset, the key is not in the recorded settings: a run from before the key existed is reused
    record = json.loads((RunFolder(tmp_path / "plain").tokenizer_dir / RECORD).read_text())
    assert "min_script_share" not in record["settings"]


def test_a_languages_script_is_the_first_its_registry_row_names() -> None:
    floor = script_floor(0.02)
    assert floor is not None and floor.share == 0.02
    assert floor.groups["ja"] == floor.groups["zht"] == floor.groups["zh"] == "Han"
    assert floor.groups["he"] == "Hebrew" and floor.groups["uk"] == floor.groups["ru"] == "Cyrillic"
    assert script_floor(None) is None
