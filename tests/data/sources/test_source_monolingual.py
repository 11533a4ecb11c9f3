"""The opt-in monolingual source: fortunes, Debian Reference HTML and man pages built in the test, prose
sentences out, ASCII art, offensive collections, scripture and untranslated English left out."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from lingualite.core.errors import LinguaLiteError
from lingualite.data import sources
from lingualite.data.sources import monolingual as mono
from lingualite.data.sources.plain_text import fortune_entries, man_paragraphs, prose_sentences

FORTUNES = "usr/share/games/fortunes"


def _write(path: Path, text: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


MAN_PAGE = r""".\" a comment line
.TH TEST 1 "2022" "coreutils" "Commandes"
.SH NOM
test \- vérifier un fichier
.SH DESCRIPTION
.PP
Quitter avec un code de retour déterminé par \fIEXPRESSION\fP et
l'état du \fBfichier\fR donné.
.nf
Exemple de code qui ne compte pas.
.fi
.TP
\fB\-\-help\fP
afficher l'aide et quitter.
.PP
The value assigned to this variable determines the compatibility level.
"""


@pytest.fixture
def unpacked(tmp_path: Path) -> Path:
    root = tmp_path / "root"
    _write(
        root / FORTUNES / "wisdom",
        "A clash of doctrine is not a disaster, it is an opportunity.\n\t\t-- Anonymous\n%\n"
        "Blessed are the meek, for they shall inherit the earth.\n\t\t-- Matthew 5:5\n%\n"
        "Too short.\n%\nA cloud does not know why it moves.  But the sky knows the\nreasons.\n",
    )
    _write(root / FORTUNES / "wisdom.dat", b"\x00\x00\x00\x02binary index")
    _write(root / FORTUNES / "art", "Art is a lie that makes us realize the truth.\n")
    _write(root / FORTUNES / "it" / "italia", "Piove sempre sul latte versato, come sempre.\n%\n")
    (root / FORTUNES / "italia").symlink_to("it/italia")
    _write(root / FORTUNES / "es" / "refranes", "Abad de aldea, mucho canta y poco medra.\n")
    _write(root / FORTUNES / "es" / "off" / "rudo", "Una frase ofensiva que no debe salir.\n")
    _write(
        root / FORTUNES / "de" / "zitate",
        "Gewinn ist so notwendig wie die Luft zum Atmen.\n".encode("latin-1"),
    )
    reference = root / "usr/share/debian-reference"
    _write(
        reference / "ch01.en.html", "<p>Debian is a free operating system.</p><p>Keep it simple and safe.</p>"
    )
    _write(
        reference / "ch01.fr.html",
        "<p>Debian est un syst&egrave;me <a href='x'>libre</a>.</p><p>Keep it simple and safe.</p>"
        "<p>Voir https://www.debian.org pour plus de d&eacute;tails sur ce sujet.</p>",
    )
    for lang in ("de", "es", "it"):
        _write(reference / f"ch01.{lang}.html", f"<p>Ein Satz auf {lang} mit Worten.</p>")
    _write(root / "usr/share/man/fr/man1/test.1.gz", gzip.compress(MAN_PAGE.encode()))
    return root


def test_readers_give_entries_paragraphs_and_prose() -> None:
    assert list(
        prose_sentences(["Ok then.", "a lower start here.", "Numbers 12 34 56 78 90.", "Fine, it works!"])
    ) == ["Fine, it works!"]
    assert list(prose_sentences(["« Bonjour tout le monde », dit-il. Puis il part vite."])) == [
        "« Bonjour tout le monde », dit-il.",
        "Puis il part vite.",
    ]


def test_prose_in_scripts_with_combining_marks_and_their_own_full_stops() -> None:
    """Hindi ends a sentence with a danda and a third of its characters are vowel signs and viramas (marks,
    not letters, in Unicode): both are prose; so is an Arabic question."""
    hindi = "यह एक बहुत अच्छी किताब है जिसे मैंने कल पढ़ा। क्या आप भी इसे पढ़ेंगे?"
    assert list(prose_sentences([hindi], "hi")) == [
        "यह एक बहुत अच्छी किताब है जिसे मैंने कल पढ़ा।",
        "क्या आप भी इसे पढ़ेंगे?",
    ]
    assert list(prose_sentences(["هل تريد أن تقرأ هذا الكتاب الجميل اليوم؟"], "ar")) == [
        "هل تريد أن تقرأ هذا الكتاب الجميل اليوم؟"
    ]


def test_a_stop_of_another_script_ends_no_sentence() -> None:
    """A French man page's table of ISO 8859-6 ends a row with the Arabic question mark: not French prose."""
    row = "Oct Décimal Caractère Description _ 254 172 AC VIRGULE ARABE 273 187 BB POINT-VIRGULE ARABE 277 191 BF ؟"
    assert list(prose_sentences([row], "fr")) == []
    assert list(prose_sentences(["यह एक बहुत अच्छी किताब है।"], "ar")) == []


