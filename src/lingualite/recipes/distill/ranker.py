"""Paper 002's relevance ranker: asymmetric (query -> passage) distillation of a retrieval teacher.

A retrieval teacher such as multilingual-e5 (Wang et al. 2024) reads queries and passages apart, through the
prefixes ``query: `` and ``passage: ``. The student learns both sides the way the teacher sees them: its
training texts carry the same prompts as plain text, the teacher encodes the English side with its query or
passage side, and the multilingual MSE of Reimers & Gurevych (2020) maps both sides of every pair onto that
vector (``S(prompt + en) ~ T(en)``, ``S(prompt + xx) ~ T(en)``). The exported folder records the prompts
as sentence-transformers ``prompts`` with the passage prompt as default, so ``model.encode(texts)`` is the
passage side, ``model.encode(texts, prompt_name="query")`` the query side, and lingualite's folder encoder
gets an ``encode_queries`` (used by IR evaluation, search and serving).

Training texts (:func:`ranker_corpus`): the training pairs, optionally only those of some sources (document
ids of the third TSV column), never a pair with a side in ``ranker.exclude_files`` (the IR queries), each
sentence as a query and runs of ``passage_sentences`` consecutive sentences of one document as a passage.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from lingualite.config.distill import DistillConfig, RankerConfig
from lingualite.core.errors import LinguaLiteError
from lingualite.core.io_utils import write_json
from lingualite.data.evalsets.everyday import is_everyday
from lingualite.data.pairs import ParallelCorpus, expand_files, languages_of
from lingualite.data.readers import read_tsv
from lingualite.data.unseen import SeenTexts
from lingualite.recipes.distill.teacher import Teacher
from lingualite.training.vocabulary import Texts, pair_texts

__all__ = ["asymmetric_teacher", "prompt_validation", "ranker_corpus", "save_prompts", "vocabulary_texts"]

Chunk = list[tuple[str, str]]
"""Consecutive pairs of one document."""


def _excluded(patterns: list[str]) -> SeenTexts:
    """The texts (last column) of ``id<TAB>text`` files; kept in SeenTexts' second set."""
    seen = SeenTexts()
    if patterns:
        seen.add_files(expand_files(patterns, "ranker.exclude"), src=False, tgt=True)
    return seen


def _chunks(path: Path, ranker: RankerConfig, seen: SeenTexts, counts: dict[str, int]) -> list[Chunk]:
    """The file's pairs (filtered) cut into runs of at most ``passage_sentences`` of one document."""
    chunks: list[Chunk] = []
    last_doc: str | None = None
    for pair in read_tsv(path):
        counts["read"] += 1
        if ranker.sources and not (pair.doc_id or "").startswith(tuple(ranker.sources)):
            continue
        if seen.seen(pair.src, pair.src) or seen.seen(pair.tgt, pair.tgt):
            counts["excluded"] += 1
            last_doc = None  # a passage never spans an excluded sentence
            continue
        if is_everyday(pair.src) or is_everyday(pair.tgt):  # the held-out everyday set stays held out
            counts["excluded_everyday"] += 1
            last_doc = None
            continue
        counts["kept"] += 1
        same = pair.doc_id is not None and pair.doc_id == last_doc
        if same and len(chunks[-1]) < ranker.passage_sentences:
            chunks[-1].append((pair.src, pair.tgt))
        else:
            chunks.append([(pair.src, pair.tgt)])
        last_doc = pair.doc_id
    return chunks


def _sample(chunks: list[Chunk], max_sentences: int | None, rng: np.random.Generator) -> list[Chunk]:
    """Seeded chunks, in file order, up to ``max_sentences`` sentences (all when None)."""
    if max_sentences is None:
        return chunks
    keep, total = [], 0
    for i in rng.permutation(len(chunks)):
        if total >= max_sentences:
            break
        keep.append(int(i))
        total += len(chunks[i])
    return [chunks[i] for i in sorted(keep)]


