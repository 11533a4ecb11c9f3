"""Mining real Thai and Arabic text (issue 43): LibreOffice UI strings (tests/real_thai_arabic.py) through
``mine_files`` and ``lingualite mine`` with a static model that knows them. Thai written without spaces
between words, Arabic with its own question mark, digits, RLM/LRM marks and zero-width non-joiners: every
true pair is mined, ranked above the pairs of sentences with no translation in the other file, and every text
in the output is its input line byte for byte (nothing normalised, reordered, mirrored or stripped)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from real_thai_arabic import SIDE, write_pair_model
from typer.testing import CliRunner

from lingualite.cli.main import app
from lingualite.mining.pipeline import MineSettings, mine_files


@pytest.fixture(scope="module")
def pair_model(tmp_path_factory: pytest.TempPathFactory) -> str:
    return write_pair_model(tmp_path_factory.mktemp("thai_arabic") / "model")


def _files(tmp_path: Path, src_lang: str, tgt_lang: str) -> tuple[Path, Path, dict[str, str]]:
    """Sources: all strings but the last two; targets: the translations of all but the first two, shuffled.
    Two sentences of each side have no translation in the other file."""
    src_lines, tgt_lines = SIDE[src_lang][:-2], SIDE[tgt_lang][2:]
    truth = dict(zip(SIDE[src_lang][2:-2], SIDE[tgt_lang][2:-2], strict=True))
    random.Random(3).shuffle(tgt_lines)
    src, tgt = tmp_path / f"text.{src_lang}", tmp_path / f"text.{tgt_lang}"
    src.write_bytes("".join(f"{line}\n" for line in src_lines).encode("utf-8"))
    tgt.write_bytes("".join(f"{line}\n" for line in tgt_lines).encode("utf-8"))
    return src, tgt, truth


def _check_output(out: Path, src: Path, tgt: Path, truth: dict[str, str]) -> None:
    src_lines, tgt_lines = (p.read_bytes().split(b"\n") for p in (src, tgt))
    rows = [line.split(b"\t") for line in out.read_bytes().split(b"\n")[:-1]]
    assert rows and all(len(row) == 5 for row in rows)
    for _, a, b, s_no, t_no in rows:  # the texts are the input lines, byte for byte
        assert a == src_lines[int(s_no) - 1] and b == tgt_lines[int(t_no) - 1]
    pairs = [(float(score), a.decode("utf-8"), b.decode("utf-8")) for score, a, b, _, _ in rows]
    assert {a: b for _, a, b in pairs if a in truth} == truth
    true_scores = [score for score, a, _ in pairs if a in truth]
    others = [score for score, a, _ in pairs if a not in truth]
    assert len(true_scores) == len(truth) and all(s < min(true_scores) for s in others), pairs


@pytest.mark.parametrize("src_lang, tgt_lang", [("en", "th"), ("en", "ar"), ("th", "ar")])
def test_mines_the_true_pairs_of_real_thai_and_arabic(
    pair_model: str, tmp_path: Path, src_lang: str, tgt_lang: str
) -> None:
    src, tgt, truth = _files(tmp_path, src_lang, tgt_lang)
    out = tmp_path / "pairs.tsv"
    result = mine_files(pair_model, src, tgt, out, settings=MineSettings(shard_size=6), report=lambda s: None)
    assert result.src_sentences == result.tgt_sentences == len(SIDE["en"]) - 2
    assert len(list((tmp_path / "pairs.tsv.work" / "src").glob("shard-*.npy"))) == 3  # 16 lines / 6
    _check_output(out, src, tgt, truth)
    # the RLM that opens a line and the LRM / ZWNJ inside one come out where they went in
    text = out.read_text(encoding="utf-8")
    if "ar" in (src_lang, tgt_lang):
        assert "\u200fLibreOffice مشتقّ" in text and '"FTP\u200e:\u200e/\u200e/\u200e"' in text
        assert "(ي\u200f\u200cش\u200c\u200fس)" in text


def test_mine_command_on_thai_and_arabic_files(pair_model: str, tmp_path: Path) -> None:
    runner = CliRunner()
    for tgt_lang in ("th", "ar"):
        folder = tmp_path / tgt_lang
        folder.mkdir()
        src, tgt, truth = _files(folder, "en", tgt_lang)
        out = folder / "mined.tsv"
        args = ["mine", "--model", pair_model, "--src", str(src), "--tgt", str(tgt), "--output", str(out)]
        result = runner.invoke(app, [*args, "--json"])
        assert result.exit_code == 0, result.output
        summary = json.loads(result.stdout.strip().splitlines()[-1])
        assert summary["pairs"] == out.read_bytes().count(b"\n") >= len(truth)
        _check_output(out, src, tgt, truth)
