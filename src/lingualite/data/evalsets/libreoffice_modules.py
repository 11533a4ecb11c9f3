"""LibreOffice help modules: zero-shot cross-lingual document classification (train English, test others).

Document = one help page (``help/<lang>/text/<module>/**.html``); label = its module folder (swriter, scalc,
simpress, sdraw, smath, sdatabase, schart, sbasic; the generic ``shared`` pages are dropped). Text = the
page's paragraphs and headings (``libreoffice.parse_page``) joined with spaces and cut to the first
:data:`MAX_WORDS` words (the median page has ~150 words, a few have thousands). Words of Chinese and Japanese
are counted and cut as their characters scaled to words (:func:`~lingualite.text.segmentation.length_units`),
so an unspaced page is neither dropped as "one word" nor kept whole.

- Pages with fewer than :data:`MIN_EN_WORDS` English words are dropped.
- Pages are split 50/50 by a stable hash of their path: a train page is only in the ``train.*.tsv`` files,
  a test page only in the ``test.*.tsv`` files (``test.en.tsv`` is the in-language reference). The
  translated train pages (``train.<lang>.tsv``) serve the reverse direction of paper 000's Table 3 (fit on
  a language, score English: ``lingualite eval classify --set ... --direction xx2en``).
- In a translated page, paragraphs identical (case-insensitively) to a paragraph of the English page are
  dropped (untranslated text: about 14% in es, 6% in fr, 1% in de/it, more in the newer translations); a
  translated page left with fewer than :data:`MIN_XX_WORDS` words is dropped.
- Lines are in a fixed pseudo-random order (hash of the page path), not grouped by label.

Easy cues remain ("LibreOffice Calc" names the module): expect higher accuracy than on news (MLDoc).
Files: ``train.{en,<lang>}.tsv``, ``test.{en,<lang>}.tsv`` for every supported language (every one has a
help package), lines ``label<TAB>text``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from lingualite.core.errors import LinguaLiteError
from lingualite.data.evalsets.common import (
    cap_words,
    file_counts,
    in_test,
    stable_hash,
    word_count,
    write_tsv,
)
from lingualite.data.sources import libreoffice
from lingualite.data.sources.common import ALL_LANGS
from lingualite.data.sources.libreoffice import HELP_DIRS, find_help_root, parse_page

__all__ = ["LABELS", "MAX_WORDS", "MIN_EN_WORDS", "MIN_XX_WORDS", "NAME", "extract", "fetch", "output_files"]

NAME = "libreoffice_modules"
FOLDER = "classify/libreoffice-modules"
SOURCE = "libreoffice"
TASK = "classification"
DESCRIPTION = (
    "LibreOffice help pages labelled by application module (8 labels); train on English pages, test on "
    "the translations of held-out pages (or train on translations, test on English held-out pages)"
)
LICENCE = "MPL-2.0 (LibreOffice help, Debian packages libreoffice-help-*)"
FORMAT = "label<TAB>text, one page a line"

LABELS: tuple[str, ...] = ("swriter", "scalc", "simpress", "sdraw", "smath", "sdatabase", "schart", "sbasic")
MIN_EN_WORDS = 20
MIN_XX_WORDS = 10
MAX_WORDS = 256
_SALT = "libreoffice-modules"


def fetch(cache_dir: Path, langs: Sequence[str] = ALL_LANGS) -> Path:
    """Download and unpack the help packages (shared with the corpus extractor); return the help root."""
    return libreoffice.fetch(cache_dir, langs)


def output_files(langs: Sequence[str]) -> list[str]:
    return [f"{split}.{lang}.tsv" for split in ("train", "test") for lang in ("en", *langs)]


def _label(page: str) -> str | None:
    module = page.split("/", 1)[0]
    return module if module in LABELS else None


def _text(paragraphs: Sequence[str]) -> str:
    return " ".join(p for p in paragraphs if p)


def _rows(docs: list[tuple[str, str, str]]) -> Iterator[tuple[str, str]]:
    """(label, text) in a fixed pseudo-random order of the page paths."""
    for _, label, text in sorted(docs, key=lambda d: (stable_hash(_SALT, "order", d[0]), d[0])):
        yield label, text


def _translated(
    xx_dir: Path, pages: dict[str, tuple[str, list[str]]], lang: str
) -> list[tuple[str, str, str]]:
    """The translations of ``pages`` that exist, without paragraphs left in English; too-short ones dropped."""
    docs = []
    for page, (label, en_pars) in pages.items():
        xx_path = xx_dir / page
        if not xx_path.is_file():
            continue
        english = {p.casefold() for p in en_pars}
        text = _text([p for p in parse_page(xx_path).values() if p.casefold() not in english])
        if word_count(text, lang) >= MIN_XX_WORDS:
            docs.append((page, label, cap_words(text, MAX_WORDS, lang)))
    return docs


def extract(raw: Path, set_dir: Path, langs: Sequence[str] = ALL_LANGS) -> dict[str, Any]:
    """Write the train/test files into ``set_dir``; return per-file counts and split facts."""
    root = find_help_root(Path(raw))
    missing = [lang for lang in langs if not (root / HELP_DIRS[lang] / "text").is_dir()]
    if missing:
        raise LinguaLiteError(f"{root}: no help pages for {', '.join(missing)}; fetch them first")
    en_dir = root / HELP_DIRS["en"] / "text"
    pages: dict[bool, dict[str, tuple[str, list[str]]]] = {False: {}, True: {}}  # in test -> page -> ...
    for path in sorted(en_dir.rglob("*.html")):
        page = path.relative_to(en_dir).as_posix()
        label = _label(page)
        if label is None:
            continue
        paragraphs = list(parse_page(path).values())
        if len(_text(paragraphs).split()) >= MIN_EN_WORDS:
            pages[in_test(_SALT, page)][page] = (label, paragraphs)

    files: dict[str, Any] = {}
    set_dir = Path(set_dir)
    for split, test in (("train", False), ("test", True)):
        english = [
            (page, label, cap_words(_text(pars), MAX_WORDS)) for page, (label, pars) in pages[test].items()
        ]
        write_tsv(set_dir / f"{split}.en.tsv", _rows(english))
        for lang in langs:
            write_tsv(
                set_dir / f"{split}.{lang}.tsv",
                _rows(_translated(root / HELP_DIRS[lang] / "text", pages[test], lang)),
            )
    for name in output_files(langs):
        files[name] = file_counts(set_dir / name, label_column=0)
    return {
        "files": files,
        "labels": list(LABELS),
        "split": "pages 50/50 by a stable hash (blake2b) of the page path; no page in both train and test",
        "caps": {"max_words": MAX_WORDS, "min_en_words": MIN_EN_WORDS, "min_translated_words": MIN_XX_WORDS},
    }
