"""A pair with an empty side is not a pair (issue 41, item 4): ``eval xsr`` scored it (an empty query
against an empty target). Every reader of ``src<TAB>tgt`` files that encodes the sides refuses it naming
file:line; ``prepare`` (the cleaner) keeps counting and dropping such lines as ``empty``."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from lingualite.cli.main import app
from lingualite.core.errors import LinguaLiteError
from lingualite.data.pairs import load_xsr_pairs, read_pairs

runner = CliRunner()


@pytest.mark.parametrize("line", ["the dog\t", "\tle chien", " \tle chien", "the dog\t  \tdoc1"])
def test_eval_xsr_refuses_a_pair_with_an_empty_side(static_model: Path, tmp_path: Path, line: str) -> None:
    pairs = tmp_path / "test.tsv"
    pairs.write_text(f"the cat\tle chat\n{line}\na car\tune voiture\n")
    res = runner.invoke(app, ["eval", "xsr", "--model", f"static:{static_model}", "--pairs", str(pairs)])
    assert res.exit_code == 2, res.output
    assert f"{pairs}:2: " in res.output and "empty" in res.output and res.output.count("\n") == 1, res.output
    with pytest.raises(LinguaLiteError, match=r"test.tsv:2: "):
        load_xsr_pairs(pairs)
    with pytest.raises(LinguaLiteError, match=r"test.tsv:2: "):
        read_pairs([pairs])  # training


def test_eval_mine_refuses_it_and_prepare_drops_it(tmp_path: Path) -> None:
    from lingualite.data.inputs import open_parallel
    from lingualite.evaluation.mining import _pairs as load_gold_pairs

    pairs = tmp_path / "test.tsv"
    pairs.write_text("the cat\tle chat\nthe dog\t\n")
    with pytest.raises(LinguaLiteError, match=r"test.tsv:2: "):
        load_gold_pairs(pairs)
    assert [p.src for p in open_parallel(pairs)] == ["the cat", "the dog"]  # prepare's cleaner counts "empty"
