"""Fuzzing the model loader: a model folder with generated damage (a file missing, truncated, overwritten,
replaced by text) loads and gives the undamaged model's vectors, or is one line naming the folder."""

from __future__ import annotations

import shutil
import tempfile
from functools import cache
from pathlib import Path

import numpy as np
import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

from lingualite.core.errors import LinguaLiteError
from lingualite.encoders.folder import SentenceTransformerEncoder

pytestmark = pytest.mark.slow  # fuzzing campaign: left out of the fast tier

SENTENCES = ["the big cat runs", "le petit chien dort", "日本語"]
# Files whose loss or damage cannot change the vectors (documentation, training leftovers).
HARMLESS = {"README.md"}


@cache
def _pristine() -> tuple[Path, np.ndarray, tuple[str, ...]]:
    from lingualite.config.encoder import EncoderConfig
    from lingualite.models.dual_encoder import DualEncoder
    from lingualite.tokenization import train_tokenizer

    texts = {"en": ["the big cat runs", "a small dog"] * 20, "fr": ["le petit chien dort", "un chat"] * 20}
    tokenizer = train_tokenizer(texts, vocab_size=60, sample_size=200)
    torch.manual_seed(0)
    model = DualEncoder(EncoderConfig(vocab_size=len(tokenizer), hidden_size=32, num_heads=2, ffn_size=64))
    folder = model.save(tokenizer, Path(tempfile.mkdtemp(prefix="fuzz-model-")) / "m")
    vectors = SentenceTransformerEncoder(folder, threads=1).encode(SENTENCES)
    files = tuple(sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()))
    return folder, vectors, files


# (which file: an index into the folder's sorted file list, what, where, bytes written)
damage = st.lists(
    st.tuples(
        st.integers(0, 1000),
        st.sampled_from(["delete", "truncate", "overwrite", "text", "empty"]),
        st.integers(0, 1 << 20),
        st.binary(min_size=1, max_size=16),
    ),
    min_size=1,
    max_size=3,
)


def _apply(folder: Path, ops: list[tuple[int, str, int, bytes]]) -> set[str]:
    _, _, files = _pristine()
    touched = set()
    for index, op, offset, payload in ops:
        name = files[index % len(files)]
        path = folder / name
        if not path.exists():
            continue
        data = path.read_bytes()
        if op == "delete":
            path.unlink()
        elif op == "truncate":
            path.write_bytes(data[: offset % max(1, len(data))])
        elif op == "overwrite":
            at = offset % max(1, len(data))
            path.write_bytes(data[:at] + payload + data[at + len(payload) :])
        elif op == "text":
            path.write_bytes(b"{not json" + payload)
        else:
            path.write_bytes(b"")
        if path.exists() and path.read_bytes() == data:
            continue
        touched.add(name)
    return touched


@given(damage)
def test_damaged_folders_load_correctly_or_fail_in_one_line(ops: list[tuple[int, str, int, bytes]]) -> None:
    pristine, vectors, _ = _pristine()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(shutil.copytree(pristine, Path(tmp) / "m"))
        touched = _apply(folder, ops)
        try:
            got = SentenceTransformerEncoder(folder, threads=1).encode(SENTENCES)
        except LinguaLiteError as exc:
            message = str(exc)
            assert "\n" not in message and str(folder) in message, message
            return
        assert got.shape == vectors.shape and np.isfinite(got).all()
        if touched <= HARMLESS:
            np.testing.assert_allclose(got, vectors, atol=1e-6)
