"""Firefox and Thunderbird UI strings: Fluent and .properties reading, pairing by message id across language
packs (real Hebrew, Arabic and Thai strings of the packs), the packages fetched, and the registration."""

from __future__ import annotations

import zipfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import lingualite.data.sources as sources
from lingualite.core.errors import LinguaLiteError
from lingualite.data.sources import mozilla_ui as moz

EN_FTL = """
-brand-short-name = Firefox
close-button =
    .aria-label = Close this window now
    .accesskey = C
restart = You must restart { -brand-short-name } to enable this feature.
controls = <img data-l10n-name="icon"/> <strong>{ $name }</strong> is controlling this setting.
tabs = { $count ->
    [one] You have one open tab here
   *[other] You have { NUMBER($count) } open tabs here
}
see = { restart }
two = Your connection is not secure. Attackers might steal your data.
short = Settings
"""
HE_FTL = """
-brand-short-name = Firefox
close-button =
    .aria-label = סגירת החלון הזה עכשיו
    .accesskey = ס
restart = יש להפעיל את { -brand-short-name } מחדש כדי להפעיל תכונה זו.
controls = <img data-l10n-name="icon"/> <strong>‏{ $name }</strong> שולטת בהגדרה זו.
tabs = { $count ->
    [one] יש לך כאן לשונית פתוחה אחת
   *[other] יש לך כאן { NUMBER($count) } לשוניות פתוחות
}
two = החיבור שלך אינו מאובטח. תוקפים עלולים לגנוב את הנתונים שלך.
short = הגדרות
"""
EN_PROPERTIES = """# a comment
! another comment
feedMoved=Feed subscription moved to another folder.
loginFailed = Login to account "%S" failed
downloads=#1 file downloading;#1 files downloading
menu.accesskey=M
long=This line goes on \\
    over two lines of the file.
toolbar=Toolbars must be labelled when there is more than one toolbar.
parser=Saw “<” where a tag was expected.
"""
HE_PROPERTIES = """feedMoved=\\u05d4\\u05de\\u05d9\\u05e0\\u05d5\\u05d9 להזנה הועבר לתיקייה אחרת.
loginFailed = הכניסה לחשבון „%S” נכשלה
downloads=#1 קבצים יורדים
menu.accesskey=ת
long=השורה הזאת ממשיכה \\
    על פני שתי שורות של הקובץ.
toolbar=Toolbars must be labeled when there is more than one toolbar.
parser=נמצא “<” במקום שבו היה צפוי תג.
"""
MAIL_EN = "Thunderbird has detected an insecure site on this page."
MAIL = {
    "he": "‏Thunderbird זיהה אתר שאינו מאובטח בדף הזה.",
    "ar": "اكتشف Thunderbird موقعًا غير آمن في هذه الصفحة.",
    "th": "Thunderbird ตรวจพบไซต์ที่ไม่ปลอดภัยในหน้านี้",
}
CLOSE = {"he": "סגירה של החלון הזה", "ar": "أغلق هذه النافذة الآن", "th": "ปิดหน้าต่างนี้ตอนนี้เลย"}


def _xpi(path: Path, product: str, loc: str, files: dict[str, str]) -> None:
    folder = path / moz.PRODUCTS[product]
    folder.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(folder / f"langpack-{loc}@{product}.mozilla.org.xpi", "w") as pack:
        for name, text in files.items():
            pack.writestr(name.format(loc=loc), text)


