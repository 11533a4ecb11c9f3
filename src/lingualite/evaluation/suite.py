"""Every task from its files: the glue shared by ``lingualite eval <task>`` and ``lingualite eval all``.

Each ``*_from_files`` function reads the documented user formats (XSR ``src<TAB>tgt``; classification one
``label<TAB>text`` file per language; pairs ``s1<TAB>s2<TAB>label``; STS ``s1<TAB>s2<TAB>score``; IR a folder
of ``corpus.tsv``/``queries.tsv``/``qrels.tsv``), runs the task and returns its metrics: the means over the
test files at the top level (``p_at_1``, ``accuracy``, ``spearman``, ``mrr_at_10``, ...) and each file's own
metrics under ``per_test``, keyed by the file's language (``test.fr.tsv`` -> ``fr``) or name.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from lingualite.data.eval_files import (
    CLASSIFY_DIRECTIONS,
    XSR_DIRECTIONS,
    check_directions,
    classification_runs,
    distractor_column,
    distractor_files,
    expand_direction,
)
from lingualite.data.pairs import load_xsr_pairs
from lingualite.data.readers import ReadStats
from lingualite.encoders.base import Encoder
from lingualite.encoders.known_tokens import known_pairs
from lingualite.evaluation.classification import evaluate_classification
from lingualite.evaluation.datasets import read_classification, read_ir, read_pair_classification, read_sts
from lingualite.evaluation.ir import evaluate_ir
from lingualite.evaluation.pair_classification import evaluate_pair_classification
from lingualite.evaluation.sts import evaluate_sts
from lingualite.evaluation.xsr import evaluate_xsr, load_distractors

__all__ = [
    "classification_direction",
    "classification_from_files",
    "classification_from_set",
    "ir_from_files",
    "pairs_from_files",
    "skipped_count",
    "sts_from_files",
    "test_name",
    "xsr_from_files",
]

_LANG_FILE = re.compile(r"^(?:test|train|valid|dev)?[._-]?([a-z]{2,3}(?:-[a-z]{2,3})?)\.tsv(?:\.gz)?$")


def test_name(path: str | Path) -> str:
    """A short name for a test file: its language (``test.fr.tsv`` -> ``fr``, ``en-de/test.tsv`` -> ``en-de``),
    else the file name without ``.tsv``."""
    path = Path(path)
    match = _LANG_FILE.match(path.name)
    if match:
        return match.group(1)
    if path.name in ("test.tsv", "valid.tsv", "test.tsv.gz") and path.parent.name:
        return path.parent.name
    return path.name.removesuffix(".gz").removesuffix(".tsv")


def _unique_names(paths: Sequence[str | Path]) -> dict[str, Path]:
    names: dict[str, Path] = {}
    for path in paths:
        name = test_name(path)
        if name in names:
            name = str(path)
        names[name] = Path(path)
    return names


def _means(per_test: dict[str, dict[str, Any]], keys: Sequence[str] | None = None) -> dict[str, float]:
    """Unweighted mean of each float metric over the test files (each language counts once)."""
    first = next(iter(per_test.values()))
    keys = keys or [k for k, v in first.items() if isinstance(v, float)]
    return {k: float(np.mean([r[k] for r in per_test.values()])) for k in keys}


def xsr_from_files(
    encoder: Encoder,
    files: Sequence[str | Path],
    method: str = "nn",
    max_pairs: int | None = None,
    seed: int = 0,
    queries: int | None = None,
    pool: int | None = None,
    distractors: str | Path | Sequence[str | Path] | None = None,
    k: int | None = None,
    directions: Sequence[str] = ("src2tgt",),
    skip_bad: bool = False,
) -> dict[str, Any]:
    """XSR on each ``src<TAB>tgt`` file (see :func:`~lingualite.evaluation.xsr.evaluate_xsr`). A pair with a
    side that has no token the model knows (:mod:`lingualite.encoders.known_tokens`) is refused naming
    ``FILE:LINE``; ``skip_bad`` skips it (and malformed lines), counted per file as ``skipped`` and in all as
    the top-level ``skipped``.

    Pooled protocol (``queries``, ``pool`` or ``distractors`` given; paper 000's Table 4): each of
    ``directions`` (``src2tgt``, ``tgt2src``) on its own pool; ``distractors`` are files, each a path that may
    hold ``{pair}`` and ``{lang}`` (see :func:`lingualite.data.eval_files.distractor_files`); a pair file
    gives the side in the pool's language. ``p_at_k`` is the mean of the directions, ``<direction>_p_at_k``
    each one's; ``pool_size`` is the first direction's, ``<direction>_pool_size`` each one's.
    """
    templates = [distractors] if isinstance(distractors, str | Path) else list(distractors or [])
    pooled = queries is not None or pool is not None or bool(templates)
    directions = check_directions(directions, XSR_DIRECTIONS)
    if not pooled and directions != ["src2tgt"]:
        raise ValueError(
            "directions apply to the pooled protocol (give queries, pool or distractors); the square "
            "protocol always scores both"
        )
    loaded: dict[tuple[Path, int], list[str]] = {}
    per_test = {}
    for name, path in _unique_names(files).items():
        skipped: list[int] = []
        check = known_pairs(encoder, path, skip_bad, skipped)
        malformed = ReadStats()
        src, tgt = load_xsr_pairs(
            path, max_pairs=max_pairs, seed=seed, skip_bad=skip_bad, check=check, stats=malformed
        )
        bad = len(skipped) + sum(malformed.bad.values())  # no known token, or not a pair at all
        if not pooled:
            per_test[name] = evaluate_xsr(encoder, src, tgt, method, seed=seed, k=k)  # type: ignore[arg-type]
            per_test[name].update({"skipped": bad} if skip_bad else {})
            continue
        rows = {}
        for direction in directions:
            extra = _distractors(templates, path, direction, loaded)
            ask, answer = (src, tgt) if direction == "src2tgt" else (tgt, src)
            rows[direction] = evaluate_xsr(
                encoder,
                ask,
                answer,
                method,  # type: ignore[arg-type]
                queries=queries,
                pool=pool,
                distractors=extra,
                seed=seed,
                k=k,
            )
        per_test[name] = {**_merge_directions(rows), **({"skipped": bad} if skip_bad else {})}
    total = {"skipped": sum(row["skipped"] for row in per_test.values())} if skip_bad else {}
    return {**_means(per_test), "method": method, **total, "per_test": per_test}


def skipped_count(result: dict[str, Any]) -> int:
    """What one task's result (a ``*_from_files`` function's) left out as bad input: XSR's pairs with a side
    the model knows no token of (``skipped``, under ``skip_bad``) and malformed lines (``skipped_lines``)."""
    return int(result.get("skipped", 0)) + int(result.get("skipped_lines", 0))


def _distractors(
    templates: list[str | Path], path: Path, direction: str, loaded: dict[tuple[Path, int], list[str]]
) -> list[str]:
    """The distractor sentences of ``path``'s pool in ``direction`` (each file read once per side)."""
    column = distractor_column(direction)
    out: list[str] = []
    for file in distractor_files(templates, path, direction):
        if (file, column) not in loaded:
            loaded[file, column] = load_distractors(file, column)
        out.extend(loaded[file, column])
    return out


