"""The packaged everyday sentences cover exactly the supported languages, aligned."""

from __future__ import annotations

import pytest

from lingualite.core.errors import ConfigError
from lingualite.data.evalsets.everyday import everyday_pairs, everyday_sentences
from lingualite.text.languages import SUPPORTED
from lingualite.text.scripts import script_units


def test_every_supported_language_has_every_sentence() -> None:
    sentences = everyday_sentences()
    assert tuple(sentences) == SUPPORTED
    assert {len(v) for v in sentences.values()} == {40}
    for lang, texts in sentences.items():
        assert len(set(texts)) == 40, lang
        assert all(t == t.strip() and "\t" not in t for t in texts)


def test_each_language_is_written_in_its_script() -> None:
    for lang in ("ru", "zh", "ja", "ko"):
        units = sum((script_units(t) for t in everyday_sentences()[lang]), start=script_units(""))
        assert units["Latin"] == 0, lang


def test_pairs_between_any_two_languages() -> None:
    zh, ru = everyday_pairs("zh", "ru")
    assert zh[0] == "今天天气非常好。" and ru[0] == "Сегодня очень хорошая погода."
    with pytest.raises(ConfigError):
        everyday_pairs("en", "xx")
