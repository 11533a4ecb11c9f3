"""Streaming readers of parallel text (TSV, Moses file pairs; TMX in :mod:`lingualite.data.tmx`), plain or
gzip-compressed, and the strict line decoding they share.

Every reader is a generator: nothing holds more than one line (TMX: one ``<tu>``) in memory. Input is
decoded as strict UTF-8 line by line, so a bad byte is reported with its line and column. Malformed
input raises :class:`~lingualite.core.errors.BadInputError` (``file:line: reason``), or, with
``skip_bad=True``, is skipped and counted by reason in a :class:`ReadStats`.
"""

from __future__ import annotations

import contextlib
import gzip
import itertools
import zlib
from collections import Counter
from collections.abc import Collection, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from lingualite.core.errors import BadInputError
from lingualite.text.sanitation import TextProblem, decode_utf8

__all__ = ["ParallelPair", "ReadStats", "read_moses", "read_tsv", "read_tsv_fields"]

PathLike = str | Path
BOM = b"\xef\xbb\xbf"


@dataclass(frozen=True, slots=True)
class ParallelPair:
    """One aligned sentence pair and where it came from (``line`` is 1-based; TMX: line of ``<tu>``)."""

    src: str
    tgt: str
    doc_id: str | None
    source: str
    line: int


@dataclass
class ReadStats:
    """Counts kept by the readers: pairs yielded and malformed records skipped (by reason key)."""

    pairs: int = 0
    bad: Counter[str] = field(default_factory=Counter)

    def to_dict(self) -> dict[str, Any]:
        return {
            "pairs": self.pairs,
            "bad": dict(sorted(self.bad.items())),
            "bad_total": sum(self.bad.values()),
        }


class MalformedLine(Exception):
    """Internal: a malformed record; ``key`` is the stats counter, ``reason`` the message."""

    def __init__(self, key: str, reason: str) -> None:
        super().__init__(reason)
        self.key = key
        self.reason = reason


def _open_binary(path: Path) -> BinaryIO:
    """Open ``path`` for binary reading, through gzip when its name ends in ``.gz``."""
    if path.suffix.lower() == ".gz":
        return gzip.open(path, "rb")  # type: ignore[return-value]
    return open(path, "rb")


def decode_line(raw: bytes, lineno: int) -> str:
    """Strip the line ending (``\\n`` or ``\\r\\n``) and a line-1 BOM, then decode strict UTF-8 without NUL
    (:func:`lingualite.text.sanitation.decode_utf8`)."""
    if raw.endswith(b"\n"):
        raw = raw[:-1]
    if raw.endswith(b"\r"):
        raw = raw[:-1]
    if lineno == 1 and raw.startswith(BOM):
        raw = raw[len(BOM) :]
    if lineno == 1 and raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise MalformedLine("invalid_utf8", "UTF-16 text (a byte-order mark); convert the file to UTF-8")
    try:
        return decode_utf8(raw)
    except TextProblem as problem:  # the rule of lingualite.text.sanitation (invalid UTF-8, NUL)
        raise MalformedLine(problem.key, problem.reason) from None


def _split_cr(raw: bytes) -> Iterator[bytes]:
    """A line as read up to ``\n``, split again at CR-only line breaks (old Mac files): LF, CRLF and CR
    all end a line, so line numbers match what an editor shows."""
    body = raw[:-1] if raw.endswith(b"\n") else raw
    if body.endswith(b"\r"):
        body = body[:-1]
    if b"\r" not in body:
        yield raw
        return
    for part in body.split(b"\r"):
        yield part + b"\n"


def _how_to_make(path: Path) -> str:
    """For a missing ``DATA/prepared/en-xx/<split>.tsv``: the commands that make it (else nothing)."""
    folder = path.parent
    src, _, tgt = folder.name.partition("-")
    if folder.parent.name != "prepared" or not (src == "en" and tgt.isalpha()):
        return ""
    data = folder.parent.parent
    corpora = " ".join(f"{data / 'corpora' / s / folder.name}.tsv" for s in ("libreoffice", "bible", "ddtp"))
    where = "" if data == Path("data") else f" --data-dir {data}"
    return (
        f"; make it with `lingualite data fetch --langs {tgt}{where}` then `lingualite prepare {corpora} "
        f"--src en --tgt {tgt} --output {folder}` (or `lingualite quickstart --langs {tgt}{where}`, which does both)"
    )


def raw_lines(path: Path) -> Iterator[bytes]:
    """Yield raw lines; a missing file or corrupt gzip stream is a fatal :class:`BadInputError`."""
    done = 0
    try:
        with _open_binary(path) as fh:
            for raw in fh:
                for line in _split_cr(raw):
                    yield line
                    done += 1
    except FileNotFoundError:
        raise BadInputError(path, None, "file not found" + _how_to_make(path)) from None
    except (gzip.BadGzipFile, EOFError, zlib.error) as err:
        raise BadInputError(path, done + 1, f"corrupt gzip data ({err})") from None
    except OSError as err:
        raise BadInputError(path, done + 1, f"cannot read file ({err.strerror or err})") from None


