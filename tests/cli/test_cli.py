"""The command line: help that teaches, JSON output, one-line errors naming file and line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lingualite.cli.main import app

runner = CliRunner()


def test_help_lists_every_command() -> None:
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    for command in ("prepare", "train", "encode", "quickstart", "data", "tokenizer", "eval"):
        assert command in result.output


def test_eval_xsr_tfidf_json(synthetic_corpus: Path) -> None:
    result = runner.invoke(
        app,
        [
            "eval",
            "xsr",
            "--model",
            "tfidf",
            "--pairs",
            str(synthetic_corpus / "en-fr" / "valid.tsv"),
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert {"p_at_1", "p_at_5", "p_at_10", "src2tgt_p_at_1", "tgt2src_p_at_1"} <= out.keys()
    assert 0.0 <= out["p_at_1"] <= out["p_at_5"] <= out["p_at_10"] <= 1.0


def test_prepare_reports_the_bad_line_or_skips_it(tmp_path: Path) -> None:
    corpus = tmp_path / "c.tsv"
    corpus.write_text("one two three\tun deux trois\nno tab here\nfour five six\tquatre cinq six\n")
    result = runner.invoke(app, ["prepare", str(corpus), "--output", str(tmp_path / "out"), "--no-lang-id"])
    assert result.exit_code == 2
    assert f"{corpus}:2:" in result.output and "tab" in result.output
    assert not (tmp_path / "out" / "train.tsv").exists()
    result = runner.invoke(
        app, ["prepare", str(corpus), "--output", str(tmp_path / "out"), "--no-lang-id", "--skip-bad"]
    )
    assert result.exit_code == 0, result.output
    stats = json.loads((tmp_path / "out" / "stats.json").read_text())
    assert stats["bad_lines"] == {"no_tab": 1}


def test_train_with_a_bad_config_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("optim:\n  batch_sise: 3\n")
    result = runner.invoke(app, ["train", "--config", str(bad), "--output", str(tmp_path / "run")])
    assert result.exit_code == 2
    assert "unknown key(s) ['batch_sise']" in result.output


@pytest.mark.slow
def test_train_on_your_own_files_without_writing_a_yaml(
    synthetic_corpus: Path, tiny_tokenizer, tmp_path
) -> None:
    import yaml

    tiny_tokenizer.save_pretrained(str(tmp_path / "tok"))
    cfg = {
        "data": {
            "train_files": ["does/not/exist.tsv"],
            "valid_files": ["nor/this.tsv"],
            "valid_pairs": 50,
        },
        "vocabulary": {"path": str(tmp_path / "tok")},
        "model": {"hidden_size": 32, "num_layers": 1, "num_heads": 2, "ffn_size": 64, "max_seq_length": 16},
        "optim": {"max_steps": 2, "batch_size": 16, "warmup_steps": 1, "eval_every": 2, "save_every": 2},
    }
    (tmp_path / "c.yaml").write_text(yaml.safe_dump(cfg))
    res = runner.invoke(
        app,
        ["train", "--config", str(tmp_path / "c.yaml"), "--output", str(tmp_path / "run"),
         "--train-files", str(synthetic_corpus / "en-fr" / "train.tsv"),
         "--valid-files", str(synthetic_corpus / "en-fr" / "valid.tsv")],
    )  # fmt: skip
    assert res.exit_code == 0, res.output
    saved = yaml.safe_load((tmp_path / "run" / "config.yaml").read_text())
    assert saved["data"]["train_files"] == [str(synthetic_corpus / "en-fr" / "train.tsv")]
    assert "--train-files" in runner.invoke(app, ["distill", "--help"], env={"COLUMNS": "200"}).output


def test_tokenizer_train_splits_han_and_kana_and_counts_english_once(tmp_path: Path) -> None:
    english = ["the cat sleeps", "machine learning", "a red car", "the big house"]
    sides = {
        "zh": ["猫在睡觉", "机器学习", "一辆红色的车", "大房子"],
        "ja": ["猫が寝ている", "機械学習", "赤い車", "大きな家"],
        "ko": ["고양이가 잔다", "기계 학습", "빨간 자동차", "큰 집"],
    }
    inputs = []
    for lang, targets in sides.items():
        (tmp_path / f"en-{lang}").mkdir()
        path = tmp_path / f"en-{lang}" / "train.tsv"
        path.write_text(
            "".join(f"{e}\t{t}\n" for e, t in zip(english, targets, strict=True)), encoding="utf-8"
        )
        inputs.append(str(path))
    out = tmp_path / "tok"
    args = [
        "tokenizer",
        "train",
        *inputs,
        "--output",
        str(out),
        "--vocab-size",
        "200",
        "--sample-size",
        "400",
    ]
    result = runner.invoke(app, [*args, "--kind", "wordpiece", "--json"])
    assert result.exit_code == 0, result.output
    shares = json.loads(result.output)["language_shares"]
    assert {lang: s["share"] for lang, s in shares.items()} == {
        "en": 0.25,
        "zh": 0.25,
        "ja": 0.25,
        "ko": 0.25,
    }
    from lingualite.tokenization import load_tokenizer

    tok = load_tokenizer(out)
    assert tok.tokenize("机器学习") == ["机", "器", "学", "习"]
    assert tok.unk_token_id not in tok("赤い車 큰 집 the cat", add_special_tokens=False)["input_ids"]


def test_tokenizer_train_keeps_a_character_the_sample_missed_with_alphabet_min_count(tmp_path: Path) -> None:
    (tmp_path / "en-zh").mkdir()
    lines = [f"cat {i}\t猫 {i}" for i in range(300)] + ["noodles\t吃麵", "more noodles\t麵條"]
    path = tmp_path / "en-zh" / "train.tsv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    from lingualite.tokenization import load_tokenizer

    unk = []
    for extra in ([], ["--alphabet-min-count", "2"]):
        out = tmp_path / f"tok{len(extra)}"
        args = ["tokenizer", "train", str(path), "--output", str(out), "--vocab-size", "120"]
        result = runner.invoke(app, [*args, "--sample-size", "20", "--kind", "wordpiece", *extra])
        assert result.exit_code == 0, result.output
        tok = load_tokenizer(out)
        unk.append(tok.unk_token_id in tok("麵", add_special_tokens=False)["input_ids"])
    assert unk == [True, False]  # 20 draws of 302 lines miss both 麵 lines; the option brings one back
