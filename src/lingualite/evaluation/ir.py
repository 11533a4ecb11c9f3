"""Information retrieval (IR): rank a corpus by cosine similarity to each query, score against judgements.

The dense-retrieval protocol of BEIR (Thakur et al., NeurIPS 2021 datasets track) and MTEB retrieval as
implemented by sentence-transformers' ``InformationRetrievalEvaluator`` (Reimers & Gurevych, 2019), whose
definitions are followed exactly so the numbers are equal (tested):

* a document is relevant to a query when its judgement is > 0; grades are **binarised** (NDCG uses gain 1
  for every relevant document, and the ideal DCG has ``min(#relevant, 10)`` ones), as sentence-transformers
  does;
* ranking is by descending cosine, ties broken by ascending document id;
* MRR@10 = 1/rank of the first relevant document within 10 (else 0); precision@k = relevant in top k / k;
  recall@k = relevant in top k / #relevant; accuracy@k = 1 if any relevant document is in the top k;
  MAP@100 = sum of precision at each relevant hit within 100 / ``min(100, #relevant)``;
* queries without any relevant document are skipped (and counted in ``num_queries_skipped``).

Cross-lingual IR is the same call with queries in another language than the corpus. Similarities are
computed in blocks (queries x documents) and only the top 100 of each query are kept, so memory stays
bounded by the block size whatever the corpus size; blocks also work for sparse (TF-IDF) embeddings, which is
why this uses numpy rather than faiss.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Hashable, Iterator, Mapping, Sequence

import numpy as np

from lingualite.encoders.base import Encoder
from lingualite.evaluation.base import Embeddings, cosine_matrix, embed

__all__ = ["IR_METRICS", "MAX_K", "evaluate_ir", "ranking_metrics"]

IR_METRICS = (
    "accuracy_at_1",
    "accuracy_at_10",
    "precision_at_10",
    "recall_at_10",
    "recall_at_100",
    "mrr_at_10",
    "ndcg_at_10",
    "map_at_100",
)
MAX_K = 100  # the deepest cut-off of IR_METRICS: how many documents are ranked per query
_QUERY_BLOCK = 1024


def _query_metrics(ranked: Sequence[Hashable], relevant: Collection[Hashable]) -> list[float]:
    """The values of :data:`IR_METRICS` for one query (``ranked`` best first, ``relevant`` non-empty)."""
    hits = [doc in relevant for doc in ranked[:MAX_K]]
    first = next((rank for rank, hit in enumerate(hits) if hit), None)
    found_10, found_100 = sum(hits[:10]), sum(hits)
    dcg = sum(1.0 / math.log2(rank + 2) for rank, hit in enumerate(hits[:10]) if hit)
    ideal = sum(1.0 / math.log2(rank + 2) for rank in range(min(len(relevant), 10)))
    precisions, found = 0.0, 0
    for rank, hit in enumerate(hits):
        if hit:
            found += 1
            precisions += found / (rank + 1)
    return [
        float(first == 0),
        float(first is not None and first < 10),
        found_10 / 10,
        found_10 / len(relevant),
        found_100 / len(relevant),
        1.0 / (first + 1) if first is not None and first < 10 else 0.0,
        dcg / ideal,
        precisions / min(MAX_K, len(relevant)),
    ]


class _Totals:
    """Sums of per-query metrics, so rankings can be scored block by block and then dropped."""

    def __init__(self) -> None:
        self.sums = np.zeros(len(IR_METRICS))
        self.queries = 0
        self.skipped = 0

    def add(self, ranked: Sequence[Hashable], relevant: Collection[Hashable]) -> None:
        if not relevant:
            self.skipped += 1
            return
        self.sums += _query_metrics(ranked, relevant)
        self.queries += 1

    def result(self) -> dict[str, float]:
        if not self.queries:
            raise ValueError(
                f"no query has a relevant document ({self.skipped} skipped): qrels need at least one "
                "judgement > 0 for a query that is ranked"
            )
        means = self.sums / self.queries
        return {
            **{name: float(v) for name, v in zip(IR_METRICS, means, strict=True)},
            "num_queries": self.queries,
            "num_queries_skipped": self.skipped,
        }


def _relevant(judged: Mapping[Hashable, int] | None) -> set[Hashable]:
    return {doc for doc, rel in (judged or {}).items() if rel > 0}


def ranking_metrics(
    ranked: Mapping[Hashable, Sequence[Hashable]], qrels: Mapping[Hashable, Mapping[Hashable, int]]
) -> dict[str, float]:
    """Mean :data:`IR_METRICS` of given rankings (no encoder involved).

    :param ranked: query id -> document ids, best first (only the first :data:`MAX_K` are read).
    :param qrels: query id -> {document id: relevance}; relevance > 0 means relevant.
    :return: each metric of :data:`IR_METRICS` averaged over the queries of ``ranked`` that have a relevant
        document, ``num_queries`` (those scored) and ``num_queries_skipped`` (those without).
    """
    totals = _Totals()
    for qid, docs in ranked.items():
        totals.add(docs, _relevant(qrels.get(qid)))
    return totals.result()


def _block_top_k(sim: np.ndarray, k: int, doc_rank: np.ndarray) -> np.ndarray:
    """Column indices of each row's ``k`` best entries under (-score, doc_rank), unordered."""
    if sim.shape[1] <= k:
        return np.broadcast_to(np.arange(sim.shape[1]), sim.shape).copy()
    top = np.argpartition(-sim, k - 1, axis=1)[:, :k]
    threshold = np.take_along_axis(sim, top, axis=1).min(axis=1, keepdims=True)
    for row in np.flatnonzero((sim >= threshold).sum(axis=1) > k):  # ties at the cut: break them by doc id
        top[row] = np.lexsort((doc_rank, -sim[row]))[:k]
    return top


