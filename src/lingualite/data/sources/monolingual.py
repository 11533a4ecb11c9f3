"""General-domain monolingual sentences from Debian packages (opt-in source ``monolingual``): text without a
translation, for distillation with a multilingual teacher (``data.monolingual_files`` of the distill config,
:mod:`lingualite.recipes.distill.untranslated`).

``lingualite data fetch --sources monolingual`` writes ``DATA_DIR/corpora/monolingual/<lang>.txt``, one
sentence per line, for English and each requested language. Packages (any version) and licences:

* fortune cookies: ``fortunes`` (en; BSD fortune data), ``fortunes-de`` (GPL-2+), ``fortunes-es``
  (GPL-2+), ``fortunes-it`` (public domain), ``fortunes-pl`` (GPL-2+), ``fortunes-ru`` (GPL-2+) and
  ``fortunes-zh`` (GPL-3+; its ``chinese`` file of modern prose: Debian's code of conduct, tips; its Tang and
  Song poems are not prose and are left out), ``fortunes-br`` (Brazilian Portuguese, its ``brasil`` file;
  GPL-2+), ``fortunes-bg`` (Bulgarian proverbs and quotations; GPL-1+) and ``fortunes-cs`` (Czech; GPL-3+;
  its Slovak folder is empty); there is no French, Dutch, Turkish, Japanese or Korean fortunes
  package in Debian. Quotations, proverbs, jokes: the most general text packages hold.
  ASCII-art files and the offensive (``off/``) collections are skipped; the attribution line of each
  quotation is dropped; terminal colour codes are removed.
* ``debian-reference-<lang>`` (GPL-2+; en, fr, de, es, it, ja, pt-br, zh-cn, zh-tw, id): the Debian Reference
  manual, one HTML file per chapter; a paragraph of a translation identical to one of the English manual is
  untranslated and is dropped there.
* ``manpages-<lang>`` (fr, de, es, it, nl, pl, pt-br, ru, tr, cs, da, el, fi, hu, id, nb, ro, sv, uk, vi: the
  manpages-l10n translations, GPL-3+ per page; ja: JM project, the licence of each original page; zh:
  GPL-2+/GFDL per page, its ``zh_CN`` pages for ``zh`` and ``zh_TW`` for ``zht``): translated manual pages
  (groff), running text only (no ``.nf`` blocks, no option lists).

Korean, Arabic, Thai, Catalan, Slovak, Slovenian, Hindi, Hebrew and Persian have none of these packages
(:func:`lacking`); Greek and Romanian have a few dozen or hundred sentences. Portuguese is Brazilian and
Chinese Simplified, as in every source (:func:`~lingualite.data.sources.common.locale_name`). Wrapped lines of
Chinese and Japanese text are joined without a space (:func:`~lingualite.text.segmentation.join_lines`).

Sentences: paragraphs (a fortune entry, an HTML ``<p>``, a man page paragraph) are split with the shared
rule-based splitter and kept when they read as prose (:func:`lingualite.data.sources.plain_text.prose_sentences`),
deduplicated per language. Never Bible text: the Bible is a held-out evaluation source (leave-one-source-out),
so a fortune entry that quotes scripture (a Bible word or a book/chapter:verse attribution) is dropped. Test
and validation sentences are also excluded at training time (``data.monolingual_exclude_files``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from lingualite.core.errors import LinguaLiteError
from lingualite.core.io_utils import atomic_path
from lingualite.data.sources.apt import download_and_unpack
from lingualite.data.sources.common import ALL_LANGS, locale_name
from lingualite.data.sources.plain_text import (
    PROSE_RULES,
    fortune_entries,
    html_paragraphs,
    man_paragraphs,
    prose_sentences,
)
from lingualite.text.languages import ENGLISH, LANGUAGES
from lingualite.text.scripts import script_units

__all__ = [
    "NAME",
    "english",
    "extract",
    "fetch",
    "lacking",
    "language_sentences",
    "outputs",
    "own_script",
    "packages",
    "scriptural",
]

NAME = "monolingual"
EXTRACTION = PROSE_RULES  # its text is kept by the prose rules
# The packages of each language (Portuguese Brazilian, Chinese Simplified: see common.locale_name).
FORTUNES = {
    "en": "fortunes",
    "de": "fortunes-de",
    "es": "fortunes-es",
    "it": "fortunes-it",
    "pl": "fortunes-pl",
    "pt": "fortunes-br",
    "ru": "fortunes-ru",
    "zh": "fortunes-zh",
    "bg": "fortunes-bg",
    "cs": "fortunes-cs",  # its sk folder is empty in Debian 12
}
REFERENCES = {
    lang: f"debian-reference-{_suffix}"
    for lang, _suffix in {
        "en": "en",
        "fr": "fr",
        "de": "de",
        "es": "es",
        "it": "it",
        "ja": "ja",
        "pt": "pt-br",
        "zh": "zh-cn",
        "zht": "zh-tw",
        "id": "id",
    }.items()
}
MANPAGES = {
    "fr": "manpages-fr",
    "de": "manpages-de",
    "es": "manpages-es",
    "it": "manpages-it",
    "nl": "manpages-nl",
    "pl": "manpages-pl",
    "pt": "manpages-pt-br",
    "ru": "manpages-ru",
    "tr": "manpages-tr",
    "zh": "manpages-zh",  # zh_CN and zh_TW pages: zh reads zh_CN, zht zh_TW
    "zht": "manpages-zh",
    "ja": "manpages-ja",
    "cs": "manpages-cs",
    "da": "manpages-da",
    "el": "manpages-el",
    "fi": "manpages-fi",
    "hu": "manpages-hu",
    "id": "manpages-id",
    "nb": "manpages-nb",
    "ro": "manpages-ro",
    "sv": "manpages-sv",
    "uk": "manpages-uk",
    "vi": "manpages-vi",
}
# fortunes-zh and fortunes-br put their files beside the English ones: whose language each is, and whether it
# is prose (the Tang and Song poems are not).
_TOP_FORTUNES = {
    "chinese": ("zh", True),
    "tang300": ("zh", False),
    "song100": ("zh", False),
    "brasil": ("pt", True),
}
_FORTUNE_DIR = Path("usr/share/games/fortunes")
_REFERENCE_DIR = Path("usr/share/debian-reference")
_MAN_DIR = Path("usr/share/man")
_ART = {"art", "ascii-art", "asciiart", "banner"}

_BIBLE = re.compile(
    r"\b(bib(le|el|lia|bia|lisch|lical|lico)|testament|gospel|evangeli|psalm|jesus|jesu|ges[uù]|christ|"
    r"yahweh|jehova|apost|prophet|profet|genesis|g[eé]n[eè]si|exodus|[eé]xodo|esodo)",
    re.I,
)
_VERSE = re.compile(r"\b\d+\s*[:,]\s*\d+")
# English function words that French, German, Spanish and Italian do not use: untranslated English in a
# translated man page or manual (common in es / it) is dropped from those languages' files.
_ENGLISH = frozenset(
    [
        "the",
        "is",
        "are",
        "of",
        "and",
        "to",
        "this",
        "that",
        "with",
        "be",
        "by",
        "if",
        "not",
        "which",
        "when",
        "you",
        "can",
    ]
)


def scriptural(text: str, attribution: str = "") -> bool:
    """A Bible word in the text or attribution, or a chapter:verse reference in the attribution."""
    return bool(_BIBLE.search(text) or _BIBLE.search(attribution) or _VERSE.search(attribution))


# English function words that are ordinary words of another language ("Dit is het", "To jest plik"): not
# evidence of English in that language's text.
_ALSO_NATIVE = {
    "nl": frozenset({"is", "of"}),
    "pl": frozenset({"to", "by"}),
    "cs": frozenset({"to"}),
    "da": frozenset({"to", "by", "be"}),
    "nb": frozenset({"to", "by"}),
    "sv": frozenset({"by"}),
    "hu": frozenset({"is"}),
    "ro": frozenset({"are"}),
}


def english(sentence: str, lang: str | None = None) -> bool:
    """At least a quarter of the words are English function words (an untranslated sentence), not counting
    those that are also words of ``lang`` (Dutch "is", "of"; Polish "to", "by")."""
    words = [w.strip(".,;:!?()\"'").lower() for w in sentence.split()]
    function_words = _ENGLISH - _ALSO_NATIVE.get(lang or "", frozenset())
    return sum(w in function_words for w in words) >= 0.25 * len(words)


def own_script(sentence: str, lang: str) -> bool:
    """For a language not written in Latin letters, at least half the sentence's script units (words,
    or Han/Kana characters) are in its own scripts: an untranslated English sentence is not Russian."""
    row = LANGUAGES.get(lang)
    if row is None or row.latin:
        return True
    units = script_units(sentence)
    return sum(units[s] for s in row.scripts) >= 0.5 * sum(units.values())


def packages(langs: Sequence[str]) -> list[str]:
    """The Debian packages behind English and ``langs``."""
    out = [
        table[lang]
        for lang in (ENGLISH, *langs)
        for table in (FORTUNES, REFERENCES, MANPAGES)
        if lang in table
    ]
    return list(dict.fromkeys(out))


def lacking(langs: Sequence[str], raw: Path | None = None) -> dict[str, str]:
    """The languages of ``langs`` that no fortunes, Debian Reference or man page package is written in."""
    return {
        lang: "Debian has no fortunes, Debian Reference or man pages in it"
        for lang in langs
        if not any(lang in table for table in (FORTUNES, REFERENCES, MANPAGES))
    }


def fetch(cache_dir: Path, langs: Sequence[str] = ALL_LANGS) -> Path:
    """Download and unpack the packages (``cache_dir/{debs,root}``, once per package); returns the root."""
    return download_and_unpack(packages(langs), Path(cache_dir))


def outputs(out_dir: Path, langs: Sequence[str]) -> dict[str, Path]:
    """``out_dir/monolingual/<lang>.txt`` for English and ``langs``."""
    return {lang: Path(out_dir) / NAME / f"{lang}.txt" for lang in ("en", *langs)}


def _fortune_files(root: Path, lang: str) -> list[Path]:
    top = lang in (ENGLISH, "zh", "pt")  # all in the top folder
    folder = root / _FORTUNE_DIR / ("" if top else lang)
    if lang not in FORTUNES or not folder.is_dir():
        return []
    files = [
        p
        for p in folder.iterdir()
        if p.is_file() and not p.is_symlink() and not p.suffix and p.name not in _ART
    ]
    if not top:
        return sorted(files)
    if lang == ENGLISH:
        return sorted(p for p in files if p.name not in _TOP_FORTUNES)
    return sorted(p for p in files if _TOP_FORTUNES.get(p.name) == (lang, True))


def _fortune_paragraphs(root: Path, lang: str) -> Iterator[str]:
    for path in _fortune_files(root, lang):
        for text, attribution in fortune_entries(path):
            if not scriptural(text, attribution):
                yield from text.split("\n")


def _reference_paragraphs(root: Path, lang: str) -> Iterator[str]:
    folder = root / _REFERENCE_DIR
    if lang not in REFERENCES:
        return
    english: set[str] = set()
    if lang != "en":
        english = {p for f in sorted(folder.glob("*.en.html")) for p in html_paragraphs(f)}
    suffix = REFERENCES[lang].removeprefix("debian-reference-")  # the pages' language tag: pt-br, zh-cn
    for path in sorted(folder.glob(f"*.{suffix}.html")):
        yield from (p for p in html_paragraphs(path) if p not in english)


def _man_paragraphs(root: Path, lang: str) -> Iterator[str]:
    if lang == "en":
        return
    if lang not in MANPAGES:
        return
    for path in sorted((root / _MAN_DIR / locale_name(lang)).glob("man*/*")):
        if path.is_file() and not path.is_symlink():
            yield from man_paragraphs(path)


def language_sentences(root: Path, lang: str) -> Iterator[str]:
    """Distinct prose sentences of one language: fortunes, then the Debian Reference, then man pages."""
    seen: set[str] = set()
    for reader in (_fortune_paragraphs, _reference_paragraphs, _man_paragraphs):
        for sentence in prose_sentences(reader(root, lang), lang):
            if sentence in seen or scriptural(sentence) or (lang != "en" and english(sentence, lang)):
                continue
            if not own_script(sentence, lang):
                continue
            seen.add(sentence)
            yield sentence


def extract(raw: Path, out_dir: Path, langs: Sequence[str] = ALL_LANGS) -> dict[str, int]:
    """Write ``out_dir/monolingual/<lang>.txt`` for English and ``langs``; return sentences per language."""
    root = Path(raw)
    if not (root / _REFERENCE_DIR).is_dir():
        raise LinguaLiteError(f"{root}: no unpacked packages (usr/share/debian-reference); fetch them first")
    counts: dict[str, int] = {}
    for lang, path in outputs(out_dir, langs).items():
        n = 0
        with atomic_path(path) as tmp, open(tmp, "w", encoding="utf-8", newline="\n") as fh:
            for sentence in language_sentences(root, lang):
                fh.write(sentence + "\n")
                n += 1
        if n == 0:
            raise LinguaLiteError(f"{root}: no {lang} sentences found; fetch the packages for {lang} first")
        counts[lang] = n
    return counts
