"""Streaming readers of parallel text (TSV, Moses file pairs, TMX), plain or gzip-compressed.

Every reader is a generator: nothing holds more than one line (TMX: one ``<tu>``) in memory. Input is
decoded as strict UTF-8 line by line, so a bad byte is reported with its line and column. Malformed
input raises :class:`~lingualite.errors.BadInputError` (``file:line: reason``), or, with
``skip_bad=True``, is skipped and counted by reason in a :class:`ReadStats`.
"""

from __future__ import annotations

import contextlib
import gzip
import itertools
import re
import xml.etree.ElementTree as ET
import zlib
from collections import Counter
from collections.abc import Collection, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from lingualite.errors import BadInputError, LinguaLiteError

__all__ = [
    "InputSpec",
    "ParallelPair",
    "ReadStats",
    "describe_spec",
    "open_parallel",
    "read_moses",
    "read_tmx",
    "read_tsv",
    "read_tsv_fields",
]

PathLike = str | Path
InputSpec = PathLike | tuple[PathLike, PathLike]
_BOM = b"\xef\xbb\xbf"
_XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
_NATIVE_CODE_TAGS = frozenset({"bpt", "ept", "it", "ph", "ut"})  # TMX inline tags whose text is markup


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


class _Malformed(Exception):
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


def _decode(raw: bytes, lineno: int) -> str:
    """Strip the line ending (``\\n`` or ``\\r\\n``) and a line-1 BOM, then decode strict UTF-8."""
    if raw.endswith(b"\n"):
        raw = raw[:-1]
    if raw.endswith(b"\r"):
        raw = raw[:-1]
    if lineno == 1 and raw.startswith(_BOM):
        raw = raw[len(_BOM) :]
    if lineno == 1 and raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise _Malformed("invalid_utf8", "UTF-16 text (a byte-order mark); convert the file to UTF-8")
    if b"\x00" in raw:
        column = raw.index(b"\x00") + 1
        raise _Malformed("nul_byte", f"contains a NUL byte (column {column}); a binary file?")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as err:
        column = len(raw[: err.start].decode("utf-8")) + 1
        reason = f"invalid UTF-8 (byte 0x{raw[err.start]:02x} at column {column})"
        raise _Malformed("invalid_utf8", reason) from None


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


def _raw_lines(path: Path) -> Iterator[bytes]:
    """Yield raw lines; a missing file or corrupt gzip stream is a fatal :class:`BadInputError`."""
    done = 0
    try:
        with _open_binary(path) as fh:
            for raw in fh:
                for line in _split_cr(raw):
                    yield line
                    done += 1
    except FileNotFoundError:
        raise BadInputError(path, None, "file not found") from None
    except (gzip.BadGzipFile, EOFError, zlib.error) as err:
        raise BadInputError(path, done + 1, f"corrupt gzip data ({err})") from None
    except OSError as err:
        raise BadInputError(path, done + 1, f"cannot read file ({err.strerror or err})") from None


def _lines(path: Path) -> Iterator[tuple[int, str | _Malformed]]:
    """Yield ``(line number, text)``, or ``(line number, _Malformed)`` for an undecodable line."""
    for lineno, raw in enumerate(_raw_lines(path), 1):
        try:
            yield lineno, _decode(raw, lineno)
        except _Malformed as bad:
            yield lineno, bad


def _reject(path: Path, lineno: int | None, bad: _Malformed, skip_bad: bool, stats: ReadStats | None) -> None:
    """Raise for ``bad`` unless ``skip_bad``, in which case count it."""
    if not skip_bad:
        raise BadInputError(path, lineno, bad.reason)
    if stats is not None:
        stats.bad[bad.key] += 1


def _text_lines(path: Path, skip_bad: bool, stats: ReadStats | None) -> Iterator[tuple[int, str]]:
    """Yield ``(line number, text)`` of non-blank lines; an undecodable line is rejected (raised or counted)."""
    for lineno, text in _lines(path):
        if isinstance(text, _Malformed):
            _reject(path, lineno, text, skip_bad, stats)
        elif text:
            yield lineno, text


def _parse_tsv_line(text: str) -> tuple[str, str, str | None]:
    fields = text.split("\t")
    if len(fields) == 1:
        raise _Malformed("no_tab", "no tab separating source and target")
    if len(fields) > 3:
        raise _Malformed("too_many_fields", f"{len(fields)} tab-separated fields (expected 2 or 3)")
    doc_id = fields[2] if len(fields) == 3 and fields[2] else None
    return fields[0], fields[1], doc_id


def read_tsv(
    path: PathLike, skip_bad: bool = False, stats: ReadStats | None = None
) -> Iterator[ParallelPair]:
    """Read ``src<TAB>tgt[<TAB>doc_id]`` lines (an empty doc_id means none). Blank lines are ignored."""
    path = Path(path)
    name = str(path)
    for lineno, text in _text_lines(path, skip_bad, stats):
        try:
            src, tgt, doc_id = _parse_tsv_line(text)
        except _Malformed as bad:
            _reject(path, lineno, bad, skip_bad, stats)
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
            _reject(path, lineno, _Malformed("field_count", reason), skip_bad, stats)
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
            if isinstance(s_text, _Malformed) or isinstance(t_text, _Malformed):
                bad_path, bad = (src_path, s_text) if isinstance(s_text, _Malformed) else (tgt_path, t_text)
                _reject(bad_path, lineno, bad, skip_bad, stats)  # type: ignore[arg-type]
                continue
            if stats is not None:
                stats.pairs += 1
            yield ParallelPair(s_text, t_text, None, name, lineno)


