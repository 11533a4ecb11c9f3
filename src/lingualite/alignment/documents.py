"""Aligning two translated documents given as files: :func:`align` (``lingualite align``) reads them, aligns
their non-blank lines with the method named (``embedding``: Vecalign over a model's vectors; ``gale-church``:
lengths only) and writes the TSV; :func:`make_aligner` is the aligner a method name and a model spec make
(also what ``lingualite eval align`` scores)."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lingualite.alignment.dp import SKIP_PERCENTILE
from lingualite.core.errors import LinguaLiteError

__all__ = ["METHODS", "AlignedDocuments", "align", "make_aligner", "read_document"]

METHODS = ("embedding", "gale-church")


@dataclass
class AlignedDocuments:
    """What :func:`align` wrote: the TSV, the lines of each side, the blocks (by shape, ``"1-2"``: count)."""

    output: Path
    src_lines: int
    tgt_lines: int
    blocks: int
    seconds: float
    shapes: dict[str, int] = field(default_factory=dict)
    skipped: dict[str, list[int]] = field(
        default_factory=dict
    )  # per side: lines not aligned (skip_bad), 1-based


def make_aligner(
    method: str,
    model: str | None,
    max_block: int = 2,
    skip_cost: float | None = None,
    skip_percentile: float = SKIP_PERCENTILE,
    many_to_many: bool = False,
    threads: int | None = None,
    progress: Any = None,
    device: str = "auto",
) -> Any:
    """``aligner(src_lines, tgt_lines) -> Alignment`` for a method name and (embedding) a model spec."""
    if method not in METHODS:
        raise LinguaLiteError(f"--method: {method!r} is not one of {', '.join(METHODS)}")
    if method == "gale-church":
        from lingualite.alignment import GaleChurchConfig, gale_church_align

        gc = GaleChurchConfig(max_block=max_block, many_to_many=many_to_many)
        return lambda src, tgt: gale_church_align(src, tgt, gc)
    if model is None:
        raise LinguaLiteError("--method embedding needs --model (or use --method gale-church)")
    from lingualite.alignment import VecalignConfig, align_texts
    from lingualite.encoders.resolve import load_encoder

    encoder = load_encoder(model, threads=threads, device=device)
    cfg = VecalignConfig(
        max_block=max_block, many_to_many=many_to_many, skip_cost=skip_cost, skip_percentile=skip_percentile
    )
    aligner: Any = lambda src, tgt: align_texts(src, tgt, encoder, cfg, progress)  # noqa: E731
    aligner.encoder = encoder  # for align()'s test of the lines (known_tokens)
    return aligner


def read_document(path: Path) -> tuple[list[str], list[int]]:
    """The non-blank lines of ``path`` and their 0-based indices in it (blank lines are not aligned; the output
    numbers lines from 1)."""
    from lingualite.data.lines import read_lines

    if not path.exists():
        raise LinguaLiteError(f"{path}: does not exist")
    lines = read_lines(path)
    ids = [n for n, line in enumerate(lines) if line.strip()]
    if not ids:
        raise LinguaLiteError(f"{path}: has no non-blank lines to align")
    return [lines[n].strip() for n in ids], ids


def align(
    src: str | Path,
    tgt: str | Path,
    output: str | Path,
    *,
    model: str | None = None,
    method: str = "embedding",
    max_block: int = 2,
    skip_cost: float | None = None,
    skip_percentile: float = SKIP_PERCENTILE,
    many_to_many: bool = False,
    threads: int | None = None,
    device: str = "auto",
    progress: Callable[[str], None] | None = None,
    skip_bad: bool = False,
) -> AlignedDocuments:
    """``lingualite align``: align the non-blank lines of ``src`` and its translation ``tgt`` in order (1-1,
    1-2, 2-1, skips; 2-2 with ``many_to_many``) and write ``output`` (``src_ids<TAB>tgt_ids<TAB>score<TAB>src
    <TAB>tgt``, 1-based line numbers, atomically). ``progress``: where progress lines go, for long documents or
    on a terminal. A line with no token the model knows (:mod:`lingualite.encoders.known_tokens`) is refused
    naming ``FILE:LINE``; ``skip_bad``: it is not aligned, as a blank line, and listed in ``skipped``."""
    from lingualite.alignment.result import write_tsv
    from lingualite.core.io_utils import check_not_input
    from lingualite.core.ownership import check_output_suffix

    start = time.perf_counter()
    src, tgt, output = Path(src), Path(tgt), Path(output)
    check_not_input(output, [src, tgt])
    check_output_suffix(output, (".tsv", ".txt", ""), "align")  # any name, but not another format's
    if output.is_dir():
        raise LinguaLiteError(f"{output}: is a directory; --output names the .tsv file to write")
    src_lines, src_ids = read_document(src)
    tgt_lines, tgt_ids = read_document(tgt)
    long = len(src_lines) * len(tgt_lines) > 250_000
    say = progress if long or sys.stderr.isatty() else None
    aligner = make_aligner(
        method, model, max_block, skip_cost, skip_percentile, many_to_many, threads, say, device
    )
    skipped: dict[str, list[int]] = {}
    encoder = getattr(aligner, "encoder", None)
    if encoder is not None:
        src_lines, src_ids, skipped["src"] = _known(encoder, src, src_lines, src_ids, skip_bad)
        tgt_lines, tgt_ids, skipped["tgt"] = _known(encoder, tgt, tgt_lines, tgt_ids, skip_bad)
    alignment = aligner(src_lines, tgt_lines)
    write_tsv(output, alignment, src_lines, tgt_lines, src_ids, tgt_ids, inputs=[src, tgt])
    shapes: dict[str, int] = {}
    for s, t, _ in alignment:
        shapes[f"{len(s)}-{len(t)}"] = shapes.get(f"{len(s)}-{len(t)}", 0) + 1
    seconds = time.perf_counter() - start
    return AlignedDocuments(
        output, len(src_lines), len(tgt_lines), len(alignment), seconds, dict(sorted(shapes.items())), skipped
    )


def _known(
    encoder: Any, path: Path, lines: list[str], ids: list[int], skip_bad: bool
) -> tuple[list[str], list[int], list[int]]:
    """The lines (and their 0-based ids) that hold a token the model knows, and the 1-based numbers of the
    others (refused without ``skip_bad``)."""
    from lingualite.encoders.known_tokens import known_lines

    keep = known_lines(encoder, path, [n + 1 for n in ids], lines, skip_bad)
    if keep.all():
        return lines, ids, []
    if not keep.any():
        raise LinguaLiteError(f"{path}: no line holds a token the model knows; nothing to align")
    kept = [i for i, ok in enumerate(keep) if ok]
    return (
        [lines[i] for i in kept],
        [ids[i] for i in kept],
        [ids[i] + 1 for i, ok in enumerate(keep) if not ok],
    )
