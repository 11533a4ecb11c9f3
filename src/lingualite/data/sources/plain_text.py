"""Plain prose out of three packaged text formats, for the monolingual source
(:mod:`lingualite.data.sources.monolingual`): fortune files, DocBook HTML and man pages (groff).

Each reader yields paragraphs (whitespace collapsed); :func:`prose_sentences` splits them with the shared
sentence splitter (:func:`~lingualite.data.sources.common.split_sentences`) and keeps what reads as a
sentence: it starts with a capital (after an opening quote or mark), ends with ``.``, ``!``, ``?`` or their
CJK forms, or the danda or Arabic question mark in text of their script (and closing quotes), has 3 to 60
words, at least 60% letters among its characters (a letter's combining marks count with it), no URL and no
backslash (a groff escape left over). Formatting leftovers (option lists, code, tables, ASCII art) mostly fail
one of these.
"""

from __future__ import annotations

import gzip
import html
import re
from collections.abc import Iterable, Iterator
from pathlib import Path

from lingualite.data.sources.common import MIN_WORDS, clean_text
from lingualite.text.languages import get_language
from lingualite.text.scripts import is_mark
from lingualite.text.segmentation import (
    SCRIPT_STOPS,
    SENTENCE_RULES,
    join_lines,
    length_units,
    split_sentences,
    starts_sentence,
)

__all__ = ["PROSE_RULES", "fortune_entries", "html_paragraphs", "man_paragraphs", "prose_sentences"]

MAX_WORDS = 60
# The version of these rules: the ``EXTRACTION`` of every source whose text they keep, so that a folder kept by
# other rules is extracted again; a change of the sentence rules they split by (segmentation.SENTENCE_RULES)
# changes it too. Before SENTENCE_RULES existed, 2: a letter's marks count with it, the danda and the Arabic
# question mark end a sentence, Thai lines join without a space (segmentation.join_lines); then (SENTENCE_RULES
# 2, PROSE_RULES 3) the Greek question mark ends a sentence and a Greek question is prose.
_OWN_RULES = 1
PROSE_RULES = _OWN_RULES + SENTENCE_RULES
_OPENERS = "\"'“‘«¿¡(「『（ \u00a0"  # French quotes are followed by a (no-break) space
_START = re.compile(rf"^[{_OPENERS}]*[^\W\d_]")
_END = re.compile(rf"[.!?。！？{''.join(SCRIPT_STOPS)}][\"'”’»)」』）]*$")
_URL = re.compile(r"https?:|www\.|\S+@\S+\.\w")


def _own_stop(stop: str, lang: str | None) -> bool:
    """A danda ends Devanagari text, an Arabic question mark Arabic-script text and ``;`` (the Greek question
    mark) Greek text; not a French man page's table of the ISO 8859-6 characters («... POINT-VIRGULE ARABE 277
    191 BF ؟») nor an English line ending in a semicolon."""
    script = SCRIPT_STOPS.get(stop)
    return script is None or (lang is not None and script in get_language(lang).scripts)


def _readable(sentence: str, lang: str | None = None) -> bool:
    if (
        not MIN_WORDS <= length_units(sentence, lang) <= MAX_WORDS
        or _URL.search(sentence)
        or "\\" in sentence
    ):
        return False
    end = _END.search(sentence)
    if not _START.match(sentence) or not end or not _own_stop(end.group(0)[0], lang):
        return False
    first = sentence.lstrip(_OPENERS)
    if not starts_sentence(first[:1] or " "):
        return False
    chars = sentence.replace(" ", "")
    # a vowel sign, virama or tone mark (Unicode M*) belongs to its letter: Hindi prose is a third marks
    return sum(c.isalpha() or is_mark(c) for c in chars) >= 0.6 * len(chars)


def prose_sentences(paragraphs: Iterable[str], lang: str | None = None) -> Iterator[str]:
    """The readable sentences of ``paragraphs`` in language ``lang`` (see the module docstring)."""
    for paragraph in paragraphs:
        for sentence in split_sentences(clean_text(paragraph), lang):
            if _readable(sentence, lang):
                yield sentence


