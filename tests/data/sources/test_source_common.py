"""Shared helpers of the corpus extractors: text clean-up, sentence split, alignment, TSV output."""

from __future__ import annotations

import bz2
import gzip
import lzma
from pathlib import Path

import pytest

from lingualite.core.errors import LinguaLiteError
from lingualite.data.sources import SOURCES, common, extraction
from lingualite.data.sources.apt import find_deb, private_apt_options, read_index_file
from lingualite.data.sources.common import (
    SourceUnavailableError,
    align_units,
    clean_text,
    count_lines,
    split_sentences,
    write_pairs,
)
from lingualite.text.segmentation import SENTENCE_RULES


def test_clean_text_collapses_all_whitespace() -> None:
    assert clean_text("  a\tb\n c\u00a0 d  ") == "a b c d"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("One two. Three four! Five six? Seven", ["One two.", "Three four!", "Five six?", "Seven"]),
        ("No split. lower case next", ["No split. lower case next"]),
        ("Accented. Élan vital.", ["Accented.", "Élan vital."]),
        ('He said "Stop." Then left.', ['He said "Stop."', "Then left."]),
        ("¿Qué? ¡Hola! Fin.", ["¿Qué?", "¡Hola!", "Fin."]),
        ("Use e.g. The tool. Then go.", ["Use e.g. The tool.", "Then go."]),
        ("Siehe z. B. Datei. Dann los.", ["Siehe z. B. Datei.", "Dann los."]),
        ("Version 7. The end.", ["Version 7. The end."]),
        ("", []),
    ],
)
def test_split_sentences(text: str, expected: list[str]) -> None:
    assert split_sentences(text) == expected


def test_align_units_pairs_sentences_only_when_counts_match() -> None:
    assert align_units("Aa bb. Cc dd.", "Ee ff. Gg hh.") == [("Aa bb.", "Ee ff."), ("Cc dd.", "Gg hh.")]
    assert align_units("Aa bb. Cc dd.", "Ee ff gg hh.") == [("Aa bb. Cc dd.", "Ee ff gg hh.")]
    assert align_units("Aa bb cc.", "Ee ff gg.") == [("Aa bb cc.", "Ee ff gg.")]
    # a Greek question ends in ";", the Greek question mark
    assert align_units("What is Linux? It is a system.", "Τι είναι το Linux; Είναι ένα σύστημα.") == [
        ("What is Linux?", "Τι είναι το Linux;"),
        ("It is a system.", "Είναι ένα σύστημα."),
    ]
    calc = (
        "What is LibreOffice Calc? It is a spreadsheet.",
        "Τι είναι το LibreOffice Calc; Είναι ένα φύλλο.",
    )
    assert len(align_units(*calc, "el")) == 2 and len(align_units(*calc)) == 1


def test_sources_aligned_by_sentences_are_extracted_again_when_the_rules_change() -> None:
    """A source whose pairs align_units cuts records the sentence rules' version as its extraction: a folder
    split by older rules (before the Greek question mark) is extracted again at the next fetch."""
    for name in ("libreoffice", "ddtp", "games"):
        assert extraction(SOURCES[name]) == SENTENCE_RULES >= 2


def test_write_pairs_filters_dedups_and_cleans(tmp_path: Path) -> None:
    out = tmp_path / "x" / "en-fr.tsv"
    pairs = [
        ("one two three", "un deux trois", "d1"),
        ("one two three", "un deux trois", "d2"),  # repeat
        ("one two", "un deux trois", "d1"),  # too short
        ("Same text here", "same TEXT here", "d1"),  # untranslated
        ("tab\there and\nnewline", "tab\tici et\nretour", "d\t3"),
        ("one two three", "uno dos tres", "d4"),  # other translation of the same English: kept
    ]
    assert write_pairs(out, pairs) == 3
    assert out.read_text(encoding="utf-8") == (
        "one two three\tun deux trois\td1\n"
        "tab here and newline\ttab ici et retour\td 3\n"
        "one two three\tuno dos tres\td4\n"
    )
    assert count_lines(out) == 3
    assert [p.name for p in out.parent.iterdir()] == ["en-fr.tsv"]  # no temp files left


def test_require_tool_missing_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(common.shutil, "which", lambda name: None)
    with pytest.raises(SourceUnavailableError, match="apt-get not found on PATH"):
        common.require_tool("apt-get", "download packages")
    assert issubclass(SourceUnavailableError, LinguaLiteError)


def test_run_tool_failure_reports_last_error_line(tmp_path: Path) -> None:
    script = tmp_path / "fail.sh"
    script.write_text("#!/bin/sh\necho 'W: a warning' >&2\necho 'E: it broke' >&2\nexit 3\n")
    script.chmod(0o755)
    with pytest.raises(SourceUnavailableError, match=r"thing failed \(exit 3\): E: it broke"):
        common.run_tool([script], "thing")
    with pytest.raises(SourceUnavailableError, match="cannot run"):
        common.run_tool([tmp_path / "does-not-exist"], "thing")


def test_read_index_file_plain_and_compressed(tmp_path: Path) -> None:
    text = "Package: a\nDescription-md5: 0\n"
    (tmp_path / "T-en").write_text(text, encoding="utf-8")
    (tmp_path / "T-en.gz").write_bytes(gzip.compress(text.encode()))
    (tmp_path / "T-en.xz").write_bytes(lzma.compress(text.encode()))
    (tmp_path / "T-en.bz2").write_bytes(bz2.compress(text.encode()))
    for name in ("T-en", "T-en.gz", "T-en.xz", "T-en.bz2"):
        assert read_index_file(tmp_path / name) == text


def test_find_deb_ignores_version(tmp_path: Path) -> None:
    assert find_deb(tmp_path, "libreoffice-help-fr") is None
    deb = tmp_path / "libreoffice-help-fr_4%3a7.4.7-1+deb12u14_all.deb"
    deb.touch()
    (tmp_path / "libreoffice-help-fr-extra_1_all.deb").touch()
    assert find_deb(tmp_path, "libreoffice-help-fr") == deb


def test_private_apt_options_are_absolute(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    opts = private_apt_options(Path("rel") / "state")
    values = dict(o.split("=", 1) for o in opts[1::2])
    assert values["Dir::State::Lists"] == str(tmp_path / "rel" / "state" / "lists")
    assert values["Dir::Cache"] == str(tmp_path / "rel" / "state" / "cache")
    assert all(opt == "-o" for opt in opts[::2])
    assert (tmp_path / "rel" / "state" / "lists" / "partial").is_dir()
