"""SearchIndex: build / add / delete / search round trips for every quantization and kind, reopening, and the
model check."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from search_helpers import docs, make_static_model

from lingualite.core.errors import LinguaLiteError
from lingualite.search import Hit, SearchIndex
from lingualite.search.index import REBUILD_FRACTION


def _top(idx: SearchIndex, text: str, k: int = 3) -> list[str]:
    return [h.doc_id for h in idx.search([text], k=k)[0]]


@pytest.mark.parametrize("kind", ["flat", "hnsw"])
@pytest.mark.parametrize("quantization", ["none", "int8", "binary"])
def test_round_trip(static_model: str, tmp_path: Path, quantization: str, kind: str) -> None:
    corpus = docs(200)
    path = tmp_path / "idx"
    with SearchIndex.build(static_model, corpus, path, quantization, kind, progress=False) as idx:
        assert len(idx) == 200 and idx.info["kind"] == kind and idx.info["quantization"] == quantization
        hits = idx.search([corpus[7]["text"], corpus[150]["text"]], k=5)
        assert [h[0].doc_id for h in hits] == ["d7", "d150"]
        assert hits[0][0].score == pytest.approx(1.0, abs=1e-5)  # exact rescoring: true cosine
        assert hits[0][0] == Hit("d7", hits[0][0].score, corpus[7]["text"], {"n": 7})
        assert all(a.score >= b.score for a, b in zip(hits[0], hits[0][1:], strict=False))

        new = [{"id": "new", "text": "print page table cell format"}]
        assert idx.add(new) == 1
        assert _top(idx, "print page table cell format", 1) == ["new"]
        assert idx.delete(["d7", "new", "absent"]) == 2
        assert len(idx) == 199
        assert "d7" not in _top(idx, corpus[7]["text"], 10)
        assert "new" not in _top(idx, "print page table cell format", 10)
        expected = idx.search([corpus[150]["text"]], k=5)
    with SearchIndex.open(path) as again:  # the same answers from disk
        assert again.search([corpus[150]["text"]], k=5) == expected
        assert len(again) == 199
        assert again.describe()["tombstones"] == (2 if kind == "hnsw" else 0)


def test_ivf_round_trip(static_model: str, tmp_path: Path) -> None:
    corpus = docs(400)
    with SearchIndex.build(static_model, corpus, tmp_path / "ivf", "int8", "ivf", progress=False) as idx:
        assert idx.info["kind"] == "ivf"
        assert _top(idx, corpus[3]["text"], 1) == ["d3"]
        assert idx.delete(["d3"]) == 1
        assert "d3" not in _top(idx, corpus[3]["text"], 10)
        assert _top(idx, corpus[4]["text"], 1) == ["d4"]  # ids stay right after a removal
    with pytest.raises(LinguaLiteError, match="ivf index needs at least"):
        SearchIndex.build(static_model, docs(10), tmp_path / "small", kind="ivf", progress=False)


def test_auto_kind_and_cross_lingual_query(static_model: str, tmp_path: Path) -> None:
    corpus = [{"id": "cat", "text": "the big cat sleeps"}, {"id": "car", "text": "a red car runs quickly"}]
    with SearchIndex.build(static_model, corpus, tmp_path / "idx", progress=False) as idx:
        assert idx.info["kind"] == "flat"  # auto, below 100k documents
        assert _top(idx, "le grand chat dort", 1) == ["cat"]  # French words share their English rows
        assert _top(idx, "une voiture rouge", 1) == ["car"]


def test_hnsw_delete_rebuilds_after_many_tombstones(static_model: str, tmp_path: Path) -> None:
    corpus = docs(100)
    with SearchIndex.build(static_model, corpus, tmp_path / "idx", "int8", "hnsw", progress=False) as idx:
        first = int(REBUILD_FRACTION * 100)
        idx.delete([f"d{i}" for i in range(first)])
        assert idx.info["tombstones"] == first and idx._vindex.ntotal == 100
        idx.delete([f"d{first}"])  # past the share: the graph is rebuilt without the deleted vectors
        assert idx.info["tombstones"] == 0 and idx._vindex.ntotal == 100 - first - 1
        assert _top(idx, corpus[60]["text"], 1) == ["d60"]
        assert "d5" not in _top(idx, corpus[5]["text"], 10)


def test_empty_and_fully_deleted_indexes(static_model: str, tmp_path: Path) -> None:
    with SearchIndex.build(static_model, [], tmp_path / "empty", "int8", "flat", progress=False) as idx:
        assert len(idx) == 0 and idx.search(["the cat"], k=3) == [[]]
        assert idx.add(docs(5)) == 5  # the scalar quantizer is trained on the first documents added
        assert _top(idx, docs(5)[2]["text"], 1) == ["d2"]
    for kind in ("flat", "hnsw"):
        with SearchIndex.build(static_model, docs(6), tmp_path / kind, "binary", kind, progress=False) as idx:
            assert idx.delete([f"d{i}" for i in range(6)]) == 6
            assert len(idx) == 0 and idx.search(["the cat", "a dog"], k=4) == [[], []]
    with SearchIndex.open(tmp_path / "empty") as idx:
        assert idx.search([], k=3) == []


def test_search_vectors_checks_the_shape(static_model: str, tmp_path: Path) -> None:
    corpus = docs(20)
    with SearchIndex.build(static_model, corpus, tmp_path / "idx", progress=False) as idx:
        vector = idx.encoder.encode([corpus[4]["text"]])[0] * 3.0  # any length: normalised on the way in
        assert idx.search_vectors(vector, k=1)[0][0].doc_id == "d4"
        with pytest.raises(LinguaLiteError, match="32-d vectors"):
            idx.search_vectors(np.ones((1, 5), np.float32))
        with pytest.raises(LinguaLiteError, match="list of strings"):
            idx.search("the cat")  # type: ignore[arg-type]


def test_another_model_is_refused(static_model: str, other_model: str, tmp_path: Path) -> None:
    from lingualite.encoders.resolve import load_encoder

    path = tmp_path / "idx"
    SearchIndex.build(static_model, docs(10), path, progress=False).close()
    with pytest.raises(LinguaLiteError, match=r"built with model static:.*tiny, not static:.*other"):
        SearchIndex.open(path, encoder=other_model)
    with pytest.raises(LinguaLiteError, match="built with model .*not encoder other-static"):
        SearchIndex.open(path, encoder=load_encoder(other_model))
    with SearchIndex.open(path, encoder=load_encoder(static_model)) as idx:  # the same model: accepted
        assert len(idx) == 10
    with pytest.raises(LinguaLiteError, match="not the model named"):
        encoder = load_encoder(other_model)
        encoder.spec = other_model
        SearchIndex.build(static_model, docs(3), tmp_path / "x", encoder=encoder, progress=False)


def test_a_model_changed_in_place_is_refused(tmp_path: Path) -> None:
    folder = make_static_model(tmp_path / "model")
    path = tmp_path / "idx"
    SearchIndex.build(f"static:{folder}", docs(10), path, progress=False).close()
    make_static_model(folder, seed=5)  # retrained under the same path
    with SearchIndex.open(path) as idx, pytest.raises(LinguaLiteError, match="changed since"):
        idx.search(["the cat"])


def test_a_second_reader_sees_changes(static_model: str, tmp_path: Path) -> None:
    path = tmp_path / "idx"
    SearchIndex.build(static_model, docs(30), path, "int8", "flat", progress=False).close()
    with SearchIndex.open(path) as writer, SearchIndex.open(path) as reader:
        assert _top(reader, "help window file save", 1) != ["x"]
        writer.add([{"id": "x", "text": "help window file save"}])
        writer.delete(["d1"])
        assert _top(reader, "help window file save", 1) == ["x"]  # reloaded at the next search
        assert len(reader) == 30


def test_one_writer_at_a_time(static_model: str, tmp_path: Path) -> None:
    from lingualite.core.io_utils import run_lock

    path = tmp_path / "idx"
    with SearchIndex.build(static_model, docs(5), path, progress=False) as idx:
        with (
            run_lock(path, "index write"),
            pytest.raises(LinguaLiteError, match="another lingualite index write"),
        ):
            idx.add([{"id": "x", "text": "the cat"}])
        assert len(idx) == 5 and idx.search(["the cat"], k=1)[0]  # reading needs no lock
        assert idx.add([{"id": "x", "text": "the cat"}]) == 1


def test_a_replaced_index_is_reopened(static_model: str, other_model: str, tmp_path: Path) -> None:
    import shutil

    from lingualite.encoders.resolve import load_encoder
    from lingualite.search.index import IndexGoneError

    path = tmp_path / "idx"
    SearchIndex.build(static_model, docs(10), path, progress=False).close()
    with SearchIndex.open(path, encoder=load_encoder(static_model)) as reader:
        assert _top(reader, docs(10)[3]["text"], 1) == ["d3"]
        SearchIndex.build(static_model, docs(4, prefix="new"), path, progress=False, overwrite=True).close()
        assert len(reader) == 4 and _top(reader, docs(4)[2]["text"], 1) == [
            "new2"
        ]  # `build --overwrite` seen
        shutil.rmtree(path)
        for _ in range(2):  # every call, not only the first
            with pytest.raises(IndexGoneError, match="the index is gone"):
                reader.search(["the cat"])
        SearchIndex.build(other_model, docs(5), path, progress=False).close()
        for _ in range(
            2
        ):  # rebuilt with another model: refused at every call, never served with the wrong one
            with pytest.raises(LinguaLiteError, match="was built with model"):
                reader.search(["the cat"])
        shutil.rmtree(path)
        SearchIndex.build(static_model, docs(6, prefix="back"), path, progress=False).close()
        assert len(reader) == 6 and _top(reader, docs(6)[1]["text"], 1) == ["back1"]


def test_an_empty_index_says_so_where_a_user_searches(static_model: str, tmp_path: Path) -> None:
    from lingualite.search.index import EmptyIndexError

    with SearchIndex.build(static_model, docs(2), tmp_path / "idx", progress=False) as idx:
        idx.require_documents()
        idx.delete(["d0", "d1"])
        with pytest.raises(EmptyIndexError, match=r"idx: holds no documents.*lingualite index add"):
            idx.require_documents()


def test_a_model_fitted_on_its_input_is_refused_in_one_line(tmp_path: Path) -> None:
    with pytest.raises(LinguaLiteError, match=r"tfidf: is fitted on all the texts it encodes together"):
        SearchIndex.build("tfidf", docs(3), tmp_path / "idx", progress=False)
    assert not (tmp_path / "idx").exists()


@pytest.mark.parametrize("quantization", ["none", "binary"])
def test_an_index_of_truncated_vectors_truncates_its_queries(
    static_model: str, tmp_path: Path, quantization: str
) -> None:
    from lingualite.search.encoder_check import dense
    from lingualite.serve.service import check_index
    from lingualite.vectors.truncation import truncate

    corpus = docs(120)
    path = tmp_path / "idx"
    with SearchIndex.build(static_model, corpus, path, quantization, progress=False, dimensions=16) as idx:
        info = idx.info
        assert (info["dimension"], info["model_dimension"], info["truncate_dim"]) == (16, 32, 16)
        assert "not trained with matryoshka_dims" in idx.warnings[0]
        stored = np.asarray(idx._view[:3])
        full = dense(idx.encoder, [d["text"] for d in corpus[:3]])
        np.testing.assert_allclose(stored, truncate(full, 16, normalize=True), atol=1e-6)
        assert _top(idx, corpus[7]["text"], 1) == ["d7"]
        # full-size query vectors (what the service's encoder gives) are truncated as the documents were
        assert idx.search_vectors(full[:1], k=1)[0][0].doc_id == "d0"
        assert idx.search_vectors(stored[:1], k=1)[0][0].doc_id == "d0"
        check_index(idx, idx.encoder, static_model)  # the service accepts its model for this index
    with SearchIndex.open(path) as again:
        assert again.add([{"id": "new", "text": "print page table cell format"}]) == 1
        assert _top(again, "print page table cell format", 1) == ["new"]
        assert again.describe()["truncate_dim"] == 16


def test_index_dimensions_above_the_model_or_trained_are_handled(static_model: str, tmp_path: Path) -> None:
    from lingualite.encoders.matryoshka_dims import write_trained_dimensions

    with pytest.raises(LinguaLiteError, match="above the model's dimension"):
        SearchIndex.build(static_model, docs(5), tmp_path / "a", progress=False, dimensions=33)
    assert not (tmp_path / "a").exists()
    folder = make_static_model(tmp_path / "mrl")
    write_trained_dimensions(folder, [32, 16], 32)
    with SearchIndex.build(f"static:{folder}", docs(5), tmp_path / "b", progress=False, dimensions=16) as idx:
        assert idx.warnings == [] and idx.info["truncate_dim"] == 16
    with SearchIndex.build(f"static:{folder}", docs(5), tmp_path / "c", progress=False, dimensions=32) as idx:
        assert (
            idx.info["truncate_dim"] is None and idx.info["dimension"] == 32
        )  # the full size: no truncation
