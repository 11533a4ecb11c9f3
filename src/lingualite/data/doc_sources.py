"""Pairs by their source: the prefix of the doc id (``bible:Gen:6`` -> ``bible``; ``lo:...``, ``ddtp:...``).

The prepared pairs (``en<TAB>xx<TAB>doc_id``) mix several corpora; these helpers count them, pick one
source's pairs for a per-source evaluation, and write a training file without some sources (a
leave-one-source-out run, ``benchmarks/leave_one_source_out.py``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection
from pathlib import Path

from lingualite.core.io_utils import atomic_file
from lingualite.data.pairs import unique_sides
from lingualite.data.readers import read_tsv

NO_SOURCE = "other"
"""The source of a pair without a doc id (or with one that has no ``:``-prefix)."""


def source_of(doc_id: str | None) -> str:
    """The source of a doc id: the part before the first ``:`` (``NO_SOURCE`` for a pair without one)."""
    if not doc_id or ":" not in doc_id:
        return NO_SOURCE
    return doc_id.split(":", 1)[0]


def count_sources(path: str | Path) -> dict[str, int]:
    """Pairs per source in a ``src<TAB>tgt[<TAB>doc_id]`` file, sorted by source."""
    counts = Counter(source_of(p.doc_id) for p in read_tsv(path))
    return dict(sorted(counts.items()))


def pairs_of_source(path: str | Path, source: str) -> list[tuple[str, str]]:
    """The pairs of ``source`` in a pair file, each side unique (a retrieval query needs one right answer),
    in file order: the pool of a per-source XSR evaluation."""
    return unique_sides((p.src, p.tgt) for p in read_tsv(path) if source_of(p.doc_id) == source)


def write_without_sources(src: str | Path, dst: str | Path, exclude: Collection[str]) -> dict[str, int]:
    """Copy the pairs of ``src`` whose source is not in ``exclude`` to ``dst`` (written atomically; ``dst``
    must not be ``src``). Returns the pairs written per source; a pair without a doc id keeps none."""
    kept: Counter[str] = Counter()
    with atomic_file(dst, inputs=[src]) as tmp, open(tmp, "w", encoding="utf-8") as out:
        for pair in read_tsv(src):
            source = source_of(pair.doc_id)
            if source in exclude:
                continue
            kept[source] += 1
            doc = f"\t{pair.doc_id}" if pair.doc_id else ""
            out.write(f"{pair.src}\t{pair.tgt}{doc}\n")
    return dict(sorted(kept.items()))