def _top_k(
    queries: Embeddings, docs: Embeddings, k: int, doc_rank: np.ndarray, chunk: int
) -> Iterator[np.ndarray]:
    """For each block of queries, its rows' ``k`` best document indices, best first."""
    k = min(k, docs.shape[0])
    for qs in range(0, queries.shape[0], _QUERY_BLOCK):
        q = queries[qs : qs + _QUERY_BLOCK]
        best_idx = np.empty((q.shape[0], 0), dtype=np.int64)
        best_sim = np.empty((q.shape[0], 0), dtype=np.float32)
        for ds in range(0, docs.shape[0], chunk):
            sim = cosine_matrix(q, docs[ds : ds + chunk])
            top = _block_top_k(sim, k, doc_rank[ds : ds + chunk])
            cand_idx = np.hstack([best_idx, top + ds])
            cand_sim = np.hstack([best_sim, np.take_along_axis(sim, top, axis=1)])
            order = np.lexsort((doc_rank[cand_idx], -cand_sim), axis=-1)[:, :k]
            best_idx = np.take_along_axis(cand_idx, order, axis=1)
            best_sim = np.take_along_axis(cand_sim, order, axis=1)
        yield best_idx


def _validate(corpus: Mapping, queries: Mapping, qrels: Mapping, corpus_chunk_size: int) -> None:
    if not corpus:
        raise ValueError("IR needs a non-empty corpus (doc_id -> text)")
    if not queries:
        raise ValueError("IR needs at least one query (query_id -> text)")
    if corpus_chunk_size < 1:
        raise ValueError(f"corpus_chunk_size must be >= 1, got {corpus_chunk_size}")
    for qid, judged in qrels.items():
        if qid not in queries:
            raise ValueError(f"qrels judge query {qid!r}, which is not among the queries")
        unknown = [doc for doc in judged if doc not in corpus]
        if unknown:
            raise ValueError(
                f"qrels of query {qid!r} name {len(unknown)} document(s) not in the corpus, "
                f"e.g. {unknown[0]!r}"
            )


def evaluate_ir(
    encoder: Encoder,
    corpus: Mapping[Hashable, str],
    queries: Mapping[Hashable, str],
    qrels: Mapping[Hashable, Mapping[Hashable, int]],
    corpus_chunk_size: int = 4096,
) -> dict[str, float]:
    """Rank ``corpus`` for each query by cosine similarity and score the top :data:`MAX_K` against ``qrels``.

    :param encoder: any :class:`~lingualite.encoders.base.Encoder`; one that needs fitting (TF-IDF)
        is fitted on the scored queries and the corpus together.
    :param corpus: document id -> text.
    :param queries: query id -> text (in any language: cross-lingual IR needs nothing else).
    :param qrels: query id -> {document id: relevance}; relevance > 0 is relevant (grades are binarised, as
        in sentence-transformers). Every id must exist in ``queries``/``corpus``.
    :param corpus_chunk_size: documents scored per block (with up to 1024 queries); 4096 keeps a block's
        similarities near 16 MB.
    :return: :data:`IR_METRICS` (``mrr_at_10``, ``ndcg_at_10``, ``map_at_100``, ...) averaged over the
        queries that have a relevant document, ``num_queries`` (scored), ``num_queries_skipped`` (no relevant
        document) and ``num_documents``.
    """
    _validate(corpus, queries, qrels, corpus_chunk_size)
    relevant = {qid: _relevant(qrels.get(qid)) for qid in queries}
    scored = [qid for qid in queries if relevant[qid]]
    if not scored:
        raise ValueError("no query has a relevant document: qrels need at least one judgement > 0")
    doc_ids = list(corpus)
    doc_rank = np.empty(len(doc_ids), dtype=np.int64)
    doc_rank[sorted(range(len(doc_ids)), key=doc_ids.__getitem__)] = np.arange(len(doc_ids))
    q_texts = [queries[qid] for qid in scored]
    encode_queries = getattr(encoder, "encode_queries", None)
    if callable(encode_queries):  # asymmetric models (e5: "query: " vs "passage: ") encode queries apart
        q_emb, (d_emb,) = encode_queries(q_texts), embed(encoder, [corpus[doc] for doc in doc_ids])
    else:
        q_emb, d_emb = embed(encoder, q_texts, [corpus[doc] for doc in doc_ids])
    totals = _Totals()
    totals.skipped = len(queries) - len(scored)
    starts = range(0, len(scored), _QUERY_BLOCK)
    for start, top in zip(starts, _top_k(q_emb, d_emb, MAX_K, doc_rank, corpus_chunk_size), strict=True):
        for qid, row in zip(scored[start : start + _QUERY_BLOCK], top, strict=True):
            totals.add([doc_ids[j] for j in row], relevant[qid])
    return {**totals.result(), "num_documents": len(doc_ids)}
