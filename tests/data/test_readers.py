"""Tests for the streaming parallel-text readers."""

from __future__ import annotations

import contextlib
import gzip
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lingualite.core.errors import BadInputError
from lingualite.data.inputs import open_parallel
from lingualite.data.readers import ParallelPair, ReadStats, read_moses, read_tsv
from lingualite.data.tmx import read_tmx


def _write(path: Path, data: bytes) -> Path:
    if path.suffix == ".gz":
        path.write_bytes(gzip.compress(data))
    else:
        path.write_bytes(data)
    return path


# --- TSV -------------------------------------------------------------------------------------------


def test_tsv_basic_with_doc_ids(tmp_path: Path) -> None:
    p = _write(tmp_path / "c.tsv", b"a b\tc d\tdoc1\ne f\tg h\n")
    pairs = list(read_tsv(p))
    assert pairs == [
        ParallelPair("a b", "c d", "doc1", str(p), 1),
        ParallelPair("e f", "g h", None, str(p), 2),
    ]


def test_tsv_gzip_bom_crlf(tmp_path: Path) -> None:
    p = _write(tmp_path / "c.tsv.gz", "\ufeffcafé\tcoffee\r\nthé\ttea\r\n".encode())
    pairs = list(read_tsv(p))
    assert [(x.src, x.tgt, x.line) for x in pairs] == [("café", "coffee", 1), ("thé", "tea", 2)]


def test_tsv_bom_only_stripped_on_line_one(tmp_path: Path) -> None:
    p = _write(tmp_path / "c.tsv", "a\tb\n\ufeffc\td\n".encode())
    assert [x.src for x in read_tsv(p)] == ["a", "\ufeffc"]


def test_tsv_missing_tab_names_line(tmp_path: Path) -> None:
    p = _write(tmp_path / "corpus.tsv", b"a\tb\nc\td\nno tab here\n")
    with pytest.raises(BadInputError) as err:
        list(read_tsv(p))
    assert str(err.value) == f"{p}:3: no tab separating source and target"
    assert err.value.line == 3


def test_tsv_too_many_fields(tmp_path: Path) -> None:
    p = _write(tmp_path / "c.tsv", b"a\tb\tc\td\n")
    with pytest.raises(BadInputError, match=r":1: 4 tab-separated fields"):
        list(read_tsv(p))


def test_tsv_bad_utf8_line_and_column(tmp_path: Path) -> None:
    p = _write(tmp_path / "corpus.tsv", b"ok\tok\nok\tok\nn\xc3\xa9\t\xff\n")  # \xff is the 4th character
    with pytest.raises(BadInputError) as err:
        list(read_tsv(p))
    assert str(err.value) == f"{p}:3: invalid UTF-8 (byte 0xff at column 4)"


def test_tsv_bad_utf8_in_gzip(tmp_path: Path) -> None:
    p = _write(tmp_path / "c.tsv.gz", b"a\tb\nabcd\t\xfe\n")
    with pytest.raises(BadInputError, match=r"c\.tsv\.gz:2: invalid UTF-8 \(byte 0xfe at column 6\)"):
        list(read_tsv(p))


def test_tsv_skip_bad_counts_by_reason(tmp_path: Path) -> None:
    data = b"a\tb\nnotab\nx\ty\nq\tw\te\tr\n\xff\tz\nlast\tone\n"
    stats = ReadStats()
    pairs = list(read_tsv(_write(tmp_path / "c.tsv", data), skip_bad=True, stats=stats))
    assert [x.line for x in pairs] == [1, 3, 6]
    assert stats.pairs == 3
    assert stats.bad == {"no_tab": 1, "too_many_fields": 1, "invalid_utf8": 1}
    assert stats.to_dict()["bad_total"] == 3


def test_tsv_blank_lines_ignored(tmp_path: Path) -> None:
    p = _write(tmp_path / "c.tsv", b"a\tb\n\n\r\nc\td\n")
    assert [x.line for x in read_tsv(p)] == [1, 4]


def test_corrupt_gzip_is_bad_input(tmp_path: Path) -> None:
    p = tmp_path / "c.tsv.gz"
    p.write_bytes(b"this is not gzip")
    with pytest.raises(BadInputError, match="corrupt gzip"):
        list(read_tsv(p, skip_bad=True))


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(BadInputError, match="file not found"):
        list(read_tsv(tmp_path / "nope.tsv"))