def test_a_greek_question_is_prose_and_an_english_semicolon_is_not() -> None:
    """Greek ends a question with ``;`` (its question mark); a line of another language ending in a semicolon
    is no sentence."""
    question = "Θέλετε να αποθηκεύσετε τις αλλαγές στο έγγραφο; Οι αλλαγές θα χαθούν αλλιώς."
    assert list(prose_sentences([question], "el")) == [
        "Θέλετε να αποθηκεύσετε τις αλλαγές στο έγγραφο;",
        "Οι αλλαγές θα χαθούν αλλιώς.",
    ]
    assert list(prose_sentences(["Save the changes to the document before you go;"], "en")) == []


def test_man_pages_keep_running_text_only(tmp_path: Path) -> None:
    page = _write(tmp_path / "test.1.gz", gzip.compress(MAN_PAGE.encode()))
    paragraphs = man_paragraphs(page)
    assert "Quitter avec un code de retour déterminé par EXPRESSION et l'état du fichier donné." in paragraphs
    assert not any("Exemple de code" in p or "a comment" in p for p in paragraphs)
    assert "--help afficher l'aide et quitter." in paragraphs


def test_fortune_entries_split_text_and_attribution(unpacked: Path) -> None:
    entries = list(fortune_entries(unpacked / FORTUNES / "wisdom"))
    assert entries[0] == ("A clash of doctrine is not a disaster, it is an opportunity.", "Anonymous")
    assert entries[1][1] == "Matthew 5:5" and len(entries) == 4


def test_extract_writes_one_file_per_language(unpacked: Path, tmp_path: Path) -> None:
    out = tmp_path / "corpora"
    counts = mono.extract(unpacked, out, ("fr", "de", "es", "it"))
    text = {
        lang: (out / "monolingual" / f"{lang}.txt").read_text(encoding="utf-8").splitlines()
        for lang in counts
    }
    assert counts == {lang: len(lines) for lang, lines in text.items()}
    assert text["en"] == [
        "A clash of doctrine is not a disaster, it is an opportunity.",  # attribution dropped
        "A cloud does not know why it moves.",
        "But the sky knows the reasons.",
        "Debian is a free operating system.",
        "Keep it simple and safe.",
    ]  # no scripture (Matthew 5:5), no ASCII-art file, no .dat index, no Italian through the symlink
    assert text["fr"] == [
        "Debian est un système libre.",  # untranslated English and the URL sentence dropped
        "Quitter avec un code de retour déterminé par EXPRESSION et l'état du fichier donné.",
    ]  # the man page's English sentence is dropped from French too
    assert text["es"] == [
        "Abad de aldea, mucho canta y poco medra.",
        "Ein Satz auf es mit Worten.",
    ]  # no off/
    assert text["de"][0] == "Gewinn ist so notwendig wie die Luft zum Atmen."  # Latin-1 read
    assert text["it"][0] == "Piove sempre sul latte versato, come sempre."
    with pytest.raises(LinguaLiteError, match="fetch them first"):
        mono.extract(tmp_path / "empty", out, ("fr",))


