"""LibreOffice help modules: zero-shot cross-lingual document classification (train English, test others).

Document = one help page (``help/<lang>/text/<module>/**.html``); label = its module folder (swriter, scalc,
simpress, sdraw, smath, sdatabase, schart, sbasic; the generic ``shared`` pages are dropped). Text = the
page's paragraphs and headings (``libreoffice.parse_page``) joined with spaces and cut to the first
:data:`MAX_WORDS` words (the median page has ~150 words, a few have thousands).

- Pages with fewer than :data:`MIN_EN_WORDS` English words are dropped.
- Pages are split 50/50 by a stable hash of their path: a train page is only in ``train.en.tsv``, a test
  page only in the test files (``test.en.tsv`` is the in-language reference).
- In a translated page, paragraphs identical (case-insensitively) to a paragraph of the English page are
  dropped (untranslated text: about 14% in es, 6% in fr, 1% in de/it); a translated page left with fewer
  than :data:`MIN_XX_WORDS` words is dropped.
- Lines are in a fixed pseudo-random order (hash of the page path), not grouped by label.

Easy cues remain ("LibreOffice Calc" names the module): expect higher accuracy than on news (MLDoc).
Files: ``train.en.tsv``, ``test.{en,fr,de,es,it}.tsv``, lines ``label<TAB>text``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from lingualite.data.evalsets.common import cap_words, file_counts, in_test, stable_hash, write_tsv
from lingualite.data.sources import libreoffice
from lingualite.data.sources.common import ALL_LANGS
from lingualite.data.sources.libreoffice import HELP_DIRS, find_help_root, parse_page
from lingualite.errors import LinguaLiteError

__all__ = ["LABELS", "MAX_WORDS", "MIN_EN_WORDS", "MIN_XX_WORDS", "NAME", "extract", "fetch", "output_files"]

NAME = "libreoffice_modules"
FOLDER = "classify/libreoffice-modules"
SOURCE = "libreoffice"
TASK = "classification"
DESCRIPTION = (
    "LibreOffice help pages labelled by application module (8 labels); train on English pages, test on "
    "the translations of held-out pages"
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
    return ["train.en.tsv", "test.en.tsv", *(f"test.{lang}.tsv" for lang in langs)]


def _label(page: str) -> str | None:
    module = page.split("/", 1)[0]
    return module if module in LABELS else None


def _text(paragraphs: Sequence[str]) -> str:
    return " ".join(p for p in paragraphs if p)


def _rows(docs: list[tuple[str, str, str]]) -> Iterator[tuple[str, str]]:
    """(label, text) in a fixed pseudo-random order of the page paths."""
    for _, label, text in sorted(docs, key=lambda d: (stable_hash(_SALT, "order", d[0]), d[0])):
        yield label, text


def extract(raw: Path, set_dir: Path, langs: Sequence[str] = ALL_LANGS) -> dict[str, Any]:
    """Write the train/test files into ``set_dir``; return per-file counts and split facts."""
    root = find_help_root(Path(raw))
    missing = [lang for lang in langs if not (root / HELP_DIRS[lang] / "text").is_dir()]
    if missing:
        raise LinguaLiteError(f"{root}: no help pages for {', '.join(missing)}; fetch them first")
    en_dir = root / HELP_DIRS["en"] / "text"
    train: list[tuple[str, str, str]] = []
    test_en: list[tuple[str, str, str]] = []
    test_pages: dict[str, tuple[str, list[str]]] = {}  # page -> (label, English paragraphs)
    for path in sorted(en_dir.rglob("*.html")):
        page = path.relative_to(en_dir).as_posix()
        label = _label(page)
        if label is None:
            continue
        paragraphs = list(parse_page(path).values())
        text = _text(paragraphs)
        if len(text.split()) < MIN_EN_WORDS:
            continue
        doc = (page, label, cap_words(text, MAX_WORDS))
        if in_test(_SALT, page):
            test_en.append(doc)
            test_pages[page] = (label, paragraphs)
        else:
            train.append(doc)

    files: dict[str, Any] = {}
    set_dir = Path(set_dir)
    write_tsv(set_dir / "train.en.tsv", _rows(train))
    write_tsv(set_dir / "test.en.tsv", _rows(test_en))
    for lang in langs:
        xx_dir = root / HELP_DIRS[lang] / "text"
        docs: list[tuple[str, str, str]] = []
        for page, (label, en_pars) in test_pages.items():
            xx_path = xx_dir / page
            if not xx_path.is_file():
                continue
            english = {p.casefold() for p in en_pars}
            text = _text([p for p in parse_page(xx_path).values() if p.casefold() not in english])
            if len(text.split()) >= MIN_XX_WORDS:
                docs.append((page, label, cap_words(text, MAX_WORDS)))
        write_tsv(set_dir / f"test.{lang}.tsv", _rows(docs))
    for name in output_files(langs):
        files[name] = file_counts(set_dir / name, label_column=0)
    return {
        "files": files,
        "labels": list(LABELS),
        "split": "pages 50/50 by a stable hash (blake2b) of the page path; no page in both train and test",
        "caps": {"max_words": MAX_WORDS, "min_en_words": MIN_EN_WORDS, "min_translated_words": MIN_XX_WORDS},
    }
