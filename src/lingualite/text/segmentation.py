"""Sentence boundaries and lengths for every supported script.

Sentences end at ``. ! ?`` (and Arabic ``؟``, Devanagari ``। ॥``, and in Greek text the Greek question mark
``;``: :data:`SCRIPT_STOPS`) followed by a space and a letter that may start a sentence (an upper-case letter,
or a letter of a script without case: Han, Kana, Hangul, Arabic, Hebrew ...), skipping common abbreviations;
and at the full-width ``。！？`` of Chinese and Japanese, which need no space after them. Length is counted in
*units* that are fair across scripts: words where words are spaced, and for Chinese and Japanese the Han/Kana
characters scaled to English words (a Chinese word is about two characters).

Thai (the registry's ``segmenter`` language) spaces phrases, not words: its words are found by PyThaiNLP's
dictionary segmenter (``newmm``) when that package is installed (``pip install pythainlp``, 22 MB, no
dependencies; :func:`words`); without it a Thai run counts as its letters divided by
:data:`THAI_LETTERS_PER_WORD`, measured against the segmenter on the LibreOffice UI strings.
Right-to-left text (Arabic, Persian, Hebrew) is stored in logical order and spaces its words; bidi marks and
joiners are not words (:func:`lingualite.text.scripts.script_units`), and bidi marks beside the space after a
stop do not hide the sentence end.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from lingualite.text.languages import LANGUAGES
from lingualite.text.scripts import CHARACTER_SCRIPTS, is_mark, script_of

__all__ = [
    "ENGLISH_CHARS_PER_WORD",
    "SCRIPT_STOPS",
    "SENTENCE_RULES",
    "THAI_LETTERS_PER_WORD",
    "chars_per_word",
    "join_lines",
    "length_units",
    "split_sentences",
    "starts_sentence",
    "thai_segmenter",
    "truncate_units",
    "words",
]

# Characters per word of English text, the space included: 5.903 over the 40,077 distinct English
# sides of the LibreOffice help pairs (benchmarks/length_ratios.py).
ENGLISH_CHARS_PER_WORD = 5.9
# Thai letters (marks not counted) per word that PyThaiNLP's newmm finds: 3.64 over the 61,900 words of the
# Thai LibreOffice UI strings (2026-11-27); the length of Thai text where that package is not installed.
THAI_LETTERS_PER_WORD = 3.6

# The version of the sentence rules of :func:`split_sentences`: the ``EXTRACTION`` of every source that aligns
# or keeps sentences by them, so that a folder split by other rules is extracted again. 2: the Greek question
# mark ends a sentence.
SENTENCE_RULES = 2
# The stops of one script's text: each ends a sentence as "." or "?" does (the Greek question mark, ";" or
# U+037E, which NFC makes ";", only in Greek text: _greek_question), and ends a line of prose only in a
# language of that script (a French man page's table of ISO 8859-6 ends a row with "؟", English code with ";").
SCRIPT_STOPS: dict[str, str] = {
    "؟": "Arabic",
    "।": "Devanagari",
    "॥": "Devanagari",
    ";": "Greek",
    "\u037e": "Greek",
}

# A candidate end: a stop, closing quotes/brackets, whitespace, then an optional opening quote/mark; the letter
# after it decides. Full-width stops end a sentence wherever they stand (closing quotes stay with it).
# Bidi marks (ALM, LRM, RLM, embeddings, overrides, isolates) are invisible: right-to-left text carries them on
# either side of the space after a stop ("חוקי.\u200f לא", ". \u200eاسم"); those before the space stay with the
# sentence that ends, those after it open the next.
_BIDI_MARKS = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
_GREEK_QUESTION = "".join(stop for stop, script in SCRIPT_STOPS.items() if script == "Greek")
_GREEK_LETTER = re.compile("[\u0370-\u03ff\u1f00-\u1fff]")
_LATIN_END = re.compile(
    rf"[.!?{''.join(SCRIPT_STOPS)}][\"'”’»)\]{_BIDI_MARKS}]*\s+(?=[{_BIDI_MARKS}\s]*[¿¡\"'“‘«(]?(\w))"
)
_CJK_END = re.compile(r"[。！？]+([」』”’）)]*)\s*")
_ABBREVIATION_LIST = (
    "e.g i.e vs mr mrs ms dr st no nr nº ca cf z.b d.h u.a bzw usw vgl ggf inkl evtl p.ex ex sr sra srta "
    "núm pág fig abb bsp approx resp т.е т.д т.п гг см стр рис св др пр ул dhr mevr blz bijv zgn np tj itd "
    "itp prof ltda vb"
)
_ABBREVIATIONS = frozenset(_ABBREVIATION_LIST.split())


def starts_sentence(ch: str) -> bool:
    """An upper-case letter, or a letter of a script without case (Han, Kana, Hangul)."""
    return ch.isupper() or (ch.isalpha() and not ch.islower())


def _latin_ends(text: str, lang: str | None) -> list[int]:
    ends = []
    start = 0
    greek = _greek_text(text, lang)
    for m in _LATIN_END.finditer(text):
        if not starts_sentence(m.group(1)):
            continue
        head = text[start : m.start()]
        if text[m.start()] in _GREEK_QUESTION and not (greek and _greek_question(head, lang)):
            continue
        last = head.rsplit(None, 1)[-1] if head.strip() else ""
        word = last.lstrip("(\"'“«¿¡").lower()
        if text[m.start()] == "." and (_letters(word) <= 1 or word in _ABBREVIATIONS):
            continue
        ends.append(m.end())
        start = m.end()
    return ends


def _greek_text(text: str, lang: str | None) -> bool:
    """``text`` may hold a Greek question: it is in a Greek-script language, or (language unknown) has a Greek
    letter."""
    if lang is not None:
        row = LANGUAGES.get(lang)
        return row is not None and "Greek" in row.scripts
    return _GREEK_LETTER.search(text) is not None


def _greek_question(sentence: str, lang: str | None) -> bool:
    """A ``;`` after ``sentence`` (of Greek text) is the Greek question mark, not a semicolon: no bracket is
    open (the argument separator of a formula in Greek help: "=DVAR(A1:E10; "Απόσταση"; A12:E13)") and, where
    the language is not known, half or more of its letters are Greek ("Τι είναι το Linux; Είναι ..." ends a
    question; "Use A; B is ..." does not; in text known to be Greek "Τι είναι το LibreOffice Calc;" too)."""
    if sentence.count("(") > sentence.count(")") or sentence.count("[") > sentence.count("]"):
        return False
    if lang is not None:
        return True
    letters = [script_of(c) for c in sentence if c.isalpha()]
    return bool(letters) and 2 * letters.count("Greek") >= len(letters)


def _letters(word: str) -> int:
    """Letters of ``word`` without their combining marks: a Devanagari initial ``जे.`` is one letter."""
    return sum(not is_mark(c) for c in word)


def _cjk_ends(text: str) -> list[int]:
    """Ends at full-width stops, except a quoted sentence that the text goes on after (「…。」と言った)."""
    ends = []
    for m in _CJK_END.finditer(text):
        quoted_and_continued = (
            m.group(1) and m.end() < len(text) and m.end() == m.end(1) and text[m.end()].isalpha()
        )
        if not quoted_and_continued:
            ends.append(m.end())
    return ends


def split_sentences(text: str, lang: str | None = None) -> list[str]:
    """Split ``text`` (in language ``lang``, if known) into sentences (see the module docstring); the pieces,
    stripped, joined, give the text."""
    ends = sorted({*_latin_ends(text, lang), *_cjk_ends(text)})
    out: list[str] = []
    start = 0
    for end in ends:
        piece = text[start:end].strip()
        if piece:
            out.append(piece)
        start = end
    tail = text[start:].strip()
    if tail:
        out.append(tail)
    return out


@lru_cache(maxsize=1)
def thai_segmenter() -> Callable[[str], list[str]] | None:
    """PyThaiNLP's ``newmm`` word segmenter (its own dictionary, offline), or None where it is not installed."""
    try:
        from pythainlp.tokenize import word_tokenize
    except ImportError:
        return None

    def segment(text: str) -> list[str]:
        return [w for w in word_tokenize(text, engine="newmm", keep_whitespace=False) if w.strip()]

    return segment


