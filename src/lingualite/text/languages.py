"""The one list of languages lingualite supports, with each one's script and how its text is segmented.

Everything that needs a language list, a script or a segmentation rule reads it from here: data sources,
cleaning, vocabularies, the quickstart, evaluation and the configs' defaults. Adding a language is adding one
:class:`Language` row (and its data in the sources that have it).

Segmentation: ``words`` languages separate words by spaces (Korean too: it spaces its word units); in
``characters`` languages (Chinese, Japanese) words are not spaced, so vocabularies split Han and Kana into
single characters (paper 001 does so for Chinese) and length limits count characters, not spaces.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from lingualite.core.errors import ConfigError

__all__ = [
    "CHECK_PIVOTS",
    "ENGLISH",
    "LANGUAGES",
    "PAPER_000_LANGS",
    "PAPER_001_LANGS",
    "QUICKSTART_LANGS",
    "SUPPORTED",
    "TRANSLATION_LANGS",
    "Language",
    "check_languages",
    "get_language",
    "language_pairs",
    "pair_name",
    "parse_pair",
]

Segmentation = Literal["words", "characters"]


@dataclass(frozen=True)
class Language:
    """One supported language.

    :param code: ISO 639-1 code, the name used in file names (``en-zh``) and options (``--langs zh``).
    :param scripts: the Unicode scripts its text is written in (names as :mod:`lingualite.text.scripts` uses
        them); letters of any other script, Latin excepted for non-Latin languages (product names), count as
        foreign.
    :param segmentation: ``words`` (spaces separate words) or ``characters`` (Han/Kana text has no spaces).
    :param papers: the papers (000, 001, 002) that use it; empty for languages beyond the papers.
    :param length_vs_english: typical characters of a translation per character of its English source:
        the median of ``len(translation) / len(english)`` over the LibreOffice help pairs (Debian 12, LibreOffice
        7.4; ``benchmarks/length_ratios.py``, results in ``benchmarks/results/length_ratios.json``); the
        cleaning's length-ratio filter divides by it, so a Chinese sentence of 0.33x the characters of its
        English source is as normal as a French one of 1.2x.
    """

    code: str
    name: str
    scripts: tuple[str, ...]
    segmentation: Segmentation
    papers: tuple[str, ...]
    length_vs_english: float = 1.0

    @property
    def latin(self) -> bool:
        return self.scripts == ("Latin",)


ENGLISH = "en"

_ROWS = (
    Language("en", "English", ("Latin",), "words", ("000", "001", "002"), 1.0),
    Language("fr", "French", ("Latin",), "words", ("000", "001", "002"), 1.2),
    Language("de", "German", ("Latin",), "words", ("000", "001", "002"), 1.18),
    Language("es", "Spanish", ("Latin",), "words", ("000", "001", "002"), 1.15),
    Language("it", "Italian", ("Latin",), "words", ("000", "002"), 1.18),
    Language("nl", "Dutch", ("Latin",), "words", ("002",), 1.13),
    Language("pl", "Polish", ("Latin",), "words", ("002",), 1.07),
    Language("pt", "Portuguese", ("Latin",), "words", ("002",), 1.1),
    Language("ru", "Russian", ("Cyrillic",), "words", ("002",), 1.07),
    Language("tr", "Turkish", ("Latin",), "words", ("002",), 1.03),
    Language("zh", "Chinese", ("Han",), "characters", ("001",), 0.33),
    Language("ja", "Japanese", ("Han", "Hiragana", "Katakana"), "characters", (), 0.52),
    Language("ko", "Korean", ("Hangul", "Han"), "words", (), 0.5),
)

LANGUAGES: dict[str, Language] = {row.code: row for row in _ROWS}
SUPPORTED: tuple[str, ...] = tuple(LANGUAGES)
# The languages English is paired with (``en-xx``): every supported language but English.
TRANSLATION_LANGS: tuple[str, ...] = tuple(code for code in SUPPORTED if code != ENGLISH)
# Paper 000's four (en-fr/de/es/it): what earlier published numbers were measured on.
PAPER_000_LANGS: tuple[str, ...] = tuple(c for c in TRANSLATION_LANGS if "000" in LANGUAGES[c].papers)
# What `lingualite quickstart` trains on by default, paired with English: one pair of paper 000 (fr), one
# language of all three papers (de), paper 002's Cyrillic one (ru) and paper 001's unspaced one (zh), so the
# main job shows every kind of script handling while its fetch, prepare and training stay within 15 minutes
# on 2 cores (`--langs` takes any others).
QUICKSTART_LANGS: tuple[str, ...] = ("fr", "de", "ru", "zh")
# Non-English pairs the quick checks use (packaged models' cards, the language table's everyday rows): one
# per kind of meeting of scripts (Han-Cyrillic, Latin-Cyrillic, Kana/Han-Hangul, Latin-Latin).
CHECK_PIVOTS: tuple[str, ...] = ("zh-ru", "pl-ru", "ja-ko", "de-fr")
# Paper 001's five, English included (en, zh, fr, es, de: its monolingual corpora).
PAPER_001_LANGS: tuple[str, ...] = tuple(c for c in SUPPORTED if "001" in LANGUAGES[c].papers)


def get_language(code: str) -> Language:
    """The :class:`Language` of ``code``, or a one-line :class:`ConfigError` listing the supported ones."""
    try:
        return LANGUAGES[code]
    except KeyError:
        raise ConfigError(f"unsupported language {code!r}; supported: {', '.join(SUPPORTED)}") from None


def check_languages(codes: Iterable[str], what: str = "language(s)") -> list[str]:
    """``codes`` without repeats, in order; raise one :class:`ConfigError` naming every unsupported code."""
    codes = list(dict.fromkeys(codes))
    bad = [c for c in codes if c not in LANGUAGES]
    if bad:
        raise ConfigError(f"unsupported {what} {', '.join(bad)}; supported: {', '.join(SUPPORTED)}")
    return codes


def pair_name(src: str, tgt: str) -> str:
    """``src-tgt``, the name of a language pair in folders and tables (``en-zh``, ``zh-ru``)."""
    return f"{src}-{tgt}"


def parse_pair(name: str) -> tuple[str, str]:
    """``("zh", "ru")`` from ``"zh-ru"``; both must be supported and different."""
    parts = name.split("-")
    if len(parts) != 2:
        raise ConfigError(f"language pair {name!r}: expected SRC-TGT, e.g. en-fr or zh-ru")
    check_languages(parts, f"language(s) in pair {name!r}:")
    if parts[0] == parts[1]:
        raise ConfigError(f"language pair {name!r}: the two languages must differ")
    return parts[0], parts[1]


def language_pairs(langs: Iterable[str], english_centred: bool = True) -> list[tuple[str, str]]:
    """The pairs among ``langs``: ``en-xx`` for each other language, or every unordered pair."""
    codes = check_languages(langs)
    if english_centred:
        return [(ENGLISH, c) for c in codes if c != ENGLISH]
    return [(a, b) for i, a in enumerate(codes) for b in codes[i + 1 :]]
