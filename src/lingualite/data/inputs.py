"""Which reader a parallel input needs: a TSV, a TMX file or a Moses pair of files (plain or gzip), by name."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from lingualite.core.errors import LinguaLiteError
from lingualite.data.readers import ParallelPair, PathLike, ReadStats, read_moses, read_tsv
from lingualite.data.tmx import read_tmx

__all__ = ["InputSpec", "describe_spec", "open_parallel"]

InputSpec = PathLike | tuple[PathLike, PathLike]


def _strip_gz(path: Path) -> str:
    name = path.name.lower()
    return name[:-3] if name.endswith(".gz") else name


def _moses_side(prefix: str, lang: str) -> Path:
    for candidate in (Path(f"{prefix}.{lang}"), Path(f"{prefix}.{lang}.gz")):
        if candidate.exists():
            return candidate
    raise LinguaLiteError(f"{prefix}: no file {prefix}.{lang}[.gz] for the Moses pair")


def describe_spec(spec: InputSpec) -> str:
    """A short display name for an input spec (used in stats)."""
    if isinstance(spec, tuple | list):
        return " + ".join(str(p) for p in spec)
    return str(spec)


def open_parallel(
    spec: InputSpec,
    src_lang: str | None = None,
    tgt_lang: str | None = None,
    skip_bad: bool = False,
    stats: ReadStats | None = None,
) -> Iterator[ParallelPair]:
    """Open an input by its file name.

    * ``x.tsv`` / ``x.tsv.gz`` -> :func:`read_tsv`
    * ``x.tmx`` / ``x.tmx.gz`` -> :func:`read_tmx` (needs ``src_lang`` and ``tgt_lang``)
    * ``(a, b)``: two paths -> :func:`read_moses` (source file first)
    * ``prefix`` (any other name) -> Moses pair ``prefix.<src_lang>[.gz]`` and ``prefix.<tgt_lang>[.gz]``
    """
    if isinstance(spec, tuple | list):
        if len(spec) != 2:
            raise LinguaLiteError(f"a Moses input needs exactly two paths, got {len(spec)}")
        return read_moses(spec[0], spec[1], skip_bad=skip_bad, stats=stats)
    path = Path(spec)
    kind = _strip_gz(path)
    if kind.endswith(".tsv"):
        return read_tsv(path, skip_bad=skip_bad, stats=stats)
    if not src_lang or not tgt_lang:
        raise LinguaLiteError(f"{path}: src_lang and tgt_lang are needed to read TMX or Moses input")
    if kind.endswith(".tmx"):
        return read_tmx(path, src_lang, tgt_lang, skip_bad=skip_bad, stats=stats)
    return read_moses(
        _moses_side(str(spec), src_lang), _moses_side(str(spec), tgt_lang), skip_bad=skip_bad, stats=stats
    )
