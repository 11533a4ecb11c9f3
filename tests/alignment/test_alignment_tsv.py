"""The alignment TSV: ids mapped to file lines, skips with an empty side, texts kept on one line."""

from __future__ import annotations

from pathlib import Path

import pytest

from lingualite.alignment import format_tsv, write_tsv
from lingualite.core.errors import LinguaLiteError


def test_format_maps_ids_and_cleans_texts() -> None:
    alignment = [((0,), (0, 1), 0.5), ((1,), (), 0.0), ((), (2,), 0.0)]
    lines = list(format_tsv(alignment, ["a\tb", "c"], ["x", "y", "z\nw"], src_ids=[3, 7], tgt_ids=[0, 1, 5]))
    # 1-based line numbers, as mine and search write them
    assert lines == ["4\t1,2\t0.5000\ta b\tx y", "8\t\t0.0000\tc\t", "\t6\t0.0000\t\tz w"]


def test_write_is_atomic_and_refuses_inputs(tmp_path: Path) -> None:
    src = tmp_path / "in.txt"
    src.write_text("a\n", encoding="utf-8")
    out = tmp_path / "out.tsv"
    write_tsv(out, [((0,), (0,), 1.0)], ["a"], ["b"], inputs=[src])
    assert out.read_text(encoding="utf-8") == "1\t1\t1.0000\ta\tb\n"
    with pytest.raises(LinguaLiteError, match="also an input"):
        write_tsv(src, [], [], [], inputs=[src])
    assert src.read_text(encoding="utf-8") == "a\n"
