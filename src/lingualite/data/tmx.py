"""Streaming TMX reader: one ``<tu>`` in memory at a time, errors naming the file and line (the decoding and
error rules of :mod:`lingualite.data.readers`)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from lingualite.core.errors import BadInputError
from lingualite.data.readers import (
    BOM,
    MalformedLine,
    ParallelPair,
    PathLike,
    ReadStats,
    decode_line,
    raw_lines,
    reject_line,
)

__all__ = ["read_tmx"]

_XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
_NATIVE_CODE_TAGS = frozenset({"bpt", "ept", "it", "ph", "ut"})  # TMX inline tags whose text is markup


class _LineFeeder:
    """File-like object handing ``iterparse`` one validated line per ``read`` so events know their line."""

    def __init__(self, path: Path, skip_bad: bool) -> None:
        self.path = path
        self.skip_bad = skip_bad
        self.lineno = 0
        self.last_bad: tuple[int, MalformedLine] | None = None
        self._raw = raw_lines(path)

    def read(self, size: int = -1) -> bytes:
        raw = next(self._raw, None)
        if raw is None:
            return b""
        self.lineno += 1
        try:
            decode_line(raw, self.lineno)
        except MalformedLine as bad:
            if not self.skip_bad:
                raise BadInputError(self.path, self.lineno, bad.reason) from None
            self.last_bad = (self.lineno, bad)
            raw = raw.decode("utf-8", errors="replace").encode("utf-8")
        if self.lineno == 1 and raw.startswith(BOM):
            raw = raw[len(BOM) :]
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
            raise MalformedLine("missing_language", f"<tu> has no <tuv> with a <seg> for language '{lang}'")
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
            except MalformedLine as bad:
                reject_line(path, tu_line, bad, skip_bad, stats)
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
