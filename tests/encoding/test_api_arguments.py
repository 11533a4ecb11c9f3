"""The Python API checks its arguments before any work (issue 41, smaller ones): ``encode(dimensions=1.5)``
warned and then failed with a TypeError from inside; ``normalize="no"``, ``dimensions=True``,
``batch_size=0`` and ``threads=0`` were accepted. A wrong type is a TypeError, a wrong value a
LinguaLiteError, both one line naming the parameter."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

import lingualite
from lingualite.core.errors import LinguaLiteError


@pytest.mark.parametrize(
    ("options", "error", "names"),
    [
        ({"dimensions": 1.5}, TypeError, "dimensions"),
        ({"dimensions": True}, TypeError, "dimensions"),
        ({"dimensions": 0}, LinguaLiteError, "dimensions"),
        ({"normalize": "no"}, TypeError, "normalize"),
        ({"normalize": 1}, TypeError, "normalize"),
        ({"batch_size": 0}, LinguaLiteError, "batch_size"),
        ({"batch_size": 2.0}, TypeError, "batch_size"),
        ({"threads": 0}, LinguaLiteError, "threads"),
        ({"threads": -1}, LinguaLiteError, "threads"),
        ({"precision": 8}, TypeError, "precision"),
    ],
)
def test_encode_and_encode_file_check_their_arguments(
    static_model: Path, tmp_path: Path, caplog, options: dict, error: type, names: str
) -> None:
    src = tmp_path / "in.txt"
    src.write_text("the cat\na dog\n")
    for call in (
        lambda: lingualite.encode(str(static_model), ["the cat", "a dog"], **options),
        lambda: lingualite.encode_file(str(static_model), src, tmp_path / "v.npy", progress=False, **options),
    ):
        with caplog.at_level(logging.WARNING), pytest.raises(error, match=names) as info:
            call()
        assert str(info.value).count("\n") == 0
        assert caplog.text == ""  # no warning before the refusal
        assert not (tmp_path / "v.npy").exists()


def test_encode_file_checks_workers_and_progress(static_model: Path, tmp_path: Path) -> None:
    src = tmp_path / "in.txt"
    src.write_text("the cat\n")
    with pytest.raises(LinguaLiteError, match="workers"):
        lingualite.encode_file(str(static_model), src, tmp_path / "v.npy", workers=0)
    with pytest.raises(TypeError, match="progress"):
        lingualite.encode_file(str(static_model), src, tmp_path / "v.npy", progress="yes")


def test_load_encoder_checks_threads(static_model: Path) -> None:
    for threads, error in ((0, LinguaLiteError), (-2, LinguaLiteError), (1.5, TypeError), (True, TypeError)):
        with pytest.raises(error, match="threads"):
            lingualite.load_encoder(f"static:{static_model}", threads=threads)
    assert lingualite.load_encoder(f"static:{static_model}", threads=1) is not None
