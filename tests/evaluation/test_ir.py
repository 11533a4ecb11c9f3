"""IR: metrics by hand on tiny rankings, blocked top-k against a brute-force ranking, parity with
sentence-transformers' InformationRetrievalEvaluator."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from lingualite.encoders.folder import SentenceTransformerEncoder
from lingualite.encoders.tfidf import TfidfEncoder
from lingualite.evaluation import ir
from lingualite.evaluation.ir import IR_METRICS, evaluate_ir, ranking_metrics

L2, L3 = 1 / math.log2(3), 1 / math.log2(4)  # DCG discounts of ranks 2 and 3


def test_ranking_metrics_by_hand() -> None:
    ranked = {"q1": ["d1", "d2", "d3"], "q2": ["d3", "d1", "d2"], "q3": ["d1"]}
    qrels = {"q1": {"d2": 1}, "q2": {"d1": 1, "d2": 2, "d3": 0}, "q3": {"d1": 0}}
    out = ranking_metrics(ranked, qrels)
    # q1: one relevant doc at rank 2. q2: relevant d1, d2 (grade 2 counts as 1) at ranks 2 and 3. q3: skipped.
    expected = {
        "accuracy_at_1": 0.0,
        "accuracy_at_10": 1.0,
        "precision_at_10": (1 / 10 + 2 / 10) / 2,
        "recall_at_10": 1.0,
        "recall_at_100": 1.0,
        "mrr_at_10": 0.5,
        "ndcg_at_10": (L2 / 1 + (L2 + L3) / (1 + L2)) / 2,
        "map_at_100": (1 / 2 + (1 / 2 + 2 / 3) / 2) / 2,
    }
    assert out == pytest.approx({**expected, "num_queries": 2, "num_queries_skipped": 1})


def test_ranking_metrics_cutoffs() -> None:
    docs = [f"d{i:03d}" for i in range(150)]
    # relevant: the 1st, the 11th and the 120th ranked, plus one never retrieved
    out = ranking_metrics({"q": docs}, {"q": {"d000": 1, "d010": 1, "d119": 1, "missing": 1}})
    assert out["accuracy_at_1"] == 1.0
    assert out["mrr_at_10"] == 1.0
    assert out["precision_at_10"] == pytest.approx(0.1)
    assert out["recall_at_10"] == pytest.approx(1 / 4)
    assert out["recall_at_100"] == pytest.approx(2 / 4)  # rank 120 is beyond 100
    assert out["map_at_100"] == pytest.approx((1 / 1 + 2 / 11) / 4)
    assert out["ndcg_at_10"] == pytest.approx(1 / (1 + L2 + L3 + 1 / math.log2(5)))


def test_no_relevant_query_is_an_error() -> None:
    with pytest.raises(ValueError, match="no query has a relevant document"):
        ranking_metrics({"q": ["d"]}, {"q": {"d": 0}})


CORPUS_VECTORS = {"doc-x": [1, 0], "doc-y": [0.8, 0.6], "doc-z": [0, 1], "doc-b": [-1, 0], "doc-a": [-1, 0]}


def test_evaluate_ir_by_hand(fake_encoder) -> None:
    vectors = {**CORPUS_VECTORS, "query-x": [1, 0.1], "query-left": [-2, 0], "query-none": [0, 1]}
    corpus = {doc: doc for doc in CORPUS_VECTORS}
    queries = {"qx": "query-x", "ql": "query-left", "qn": "query-none"}
    # qx ranks x, y, z, (a, b tied: a first); ql ranks a, b (tied: by id), z, y, x.
    qrels = {"qx": {"doc-y": 1}, "ql": {"doc-b": 1, "doc-x": 3}, "qn": {"doc-z": 0}}
    out = evaluate_ir(fake_encoder(vectors), corpus, queries, qrels)
    assert out["num_queries"] == 2 and out["num_queries_skipped"] == 1 and out["num_documents"] == 5
    assert out["mrr_at_10"] == pytest.approx((1 / 2 + 1 / 2) / 2)
    assert out["map_at_100"] == pytest.approx((1 / 2 + (1 / 2 + 2 / 5) / 2) / 2)
    assert out["ndcg_at_10"] == pytest.approx((L2 + (L2 + 1 / math.log2(6)) / (1 + L2)) / 2)
    assert out["accuracy_at_1"] == 0.0 and out["recall_at_10"] == 1.0


def _brute_force(q: np.ndarray, d: np.ndarray, doc_ids: list[str]) -> list[list[str]]:
    qn = q / np.linalg.norm(q, axis=1, keepdims=True)
    dn = d / np.linalg.norm(d, axis=1, keepdims=True)
    sim = (qn @ dn.T).astype(np.float32)
    return [sorted(doc_ids, key=lambda doc, row=row: (-row[doc_ids.index(doc)], doc)) for row in sim]


def test_blocked_top_k_equals_full_ranking(fake_encoder, monkeypatch) -> None:
    rng = np.random.default_rng(0)
    # Random documents, and 110 copies of +-one-hot vectors: exact ties whatever the summation order (the
    # cosines of different vectors that are equal on paper may round differently in different blocks).
    axes = np.eye(3, dtype=np.float32)[rng.integers(3, size=110)] * rng.choice([-1, 1], size=(110, 1))
    d = np.vstack([rng.normal(size=(120, 3)), axes]).astype(np.float32)[rng.permutation(230)]
    q = rng.normal(size=(9, 3)).astype(np.float32)
    q[:3] = np.eye(3)  # ~18 documents tied at cosine 1, ~37 at 0 (across the top-100 cut)
    doc_ids = [f"{rng.integers(10**6):06d}-{i}" for i in range(len(d))]
    vectors = {**dict(zip(doc_ids, d, strict=True)), **{f"q{i}": row for i, row in enumerate(q)}}
    corpus = {doc: doc for doc in doc_ids}
    queries = {f"q{i}": f"q{i}" for i in range(len(q))}
    qrels = {qid: {doc: 1 for doc in rng.choice(doc_ids, 30, replace=False)} for qid in queries}
    full = ranking_metrics(dict(zip(queries, _brute_force(q, d, doc_ids), strict=True)), qrels)
    monkeypatch.setattr(ir, "_QUERY_BLOCK", 4)
    for chunk in (1, 7, 100, 150, 10_000):
        out = evaluate_ir(fake_encoder(vectors), corpus, queries, qrels, corpus_chunk_size=chunk)
        assert {k: out[k] for k in IR_METRICS} == pytest.approx({k: full[k] for k in IR_METRICS}), chunk


def test_block_top_k_breaks_ties_at_the_cut_by_doc_id() -> None:
    sim = np.array([[0.5, 0.9, 0.5, 0.5, 0.1], [0.1, 0.2, 0.3, 0.4, 0.5]], dtype=np.float32)
    top = ir._block_top_k(sim, 2, doc_rank=np.array([3, 0, 1, 2, 4]))
    assert [sorted(row) for row in top.tolist()] == [[1, 2], [3, 4]]


@pytest.mark.parametrize(
    ("qrels", "match"),
    [
        ({"qx": {"nope": 1}}, "not in the corpus"),
        ({"ghost": {"doc-x": 1}}, "not among the queries"),
        ({"qx": {"doc-x": 0}}, "no query has a relevant document"),
    ],
)
def test_invalid_qrels(fake_encoder, qrels, match) -> None:
    corpus = {doc: doc for doc in CORPUS_VECTORS}
    with pytest.raises(ValueError, match=match):
        evaluate_ir(fake_encoder(CORPUS_VECTORS), corpus, {"qx": "doc-x"}, qrels)


def test_tfidf_encoder_sparse() -> None:
    corpus = {"1": "the cat sleeps on the house", "2": "a red car runs quickly", "3": "the dog eats slowly"}
    queries = {"a": "red car", "b": "dog eats"}
    out = evaluate_ir(TfidfEncoder(), corpus, queries, {"a": {"2": 1}, "b": {"3": 1}}, corpus_chunk_size=2)
    assert out["accuracy_at_1"] == 1.0 and out["ndcg_at_10"] == 1.0


def test_equals_information_retrieval_evaluator(tiny_st_model, valid_pairs) -> None:
    from sentence_transformers.sentence_transformer.evaluation import InformationRetrievalEvaluator

    en, fr = valid_pairs
    rng = random.Random(0)
    corpus = {f"d{i}": text for i, text in enumerate(fr)}
    queries = {f"q{i}": text for i, text in enumerate(en[:40])}
    qrels: dict[str, dict[str, int]] = {}
    for i, qid in enumerate(queries):
        if i % 10 == 9:
            continue  # no judgement: skipped by both
        judged = {f"d{i}": 1} if i % 3 else {}  # a third of the queries miss their translation
        judged.update({doc: rng.choice([0, 1, 2]) for doc in rng.sample(sorted(corpus), rng.randint(1, 12))})
        qrels[qid] = judged
    encoder = SentenceTransformerEncoder(tiny_st_model)
    ours = evaluate_ir(encoder, corpus, queries, qrels, corpus_chunk_size=50)
    relevant = {qid: {doc for doc, rel in judged.items() if rel > 0} for qid, judged in qrels.items()}
    evaluator = InformationRetrievalEvaluator(
        queries,
        corpus,
        relevant,
        corpus_chunk_size=33,
        accuracy_at_k=[1, 10],
        precision_recall_at_k=[10, 100],
        write_csv=False,
    )
    theirs = evaluator(encoder.model)
    names = {
        "accuracy_at_1": "accuracy@1",
        "accuracy_at_10": "accuracy@10",
        "precision_at_10": "precision@10",
        "recall_at_10": "recall@10",
        "recall_at_100": "recall@100",
        "mrr_at_10": "mrr@10",
        "ndcg_at_10": "ndcg@10",
        "map_at_100": "map@100",
    }
    assert set(names) == set(IR_METRICS)
    assert ours["num_queries"] == len(evaluator.queries_ids) and ours["num_documents"] == len(corpus)
    assert 0.0 < ours["mrr_at_10"] < 1.0
    for key, theirs_key in names.items():
        assert ours[key] == pytest.approx(theirs[f"cosine_{theirs_key}"], abs=1e-9), key


def test_asymmetric_encoders_encode_queries_with_encode_queries() -> None:
    class Asymmetric:
        name = "asym"
        dimension = 2

        def encode(self, texts: list[str]) -> np.ndarray:  # documents: d0 -> x axis, d1 -> y axis
            return np.array([[1.0, 0.0] if "zero" in t else [0.0, 1.0] for t in texts])

        def encode_queries(self, texts: list[str]) -> np.ndarray:  # queries say which axis they want
            return np.array([[1.0, 0.0] if "first" in t else [0.0, 1.0] for t in texts])

    corpus = {"d0": "doc zero", "d1": "doc one"}
    queries = {"q0": "the first", "q1": "the second"}
    result = evaluate_ir(Asymmetric(), corpus, queries, {"q0": {"d0": 1}, "q1": {"d1": 1}})
    assert result["mrr_at_10"] == 1.0