@pytest.fixture()
def raw(tmp_path: Path) -> Path:
    """Unpacked packs: Firefox in en-GB, he, fa (an empty pack) and th; Thunderbird in en-GB, he, ar and th."""
    root = tmp_path / "cache" / "root"
    firefox = {
        "browser/localization/{loc}/browser/preferences.ftl": None,
        "chrome/{loc}/locale/{loc}/messenger/feeds.properties": None,
        "browser/localization/{loc}/preview/enUS-searchFeatures.ftl": None,  # English in every pack
    }
    preview = "suggest = Improve the Firefox Suggest experience today\n"
    _xpi(root, "firefox-esr", "en-GB", dict(zip(firefox, (EN_FTL, EN_PROPERTIES, preview), strict=True)))
    _xpi(
        root,
        "firefox-esr",
        "he",
        dict(zip(firefox, (HE_FTL, HE_PROPERTIES, preview.replace("today", "היום")), strict=True)),
    )
    _xpi(root, "firefox-esr", "fa", {})
    _xpi(root, "firefox-esr", "th", {})
    _xpi(root, "firefox-esr", "ar", {})
    mail = "localization/{loc}/toolkit/formautofill/formAutofill.ftl"
    secure = "secure = Your connection is not secure.\n"  # a sentence of a Firefox message, alone
    _xpi(
        root, "thunderbird", "en-GB", {mail: f"insecure = {MAIL_EN}\nagain = Close this window now\n{secure}"}
    )
    for lang, text in MAIL.items():
        mine = "secure = החיבור שלך אינו מאובטח.\n" if lang == "he" else ""
        _xpi(root, "thunderbird", lang, {mail: f"insecure = {text}\nagain = {CLOSE[lang]}\n{mine}"})
    return tmp_path / "cache"


def _rows(path: Path) -> list[list[str]]:
    return [line.split("\t") for line in path.read_text(encoding="utf-8").splitlines()]


def test_fluent_messages_attributes_terms_variables_and_selectors() -> None:
    got = moz.read_fluent({"a.ftl": EN_FTL})
    assert got[("a.ftl", "close-button.aria-label")] == "Close this window now"
    assert ("a.ftl", "close-button.accesskey") not in got  # not text
    assert ("a.ftl", "close-button") not in got  # no value, attributes only
    assert got[("a.ftl", "restart")] == "You must restart Firefox to enable this feature."
    assert got[("a.ftl", "tabs")] == "You have {$count} open tabs here"  # the default variant
    assert got[("a.ftl", "see")] == got[("a.ftl", "restart")]  # a message reference
    assert moz.clean_message(got[("a.ftl", "controls")]) == "{$name} is controlling this setting."
    # terms resolve across the pack's files, junk is skipped
    got = moz.read_fluent(
        {
            "brand.ftl": "-brand-short-name = Thunderbird\n",
            "b.ftl": "x = Use { -brand-short-name } now\nbroken = {\n",
        }
    )
    assert got == {("b.ftl", "x"): "Use Thunderbird now"}


def test_references_to_attributes_resolve_and_dangling_ones_drop_the_text() -> None:
    got = moz.read_fluent(
        {
            "a.ftl": "profile =\n    .title = Choose User Profile\n"
            "use = Check “{ profile.title }” in the window\n"
            "loop = one { loop2 }\nloop2 = two { loop }\n"
            "gone = Restart { -no-such-term } now\n"
            "no-attr = See { profile.label } here\n"
        }
    )
    assert got[("a.ftl", "use")] == "Check “Choose User Profile” in the window"
    assert ("a.ftl", "loop") not in got and ("a.ftl", "loop2") not in got  # a cycle is no text
    assert ("a.ftl", "gone") not in got and ("a.ftl", "no-attr") not in got


@pytest.mark.parametrize(
    "line, want",
    [
        ("k=ends in a backslash \\\\", {"k": "ends in a backslash \\"}),  # an even count: no continuation
        ("k=a \\\\\\\n   b", {"k": "a \\b"}),  # an odd count continues
        ("k=trailing space\\ ", {"k": "trailing space "}),
        ("k=Time\\: now, 50\\% done", {"k": "Time: now, 50% done"}),
        ("k=\\x41", {"k": "x41"}),  # Java: an unknown escape is the character itself
        ("k=\\ud83d\\ude00 smile", {"k": "\U0001f600 smile"}),  # a surrogate pair is one character
        ("a\\=b=c", {"a=b": "c"}),
        ("SEC_ERROR_NO_KEY=The key was not found.", {"SEC_ERROR_NO_KEY": "The key was not found."}),
        ("pauseButtonAccessKey=P", {}),
        ("find.key=f", {}),
        ("markFolderRead=Mark Folder Read;Mark Folders Read", {}),  # PluralForm without #1
        ("ask=Really? Yes; go on.", {"ask": "Really? Yes; go on."}),
    ],
)
def test_properties_as_java_reads_them(line: str, want: dict[str, str]) -> None:
    assert moz.read_properties("f", line + "\n") == {("f", k): v for k, v in want.items()}


