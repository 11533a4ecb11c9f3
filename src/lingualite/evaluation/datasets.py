"""Strict readers of the evaluation file formats (classification, pair classification, STS, IR).

All files are tab-separated, UTF-8 (strictly decoded, a line-1 BOM tolerated), plain or ``.gz``, one record
per line; blank lines are ignored (so a trailing empty line is harmless), but a line of spaces is a record
and is rejected. Labels and ids are stripped of surrounding whitespace (``"pos "`` and ``"pos"`` are one
class); texts are kept verbatim. A malformed line raises
:class:`~lingualite.core.errors.BadInputError` (``file:line: reason``, 1-based), or with ``skip_bad=True`` is
skipped and counted by reason in the :class:`~lingualite.data.readers.ReadStats` passed in, whose
``pairs`` counts the records read. A file with no records is an error even with ``skip_bad``.

=====================  ==================================================================================
task                   format
=====================  ==================================================================================
classification         ``label<TAB>text`` (one file per language)
pair classification    ``sentence1<TAB>sentence2<TAB>label``
STS                    ``sentence1<TAB>sentence2<TAB>score`` (score: a finite float)
IR                     a folder with ``corpus.tsv`` (``doc_id<TAB>text``), ``queries.tsv``
                       (``query_id<TAB>text``) and ``qrels.tsv`` (``query_id<TAB>doc_id[<TAB>relevance]``,
                       relevance a non-negative integer, default 1, 0 = judged not relevant)
=====================  ==================================================================================

Stats keys: ``invalid_utf8``, ``field_count``, ``empty_text``, ``empty_label``, ``empty_id``, ``bad_score``,
``bad_relevance``, ``duplicate_id``, ``duplicate_judgement``, ``unknown_id``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import NamedTuple, TypeVar

from lingualite.core.errors import BadInputError
from lingualite.data.eval_files import ir_file
from lingualite.data.readers import ReadStats, read_tsv_fields

__all__ = [
    "ClassificationData",
    "IRData",
    "PairData",
    "STSData",
    "read_classification",
    "read_ir",
    "read_pair_classification",
    "read_sts",
]

PathLike = str | Path
_T = TypeVar("_T")
_HEADER_HINT = " (if this is a header line, remove it)"


class ClassificationData(NamedTuple):
    """Texts and their labels, aligned; unpacks as ``(texts, labels)``."""

    texts: list[str]
    labels: list[str]


class PairData(NamedTuple):
    """Sentence pairs and their labels, aligned; unpacks as ``(sentences1, sentences2, labels)``."""

    sentences1: list[str]
    sentences2: list[str]
    labels: list[str]


class STSData(NamedTuple):
    """Sentence pairs and their gold similarity scores; unpacks as ``(sentences1, sentences2, scores)``."""

    sentences1: list[str]
    sentences2: list[str]
    scores: list[float]


class IRData(NamedTuple):
    """``corpus`` doc_id -> text, ``queries`` query_id -> text (file order), ``qrels`` query_id -> {doc_id:
    relevance} (queries without judgements are absent from ``qrels``)."""

    corpus: dict[str, str]
    queries: dict[str, str]
    qrels: dict[str, dict[str, int]]


class _Bad(Exception):
    def __init__(self, key: str, reason: str) -> None:
        super().__init__(reason)
        self.key = key
        self.reason = reason


def _records(
    path: Path,
    num_fields: int | tuple[int, ...],
    skip_bad: bool,
    stats: ReadStats | None,
    parse: Callable[[int, list[str]], _T],
) -> Iterator[_T]:
    """Yield ``parse(lineno, fields)`` per good line; a :class:`_Bad` from ``parse`` is raised as
    :class:`BadInputError` or counted. Raises if the file holds no record at all."""
    count = 0
    for lineno, fields in read_tsv_fields(path, num_fields, skip_bad=skip_bad, stats=stats):
        try:
            record = parse(lineno, fields)
        except _Bad as bad:
            if not skip_bad:
                raise BadInputError(path, lineno, bad.reason) from None
            if stats is not None:
                stats.bad[bad.key] += 1
            continue
        count += 1
        if stats is not None:
            stats.pairs += 1
        yield record
    if not count:
        raise BadInputError(path, None, "no records (the file is empty or every line is malformed)")


def _text(value: str, what: str = "text") -> str:
    if not value.strip():
        raise _Bad("empty_text", f"empty {what}")
    return value


def _label(value: str) -> str:
    value = value.strip()
    if not value:
        raise _Bad("empty_label", "empty label")
    return value


def _ident(value: str, what: str) -> str:
    value = value.strip()
    if not value:
        raise _Bad("empty_id", f"empty {what}")
    return value


def read_classification(
    path: PathLike, skip_bad: bool = False, stats: ReadStats | None = None
) -> ClassificationData:
    """Read ``label<TAB>text`` lines.

    :param path: the file (``.gz`` allowed).
    :param skip_bad: skip and count malformed lines instead of raising.
    :param stats: where skipped lines are counted (by reason) and records read (``pairs``).
    :raises BadInputError: on a malformed line (without ``skip_bad``) or a file with no records.
    """
    path = Path(path)
    rows = list(_records(path, 2, skip_bad, stats, lambda n, f: (_label(f[0]), _text(f[1]))))
    return ClassificationData([t for _, t in rows], [lab for lab, _ in rows])


def read_pair_classification(
    path: PathLike, skip_bad: bool = False, stats: ReadStats | None = None
) -> PairData:
    """Read ``sentence1<TAB>sentence2<TAB>label`` lines (e.g. XNLI: entailment/neutral/contradiction).

    :param path: the file (``.gz`` allowed).
    :param skip_bad: skip and count malformed lines instead of raising.
    :param stats: where skipped lines are counted (by reason) and records read (``pairs``).
    :raises BadInputError: on a malformed line (without ``skip_bad``) or a file with no records.
    """
    path = Path(path)

    def parse(_: int, f: list[str]) -> tuple[str, str, str]:
        return _text(f[0], "first sentence"), _text(f[1], "second sentence"), _label(f[2])

    rows = list(_records(path, 3, skip_bad, stats, parse))
    return PairData([r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows])


def _score(value: str, lineno: int) -> float:
    try:
        score = float(value)
    except ValueError:
        hint = _HEADER_HINT if lineno == 1 else ""
        raise _Bad("bad_score", f"score {value!r} is not a number{hint}") from None
    if not math.isfinite(score):
        raise _Bad("bad_score", f"score {value!r} is not a finite number")
    return score


def read_sts(path: PathLike, skip_bad: bool = False, stats: ReadStats | None = None) -> STSData:
    """Read ``sentence1<TAB>sentence2<TAB>score`` lines (score any finite float, e.g. 0-5 as STS-B).

    :param path: the file (``.gz`` allowed).
    :param skip_bad: skip and count malformed lines instead of raising.
    :param stats: where skipped lines are counted (by reason) and records read (``pairs``).
    :raises BadInputError: on a malformed line (without ``skip_bad``) or a file with no records.
    """
    path = Path(path)

    def parse(lineno: int, f: list[str]) -> tuple[str, str, float]:
        return _text(f[0], "first sentence"), _text(f[1], "second sentence"), _score(f[2], lineno)

    rows = list(_records(path, 3, skip_bad, stats, parse))
    return STSData([r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows])


def _id_texts(path: Path, what: str, skip_bad: bool, stats: ReadStats | None) -> dict[str, str]:
    """``id<TAB>text`` lines into a dict (file order); a repeated id is malformed."""
    first_line: dict[str, int] = {}

    def parse(lineno: int, f: list[str]) -> tuple[str, str]:
        key = _ident(f[0], what)
        if key in first_line:
            raise _Bad("duplicate_id", f"duplicate {what} {key!r} (first on line {first_line[key]})")
        text = _text(f[1])
        first_line[key] = lineno
        return key, text

    return dict(_records(path, 2, skip_bad, stats, parse))


def _relevance(value: str, lineno: int) -> int:
    try:
        rel = int(value)
    except ValueError:
        hint = _HEADER_HINT if lineno == 1 else ""
        raise _Bad("bad_relevance", f"relevance {value!r} is not an integer{hint}") from None
    if rel < 0:
        raise _Bad("bad_relevance", f"relevance {rel} is negative (use 0 for 'not relevant')")
    return rel


def read_ir(
    folder: PathLike,
    skip_bad: bool = False,
    stats: ReadStats | None = None,
    corpus: Mapping[str, str] | None = None,
) -> IRData:
    """Read an IR folder: ``corpus.tsv``, ``queries.tsv`` and ``qrels.tsv`` (each may be ``.gz``).

    Doc and query ids must be unique in their file; every qrels line must name a known query and doc and
    judge a (query, doc) pair once. Cross-lingual IR: a second folder with only ``queries.tsv`` (another
    language) and ``qrels.tsv``, read with ``corpus=`` the first folder's corpus.

    :param folder: the folder holding the three files (two when ``corpus`` is given).
    :param skip_bad: skip and count malformed lines (in any of the three files) instead of raising.
    :param stats: where skipped lines are counted (by reason) and records read (``pairs``, all files).
    :param corpus: an already-read corpus (doc_id -> text) to judge against; ``corpus.tsv`` is then not
        read (nor needed) and the returned ``corpus`` is a copy of this one.
    :raises BadInputError: on a malformed line, a missing file or a file with no records.
    """
    folder = Path(folder)
    if not folder.is_dir():
        raise BadInputError(
            folder, None, "not a folder (an IR dataset is a folder of corpus/queries/qrels.tsv)"
        )
    if corpus is None:
        corpus = _id_texts(ir_file(folder, "corpus.tsv"), "doc_id", skip_bad, stats)
    else:
        corpus = dict(corpus)
    queries = _id_texts(ir_file(folder, "queries.tsv"), "query_id", skip_bad, stats)
    qrels: dict[str, dict[str, int]] = {}

    def parse(lineno: int, f: list[str]) -> None:
        qid, did = _ident(f[0], "query_id"), _ident(f[1], "doc_id")
        rel = _relevance(f[2], lineno) if len(f) == 3 else 1
        if qid not in queries:
            raise _Bad("unknown_id", f"query_id {qid!r} is not in queries.tsv")
        if did not in corpus:
            raise _Bad("unknown_id", f"doc_id {did!r} is not in the corpus")
        if did in qrels.get(qid, {}):
            raise _Bad("duplicate_judgement", f"query {qid!r} and doc {did!r} are judged twice")
        qrels.setdefault(qid, {})[did] = rel

    for _ in _records(ir_file(folder, "qrels.tsv"), (2, 3), skip_bad, stats, parse):
        pass
    return IRData(corpus, queries, qrels)