def test_readers_are_lazy(tmp_path: Path) -> None:
    p = _write(tmp_path / "c.tsv", b"a\tb\nbroken\n")
    it = read_tsv(p)
    assert next(it).src == "a"  # the bad line 2 is not touched until asked for
    with pytest.raises(BadInputError):
        next(it)


_field = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\t\n\r\ufeff\x00")
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=st.lists(st.tuples(_field, _field), min_size=1, max_size=8))
def test_tsv_roundtrip(tmp_path: Path, rows: list[tuple[str, str]]) -> None:
    p = tmp_path / "rt.tsv"
    p.write_bytes("".join(f"{s}\t{t}\n" for s, t in rows).encode("utf-8"))
    # the text as written (empty sides are refused unless asked for)
    assert [(x.src, x.tgt) for x in read_tsv(p, empty_sides=True)] == rows


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(max_size=200))
def test_tsv_arbitrary_bytes_only_bad_input(tmp_path: Path, data: bytes) -> None:
    p = tmp_path / "fuzz.tsv"
    p.write_bytes(data)
    with contextlib.suppress(BadInputError):
        list(read_tsv(p))
    stats = ReadStats()
    pairs = list(read_tsv(p, skip_bad=True, stats=stats))  # never raises with skip_bad
    assert stats.pairs == len(pairs)


# --- Moses -----------------------------------------------------------------------------------------


def test_moses_pair_with_gzip_side(tmp_path: Path) -> None:
    en = _write(tmp_path / "c.en", b"\xef\xbb\xbfone\r\ntwo\n")
    fr = _write(tmp_path / "c.fr.gz", b"un\ndeux\n")
    pairs = list(read_moses(en, fr))
    assert [(x.src, x.tgt, x.line, x.doc_id) for x in pairs] == [
        ("one", "un", 1, None),
        ("two", "deux", 2, None),
    ]
    assert pairs[0].source == str(en)


@pytest.mark.parametrize("skip_bad", [False, True])
def test_moses_length_mismatch_names_shorter_file(tmp_path: Path, skip_bad: bool) -> None:
    en = _write(tmp_path / "c.en", b"1\n2\n3\n")
    fr = _write(tmp_path / "c.fr", b"1\n2\n")
    with pytest.raises(BadInputError) as err:
        list(read_moses(en, fr, skip_bad=skip_bad))
    assert err.value.path == str(fr) and err.value.line == 2
    assert str(err.value).startswith(f"{fr}:2: file ends after 2 lines but {en} has more")
    short_src = _write(tmp_path / "d.en", b"1\n")
    with pytest.raises(BadInputError) as err:
        list(read_moses(short_src, en, skip_bad=skip_bad))
    assert err.value.path == str(short_src) and err.value.line == 1


def test_moses_bad_utf8_skip_and_raise(tmp_path: Path) -> None:
    en = _write(tmp_path / "c.en", b"a\nb\nc\n")
    fr = _write(tmp_path / "c.fr", b"x\n\xc3(\nz\n")
    with pytest.raises(BadInputError, match=r"c\.fr:2: invalid UTF-8 \(byte 0xc3 at column 1\)"):
        list(read_moses(en, fr))
    stats = ReadStats()
    assert [x.src for x in read_moses(en, fr, skip_bad=True, stats=stats)] == ["a", "c"]
    assert stats.bad == {"invalid_utf8": 1}


# --- TMX -------------------------------------------------------------------------------------------

_TMX = """<?xml version="1.0" encoding="UTF-8"?>
<tmx version="1.4"><header srclang="en" datatype="plaintext"/>
<body>
<tu tuid="1">
  <tuv xml:lang="en-US"><seg>Press <hi>the <sub>big</sub></hi>
    <bpt i="1">&lt;b&gt;</bpt>button<ept i="1">&lt;/b&gt;</ept>.</seg></tuv>
  <tuv xml:lang="fr-FR"><seg>Appuyez sur
    le bouton.</seg></tuv>
</tu>
<tu tuid="2">
  <tuv lang="EN"><seg>Only English here.</seg></tuv>
</tu>
<tu tuid="3">
  <tuv xml:lang="de"><seg>Hallo</seg></tuv>
  <tuv xml:lang="fr_ca"><seg>Salut</seg></tuv>
  <tuv xml:lang="en"><seg>Hi</seg></tuv>
</tu>
</body></tmx>
"""


