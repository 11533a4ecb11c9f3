"""--device on every command that runs a model: one option, checked at once (a one-line error), the device line
printed once on stderr when asked for (a plain run without a GPU prints what it always printed)."""

from __future__ import annotations

from pathlib import Path

import click
import pytest
import torch
import typer
from typer.testing import CliRunner

from lingualite.cli.main import app
from lingualite.config.encoder import EncoderConfig
from lingualite.core import device as dev
from lingualite.models.dual_encoder import DualEncoder

runner = CliRunner()

RUNS_A_MODEL = [
    "train", "distill", "encode", "mine", "align", "search", "serve", "reproduce", "quickstart",
    "index build", "index add", "eval xsr", "eval classify", "eval pairs", "eval sts", "eval ir",
    "eval efficiency", "eval all", "eval mine", "eval align",
]  # fmt: skip


def _command(path: str) -> click.Command:
    command: click.Command = typer.main.get_command(app)
    for name in path.split():
        command = command.commands[name]  # type: ignore[attr-defined]
    return command


@pytest.mark.parametrize("path", RUNS_A_MODEL)
def test_every_command_that_runs_a_model_takes_device(path: str) -> None:
    options = [p for p in _command(path).params if "--device" in getattr(p, "opts", [])]
    assert len(options) == 1 and options[0].default == "auto"


@pytest.fixture(scope="module")
def model(tiny_tokenizer, tmp_path_factory) -> Path:
    torch.manual_seed(0)
    enc = DualEncoder(EncoderConfig(vocab_size=len(tiny_tokenizer), hidden_size=16, num_heads=2, ffn_size=32))
    return enc.save(tiny_tokenizer, tmp_path_factory.mktemp("m") / "model")


def _encode(model: Path, tmp_path: Path, *extra: str):
    src = tmp_path / "in.txt"
    src.write_text("the cat\nle chien\n")
    return runner.invoke(
        app,
        ["encode", "--model", str(model), "--input", str(src), "--output", str(tmp_path / "v.npy"), *extra],
    )


def test_the_device_line_is_printed_once_when_asked_for(model: Path, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(dev, "_said", set())
    res = _encode(model, tmp_path, "--device", "cpu", "--threads", "1")
    assert res.exit_code == 0, res.output
    lines = [line for line in res.output.splitlines() if line.startswith("lingualite: device")]
    assert lines == ["lingualite: device cpu (1 threads); float32 weights"]
    monkeypatch.setattr(dev, "_said", set())
    res = _encode(model, tmp_path, "--threads", "1")  # auto on a machine without a GPU: as before
    assert res.exit_code == 0 and "lingualite: device" not in res.output


@pytest.mark.skipif(torch.cuda.is_available(), reason="the machine has CUDA")
@pytest.mark.parametrize("args", [["encode"], ["eval", "xsr", "--model", "tfidf", "--pairs", "x.tsv"]])
def test_cuda_without_cuda_is_one_line_before_any_work(args: list[str], model: Path, tmp_path: Path) -> None:
    if args == ["encode"]:
        res = _encode(model, tmp_path, "--device", "cuda")
    else:
        res = runner.invoke(app, [*args, "--device", "cuda:1"])
    assert res.exit_code == 2
    assert res.output.strip().splitlines() == [res.output.strip()]  # one line
    assert "CUDA is not available" in res.output and "--device cpu" in res.output
    assert not (tmp_path / "v.npy").exists()


def test_a_misspelt_device_is_one_line(tmp_path: Path) -> None:
    res = runner.invoke(app, ["train", "--device", "gpu", "--output", str(tmp_path / "run")])
    assert res.exit_code == 2 and "--device 'gpu': choose auto, cpu, cuda or cuda:N" in res.output
    assert not (tmp_path / "run").exists()
