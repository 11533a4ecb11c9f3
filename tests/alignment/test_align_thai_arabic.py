"""Aligning real Thai and Arabic documents with English (issue 43): LibreOffice UI strings
(tests/real_thai_arabic.py) as documents, one sentence per line as ``lingualite align`` reads them.

Documents are cut into sentences by :func:`~lingualite.text.segmentation.split_sentences`, as a user would cut
a text: English at its stops; Arabic at its stops and its question mark (؟); Thai has no sentence stop (a space
separates its sentences, and phrases too), so a Thai string stays one line where its English is two: the
aligner must find those 2-1 blocks. Gale-Church needs no model (character lengths: Thai and Arabic letters,
marks and bidi controls counted as they are); the embedding aligner uses a static model that knows the strings.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from real_thai_arabic import EN, SIDE, write_pair_model
from typer.testing import CliRunner

from lingualite.alignment import gale_church_align
from lingualite.alignment.documents import align
from lingualite.cli.main import app
from lingualite.text.segmentation import split_sentences

Shape = tuple[tuple[int, ...], tuple[int, ...]]


@pytest.fixture(scope="module")
def pair_model(tmp_path_factory: pytest.TempPathFactory) -> str:
    return write_pair_model(tmp_path_factory.mktemp("thai_arabic") / "model")


def _split(lang: str) -> tuple[list[str], list[int]]:
    """The document of ``lang`` cut into sentences, and the string each sentence comes from."""
    lines, string_of = [], []
    for i, text in enumerate(SIDE[lang]):
        for sentence in split_sentences(text):
            lines.append(sentence)
            string_of.append(i)
    return lines, string_of


def _expected(lang: str) -> list[Shape]:
    """Per string: its sentences 1-1 where both sides have as many, else one block of all of them."""
    src_of, tgt_of = _split("en")[1], _split(lang)[1]
    out: list[Shape] = []
    for i in range(len(EN)):
        s = tuple(n for n, k in enumerate(src_of) if k == i)
        t = tuple(n for n, k in enumerate(tgt_of) if k == i)
        out += [((a,), (b,)) for a, b in zip(s, t, strict=True)] if len(s) == len(t) else [(s, t)]
    return out


def _shapes(alignment) -> list[Shape]:
    return [(s, t) for s, t, _ in alignment]


def test_the_documents_hold_merged_and_split_sentences() -> None:
    """What the tests below rely on: Thai strings one line where English has two, Arabic split at ؟."""
    blocks = {lang: [(len(s), len(t)) for s, t in _expected(lang)] for lang in ("th", "ar")}
    assert blocks["th"].count((2, 1)) == 5 and blocks["th"].count((1, 2)) == 1
    assert (1, 2) in blocks["ar"] and blocks["ar"].count((1, 1)) == len(blocks["ar"]) - 1
    assert split_sentences(SIDE["ar"][1]) == ["ستحتاج إلى إعادة تشغيل البرنامج بعد هذا التّحرير.", "أأتابع؟"]


@pytest.mark.parametrize("lang", ["th", "ar"])
def test_gale_church_finds_a_merged_line(lang: str) -> None:
    """One string per line, two of the translation's lines joined into one (a 2-1 block)."""
    other = SIDE[lang]
    merged = [*other[:4], f"{other[4]} {other[5]}", *other[6:]]
    got = _shapes(gale_church_align(EN, merged))
    expected = (
        [((i,), (i,)) for i in range(4)] + [((4, 5), (4,))] + [((i,), (i - 1,)) for i in range(6, len(EN))]
    )
    assert got == expected


def test_gale_church_aligns_arabic_sentences() -> None:
    """Sentence by sentence (Arabic splits where English does, but for one ellipsis): lengths suffice. On the
    Thai document, where five English pairs of sentences face one Thai line, lengths alone drift (the
    embedding aligner below does not)."""
    assert _shapes(gale_church_align(_split("en")[0], _split("ar")[0])) == _expected("ar")


def _write_documents(folder: Path, lang: str) -> tuple[Path, Path]:
    src, tgt = folder / "doc.en", folder / f"doc.{lang}"
    src.write_bytes("".join(f"{line}\n" for line in _split("en")[0]).encode("utf-8"))
    tgt.write_bytes("".join(f"{line}\n" for line in _split(lang)[0]).encode("utf-8"))
    return src, tgt


def _read_tsv(out: Path, src: Path, tgt: Path) -> list[Shape]:
    """The blocks of an alignment TSV (0-based line ids); each row's texts are its input lines, byte for byte."""
    src_lines, tgt_lines = (p.read_bytes().split(b"\n") for p in (src, tgt))
    shapes = []
    for row in out.read_bytes().split(b"\n")[:-1]:
        s_ids, t_ids, _, s_text, t_text = row.split(b"\t")
        s = tuple(int(i) - 1 for i in s_ids.split(b",") if i)
        t = tuple(int(i) - 1 for i in t_ids.split(b",") if i)
        assert s_text == b" ".join(src_lines[i] for i in s) and t_text == b" ".join(tgt_lines[i] for i in t)
        shapes.append((s, t))
    return shapes


@pytest.mark.parametrize("lang", ["th", "ar"])
def test_embedding_aligner_finds_every_block(pair_model: str, tmp_path: Path, lang: str) -> None:
    src, tgt = _write_documents(tmp_path, lang)
    out = tmp_path / "aligned.tsv"
    done = align(src, tgt, out, model=pair_model)
    assert _read_tsv(out, src, tgt) == _expected(lang)
    assert done.src_lines == len(_split("en")[0]) and done.tgt_lines == len(_split(lang)[0])
    assert "1-0" not in done.shapes and "0-1" not in done.shapes  # nothing left unaligned


@pytest.mark.parametrize("lang, method", [("th", "embedding"), ("ar", "gale-church")])
def test_align_command_on_thai_and_arabic_documents(
    pair_model: str, tmp_path: Path, lang: str, method: str
) -> None:
    src, tgt = _write_documents(tmp_path, lang)
    out = tmp_path / "aligned.tsv"
    args = ["align", "--method", method, "--src", str(src), "--tgt", str(tgt), "--output", str(out), "--json"]
    result = CliRunner().invoke(app, [*args, "--model", pair_model] if method == "embedding" else args)
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    expected = _expected(lang)
    counts = Counter(f"{len(s)}-{len(t)}" for s, t in expected)
    assert summary["shapes"] == {shape: {"blocks": n} for shape, n in counts.items()}
    assert _read_tsv(out, src, tgt) == expected