def test_tmx_nested_tags_langs_and_missing_tuv(tmp_path: Path) -> None:
    p = _write(tmp_path / "m.tmx.gz", _TMX.encode())
    with pytest.raises(BadInputError) as err:
        list(read_tmx(p, "en", "fr"))
    assert err.value.line == 10 and "no <tuv> with a <seg> for language 'fr'" in str(err.value)
    stats = ReadStats()
    pairs = list(read_tmx(p, "en", "fr", skip_bad=True, stats=stats))
    assert [(x.src, x.tgt, x.line) for x in pairs] == [
        ("Press the big button.", "Appuyez sur le bouton.", 4),
        ("Hi", "Salut", 13),
    ]
    assert stats.bad == {"missing_language": 1} and stats.pairs == 2


def test_tmx_invalid_xml(tmp_path: Path) -> None:
    p = _write(tmp_path / "bad.tmx", b"<tmx><body>\n<tu><tuv xml:lang='en'><seg>x</tuv></tu>\n</body></tmx>")
    with pytest.raises(BadInputError, match=r"bad\.tmx:2: invalid XML: mismatched tag$"):
        list(read_tmx(p, "en", "fr", skip_bad=True))


def test_tmx_bad_utf8(tmp_path: Path) -> None:
    body = (
        b"<tmx><body>\n"
        b"<tu><tuv xml:lang='en'><seg>a \xff</seg></tuv><tuv xml:lang='fr'><seg>b</seg></tuv></tu>\n"
        b"<tu><tuv xml:lang='en'><seg>c</seg></tuv><tuv xml:lang='fr'><seg>d</seg></tuv></tu>\n"
        b"</body></tmx>\n"
    )
    p = _write(tmp_path / "u.tmx", body)
    with pytest.raises(BadInputError, match=r"u\.tmx:2: invalid UTF-8 \(byte 0xff at column 31\)"):
        list(read_tmx(p, "en", "fr"))
    stats = ReadStats()
    assert [(x.src, x.tgt) for x in read_tmx(p, "en", "fr", skip_bad=True, stats=stats)] == [("c", "d")]
    assert stats.bad == {"invalid_utf8": 1}


# --- open_parallel ---------------------------------------------------------------------------------


def test_open_parallel_dispatch(tmp_path: Path) -> None:
    tsv = _write(tmp_path / "a.tsv.gz", b"s\tt\n")
    tmx = _write(tmp_path / "b.tmx", _TMX.encode())
    _write(tmp_path / "corpus.en", b"hello\n")
    _write(tmp_path / "corpus.fr.gz", b"bonjour\n")
    assert [x.tgt for x in open_parallel(tsv)] == ["t"]
    assert len(list(open_parallel(tmx, "en", "fr", skip_bad=True))) == 2
    assert [x.tgt for x in open_parallel(str(tmp_path / "corpus"), "en", "fr")] == ["bonjour"]
    pair = (tmp_path / "corpus.en", tmp_path / "corpus.fr.gz")
    assert [x.src for x in open_parallel(pair)] == ["hello"]


def test_cr_only_and_mixed_line_endings(tmp_path: Path) -> None:
    p = _write(tmp_path / "mac.tsv", b"a\tb\rc\td\r\ne\tf\ng\th\r")
    assert [(x.src, x.tgt, x.line) for x in read_tsv(p)] == [
        ("a", "b", 1),
        ("c", "d", 2),
        ("e", "f", 3),
        ("g", "h", 4),
    ]


def test_utf16_is_named_as_such(tmp_path: Path) -> None:
    p = _write(tmp_path / "u16.tsv", "a\tb\n".encode("utf-16"))
    with pytest.raises(BadInputError, match=r"u16\.tsv:1: UTF-16"):
        list(read_tsv(p))


def test_a_missing_prepared_file_says_how_to_make_it(tmp_path: Path) -> None:
    path = tmp_path / "data" / "prepared" / "en-zh" / "test.tsv"
    with pytest.raises(BadInputError) as info:
        list(read_tsv(path))
    message = str(info.value)
    assert "file not found" in message
    assert "lingualite data fetch --langs zh" in message
    assert f"--src en --tgt zh --output {path.parent}" in message
