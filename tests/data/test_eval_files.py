"""Which files a two-direction evaluation reads: classification runs en2xx / xx2en on a set folder, and the
pooled XSR distractors per test file and direction ({data_dir}, {pair}, {lang})."""

from __future__ import annotations

from pathlib import Path

import pytest

from lingualite.core.errors import LinguaLiteError
from lingualite.data.eval_files import (
    classification_runs,
    distractor_column,
    distractor_files,
    expand_direction,
)


def _set(folder: Path, names: list[str]) -> Path:
    folder.mkdir(parents=True)
    for name in names:
        (folder / name).write_text("a\tsome text\n", encoding="utf-8")
    return folder


def test_classification_runs_in_both_directions(tmp_path: Path) -> None:
    names = ["train.en.tsv", "train.fr.tsv", "train.de.tsv", "test.en.tsv", "test.fr.tsv", "test.de.tsv"]
    folder = _set(tmp_path / "set", names)
    ((lang, train, tests),) = classification_runs(folder, "en2xx")
    assert (lang, train.name) == ("en", "train.en.tsv")
    assert [t.name for t in tests] == ["test.en.tsv", "test.de.tsv", "test.fr.tsv"]
    runs = classification_runs(folder, "xx2en")
    assert [(lang, train.name, [t.name for t in tests]) for lang, train, tests in runs] == [
        ("de", "train.de.tsv", ["test.en.tsv"]),
        ("fr", "train.fr.tsv", ["test.en.tsv"]),
    ]
    assert [r[0] for r in classification_runs(folder, "xx2en", ["fr"])] == ["fr"]
    ((_, _, tests),) = classification_runs(folder, "en2xx", ["fr"])
    assert [t.name for t in tests] == ["test.en.tsv", "test.fr.tsv"]  # English stays as the reference


def test_classification_runs_errors_name_what_is_missing(tmp_path: Path) -> None:
    en_only = _set(tmp_path / "en-only", ["train.en.tsv", "test.en.tsv", "test.fr.tsv"])
    with pytest.raises(LinguaLiteError, match=r"xx2en direction needs training documents in fr \(train"):
        classification_runs(en_only, "xx2en")
    with pytest.raises(LinguaLiteError, match="no test file for it"):
        classification_runs(en_only, "en2xx", ["it"])
    with pytest.raises(LinguaLiteError, match="no classification set here"):
        classification_runs(_set(tmp_path / "empty", []), "en2xx")
    no_en_test = _set(tmp_path / "no-en", ["train.en.tsv", "train.fr.tsv", "test.fr.tsv"])
    with pytest.raises(LinguaLiteError, match="scores on test.en.tsv, which is missing"):
        classification_runs(no_en_test, "xx2en")
    with pytest.raises(LinguaLiteError, match=r"direction\(s\) \['fr2en'\]: choose from en2xx, xx2en"):
        classification_runs(no_en_test, "fr2en")


def test_distractor_files_per_pair_and_direction(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LINGUALITE_DATA_DIR", str(tmp_path))
    for name in ("prepared/en-fr/train.tsv", "prepared/en-fr/test.tsv", "mono/fr.txt", "mono/en.txt"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("x\n", encoding="utf-8")
    test = tmp_path / "prepared" / "en-fr" / "test.tsv"
    templates = ["{data_dir}/prepared/{pair}/train.tsv", "{data_dir}/mono/{lang}.txt"]
    assert distractor_files(templates, test, "src2tgt") == [
        tmp_path / "prepared/en-fr/train.tsv",
        tmp_path / "mono/fr.txt",
    ]
    assert distractor_files(templates, test, "tgt2src")[1] == tmp_path / "mono/en.txt"
    assert (distractor_column("src2tgt"), distractor_column("tgt2src")) == (1, 0)
    with pytest.raises(LinguaLiteError, match=r"mono/de.txt: no distractor file matches"):
        distractor_files(["{data_dir}/mono/de.txt"], test, "src2tgt")
    with pytest.raises(LinguaLiteError, match=r"\{lang\} needs a test file in a folder named like en-fr"):
        distractor_files(templates[1:], tmp_path / "pairs.tsv", "src2tgt")


def test_expand_direction() -> None:
    assert expand_direction("both", ("src2tgt", "tgt2src")) == ["src2tgt", "tgt2src"]
    assert expand_direction("tgt2src", ("src2tgt", "tgt2src")) == ["tgt2src"]
    with pytest.raises(LinguaLiteError, match="choose from en2xx, xx2en or both"):
        expand_direction("fr2en", ("en2xx", "xx2en"))
