"""The .mo reader on catalogs written in the test (GNU gettext's documented layout), both byte orders."""

from __future__ import annotations

import gettext
import struct
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from mo_fixtures import write_mo

from lingualite.core.errors import LinguaLiteError
from lingualite.data.sources.mo import MoEntry, read_mo

ENTRIES = [
    MoEntry(None, "Open a file", "Ouvrir un fichier"),
    MoEntry("menu|open", "~Open", "~Ouvrir"),
    MoEntry("STR_PAGES", "One page", "Une page\x00%1 pages", plural="%1 pages"),
    MoEntry(None, "Untranslated text here", ""),
    MoEntry("ctx", "Zürich ‹naïve›", "Zurich « naïf »"),
]


@pytest.mark.parametrize("order", ["<", ">"])
def test_read_mo_contexts_plurals_and_empty(tmp_path: Path, order: str) -> None:
    got = read_mo(write_mo(tmp_path / "x.mo", ENTRIES, order))
    assert sorted(got, key=repr) == sorted(ENTRIES, key=repr)  # header left out, plural kept whole
    plural = next(e for e in got if e.plural is not None)
    assert (plural.context, plural.msgid, plural.msgstr.split("\x00")) == (
        "STR_PAGES",
        "One page",
        ["Une page", "%1 pages"],
    )


def test_read_mo_agrees_with_gettext(tmp_path: Path) -> None:
    path = write_mo(tmp_path / "x.mo", ENTRIES)
    with open(path, "rb") as fh:
        ref = gettext.GNUTranslations(fh)
    for e in read_mo(path):
        if e.plural is not None:
            assert ref.ngettext(e.msgid, e.plural, 2) == e.msgstr.split("\x00")[1]
        elif e.msgstr:
            want = ref.pgettext(e.context, e.msgid) if e.context else ref.gettext(e.msgid)
            assert want == e.msgstr


def test_read_mo_uses_the_header_charset(tmp_path: Path) -> None:
    header = "Content-Type: text/plain; charset=ISO-8859-1\n"
    path = write_mo(tmp_path / "l1.mo", [MoEntry(None, "cafe", "café")], header=header, encoding="latin-1")
    assert b"caf\xe9" in path.read_bytes()
    assert read_mo(path) == [MoEntry(None, "cafe", "café")]


def test_read_mo_undecodable_entry_is_an_error(tmp_path: Path) -> None:
    path = write_mo(tmp_path / "u.mo", [MoEntry(None, "cafe", "café")], encoding="latin-1")  # header: UTF-8
    with pytest.raises(LinguaLiteError, match=r"u\.mo: cannot decode an entry as UTF-8"):
        read_mo(path)


@pytest.mark.parametrize(
    "data, match",
    [
        (b"short", "not a .mo file"),
        (b"\x00" * 40, "bad magic"),
        (struct.pack("<7I", 0x950412DE, 0, 5, 28, 68, 0, 0), "truncated|holds"),
        (
            struct.pack("<7I", 0x950412DE, 0, 1, 28, 36, 0, 0) + struct.pack("<4I", 50, 999, 0, 0),
            "past the end",
        ),
    ],
)
def test_read_mo_bad_files_name_the_file(tmp_path: Path, data: bytes, match: str) -> None:
    path = tmp_path / "bad.mo"
    path.write_bytes(data)
    with pytest.raises(LinguaLiteError, match=match) as info:
        read_mo(path)
    assert "bad.mo" in str(info.value)


_text = st.text(st.characters(exclude_characters="\x00\x04", exclude_categories=("Cs",)), max_size=30)
_entry = st.builds(
    MoEntry,
    context=st.none() | _text,
    msgid=_text.filter(bool),
    msgstr=_text,
    plural=st.none() | _text,
)


@given(
    entries=st.lists(_entry, max_size=12, unique_by=lambda e: (e.context, e.msgid)),
    order=st.sampled_from("<>"),
)
def test_read_mo_round_trips_random_catalogs(tmp_path: Path, entries: list[MoEntry], order: str) -> None:
    got = read_mo(write_mo(tmp_path / "r.mo", entries, order))
    assert sorted(got, key=repr) == sorted(entries, key=repr)