def test_registered_opt_in_with_its_own_outputs(unpacked: Path, tmp_path: Path, monkeypatch) -> None:
    assert sources.SOURCES["monolingual"] is mono and "monolingual" not in sources.DEFAULT_SOURCES
    assert "GPL" in sources.LICENCES["monolingual"]
    assert mono.packages(["fr", "it"]) == [
        "fortunes",
        "debian-reference-en",
        "debian-reference-fr",
        "manpages-fr",
        "fortunes-it",
        "debian-reference-it",
        "manpages-it",
    ]
    fetched: list[list[str]] = []
    monkeypatch.setattr(mono, "download_and_unpack", lambda pkgs, cache: fetched.append(pkgs) or unpacked)
    out = tmp_path / "corpora"
    counts = sources.fetch_corpora(out, langs=("fr",), sources=("monolingual",), progress=lambda m: None)
    assert counts["monolingual"] == {"en": 5, "fr": 2} and (out / "monolingual" / "SOURCE.json").is_file()
    again = sources.fetch_corpora(out, langs=("fr",), sources=("monolingual",), progress=lambda m: None)
    assert again == counts and len(fetched) == 1  # already extracted: its own outputs were found


ZH_FORTUNE = (
    "要有礼貌\n\n在 Debian 这种规模的项目中，很难避免遇到与你意见不和，或者难以合作\n的人。请接受这一事实，并保持礼貌。\n\n"
    "\x1b[33m    -- Debian \x1b[32m《行为准则》\x1b[m第一条\x1b[m\n%\n"
)
JA_MAN = """.TH TEST 1
.SH 説明
この
.B test
コマンドはファイルの種類を調べて、その結果を
終了ステータスとして返します。
.PP
This sentence was left in English by the translator.
"""


def test_chinese_fortunes_japanese_man_pages_and_no_korean(tmp_path: Path) -> None:
    root = tmp_path / "root"
    _write(root / FORTUNES / "chinese", ZH_FORTUNE)
    _write(root / FORTUNES / "tang300", "《静夜思》\n床前明月光，疑是地上霜。\n举头望明月，低头思故乡。\n%\n")
    _write(root / FORTUNES / "wisdom", "A cloud does not know why it moves.\n%\n")
    _write(root / "usr/share/man/ja/man1/test.1.gz", gzip.compress(JA_MAN.encode()))
    _write(root / "usr/share/debian-reference/ch01.en.html", "<p>Debian is a free operating system.</p>")
    entries = list(fortune_entries(root / FORTUNES / "chinese"))
    assert entries == [
        (
            "要有礼貌\n在 Debian 这种规模的项目中，很难避免遇到与你意见不和，或者难以合作的人。请接受这一事实，并保持礼貌。",
            "Debian 《行为准则》第一条",
        )
    ]  # colour codes removed, wrapped Chinese joined without a space, the title a paragraph of its own
    assert mono.lacking(["ko", "ja", "nl"]) == {
        "ko": "Debian has no fortunes, Debian Reference or man pages in it"
    }
    assert mono.packages(["pt", "zh", "ko"]) == [
        "fortunes",
        "debian-reference-en",
        "fortunes-br",
        "debian-reference-pt-br",
        "manpages-pt-br",
        "fortunes-zh",
        "debian-reference-zh-cn",
        "manpages-zh",
    ]
    out = tmp_path / "corpora"
    counts = mono.extract(root, out, ("zh", "ja"))
    text = {
        lang: (out / "monolingual" / f"{lang}.txt").read_text(encoding="utf-8").splitlines()
        for lang in counts
    }
    assert text["zh"] == [
        "在 Debian 这种规模的项目中，很难避免遇到与你意见不和，或者难以合作的人。",
        "请接受这一事实，并保持礼貌。",
    ]  # the Tang poems are not prose and not read; the title alone is no sentence
    assert text["ja"] == [
        "この test コマンドはファイルの種類を調べて、その結果を終了ステータスとして返します。"
    ]  # joined without a space between Japanese lines, with one beside Latin; the English line dropped
    assert "要有礼貌" not in "".join(text["en"]) and len(text["en"]) == 2  # Chinese files are not English