def _merge_directions(rows: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """One row from each direction's pooled result: P@k per direction and their mean, the pool sizes."""
    first = next(iter(rows.values()))
    out = {key: first[key] for key in ("num_queries", "pool_size", "num_distractors", "method", "k", "seed")}
    precision = [key for key in first if key.startswith("p_at_")]
    for key in precision:
        out[key] = float(np.mean([row[key] for row in rows.values()]))
    for direction, row in rows.items():
        out.update({f"{direction}_{key}": row[key] for key in precision})
        out[f"{direction}_pool_size"] = row["pool_size"]
    return out


def _subsample(n: int, cap: int | None, seed: int) -> list[int]:
    """Indices of a seeded subsample of ``cap`` out of ``n`` items (all of them when ``cap`` is None or >= n)."""
    if cap is None or n <= cap:
        return list(range(n))
    return sorted(np.random.default_rng(seed).choice(n, cap, replace=False).tolist())


def _truncate(texts: list[str], max_words: int | None) -> list[str]:
    """Each text cut to ``max_words`` words; unspaced Chinese/Japanese text by words' worth of characters."""
    if max_words is None:
        return texts
    from lingualite.text.segmentation import truncate_units

    return [truncate_units(t, max_words) for t in texts]


def classification_from_files(
    encoder: Encoder,
    train: str | Path,
    tests: Sequence[str | Path],
    classifier: str = "logreg",
    seeds: int = 5,
    max_words: int | None = None,
    skip_bad: bool = False,
    max_docs: int | None = None,
    seed: int = 0,
) -> dict[str, Any]:
    """Zero-shot cross-lingual document classification: fit on ``train``, score every test file.

    :param max_words: cut every document to its first N words (the same for every encoder) before encoding.
    :param max_docs: seeded subsample of at most N documents per file (training file included).
    """
    stats = ReadStats()

    def load(path: str | Path) -> tuple[list[str], list[str]]:
        data = read_classification(path, skip_bad, stats)
        keep = _subsample(len(data.texts), max_docs, seed)
        return _truncate([data.texts[i] for i in keep], max_words), [data.labels[i] for i in keep]

    test_sets = {name: load(path) for name, path in _unique_names(tests).items()}
    result = evaluate_classification(
        encoder,
        load(train),
        test_sets,
        classifier,
        seeds,  # type: ignore[arg-type]
    )
    return {**result, "skipped_lines": sum(stats.bad.values())}


def classification_direction(
    encoder: Encoder,
    folder: str | Path,
    direction: str = "en2xx",
    languages: Sequence[str] | None = None,
    classifier: str = "logreg",
    seeds: int = 5,
    max_words: int | None = None,
    max_docs: int | None = None,
    seed: int = 0,
    skip_bad: bool = False,
) -> dict[str, Any]:
    """Zero-shot classification on a set folder in one direction of paper 000's Table 3 (MLDoc → / ←).

    ``en2xx``: :func:`classification_from_files` with ``train.en.tsv`` and the test files. ``xx2en``: one
    classifier per other language, fit on ``train.<xx>.tsv`` and scored on ``test.en.tsv`` (encoded once);
    ``per_test`` is keyed by the training language, ``accuracy`` / ``macro_f1`` are the means over them.
    Files: :func:`lingualite.data.eval_files.classification_runs`.
    """
    options = {"max_words": max_words, "skip_bad": skip_bad, "max_docs": max_docs, "seed": seed}
    runs = classification_runs(folder, direction, languages)
    if direction == "en2xx":
        ((_, train, tests),) = runs
        result = classification_from_files(encoder, train, tests, classifier, seeds, **options)
        return {**result, "direction": direction}
    once = encoder if callable(getattr(encoder, "fit", None)) else _EncodesCorpusOnce(encoder)
    per_test: dict[str, dict[str, Any]] = {}
    skipped = 0
    for lang, train, (test,) in runs:
        result = classification_from_files(
            once,  # type: ignore[arg-type]
            train,
            [test],
            classifier,
            seeds,
            **options,  # type: ignore[arg-type]
        )
        per_test[lang] = {**next(iter(result["per_test"].values())), "num_train": result["num_train"]}
        skipped += result["skipped_lines"]
    return {
        **_means(per_test, ["accuracy", "macro_f1"]),
        "direction": direction,
        "classifier": classifier,
        "seeds": seeds,
        "per_test": per_test,
        "skipped_lines": skipped,
    }


def classification_from_set(
    encoder: Encoder,
    folder: str | Path,
    direction: str = "en2xx",
    classifier: str = "logreg",
    seeds: int = 5,
    max_words: int | None = None,
    max_docs: int | None = None,
    skip_bad: bool = False,
) -> dict[str, Any]:
    """``eval classify --set``: :func:`classification_direction` for ``en2xx`` or ``xx2en``; ``both`` gives
    each direction's means (``en2xx_accuracy``, ...) and its per-language rows (``en2xx``, ``xx2en``)."""
    directions = expand_direction(direction, CLASSIFY_DIRECTIONS)
    options = {"max_words": max_words, "max_docs": max_docs, "skip_bad": skip_bad}
    results = {
        d: classification_direction(encoder, folder, d, None, classifier, seeds, **options)
        for d in directions
    }
    if len(results) == 1:
        return results[direction]
    out: dict[str, Any] = {"direction": "both", "classifier": classifier, "seeds": seeds}
    for d, result in results.items():
        out.update({f"{d}_accuracy": result["accuracy"], f"{d}_macro_f1": result["macro_f1"]})
    return {**out, **{d: result["per_test"] for d, result in results.items()}}


def pairs_from_files(
    encoder: Encoder,
    train: str | Path,
    tests: Sequence[str | Path],
    seeds: int = 5,
    max_train: int | None = None,
    skip_bad: bool = False,
    max_test: int | None = None,
    seed: int = 0,
) -> dict[str, Any]:
    """Pair classification (paper 001's XNLI protocol): fit on ``train``'s pairs, score every test file.

    :param max_train: seeded subsample of at most N training pairs; ``max_test`` the same per test file.
    """
    stats = ReadStats()

    def load(path: str | Path, cap: int | None) -> tuple[list[str], list[str], list[str]]:
        s1, s2, labels = read_pair_classification(path, skip_bad, stats)
        keep = _subsample(len(labels), cap, seed)
        return [s1[i] for i in keep], [s2[i] for i in keep], [labels[i] for i in keep]

    test_sets = {name: load(p, max_test) for name, p in _unique_names(tests).items()}
    result = evaluate_pair_classification(encoder, load(train, max_train), test_sets, seeds)
    return {**result, "skipped_lines": sum(stats.bad.values())}


def sts_from_files(encoder: Encoder, files: Sequence[str | Path], skip_bad: bool = False) -> dict[str, Any]:
    """Spearman/Pearson of cosine vs gold scores on each ``s1<TAB>s2<TAB>score`` file."""
    stats = ReadStats()
    per_test = {}
    for name, path in _unique_names(files).items():
        data = read_sts(path, skip_bad, stats)
        per_test[name] = evaluate_sts(encoder, data.sentences1, data.sentences2, data.scores)
    return {**_means(per_test), "per_test": per_test, "skipped_lines": sum(stats.bad.values())}


def ir_from_files(
    encoder: Encoder,
    data: str | Path,
    queries: Sequence[str | Path] = (),
    max_queries: int | None = None,
    max_words: int | None = None,
    seed: int = 0,
    skip_bad: bool = False,
) -> dict[str, Any]:
    """Ranking metrics of ``data``'s queries against its corpus, and of each extra query folder's queries
    (``queries.tsv`` + ``qrels.tsv``, e.g. another language: cross-lingual IR) against the same corpus.

    :param max_queries: seeded subsample of each folder's judged queries.
    :param max_words: cut every corpus document to its first N words before encoding.
    """
    stats = ReadStats()
    base = read_ir(data, skip_bad, stats)
    corpus = dict(zip(base.corpus, _truncate(list(base.corpus.values()), max_words), strict=True))
    folders = {test_name(Path(data)): (base.queries, base.qrels)}
    for folder in queries:
        other = read_ir(folder, skip_bad, stats, corpus=base.corpus)
        folders[Path(folder).name] = (other.queries, other.qrels)
    per_test = {}
    once = encoder if callable(getattr(encoder, "fit", None)) else _EncodesCorpusOnce(encoder)
    for name, (qs, qrels) in folders.items():
        judged = [q for q in qs if q in qrels]
        judged = [judged[i] for i in _subsample(len(judged), max_queries, seed)]
        per_test[name] = evaluate_ir(once, corpus, {q: qs[q] for q in judged}, {q: qrels[q] for q in judged})
    return {**_means(per_test), "per_test": per_test, "skipped_lines": sum(stats.bad.values())}


class _EncodesCorpusOnce:
    """An encoder that remembers the vectors of every text list it encoded, so the query folders of one IR run
    encode their shared corpus once (e5-small spent 28 min encoding the 2,560 LibreOffice pages five times).
    Not for encoders fitted per call (TF-IDF fits on queries and corpus together)."""

    def __init__(self, encoder: Encoder) -> None:
        self._encoder = encoder
        self._seen: dict[tuple[str, ...], Any] = {}

    def __getattr__(self, name: str) -> Any:
        return getattr(self._encoder, name)

    def encode(self, texts: list[str]) -> Any:
        key = tuple(texts)
        if key not in self._seen:
            self._seen[key] = self._encoder.encode(texts)
        return self._seen[key]
