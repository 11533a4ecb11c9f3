"""Streaming encode: any file size in bounded memory, the same lines (and errors) as reading it whole."""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from lingualite.core.errors import BadInputError
from lingualite.data import lines as lines_module
from lingualite.data.lines import iter_line_chunks, read_lines
from lingualite.encoders.static import StaticEncoder
from lingualite.encoding.to_file import encode_file


def _encode_traced(static_model: Path, tmp_path: Path, n: int) -> tuple[int, np.ndarray]:
    words = ["the cat", "le chien rouge", "a big house runs", "voiture"]
    src = tmp_path / f"in-{n}.txt"
    src.write_text("".join(f"{words[i % 4]} {i}\n" for i in range(n)))
    encoder = StaticEncoder(static_model)
    tracemalloc.start()
    result = encode_file(encoder, src, tmp_path / f"v-{n}.npy", progress=False, chunk=1000)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    vectors = np.load(tmp_path / f"v-{n}.npy", mmap_mode="r")
    assert result.sentences == n and vectors.shape == (n, 16)
    i = n - 7
    np.testing.assert_allclose(vectors[i], encoder.encode([f"{words[i % 4]} {i}"])[0], atol=1e-6)
    return peak, vectors


@pytest.mark.slow
def test_memory_does_not_grow_with_the_file(static_model: Path, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(lines_module, "BLOCK", 1 << 16)
    small, _ = _encode_traced(static_model, tmp_path, 40_000)
    large, vectors = _encode_traced(static_model, tmp_path, 160_000)  # 160 chunks of 1,000 sentences
    held_at_once = vectors.nbytes + 160_000 * 60  # the vectors and the text as Python strings
    assert large < 1.5 * small and large < held_at_once / 5, (small, large, held_at_once)


def test_errors_name_the_line_as_reading_whole_does(static_model: Path, tmp_path: Path) -> None:
    src = tmp_path / "bad.txt"
    src.write_bytes(b"fine\n" * 5000 + b"bad \xff byte\n")
    with pytest.raises(BadInputError, match=r"bad.txt:5001"):
        encode_file(StaticEncoder(static_model), src, tmp_path / "v.npy", progress=False, chunk=100)
    assert not (tmp_path / "v.npy").exists()


@given(
    st.lists(
        st.tuples(st.text(alphabet="ab é", max_size=6), st.sampled_from(["\n", "\r\n", "\r"])), max_size=12
    ),
    st.booleans(),
    st.booleans(),
    st.integers(1, 5),
)
def test_chunks_equal_read_lines_across_block_boundaries(
    tmp_path: Path, items, bom: bool, drop_last: bool, size: int
) -> None:
    parts = [p for pair in items for p in pair]
    if drop_last and parts:
        parts.pop()
    path = tmp_path / "t.txt"
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + "".join(parts).encode())
    original = lines_module.BLOCK
    lines_module.BLOCK = 5  # every kind of boundary: inside CRLF, after CR, inside a UTF-8 character
    try:
        assert [line for chunk in iter_line_chunks(path, size) for line in chunk] == read_lines(path)
    finally:
        lines_module.BLOCK = original