def test_a_broken_properties_escape_names_file_and_line() -> None:
    with pytest.raises(LinguaLiteError, match=r"f.properties:2: broken \\u escape"):
        moz.read_properties("f.properties", "ok=fine\nk=bad \\u12\n")


def test_properties_comments_continuations_escapes_and_skipped_keys() -> None:
    en = moz.read_properties("f.properties", EN_PROPERTIES)
    assert {k: v for k, v in en.items() if k[1] not in ("toolbar", "parser")} == {
        ("f.properties", "feedMoved"): "Feed subscription moved to another folder.",
        ("f.properties", "loginFailed"): 'Login to account "%S" failed',
        ("f.properties", "long"): "This line goes on over two lines of the file.",
    }
    he = moz.read_properties("f.properties", HE_PROPERTIES)
    assert he[("f.properties", "feedMoved")] == "המינוי להזנה הועבר לתיקייה אחרת."


def _java_store(value: str) -> str:
    """``value`` escaped as Java's Properties.store writes it."""
    out = []
    for i, ch in enumerate(value):
        if (ch == " " and i == 0) or ch in "\\=:#!":
            out.append("\\" + ch)
        elif ch in "\t\n\r\f":
            out.append({"\t": "\\t", "\n": "\\n", "\r": "\\r", "\f": "\\f"}[ch])
        elif ord(ch) < 0x20 or ord(ch) > 0x7E:
            units = ch.encode("utf-16-be")
            out += [f"\\u{int.from_bytes(units[j : j + 2], 'big'):04x}" for j in range(0, len(units), 2)]
        else:
            out.append(ch)
    return "".join(out)


@given(
    key=st.from_regex(r"[A-Za-z][A-Za-z0-9_]{0,12}", fullmatch=True),
    value=st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=40),
)
def test_properties_reads_back_what_java_writes(key: str, value: str) -> None:
    """A leading space, backslashes, separators, comment marks, control and non-ASCII characters (surrogate
    pairs beyond U+FFFF) escaped as Java writes them read back as the value."""
    skipped = moz._PROPERTIES_SKIPPED.search(key) or "#1" in value or moz._PLURAL_FORMS.search(value)
    got = moz.read_properties("p", f"{key}={_java_store(value)}\n")
    assert got == ({} if skipped else {("p", key): value})