def ranker_corpus(cfg: DistillConfig, files: list[Path]) -> tuple[ParallelCorpus, dict[str, Any]]:
    """Prompted training pairs: every sentence as a query, every chunk joined as a passage.

    ``data.max_train_pairs`` caps the sentences (an equal seeded share of each file, whole chunks).
    ``texts`` of the corpus are the kept pairs' sentences without prompts (all of them, for the vocabulary).
    """
    ranker = cfg.ranker
    if cfg.data.monolingual_files:
        raise LinguaLiteError(
            "data.monolingual_files cannot be combined with the ranker (ranker.query_prompt): set "
            "data.monolingual_files: [] (the distill recipe's default reads untranslated text)"
        )
    seen = _excluded(ranker.exclude_files)
    rng = np.random.default_rng(cfg.seed)
    limit = cfg.data.max_train_pairs
    share = None if limit is None else max(1, limit // len(files))
    qp, pp = ranker.query_prompt or "", ranker.passage_prompt
    pairs: list[tuple[str, str]] = []
    groups: list[int] = []
    texts: dict[str, list[str]] = {}
    counts = {"read": 0, "excluded": 0, "excluded_everyday": 0, "kept": 0, "queries": 0, "passages": 0}
    for index, path in enumerate(files):
        chunks = _chunks(path, ranker, seen, counts)
        if not chunks:
            raise LinguaLiteError(f"{path}: no training pairs left (ranker.sources / ranker.exclude_files)")
        a, b = languages_of(path)
        texts.setdefault(a, []).extend(s for chunk in chunks for s, _ in chunk)
        texts.setdefault(b, []).extend(t for chunk in chunks for _, t in chunk)
        before = len(pairs)
        for chunk in _sample(chunks, share, rng):
            pairs.extend((qp + s, qp + t) for s, t in chunk)
            counts["queries"] += len(chunk)
            pairs.append((pp + " ".join(s for s, _ in chunk), pp + " ".join(t for _, t in chunk)))
            counts["passages"] += 1
        groups.extend([index] * (len(pairs) - before))
    corpus = ParallelCorpus(
        pairs, np.asarray(groups, dtype=np.int32), {k: list(dict.fromkeys(v)) for k, v in texts.items()}
    )
    return corpus, counts


def vocabulary_texts(cfg: DistillConfig, corpus: ParallelCorpus) -> Callable[[], Texts]:
    """What the vocabulary is trained on: for the ranker the kept pairs' sentences (never an excluded text),
    unless ``vocabulary.files`` names others; otherwise every recipe's :func:`pair_texts`."""
    if not cfg.ranker.enabled or cfg.vocabulary.files is not None:
        return pair_texts(cfg.vocabulary, cfg.data, corpus)
    texts = corpus.texts
    return lambda: texts


def prompt_validation(
    ranker: RankerConfig, valid_sets: list[tuple[str, list[str], list[str]]]
) -> list[tuple[str, list[str], list[str]]]:
    """Validation pairs as queries (short sentences, as the IR queries are); unchanged without the ranker."""
    if not ranker.enabled:
        return valid_sets
    qp = ranker.query_prompt or ""
    return [(name, [qp + s for s in src], [qp + t for t in tgt]) for name, src, tgt in valid_sets]


def asymmetric_teacher(teacher: Teacher, ranker: RankerConfig) -> Teacher:
    """A teacher whose ``encode`` reads the prompts: texts starting with the query prompt go to its query
    side without it, the others to its passage side without the passage prompt. A teacher without a query
    side (a sentence-transformers folder) reads the prompts as text, as sentence-transformers' ``prompts``
    do. Unchanged without the ranker."""
    if not ranker.enabled:
        return teacher
    qp, pp = ranker.query_prompt or "", ranker.passage_prompt
    encode_queries = teacher.encode_queries
    if encode_queries is None:
        return dataclasses.replace(teacher, fingerprint=f"{teacher.fingerprint}\nprompts as text")

    def encode(texts: list[str]) -> np.ndarray:
        is_query = np.array([t.startswith(qp) for t in texts], dtype=bool)
        parts = []
        if is_query.any():
            rows = np.flatnonzero(is_query)
            parts.append((rows, encode_queries([texts[i][len(qp) :] for i in rows])))
        if not is_query.all():
            rows = np.flatnonzero(~is_query)
            parts.append((rows, teacher.encode([texts[i].removeprefix(pp) for i in rows])))
        out = np.empty((len(texts), parts[0][1].shape[1]), dtype=np.float32)
        for rows, vectors in parts:
            out[rows] = vectors
        return out

    fingerprint = f"{teacher.fingerprint}\nquery side {qp!r}, passage side {pp!r}"
    # workers=1: worker processes would load the plain teacher, without this split into query and passage
    return dataclasses.replace(teacher, encode=encode, fingerprint=fingerprint, workers=1)


def save_prompts(folder: Path, ranker: RankerConfig) -> None:
    """Record the prompts in the exported folder's ``config_sentence_transformers.json`` (nothing for a
    symmetric run): ``prompts`` {query, passage} and ``default_prompt_name: passage``."""
    if not ranker.enabled:
        return
    path = Path(folder) / "config_sentence_transformers.json"
    config = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    config["prompts"] = {"query": ranker.query_prompt, "passage": ranker.passage_prompt}
    config["default_prompt_name"] = "passage"
    write_json(path, config)
