"""Strict readers of the evaluation formats: round trips (hypothesis), malformed lines, skip_bad counts."""

from __future__ import annotations

import gzip
import re
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lingualite.core.errors import BadInputError
from lingualite.data.readers import ReadStats
from lingualite.evaluation.datasets import (
    ClassificationData,
    PairData,
    STSData,
    read_classification,
    read_ir,
    read_pair_classification,
    read_sts,
)

# Texts: any characters but tab, line breaks and NUL (and a BOM, dropped at the start of line 1), not blank.
_chars = st.characters(blacklist_categories=("Cs",), blacklist_characters="\t\n\r\ufeff\x00")
texts = st.text(_chars, min_size=1, max_size=20).filter(lambda t: t.strip())
labels = st.text(_chars, min_size=1, max_size=8).filter(lambda t: t == t.strip() and t)
scores = st.floats(allow_nan=False, allow_infinity=False)
FAST = settings(max_examples=25, deadline=None)


def _write(path: Path, lines: list[str] | bytes, gz: bool = False) -> Path:
    data = lines if isinstance(lines, bytes) else "".join(line + "\n" for line in lines).encode()
    path.write_bytes(gzip.compress(data) if gz else data)
    return path


# --- round trips ------------------------------------------------------------------------------------


@FAST
@given(rows=st.lists(st.tuples(labels, texts), min_size=1, max_size=8), gz=st.booleans())
def test_classification_round_trip(rows, gz) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = _write(Path(tmp) / ("c.tsv.gz" if gz else "c.tsv"), [f"{lab}\t{t}" for lab, t in rows], gz)
        stats = ReadStats()
        data = read_classification(path, stats=stats)
    assert data == ClassificationData([t for _, t in rows], [lab for lab, _ in rows])
    assert stats.pairs == len(rows) and not stats.bad


@FAST
@given(rows=st.lists(st.tuples(texts, texts, labels), min_size=1, max_size=8))
def test_pair_classification_round_trip(rows) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = _write(Path(tmp) / "p.tsv", ["\t".join(r) for r in rows])
        assert read_pair_classification(path) == PairData(*map(list, zip(*rows, strict=True)))


@FAST
@given(rows=st.lists(st.tuples(texts, texts, scores), min_size=1, max_size=8))
def test_sts_round_trip(rows) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = _write(Path(tmp) / "s.tsv", [f"{a}\t{b}\t{s!r}" for a, b, s in rows])
        assert read_sts(path) == STSData(*map(list, zip(*rows, strict=True)))


ids = st.text(st.characters(whitelist_categories=("L", "N")), min_size=1, max_size=6)


@FAST
@given(
    corpus=st.dictionaries(ids, texts, min_size=1, max_size=8),
    queries=st.dictionaries(ids, texts, min_size=1, max_size=5),
    data=st.data(),
)
def test_ir_round_trip(corpus, queries, data) -> None:
    qrels = {
        qid: data.draw(st.dictionaries(st.sampled_from(sorted(corpus)), st.integers(0, 3), min_size=1))
        for qid in data.draw(st.lists(st.sampled_from(sorted(queries)), min_size=1, unique=True))
    }
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        _write(folder / "corpus.tsv", [f"{k}\t{v}" for k, v in corpus.items()])
        _write(folder / "queries.tsv.gz", [f"{k}\t{v}" for k, v in queries.items()], gz=True)
        qrel_lines = [
            f"{q}\t{d}" if rel == 1 else f"{q}\t{d}\t{rel}"
            for q, docs in qrels.items()
            for d, rel in docs.items()
        ]
        _write(folder / "qrels.tsv", qrel_lines)
        out = read_ir(folder)
    assert out.corpus == corpus and out.queries == queries and out.qrels == qrels
    assert list(out.corpus) == list(corpus)  # file order kept


def test_bom_crlf_blank_lines_and_stripped_labels(tmp_path: Path) -> None:
    path = _write(tmp_path / "c.tsv", "\ufeff pos \t good film \r\n\r\n\nneg\tbad\r\n".encode())
    stats = ReadStats()
    assert read_classification(path, stats=stats) == ClassificationData(
        [" good film ", "bad"], ["pos", "neg"]
    )
    assert stats.pairs == 2


# --- malformed lines --------------------------------------------------------------------------------

CASES = [
    # reader, good line, bad line, stats key, message
    (read_classification, "pos\ttext", "no tab here", "field_count", "1 tab-separated fields (expected 2)"),
    (read_classification, "pos\ttext", "pos\ta\tb", "field_count", "3 tab-separated fields (expected 2)"),
    (read_classification, "pos\ttext", "pos\t  ", "empty_text", "empty text"),
    (read_classification, "pos\ttext", " \ttext", "empty_label", "empty label"),
    (read_pair_classification, "a\tb\tyes", "a\tb", "field_count", "2 tab-separated fields (expected 3)"),
    (read_pair_classification, "a\tb\tyes", "\tb\tyes", "empty_text", "empty first sentence"),
    (read_pair_classification, "a\tb\tyes", "a\tb\t", "empty_label", "empty label"),
    (read_sts, "a\tb\t4.5", "a\tb\thigh", "bad_score", "score 'high' is not a number"),
    (read_sts, "a\tb\t4.5", "a\tb\tnan", "bad_score", "score 'nan' is not a finite number"),
    (read_sts, "a\tb\t4.5", "a\t \t1", "empty_text", "empty second sentence"),
]