def _lines(path: Path) -> Iterator[tuple[int, str | MalformedLine]]:
    """Yield ``(line number, text)``, or ``(line number, MalformedLine)`` for an undecodable line."""
    for lineno, raw in enumerate(raw_lines(path), 1):
        try:
            yield lineno, decode_line(raw, lineno)
        except MalformedLine as bad:
            yield lineno, bad


def reject_line(
    path: Path, lineno: int | None, bad: MalformedLine, skip_bad: bool, stats: ReadStats | None
) -> None:
    """Raise for ``bad`` unless ``skip_bad``, in which case count it."""
    if not skip_bad:
        raise BadInputError(path, lineno, bad.reason)
    if stats is not None:
        stats.bad[bad.key] += 1


def _text_lines(path: Path, skip_bad: bool, stats: ReadStats | None) -> Iterator[tuple[int, str]]:
    """Yield ``(line number, text)`` of non-blank lines; an undecodable line is rejected (raised or counted)."""
    for lineno, text in _lines(path):
        if isinstance(text, MalformedLine):
            reject_line(path, lineno, text, skip_bad, stats)
        elif text:
            yield lineno, text


def _parse_tsv_line(text: str) -> tuple[str, str, str | None]:
    fields = text.split("\t")
    if len(fields) == 1:
        raise MalformedLine("no_tab", "no tab separating source and target")
    if len(fields) > 3:
        raise MalformedLine("too_many_fields", f"{len(fields)} tab-separated fields (expected 2 or 3)")
    doc_id = fields[2] if len(fields) == 3 and fields[2] else None
    return fields[0], fields[1], doc_id


def read_tsv(
    path: PathLike, skip_bad: bool = False, stats: ReadStats | None = None, empty_sides: bool = False
) -> Iterator[ParallelPair]:
    """Read ``src<TAB>tgt[<TAB>doc_id]`` lines (an empty doc_id means none). Blank lines are ignored. A pair
    with an empty (or blank) side is malformed (key ``empty_side``): it has nothing to encode on that side;
    ``empty_sides``: yield it anyway (the cleaner of ``prepare`` drops and counts it as ``empty``)."""
    path = Path(path)
    name = str(path)
    for lineno, text in _text_lines(path, skip_bad, stats):
        try:
            src, tgt, doc_id = _parse_tsv_line(text)
            if not empty_sides and not (src.strip() and tgt.strip()):
                side = "source" if not src.strip() else "target"
                raise MalformedLine("empty_side", f"empty {side}: a pair needs text on both sides")
        except MalformedLine as bad:
            reject_line(path, lineno, bad, skip_bad, stats)
            continue
        if stats is not None:
            stats.pairs += 1
        yield ParallelPair(src, tgt, doc_id, name, lineno)


def read_tsv_fields(
    path: PathLike,
    num_fields: int | Collection[int],
    skip_bad: bool = False,
    stats: ReadStats | None = None,
) -> Iterator[tuple[int, list[str]]]:
    """Yield ``(line number, fields)`` of each non-blank line of a tab-separated file, decoded like
    :func:`read_tsv` (strict UTF-8, optional ``.gz``, a line-1 BOM dropped). A line whose number of fields
    is not in ``num_fields`` is malformed (stats key ``field_count``), as is undecodable text. Blank lines
    are ignored. ``stats.pairs`` is left to the caller, which may reject the fields on other grounds."""
    path = Path(path)
    allowed = {num_fields} if isinstance(num_fields, int) else set(num_fields)
    expected = " or ".join(str(n) for n in sorted(allowed))
    for lineno, text in _text_lines(path, skip_bad, stats):
        fields = text.split("\t")
        if len(fields) not in allowed:
            reason = f"{len(fields)} tab-separated fields (expected {expected})"
            reject_line(path, lineno, MalformedLine("field_count", reason), skip_bad, stats)
            continue
        yield lineno, fields


def read_moses(
    src_path: PathLike, tgt_path: PathLike, skip_bad: bool = False, stats: ReadStats | None = None
) -> Iterator[ParallelPair]:
    """Read two line-aligned files. Different lengths are fatal even with ``skip_bad``: the error names
    the shorter file and the last line it has. ``source`` of each pair is the source-side file."""
    src_path, tgt_path = Path(src_path), Path(tgt_path)
    name = str(src_path)
    src_lines, tgt_lines = _lines(src_path), _lines(tgt_path)
    lineno = 0
    with contextlib.closing(src_lines), contextlib.closing(tgt_lines):
        for s, t in itertools.zip_longest(src_lines, tgt_lines):
            if s is None or t is None:
                short, other = (src_path, tgt_path) if s is None else (tgt_path, src_path)
                reason = f"file ends after {lineno} lines but {other} has more"
                raise BadInputError(short, lineno or None, reason)
            lineno, s_text = s
            t_text = t[1]
            if isinstance(s_text, MalformedLine) or isinstance(t_text, MalformedLine):
                bad_path, bad = (
                    (src_path, s_text) if isinstance(s_text, MalformedLine) else (tgt_path, t_text)
                )
                reject_line(bad_path, lineno, bad, skip_bad, stats)  # type: ignore[arg-type]
                continue
            if stats is not None:
                stats.pairs += 1
            yield ParallelPair(s_text, t_text, None, name, lineno)
