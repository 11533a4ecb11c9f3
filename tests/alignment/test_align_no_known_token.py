"""align: a line the model knows no token of (issue 41, the last case) is refused naming FILE:LINE, or with
skip_bad left unaligned like a blank line, its number kept; before, it was aligned by the [UNK] row."""

from __future__ import annotations

from pathlib import Path

import pytest

from lingualite.alignment.documents import align
from lingualite.core.errors import BadInputError


def _documents(tmp_path: Path) -> tuple[Path, Path]:
    src, tgt = tmp_path / "d.en", tmp_path / "d.fr"
    src.write_text("The cat sleeps.\n😀😀\nGood morning.\nHello world.\n", encoding="utf-8")
    tgt.write_text("Le chat dort.\nBon matin.\nBonjour le monde.\n", encoding="utf-8")
    return src, tgt


def test_align_refuses_the_line(tmp_path: Path) -> None:
    src, tgt = _documents(tmp_path)
    with pytest.raises(BadInputError, match=rf"^{src}:2: the model knows no token"):
        align(src, tgt, tmp_path / "a.tsv", model="lingualite-static")
    assert not (tmp_path / "a.tsv").exists()


def test_skip_bad_leaves_it_unaligned_and_keeps_the_numbering(tmp_path: Path) -> None:
    src, tgt = _documents(tmp_path)
    done = align(src, tgt, tmp_path / "a.tsv", model="lingualite-static", skip_bad=True)
    assert done.skipped == {"src": [2], "tgt": []} and done.src_lines == 3
    ids = [line.split("\t")[0] for line in (tmp_path / "a.tsv").read_text().splitlines()]
    assert "2" not in ",".join(ids).split(",") and "4" in ",".join(ids).split(","), ids