_THAI = re.compile("[\u0e01-\u0e4e]")  # Thai letters and marks (one regex: every length call checks)


def _has_thai(token: str) -> bool:
    return _THAI.search(token) is not None


def _thai_words(token: str) -> float:
    """The words of one whitespace token holding Thai letters (see the module docstring)."""
    segment = thai_segmenter()
    if segment is not None:
        return float(sum(1 for w in segment(token) if any(c.isalnum() for c in w)))
    letters = sum(1 for c in token if script_of(c) == "Thai")
    return max(1.0, letters / THAI_LETTERS_PER_WORD)


def words(text: str, lang: str | None = None) -> list[str]:
    """The words of ``text``: whitespace tokens, a token holding Thai cut by the Thai segmenter where it is
    installed (``"ฉันรักภาษาไทย"`` -> ``["ฉัน", "รัก", "ภาษาไทย"]``); Han and Kana tokens stay whole (their
    vocabularies split them into characters instead)."""
    segment = thai_segmenter()
    out: list[str] = []
    for token in text.split():
        out.extend(segment(token) if segment is not None and _has_thai(token) else [token])
    return out


def length_units(text: str, lang: str | None = None) -> float:
    """The length of ``text`` in words: whitespace tokens, except that Han and Kana letters (unspaced) count
    as ``1 / chars_per_word`` of a word each, ``chars_per_word`` being the language's characters per English
    word (its ``length_vs_english`` times :data:`ENGLISH_CHARS_PER_WORD`; for an unknown language, 2), and a
    token with Thai letters counts as its Thai words (see the module docstring).

    Text without Han, Kana or Thai is measured exactly as ``len(text.split())``, whatever ``lang`` says.
    """
    tokens = text.split()
    cjk = sum(1 for ch in text if script_of(ch) in CHARACTER_SCRIPTS)
    thai = [tok for tok in tokens if _has_thai(tok)] if _has_thai(text) else []
    if not cjk and not thai:
        return float(len(tokens))
    # Tokens made only of Han/Kana (and punctuation) are counted through their characters instead.
    other = sum(1 for tok in tokens if not _unspaced_token(tok) and not _has_thai(tok))
    return other + (cjk / chars_per_word(lang) if cjk else 0.0) + sum(_thai_words(tok) for tok in thai)


