"""The language registry is the one list of languages: its rows are consistent and nothing else lists them."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from lingualite.core.errors import ConfigError
from lingualite.text.languages import (
    ENGLISH,
    LANGUAGES,
    PAPER_000_LANGS,
    SUPPORTED,
    TRANSLATION_LANGS,
    check_languages,
    get_language,
    language_pairs,
    parse_pair,
)

SRC = Path(__file__).resolve().parents[2] / "src" / "lingualite"


def test_the_papers_languages_and_beyond_are_supported() -> None:
    papers = {"en", "fr", "de", "es", "it", "nl", "pl", "pt", "ru", "tr", "zh"}
    assert papers | {"ja", "ko"} == set(SUPPORTED)
    assert SUPPORTED[0] == ENGLISH and ENGLISH not in TRANSLATION_LANGS
    assert set(PAPER_000_LANGS) == {"fr", "de", "es", "it"}
    for code in papers:
        assert get_language(code).papers, code
    assert get_language("zh").segmentation == "characters" and get_language("ja").segmentation == "characters"
    assert get_language("ko").segmentation == "words" and "Hangul" in get_language("ko").scripts
    assert get_language("ru").scripts == ("Cyrillic",) and not get_language("ru").latin
    assert all(row.code == code and row.length_vs_english > 0 for code, row in LANGUAGES.items())


def test_unknown_languages_and_bad_pairs_are_one_line_errors() -> None:
    with pytest.raises(ConfigError, match="unsupported language 'xx'; supported: en, fr"):
        get_language("xx")
    with pytest.raises(ConfigError, match="unsupported language.s. xx, yy"):
        check_languages(["fr", "xx", "yy"])
    assert check_languages(["zh", "ru", "zh"]) == ["zh", "ru"]
    assert parse_pair("zh-ru") == ("zh", "ru")
    for bad in ("zh", "zh-ru-ja", "zh-zh", "zh-xx"):
        with pytest.raises(ConfigError, match="pair|unsupported"):
            parse_pair(bad)


def test_pairs_are_english_centred_or_all() -> None:
    assert language_pairs(["en", "zh", "ru"]) == [("en", "zh"), ("en", "ru")]
    assert language_pairs(["en", "zh", "ru"], english_centred=False) == [
        ("en", "zh"),
        ("en", "ru"),
        ("zh", "ru"),
    ]


def _language_lists(tree: ast.AST) -> list[int]:
    """Lines of tuple/list/set literals made only of 2+ supported language codes."""
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Tuple | ast.List | ast.Set) and len(node.elts) >= 2:
            values = [e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
            if len(values) == len(node.elts) and all(v in LANGUAGES for v in values):
                lines.append(node.lineno)
    return lines


def test_no_module_but_the_registry_lists_languages() -> None:
    found = {
        f"{path.relative_to(SRC)}:{line}"
        for path in SRC.rglob("*.py")
        if path.name != "languages.py"
        for line in _language_lists(ast.parse(path.read_text(encoding="utf-8")))
    }
    assert not found, (
        f"language lists outside lingualite/text/languages.py (read the registry instead): {found}"
    )
