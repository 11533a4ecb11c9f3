"""Bible evaluation sets (genre classification, paraphrase pairs) on a tiny synthetic bible.db."""

from __future__ import annotations

import re
import sqlite3
from collections import Counter
from pathlib import Path

import pytest
from evalset_fixtures import BIBLE_BOOKS, CHAPTERS, read_tsv

from lingualite.core.errors import LinguaLiteError
from lingualite.data.evalsets import bible_genres, bible_paraphrase
from lingualite.data.evalsets.common import in_test

_REF = re.compile(r"B(\d+)C(\d+)V(\d+)")


def _refs(text: str) -> list[tuple[int, int, int]]:
    return [tuple(int(x) for x in m.groups()) for m in _REF.finditer(text)]


@pytest.mark.parametrize(
    ("book", "label"),
    [
        (1, "law"),
        (5, "law"),
        (6, "history"),
        (17, "history"),
        (18, "wisdom"),
        (22, "wisdom"),
        (23, "major_prophets"),
        (27, "major_prophets"),
        (28, "minor_prophets"),
        (39, "minor_prophets"),
        (40, "gospels_acts"),
        (44, "gospels_acts"),
        (45, "epistles"),
        (65, "epistles"),
        (66, "apocalyptic"),
        (67, None),
        (0, None),
    ],
)
def test_book_label(book: int, label: str | None) -> None:
    assert bible_genres.book_label(book) == label


def test_choose_split() -> None:
    # The real canon: Revelation is the only apocalyptic book, so a book split cannot work.
    assert bible_genres.choose_split(range(1, 67)) == "chapter"
    # Two books per label, one on each side of the book hash: the book split is chosen.
    side = {n: in_test("bible-genres", bible_genres.BOOKS[n - 1]) for n in range(1, 66)}
    books = []
    for _, first, last in bible_genres._GROUPS[:-1]:
        group = range(first, last + 1)
        books += [next(b for b in group if side[b]), next(b for b in group if not side[b])]
    assert bible_genres.choose_split(books) == "book"


def test_genres_extract(bible_db: Path, tmp_path: Path) -> None:
    info = bible_genres.extract(bible_db.parent, tmp_path, ["fr", "de"])
    assert info["split_by"] == "chapter"  # one book per genre here
    chapters = {}
    for name in ("train.en.tsv", "test.en.tsv", "test.fr.tsv", "test.de.tsv"):
        rows = read_tsv(tmp_path / name, 2)
        found = {}
        for label, text in rows:
            refs = {(b, c) for b, c, _ in _refs(text)}
            assert len(refs) == 1  # one chapter per document
            (book, chapter) = refs.pop()
            assert label == bible_genres.book_label(book)
            found[(book, chapter)] = label
        assert info["files"][name]["lines"] == len(rows)
        chapters[name] = found
    assert not set(chapters["train.en.tsv"]) & set(chapters["test.en.tsv"])
    assert len(chapters["train.en.tsv"]) + len(chapters["test.en.tsv"]) == len(BIBLE_BOOKS) * CHAPTERS
    assert chapters["test.fr.tsv"] == chapters["test.en.tsv"] == chapters["test.de.tsv"]
    fr = (tmp_path / "test.fr.tsv").read_text(encoding="utf-8")
    assert "edl" in fr and "ed4" not in fr and "<i>" not in fr and "(9:6)" not in fr  # Segond, cleaned
    assert "ed4" in (tmp_path / "train.en.tsv").read_text(encoding="utf-8")  # World English Bible


