"""The language registry is the one list of languages: its rows are consistent and nothing else lists them."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from lingualite.core.errors import ConfigError
from lingualite.text.languages import (
    CORE,
    CORE_TRANSLATION_LANGS,
    ENGLISH,
    LANGUAGES,
    PAPER_000_LANGS,
    SUPPORTED,
    TRANSLATION_LANGS,
    USE_M_LANGS,
    check_languages,
    get_language,
    language_pairs,
    parse_pair,
)

SRC = Path(__file__).resolve().parents[2] / "src" / "lingualite"


def test_the_papers_languages_and_beyond_are_supported() -> None:
    papers = {"en", "fr", "de", "es", "it", "nl", "pl", "pt", "ru", "tr", "zh"}
    assert papers | {"ja", "ko"} == set(CORE)  # the 13 of the shipped models, the default everywhere
    assert SUPPORTED[:13] == CORE and CORE[1:] == CORE_TRANSLATION_LANGS
    assert SUPPORTED[0] == ENGLISH and ENGLISH not in TRANSLATION_LANGS
    assert set(PAPER_000_LANGS) == {"fr", "de", "es", "it"}
    for code in papers:
        assert get_language(code).papers, code
    assert get_language("zh").segmentation == "characters" and get_language("ja").segmentation == "characters"
    assert get_language("ko").segmentation == "words" and "Hangul" in get_language("ko").scripts
    assert get_language("ru").scripts == ("Cyrillic",) and not get_language("ru").latin
    assert all(row.code == code and row.length_vs_english > 0 for code, row in LANGUAGES.items())


def test_issue_43_languages_and_their_teachers() -> None:
    use_m = {"ar", "th", "zht"}
    e5_only = {"ca", "cs", "da", "el", "fi", "hu", "id", "sk", "sl", "sv", "vi", "hi", "bg", "uk", "ro", "nb"}
    added = use_m | e5_only | {"he", "fa"}
    assert set(SUPPORTED) == set(CORE) | added and len(SUPPORTED) == 34
    # USE-m's 16 languages (Chinese in both scripts); every other one is e5-small's only.
    assert set(USE_M_LANGS) == set(CORE) | {"ar", "th", "zht"} and len(USE_M_LANGS) == 16
    assert {LANGUAGES[c].teacher for c in set(SUPPORTED) - set(USE_M_LANGS)} == {"e5-small"}
    # A code never holds the hyphen that separates a pair's two languages: Traditional Chinese is "zht".
    assert all("-" not in code and "_" not in code for code in SUPPORTED)
    assert parse_pair("en-zht") == ("en", "zht") and parse_pair("zht-zh") == ("zht", "zh")
    zht = get_language("zht")
    assert zht.iso_code == "zh" and zht.segmentation == "characters" and zht.scripts == ("Han",)
    assert get_language("fr").iso_code == "fr"
    assert get_language("th").segmentation == "segmenter" and get_language("th").scripts == ("Thai",)
    right_to_left = {c: get_language(c).scripts for c in ("ar", "fa", "he")}
    assert right_to_left == {"ar": ("Arabic",), "fa": ("Arabic",), "he": ("Hebrew",)}
    assert get_language("hi").scripts == ("Devanagari",) and get_language("el").scripts == ("Greek",)


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
