"""What every aligner returns: blocks of source and target line numbers, in document order, and the TSV
that ``lingualite align`` writes."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

from lingualite.core.errors import LinguaLiteError

__all__ = ["AlignedBlock", "Alignment", "allowed_moves", "blocks_from_moves", "format_tsv", "write_tsv"]

# (source line numbers, target line numbers, score); one side is empty for a skip (1-0 / 0-1)
AlignedBlock = tuple[tuple[int, ...], tuple[int, ...], float]
Alignment = list[AlignedBlock]


def allowed_moves(max_block: int = 2, many_to_many: bool = False) -> list[tuple[int, int]]:
    """The block shapes ``(k, l)`` an aligner may use, 1-1 first, then one-to-many up to ``max_block``
    lines (1-2, 2-1, ...), many-to-many (2-2, ...) when asked, and the source skip 1-0 (the target skip 0-1
    is always allowed as well)."""
    if max_block < 1:
        raise LinguaLiteError(f"max_block: must be >= 1 (got {max_block})")
    moves = [(1, 1)]
    for size in range(2, max_block + 1):
        moves += [(1, size), (size, 1)]
    if many_to_many:
        moves += [(k, kt) for k in range(2, max_block + 1) for kt in range(2, max_block + 1)]
    return [*moves, (1, 0)]


def blocks_from_moves(moves: Sequence[tuple[int, int]]) -> Iterator[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Line numbers of each block of a path of moves ``(k, l)`` that starts at (0, 0)."""
    i = j = 0
    for k, kt in moves:
        yield tuple(range(i, i + k)), tuple(range(j, j + kt))
        i, j = i + k, j + kt


def _clean(text: str) -> str:
    return text.replace("\t", " ").replace("\n", " ").replace("\r", " ")


def format_tsv(
    alignment: Alignment,
    src_lines: Sequence[str],
    tgt_lines: Sequence[str],
    src_ids: Sequence[int] | None = None,
    tgt_ids: Sequence[int] | None = None,
) -> Iterator[str]:
    """``src_ids<TAB>tgt_ids<TAB>score<TAB>src text<TAB>tgt text`` lines: line numbers comma-joined and
    1-based, as in ``mine``'s and ``search``'s output and ``sed -n Np`` (empty for a skip).
    ``src_ids``/``tgt_ids`` map the aligner's 0-based indices to the file's 0-based line indices (when blank
    lines were left out); the texts of a block are joined with a space."""
    for src, tgt, score in alignment:
        s_ids = [(src_ids[i] if src_ids is not None else i) + 1 for i in src]
        t_ids = [(tgt_ids[j] if tgt_ids is not None else j) + 1 for j in tgt]
        yield "\t".join(
            [
                ",".join(map(str, s_ids)),
                ",".join(map(str, t_ids)),
                f"{score:.4f}",
                _clean(" ".join(src_lines[i] for i in src)),
                _clean(" ".join(tgt_lines[j] for j in tgt)),
            ]
        )


def write_tsv(
    path: str | Path,
    alignment: Alignment,
    src_lines: Sequence[str],
    tgt_lines: Sequence[str],
    src_ids: Sequence[int] | None = None,
    tgt_ids: Sequence[int] | None = None,
    inputs: Sequence[str | Path] = (),
) -> None:
    """Write :func:`format_tsv` to ``path`` atomically (never onto one of ``inputs`` or a directory)."""
    from lingualite.core.io_utils import atomic_file

    with atomic_file(path, inputs) as tmp, tmp.open("w", encoding="utf-8") as fh:
        for line in format_tsv(alignment, src_lines, tgt_lines, src_ids, tgt_ids):
            fh.write(line + "\n")