def _decode(data: bytes) -> str:
    """UTF-8, else Latin-1 (older fortune files): never fails, never guesses beyond these two."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


_ATTRIBUTION = re.compile(r"^\s*(--|―|—\s)")
_COLOUR = re.compile(r"\x1b\[[0-9;]*m")  # terminal colour codes (fortunes-zh colours its titles)


def _paragraphs(lines: list[str]) -> str:
    """Wrapped lines joined (:func:`join_lines`), blank-line-separated paragraphs kept apart by ``\\n``."""
    blocks: list[list[str]] = [[]]
    for line in lines:
        if line.strip():
            blocks[-1].append(line)
        elif blocks[-1]:
            blocks.append([])
    return "\n".join(clean_text(join_lines(b)) for b in blocks if b)


def fortune_entries(path: Path) -> Iterator[tuple[str, str]]:
    """``(text, attribution)`` of each entry of a fortune file (entries end at a line ``%``; an attribution
    line starts with ``--``); the paragraphs of the text (blank-line separated) are joined by ``\\n``.
    Colour codes are removed; lines with other terminal controls (overstriking backspaces) are dropped."""
    text: list[str] = []
    attribution: list[str] = []
    for raw in [*_decode(path.read_bytes()).splitlines(), "%"]:
        line = _COLOUR.sub("", raw)
        if line.strip() == "%":
            if any(t.strip() for t in text):
                yield _paragraphs(text), clean_text(join_lines(attribution))
            text, attribution = [], []
        elif "\b" in line or "\x1b" in line:
            continue
        elif attribution or _ATTRIBUTION.match(line):
            attribution.append(_ATTRIBUTION.sub("", line))
        else:
            text.append(line)


_PARAGRAPH = re.compile(r"<p\b[^>]*>(.*?)</p>", re.S | re.I)
_TAG = re.compile(r"<[^>]+>")
_SPACE_BEFORE_STOP = re.compile(r" ([.,])(?=\s|$)")


def html_paragraphs(path: Path) -> list[str]:
    """The text of each ``<p>`` of an HTML file (tags dropped, entities decoded)."""
    source = _decode(path.read_bytes())
    # a tag becomes a space (``a<br>b``), which must not stay before a full stop or comma (``<a>x</a>.``)
    texts = (clean_text(html.unescape(_TAG.sub(" ", p))) for p in _PARAGRAPH.findall(source))
    return [_SPACE_BEFORE_STOP.sub(r"\1", t) for t in texts]


# groff: font switches, named characters, strings and the escapes that stand for plain characters
_GROFF_ESCAPES = [
    (re.compile(r"\\f(\[[^\]]*\]|\(..|.)"), ""),
    (re.compile(r"\\\*(\[[^\]]*\]|\(..|.)"), ""),
    (re.compile(r"\\s[-+]?\d+"), ""),
    (re.compile(r"\\[&|^%:c]"), ""),
    (re.compile(r"\\[ ~0]"), " "),
    (re.compile(r"\\-"), "-"),
    (re.compile(r"\\\((aq|cq)"), "'"),
    (re.compile(r"\\\((lq|rq|dq)"), '"'),
    (re.compile(r"\\\((em|en)"), "-"),
    (re.compile(r"\\\(..|\\\[[^\]]*\]"), ""),
    (re.compile(r"\\e"), "\\\\"),
]
_TEXT_MACROS = {"B", "I", "BR", "RB", "BI", "IB", "IR", "RI", "SM", "SB"}
_BREAK_MACROS = {"PP", "P", "LP", "SH", "SS", "TP", "IP", "HP", "TH", "br", "sp", "RS", "RE", "nf", "fi"}


def _groff_text(line: str) -> str:
    for pattern, replacement in _GROFF_ESCAPES:
        line = pattern.sub(replacement, line)
    return line


def man_paragraphs(path: Path) -> list[str]:
    """The running-text paragraphs of a man page (``.gz`` or plain): text lines and the arguments of font
    macros (``.B``, ``.IR``, ...), broken at paragraph and section macros; ``.nf`` ... ``.fi`` blocks
    (examples, code) and comments are skipped."""
    data = path.read_bytes()
    lines = _decode(gzip.decompress(data) if path.suffix == ".gz" else data).splitlines()
    paragraphs: list[str] = []
    current: list[str] = []
    verbatim = False
    for line in lines:
        if line.startswith((".", "'")):
            name, _, args = line[1:].strip().partition(" ")
            if name in _BREAK_MACROS or name.startswith('\\"'):
                if current:
                    paragraphs.append(clean_text(join_lines(current)))
                current = []
                verbatim = {"nf": True, "fi": False}.get(name, verbatim)
            elif name in _TEXT_MACROS and not verbatim:
                current.append(_groff_text(args.replace('"', "")))
        elif not verbatim and not line.startswith('\\"'):
            current.append(_groff_text(line))
    if current:
        paragraphs.append(clean_text(join_lines(current)))
    return [p for p in paragraphs if p]
