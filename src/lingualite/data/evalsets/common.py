"""Helpers shared by the evaluation-set extractors: stable hashing and splits, word caps, TSV output
(atomic, one record a line, never a tab or newline inside a field) and per-file counts."""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path

from lingualite.core.io_utils import atomic_path
from lingualite.data.sources.common import clean_text
from lingualite.text.segmentation import length_units, truncate_units

__all__ = ["cap_words", "file_counts", "in_test", "stable_hash", "word_count", "write_tsv"]


def stable_hash(*parts: str) -> int:
    """A 64-bit hash of ``parts`` that is the same on every machine and run (unlike Python's ``hash``)."""
    data = "\x1f".join(parts).encode("utf-8")
    return int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "big")


def in_test(salt: str, key: str) -> bool:
    """Whether ``key`` falls in the test half of a 50/50 split (salted, so each set splits independently)."""
    return stable_hash(salt, key) % 2 == 1


def cap_words(text: str, max_words: int | None, lang: str | None = None) -> str:
    """``text`` with whitespace collapsed, cut to its first ``max_words`` words (``None``: no cap); Chinese
    and Japanese text, which does not space its words, is cut after as many words' worth of characters
    (:func:`~lingualite.text.segmentation.truncate_units`)."""
    if max_words is None:
        return " ".join(text.split())
    return truncate_units(text, max_words, lang)


def word_count(text: str, lang: str | None = None) -> float:
    """Words of ``text`` in language ``lang`` (Chinese and Japanese characters scaled to words)."""
    return length_units(text, lang)


def write_tsv(path: Path, rows: Iterable[Sequence[str]]) -> int:
    """Write ``rows`` as tab-separated lines, atomically; return the number of lines.

    Each field has its whitespace (tabs, newlines included) collapsed to single spaces; a row with an
    empty field is skipped, so every line has exactly ``len(row)`` non-empty fields.
    """
    n = 0
    with atomic_path(path) as tmp, open(tmp, "w", encoding="utf-8", newline="\n") as fh:
        for row in rows:
            fields = [clean_text(str(f)) for f in row]
            if not all(fields):
                continue
            fh.write("\t".join(fields) + "\n")
            n += 1
    return n


def file_counts(path: Path, label_column: int | None = None) -> dict[str, object]:
    """``{"lines": n}`` for a TSV, plus ``"labels"`` (label -> count, sorted by label) when
    ``label_column`` is given (0-based; negative counts from the end)."""
    labels: Counter[str] = Counter()
    n = 0
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            n += 1
            if label_column is not None:
                labels[line.rstrip("\n").split("\t")[label_column]] += 1
    out: dict[str, object] = {"lines": n}
    if label_column is not None:
        out["labels"] = dict(sorted(labels.items()))
    return out
