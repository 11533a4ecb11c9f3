"""The opt-in lexicon source: word lists read from a wheel shaped like wordfreq's (gzipped cBpack files),
filtered to letters, written most frequent first; broken wheels and lists give one-line errors."""

from __future__ import annotations

import gzip
import zipfile
from pathlib import Path

import msgpack
import pytest

from lingualite.core.errors import LinguaLiteError
from lingualite.data import sources
from lingualite.data.sources import common, lexicon

BINS = {
    "en": [["the", "of"], ["a", "00", "house"], ["l'eau", "e-mail", "x_y", "king"], ["house", "ünïcode"]],
    "fr": [["de", "la"], ["maison", "2024", "aujourd'hui"], ["roi"]],
}


def _cbpack(bins: list[list[str]]) -> bytes:
    return gzip.compress(msgpack.packb([{"format": "cB", "version": 1}, *bins]))


def make_wheel(folder: Path, lists: dict[str, bytes], small: dict[str, bytes] | None = None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    wheel = folder / "wordfreq-3.1.1-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as zf:
        zf.writestr("wordfreq/__init__.py", "")
        for lang, data in lists.items():
            zf.writestr(f"wordfreq/data/large_{lang}.msgpack.gz", data)
        for lang, data in (small or {}).items():
            zf.writestr(f"wordfreq/data/small_{lang}.msgpack.gz", data)
    return wheel


def test_extract_keeps_letter_words_in_frequency_order(tmp_path: Path) -> None:
    wheel = make_wheel(tmp_path / "cache", {lang: _cbpack(b) for lang, b in BINS.items()})
    counts = lexicon.extract(wheel, tmp_path / "out", ["fr"])
    en = (tmp_path / "out" / "lexicon" / "en.txt").read_text(encoding="utf-8").split("\n")
    fr = (tmp_path / "out" / "lexicon" / "fr.txt").read_text(encoding="utf-8").split("\n")
    # no digits, no single letters, no underscores, no repeats; inner apostrophe / hyphen allowed
    assert en == ["the", "of", "house", "l'eau", "e-mail", "king", "ünïcode", ""]
    assert fr == ["de", "la", "maison", "aujourd'hui", "roi", ""]
    assert counts == {"en": 7, "fr": 5}


def test_words_stops_at_the_limit() -> None:
    assert list(lexicon.words([["aa", "bb"], ["cc"]], limit=2)) == ["aa", "bb"]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"not gzip", "not a gzipped msgpack word list"),
        (gzip.compress(msgpack.packb([{"format": "other"}, ["a"]])), "not a cBpack word list"),
        (gzip.compress(msgpack.packb({"a": 1})), "not a cBpack word list"),
    ],
)
def test_broken_lists_name_the_member(tmp_path: Path, data: bytes, message: str) -> None:
    wheel = make_wheel(tmp_path, {"en": data, "fr": _cbpack(BINS["fr"])})
    with pytest.raises(LinguaLiteError, match=f"large_en.msgpack.gz: {message}"):
        lexicon.extract(wheel, tmp_path / "out", ["fr"])
    assert not (tmp_path / "out" / "lexicon" / "en.txt").exists()


def test_missing_language_is_named(tmp_path: Path) -> None:
    wheel = make_wheel(tmp_path, {"en": _cbpack(BINS["en"])})
    with pytest.raises(LinguaLiteError, match="no word list for 'it'"):
        lexicon.extract(wheel, tmp_path / "out", ["it"])


def test_fetch_uses_the_cached_wheel(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    wheel = make_wheel(tmp_path, {"en": _cbpack(BINS["en"])})
    monkeypatch.setattr(common, "run_tool", lambda *a, **k: pytest.fail("pip must not run"))
    assert lexicon.fetch(tmp_path) == wheel


def test_fetch_corpora_writes_the_lexicon_with_its_licence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    make_wheel(tmp_path / "cache" / "lexicon", {lang: _cbpack(b) for lang, b in BINS.items()})
    monkeypatch.setattr(common, "run_tool", lambda *a, **k: pytest.fail("pip must not run"))
    counts = sources.fetch_corpora(
        tmp_path / "corpora",
        langs=["fr"],
        sources=["lexicon"],
        cache_dir=tmp_path / "cache",
        progress=lambda m: None,
    )
    assert counts == {"lexicon": {"en": 7, "fr": 5}}
    record = (tmp_path / "corpora" / "lexicon" / "SOURCE.json").read_text(encoding="utf-8")
    assert "CC-BY-SA 4.0" in record


def test_small_lists_where_no_large_one_and_one_character_cjk_words(tmp_path: Path) -> None:
    wheel = make_wheel(
        tmp_path,
        {"en": _cbpack(BINS["en"]), "zh": _cbpack([["的", "我们"], ["书", "a", "1"]])},
        small={"ko": _cbpack([["것", "수"], ["하다"]]), "zh": _cbpack([["never", "read"]])},
    )
    assert lexicon.extract(wheel, tmp_path / "out", ["zh", "ko"]) == {"en": 7, "zh": 3, "ko": 3}
    assert (tmp_path / "out" / "lexicon" / "zh.txt").read_text(encoding="utf-8").split() == [
        "的",
        "我们",
        "书",
    ]
    assert (tmp_path / "out" / "lexicon" / "ko.txt").read_text(encoding="utf-8").split() == [
        "것",
        "수",
        "하다",
    ]


def test_languages_without_a_word_list_are_lacking_after_the_fetch(tmp_path: Path) -> None:
    """wordfreq has no Thai list, and its one Chinese list is Simplified: th and zht are named, and
    fetch_corpora goes on with the others."""
    wheel = make_wheel(tmp_path / "cache" / "lexicon", {lang: _cbpack(b) for lang, b in BINS.items()})
    assert lexicon.lacking(["fr", "th", "zht"]) == {}  # nothing is known before the fetch
    assert lexicon.lacking(["fr", "th", "zht"], wheel) == {
        "th": "wordfreq has no word list for it",
        "zht": "wordfreq has no word list for it",
    }
    said: list[str] = []
    counts = sources.fetch_corpora(
        tmp_path / "corpora", ["fr", "th"], ["lexicon"], tmp_path / "cache", progress=said.append
    )
    assert counts == {"lexicon": {"en": 7, "fr": 5}}
    assert "lexicon: no th (wordfreq has no word list for it); going on with the other languages" in said
