"""Parallel pair files: find them (globs, ``{data_dir}``), read them, and pick held-out pairs with one
right answer per query (what retrieval validation and evaluation need).

Shared by every recipe and by evaluation; nothing here knows about models.
"""

from __future__ import annotations

import glob
import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import numpy as np

from lingualite.config.parsing import DATA_DIR_PLACEHOLDER, default_data_dir
from lingualite.core.errors import LinguaLiteError
from lingualite.data.readers import read_tsv

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
            raise LinguaLiteError(f"{pattern}: no {what} file matches (run `lingualite prepare` first?)")
        files.extend(matches)
    return files


def languages_of(path: Path) -> tuple[str, str]:
    """Language codes from a parent folder named like ``en-fr``; otherwise ``src``/``tgt``."""
    for part in reversed(path.parts[:-1]):
        m = _PAIR_DIR.match(part)
        if m:
            return m.group(1), m.group(2)
    return "src", "tgt"


@dataclass
class ParallelCorpus:
    """Training pairs, the index of the file each came from (its group), and the sentences per language."""

    pairs: list[tuple[str, str]]
    groups: np.ndarray
    texts: dict[str, list[str]]


def read_pairs(files: list[Path], limit: int | None = None) -> ParallelCorpus:
    """All pairs of ``files`` (an equal seeded share of each file when ``limit`` caps them)."""
    per_file = [[(p.src, p.tgt) for p in read_tsv(f)] for f in files]
    for f, chunk in zip(files, per_file, strict=True):
        if not chunk:  # an empty training file would otherwise fail much later, deep in the batching
            raise LinguaLiteError(f"{f}: no sentence pairs (empty file?)")
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
    return ParallelCorpus(pairs, groups, {lang: list(dict.fromkeys(t)) for lang, t in texts.items()})


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
    path: str | Path, max_pairs: int | None = None, seed: int = 0
) -> tuple[list[str], list[str]]:
    """Pairs of a ``src<TAB>tgt`` file with unique sources and unique targets, optionally a seeded subsample."""
    pairs = subsample(unique_sides((p.src, p.tgt) for p in read_tsv(path)), max_pairs, seed)
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
