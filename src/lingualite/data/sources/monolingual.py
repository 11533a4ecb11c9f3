"""General-domain monolingual sentences from Debian packages (opt-in source ``monolingual``): text without a
translation, for distillation with a multilingual teacher (``data.monolingual_files`` of the distill config,
:mod:`lingualite.distill.monolingual`).

``lingualite data fetch --sources monolingual`` writes ``DATA_DIR/corpora/monolingual/<lang>.txt``, one
sentence per line, for English and each requested language. Packages (any version) and licences:

* fortune cookies: ``fortunes`` (en; BSD fortune data), ``fortunes-de`` (GPL-2+), ``fortunes-es``
  (GPL-2+), ``fortunes-it`` (public domain); there is no French fortunes package in Debian. Quotations,
  proverbs, jokes: the most general text packages hold. ASCII-art files and the offensive (``off/``)
  collections are skipped; the attribution line of each quotation is dropped.
* ``debian-reference-<lang>`` (GPL-2+): the Debian Reference manual, one HTML file per chapter; a
  paragraph of a translation identical to one of the English manual is untranslated and is dropped there.
* ``manpages-<fr|de|es|it>`` (translations GPL-3+, per page): translated manual pages (groff), running
  text only (no ``.nf`` blocks, no option lists).

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

from lingualite.data.sources.apt import download_and_unpack
from lingualite.data.sources.common import ALL_LANGS
from lingualite.data.sources.plain_text import (
    fortune_entries,
    html_paragraphs,
    man_paragraphs,
    prose_sentences,
)
from lingualite.errors import LinguaLiteError
from lingualite.io_utils import atomic_path

__all__ = ["NAME", "english", "extract", "fetch", "language_sentences", "outputs", "packages", "scriptural"]

NAME = "monolingual"
FORTUNES = {"en": "fortunes", "de": "fortunes-de", "es": "fortunes-es", "it": "fortunes-it"}
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


def english(sentence: str) -> bool:
    """At least a quarter of the words are English function words (an untranslated sentence)."""
    words = [w.strip(".,;:!?()\"'").lower() for w in sentence.split()]
    return sum(w in _ENGLISH for w in words) >= 0.25 * len(words)


def packages(langs: Sequence[str]) -> list[str]:
    """The Debian packages behind English and ``langs``."""
    out: list[str] = []
    for lang in ("en", *langs):
        out += [FORTUNES[lang]] if lang in FORTUNES else []
        out.append(f"debian-reference-{lang}")
        out += [] if lang == "en" else [f"manpages-{lang}"]
    return list(dict.fromkeys(out))


def fetch(cache_dir: Path, langs: Sequence[str] = ALL_LANGS) -> Path:
    """Download and unpack the packages (``cache_dir/{debs,root}``, once per package); returns the root."""
    return download_and_unpack(packages(langs), Path(cache_dir))


def outputs(out_dir: Path, langs: Sequence[str]) -> dict[str, Path]:
    """``out_dir/monolingual/<lang>.txt`` for English and ``langs``."""
    return {lang: Path(out_dir) / NAME / f"{lang}.txt" for lang in ("en", *langs)}


def _fortune_files(root: Path, lang: str) -> list[Path]:
    folder = root / _FORTUNE_DIR / ("" if lang == "en" else lang)
    if lang not in FORTUNES or not folder.is_dir():
        return []
    return sorted(
        p
        for p in folder.iterdir()
        if p.is_file() and not p.is_symlink() and not p.suffix and p.name not in _ART
    )


def _fortune_paragraphs(root: Path, lang: str) -> Iterator[str]:
    for path in _fortune_files(root, lang):
        for text, attribution in fortune_entries(path):
            if not scriptural(text, attribution):
                yield text


def _reference_paragraphs(root: Path, lang: str) -> Iterator[str]:
    folder = root / _REFERENCE_DIR
    english: set[str] = set()
    if lang != "en":
        english = {p for f in sorted(folder.glob("*.en.html")) for p in html_paragraphs(f)}
    for path in sorted(folder.glob(f"*.{lang}.html")):
        yield from (p for p in html_paragraphs(path) if p not in english)


def _man_paragraphs(root: Path, lang: str) -> Iterator[str]:
    if lang == "en":
        return
    for path in sorted((root / _MAN_DIR / lang).glob("man*/*")):
        if path.is_file() and not path.is_symlink():
            yield from man_paragraphs(path)


def language_sentences(root: Path, lang: str) -> Iterator[str]:
    """Distinct prose sentences of one language: fortunes, then the Debian Reference, then man pages."""
    seen: set[str] = set()
    for reader in (_fortune_paragraphs, _reference_paragraphs, _man_paragraphs):
        for sentence in prose_sentences(reader(root, lang), lang):
            if sentence in seen or scriptural(sentence) or (lang != "en" and english(sentence)):
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