def test_english_function_words_that_are_dutch_or_polish_words_do_not_make_english() -> None:
    assert mono.english("This function is a GNU extension.")
    assert mono.english("This function is a GNU extension.", "pl")  # still English in a Polish page
    assert not mono.english("To jest uczciwa praca.", "pl") and mono.english("To jest uczciwa praca.")
    assert not mono.english("Er is geen aansprakelijkheid.", "nl")


def test_languages_beyond_the_13_read_their_own_packages(tmp_path: Path) -> None:
    root = tmp_path / "root"
    _write(root / FORTUNES / "wisdom", "A cloud does not know why it moves.\n%\n")
    _write(root / FORTUNES / "bg" / "bgproverb", "Който рано рани, две печели.\n%\n")
    _write(root / FORTUNES / "cs" / "citace", "Kdo jinému jámu kopá, sám do ní padá.\n%\n")
    _write(root / "usr/share/debian-reference/ch01.en.html", "<p>Debian is a free operating system.</p>")
    _write(
        root / "usr/share/debian-reference/ch01.zh-tw.html",
        "<p>Debian 是一個自由的作業系統。</p><p>Debian is a free operating system.</p>",
    )
    _write(root / "usr/share/man/zh_CN/man1/t.1", ".TH T 1\n.SH 描述\n这是简体中文的手册页。\n")
    _write(root / "usr/share/man/zh_TW/man1/t.1", ".TH T 1\n.SH 描述\n這是繁體中文的手冊頁。\n")
    _write(root / "usr/share/man/uk/man1/t.1", ".TH T 1\n.SH ОПИС\nЦя команда виводить вміст файла.\n")
    assert mono.packages(["zht", "bg", "uk"]) == [
        "fortunes",
        "debian-reference-en",
        "debian-reference-zh-tw",
        "manpages-zh",
        "fortunes-bg",
        "manpages-uk",
    ]
    assert set(mono.lacking(["ar", "he", "hi", "th", "fa", "ca", "sk", "sl", "cs", "el"])) == {
        "ar",
        "he",
        "hi",
        "th",
        "fa",
        "ca",
        "sk",
        "sl",
    }  # Debian 12 has no fortunes, Debian Reference or man pages in these (fortunes-cs's sk folder is empty)
    counts = mono.extract(root, tmp_path / "corpora", ("zht", "bg", "cs", "uk"))
    text = {
        lang: (tmp_path / "corpora" / "monolingual" / f"{lang}.txt").read_text(encoding="utf-8").splitlines()
        for lang in counts
    }
    # Traditional Chinese reads the zh_TW pages and the zh-tw manual (its untranslated paragraph dropped)
    assert text["zht"] == ["Debian 是一個自由的作業系統。", "這是繁體中文的手冊頁。"]
    assert text["bg"] == ["Който рано рани, две печели."]
    assert text["cs"] == ["Kdo jinému jámu kopá, sám do ní padá."]
    assert text["uk"] == ["Ця команда виводить вміст файла."]


@pytest.mark.parametrize(
    ("sentence", "lang"),
    [
        ("To je dobrý nápad, ale není to snadné.", "cs"),
        ("De to kan se by og to huse.", "da"),
        ("By efter by.", "sv"),
        ("Ő is tudja, hogy a kutya is ugat.", "hu"),
        ("Ea are o casă și are un câine.", "ro"),
    ],
)
def test_english_function_words_that_are_words_of_the_new_languages(sentence: str, lang: str) -> None:
    assert mono.english(sentence) and not mono.english(sentence, lang)  # "to", "by", "is", "are" are theirs