def chars_per_word(lang: str | None) -> float:
    """Han/Kana characters per English word in language ``lang``: its ``length_vs_english`` times
    :data:`ENGLISH_CHARS_PER_WORD` for a ``characters`` language, else 2 (a Chinese word's length)."""
    row = LANGUAGES.get(lang or "")
    return row.length_vs_english * ENGLISH_CHARS_PER_WORD if row and row.segmentation == "characters" else 2.0


def _unspaced_token(token: str) -> bool:
    return all(script_of(c) in CHARACTER_SCRIPTS or not c.isalnum() for c in token)


def truncate_units(text: str, max_units: float, lang: str | None = None) -> str:
    """The start of ``text`` (whitespace collapsed) that is at most ``max_units`` long in
    :func:`length_units`: the first ``max_units`` words of spaced text; unspaced Chinese or Japanese text is
    cut by characters (``max_units`` words' worth of them), Thai at the words the segmenter finds (without it,
    at the letter where the count runs out)."""
    out: list[str] = []
    used = 0.0
    per_word = chars_per_word(lang)
    for token in text.split():
        if _has_thai(token):
            size = _thai_words(token)
            if used + size > max_units:
                out.extend(_thai_head(token, max_units - used))
                break
            out.append(token)
            used += size
            continue
        cjk = sum(1 for ch in token if script_of(ch) in CHARACTER_SCRIPTS)
        size = cjk / per_word if cjk and _unspaced_token(token) else 1.0
        if used + size > max_units:
            room = int((max_units - used) * per_word) if cjk and _unspaced_token(token) else 0
            if room > 0:
                out.append(token[:room])
            break
        out.append(token)
        used += size
    return " ".join(out)


def _thai_head(token: str, room: float) -> list[str]:
    """The start of a Thai token that is at most ``room`` words long (nothing when under one word)."""
    if room < 1:
        return []
    segment = thai_segmenter()
    if segment is not None:
        head, n = "", 0
        for piece in segment(token):
            n += any(c.isalnum() for c in piece)
            if n > room:
                break
            head += piece
        return [head] if head else []
    keep, letters = 0, 0
    for i, c in enumerate(token):
        if script_of(c) == "Thai":
            if letters >= room * THAI_LETTERS_PER_WORD:
                break
            letters += 1
        keep = i + 1
    return [token[:keep]]


def _unspaced(ch: str) -> bool:
    """A Han, Kana or Thai letter or mark, or CJK / full-width punctuation: text written without spaces
    between its words (a Thai line wraps between two words, where a space would be a phrase break)."""
    cp = ord(ch)
    return (
        script_of(ch) in CHARACTER_SCRIPTS
        or 0x0E01 <= cp <= 0x0E4E  # Thai letters, vowel signs and tone marks
        or 0x3000 <= cp <= 0x303F
        or 0xFF01 <= cp <= 0xFF65
    )


def join_lines(lines: list[str]) -> str:
    """Lines of wrapped text joined into one: with a space, except between two characters of text written
    without spaces (``古代戦争の`` + ``リアルタイム`` -> ``古代戦争のリアルタイム``, where a space would be
    a word break that the original never had; Thai likewise); each line stripped, empty lines skipped."""
    out = ""
    for line in lines:
        line = line.strip()
        if not line:
            continue
        if out and not (_unspaced(out[-1]) and _unspaced(line[0])):
            out += " "
        out += line
    return out
