"""Fuzzing the corpus readers and ``prepare``: generated TSV / Moses / TMX files (random bytes, encodings,
line endings, NULs, long lines, empty files, broken XML).

The property: a one-line :class:`LinguaLiteError` naming the file, or a correct result (every pair read is
counted, every kept pair is an input pair) — never another exception, never a partial output.
"""

from __future__ import annotations

import gzip
import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lingualite.core.errors import LinguaLiteError
from lingualite.data.cleaning import CleaningConfig
from lingualite.data.inputs import open_parallel
from lingualite.data.prepare import prepare_corpus
from lingualite.data.readers import ReadStats

pytestmark = pytest.mark.slow  # fuzzing campaign: left out of the fast tier

WORDS = ["the", "cat", "le", "chat", "Haus", "été", "日本", "x" * 50, "", " ", "\t", "\x00", "\r", "\ufeff"]
ENDINGS = [b"\n", b"\r\n", b"\r", b""]
ENCODINGS = ["utf-8", "utf-8-sig", "latin-1", "utf-16"]

line_text = st.lists(st.sampled_from(WORDS), max_size=6).map(" ".join)
tsv_line = st.tuples(line_text, line_text, st.sampled_from(["", "\tdoc1", "\tdoc2", "\ta\tb"])).map(
    lambda t: f"{t[0]}\t{t[1]}{t[2]}"
)


@st.composite
def text_file(draw: st.DrawFn, lines: st.SearchStrategy[str]) -> bytes:
    if draw(st.integers(0, 9)) == 0:
        return draw(st.binary(max_size=300))
    encoding = draw(st.sampled_from(ENCODINGS))
    parts = []
    for line in draw(st.lists(lines, max_size=12)):
        parts.append(line.encode(encoding, errors="replace") + draw(st.sampled_from(ENDINGS[:3])))
    if draw(st.booleans()) and draw(st.integers(0, 20)) == 0:
        parts.append(b"y" * 200_000)  # a huge line
    return b"".join(parts)


@st.composite
def tmx_file(draw: st.DrawFn) -> bytes:
    tus = []
    for _ in range(draw(st.integers(0, 5))):
        segs = "".join(
            f'<tuv xml:lang="{draw(st.sampled_from(["en", "fr", "de", "EN-us", ""]))}"><seg>'
            f"{draw(line_text).replace('&', '&amp;').replace('<', '&lt;')}</seg></tuv>"
            for _ in range(draw(st.integers(0, 3)))
        )
        tus.append(f"<tu>{segs}</tu>")
    body = "" if draw(st.integers(0, 6)) == 0 else f"<body>{''.join(tus)}</body>"
    doc = f'<?xml version="1.0" encoding="UTF-8"?><tmx version="1.4"><header/>{body}</tmx>'
    if draw(st.integers(0, 5)) == 0:  # broken XML
        cut = draw(st.integers(0, len(doc)))
        doc = doc[:cut] + draw(st.sampled_from(["<", "&", "\x00", "</tu>", ""])) + doc[cut:]
    return doc.encode("utf-8", errors="replace")


@st.composite
def corpus(draw: st.DrawFn) -> tuple[str, dict[str, bytes]]:
    kind = draw(st.sampled_from(["tsv", "tsv.gz", "moses", "tmx"]))
    if kind == "moses":
        return kind, {"c.en": draw(text_file(line_text)), "c.fr": draw(text_file(line_text))}
    if kind == "tmx":
        return kind, {"c.tmx": draw(tmx_file())}
    data = draw(text_file(tsv_line))
    if kind == "tsv.gz":
        data = gzip.compress(data) if draw(st.integers(0, 5)) else data[: len(data) // 2] + b"\x1f\x8b"
    return kind, {f"c.{kind}": data}


def _write(folder: Path, files: dict[str, bytes]) -> str | Path:
    for name, data in files.items():
        (folder / name).write_bytes(data)
    return folder / "c" if "c.en" in files else folder / next(iter(files))


def _one_line(exc: LinguaLiteError, folder: Path) -> None:
    message = str(exc)
    assert message and "\n" not in message, message
    assert str(folder) in message or "src_lang" in message, message


@given(corpus(), st.booleans())
def test_readers_give_pairs_or_one_line_errors(case: tuple[str, dict[str, bytes]], skip_bad: bool) -> None:
    _, files = case
    with tempfile.TemporaryDirectory() as tmp:
        spec = _write(Path(tmp), files)
        stats = ReadStats()
        try:
            pairs = list(open_parallel(spec, "en", "fr", skip_bad=skip_bad, stats=stats))
        except LinguaLiteError as exc:
            _one_line(exc, Path(tmp))
            return
        assert stats.pairs == len(pairs)
        for pair in pairs:
            assert "\x00" not in pair.src + pair.tgt and "\n" not in pair.src + pair.tgt
            assert isinstance(pair.line, int) and pair.line >= 1


@given(corpus(), st.booleans())
def test_prepare_writes_all_or_nothing(case: tuple[str, dict[str, bytes]], skip_bad: bool) -> None:
    _, files = case
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        spec = _write(folder, files)
        out = folder / "out"
        try:
            res = prepare_corpus(
                [spec], "en", "fr", out, CleaningConfig(lang_id=False), skip_bad=skip_bad, progress=False
            )
        except LinguaLiteError as exc:
            _one_line(exc, folder)
            assert not out.exists() or sorted(p.name for p in out.iterdir()) == []
            return
        assert sorted(p.name for p in out.iterdir()) == ["stats.json", "test.tsv", "train.tsv", "valid.tsv"]
        kept = sum(res.kept.values())
        written = sum(len(p.read_text(encoding="utf-8").splitlines()) for p in res.paths.values())
        assert kept == written > 0
        read = res.stats["inputs"][0]["read"]["pairs"]
        cleaning = res.stats["inputs"][0]["cleaning"]
        assert cleaning["seen"] == read and cleaning["kept"] + cleaning["dropped_total"] == read
        for path in res.paths.values():
            assert "\x00" not in path.read_text(encoding="utf-8")
