from pathlib import Path

import pytest

from lingualite.core.errors import LinguaLiteError
from lingualite.data.doc_sources import (
    NO_SOURCE,
    count_sources,
    pairs_of_source,
    source_of,
    write_without_sources,
)

LINES = [
    "In the beginning\tAu commencement\tbible:Gen:1",
    "Open the file\tOuvrir le fichier\tlo:text/swriter/guide",
    "A package\tUn paquet\tddtp:vim",
    "And God said\tEt Dieu dit\tbible:Gen:1",
    "And God said\tDieu dit encore\tbible:Gen:2",
    "No document\tAucun document",
]


@pytest.fixture
def pairs_file(tmp_path: Path) -> Path:
    path = tmp_path / "en-fr" / "train.tsv"
    path.parent.mkdir()
    path.write_text("\n".join(LINES) + "\n", encoding="utf-8")
    return path


def test_source_of() -> None:
    assert source_of("bible:Gen:1") == "bible"
    assert source_of("lo:text/swriter") == "lo"
    assert source_of(None) == NO_SOURCE
    assert source_of("nocolon") == NO_SOURCE


def test_count_sources(pairs_file: Path) -> None:
    assert count_sources(pairs_file) == {"bible": 3, "ddtp": 1, "lo": 1, NO_SOURCE: 1}


def test_pairs_of_source_keeps_unique_sides(pairs_file: Path) -> None:
    # the 2nd "And God said" repeats a source side: dropped, so each query has one right answer
    assert pairs_of_source(pairs_file, "bible") == [
        ("In the beginning", "Au commencement"),
        ("And God said", "Et Dieu dit"),
    ]
    assert pairs_of_source(pairs_file, "ddtp") == [("A package", "Un paquet")]
    assert pairs_of_source(pairs_file, "absent") == []


def test_write_without_sources(pairs_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "loso" / "en-fr" / "train.tsv"
    out.parent.mkdir(parents=True)
    kept = write_without_sources(pairs_file, out, {"bible"})
    assert kept == {"ddtp": 1, "lo": 1, NO_SOURCE: 1}
    assert out.read_text(encoding="utf-8").splitlines() == [LINES[1], LINES[2], LINES[5]]
    assert count_sources(out) == kept  # the written file reads back with the same doc ids


def test_write_without_sources_refuses_its_input(pairs_file: Path) -> None:
    with pytest.raises(LinguaLiteError):
        write_without_sources(pairs_file, pairs_file, {"bible"})
    assert len(pairs_file.read_text(encoding="utf-8").splitlines()) == len(LINES)
