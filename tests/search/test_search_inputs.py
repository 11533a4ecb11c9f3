"""Search index inputs and outputs: file formats, bad lines, metadata, atomic builds, crash consistency."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from search_helpers import docs

import lingualite.search.build as build_module
from lingualite.core.errors import LinguaLiteError
from lingualite.search import SearchIndex
from lingualite.search.store import DocumentStore


def _build(model: str, source, out: Path, **kw) -> SearchIndex:
    return SearchIndex.build(model, source, out, progress=False, **kw)


def test_txt_tsv_and_jsonl_inputs(static_model: str, tmp_path: Path) -> None:
    txt = tmp_path / "docs.txt"
    txt.write_text("the cat sleeps\n\na red car\n", encoding="utf-8")
    with _build(static_model, txt, tmp_path / "t") as idx:
        assert len(idx) == 2 and idx.search(["a red car"], k=1)[0][0].doc_id == "3"  # id = line number

    tsv = tmp_path / "docs.tsv"
    tsv.write_text("ID\tText\tlang\tsource\nd1\tthe cat sleeps\ten\thelp\nd2\tle chat dort\tfr\thelp\n")
    with _build(static_model, tsv, tmp_path / "s") as idx:
        hit = idx.search(["le chat dort"], k=1)[0][0]
        assert (hit.doc_id, hit.metadata) == ("d2", {"lang": "fr", "source": "help"})
    plain = tmp_path / "plain.tsv"
    plain.write_text("d1\tthe cat\textra\n")
    with _build(static_model, plain, tmp_path / "p") as idx:
        assert idx.search(["the cat"], k=1)[0][0].metadata == {"col3": "extra"}

    meta = {"lang": "de", "tags": ["a", "ü"], "n": {"deep": [1, 2.5, None]}, "ok": True}
    jsonl = tmp_path / "docs.jsonl"
    jsonl.write_text(
        json.dumps({"id": 7, "text": "save the table", **meta}, ensure_ascii=False)
        + "\n"
        + json.dumps({"id": "x", "text": "a dog"})
        + "\n",
        encoding="utf-8",
    )
    with _build(static_model, jsonl, tmp_path / "j") as idx:
        hit = idx.search(["save the table"], k=1)[0][0]
        assert (hit.doc_id, hit.metadata) == ("7", meta)  # metadata round trip, integer id as a string


@pytest.mark.parametrize(
    ("name", "content", "error"),
    [
        ("a.tsv", "d1\tok text\nd2 no tab here\n", r"a\.tsv:2: expected id<TAB>text"),
        ("a.tsv", "d1\tok\n\t empty id\n", r"a\.tsv:2: empty id"),
        ("a.jsonl", '{"id": 1, "text": "ok"}\n{"id": 2, "text": \n', r"a\.jsonl:2: not JSON"),
        ("a.jsonl", '{"id": 1, "text": "ok"}\n{"id": 2}\n', r"a\.jsonl:2: no 'text' key"),
        ("a.jsonl", '["list"]\n', r"a\.jsonl:1: expected a JSON object"),
        (
            "a.jsonl",
            '{"id": 1, "text": "a"}\n{"id": "1", "text": "b"}\n',
            r"a\.jsonl:2: duplicate id '1' \(also at .*a\.jsonl:1\)",
        ),
        ("a.txt", "ok\n\xff\n", None),
        ("a.csv", "x\n", r"unknown input format '\.csv'"),
    ],
)
def test_bad_lines_name_the_file_and_line(
    static_model: str, tmp_path: Path, name: str, content: str, error: str | None
) -> None:
    path = tmp_path / name
    if error is None:  # invalid UTF-8
        path.write_bytes(b"ok\n\xff\n")
        error = r"a\.txt:2: invalid UTF-8"
    else:
        path.write_text(content, encoding="utf-8")
    with pytest.raises(LinguaLiteError, match=error):
        _build(static_model, path, tmp_path / "idx")
    assert not (tmp_path / "idx").exists()
    assert [p.name for p in tmp_path.iterdir()] == [name]  # no staging folder left


def test_skip_bad_counts_the_skipped_lines(static_model: str, tmp_path: Path) -> None:
    path = tmp_path / "a.jsonl"
    path.write_text(
        '{"id": 1, "text": "the cat"}\nnot json\n{"id": 1, "text": "dup"}\n{"id": 2, "text": "a dog"}\n'
    )
    with _build(static_model, path, tmp_path / "idx", skip_bad=True) as idx:
        assert len(idx) == 2 and idx.info["skipped_at_build"] == 2
        more = tmp_path / "more.jsonl"
        more.write_text('{"id": 2, "text": "again"}\n{"id": 3, "text": "red car"}\n')
        with pytest.raises(LinguaLiteError, match=r"more\.jsonl:1: duplicate id '2' \(also in the index\)"):
            idx.add(more)
        assert len(idx) == 2  # the failed add changed nothing
        assert idx.add(more, skip_bad=True) == 1 and idx.last_add_stats.skipped == 1


def test_a_failure_mid_build_leaves_nothing(static_model: str, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(build_module, "CHUNK", 10)
    calls = {"n": 0}
    real = build_module.dense

    def failing(encoder, texts, queries=False, dimensions=None):
        calls["n"] += 1
        if calls["n"] == 4:  # the dimension probe, then two chunks: the third chunk fails
            raise RuntimeError("encoder crashed")
        return real(encoder, texts, queries, dimensions)

    monkeypatch.setattr(build_module, "dense", failing)
    with pytest.raises(RuntimeError, match="encoder crashed"):
        _build(static_model, docs(50), tmp_path / "idx")
    assert list(tmp_path.iterdir()) == []  # neither the index nor a staging folder


def test_output_folders_that_are_not_ours_are_refused(static_model: str, tmp_path: Path) -> None:
    mine = tmp_path / "mine"
    (mine / "notes.txt").parent.mkdir()
    (mine / "notes.txt").write_text("keep me")
    with pytest.raises(LinguaLiteError, match="was not created by lingualite"):
        _build(static_model, docs(3), mine)
    assert (mine / "notes.txt").read_text() == "keep me"
    (tmp_path / "file").write_text("x")
    with pytest.raises(LinguaLiteError, match="is a file"):
        _build(static_model, docs(3), tmp_path / "file")
    (tmp_path / "empty").mkdir()
    _build(static_model, docs(3), tmp_path / "empty").close()  # an empty folder is fine
    with pytest.raises(LinguaLiteError, match="already a search index"):
        _build(static_model, docs(4), tmp_path / "empty")
    with _build(static_model, docs(4), tmp_path / "empty", overwrite=True) as idx:
        assert len(idx) == 4
    src = tmp_path / "empty" / "in.txt"
    src.write_text("the cat\n")
    with pytest.raises(LinguaLiteError, match="contains the input"):
        _build(static_model, src, tmp_path / "empty", overwrite=True)


def test_a_crash_before_the_commit_keeps_the_index_consistent(
    static_model: str, tmp_path: Path, monkeypatch
) -> None:
    path = tmp_path / "idx"
    _build(static_model, docs(20), path, quantization="int8", kind="flat").close()
    before = sorted(p.name for p in path.iterdir())
    with SearchIndex.open(path) as idx:
        expected = idx.search(["the cat runs"], k=5)

        def crash(self, values):  # after the new FAISS file and the float rows are written
            raise OSError("disk full")

        monkeypatch.setattr(DocumentStore, "write_info", crash)
        with pytest.raises(OSError, match="disk full"):
            idx.add(docs(5, seed=3, prefix="n"))
        with pytest.raises(OSError, match="disk full"):
            idx.delete(["d1"])
        assert len(idx) == 20 and idx.search(["the cat runs"], k=5) == expected
        monkeypatch.undo()
    with SearchIndex.open(path) as idx:  # what a restarted process sees
        assert len(idx) == 20 and idx.search(["the cat runs"], k=5) == expected
        assert idx.add(docs(5, seed=3, prefix="n")) == 5  # overwrites the crashed float rows, drops strays
        assert len(idx) == 25 and idx.search(["the cat runs"], k=5)[0]
    after = sorted(p.name for p in path.iterdir() if p.name != ".lingualite.lock")
    assert after == [n.replace("faiss-1", "faiss-2") for n in before]


_KILLED_MID_ADD = """
import os, sys
from lingualite.search import SearchIndex
from lingualite.search.store import DocumentStore
DocumentStore.write_info = lambda self, values: os._exit(9)  # killed after the FAISS file and floats
SearchIndex.open(sys.argv[1]).add([{"id": "new", "text": "help window"}])
"""


def test_a_process_killed_mid_add_leaves_the_last_committed_index(static_model: str, tmp_path: Path) -> None:
    import subprocess
    import sys

    path = tmp_path / "idx"
    _build(static_model, docs(20), path, quantization="binary", kind="hnsw").close()
    done = subprocess.run([sys.executable, "-c", _KILLED_MID_ADD, str(path)], check=False)
    assert done.returncode == 9
    assert (path / "faiss-2.index").exists()  # written, never committed
    with SearchIndex.open(path) as idx:
        assert len(idx) == 20 and idx.info["faiss_file"] == "faiss-1.index"
        assert "new" not in [h.doc_id for h in idx.search(["help window"], k=20)[0]]
        idx.add([{"id": "new", "text": "help window"}])
        assert idx.search(["help window"], k=1)[0][0].doc_id == "new"


def test_open_refuses_a_folder_that_is_not_an_index(tmp_path: Path) -> None:
    with pytest.raises(LinguaLiteError, match="not a lingualite search index"):
        SearchIndex.open(tmp_path)


@pytest.mark.parametrize(
    ("name", "lines", "expected_ids"),
    [
        ("a.txt", [b"the cat", b"bad \xff byte", b"nul\x00here", b"a dog"], ["1", "4"]),
        ("a.tsv", [b"d1\tthe cat", b"d2\tbad \xc3 byte", b"d3\tnul\x00", b"d4\ta dog"], ["d1", "d4"]),
        (
            "a.jsonl",
            [b'{"id": 1, "text": "the cat"}', b'{"id": 2, "text": "\\ud800"}', b'{"id": 3, "text": "x\xff"}',
             b'{"id": 4, "text": "a dog", "tag": "\\udfff"}', b'{"id": 5, "text": "a red car"}'],
            ["1", "5"],
        ),
    ],
)  # fmt: skip
def test_skip_bad_skips_and_counts_invalid_text(
    static_model: str, tmp_path: Path, name: str, lines: list[bytes], expected_ids: list[str]
) -> None:
    path = tmp_path / name
    path.write_bytes(b"\n".join(lines) + b"\n")
    with pytest.raises(LinguaLiteError, match=rf"{name}:2: (invalid UTF-8|contains a lone surrogate)"):
        _build(static_model, path, tmp_path / "strict")  # one line, never a traceback
    with _build(static_model, path, tmp_path / "idx", skip_bad=True) as idx:
        kept = sorted(idx._store.rows_of([str(i) for i in range(6)] + [f"d{i}" for i in range(5)]))
        assert kept == expected_ids
        assert idx.info["skipped_at_build"] == len(lines) - len(expected_ids)


@pytest.mark.parametrize("value", ["NaN", "Infinity", "-Infinity", "1e999"])
def test_non_finite_metadata_is_refused_naming_the_line(
    static_model: str, tmp_path: Path, value: str
) -> None:
    path = tmp_path / "a.jsonl"
    path.write_text(f'{{"id": 1, "text": "the cat"}}\n{{"id": 2, "text": "a dog", "score": {value}}}\n')
    with pytest.raises(LinguaLiteError, match=r"a\.jsonl:2: not strict JSON"):
        _build(static_model, path, tmp_path / "idx")
    with pytest.raises(LinguaLiteError, match=r"docs\[1\]: score\.0 is not a finite number"):
        _build(
            static_model,
            [{"id": 1, "text": "a"}, {"id": 2, "text": "b", "score": [float("inf")]}],
            tmp_path / "i",
        )


def test_an_input_that_yields_no_document_is_an_error(static_model: str, tmp_path: Path) -> None:
    empty = tmp_path / "empty.txt"
    empty.write_text("\n\n")
    with pytest.raises(LinguaLiteError, match=r"empty\.txt: holds no documents to index"):
        _build(static_model, empty, tmp_path / "idx")
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n")
    with pytest.raises(
        LinguaLiteError, match=r"holds no documents to index; 1 skipped as bad, the first: .*bad"
    ):
        _build(static_model, bad, tmp_path / "idx", skip_bad=True)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.jsonl", "empty.txt"]  # nothing written
    with _build(static_model, [], tmp_path / "idx") as idx:  # the API's empty index, on purpose
        assert len(idx) == 0


def test_nan_stored_by_an_older_version_is_read_as_null(static_model: str, tmp_path: Path) -> None:
    path = tmp_path / "idx"
    _build(static_model, docs(3), path).close()
    store = DocumentStore(path / "index.sqlite")
    store.db.execute("""UPDATE documents SET metadata = '{"n": NaN, "m": [Infinity]}'""")
    store.close()
    with SearchIndex.open(path) as idx:
        hit = idx.search([docs(3)[0]["text"]], k=1)[0][0]
    assert hit.metadata == {"n": None, "m": [None]}
