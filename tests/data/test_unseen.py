"""write_unseen: held-out pairs whose English or translation appears in "seen" files are dropped."""

from __future__ import annotations

from pathlib import Path

import pytest

from lingualite.core.errors import BadInputError, LinguaLiteError
from lingualite.data.unseen import SeenTexts, write_unseen


def test_write_unseen_drops_pairs_with_a_seen_side(tmp_path: Path) -> None:
    train = tmp_path / "train.tsv"
    train.write_text(
        "Open the  FILE\tOuvrir le fichier\td1\nSave it now\tEnregistrez-le\td2\n", encoding="utf-8"
    )
    other = tmp_path / "other.tsv"
    other.write_text("Close the window\tFenster schließen\n", encoding="utf-8")
    test = tmp_path / "test.tsv"
    test.write_text(
        "open the file\tOuvrir ce fichier\tu1\n"  # English seen (normalized: case, spaces)
        "Save this one\tEnregistrez-le\tu2\n"  # translation seen
        "Close the window\tFermer la fenêtre\tu3\n"  # English seen in another language's file
        "\n"
        "Print the page\tImprimer la page\tu4\n",
        encoding="utf-8",
    )
    seen = SeenTexts().add_files([train, other], tgt=False).add_files([train], src=False)
    out = tmp_path / "unseen" / "test.tsv"
    assert write_unseen(test, out, seen) == {"read": 4, "kept": 1, "dropped_seen": 3}
    assert out.read_text(encoding="utf-8") == "Print the page\tImprimer la page\tu4\n"


def test_write_unseen_bad_input_and_no_overwrite(tmp_path: Path) -> None:
    bad = tmp_path / "bad.tsv"
    bad.write_text("fine\tline\nno tab here\n", encoding="utf-8")
    with pytest.raises(BadInputError, match=r"bad\.tsv:2"):
        SeenTexts().add_files([bad])
    good = tmp_path / "good.tsv"
    good.write_text("a b c\tx y z\n", encoding="utf-8")
    with pytest.raises(LinguaLiteError, match="also an input"):
        write_unseen(good, good, SeenTexts())
    assert good.read_text(encoding="utf-8") == "a b c\tx y z\n"
