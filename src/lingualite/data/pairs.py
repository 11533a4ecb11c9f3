"""Parallel pair files: find them (globs, ``{data_dir}``), read them, and pick held-out pairs with one
right answer per query (what retrieval validation and evaluation need).

Shared by every recipe and by evaluation; nothing here knows about models.
"""

from __future__ import annotations

import glob
import re
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from lingualite.config.parsing import DATA_DIR_PLACEHOLDER, default_data_dir
from lingualite.core.errors import LinguaLiteError
from lingualite.data.evalsets.everyday import drop_everyday_pairs
from lingualite.data.readers import ParallelPair, ReadStats, read_tsv

_PAIR_DIR = re.compile(r"^([a-z]{2,3})-([a-z]{2,3})$")


def existing_files(pattern: str) -> list[Path]:
    """The files a glob (or a plain path) names, sorted; empty when none exists."""
    matches = sorted(glob.glob(pattern)) if any(c in pattern for c in "*?[") else [pattern]
    return [Path(m) for m in matches if Path(m).is_file()]


def expand_files(patterns: list[str], what: str) -> list[Path]:
    """Expand globs (``{data_dir}`` is the data directory); a pattern that matches nothing is an error naming it."""
    files: list[Path] = []
    for pattern in patterns:
        pattern = pattern.replace(DATA_DIR_PLACEHOLDER, str(default_data_dir()))
        matches = existing_files(pattern)
        if not matches:
            raise LinguaLiteError(
                f"{pattern}: no {what} file matches (the shipped distill configs' data: `lingualite data fetch "
                "--for distill`; one corpus of your own: `lingualite prepare`)"
            )
        files.extend(matches)
    return files


def language_coverage(patterns: list[str], files: list[Path]) -> dict[str, Any]:
    """The languages ``files`` (what ``patterns`` matched) are in, from their pair folders (``en-fr``), and,
    when a pattern globs the pair folders (``{data_dir}/prepared/*/train.tsv``: "whatever is prepared"),
    the default languages (:data:`lingualite.text.languages.CORE`, the 13 of the papers) that have no
    file there, with the
    commands that prepare them (``message``). Files named one by one are the user's choice: none missing."""
    from lingualite.text.languages import CORE

    found = {lang for f in files for lang in languages_of(f)} - {"src", "tgt"}
    languages = sorted(found)
    globbed = [
        pat.replace(DATA_DIR_PLACEHOLDER, str(default_data_dir()))
        for pat in patterns
        if any(c in Path(pat).parent.name for c in "*?[")
    ]
    missing = [code for code in CORE if code not in found] if globbed and languages else []
    message = None
    if missing:
        root = Path(globbed[0]).parent.parent  # .../prepared
        data_dir = root.parent
        first = missing[0] if missing[0] != "en" else (missing[1:] or ["xx"])[0]
        message = (
            f"{len(languages)} of the {len(CORE)} default languages have prepared data in {root} "
            f"({', '.join(languages)}); no prepared data for {', '.join(missing)}: the model will not learn "
            f"them. To prepare them: lingualite data fetch --data-dir {data_dir} --langs {','.join(missing)}, "
            f"then for each language, e.g. {first}: {_prepare_command(data_dir, root, first)}"
        )
    return {"languages": languages, "missing": missing, "message": message}


def _prepare_command(data_dir: Path, root: Path, lang: str) -> str:
    """The ``lingualite prepare`` of one ``en-lang`` pair from the default sources' corpora (those fetched,
    else all of them), with the quickstart's split."""
    from lingualite.data.sources import DEFAULT_SOURCES

    corpora = [data_dir / "corpora" / source / f"en-{lang}.tsv" for source in DEFAULT_SOURCES]
    inputs = [p for p in corpora if p.is_file()] or corpora
    return (
        f"lingualite prepare {' '.join(map(str, inputs))} --src en --tgt {lang} --out {root}/en-{lang} "
        "--max-valid-pairs 2000"
    )


def report_coverage(patterns: list[str], files: list[Path], recipe: str) -> dict[str, Any]:
    """:func:`language_coverage`, its message logged as a warning (the CLI prints it before training); the
    ``languages`` entry of a run's summary (``trained_on``, ``missing``)."""
    import logging

    coverage = language_coverage(patterns, files)
    if coverage["message"]:
        logging.getLogger("lingualite.data").warning("%s: %s", recipe, coverage["message"])
    return {"trained_on": coverage["languages"], "missing": coverage["missing"]}


def languages_of(path: Path) -> tuple[str, str]:
    """Language codes from a parent folder named like ``en-fr``; otherwise ``src``/``tgt``."""
    for part in reversed(path.parts[:-1]):
        m = _PAIR_DIR.match(part)
        if m:
            return m.group(1), m.group(2)
    return "src", "tgt"