def test_extract_pairs_by_message_id_in_hebrew_arabic_and_thai(raw: Path, tmp_path: Path) -> None:
    counts = moz.extract(raw, tmp_path / "out", ["he", "ar", "th", "fa"])
    he = _rows(tmp_path / "out" / "mozilla-ui" / "en-he.tsv")
    assert counts["he"] == len(he)
    pairs = {en: xx for en, xx, _ in he}
    assert (
        pairs["You must restart Firefox to enable this feature."]
        == "יש להפעיל את Firefox מחדש כדי להפעיל תכונה זו."
    )
    assert pairs["{$name} is controlling this setting."] == "‏{$name} שולטת בהגדרה זו."
    assert pairs['Login to account "%S" failed'] == "הכניסה לחשבון „%S” נכשלה"
    # two sentences a side: one pair each
    assert pairs["Your connection is not secure."] == "החיבור שלך אינו מאובטח."
    assert pairs["Attackers might steal your data."] == "תוקפים עלולים לגנוב את הנתונים שלך."
    assert "Settings" not in pairs  # one word
    assert not any("#1" in en for en in pairs)
    assert pairs[MAIL_EN] == MAIL["he"]
    docs = {en: doc for en, _, doc in he}
    assert (
        docs["You must restart Firefox to enable this feature."]
        == "mozui:firefox-esr/browser/localization/browser/preferences.ftl"
    )
    assert docs[MAIL_EN] == "mozui:thunderbird/localization/toolkit/formautofill/formAutofill.ftl"
    # a string both products hold keeps the document it was first seen in (Firefox's), whatever its translation,
    # and so does a sentence of a longer message
    assert docs["Close this window now"] == docs["You must restart Firefox to enable this feature."]
    assert docs["Your connection is not secure."] == docs["Attackers might steal your data."]
    assert [en for en, _, _ in he].count("Your connection is not secure.") == 1  # the same pair, once
    # the original English left in a pack is no translation; an English-only file neither
    assert not any("Toolbars" in en or "Suggest" in en for en in pairs)
    assert pairs["Saw “<” where a tag was expected."] == "נמצא “<” במקום שבו היה צפוי תג."  # text, not markup
    assert _rows(tmp_path / "out" / "mozilla-ui" / "en-ar.tsv") == [
        [MAIL_EN, MAIL["ar"], "mozui:thunderbird/localization/toolkit/formautofill/formAutofill.ftl"],
        [
            "Close this window now",
            CLOSE["ar"],
            "mozui:thunderbird/localization/toolkit/formautofill/formAutofill.ftl",
        ],
    ]
    assert [row[1] for row in _rows(tmp_path / "out" / "mozilla-ui" / "en-th.tsv")][0] == MAIL["th"]
    assert counts["fa"] == 0  # an empty Firefox pack, and no Thunderbird pack is looked for


def test_extract_says_which_pack_is_missing(raw: Path, tmp_path: Path) -> None:
    with pytest.raises(LinguaLiteError, match="firefox-esr language pack for ja"):
        moz.extract(raw, tmp_path / "out", ["ja"])
    with pytest.raises(LinguaLiteError, match="no Firefox or Thunderbird language packs"):
        moz.extract(tmp_path / "nothing", tmp_path / "out", ["he"])


def test_packages_and_fetch(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    assert moz.packages("he") == ["firefox-esr-l10n-he", "thunderbird-l10n-he"]
    assert moz.packages("fa") == ["firefox-esr-l10n-fa"]
    assert moz.packages("zht") == ["firefox-esr-l10n-zh-tw", "thunderbird-l10n-zh-tw"]
    assert moz.locale("pt") == "pt-BR" and moz.locale("en") == "en-GB"
    seen: dict[str, Any] = {}

    def fake(packages: list[str], cache_dir: Path) -> Path:
        seen["packages"] = packages
        return cache_dir / "root"

    monkeypatch.setattr(moz, "download_and_unpack", fake)
    assert moz.fetch(tmp_path, ["hi"]) == tmp_path / "root"
    assert seen["packages"] == ["firefox-esr-l10n-en-gb", "thunderbird-l10n-en-gb", "firefox-esr-l10n-hi-in"]


def test_registered_as_an_opt_in_ui_register() -> None:
    assert sources.SOURCES[moz.NAME] is moz
    assert moz.NAME not in sources.DEFAULT_SOURCES
    assert sources.REGISTERS[moz.NAME] == sources.REGISTERS["libreoffice-ui"] == "UI strings"
    assert "MPL-2.0" in sources.LICENCES[moz.NAME]
    assert moz.lacking(["he", "fa", "th"]) == {}


@pytest.mark.parametrize(
    "english, translation, same",
    [
        ("Interactive elements must be labelled.", "Interactive elements must be labeled.", True),
        ("Peer’s public key is invalid.", "Peer's public key is invalid.", True),
        ("Customise your New Tab page", "Customize your New Tab page", True),
        ("Customise your New Tab page", "Personaliza tu página de nueva pestaña", False),
        ("Open the Library window now", "Open de Bibliotheek venster nu", False),
        ("Your connection is not secure.", "החיבור שלך אינו מאובטח.", False),
    ],
)
def test_untranslated_is_the_original_english_in_another_spelling(
    english: str, translation: str, same: bool
) -> None:
    assert moz.untranslated(english, translation) is same