@FAST
@given(case=st.sampled_from(CASES), before=st.integers(0, 4), after=st.integers(0, 4))
def test_malformed_line_names_file_and_line(case, before, after) -> None:
    reader, good, bad, key, message = case
    with tempfile.TemporaryDirectory() as tmp:
        path = _write(Path(tmp) / "f.tsv", [good] * before + [bad] + [good] * after)
        with pytest.raises(BadInputError) as err:
            reader(path)
        assert str(err.value).startswith(f"{path}:{before + 1}: {message}")
        assert err.value.line == before + 1
        if before + after:
            stats = ReadStats()
            assert len(reader(path, skip_bad=True, stats=stats)[0]) == before + after
            assert stats.bad == {key: 1} and stats.pairs == before + after


def test_invalid_utf8_is_reported_with_column(tmp_path: Path) -> None:
    path = _write(tmp_path / "c.tsv", b"pos\tok\nneg\tbad \xff byte\n")
    with pytest.raises(BadInputError, match=r"c.tsv:2: invalid UTF-8 \(byte 0xff at column 9\)"):
        read_classification(path)
    stats = ReadStats()
    assert read_classification(path, skip_bad=True, stats=stats).labels == ["pos"]
    assert stats.bad == {"invalid_utf8": 1}


def test_header_line_gets_a_hint(tmp_path: Path) -> None:
    path = _write(tmp_path / "s.tsv", ["sentence1\tsentence2\tscore", "a\tb\t1"])
    with pytest.raises(BadInputError, match=r"s.tsv:1: .*if this is a header line, remove it"):
        read_sts(path)


@pytest.mark.parametrize("content", [b"", b"\n\n", b"only one field\n"])
def test_no_records_is_an_error_naming_the_file(tmp_path: Path, content: bytes) -> None:
    path = _write(tmp_path / "c.tsv", content)
    with pytest.raises(BadInputError) as err:
        read_classification(path, skip_bad=True)
    assert str(err.value).startswith(f"{path}: no records") and err.value.line is None


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(BadInputError, match="file not found"):
        read_sts(tmp_path / "nope.tsv")


# --- IR folders -------------------------------------------------------------------------------------


def _ir(folder: Path, corpus: list[str], queries: list[str], qrels: list[str]) -> Path:
    folder.mkdir(exist_ok=True)
    _write(folder / "corpus.tsv", corpus)
    _write(folder / "queries.tsv", queries)
    _write(folder / "qrels.tsv", qrels)
    return folder


CORPUS = ["d1\tfirst doc", "d2\tsecond doc"]
QUERIES = ["q1\tquery one", "q2\tquery two"]
IR_CASES = [
    # file, bad line appended, stats key, message
    ("corpus.tsv", "d1\tagain", "duplicate_id", "duplicate doc_id 'd1' (first on line 1)"),
    ("corpus.tsv", " \ttext", "empty_id", "empty doc_id"),
    ("queries.tsv", "q2\tagain", "duplicate_id", "duplicate query_id 'q2' (first on line 2)"),
    ("queries.tsv", "q3", "field_count", "1 tab-separated fields (expected 2)"),
    ("qrels.tsv", "q9\td1", "unknown_id", "query_id 'q9' is not in queries.tsv"),
    ("qrels.tsv", "q1\td9\t1", "unknown_id", "doc_id 'd9' is not in the corpus"),
    ("qrels.tsv", "q1\td2\tvery", "bad_relevance", "relevance 'very' is not an integer"),
    ("qrels.tsv", "q1\td2\t-1", "bad_relevance", "relevance -1 is negative"),
    ("qrels.tsv", "q1\td1\t2", "duplicate_judgement", "query 'q1' and doc 'd1' are judged twice"),
    ("qrels.tsv", "q1\td2\t1\tx", "field_count", "4 tab-separated fields (expected 2 or 3)"),
]


@pytest.mark.parametrize(("name", "bad", "key", "message"), IR_CASES)
def test_ir_malformed_lines(tmp_path: Path, name, bad, key, message) -> None:
    files = {"corpus.tsv": list(CORPUS), "queries.tsv": list(QUERIES), "qrels.tsv": ["q1\td1", "q2\td2\t0"]}
    files[name].append(bad)
    folder = _ir(tmp_path / "ir", files["corpus.tsv"], files["queries.tsv"], files["qrels.tsv"])
    line = len(files[name])
    with pytest.raises(BadInputError, match=re.escape(f"{name}:{line}: {message}")):
        read_ir(folder)
    stats = ReadStats()
    out = read_ir(folder, skip_bad=True, stats=stats)
    assert stats.bad == {key: 1}
    assert out.qrels == {"q1": {"d1": 1}, "q2": {"d2": 0}} and set(out.corpus) == {"d1", "d2"}


def test_ir_missing_file_and_not_a_folder(tmp_path: Path) -> None:
    folder = tmp_path / "ir"
    folder.mkdir()
    _write(folder / "corpus.tsv", CORPUS)
    with pytest.raises(BadInputError, match=r"queries.tsv: file not found \(an IR folder needs"):
        read_ir(folder)
    with pytest.raises(BadInputError, match="not a folder"):
        read_ir(folder / "corpus.tsv")


def test_ir_queries_folder_against_a_given_corpus(tmp_path: Path) -> None:
    base = read_ir(_ir(tmp_path / "en", CORPUS, QUERIES, ["q1\td1"]))
    other = tmp_path / "de"
    other.mkdir()
    _write(other / "queries.tsv", ["q1\tAnfrage eins"])
    _write(other / "qrels.tsv", ["q1\td2\t2"])
    out = read_ir(other, corpus=base.corpus)
    assert (
        out.corpus == base.corpus and out.queries == {"q1": "Anfrage eins"} and out.qrels == {"q1": {"d2": 2}}
    )
    _write(other / "qrels.tsv", ["q1\td7"])
    with pytest.raises(BadInputError, match=re.escape("qrels.tsv:1: doc_id 'd7' is not in the corpus")):
        read_ir(other, corpus=base.corpus)