class _LineFeeder:
    """File-like object handing ``iterparse`` one validated line per ``read`` so events know their line."""

    def __init__(self, path: Path, skip_bad: bool) -> None:
        self.path = path
        self.skip_bad = skip_bad
        self.lineno = 0
        self.last_bad: tuple[int, _Malformed] | None = None
        self._raw = _raw_lines(path)

    def read(self, size: int = -1) -> bytes:
        raw = next(self._raw, None)
        if raw is None:
            return b""
        self.lineno += 1
        try:
            _decode(raw, self.lineno)
        except _Malformed as bad:
            if not self.skip_bad:
                raise BadInputError(self.path, self.lineno, bad.reason) from None
            self.last_bad = (self.lineno, bad)
            raw = raw.decode("utf-8", errors="replace").encode("utf-8")
        if self.lineno == 1 and raw.startswith(_BOM):
            raw = raw[len(_BOM) :]
        return raw

    def close(self) -> None:
        self._raw.close()


def _local(tag: Any) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


def _lang_matches(code: str | None, want: str) -> bool:
    """Compare primary language subtags case-insensitively: ``en-US`` and ``EN_gb`` match ``en``."""
    if not code:
        return False
    return code.replace("_", "-").split("-")[0].lower() == want.replace("_", "-").split("-")[0].lower()


def _seg_text(seg: ET.Element) -> str:
    """Text of a ``<seg>``: inline tags' text joined in, native-code tags (bpt/ept/it/ph/ut) left out,
    whitespace collapsed (a segment may span lines in the XML)."""
    parts = [seg.text or ""]

    def walk(elem: ET.Element) -> None:
        for child in elem:
            if _local(child.tag) not in _NATIVE_CODE_TAGS:
                parts.append(child.text or "")
                walk(child)
            parts.append(child.tail or "")

    walk(seg)
    return " ".join("".join(parts).split())


def _tu_pair(tu: ET.Element, src_lang: str, tgt_lang: str) -> tuple[str, str]:
    found: dict[str, str] = {}
    for tuv in tu:
        if _local(tuv.tag) != "tuv":
            continue
        code = tuv.get(_XML_LANG) or next((v for k, v in tuv.attrib.items() if k.lower() == "lang"), None)
        seg = next((c for c in tuv if _local(c.tag) == "seg"), None)
        for lang in (src_lang, tgt_lang):
            if lang not in found and seg is not None and _lang_matches(code, lang):
                found[lang] = _seg_text(seg)
                break
    for lang in (src_lang, tgt_lang):
        if lang not in found:
            raise _Malformed("missing_language", f"<tu> has no <tuv> with a <seg> for language '{lang}'")
    return found[src_lang], found[tgt_lang]


def read_tmx(
    path: PathLike, src_lang: str, tgt_lang: str, skip_bad: bool = False, stats: ReadStats | None = None
) -> Iterator[ParallelPair]:
    """Stream ``<tu>`` units of a UTF-8 TMX file with ``iterparse``, clearing each after use.

    Languages come from ``xml:lang`` (or ``lang``), matched on the primary subtag. ``doc_id`` is None.
    Invalid XML is fatal; with ``skip_bad``, a ``<tu>`` holding bad UTF-8 is skipped (bytes elsewhere are
    replaced), and a ``<tu>`` lacking a language is skipped.
    """
    path = Path(path)
    name = str(path)
    feeder = _LineFeeder(path, skip_bad)
    tu_line = 0
    parent: ET.Element | None = None
    seen_body = False
    try:
        for event, elem in ET.iterparse(feeder, events=("start", "end")):
            tag = _local(elem.tag)
            if event == "start":
                if tag == "tu":
                    tu_line = feeder.lineno
                elif tag == "body":
                    parent = elem
                    seen_body = True
                continue
            if tag != "tu":
                continue
            try:
                if feeder.last_bad is not None and feeder.last_bad[0] >= tu_line:
                    raise feeder.last_bad[1]
                src, tgt = _tu_pair(elem, src_lang, tgt_lang)
            except _Malformed as bad:
                _reject(path, tu_line, bad, skip_bad, stats)
                continue
            finally:
                elem.clear()
                if parent is not None:
                    parent.clear()
            if stats is not None:
                stats.pairs += 1
            yield ParallelPair(src, tgt, None, name, tu_line)
        if not seen_body:
            raise BadInputError(path, None, "no <body> element: not a TMX document")
    except ET.ParseError as err:
        line = err.position[0] if err.position else None
        reason = re.sub(r":? line \d+, column \d+$", "", str(err.msg))
        raise BadInputError(path, line, f"invalid XML: {reason}") from None
    finally:
        feeder.close()


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