def test_genres_book_split_keeps_books_apart(bible_db: Path, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(bible_genres, "choose_split", lambda books: "book")
    info = bible_genres.extract(bible_db, tmp_path, ["fr"])
    assert info["split_by"] == "book"
    train = {r[0] for _, t in read_tsv(tmp_path / "train.en.tsv", 2) for r in _refs(t)}
    test = {r[0] for _, t in read_tsv(tmp_path / "test.fr.tsv", 2) for r in _refs(t)}
    assert train and test and not train & test


def test_genres_cap(bible_db: Path, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(bible_genres, "MAX_WORDS", 12)
    bible_genres.extract(bible_db, tmp_path, ["fr"])
    assert all(len(t.split()) <= 12 for _, t in read_tsv(tmp_path / "train.en.tsv", 2))


def test_paraphrase_pairs(bible_db: Path, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(bible_paraphrase, "TRAIN_CAP", 51)
    monkeypatch.setattr(bible_paraphrase, "TEST_CAP", 40)
    info = bible_paraphrase.extract(bible_db, tmp_path, ["fr", "de", "es", "it"])
    assert sorted(p.name for p in tmp_path.glob("*.tsv")) == [
        "test.de.tsv",
        "test.en.tsv",
        "test.fr.tsv",
        "train.en.tsv",
    ]
    assert info["skipped_languages"] == ["es", "it"]  # one edition each
    sides: dict[str, set[tuple[int, int]]] = {}
    editions = {"train.en.tsv": "4k3", "test.en.tsv": "4k3", "test.fr.tsv": "lo5", "test.de.tsv": "es"}
    for name, eds in editions.items():
        rows = read_tsv(tmp_path / name, 3)
        labels = Counter(label for _, _, label in rows)
        assert len(rows) == (51 if name.startswith("train") else 40)
        assert labels["1"] - labels["0"] in (0, 1)  # balanced (odd cap: one more positive)
        chapters = set()
        for s1, s2, label in rows:
            (r1,), (r2,) = _refs(s1), _refs(s2)
            assert s1 != s2
            assert r1[:2] == r2[:2]  # always the same chapter
            assert (r1 == r2) == (label == "1")  # positive = same verse, negative = another verse
            e1, e2 = re.search(r"In ed(\w)", s1).group(1), re.search(r"In ed(\w)", s2).group(1)
            assert e1 != e2 and e1 in eds and e2 in eds  # two editions of the language
            chapters.add(r1[:2])
        sides[name] = chapters
        assert info["files"][name]["labels"] == dict(sorted(labels.items()))
    assert not sides["train.en.tsv"] & (sides["test.en.tsv"] | sides["test.fr.tsv"] | sides["test.de.tsv"])
    text = "".join(p.read_text(encoding="utf-8") for p in tmp_path.glob("*.tsv"))
    assert "COPYRIGHTED" not in text


def test_paraphrase_deterministic(bible_db: Path, tmp_path: Path) -> None:
    bible_paraphrase.extract(bible_db, tmp_path / "a", ["de"])
    bible_paraphrase.extract(bible_db, tmp_path / "b", ["de"])
    for name in ("train.en.tsv", "test.de.tsv"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()


def test_paraphrase_never_reads_copyrighted(bible_db: Path) -> None:
    assert not {e for eds in bible_paraphrase.EDITIONS.values() for e in eds} & bible_paraphrase.COPYRIGHTED
    conn = sqlite3.connect(bible_db)
    try:
        with pytest.raises(LinguaLiteError, match="copyrighted"):
            bible_paraphrase.read_verses(conn, "2")
    finally:
        conn.close()


def test_paraphrase_negative_needs_another_verse() -> None:
    one_verse_chapters = {
        ed: {(1, c, 1): f"edition {ed} chapter {c} only verse" for c in range(1, 30)} for ed in ("a", "b")
    }
    rows = bible_paraphrase.make_pairs(one_verse_chapters, test=False, cap=100)
    assert len(rows) == 1 and rows[0][2] == "1"  # no negative can be built: only the first positive is kept


def test_missing_db(tmp_path: Path) -> None:
    with pytest.raises(LinguaLiteError, match="bible.db not found"):
        bible_genres.extract(tmp_path, tmp_path / "out", ["fr"])


def test_genres_in_russian_and_not_where_no_free_edition(bible_db: Path, tmp_path: Path) -> None:
    conn = sqlite3.connect(bible_db)
    rows = conn.execute("SELECT id, bNumber, cNumber, vNumber FROM bible WHERE bbName = '4'").fetchall()
    conn.executemany(
        "INSERT INTO bible VALUES (?, 'r', ?, ?, ?, ?)",
        [(10_000 + i, b, c, v, f"(22:1) Стих B{b}C{c}V{v} читается хорошо.") for i, b, c, v in rows],
    )
    conn.commit()
    conn.close()
    info = bible_genres.extract(bible_db, tmp_path, ["ru"])
    ru = read_tsv(tmp_path / "test.ru.tsv", 2)
    assert len(ru) == info["files"]["test.en.tsv"]["lines"] and info["editions"]["ru"] == "r"
    assert all("Стих" in text and "(22:1)" not in text for _, text in ru)
    assert bible_genres.lacking(["ru", "zh", "nl"]).keys() == {"zh", "nl"}
    with pytest.raises(LinguaLiteError, match="no zh edition"):
        bible_genres.extract(bible_db, tmp_path, ["zh"])
    lacking = bible_paraphrase.lacking(["fr", "ru", "ja"])
    assert lacking["ru"].startswith("one public-domain edition") and "copyrighted" in lacking["ja"]
    assert set(lacking) == {"ru", "ja"}  # French has three editions
