"""The one list of languages lingualite supports, with each one's script and how its text is segmented.

Everything that needs a language list, a script or a segmentation rule reads it from here: data sources,
cleaning, vocabularies, the quickstart, evaluation and the configs' defaults. Adding a language is adding one
:class:`Language` row (and its data in the sources that have it).

Segmentation: ``words`` languages separate words by spaces (Korean too: it spaces its word units); in
``characters`` languages (Chinese, Japanese) words are not spaced, so vocabularies split Han and Kana into
single characters (paper 001 does so for Chinese) and length limits count characters, not spaces. Thai is
``segmenter``: it does not space its words either (spaces end phrases and sentences), and its words are found
by a dictionary word segmenter (PyThaiNLP's ``newmm``, :func:`lingualite.text.segmentation.words`) where that
package is installed, else counted through their letters as Chinese and Japanese are; vocabularies leave Thai
runs whole to the sub-word model (as XLM-R and SentencePiece do), since a rule that needs a dictionary cannot
be saved in ``tokenizer.json``.

Three lists: :data:`SUPPORTED` is every language lingualite can fetch, clean, split and evaluate (34);
:data:`CORE` is the 13 of the papers and the everyday set, and what every default run (quickstart, ``data
fetch`` and ``data eval-sets`` without ``--langs``, the language and register tables, the evaluation report)
uses, so that adding a language to the registry never changes what those runs do; :data:`SHIPPED` is what the
shipped models are distilled on (``lingualite models build``, ``data fetch --for distill``): the 13 of
:data:`CORE` (a student of all 34 was measured and costs the 13 on everyday text:
docs/research/more-languages.md). :attr:`Language.teacher` says which teacher knows a language: USE-m's 16 languages (Chinese
in both scripts) or only multilingual-e5-small.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from lingualite.core.errors import ConfigError

__all__ = [
    "CHECK_PIVOTS",
    "CORE",
    "CORE_TRANSLATION_LANGS",
    "ENGLISH",
    "LANGUAGES",
    "PAPER_000_LANGS",
    "PAPER_001_LANGS",
    "QUICKSTART_LANGS",
    "SHIPPED",
    "SHIPPED_TRANSLATION_LANGS",
    "SUPPORTED",
    "TRANSLATION_LANGS",
    "USE_M_LANGS",
    "Language",
    "Teacher",
    "check_languages",
    "get_language",
    "language_pairs",
    "pair_name",
    "parse_pair",
    "teacher_knows",
]

Segmentation = Literal["words", "characters", "segmenter"]
# The teachers whose vectors the recipes distil: USE-m (multilingual Universal Sentence Encoder v3, 16
# languages) or, for the others, only multilingual-e5-small (about 100 languages).
Teacher = Literal["use-m", "e5-small"]


@dataclass(frozen=True)
class Language:
    """One supported language.

    :param code: the name used in file names (``en-zh``) and options (``--langs zh``): the ISO 639-1 code,
        except ``zht`` (Traditional Chinese, see :attr:`iso`); never with a hyphen, which separates the two
        languages of a pair name (:func:`parse_pair`).
    :param scripts: the Unicode scripts its text is written in (names as :mod:`lingualite.text.scripts` uses
        them); letters of any other script, Latin excepted for non-Latin languages (product names), count as
        foreign.
    :param segmentation: ``words`` (spaces separate words), ``characters`` (Han/Kana text has no spaces) or
        ``segmenter`` (Thai: no spaces between words, a dictionary segmenter finds them).
    :param papers: the papers (000, 001, 002) that use it; empty for languages beyond the papers.
    :param length_vs_english: typical characters of a translation per character of its English source:
        the median of ``len(translation) / len(english)`` over the LibreOffice help pairs (Debian 12, LibreOffice
        7.4; ``benchmarks/length_ratios.py``, results in ``benchmarks/results/length_ratios.json``); the
        cleaning's length-ratio filter divides by it, so a Chinese sentence of 0.33x the characters of its
        English source is as normal as a French one of 1.2x. For the languages added in issue #43 the same
        median over the LibreOffice help pairs, or the UI strings where Debian has no help in the language (ar,
        th, bg, uk, ro, nb, he, fa; sk, whose help package is the Czech one), fetched on 2026-11-27.
    :param teacher: ``use-m`` for USE-m's 16 languages, ``e5-small`` for those only multilingual-e5-small
        knows (what the language table measures per language). The distillation recipe does not read it yet:
        a translation pair needs only the teacher's vector of its English side, so any language learns from
        pairs; untranslated text in an ``e5-small`` language would need the second teacher.
    :param iso: the ISO 639-1 code where :attr:`code` is not one (``zh`` for ``zht``): what language
        identifiers and ISO-keyed tools know the language as; empty means :attr:`code` itself.
    """

    code: str
    name: str
    scripts: tuple[str, ...]
    segmentation: Segmentation
    papers: tuple[str, ...]
    length_vs_english: float = 1.0
    teacher: Teacher = "e5-small"
    iso: str = ""

    @property
    def latin(self) -> bool:
        return self.scripts == ("Latin",)

    @property
    def iso_code(self) -> str:
        """The ISO 639-1 code (:attr:`iso`, else :attr:`code`)."""
        return self.iso or self.code


ENGLISH = "en"

_USE = "use-m"
_E5 = "e5-small"
_ROWS = (
    Language("en", "English", ("Latin",), "words", ("000", "001", "002"), 1.0, _USE),
    Language("fr", "French", ("Latin",), "words", ("000", "001", "002"), 1.2, _USE),
    Language("de", "German", ("Latin",), "words", ("000", "001", "002"), 1.18, _USE),
    Language("es", "Spanish", ("Latin",), "words", ("000", "001", "002"), 1.15, _USE),
    Language("it", "Italian", ("Latin",), "words", ("000", "002"), 1.18, _USE),
    Language("nl", "Dutch", ("Latin",), "words", ("002",), 1.13, _USE),
    Language("pl", "Polish", ("Latin",), "words", ("002",), 1.07, _USE),
    Language("pt", "Portuguese", ("Latin",), "words", ("002",), 1.1, _USE),
    Language("ru", "Russian", ("Cyrillic",), "words", ("002",), 1.07, _USE),
    Language("tr", "Turkish", ("Latin",), "words", ("002",), 1.03, _USE),
    Language("zh", "Chinese", ("Han",), "characters", ("001",), 0.33, _USE),
    Language("ja", "Japanese", ("Han", "Hiragana", "Katakana"), "characters", (), 0.52, _USE),
    Language("ko", "Korean", ("Hangul", "Han"), "words", (), 0.5, _USE),
    # Issue #43: the two other USE-m languages, Traditional Chinese, and e5-small languages that two or more
    # packaged sources translate (counts per source: docs/data-and-licences.md).
    Language("ar", "Arabic", ("Arabic",), "words", (), 0.84, _USE),
    Language("th", "Thai", ("Thai",), "segmenter", (), 0.87, _USE),
    # Traditional Chinese (the zh-TW translations): "zht", not "zh-Hant" or "zh-TW", because a pair name is
    # split at its hyphen (en-zht, zht-ru) and "zh_Hant" would be cut to "zh" where a locale is reduced to its
    # language; its ISO code (language ID) stays "zh".
    Language("zht", "Chinese (Traditional)", ("Han",), "characters", (), 0.33, _USE, "zh"),
    Language("ca", "Catalan", ("Latin",), "words", (), 1.12, _E5),
    Language("cs", "Czech", ("Latin",), "words", (), 0.96, _E5),
    Language("da", "Danish", ("Latin",), "words", (), 1.03, _E5),
    Language("el", "Greek", ("Greek",), "words", (), 1.22, _E5),
    Language("fi", "Finnish", ("Latin",), "words", (), 1.03, _E5),
    Language("hu", "Hungarian", ("Latin",), "words", (), 1.1, _E5),
    Language("id", "Indonesian", ("Latin",), "words", (), 1.04, _E5),
    Language("sk", "Slovak", ("Latin",), "words", (), 1.0, _E5),
    Language("sl", "Slovenian", ("Latin",), "words", (), 1.0, _E5),
    Language("sv", "Swedish", ("Latin",), "words", (), 1.0, _E5),
    Language("vi", "Vietnamese", ("Latin",), "words", (), 0.97, _E5),
    Language("hi", "Hindi", ("Devanagari",), "words", (), 1.04, _E5),
    Language("bg", "Bulgarian", ("Cyrillic",), "words", (), 1.09, _E5),
    Language("uk", "Ukrainian", ("Cyrillic",), "words", (), 1.03, _E5),
    Language("ro", "Romanian", ("Latin",), "words", (), 1.11, _E5),
    Language("nb", "Norwegian Bokmål", ("Latin",), "words", (), 1.0, _E5),
    Language("he", "Hebrew", ("Hebrew",), "words", (), 0.82, _E5),
    Language("fa", "Persian", ("Arabic",), "words", (), 0.92, _E5),
)

LANGUAGES: dict[str, Language] = {row.code: row for row in _ROWS}
SUPPORTED: tuple[str, ...] = tuple(LANGUAGES)
# The languages English is paired with (``en-xx``): every supported language but English.
TRANSLATION_LANGS: tuple[str, ...] = tuple(code for code in SUPPORTED if code != ENGLISH)
# The 13 languages of the papers and the everyday set (the registry before issue #43): the default of every
# run that prepares or checks (see the module docstring), so a new row changes none of them.
CORE: tuple[str, ...] = SUPPORTED[:13]
CORE_TRANSLATION_LANGS: tuple[str, ...] = tuple(code for code in CORE if code != ENGLISH)
# The languages beyond the 13 (issue #43's 21): what only the 34-language student speaks.
BEYOND_CORE: tuple[str, ...] = SUPPORTED[len(CORE) :]
# What the shipped models (lingualite-small, lingualite-static) are distilled on: the 13 (see the docstring).
SHIPPED: tuple[str, ...] = CORE
SHIPPED_TRANSLATION_LANGS: tuple[str, ...] = tuple(code for code in SHIPPED if code != ENGLISH)
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
# The languages USE-m knows (its 16, Chinese in both scripts).
USE_M_LANGS: tuple[str, ...] = tuple(c for c in SUPPORTED if LANGUAGES[c].teacher == "use-m")


def teacher_knows(teacher: str, code: str | None) -> bool:
    """Whether ``teacher`` knows language ``code``: USE-m its 16 (:data:`USE_M_LANGS`), e5-small every language
    of the registry; any other teacher, or text of no registry language (``code`` None), counts as known
    (nothing here says otherwise)."""
    if code not in LANGUAGES:
        return True
    if teacher == _USE:
        return code in USE_M_LANGS
    return True


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