@dataclass
class ParallelCorpus:
    """Training pairs, the index of the file each came from (its group), the sentences per language, and how
    many pairs were dropped because a side is one of the held-out everyday sentences."""

    pairs: list[tuple[str, str]]
    groups: np.ndarray
    texts: dict[str, list[str]]
    everyday_dropped: int = 0


def read_pairs(files: list[Path], limit: int | None = None) -> ParallelCorpus:
    """All pairs of ``files`` (an equal seeded share of each file when ``limit`` caps them).

    Every training recipe reads its pairs here, so the held-out everyday sentences
    (:mod:`lingualite.data.evalsets.everyday`, any language, normalised) are dropped here and counted.
    """
    per_file = []
    everyday_dropped = 0
    for f in files:
        chunk, dropped = drop_everyday_pairs((p.src, p.tgt) for p in read_tsv(f))
        if not chunk:  # an empty training file would otherwise fail much later, deep in the batching
            what = f" left after dropping {dropped} of the held-out everyday sentences" if dropped else ""
            raise LinguaLiteError(f"{f}: no sentence pairs{what} (empty file?)")
        per_file.append(chunk)
        everyday_dropped += dropped
    if limit is not None:
        rng = np.random.default_rng(0)
        share = max(1, limit // max(1, len(files)))
        per_file = [[chunk[i] for i in rng.permutation(len(chunk))[:share]] for chunk in per_file]
    pairs = [pair for chunk in per_file for pair in chunk]
    groups = np.concatenate([np.full(len(chunk), i, dtype=np.int32) for i, chunk in enumerate(per_file)])
    texts: dict[str, list[str]] = defaultdict(list)
    for f, chunk in zip(files, per_file, strict=True):
        a, b = languages_of(f)
        texts[a].extend(s for s, _ in chunk)
        texts[b].extend(t for _, t in chunk)
    unique = {lang: list(dict.fromkeys(t)) for lang, t in texts.items()}
    return ParallelCorpus(pairs, groups, unique, everyday_dropped)


def unique_sides(pairs: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """Keep pairs whose source AND target were not seen before (a retrieval query needs one right answer)."""
    seen_src: set[str] = set()
    seen_tgt: set[str] = set()
    kept: list[tuple[str, str]] = []
    for src, tgt in pairs:
        if src not in seen_src and tgt not in seen_tgt:
            seen_src.add(src)
            seen_tgt.add(tgt)
            kept.append((src, tgt))
    return kept


T = TypeVar("T")


def subsample(items: list[T], max_items: int | None, seed: int = 0) -> list[T]:
    """A seeded subsample of at most ``max_items``, in the original order (all of them when ``None``)."""
    if max_items is None or len(items) <= max_items:
        return items
    keep = np.sort(np.random.default_rng(seed).choice(len(items), max_items, replace=False))
    return [items[i] for i in keep]


def load_xsr_pairs(
    path: str | Path,
    max_pairs: int | None = None,
    seed: int = 0,
    skip_bad: bool = False,
    check: Callable[[list[ParallelPair]], list[ParallelPair]] | None = None,
    stats: ReadStats | None = None,
) -> tuple[list[str], list[str]]:
    """Pairs of a ``src<TAB>tgt`` file with unique sources and unique targets, optionally a seeded subsample.

    :param skip_bad: skip malformed lines (:func:`~lingualite.data.readers.read_tsv`) instead of raising.
    :param check: the pairs kept of those read (``eval xsr``: both sides hold a token the model knows).
    :param stats: counts the malformed lines skipped (``skip_bad``)."""
    records = list(read_tsv(path, skip_bad=skip_bad, stats=stats))
    if check is not None:
        records = check(records)
    pairs = subsample(unique_sides((p.src, p.tgt) for p in records), max_pairs, seed)
    return [s for s, _ in pairs], [t for _, t in pairs]


def pair_set_name(path: Path) -> str:
    """How a pair file is named in metrics: its parent folder (``en-fr``), else the file stem."""
    return path.parent.name or path.stem


def load_validation_pairs(
    files: list[Path], per_file: int, seed: int = 0
) -> list[tuple[str, list[str], list[str]]]:
    """``(name, sources, targets)`` per file: a seeded sample of pairs whose sides are unique (XSR needs one
    right answer per query), named by :func:`pair_set_name`."""
    out = []
    for path in files:
        src, tgt = load_xsr_pairs(path, max_pairs=per_file, seed=seed)
        if src:
            out.append((pair_set_name(path), src, tgt))
    return out
